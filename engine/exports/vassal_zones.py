"""A set of hexes as one VASSAL Zone ``path``: the outline of their union in board pixels.

A Zone is one java.awt.Polygon, whose ``contains`` follows the even-odd rule; so a zone of several parts, or
with holes, is one path that visits each ring and comes back to the first ring's first corner the way it went:
each bridge is walked twice and adds no area."""

import math

from shapely.geometry import MultiPolygon, Polygon
from shapely.ops import unary_union

from engine.hexgrid import FIRST_CORNER_ANGLE


def hex_polygon(grid, b, col, row):
    cx, cy = b.centre_px(col, row)
    first = FIRST_CORNER_ANGLE[grid.orientation]
    return Polygon([(round(cx + b.scale * math.cos(math.radians(first + 60 * i)), 3),
                     round(cy + b.scale * math.sin(math.radians(first + 60 * i)), 3)) for i in range(6)])


def rings(grid, b, labels):
    """The union's rings, each a list of whole-pixel corners: every part's outline, then its holes."""
    shape = unary_union([hex_polygon(grid, b, *grid.parse_label(label)) for label in labels]).buffer(0)
    parts = shape.geoms if isinstance(shape, MultiPolygon) else [shape]
    out = []
    for part in parts:
        for ring in [part.exterior, *part.interiors]:
            points = [(round(x), round(y)) for x, y in ring.coords[:-1]]
            out.append([p for i, p in enumerate(points) if p != points[i - 1]])
    return [r for r in out if len(r) >= 3]


def zone_path(grid, b, labels):
    """VASSAL's ``path`` attribute ("x,y;x,y;..") of the hexes named by ``labels``."""
    all_rings = rings(grid, b, labels)
    start = all_rings[0][0]
    points = list(all_rings[0])
    for ring in all_rings[1:]:
        points += [start, *ring, ring[0], start]
    return ";".join(f"{x},{y}" for x, y in points)
