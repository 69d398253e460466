"""Reading a map file: every problem found is reported (format errors), not just the first."""

from collections.abc import Callable
from typing import TYPE_CHECKING

from shapely.geometry import Polygon

from engine import jsonsafe
from engine import rulesets as registry
from engine.hexgrid import LABEL_SCHEMES, MAX_SIZE, ORIENTATIONS, STAGGERS, Grid
from engine.mapfile import examples
from engine.mapfile.document import (
    ART_TOLERANCE,
    BACKGROUND_IMAGE,
    BACKGROUND_KEYS,
    FORMAT,
    GRID_KEYS,
    HEX_KEYS,
    HEXSIDE_KEYS,
    MAX_STOREYS,
    OVERLAY_HEX_KEYS,
    OVERLAY_KEYS,
    TERRAIN_ID,
    TOP_KEYS,
    VERSION,
    Cell,
    Finding,
    FormatError,
    MapDoc,
    MapFormatError,
    Overlay,
    _fmt_point,
    _is_int,
    _is_number,
    _is_point,
    _kind,
    _overlay_place,
)

if TYPE_CHECKING:  # for the type checker only: the reader imports the registry when it first needs it
    from engine.rulesets import Ruleset


def parse(data: object, rulesets: Callable[[str], "Ruleset"] | None = None) -> MapDoc:
    """A MapDoc from JSON text, bytes or the decoded object; MapFormatError listing every problem otherwise.

    ``rulesets`` looks a ruleset up by id (default: engine.rulesets.get), so custom profiles can be used.
    """
    return _Reader(decode(data, MapFormatError), rulesets).read()


def decode(data: object, error: type[FormatError] | None = None) -> object:
    """The decoded JSON object from text, bytes or the object itself; ``error`` (an exception class taking a
    list of findings, MapFormatError by default) when it is not UTF-8, not JSON, or unsafe JSON (NaN, lone
    surrogates, NUL, huge numbers, deep nesting: engine.jsonsafe)."""
    error = error or MapFormatError
    if isinstance(data, (str, bytes, bytearray)):
        try:
            data = jsonsafe.loads(data)
        except jsonsafe.UnsafeJSON as exc:
            raise error([Finding(exc.path, exc.message, code=exc.code)]) from None
    return data


MAX_FINDINGS = 1000  # findings one reading keeps; the rest are counted in a last one (a bad 13 MB map has 500,000)
MAX_TEXT = 300  # characters of a path or message kept: a message may echo a value of any size


def shorten(text: object, limit: int = MAX_TEXT) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was (a text cut once is not cut again)."""
    text = str(text)
    return text if len(text) <= limit + 40 else f"{text[:limit]}… ({len(text):,} characters in all)"


class Findings(list):
    """The findings of one reading: the first ``limit`` as they are, then one finding counting the rest, so that
    a file of half a million mistakes costs the memory (and the answer) of a thousand. ``total`` counts them
    all (a reader tells whether a section added any by it)."""

    def __init__(self, limit=MAX_FINDINGS, what="errors"):
        super().__init__()
        self.limit, self.what, self.more, self.severity = limit, what, 0, "warning"

    @property
    def total(self):
        return min(len(self), self.limit) + self.more

    def append(self, finding):
        if len(self) < self.limit:
            super().append(finding)
            return
        self.more += 1
        if finding.severity == "error":
            self.severity = "error"  # the count is an error when any it stands for is one
        summary = Finding("$", f"and {self.more:,} more {self.what} like these (the first {self.limit:,} are listed)",
                          None, "more-findings", self.severity)
        if len(self) == self.limit:
            super().append(summary)
        else:
            self[self.limit] = summary

    def extend(self, findings):
        for finding in findings:
            self.append(finding)


class Reader:
    """Collects findings while reading a JSON document, instead of stopping at the first; shared by the map and
    scenario formats so that both report problems the same way."""

    def __init__(self):
        self.errors = Findings()

    @property
    def found(self):
        """How many errors have been found so far (more than are kept past MAX_FINDINGS)."""
        return getattr(self.errors, "total", len(self.errors))

    def error(self, path, message, hex=None, code="invalid"):
        self.errors.append(Finding(shorten(path), shorten(message), shorten(hex) if hex is not None else None, code))

    def keys(self, obj, path, allowed, required=()):
        if not isinstance(obj, dict):
            self.error(path, f"expected an object, got {_kind(obj)}", code="bad-type")
            return False
        for key in obj:
            if key not in allowed:
                self.error(f"{path}.{key}" if path != "$" else key,
                           f"unknown key {key!r}; expected one of: {', '.join(allowed)}", code="unknown-key")
        for key in required:
            if key not in obj:
                self.error(f"{path}.{key}" if path != "$" else key, "is required", code="missing")
        return True

    def entries(self, items, path, allowed, required):
        """(path, entry) for each entry of a list that is an object holding its required keys; the rest are
        reported."""
        if not isinstance(items, list):
            self.error(path, f"expected a list, got {_kind(items)}", code="bad-type")
            return
        for i, entry in enumerate(items):
            where = f"{path}[{i}]"
            if self.keys(entry, where, allowed, required) and all(k in entry for k in required):
                yield where, entry


class _Reader(Reader):
    def __init__(self, data, rulesets):
        super().__init__()
        self.data = data
        if rulesets is None:
            rulesets = registry.get
        self.lookup = rulesets
        self.grid = None
        self.catalogue = None

    def read(self):
        data = self.data
        if not self.keys(data, "$", TOP_KEYS, ("format", "version", "name", "ruleset", "grid")):
            raise MapFormatError(self.errors)
        if "format" in data and data["format"] != FORMAT:
            self.error("format", f"expected {FORMAT!r}, got {data['format']!r}", code="bad-format")
        if "version" in data and data["version"] != VERSION:
            self.error("version", f"expected {VERSION}, got {data['version']!r}", code="bad-version")
        name = data.get("name")
        if "name" in data and (not isinstance(name, str) or not name.strip()):
            self.error("name", "expected a non-empty string", code="bad-type")
        ruleset_id = data.get("ruleset")
        if "ruleset" in data:
            if not isinstance(ruleset_id, str):
                self.error("ruleset", "expected a ruleset id such as \"ost\"", code="bad-type")
            else:
                try:
                    self.catalogue = self.lookup(ruleset_id)
                except KeyError as exc:
                    self.error("ruleset", exc.args[0] if exc.args else f"unknown ruleset {ruleset_id!r}",
                               code="unknown-ruleset")
        if "grid" in data:
            self.grid = self.read_grid(data["grid"])
        if self.grid is None:
            # Without a grid no hex can be read; what was found so far is all there is to say.
            raise MapFormatError(self.errors)

        default_terrain, default_level = self.read_defaults(data.get("defaults"))
        doc = MapDoc(name=name if isinstance(name, str) else "",
                     ruleset=ruleset_id if isinstance(ruleset_id, str) else "",
                     grid=self.grid, default_terrain=default_terrain, default_level=default_level)
        default = doc.default_cell()
        doc.hexes = self.read_hexes(data.get("hexes", []), default)
        doc.hexsides = self.read_hexsides(data.get("hexsides", []), "hexsides")
        doc.overlays = self.read_overlays(data.get("overlays", []), default)
        if data.get("background") is not None:
            doc.background = self.read_background(data["background"])
        extensions = data.get("extensions", {})
        if not isinstance(extensions, dict):
            self.error("extensions", f"expected an object, got {_kind(extensions)}", code="bad-type")
            extensions = {}
        doc.extensions = extensions
        if examples.EXAMPLES in extensions:
            for path, message, hex in examples.problems(extensions[examples.EXAMPLES], self.grid):
                self.error(path, message, hex, code="bad-los-example")
        if self.errors:
            raise MapFormatError(self.errors)
        return doc

    # -- sections ------------------------------------------------------------------------------------
    def read_grid(self, obj):
        if not self.keys(obj, "grid", GRID_KEYS, ("orientation", "columns", "rows", "stagger", "labels")):
            return None
        before = self.found
        for key, allowed in (("orientation", ORIENTATIONS), ("stagger", STAGGERS), ("labels", LABEL_SCHEMES)):
            if key in obj and obj[key] not in allowed:
                self.error(f"grid.{key}", f"expected one of {', '.join(allowed)}, got {obj[key]!r}", code="bad-grid")
        for key in ("columns", "rows"):
            value = obj.get(key)
            if key in obj and (not _is_int(value) or not 1 <= value <= MAX_SIZE):
                self.error(f"grid.{key}", f"expected a whole number from 1 to {MAX_SIZE}, got {value!r}",
                           code="bad-grid")
        metres = obj.get("hex_metres", self.default_metres())
        if isinstance(metres, bool) or not isinstance(metres, (int, float)) or metres <= 0:
            self.error("grid.hex_metres", f"expected a positive number, got {metres!r}", code="bad-grid")
        if self.found > before or any(k not in obj for k in ("orientation", "columns", "rows", "stagger",
                                                                    "labels")):
            return None
        return Grid(obj["orientation"], obj["columns"], obj["rows"], obj["stagger"], obj["labels"], metres)

    def default_metres(self):
        return getattr(self.catalogue, "hex_metres", None) or 50

    def read_defaults(self, obj):
        fallback = _default_open(self.catalogue)
        if obj is None:
            return (fallback,), 0
        if not self.keys(obj, "defaults", ("terrain", "level")):
            return (fallback,), 0
        terrain = self.read_terrain(obj.get("terrain", [fallback]), "defaults.terrain", None) or (fallback,)
        level = self.read_level(obj.get("level", 0), "defaults.level", None)
        return terrain, level if level is not None else 0

    def read_hex_ref(self, value, path):
        try:
            return self.grid.parse_hex(value)
        except ValueError as exc:
            self.error(path, str(exc), hex=value if isinstance(value, str) else None, code="bad-hex")
            return None

    def read_hexes(self, items, default):
        cells, seen = {}, set()
        for path, entry in self.entries(items, "hexes", HEX_KEYS, ("hex",)):
            pos = self.read_hex_ref(entry["hex"], f"{path}.hex")
            if pos is None:
                continue
            label = self.grid.label(*pos)
            if pos in seen:
                self.error(f"{path}.hex", "this hex is listed twice; give each hex once", label, code="duplicate-hex")
                continue
            seen.add(pos)
            cell = self.read_cell(entry, path, label, default)
            if cell is not None:
                if "art" in entry and entry["art"] is not None:
                    art = self.read_art(entry["art"], f"{path}.art", label, pos)
                    cell = Cell(cell.terrain, cell.level, cell.storeys, art, cell.label_note)
                cells[pos] = cell
        return cells

    def read_cell(self, entry, path, label, default):
        before = self.found
        terrain = self.read_terrain(entry["terrain"], f"{path}.terrain", label) if "terrain" in entry \
            else default.terrain
        level = self.read_level(entry["level"], f"{path}.level", label) if "level" in entry else default.level
        storeys = entry.get("storeys", 1)
        if not _is_int(storeys) or not 1 <= storeys <= MAX_STOREYS:
            self.error(f"{path}.storeys", f"expected a whole number of storeys from 1 to {MAX_STOREYS}, "
                                          f"got {storeys!r}", label, code="bad-storeys")
        note = entry.get("label_note")
        if note is not None and not isinstance(note, str):
            self.error(f"{path}.label_note", f"expected a string, got {_kind(note)}", label, code="bad-type")
        if self.found > before:
            return None
        return Cell(terrain=terrain, level=level, storeys=storeys, label_note=note)

    def read_terrain(self, value, path, label, layer="hex"):
        ids = [value] if isinstance(value, str) else value
        if not isinstance(ids, list) or not ids:
            self.error(path, f"expected a terrain id or a non-empty list of terrain ids, got {value!r}", label,
                       code="bad-type")
            return None
        ok = True
        for j, tid in enumerate(ids):
            where = f"{path}[{j}]" if isinstance(value, list) else path
            if not self.check_terrain_id(tid, where, label, layer):
                ok = False
        if ok and len(set(ids)) != len(ids):
            self.error(path, "a terrain id is given twice", label, code="duplicate-terrain")
            ok = False
        return tuple(ids) if ok else None

    def check_terrain_id(self, tid, path, label, layer):
        if not isinstance(tid, str) or not TERRAIN_ID.match(tid):
            self.error(path, f"{tid!r} is not a terrain id (lower-case words joined by '-')", label,
                       code="bad-terrain-id")
            return False
        if self.catalogue is None:
            return True
        known = self.catalogue.terrain_ids(layer)
        if tid not in known:
            self.error(path, f"unknown {layer} terrain {tid!r} for ruleset {self.catalogue.id!r}; "
                             f"expected one of: {', '.join(sorted(known))}", label, code="unknown-terrain")
            return False
        return True

    def read_level(self, value, path, label):
        if not _is_int(value):
            self.error(path, f"expected a whole number, got {value!r}", label, code="bad-level")
            return None
        cat = self.catalogue
        if cat is not None:
            low, high, step = cat.level_min, cat.level_max, cat.level_step or 1
            if low is not None and high is not None and not low <= value <= high:
                self.error(path, f"level {value} is outside {cat.id}'s levels {low} to {high}", label,
                           code="bad-level")
                return None
            if step > 1 and value % step:
                self.error(path, f"level {value} is not a multiple of {step} ({cat.id} levels go in steps of "
                                 f"{step})", label, code="bad-level")
                return None
        return value

    def read_art(self, value, path, label, pos):
        polygons = value
        if isinstance(value, list) and value and _is_point(value[0]):
            polygons = [value]
        if not isinstance(polygons, list) or not polygons:
            self.error(path, "expected a polygon [[x, y], ...] or a list of polygons", label, code="bad-art")
            return None
        hex_shape = Polygon(self.grid.corners(*pos)).buffer(ART_TOLERANCE)
        out = []
        for k, poly in enumerate(polygons):
            where = f"{path}[{k}]" if polygons is value else path
            if not isinstance(poly, list) or len(poly) < 3 or not all(_is_point(p) for p in poly):
                self.error(where, "expected a polygon of at least 3 [x, y] points", label, code="bad-art")
                continue
            shape = Polygon(poly)
            if not shape.is_valid or shape.area <= 0:
                self.error(where, "the polygon crosses itself or has no area", label, code="bad-art")
                continue
            if not hex_shape.intersection(shape).area > ART_TOLERANCE:
                # Art may spill over the hex's edge (it is clipped to the hex by the engine), not miss it.
                self.error(where, "the art does not cover any part of its hex (map space: circumradius 1, "
                                  f"centre {_fmt_point(self.grid.centre(*pos))})", label, code="art-outside-hex")
                continue
            out.append(tuple((float(x), float(y)) for x, y in poly))
        return tuple(out) if len(out) == len(polygons) else None

    def read_hexsides(self, items, path):
        sides = {}
        for where, entry in self.entries(items, path, HEXSIDE_KEYS, HEXSIDE_KEYS):
            pos = self.read_hex_ref(entry["hex"], f"{where}.hex")
            if pos is None:
                continue
            label = self.grid.label(*pos)
            try:
                side = self.grid.side_index(entry["side"])
            except ValueError as exc:
                self.error(f"{where}.side", str(exc), label, code="bad-side")
                continue
            if not self.check_terrain_id(entry["terrain"], f"{where}.terrain", label, "hexside"):
                continue
            key = self.grid.hexside(*pos, side)
            if key in sides and sides[key] != entry["terrain"]:
                self.error(where, f"hexside {label}/{self.grid.sides[side]} is already {sides[key]!r}; "
                                  f"it cannot also be {entry['terrain']!r}", label, code="hexside-conflict")
                continue
            sides[key] = entry["terrain"]
        return sides

    def read_overlays(self, items, default):
        overlays, seen = [], set()
        for path, entry in self.entries(items, "overlays", OVERLAY_KEYS, ("id", "anchor")):
            oid = entry.get("id")
            if not isinstance(oid, str) or not oid:
                self.error(f"{path}.id", f"expected a non-empty string, got {oid!r}", code="bad-type")
                continue
            if oid in seen:
                self.error(f"{path}.id", f"overlay id {oid!r} is used twice", code="duplicate-overlay")
                continue
            seen.add(oid)
            anchor = self.read_hex_ref(entry["anchor"], f"{path}.anchor")
            rotation = entry.get("rotation", 0)
            if not _is_int(rotation) or not 0 <= rotation <= 5:
                self.error(f"{path}.rotation", f"expected 0 to 5 steps of 60 degrees, got {rotation!r}",
                           code="bad-rotation")
                continue
            if anchor is None:
                continue
            overlay = Overlay(id=oid, anchor=anchor, rotation=rotation)
            # Kept sorted, as written, so that a map read back from its own export is equal to it.
            overlay.hexes = sorted(self.read_overlay_hexes(entry.get("hexes", []), f"{path}.hexes", overlay, default),
                                   key=lambda e: tuple(e["hex"]))
            overlay.hexsides = sorted(self.read_overlay_hexsides(entry.get("hexsides", []), f"{path}.hexsides",
                                                                 overlay), key=lambda e: (tuple(e["hex"]), e["side"]))
            overlays.append(overlay)
        return overlays

    def read_background(self, obj):
        """The board scan's entry: the image's file name and where the grid lies on it, in image pixels."""
        before = self.found  # a required key missing counts too: {} is not a background
        if not self.keys(obj, "background", BACKGROUND_KEYS, ("image", "origin", "hex_px")):
            return None
        image = obj.get("image")
        if "image" in obj and (not isinstance(image, str) or not BACKGROUND_IMAGE.match(image)):
            self.error("background.image", f"expected a file name (letters, digits, '.', '_', '-'), got {image!r}",
                       code="bad-background")
        origin = obj.get("origin")
        if "origin" in obj and not _is_point(origin):
            self.error("background.origin", f"expected the pixel [x, y] of the centre of column 0, row 0, got "
                                            f"{origin!r}", code="bad-background")
        hex_px = obj.get("hex_px")
        if "hex_px" in obj and not (_is_number(hex_px) and 0 < hex_px <= 100_000):
            self.error("background.hex_px", f"expected the hex circumradius in image pixels, a number above 0, got "
                                            f"{hex_px!r}", code="bad-background")
        rotation = obj.get("rotation", 0)
        if not (_is_number(rotation) and -360 <= rotation <= 360):
            self.error("background.rotation", f"expected degrees from -360 to 360, got {rotation!r}",
                       code="bad-background")
        opacity = obj.get("opacity", 1)
        if not (_is_number(opacity) and 0 <= opacity <= 1):
            self.error("background.opacity", f"expected a number from 0 to 1, got {opacity!r}", code="bad-background")
        if self.found > before:
            return None
        return {"image": image, "origin": [float(origin[0]), float(origin[1])], "hex_px": float(hex_px),
                "rotation": float(rotation), "opacity": float(opacity)}

    def read_offset(self, value, path):
        if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)):
            self.error(path, f"expected an axial offset [dq, dr] from the anchor, got {value!r}", code="bad-hex")
            return None
        return value[0], value[1]

    def read_overlay_hexes(self, items, path, overlay, default):
        out, seen = [], set()
        for where, entry in self.entries(items, path, OVERLAY_HEX_KEYS, ("hex",)):
            offset = self.read_offset(entry["hex"], f"{where}.hex")
            if offset is None:
                continue
            col, row = _overlay_place(self.grid, overlay, offset)
            if not self.grid.contains(col, row):
                self.error(f"{where}.hex", f"overlay {overlay.id} puts this hex off the map (column {col}, row "
                                           f"{row}; the map is {self.grid.columns} x {self.grid.rows})",
                           code="overlay-off-map")
                continue
            label = self.grid.label(col, row)
            if offset in seen:
                self.error(f"{where}.hex", f"offset {list(offset)} is listed twice in overlay {overlay.id}", label,
                           code="duplicate-hex")
                continue
            seen.add(offset)
            cell = self.read_cell(entry, where, label, default)
            if cell is None:
                continue
            clean = {"hex": list(offset), "terrain": list(cell.terrain), "level": cell.level}
            if cell.storeys != 1:
                clean["storeys"] = cell.storeys
            if cell.label_note is not None:
                clean["label_note"] = cell.label_note
            out.append(clean)
        return out

    def read_overlay_hexsides(self, items, path, overlay):
        out = []
        for where, entry in self.entries(items, path, HEXSIDE_KEYS, HEXSIDE_KEYS):
            offset = self.read_offset(entry["hex"], f"{where}.hex")
            if offset is None:
                continue
            try:
                side = self.grid.side_index(entry["side"])
            except ValueError as exc:
                self.error(f"{where}.side", str(exc), code="bad-side")
                continue
            col, row = _overlay_place(self.grid, overlay, offset)
            other = self.grid.step(col, row, (side + overlay.rotation) % 6)
            if not self.grid.contains(col, row) and not self.grid.contains(*other):
                self.error(f"{where}.hex", f"overlay {overlay.id} puts this hexside off the map",
                           code="overlay-off-map")
                continue
            label = self.grid.label(col, row) if self.grid.contains(col, row) else None
            if not self.check_terrain_id(entry["terrain"], f"{where}.terrain", label, "hexside"):
                continue
            out.append({"hex": list(offset), "side": self.grid.sides[side], "terrain": entry["terrain"]})
        return out


def _default_open(catalogue):
    """The terrain a hex holds when the file gives none: the catalogue says which (Ruleset.open_hex)."""
    return "open" if catalogue is None else catalogue.open_hex()
