"""VASSAL 3.7.26's hex grid and numbering, re-written in Python line by line from its Java source, so that the
tests judge an exported module by VASSAL's own arithmetic, not by Hexside's:

- vassal-app/src/main/java/VASSAL/build/module/map/boardPicker/board/HexGrid.java: setAttribute (x0, y0 are
  Integers, dx, dy Doubles), snapToHex / hexPoint / hexPointCenterFromRawIndex / getSingleHexShape,
  getRawColumn, getRawRow, rotateIfSideways;
- .../board/mapgrid/HexGridNumbering.java: getRow, getColumn, getCenterPoint;
- .../board/mapgrid/RegularGridNumbering.java: getName, parseName, getMatchingPattern, getLocation,
  locationName.

Java's (int) cast truncates toward zero (Python's int() does too), Math.round(x) is floor(x + 0.5), and
Java's % keeps the dividend's sign (only ever compared with 0 here, where Python's agrees).
"""

import math
import re

import numpy as np


def java_round(x):
    return math.floor(x + 0.5)


def f32(x):
    return float(np.float32(x))


def polygon_contains(points, x, y):
    """java.awt.Polygon / Area contains for a convex hexagon and a point not on its edge (crossing count)."""
    inside = False
    n = len(points)
    for i in range(n):
        (x1, y1), (x2, y2) = points[i], points[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < xc:
                inside = not inside
    return inside


class HexGrid:
    def __init__(self, attrs, numbering):
        self.origin = [int(attrs["x0"]), int(attrs["y0"])]  # Integer.valueOf: a fraction would throw
        self.dx, self.dy = float(attrs["dx"]), float(attrs["dy"])
        self.sideways = attrs.get("sideways") == "true"
        self.numbering = Numbering(numbering, self)

    def rotate_if_sideways(self, p):
        return (p[1], p[0]) if self.sideways else tuple(p)

    def center_from_raw_index(self, nx, ny):
        x = int(self.dx * nx + self.origin[0])
        y = int(self.dy * ny + self.origin[1]) if nx % 2 == 0 else int(self.dy * ny + int(self.dy / 2) + self.origin[1])
        return x, y

    def single_hex_shape(self, cx, cy):
        x, y = f32(cx), f32(cy)
        dx, dy = f32(self.dx), f32(self.dy)
        r = f32(2.0 * dx / 3.0)
        x1, y1 = x - r, y
        x2, y2 = x - 0.5 * r, y - 0.5 * dy
        x3, y3 = x + 0.5 * r, y2
        x4, y4 = x + r, y
        x5, y5 = x3, y + 0.5 * dy
        x6, y6 = x2, y5
        return [(java_round(x1), java_round(y1)), (java_round(x2), java_round(y2)),
                (java_round(x3) + 1, java_round(y3)), (java_round(x4) + 1, java_round(y4)),
                (java_round(x5) + 1, java_round(y5) + 1), (java_round(x6), java_round(y6) + 1)]

    def hex_point(self, x, y):
        nx = math.floor((x - self.origin[0] + self.dx / 2) / self.dx)
        if nx % 2 == 0:
            ny = math.floor((y - self.origin[1] + self.dy / 2) / self.dy)
        else:
            ny = math.floor((y - self.origin[1]) / self.dy)
        first = self.center_from_raw_index(nx, ny)
        if polygon_contains(self.single_hex_shape(*first), x, y):
            return first
        offsets = ((-1, -1), (-1, 0), (1, -1), (1, 0)) if nx % 2 == 0 else ((-1, 0), (-1, 1), (1, 0), (1, 1))
        for ox, oy in offsets:
            c = self.center_from_raw_index(nx + ox, ny + oy)
            if polygon_contains(self.single_hex_shape(*c), x, y):
                return c
        return first

    def snap_to_hex(self, p):
        """HexGrid.snapToHex: the centre of the hex holding a (whole pixel) point, in board pixels."""
        q = self.rotate_if_sideways(p)
        return self.rotate_if_sideways(self.hex_point(*q))

    def raw_column(self, p):
        x = self.rotate_if_sideways(p)[0] - self.origin[0]
        return math.floor(x / self.dx + 0.5)

    def raw_row(self, p):
        x, y = self.rotate_if_sideways(p)
        nx = java_round((x - self.origin[0]) / self.dx)
        if nx % 2 == 0:
            return java_round((y - self.origin[1]) / self.dy)
        return java_round((y - self.origin[1] - self.dy / 2) / self.dy)

    def location_name(self, p):
        return self.numbering.location_name(p)

    def get_location(self, name):
        return self.numbering.get_location(name)


ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ALPHABETIC_MATCH = "-?(?:" + "|".join(f"{c}+" for c in ALPHABET) + ")"


class Numbering:
    def __init__(self, attrs, grid):
        self.grid = grid
        self.first = attrs.get("first", "H")[0]
        self.sep = attrs.get("sep", "")
        self.h_type, self.v_type = attrs.get("hType", "N")[0], attrs.get("vType", "N")[0]
        self.h_leading, self.v_leading = int(attrs.get("hLeading", 1)), int(attrs.get("vLeading", 1))
        self.h_off, self.v_off = int(attrs.get("hOff", 1)), int(attrs.get("vOff", 1))
        self.h_desc, self.v_desc = attrs.get("hDescend") == "true", attrs.get("vDescend") == "true"
        self.stagger = attrs.get("stagger", "true") == "true"
        self.location_format = attrs.get("locationFormat", "$gridLocation$")
        assert not self.h_desc and not self.v_desc, "descending numbering needs the board size: not modelled"

    @staticmethod
    def name(n, kind, leading):
        val = "-" if n < 0 else ""
        n = abs(n)
        if kind == "A":
            while True:
                val += ALPHABET[n % 26]
                n -= 26
                if n < 0:
                    return val
        while leading > 0 and n < 10.0 ** leading:
            val += "0"
            leading -= 1
        return val + str(n)

    def full_name(self, row, column):
        row_name = self.name(row + self.v_off, self.v_type, self.v_leading)
        col_name = self.name(column + self.h_off, self.h_type, self.h_leading)
        return col_name + self.sep + row_name if self.first == "H" else row_name + self.sep + col_name

    def get_column(self, p):
        return self.grid.raw_column(p)

    def get_row(self, p):
        ny = self.grid.raw_row(p)
        if self.stagger and self.grid.raw_column(p) % 2 != 0:
            ny += 1
        return ny

    def location_name(self, p):
        assert self.location_format == "$gridLocation$"
        return self.full_name(self.get_row(p), self.get_column(p))

    @staticmethod
    def parse_name(name, kind):
        if kind == "A":
            value, index, negative = 0, 0, name.startswith("-")
            if negative:
                index += 1
            while index < len(name) and name[index].isupper():
                value += 26 if index < len(name) - 1 else ALPHABET.index(name[index])
                index += 1
            return -value if negative else value
        return int(name)

    @staticmethod
    def pattern(kind, leading):
        return ALPHABETIC_MATCH if kind == "A" else "-?[0-9]{" + str(leading + 1) + ",}"

    def get_location(self, location):
        """RegularGridNumbering.getLocation for "$gridLocation$": the point a name stands for, or None."""
        h = "(" + self.pattern(self.h_type, self.h_leading) + ")"
        v = "(" + self.pattern(self.v_type, self.v_leading) + ")"
        sep = re.escape(self.sep)
        if self.first == "H":
            match = re.fullmatch(h + sep + v, location)
            if not match:
                return None
            col_name, row_name = match.group(1), match.group(2)
        else:
            match = re.fullmatch(v + sep + h, location)
            if not match:
                return None
            row_name, col_name = match.group(1), match.group(2)
        row = self.parse_name(row_name, self.v_type)
        col = self.parse_name(col_name, self.h_type)
        return self.center_point(col - self.h_off, row - self.v_off)

    def center_point(self, col, row):
        if self.stagger and col % 2 != 0:
            row -= 1
        g = self.grid
        x = int(col * g.dx) + g.origin[0]
        y = (int(row * g.dy) if col % 2 == 0 else int(row * g.dy + g.dy / 2)) + g.origin[1]
        return g.rotate_if_sideways((x, y))
