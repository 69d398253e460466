"""Community map formats into the Hexside map format (docs/importing.md). No Django.

Two calls do everything:

- ``expand(name, data, limits)`` turns one upload into the map files it holds: a zip becomes each of its map
  files, each with the zip's other files beside it (tilesets, images); any other file is one upload. A zip that
  is too large, holds too many entries or names a path that tries to escape gives findings, never an exception.
- ``convert(name, data, ruleset=..., mapping=..., files=..., limits=...)`` reads one map file of any supported
  format and gives an :class:`ImportResult`: a map-format document (a dict ``engine.mapfile.parse`` accepts) or
  None, the findings (``engine.mapfile.Finding``, printed the way ``validate_map`` prints them) and, for a VASSAL
  board, the board image to store beside the map (``ImportResult.files``).

Nothing here writes to disk or reads any file it is not handed: sibling files come from ``files`` (a mapping
of relative path to bytes; :class:`DiskFiles` reads them from a folder for the command line).
"""

import importlib
import io
import re
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from engine.importers import common
from engine.importers.zips import read_zip, safe_zip_path  # noqa: F401 - part of this package's calls

# Each format and the file endings it is recognised by (lower case). A ".json" file is Tiled's when it looks
# like a Tiled map and Hexside's own otherwise; VASSAL boards come from a module (.vmod) or its buildFile; a VASL
# board is its archive (a zip named bdXX, no ending, holding BoardMetadata.xml) or that metadata file itself.
SUPPORTED = {
    "hexside": (".json",),
    "tiled": (".tmx", ".tmj", ".json"),
    "wesnoth": (".map",),
    "megamek": (".board",),
    "vassal": (".vmod", "buildfile.xml", "buildfile"),
    "vasl": ("boardmetadata.xml", "bd* (VASL board)"),
}
ARCHIVE_ENDINGS = (".zip",)
IMAGE_ENDINGS = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".svg")


@dataclass(frozen=True)
class ImportLimits:
    """What one upload may cost. The Django settings HEXSIDE_IMPORT_* pass their values in (maps/importing.py)."""

    max_bytes: int = 20 * 1024 * 1024  # one file, and any one entry of a zip once expanded
    max_zip_entries: int = 2000
    max_zip_total_bytes: int = 200 * 1024 * 1024  # everything a zip expands to
    max_zip_ratio: int = 200  # an entry may expand to at most this many times its compressed size (bombs)
    max_image_pixels: int = 60_000_000  # a board image's width x height, checked before it is decoded
    max_picture_pixels: int = 32_000_000  # pixels one conversion decodes for its tile pictures, in all
    max_hexes: int = 2_000_000  # hexes the maps of one upload declare in all (boards x hexes), before queueing
    max_pixels: int = 500_000_000  # pixels the images of one upload declare in all (board and tileset images)
    max_tilesets: int = 200  # external tilesets one Tiled map may name
    max_tile_definitions: int = 300_000  # tiles its tilesets define in all (each file read once)
    max_tile_layers: int = 100  # tile layers one Tiled map may hold (in groups or not)
    max_tiles: int = 6_000_000  # tiles one Tiled map's layers and chunks declare in all (24 layers of 500 x 500)
    max_xml_elements: int = 300_000  # elements of one XML file (a TMX, tileset or VASSAL buildFile)
    max_xml_attributes: int = 1_500_000
    max_json_containers: int = 800_000  # objects and arrays of one JSON file (engine.jsonsafe's limits)
    max_json_values: int = 4_000_000  # its commas and colons: a bound on its values


@dataclass
class Upload:
    """One map file to convert, with the files beside it. ``data`` is None when the entry could not be read;
    its findings say why."""

    name: str
    data: bytes | None
    files: dict = field(default_factory=dict)
    findings: list = field(default_factory=list)


@dataclass
class ImportResult:
    doc: dict | None
    findings: list
    source_format: str
    files: dict = field(default_factory=dict)  # file name -> bytes to store beside the map (a board image)
    survey: dict | None = None  # the source's codes with their counts and hexes, and its elevations (suggest.py)
    parsed: object = None  # ``doc`` as the map format read it (a MapDoc), when convert() was asked to keep it

    @property
    def ok(self):
        return self.doc is not None and not any(f.severity == "error" for f in self.findings)


class ZipMember(Upload):
    """A map file inside a zip, read from the zip when it is converted (``data``), so that a zip of many maps
    does not hold them all in memory at once."""

    def __init__(self, name, path, entries):
        self.name, self.path, self.files, self.findings = name, path, entries, []

    @property
    def data(self):
        return self.files.get(self.path)


def detect(name, data):
    """The format of one file: one of SUPPORTED's keys, "zip", or None (then ``why_not`` says what it is)."""
    lower = PurePosixPath(name.split("#", 1)[0]).name.lower()
    head = (data or b"")[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if lower.endswith(".vmod"):
        return "vassal"
    if lower in ("buildfile", "buildfile.xml"):
        return "vassal"
    if head.startswith(b"PK\x03\x04") and not lower.endswith(ARCHIVE_ENDINGS) and is_vasl_archive(lower, data):
        return "vasl"
    if lower.endswith(".xml") and b"<boardMetadata" in (data or b"")[:65536]:
        return "vasl"
    if lower.endswith(ARCHIVE_ENDINGS) or (head.startswith(b"PK\x03\x04") and not lower.endswith(
            (".tmx", ".tmj", ".json", ".map", ".board", ".xml"))):
        return "zip"
    if lower.endswith(".tmx"):
        return "tiled"
    if lower.endswith(".tmj"):
        return "tiled"
    if lower.endswith(".json"):
        return "tiled" if common.looks_like_tiled_json(data) else "hexside"
    if lower.endswith(".map"):
        return "wesnoth"
    if lower.endswith(".board"):
        return "megamek"
    if b"<map" in head[:1024] and b"orientation=" in head and not lower.endswith(IMAGE_ENDINGS):
        return "tiled"
    if head.startswith(b"{") and not lower.endswith((".tsj", *IMAGE_ENDINGS)):
        # A JSON file under another name (validate_map has always read Hexside maps whatever their name).
        return "tiled" if common.looks_like_tiled_json(data) else "hexside"
    return None


VASL_ARCHIVE = re.compile(r"bd[a-z0-9_-]+")  # VASL names a board archive "bd" + the board's name, no ending


def is_vasl_archive(lower, data):
    """A zip not named .zip that is a VASL board archive: BoardMetadata.xml at its top level, or a legacy
    archive's "data" file under a name like bd01 (read from the zip's directory, nothing decompressed); when only
    its head is at hand (expand() peeks at a zip's entries), a name like bd01 or bdRB. A .zip holding a board's
    files is a zip of maps: its BoardMetadata.xml is imported with the image beside it."""
    named = bool(VASL_ARCHIVE.fullmatch(lower))
    try:
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    except Exception:  # noqa: BLE001 - a truncated head or a damaged zip
        return named
    return "BoardMetadata.xml" in names or (named and "data" in names)


def why_not(name, data):
    """A designer's reason why a file that is not a map was not imported."""
    lower = PurePosixPath(name).name.lower()
    suffix = PurePosixPath(lower).suffix
    if suffix in (".tsx", ".tsj"):
        return "a Tiled tileset, not a map: it is read when a map that uses it is imported beside it"
    if lower.endswith(IMAGE_ENDINGS):
        return "an image, not a map: a tileset or board image is read when the map that uses it is imported"
    if suffix == ".mask":
        return "a Wesnoth mask (it overlays another map), not a map"
    if suffix == ".cfg":
        return "a Wesnoth configuration file (such as terrain.cfg), not a map"
    if lower == "losdata":
        return ("a VASL LOS raster (gzip + Java serialisation), which Hexside does not read: import the board "
                "archive (bdXX) or its BoardMetadata.xml, which give the grid and the board image to trace")
    if suffix in (".md", ".txt", ".html", ".pdf"):
        return "a document, not a map"
    if suffix == ".xml":
        return "an XML file that is neither a Tiled map nor a VASSAL buildFile"
    endings = sorted({e for es in SUPPORTED.values() for e in es} | set(ARCHIVE_ENDINGS))
    return f"not a map format Hexside reads; it reads {', '.join(endings)}"


def expand(name, data, limits=None):
    """The map files in one upload: a zip's map files, each with the zip's other entries, or the file itself."""
    limits = limits or ImportLimits()
    if len(data) > limits.max_bytes:
        return [Upload(name, None, findings=[common.too_large(name, len(data), limits.max_bytes)])]
    kind = detect(name, data)
    if kind == "vassal":
        return _boards(name, data, {}, limits)
    if kind != "zip":
        return [Upload(name, data)]
    entries, findings = read_zip(data, limits, name)
    if entries is None:
        return [Upload(name, None, findings=findings)]
    uploads = [Upload(f"{name}!{path}", None, findings=[f]) for path, f in findings]
    maps, kinds = [], {}
    for path in sorted(entries):
        kinds[path] = kind = detect(path, entries.head(path, 65536))
        if kind in SUPPORTED:
            maps.append(path)
        elif kind == "zip":
            uploads.append(Upload(f"{name}!{path}", None, findings=[common.finding(
                "$", "a zip inside a zip is not opened; upload it on its own", code="nested-zip")]))
    if not maps:
        listed = ", ".join(sorted(entries)[:10]) or "nothing"
        uploads.append(Upload(name, None, findings=[common.finding(
            "$", f"the zip holds no map file Hexside reads (it holds {listed})", code="zip-no-maps")]))
    for path in maps:
        # Each map sees every entry by its path inside the zip, so "../tiles/x.tsx" resolves as it did.
        if kinds[path] == "vassal":
            uploads.extend(_boards(f"{name}!{path}", entries[path], entries, limits))
        else:
            uploads.append(ZipMember(f"{name}!{path}", path, entries))
    return uploads


def _boards(name, data, files, limits):
    """A VASSAL module or buildFile as one upload per hex board (``NAME#Board``), so that each is one map."""
    from engine.importers import vassal  # noqa: PLC0415 - loaded with its first file, as importlib loads the others

    context = common.Context(name=name, files=files, limits=limits, source="vassal")
    try:
        names = vassal.board_names(data, context)
    except Exception:  # noqa: BLE001 - convert() reports what is wrong with the module
        names = []
    if len(names) < 2:
        return [Upload(name, data, files=files)]
    return [Upload(f"{name}#{board}", data, files=files) for board in names]


def convert(name, data, *, ruleset=None, mapping=None, files=None, limits=None, keep_parsed=False):
    """One map file of any supported format as a map-format document, with what was lost or refused;
    ``keep_parsed``: the document as the map format reads it too (``ImportResult.parsed``)."""
    limits = limits or ImportLimits()
    files = files if files is not None else {}
    if data is None:
        return ImportResult(None, [common.finding("$", "no data", code="unreadable")], "unknown")
    if len(data) > limits.max_bytes:
        return ImportResult(None, [common.too_large(name, len(data), limits.max_bytes)], "unknown")
    kind = detect(name, data)
    if kind is None:
        return ImportResult(None, [common.finding("$", why_not(name, data), code="not-a-map")], "unknown")
    if kind == "zip":
        return ImportResult(None, [common.finding("$", "a zip of maps: each map in it is imported on its own",
                                                  code="is-a-zip")], "zip")
    module = importlib.import_module(f"engine.importers.{kind}")
    context = common.Context(name=name, files=files, limits=limits, source=kind, ruleset=ruleset, mapping=mapping,
                             keep_parsed=keep_parsed)
    try:
        doc = module.convert(data, context)
    except common.Refused:
        doc = None
    except RecursionError:
        context.error("$", "the file nests too deeply to be read", code="too-deep")
        doc = None
    except Exception as exc:  # noqa: BLE001 - one odd file must not stop a batch; the finding names the slip
        context.error("$", f"the {kind} importer could not read this file ({exc.__class__.__name__}: {exc}); "
                           "this is a fault in Hexside, please report it with the file", code="import-failed")
        doc = None
    if doc is not None:
        doc = common.finish(doc, context)
    return ImportResult(doc, context.findings, kind, context.out_files, context.survey,
                        context.parsed if doc is not None else None)


def convert_upload(upload, **options):
    """convert() for one of expand()'s uploads; an entry that could not be read gives its findings."""
    if upload.data is None:
        return ImportResult(None, list(upload.findings), "unknown")
    result = convert(upload.name.rsplit("!", 1)[-1], upload.data, files=upload.files, **options)
    result.findings[:0] = upload.findings
    return result


class DiskFiles:
    """The files beside a map on disk, for the command line: ``files.get("../tiles/x.tsx")`` reads that file
    relative to the map's folder when it is a regular file within the size limit. Read-only."""

    def __init__(self, folder, limits=None):
        self.folder = Path(folder)
        self.limits = limits or ImportLimits()

    def get(self, path, default=None):
        if not isinstance(path, str) or path.startswith("/") or "\x00" in path:
            return default
        target = self.folder / path
        try:
            info = target.stat()
        except (OSError, ValueError):
            return default
        if not stat.S_ISREG(info.st_mode):
            return default
        if info.st_size > self.limits.max_bytes:
            raise common.SiblingTooLarge(path, info.st_size, self.limits.max_bytes)
        return target.read_bytes()

    def __contains__(self, path):
        return self.get(path) is not None
