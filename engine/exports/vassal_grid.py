"""The board of a VASSAL module: the print of the map, and the HexGrid and HexGridNumbering that name its hexes
as Hexside does and find their centres where the print drew them.

Written against VASSAL 3.7.26's own code (vassal-app/src/main/java/VASSAL/build/module/map/boardPicker/board/
HexGrid.java and mapgrid/HexGridNumbering.java, RegularGridNumbering.java at tag 3.7.26):

- The grid works in a frame where columns of hexes run down: the screen itself, or with ``sideways`` the screen
  with x and y swapped (pointy-topped hexes, whose rows VASSAL treats as columns). ``dx`` is the distance between
  columns, ``dy`` between centres in a column; raw column nx, row ny has its centre at
  ``((int)(dx*nx + x0), (int)(dy*ny + y0))``, odd raw columns ``(int)(dy/2)`` lower (hexPointCenterFromRawIndex).
  The origin ``x0``, ``y0`` is a whole pixel (setAttribute reads an Integer).
- So that those truncations cost nothing along a column, the print is drawn at a dpi a hair off the one asked,
  making the hex exactly an even number of pixels across the flats (``dy``); the hexes keep the size asked in mm.
  Across columns ``dx`` is 1.5 circumradii, never whole: ``x0`` is the first whole pixel at or after the true
  origin, so VASSAL's truncated centre is less than 1 pixel from the print's on every column.
- Hexside's shifted lines (docs/map-format.md, ``stagger``) are VASSAL's odd raw columns: with ``stagger: even``
  the grid's raw column 0 is the one before the map's first, so the first is raw column 1.
- The numbering names a hex ``column name + sep + row name`` (``first`` = H) or the other way round (V); a name is
  a number with ``leading`` zeros or letters A..Z, AA, BB.. (RegularGridNumbering.getName: the wargame way, as
  Hexside), from the raw index plus ``hOff`` / ``vOff``. All three label styles are exact: letter-number is
  ``hType=A hOff=0`` then ``vType=N vLeading=0 vOff=1``; xxyy both numeric with ``leading`` one less than the
  digits; xx.yy the same with ``sep="."``. Sideways, VASSAL's columns are Hexside's rows, so ``first`` is V and
  the vertical part names Hexside's column. The numbering's own ``stagger`` is off: rows are raw rows.
"""

import math
from dataclasses import dataclass

from engine.render.printing import MAX_DPI, PRINT_MARGIN_MM, print_scale

SQRT3 = math.sqrt(3)
SOURCE_VERSION = "3.7.26"  # the VASSAL source this was written and checked against
# Below this many pixels across the flats VASSAL's whole-pixel hex outlines (getSingleHexShape rounds each corner
# and widens the hex by a pixel) overlap their neighbours' centres, and a dropped counter may snap to the next hex.
MIN_ACROSS_PX = 8


@dataclass(frozen=True)
class Board:
    """Where the print puts the hexes: ``scale`` pixels per circumradius at ``dpi``, the image ``width`` x
    ``height``, and the pixel at which the print's map space origin (``origin_px``) lies."""

    grid: object
    hex_mm: float
    dpi: float
    scale: float
    margin: int  # the print's margin, in pixels
    trim: int  # pixels of white margin cut from each edge of the print
    origin: tuple  # map space point drawn at pixel (margin, margin) of the print (the renderer's Canvas origin)

    @property
    def across_px(self):
        """The hex across the flats, in pixels: an even whole number."""
        return round(SQRT3 * self.scale)

    def centre_px(self, col, row):
        """A hex's centre in the board image, in the print renderer's pixel frame (engine/render/canvas.py)."""
        x, y = self.grid.centre(col, row)
        return ((x - self.origin[0]) * self.scale + self.margin - self.trim,
                (y - self.origin[1]) * self.scale + self.margin - self.trim)


def board_dpi(hex_mm, dpi):
    """The dpi nearest ``dpi`` at which a hex ``hex_mm`` across the flats is an even number of pixels across."""
    across = max(MIN_ACROSS_PX, 2 * round(hex_mm / 25.4 * dpi / 2))
    while across * 25.4 / hex_mm > MAX_DPI:
        across -= 2
    while across * 25.4 / hex_mm < 10:
        across += 2
    return across * 25.4 / hex_mm


def canvas_origin(grid):
    """The map space point the print renderer draws at its margin (Canvas: the hexes' extent, whole map)."""
    xs = [grid.centre(c, r)[0] for c in range(min(2, grid.columns)) for r in range(min(2, grid.rows))]
    ys = [grid.centre(c, r)[1] for c in range(min(2, grid.columns)) for r in range(min(2, grid.rows))]
    lo_x, lo_y = min(xs) - 1.0, min(ys) - 1.0
    if grid.orientation == "flat":
        lo_y += 1 - SQRT3 / 2
    else:
        lo_x += 1 - SQRT3 / 2
    return lo_x, lo_y


def check_size(hex_mm, dpi):
    """ValueError unless a board can be printed at ``hex_mm`` and ``dpi``: the print's own range, and a hex at
    least MIN_ACROSS_PX across (the message names the dpi)."""
    print_scale(dpi, hex_mm)
    if hex_mm / 25.4 * dpi < MIN_ACROSS_PX - 1:
        raise ValueError(f"at {dpi:g} dpi a {hex_mm:g} mm hex is {hex_mm / 25.4 * dpi:.1f} pixels across: too few "
                         f"for VASSAL to tell hexes apart (at least {MIN_ACROSS_PX}); raise the dpi or the hex's mm")


def board(grid, hex_mm, dpi):
    """The board's frame for a map printed at ``hex_mm`` (ValueError out of the print's range)."""
    check_size(hex_mm, dpi)
    dpi = board_dpi(hex_mm, dpi)
    scale = print_scale(dpi, hex_mm)
    margin = round(PRINT_MARGIN_MM / 25.4 * dpi)
    # Keep less white margin than half a circumradius, so that no centre of the grid's next line lies on the
    # board: a reader (Hexside's importer among them) sees the map's hexes as the centres on the board.
    keep = min(margin, max(0, math.floor(scale / 2) - 1))
    return Board(grid=grid, hex_mm=hex_mm, dpi=dpi, scale=scale, margin=margin, trim=margin - keep,
                 origin=canvas_origin(grid))


def hex_grid(b):
    """The HexGrid's attributes (strings, in VASSAL's order) for a board."""
    grid = b.grid
    sideways = grid.orientation == "pointy"
    dx, dy = 1.5 * b.scale, float(b.across_px)
    k = 0 if grid.stagger == "odd" else 1  # raw line of the map's first column (flat) or row (pointy)
    x, y = b.centre_px(0, 0)
    fx, fy = (y, x) if sideways else (x, y)
    if grid.shifted(0):
        fy -= dy / 2
    fx -= k * dx
    return {
        "color": "0,0,0", "cornersLegal": "false", "dotsVisible": "false", "dx": repr(dx), "dy": repr(dy),
        "edgesLegal": "false", "sideways": "true" if sideways else "false", "snapTo": "true", "visible": "false",
        "x0": str(math.ceil(fx - 1e-6)), "y0": str(round(fy)),
    }


def numbering(grid):
    """The HexGridNumbering's attributes that name every hex with its Hexside label."""
    digits = grid._digits()
    if grid.labels == "letter-number":
        col = {"Type": "A", "Off": 0, "Leading": 0}
        row = {"Type": "N", "Off": 1, "Leading": 0}
    else:
        col = {"Type": "N", "Off": 1, "Leading": digits - 1}
        row = dict(col)
    k = 0 if grid.stagger == "odd" else 1
    if grid.orientation == "flat":
        first, h, v = "H", {**col, "Off": col["Off"] - k}, row
    else:
        first, h, v = "V", {**row, "Off": row["Off"] - k}, col
    return {
        "color": "0,0,0", "first": first, "fontSize": "9", "hDescend": "false", "hDrawOff": "0",
        "hLeading": str(h["Leading"]), "hOff": str(h["Off"]), "hType": h["Type"], "locationFormat": "$gridLocation$",
        "rotateText": "0", "sep": "." if grid.labels == "xx.yy" else "", "stagger": "false", "vDescend": "false",
        "vDrawOff": "0", "vLeading": str(v["Leading"]), "vOff": str(v["Off"]), "vType": v["Type"], "visible": "false",
    }
