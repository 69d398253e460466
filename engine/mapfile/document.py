"""The map as read: its cells, overlays and document, the format's keys and limits, and the findings that report a
problem (format errors, docs/validation.md). Shared by reading and writing."""

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from engine.hexgrid import Grid, Hex, HexsideKey


@dataclass(frozen=True)
class Cell:
    """What stands in one hex."""

    terrain: tuple
    level: int = 0
    storeys: int = 1
    art: tuple | None = None  # tuple of polygons, each a tuple of (x, y) points in map space
    label_note: str | None = None


@dataclass
class Overlay:
    id: str
    anchor: tuple  # (column, row)
    rotation: int = 0
    hexes: list = field(default_factory=list)  # [{"hex": [dq, dr], "terrain": [..], "level": ..}, ..] as given
    hexsides: list = field(default_factory=list)  # [{"hex": [dq, dr], "side": "N", "terrain": ..}, ..]


@dataclass
class MapDoc:
    name: str
    ruleset: str
    grid: Grid
    default_terrain: tuple = ("open",)
    default_level: int = 0
    hexes: dict = field(default_factory=dict)  # (column, row) -> Cell, only the hexes listed
    hexsides: dict = field(default_factory=dict)  # canonical (column, row, side 0-2) -> terrain id
    overlays: list = field(default_factory=list)
    extensions: dict = field(default_factory=dict)
    background: dict | None = None  # the board scan under the map: {"image", "origin", "hex_px", "rotation", "opacity"}

    def default_cell(self) -> Cell:
        return Cell(terrain=tuple(self.default_terrain), level=self.default_level)

    def cell(self, col: int, row: int) -> Cell:
        """What a hex holds before overlays: listed or default."""
        return self.hexes.get((col, row)) or self.default_cell()

    def resolved(self) -> tuple[dict[Hex, Cell], dict[HexsideKey, str]]:
        """(cells, hexsides) with overlays laid over the map, in their order; cells lists non-default hexes only."""
        cells = dict(self.hexes)
        hexsides = dict(self.hexsides)
        for overlay in self.overlays:
            for (col, row), cell in overlay_cells(self.grid, overlay, self.default_cell()):
                cells[(col, row)] = cell
            for key, terrain in overlay_hexsides(self.grid, overlay):
                hexsides[key] = terrain
        return cells, hexsides


# An overlay's name: the format's overlay entry holds exactly OVERLAY_KEYS (no name: the format's contract), so names
# live in the one place for free data, ``extensions["overlay_names"]`` = {overlay id: name} (docs/map-format.md).
OVERLAY_NAMES = "overlay_names"
OVERLAY_NAME_LENGTH = 60
# A printed overlay ID: letter-number, as ATS identifies its overlays (001 L138, 3.3.1); the painter's copies of
# one add "-2", "-3". Any other id (the painter's "sel-1") is Hexside's own and never printed.
PRINTED_OVERLAY_ID = re.compile(r"^([A-Za-z]{1,4}\d{1,4})(?:-\d+)?$")


def overlay_names(doc: MapDoc) -> dict[str, str]:
    """{overlay id: name} of the map's named overlays (entries that are not a non-empty text are ignored)."""
    names = (doc.extensions or {}).get(OVERLAY_NAMES)
    if not isinstance(names, dict):
        return {}
    return {oid: name.strip() for oid, name in names.items() if isinstance(name, str) and name.strip()}


def overlay_title(doc: MapDoc, overlay: Overlay, names: dict[str, str] | None = None) -> str:
    """What an image or print writes on an overlay: its name, else its printed letter-number ID ("P3", also for
    the copy "P3-2"), else nothing (an internal id such as "sel-1" is never shown)."""
    names = overlay_names(doc) if names is None else names
    if overlay.id in names:
        return names[overlay.id]
    match = PRINTED_OVERLAY_ID.match(str(overlay.id))
    return match.group(1) if match else ""


FORMAT = "hexside-map"
VERSION = 1
TOP_KEYS = ("format", "version", "name", "ruleset", "grid", "defaults", "hexes", "hexsides", "overlays", "background",
            "extensions")
GRID_KEYS = ("orientation", "columns", "rows", "stagger", "labels", "hex_metres")
HEX_KEYS = ("hex", "terrain", "level", "storeys", "art", "label_note")
HEXSIDE_KEYS = ("hex", "side", "terrain")
OVERLAY_KEYS = ("id", "hexes", "hexsides", "anchor", "rotation")
OVERLAY_HEX_KEYS = ("hex", "terrain", "level", "storeys", "label_note")
BACKGROUND_KEYS = ("image", "origin", "hex_px", "rotation", "opacity")
BACKGROUND_IMAGE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")
MAX_STOREYS = 10
TERRAIN_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
ART_TOLERANCE = 1e-6


@dataclass(frozen=True)
class Finding:
    """One problem in a map file: where (JSON path, hex) and what was expected."""

    path: str
    message: str
    hex: str | None = None
    code: str = "invalid"
    severity: str = "error"
    side: str | None = None  # for a finding about a hexside: its side of ``hex``

    def as_dict(self) -> dict[str, str | None]:
        return {"severity": self.severity, "code": self.code, "where": self.where, "path": self.path,
                "hex": self.hex, "side": self.side, "message": self.message}

    @property
    def where(self):
        return f"{self.path} ({self.hex})" if self.hex else self.path

    def __str__(self):
        return f"{self.where}: {self.message}"


class FormatError(ValueError):
    """A file refused whole; ``errors`` lists every Finding."""

    what = "the file"

    def __init__(self, errors):
        self.errors = list(errors)
        count = len(self.errors)
        super().__init__(f"{count} error{'s' if count != 1 else ''} in {self.what}: "
                         + "; ".join(str(e) for e in self.errors))


class MapFormatError(FormatError):
    what = "the map file"


def rotate_axial(dq: int, dr: int, steps: int) -> tuple[int, int]:
    """Rotate an axial offset by 60 degrees clockwise, ``steps`` times."""
    x, y, z = dq, dr, -dq - dr
    for _ in range(steps % 6):
        x, y, z = -y, -z, -x
    return x, y


def _overlay_place(grid: Grid, overlay: Overlay, offset: list[int]) -> Hex:
    dq, dr = rotate_axial(offset[0], offset[1], overlay.rotation)
    q, r = grid.to_axial(*overlay.anchor)
    return grid.from_axial(q + dq, r + dr)


def overlay_cells(grid: Grid, overlay: Overlay, default: Cell) -> Iterator[tuple[Hex, Cell]]:
    """The (hex, Cell) pairs an overlay lays down, in map coordinates (hexes may fall off the map)."""
    for entry in overlay.hexes:
        terrain = entry.get("terrain", default.terrain)
        if isinstance(terrain, str):
            terrain = [terrain]
        yield _overlay_place(grid, overlay, entry["hex"]), Cell(
            terrain=tuple(terrain), level=entry.get("level", default.level),
            storeys=entry.get("storeys", 1), label_note=entry.get("label_note"))


def overlay_hexsides(grid: Grid, overlay: Overlay) -> Iterator[tuple[HexsideKey, str]]:
    for entry in overlay.hexsides:
        col, row = _overlay_place(grid, overlay, entry["hex"])
        side = (grid.side_index(entry["side"]) + overlay.rotation) % 6
        yield grid.hexside(col, row, side), entry["terrain"]


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _is_point(value):
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value))


def _fmt_point(point):
    return f"({point[0]:.3f}, {point[1]:.3f})"


def _kind(value):
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__)
