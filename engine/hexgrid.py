"""Hex grid geometry: offset, axial and cube coordinates, labels, neighbours, hexsides, map space.

Pure Python, no Django. Everything is written against the map format (docs/map-format.md):

- Offset coordinates ``(column, row)`` are 0-based and are what the map file names as ``[column, row]``.
- Axial coordinates ``(q, r)`` make neighbours, distances and lines translation-invariant: the centre of an
  axial hex is a linear function of ``(q, r)`` plus a constant that depends only on the stagger.
- Cube coordinates ``(x, y, z)`` with ``x + y + z == 0`` serve distance and rounding.
- Map space: circumradius 1, x to the right, y downward, the centre of column 0, row 0 at (0, 0).

A hexside is named by a hex and one of its six sides. The same edge named from the neighbour is the same
hexside; :meth:`Grid.hexside` gives the canonical ``(column, row, side_index)`` for it, owned by the hex for
which the side index is 0, 1 or 2 (which may be a hex just off the map, for a border edge).
"""

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

SQRT3 = math.sqrt(3.0)

ORIENTATIONS = ("flat", "pointy")
STAGGERS = ("odd", "even")
LABEL_SCHEMES = ("letter-number", "xxyy", "xx.yy")

SIDES = {
    "flat": ("N", "NE", "SE", "S", "SW", "NW"),
    "pointy": ("NE", "E", "SE", "SW", "W", "NW"),
}

# Axial steps for each side index, clockwise from the first side.
AXIAL_STEPS = {
    "flat": ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)),
    "pointy": ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)),
}

# Side i runs from corner i to corner i + 1; corner i sits at this angle (degrees, y downward) plus 60 i.
FIRST_CORNER_ANGLE = {"flat": 240.0, "pointy": 270.0}

MAX_SIZE = 500

Hex = tuple[int, int]  # offset (column, row)
HexsideKey = tuple[int, int, int]  # canonical (column, row, side index 0..2)
Point = tuple[float, float]  # map space
Side = int | str  # a side index 0..5 or its name (N, NE, ..)


def column_letters(index: int) -> str:
    """Column letters the wargame way: A..Z, then AA, BB, .., ZZ, then AAA, .."""
    if index < 0:
        raise ValueError(f"column index {index} is negative")
    return chr(ord("A") + index % 26) * (index // 26 + 1)


def column_index(letters: str) -> int:
    letters = letters.upper()
    if not letters or not letters.isalpha() or not letters.isascii() or len(set(letters)) != 1:
        raise ValueError(f"{letters!r} is not a column name (A..Z, AA, BB, ..)")
    return (len(letters) - 1) * 26 + ord(letters[0]) - ord("A")


_LETTER_NUMBER = re.compile(r"^([A-Za-z]+)(\d+)$")
_XXYY = re.compile(r"^(\d+)$")
_XX_DOT_YY = re.compile(r"^(\d+)\.(\d+)$")


@dataclass(frozen=True)
class Grid:
    orientation: str = "flat"
    columns: int = 10
    rows: int = 10
    stagger: str = "even"
    labels: str = "letter-number"
    hex_metres: float = 50

    def __post_init__(self):
        if self.orientation not in ORIENTATIONS:
            raise ValueError(f"orientation must be one of {', '.join(ORIENTATIONS)}, not {self.orientation!r}")
        if self.stagger not in STAGGERS:
            raise ValueError(f"stagger must be one of {', '.join(STAGGERS)}, not {self.stagger!r}")
        if self.labels not in LABEL_SCHEMES:
            raise ValueError(f"labels must be one of {', '.join(LABEL_SCHEMES)}, not {self.labels!r}")
        for name in ("columns", "rows"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_SIZE:
                raise ValueError(f"{name} must be a whole number from 1 to {MAX_SIZE}, not {value!r}")

    # -- sizes and iteration -------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return self.columns * self.rows

    @property
    def sides(self) -> tuple[str, ...]:
        return SIDES[self.orientation]

    def contains(self, col: int, row: int) -> bool:
        return 0 <= col < self.columns and 0 <= row < self.rows

    def hexes(self) -> Iterator[Hex]:
        """Every hex, column by column: the order of a compiled map's arrays."""
        for col in range(self.columns):
            for row in range(self.rows):
                yield col, row

    def index(self, col: int, row: int) -> int:
        """Position of a hex in the map's flat arrays (column-major)."""
        return col * self.rows + row

    def from_index(self, i: int) -> Hex:
        return divmod(i, self.rows)

    # -- offset <-> axial <-> cube -------------------------------------------------------------------
    def shifted(self, line: int) -> bool:
        """Is this 0-based column (flat) or row (pointy) the one that sits half a hex lower / further right?"""
        return (line % 2 == 1) if self.stagger == "odd" else (line % 2 == 0)

    def to_axial(self, col: int, row: int) -> tuple[int, int]:
        if self.orientation == "flat":
            if self.stagger == "odd":
                return col, row - (col - (col & 1)) // 2
            return col, row - (col + (col & 1)) // 2
        if self.stagger == "odd":
            return col - (row - (row & 1)) // 2, row
        return col - (row + (row & 1)) // 2, row

    def from_axial(self, q: int, r: int) -> Hex:
        if self.orientation == "flat":
            if self.stagger == "odd":
                return q, r + (q - (q & 1)) // 2
            return q, r + (q + (q & 1)) // 2
        if self.stagger == "odd":
            return q + (r - (r & 1)) // 2, r
        return q + (r + (r & 1)) // 2, r

    def to_cube(self, col: int, row: int) -> tuple[int, int, int]:
        q, r = self.to_axial(col, row)
        return q, r, -q - r

    def from_cube(self, x: int, y: int, z: int) -> Hex:
        if x + y + z != 0:
            raise ValueError(f"cube coordinates must add up to 0, not {x + y + z}")
        return self.from_axial(x, y)

    # -- labels --------------------------------------------------------------------------------------
    def _digits(self) -> int:
        return 3 if max(self.columns, self.rows) > 99 else 2

    def label(self, col: int, row: int) -> str:
        if self.labels == "letter-number":
            return f"{column_letters(col)}{row + 1}"
        width = self._digits()
        sep = "." if self.labels == "xx.yy" else ""
        return f"{col + 1:0{width}d}{sep}{row + 1:0{width}d}"

    def all_labels(self) -> list[str]:
        """Every hex's label in index order (column by column), as label() gives them: a viewshed or an analysis
        names every hex, and a column's part is worked out once per column."""
        rows = range(1, self.rows + 1)
        if self.labels == "letter-number":
            return [f"{letters}{row}" for letters in map(column_letters, range(self.columns)) for row in rows]
        width = self._digits()
        sep = "." if self.labels == "xx.yy" else ""
        return [f"{col:0{width}d}{sep}{row:0{width}d}" for col in range(1, self.columns + 1) for row in rows]

    def parse_label(self, text: object) -> Hex:
        """The offset coordinates a label names, or ValueError saying what was expected."""
        text = str(text).strip()
        if self.labels == "letter-number":
            m = _LETTER_NUMBER.match(text)
            if not m:
                raise ValueError(f"{text!r} is not a letter-number hex label such as C4 or BB10")
            col, row = column_index(m.group(1)), int(m.group(2)) - 1
        elif self.labels == "xx.yy":
            m = _XX_DOT_YY.match(text)
            if not m:
                raise ValueError(f"{text!r} is not an xx.yy hex label such as 11.05")
            col, row = int(m.group(1)) - 1, int(m.group(2)) - 1
        else:
            m = _XXYY.match(text)
            width = self._digits()
            if not m or len(text) != 2 * width:
                raise ValueError(f"{text!r} is not an xxyy hex label of {2 * width} digits such as "
                                 f"{'0304' if width == 2 else '003004'}")
            col, row = int(text[:width]) - 1, int(text[width:]) - 1
        if not self.contains(col, row):
            raise ValueError(f"hex {text} is off the map ({self.columns} columns x {self.rows} rows)")
        return col, row

    def parse_hex(self, value: object) -> Hex:
        """A hex named by its label or by a ``[column, row]`` pair of 0-based integers."""
        if isinstance(value, (list, tuple)):
            if (len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
                raise ValueError(f"{value!r} is not a [column, row] pair of whole numbers")
            col, row = value
            if not self.contains(col, row):
                raise ValueError(f"hex [{col}, {row}] is off the map ({self.columns} columns x {self.rows} rows)")
            return col, row
        if isinstance(value, str):
            return self.parse_label(value)
        raise ValueError(f"{value!r} is not a hex: give a label or a [column, row] pair")

    # -- neighbours, sides, distance -----------------------------------------------------------------
    def side_index(self, side: Side) -> int:
        if isinstance(side, int) and not isinstance(side, bool) and 0 <= side < 6:
            return side
        try:
            return self.sides.index(str(side).upper())
        except ValueError:
            raise ValueError(f"{side!r} is not a side of a {self.orientation} hex "
                             f"(one of {' '.join(self.sides)})") from None

    def step(self, col: int, row: int, side: Side, distance: int = 1) -> Hex:
        """The hex ``distance`` steps away through ``side``, on the map or not."""
        dq, dr = AXIAL_STEPS[self.orientation][self.side_index(side)]
        q, r = self.to_axial(col, row)
        return self.from_axial(q + dq * distance, r + dr * distance)

    def neighbour(self, col: int, row: int, side: Side) -> Hex | None:
        """The hex across ``side``, or None off the map."""
        n = self.step(col, row, side)
        return n if self.contains(*n) else None

    def neighbours(self, col: int, row: int) -> list[Hex]:
        """The neighbours on the map, clockwise from the first side."""
        return [n for n in (self.step(col, row, i) for i in range(6)) if self.contains(*n)]

    def side_towards(self, a: Hex, b: Hex) -> int | None:
        """The side index of hex a that it shares with the adjacent hex b, or None."""
        qa, ra = self.to_axial(*a)
        qb, rb = self.to_axial(*b)
        try:
            return AXIAL_STEPS[self.orientation].index((qb - qa, rb - ra))
        except ValueError:
            return None

    def distance(self, a: Hex, b: Hex) -> int:
        qa, ra = self.to_axial(*a)
        qb, rb = self.to_axial(*b)
        dq, dr = qb - qa, rb - ra
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def hexside(self, col: int, row: int, side: Side) -> HexsideKey:
        """Canonical identity ``(column, row, side_index)`` of an edge, the same from either hex."""
        i = self.side_index(side)
        if i < 3:
            return col, row, i
        ncol, nrow = self.step(col, row, i)
        return ncol, nrow, i - 3

    def hexside_hexes(self, key: HexsideKey) -> list[Hex]:
        """The one or two hexes on the map that share a canonical hexside."""
        col, row, i = key
        other = self.step(col, row, i)
        return [h for h in ((col, row), other) if self.contains(*h)]

    def hexside_name(self, key: HexsideKey) -> tuple[int, int, str]:
        """A hexside named from a hex on the map: ``(column, row, side_name)``."""
        col, row, i = key
        if self.contains(col, row):
            return col, row, self.sides[i]
        ncol, nrow = self.step(col, row, i)
        return ncol, nrow, self.sides[i + 3]

    # -- map space -----------------------------------------------------------------------------------
    def centre(self, col: int, row: int) -> Point:
        if self.orientation == "flat":
            return 1.5 * col, SQRT3 * (row + 0.5 * self.shifted(col))
        return SQRT3 * (col + 0.5 * self.shifted(row)), 1.5 * row

    def axial_centre(self, q: int, r: int) -> Point:
        """Map-space centre of an axial hex (valid off the map too)."""
        return self.centre(*self.from_axial(q, r))

    def corners(self, col: int, row: int) -> list[Point]:
        """The six corners, corner i starting side i, clockwise."""
        cx, cy = self.centre(col, row)
        first = FIRST_CORNER_ANGLE[self.orientation]
        out = []
        for i in range(6):
            a = math.radians(first + 60.0 * i)
            out.append((cx + math.cos(a), cy + math.sin(a)))
        return out

    def side_endpoints(self, col: int, row: int, side: Side) -> tuple[Point, Point]:
        i = self.side_index(side)
        corners = self.corners(col, row)
        return corners[i], corners[(i + 1) % 6]

    def extent(self) -> tuple[float, float, float, float]:
        """(min_x, min_y, max_x, max_y) of the whole map in map space."""
        xs, ys = [], []
        for col, row in ((0, 0), (0, self.rows - 1), (self.columns - 1, 0), (self.columns - 1, self.rows - 1),
                         (1 % self.columns, 0), (1 % self.columns, self.rows - 1),
                         (0, 1 % self.rows), (self.columns - 1, 1 % self.rows)):
            for x, y in self.corners(col, row):
                xs.append(x)
                ys.append(y)
        return min(xs), min(ys), max(xs), max(ys)

    def hex_at(self, x: float, y: float) -> Hex:
        """The offset hex whose centre is nearest to a map-space point (on the map or not)."""
        if self.orientation == "flat":
            q0 = x / 1.5
            # centre y of axial (q, r) = SQRT3 * (r + q / 2) + k, k depends on stagger
            k = self.centre(*self.from_axial(0, 0))[1]
            r0 = (y - k) / SQRT3 - q0 / 2
        else:
            k = self.centre(*self.from_axial(0, 0))[0]
            r0 = y / 1.5
            q0 = (x - k) / SQRT3 - r0 / 2
        q, r = cube_round(q0, r0)
        return self.from_axial(q, r)

    def hexside_at(self, x: float, y: float) -> HexsideKey:
        """The canonical hexside nearest a map-space point: the side of the hex under it whose middle is nearest."""
        col, row = self.hex_at(x, y)
        corners = self.corners(col, row)
        best, best_d = 0, None
        for i in range(6):
            (ax, ay), (bx, by) = corners[i], corners[(i + 1) % 6]
            d = ((ax + bx) / 2 - x) ** 2 + ((ay + by) / 2 - y) ** 2
            if best_d is None or d < best_d:
                best, best_d = i, d
        return self.hexside(col, row, best)

    def as_dict(self) -> dict[str, object]:
        return {"orientation": self.orientation, "columns": self.columns, "rows": self.rows,
                "stagger": self.stagger, "labels": self.labels, "hex_metres": self.hex_metres}


def cube_round(qf: float, rf: float) -> tuple[int, int]:
    """Round fractional axial coordinates to the nearest hex."""
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return q, r
