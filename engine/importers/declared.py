"""What an upload declares, read from its headers before its batch is queued (docs/importing.md, "Limits"): the
hexes of its maps (a VASSAL module's boards times their hexes, a Tiled map's layers times its tiles, a Wesnoth,
MegaMek, VASL or Hexside map's own size) and the pixels of the images they name. No Django.

The upload's size does not bound the work: a 4 KB VASSAL module may name a thousand boards of 500 x 500 hexes.
Nothing here converts or decodes anything: a zip's directory is read and its map files' bytes (capped as
read_zip caps them), XML and JSON are searched for the few numbers that size the work, and an image is read to
its header. What a file does not declare, the conversion bounds itself (ImportLimits).
"""

import io
import posixpath
import re
import zipfile
from dataclasses import dataclass, field

from engine import images
from engine.hexgrid import MAX_SIZE
from engine.importers import common, vassal
from engine.importers.zips import safe_zip_path

HEAD = 256 * 1024  # bytes of an image read for its header (a JPEG's EXIF may come before its size)
PIXELS_PER_UNIT = 100  # a job's cost counts a hex or tile a unit, and this many image pixels a unit (jobs.limits)


@dataclass
class Declared:
    """The work an upload declares: per kind of part ("board", "map", a Tiled map's "layer"), how many and the
    largest's hexes (or tiles), the hexes (and tiles) in all, and the pixels of its images."""

    parts: dict = field(default_factory=dict)  # noun -> [count, largest, total]
    hexes: int = 0  # hexes of the maps, and tiles of the Tiled maps' layers (each is a hex's work)
    tiles: bool = False  # whether ``hexes`` counts tiles
    pixels: int = 0
    images: int = 0

    def add(self, noun, hexes, tiles=False):
        entry = self.parts.setdefault(noun, [0, 0, 0])
        entry[0] += 1
        entry[1] = max(entry[1], hexes)
        entry[2] += hexes
        self.hexes += hexes
        self.tiles = self.tiles or tiles

    @property
    def unit(self):
        return "hexes and tiles" if self.tiles and len(self.parts) > 1 else "tiles" if self.tiles else "hexes"

    def image(self, width, height):
        self.images += 1
        self.pixels += width * height

    @property
    def units(self):
        """The cost of converting it all, in a job's units (jobs.limits): a unit a hex or tile."""
        return self.hexes + self.pixels // PIXELS_PER_UNIT

    def describe(self):
        """The parts in words: "1,000 boards of 250,000 hexes"; "3 maps of up to 250,000 hexes"."""
        said = []
        for noun, (count, largest, total) in sorted(self.parts.items(), key=lambda item: -item[1][2]):
            unit = "tiles" if noun == "layer" else "hexes"
            each = largest if count * largest == total else None
            said.append(f"{count:,} {noun}{'s' * (count != 1)} of {'' if each is not None else 'up to '}"
                        f"{largest:,} {unit}")
        return "; ".join(said) or "no map"


def declared(name, data, limits):
    """The work one upload (as expand() takes it) declares."""
    out = Declared()
    kind = _detect(name, data)
    if kind == "zip":
        _zip(data, limits, out)
    elif kind:
        _file(kind, name, data, {}, limits, out)
    return out


def _detect(name, data):
    from engine.importers import detect  # noqa: PLC0415 - the package's __init__ is above its modules

    return detect(name, data)


class _Entries:
    """A zip's entries read from its directory, each capped at what read_zip would let it expand to; nothing is
    measured or kept."""

    def __init__(self, data, limits):
        self.archive = zipfile.ZipFile(io.BytesIO(data))
        self.limits = limits
        self.left = limits.max_zip_total_bytes  # bytes of whole files still to read (read_zip's bound)
        self.infos = {}
        for info in self.archive.infolist()[:limits.max_zip_entries]:
            path = safe_zip_path(info.filename)
            if path is not None and not info.is_dir() and not info.flag_bits & 0x1:
                self.infos[path] = info

    def read(self, path, size=None):
        info = self.infos.get(path)
        if info is None:
            return None
        cap = min(self.limits.max_bytes, max(info.compress_size, 1) * self.limits.max_zip_ratio)
        cap = min(cap, size) if size is not None else min(cap, self.left)  # a head, or a whole map file
        try:
            with self.archive.open(info) as handle:
                found = handle.read(cap)
        except Exception:  # noqa: BLE001 - a damaged entry: the conversion says what is wrong with it
            return None
        if size is None:
            self.left -= len(found)
        return found

    def get(self, path, default=None):
        found = self.read(path)
        return default if found is None else found


def _zip(data, limits, out):
    try:
        entries = _Entries(data, limits)
    except Exception:  # noqa: BLE001 - not a readable zip: expand() refuses it with a finding
        return
    for path in sorted(entries.infos):
        head = entries.read(path, 65536)
        kind = _detect(path, head) if head is not None else None
        if kind in (None, "zip"):
            continue
        body = entries.read(path)
        if body is not None:
            _file(kind, path, body, entries, limits, out)


def _file(kind, name, data, files, limits, out):
    try:
        if kind == "vassal":
            _vassal(name, data, files, limits, out)
        elif kind == "tiled":
            _tiled(data, limits, out)
        elif kind == "wesnoth":  # each field ends with a comma or a line's end: at most so many hexes
            out.add("map", min(data.count(b",") + data.count(b"\n") + 1, MAX_SIZE * MAX_SIZE))
        elif kind == "megamek":
            found = re.search(rb"^[ \t]{0,80}size[ \t]{1,80}(\d{1,7})[ \t]{1,80}(\d{1,7})", data[:4096], re.MULTILINE)
            if found:
                _map(out, int(found[1]), int(found[2]))
        elif kind == "hexside":
            _map(out, _number(rb'"columns"\s{0,8}:\s{0,8}(\d{1,7})', data),
                 _number(rb'"rows"\s{0,8}:\s{0,8}(\d{1,7})', data))
        elif kind == "vasl":
            head = data[:65536]
            _map(out, _number(rb'\bwidth\s{0,8}=\s{0,8}"(\d{1,7})"', head) or 33,
                 _number(rb'\bheight\s{0,8}=\s{0,8}"(\d{1,7})"', head) or 10)
    except common.Refused:
        pass  # the conversion refuses the file too, saying why; it declares nothing more


def _number(pattern, data):
    found = re.search(pattern, data)
    return int(found[1]) if found else 0


def _map(out, columns, rows, noun="map"):
    """A map of columns x rows; one past the largest map is refused from its header, at no cost."""
    if 0 < columns <= MAX_SIZE and 0 < rows <= MAX_SIZE:
        out.add(noun, columns * rows)


# Every pattern is bounded (no unbounded repeat before another), so that a hostile file costs a linear scan.
MAP_TAG = re.compile(rb"<map\b[^>]{0,4000}>")
IMAGE_TAG = re.compile(rb"<image\b[^>]{0,4000}>")
ATTRIBUTE = re.compile(rb'\b(width|height|infinite)\s{0,8}=\s{0,8}"([^"]{0,12})"')


def _tiled(data, limits, out):
    """A Tiled map: each tile layer's tiles (the map's width x height; an infinite map's, at most the largest
    map's), at most what one map may hold (max_tiles), and its tilesets' images as far as the tile pictures decode
    them (max_picture_pixels, in each of a proposal's two conversions)."""
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{":
        layers = data.count(b'"tilelayer"')
        width = max((int(v) for v in re.findall(rb'"width"\s{0,8}:\s{0,8}(\d{1,7})', data)
                     if int(v) <= MAX_SIZE), default=0)
        height = max((int(v) for v in re.findall(rb'"height"\s{0,8}:\s{0,8}(\d{1,7})', data)
                      if int(v) <= MAX_SIZE), default=0)
        infinite = re.search(rb'"infinite"\s{0,8}:\s{0,8}true', data) is not None
        pictures = list(zip((int(v) for v in re.findall(rb'"imagewidth"\s{0,8}:\s{0,8}(\d{1,9})', data)),
                            (int(v) for v in re.findall(rb'"imageheight"\s{0,8}:\s{0,8}(\d{1,9})', data)),
                            strict=False))
    else:
        tag = MAP_TAG.search(data[:65536])
        attributes = {k.decode(): v for k, v in ATTRIBUTE.findall(tag[0])} if tag else {}
        infinite = attributes.get("infinite", b"0").strip().lower() in (b"1", b"true")
        width, height = (int(attributes[k]) if attributes.get(k, b"").isdigit() else 0 for k in ("width", "height"))
        layers = data.count(b"<layer ") + data.count(b"<layer>")
        pictures = []
        for tag in IMAGE_TAG.findall(data):
            size = dict(ATTRIBUTE.findall(tag))
            if size.get(b"width", b"").isdigit() and size.get(b"height", b"").isdigit():
                pictures.append((int(size[b"width"]), int(size[b"height"])))
    if infinite:
        width, height = MAX_SIZE, MAX_SIZE
    if not (0 < width <= MAX_SIZE and 0 < height <= MAX_SIZE):
        return
    # The importer reads at most max_tile_layers layers and max_tiles tiles of one map, refusing the rest.
    read = min(max(layers, 1), limits.max_tile_layers, max(1, limits.max_tiles // (width * height)))
    for _ in range(read):
        out.add("layer", width * height, tiles=True)
    pixels = min(sum(w * h for w, h in pictures), 2 * limits.max_picture_pixels)
    if pixels:
        out.pixels += pixels
        out.images += len(pictures)


def _vassal(name, data, files, limits, out):
    """A VASSAL module (or buildFile): each hex board's hexes, from its zone, its image's header or its width
    and height, and its image's pixels (each board's conversion checks its image, and writes it again)."""
    context = common.Context(name=name, files=files, limits=limits, source="vassal")
    if data[:4] == b"PK\x03\x04":
        try:
            files = _Entries(data, limits)
        except Exception:  # noqa: BLE001 - not a readable zip: the conversion says so
            return
        build_name = next((n for n in ("buildFile.xml", "buildFile") if n in files.infos), None)
        build = files.read(build_name) if build_name else None
        if build is None:
            return
    else:
        build_name, build = name, data
    sizes = {}
    for board in vassal.hex_boards(common.parse_xml(build, context, "the VASSAL buildFile")):
        size = None
        if board["image"]:
            path = posixpath.join("images", board["image"])
            if path not in sizes:
                sizes[path] = _image_size(files, context.resolve(path, build_name))
            size = sizes[path]
        if size is not None:
            out.image(*size)
        found = vassal.board_extent(board, context, size)
        if found is None:
            continue
        _n0, _k0, lines, per_line, _shifted = vassal.hex_span(vassal.grid_numbers(board, context), found[1])
        if lines >= 1 and per_line >= 1:
            out.add("board", lines * per_line)


def _image_size(files, path):
    """(width, height) from an image's header, or None when it is not there or cannot be read."""
    if path is None:
        return None
    try:
        head = files.read(path, HEAD) if isinstance(files, _Entries) else files.get(path)
        if head is None:
            return None
        return images.open_image(head, 10**12).size
    except Exception:  # noqa: BLE001 - not an image: the conversion says so
        return None
