"""What every importer shares: findings, safe XML and JSON reading, sibling files, images, and building the map.

Every importer reads its source into a :class:`MapBuilder` (a grid and, per hex, the source's own terrain codes
and elevation); the builder maps the codes through the mapping, fits levels to the ruleset and reports what it
could not map, so that no importer guesses on its own.
"""

import io
import json
import math
import posixpath
import re
import warnings
from dataclasses import dataclass, field

import defusedxml
import defusedxml.ElementTree as SafeET
from PIL import Image

from engine import images, mapfile
from engine.hexgrid import MAX_SIZE, Grid
from engine.importers import mappings
from engine.importers.errors import Refused, finding

LISTED_HEXES = 12  # hexes named in one finding's message; the rest are counted
SURVEY_HEXES = 5  # example hexes of each source code in a proposed mapping
MAX_FINDINGS = 500  # findings one conversion keeps; the rest are counted in a last one (mapfile.Findings)


class SiblingTooLarge(ValueError):
    def __init__(self, path, size, limit):
        super().__init__(f"{path} is {size / 1e6:.1f} MB; at most {limit / 1e6:.1f} MB")


def too_large(name, size, limit):
    return finding("$", f"the file is {size / 1e6:.1f} MB; at most {limit / 1e6:.1f} MB is read", code="too-large")


@dataclass
class Context:
    """One conversion: the file, its siblings, the limits, the target ruleset and mapping, and the findings."""

    name: str
    files: object
    limits: object
    source: str
    ruleset: str | None = None
    mapping: dict | None = None
    findings: list = field(default_factory=lambda: mapfile.Findings(MAX_FINDINGS, "findings"))
    out_files: dict = field(default_factory=dict)
    survey: dict | None = None  # what the source holds, for a proposed mapping (MapBuilder.build, suggest.py)
    keep_parsed: bool = False  # keep the document as finish() read it (a MapDoc) for a caller that draws it
    parsed: object = None  # (preview.py); not by default, so that a large map is not held twice

    def error(self, path, message, hex=None, code="invalid"):
        self.findings.append(finding(mapfile.shorten(path), mapfile.shorten(message), hex, code))

    def warn(self, path, message, hex=None, code="warning"):
        self.findings.append(finding(mapfile.shorten(path), mapfile.shorten(message), hex, code, severity="warning"))

    def refuse(self, path, message, code="invalid"):
        if len(self.findings) >= MAX_FINDINGS:  # the reason the file is refused is always listed, first
            self.findings.insert(0, finding(mapfile.shorten(path), mapfile.shorten(message), code=code))
        else:
            self.error(path, message, code=code)
        raise Refused(message)

    @property
    def stem(self):
        base = posixpath.basename(self.name.split("#", 1)[0]) or "map"
        return base.rsplit(".", 1)[0] if "." in base else base

    def resolve(self, ref, base=None):
        """The path of a file the map refers to, relative to the map (or to ``base``); None when it cannot be one."""
        if not isinstance(ref, str) or not ref or "\x00" in ref:
            return None
        folder = posixpath.dirname((base or self.name).split("#", 1)[0])
        return posixpath.normpath(posixpath.join(folder, ref.replace("\\", "/")))

    def sibling(self, ref, base=None):
        """(path, bytes or None) of a file the map refers to, relative to the map (or to ``base``). A file not at
        that path is looked for by its name beside the map, then at the upload's top: files chosen together on
        the Import page arrive without their folders ("../tilesets/basic_hexes.tsx" is "basic_hexes.tsx"). The
        fallbacks never look outside the upload (or, on the command line, the map's folder)."""
        path = self.resolve(ref, base)
        if path is None:
            return ref, None
        name = posixpath.basename(path)
        beside = posixpath.normpath(posixpath.join(posixpath.dirname((base or self.name).split("#", 1)[0]), name))
        candidates = [path] + [c for c in dict.fromkeys((beside, name)) if c != path and not c.startswith("..")]
        try:
            for candidate in candidates:
                data = self.files.get(candidate)
                if data is not None:
                    path = candidate
                    break
        except SiblingTooLarge as exc:
            self.error("$", f"the file {ref!r} is too large to read: {exc}", code="too-large")
            return path, None
        if data is not None and len(data) > self.limits.max_bytes:
            self.error("$", f"the file {ref!r} is {len(data) / 1e6:.1f} MB; at most "
                            f"{self.limits.max_bytes / 1e6:.1f} MB is read", code="too-large")
            return path, None
        return path, data


# -- reading text, XML and JSON safely -------------------------------------------------------------------

def decode_text(data, context):
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        context.refuse("$", f"the file is not UTF-8 text ({exc.reason} at byte {exc.start}); is it truncated "
                            "or not a map?", code="not-utf8")


def parse_xml(data, context, what="the file"):
    """The root element, refusing entity declarations (billion laughs) and external references, and refusing a
    file of more elements or attributes than the limits before its tree outgrows them (a parsed element costs
    some 400 bytes: a 20 MB file of ``<a/>`` would be 2 GB)."""
    limits = context.limits
    # Every attribute is written name="value" (or '): a byte count bounds them before the parser makes any.
    attributes = data.count(b'="') + data.count(b"='")
    if attributes > limits.max_xml_attributes:
        context.refuse("$", f"{what} holds about {attributes:,} XML attributes; at most {limits.max_xml_attributes:,} "
                            "are read", code="xml-too-large")
    try:
        events = SafeET.iterparse(io.BytesIO(data), events=("start",))
        for count, _ in enumerate(events, start=1):
            if count > limits.max_xml_elements:
                context.refuse("$", f"{what} holds more than {limits.max_xml_elements:,} XML elements; at most that "
                                    "many are read (a Tiled map saved with csv or base64 layer data holds few)",
                               code="xml-too-large")
        return events.root
    except defusedxml.EntitiesForbidden as exc:
        context.refuse("$", f"{what} declares XML entities ({exc.name!r}); Hexside does not expand entities "
                            "(they can be used to blow a small file up or to read other files)",
                       code="xml-entities")
    except (defusedxml.ExternalReferenceForbidden, defusedxml.DTDForbidden) as exc:
        context.refuse("$", f"{what} refers to an external resource ({exc}); Hexside does not fetch it",
                       code="xml-external")
    except defusedxml.DefusedXmlException as exc:
        context.refuse("$", f"{what} uses a forbidden XML construct ({exc})", code="xml-forbidden")
    except (LookupError, ValueError) as exc:  # an XML declaration naming an unknown encoding
        context.refuse("$", f"{what} cannot be read as XML ({exc})", code="bad-xml")
    except SafeET.ParseError as exc:
        line, column = getattr(exc, "position", (None, None))
        where = f" at line {line} column {column}" if line else ""
        context.refuse("$", f"{what} is not well-formed XML{where}; is it truncated?", code="bad-xml")


def parse_json(data, context, what="the file"):
    """The decoded JSON, refusing a file of more objects, arrays or values than the limits before it is decoded:
    each costs 50 to 200 bytes decoded, so a 20 MB file of ``{},`` would be 1.3 GB."""
    limits = context.limits
    containers = data.count(b"{") + data.count(b"[")
    values = data.count(b",") + data.count(b":")
    if containers > limits.max_json_containers or values > limits.max_json_values:
        context.refuse("$", f"{what} holds about {containers:,} JSON objects and arrays and {values:,} values; at most "
                            f"{limits.max_json_containers:,} and {limits.max_json_values:,} are read",
                       code="json-too-large")
    text = decode_text(data, context)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        context.refuse("$", f"{what} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}; "
                            "is it truncated?", code="bad-json")
    except RecursionError:
        context.refuse("$", f"{what} nests too deeply to be read", code="too-deep")


def looks_like_tiled_json(data):
    head = (data or b"")[:65536]
    return all(key in head for key in (b'"orientation"', b'"layers"', b'"tilewidth"'))


def integer(value, context, path, what, low=None, high=None):
    """A whole number from an attribute or JSON value, refusing the file when it is not one or out of range."""
    try:
        number = int(str(value).strip()) if not isinstance(value, bool) else None
    except (TypeError, ValueError):
        number = None
    if number is None or (low is not None and number < low) or (high is not None and number > high):
        bounds = f" from {low} to {high}" if low is not None and high is not None else ""
        context.refuse(path, f"{what} should be a whole number{bounds}, got {value!r}", code="bad-value")
    return number


def number(value, context, path, what):
    try:
        out = float(str(value).strip())
    except (TypeError, ValueError):
        out = math.nan
    if not math.isfinite(out):
        context.refuse(path, f"{what} should be a number, got {value!r}", code="bad-value")
    return out


# -- images ----------------------------------------------------------------------------------------------

IMAGE_FORMATS = {"PNG": "png", "JPEG": "jpg"}
REENCODED_MAX_BYTES = 64 * 1024 * 1024  # decoded bytes of an image re-encoded as PNG (GIF, BMP, WebP..)


def check_image(data, context, what):
    """(bytes, extension, (width, height)) of an image Pillow can read within the pixel limit, re-encoded as
    PNG when it is neither PNG nor JPEG; None with a finding otherwise. Nothing is written anywhere.

    A PNG or JPEG is kept as it is, so it is checked without holding its pixels: a PNG's chunks and their
    checksums are verified, a JPEG is decoded at an eighth of its size (a 60-megapixel board decoded whole
    would take 240 MB). Only an image to re-encode is decoded whole, within REENCODED_MAX_BYTES."""
    limit = context.limits.max_image_pixels
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = images.open_image(data, limit, what=what)  # the header only, its size checked
            width, height = image.size
            kind = image.format
            if kind == "PNG":
                image.verify()
            elif kind == "JPEG":
                image.draft(image.mode, (max(1, width // 8), max(1, height // 8)))
                image.load()
            else:
                decoded = width * height * len(image.getbands())
                if decoded > REENCODED_MAX_BYTES:
                    context.error("$", f"{what} is a {kind} image of {width} x {height} pixels, which Hexside would "
                                       f"have to decode ({decoded / 1e6:.0f} MB) to store it as PNG; at most "
                                       f"{REENCODED_MAX_BYTES / 1e6:.0f} MB. Save it as PNG or JPEG",
                                  code="image-too-large")
                    return None
                image.load()
    except images.TooLarge as exc:
        size = f"{exc.width} x {exc.height} pixels" if exc.width else "too many pixels"
        context.error("$", f"{what} is {size}; at most {limit / 1e6:.0f} million pixels are read",
                      code="image-too-large")
        return None
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        context.error("$", f"{what} has too many pixels; at most {limit / 1e6:.0f} million", code="image-too-large")
        return None
    except Exception as exc:  # noqa: BLE001 - Pillow raises many kinds for a file that is not an image
        reason = "truncated" if "truncated" in str(exc) else "not an image Hexside can read"
        context.error("$", f"{what} is {reason} ({exc.__class__.__name__})", code="bad-image")
        return None
    if kind in IMAGE_FORMATS:
        return data, IMAGE_FORMATS[kind], (width, height)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue(), "png", (width, height)


# -- mapping and building --------------------------------------------------------------------------------

class MapBuilder:
    """The map being imported: each hex's source codes and elevation, mapped to the ruleset once at the end."""

    def __init__(self, context, grid_kwargs, name=None):
        self.context = context
        self.mapping = mappings.resolve(context)
        columns, rows = grid_kwargs["columns"], grid_kwargs["rows"]
        if not (1 <= columns <= MAX_SIZE and 1 <= rows <= MAX_SIZE):
            context.refuse("$", f"the map is {columns} x {rows} hexes; Hexside maps are 1 to {MAX_SIZE} hexes "
                                "each way", code="map-too-large")
        self.grid = Grid(**grid_kwargs)
        self.name = name or context.stem
        # Each hex's (codes, elevation, storeys), column by column, or None: a list of one pointer a hex with the
        # values shared (a map repeats a few), where a dict of positions was some 200 bytes a hex.
        self.hexes = [None] * (columns * rows)
        self.values = {}
        self.extensions = {}
        self.hexsides = []  # {"hex", "side", "terrain"} entries, as the map format writes them
        self.art = {}  # (column, row) -> [polygon], map space
        self.notes = {}  # (column, row) -> a hex's label note
        self.overlays = []  # overlay entries, as the map format writes them (a map Hexside exported)
        self.defaults = None  # (terrain list, level) a hex with nothing else holds, when not the open hex at 0
        self.overlay_decides = False  # a code "^.." after a base sets the hex's terrain alone (Wesnoth)
        self.background = None

    def place(self, col, row, codes, elevation=0, storeys=None):
        value = (tuple(codes), elevation, storeys)
        self.hexes[col * self.grid.rows + row] = self.values.setdefault(value, value)

    def add_code(self, col, row, code):
        """One more source code on a hex, above what its tiles gave (a Tiled object layer of a terrain)."""
        index = col * self.grid.rows + row
        codes, elevation, storeys = self.hexes[index] or ((), 0, None)
        if code not in codes:
            value = (codes + (code,), elevation, storeys)
            self.hexes[index] = self.values.setdefault(value, value)

    def label(self, col, row):
        return self.grid.label(col, row)

    def _tally(self, codes, lost, label, codes_seen, unmapped, kept_open):
        """One hex's source codes counted for the survey (the mapping step's table), the codes no mapping took
        and those the mapping leaves open and flags, each with the hexes it is in."""
        for code in dict.fromkeys(codes):
            seen = codes_seen.setdefault(code, [0, []])
            seen[0] += 1
            if len(seen[1]) < SURVEY_HEXES:
                seen[1].append(label)
        for code in lost:
            labels = unmapped.setdefault(code, [])
            if not labels or labels[-1] != label:
                labels.append(label)
        for code in codes:
            entry = self.mapping.lookup(code)
            if entry is not None and entry.flag:
                kept_open.setdefault(code, []).append(label)

    def build(self):
        context, grid, mapping = self.context, self.grid, self.mapping
        catalogue = mapping.catalogue
        default = mapfile._default_open(catalogue)
        default_terrain, default_level = self.defaults or ([default], 0)
        unmapped, off_levels, off_storeys, kept_open = {}, {}, {}, {}
        hexes, mapped = [], {}  # mapped: (codes, elevation, storeys) -> what the mapping makes of them
        codes_seen, elevations, lowered, tallest = {}, set(), {}, None
        for index, value in enumerate(self.hexes):
            if value is None:
                continue
            col, row = divmod(index, grid.rows)
            label = grid.label(col, row)
            if value not in mapped:
                mapped[value] = self.map_codes(*value)
                elevations.add(value[1])
            terrain, storeys, lost, raw = mapped[value]
            self._tally(value[0], lost, label, codes_seen, unmapped, kept_open)
            fitted = fit_level(raw, catalogue)
            if fitted != round_level(raw, catalogue):  # clamped to the range, not only rounded to the step
                off_levels.setdefault(raw, []).append((label, fitted))
            entry = {"hex": label}
            if (terrain or [default]) != default_terrain:
                entry["terrain"] = terrain or [default]
            if fitted != default_level:
                entry["level"] = fitted
            if storeys is not None:
                tallest = max(tallest or 0, storeys)
            if storeys is not None and storeys != 1:
                kept = min(max(int(storeys), 1), mapfile.MAX_STOREYS, mapping.storeys_most or mapfile.MAX_STOREYS)
                if kept != storeys:
                    by_mapping = mapping.storeys_most is not None and storeys > mapping.storeys_most
                    (lowered if by_mapping else off_storeys).setdefault(storeys, []).append(label)
                if kept != 1:
                    entry["storeys"] = kept
            entry.update(self._extras(col, row))
            if len(entry) > 1:
                hexes.append(entry)
        hexes.extend({"hex": grid.label(*place), **self._extras(*place)}  # on a hex no tile gave
                     for place in sorted(set(self.art) | set(self.notes)))
        self.hexes = self.values = None  # the document holds what is needed from here
        context.survey = {"codes": {code: {"count": n, "hexes": labels} for code, (n, labels) in codes_seen.items()},
                          "elevations": [min(elevations), max(elevations)] if elevations else None,
                          "tallest": tallest,
                          "left_open": sorted({label for labels in kept_open.values() for label in labels})}
        for code, labels in kept_open.items():
            context.warn("$", f"source terrain {code!r} was left as {default!r}, as the mapping says, and flagged: "
                              f"nothing in {catalogue.id!r} fits it ({counted(labels)}); paint those hexes, or map "
                              f"{code!r} to a terrain", labels[0], code="terrain-left-open")
        for code, labels in unmapped.items():
            context.error("$", f"source terrain {code!r} has no mapping to {catalogue.id!r} terrain "
                               f"({counted(labels)}); those hexes were given only what else was mapped (or "
                               f"{default!r}). Add {code!r} to a mapping file (docs/importing.md)",
                          labels[0], code="unmapped-terrain")
        if off_levels:
            step = catalogue.level_step if (catalogue.level_step or 1) > 1 else None
            parts = [f"{fmt_number(raw)} → {pairs[0][1]} ({counted([p[0] for p in pairs])})"
                     for raw, pairs in sorted(off_levels.items())]
            first = min(off_levels.items())[1][0][0]
            context.error("$", f"levels outside {catalogue.id}'s {catalogue.level_min} to {catalogue.level_max}"
                               f"{' in steps of ' + str(step) if step else ''} were set to the nearest: "
                               + "; ".join(parts) + ". Scale the levels in a mapping (\"levels\": {\"scale\": .., "
                               "\"offset\": ..}) or choose a ruleset whose levels fit", first,
                          code="level-out-of-range")
        for storeys, labels in sorted(lowered.items()):
            context.warn("$", f"buildings of {storeys} storeys were lowered to {mapping.storeys_most}, as the "
                              f"mapping says ({counted(labels)})", labels[0], code="storeys-lowered")
        for storeys, labels in sorted(off_storeys.items()):
            context.warn("$", f"{storeys} storeys is outside 1 to {mapfile.MAX_STOREYS}; {counted(labels)} were "
                              "set to the nearest", labels[0], code="storeys-out-of-range")
        doc = {
            "format": mapfile.FORMAT,
            "version": mapfile.VERSION,
            "name": self.name,
            "ruleset": catalogue.id,
            "grid": grid.as_dict(),
            "defaults": {"terrain": list(default_terrain), "level": default_level},
            "hexes": hexes,
            "hexsides": self.hexsides,
            "overlays": self.overlays,
            "extensions": {"imported": {"format": context.source, "file": posixpath.basename(context.name),
                                        "mapping": mapping.describe()},
                           **self.extensions},
        }
        if self.background is not None:
            doc["background"] = self.background
        return doc

    def _extras(self, col, row):
        """A hex's art and label note (a map Hexside exported to Tiled), each given once."""
        extra = {"art": self.art.pop((col, row), None), "label_note": self.notes.pop((col, row), None)}
        return {key: value for key, value in extra.items() if value is not None}

    def map_codes(self, codes, elevation, storeys):
        """(terrain, storeys, unmapped codes, raw level) of one hex's source codes."""
        mapping = self.mapping
        terrain, level, lost = [], None, []
        for code in codes:
            entry = mapping.lookup(code)
            if entry is None:
                lost.append(code)
                continue
            if self.overlay_decides and code.startswith("^") and entry.terrain and not any(
                    mapping.catalogue.linear(t) for t in entry.terrain):
                terrain = []  # a Wesnoth overlay (^Fp) is what the hex is, its base giving only its level; a
                # bridge or road (^Bsb) crosses what is under it, which it keeps
            terrain.extend(t for t in entry.terrain if t not in terrain)
            if entry.level is not None:
                level = entry.level if level is None else max(level, entry.level)
            if entry.storeys is not None and storeys is None:
                storeys = entry.storeys
        open_hex = mapping.catalogue.open_hex()
        if len(terrain) > 1 and open_hex in terrain:  # open ground under woods is woods (an object layer's)
            terrain.remove(open_hex)
        return terrain, storeys, lost, elevation * mapping.level_scale + mapping.level_offset + (level or 0)


def round_level(value, catalogue):
    """A level rounded to the ruleset's step (a scaled elevation may fall between two)."""
    step = catalogue.level_step or 1
    return int(round(value / step)) * step


def fit_level(value, catalogue):
    """The nearest level the ruleset allows (its range and its step)."""
    level = round_level(value, catalogue)
    if catalogue.level_min is not None:
        level = max(level, catalogue.level_min)
    if catalogue.level_max is not None:
        level = min(level, catalogue.level_max)
    return level


def fmt_number(value):
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def counted(labels):
    shown = ", ".join(labels[:LISTED_HEXES])
    more = f" and {len(labels) - LISTED_HEXES} more" if len(labels) > LISTED_HEXES else ""
    return f"{len(labels)} hex{'es' * (len(labels) != 1)}: {shown}{more}"


SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")  # what a file name named in the map may not hold


def finish(doc, context):
    """The document as mapfile.parse accepts it, or None with the parser's findings (an importer's slip)."""
    if "background" in doc and "background" not in mapfile.TOP_KEYS:
        # Until the map format's reader knows the background entry, it travels in extensions.
        doc.setdefault("extensions", {})["background"] = doc.pop("background")
    try:
        parsed = mapfile.parse(doc)
    except mapfile.MapFormatError as exc:
        context.findings.extend(exc.errors)
        return None
    if context.keep_parsed:
        context.parsed = parsed
    return doc
