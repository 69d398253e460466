"""A set of hexes as one VASSAL Zone ``path``: the outline of their union in board pixels.

A Zone is one java.awt.Polygon, whose ``contains`` follows the even-odd rule; so a zone of several parts, or
with holes, is one path that visits each ring and comes back to the first ring's first corner the way it went:
each bridge is walked twice and adds no area."""

import math

from shapely.geometry import MultiPolygon, Polygon, box
from shapely.ops import unary_union

from engine.hexgrid import FIRST_CORNER_ANGLE


def hex_polygon(grid, b, col, row):
    cx, cy = b.centre_px(col, row)
    first = FIRST_CORNER_ANGLE[grid.orientation]
    return Polygon([(round(cx + b.scale * math.cos(math.radians(first + 60 * i)), 3),
                     round(cy + b.scale * math.sin(math.radians(first + 60 * i)), 3)) for i in range(6)])


def rings(grid, b, labels):
    """The union's rings, each a list of whole-pixel corners: every part's outline, then its holes."""
    return shape_rings(unary_union([hex_polygon(grid, b, *grid.parse_label(label)) for label in labels]))


def shape_rings(shape):
    shape = shape.buffer(0)
    parts = shape.geoms if isinstance(shape, MultiPolygon) else [shape]
    out = []
    for part in parts:
        for ring in [part.exterior, *part.interiors]:
            points = [(round(x), round(y)) for x, y in ring.coords[:-1]]
            out.append([p for i, p in enumerate(points) if p != points[i - 1]])
    return [r for r in out if len(r) >= 3]


def zone_path(grid, b, labels):
    """VASSAL's ``path`` attribute ("x,y;x,y;..") of the hexes named by ``labels``."""
    return ring_path(rings(grid, b, labels))


def off_map_path(grid, b, size):
    """The path of the board outside the map's hexes (a half hex along each edge, between the hexes' points):
    where VASSAL's grid has centres of the next column or row that are no hex of the map."""
    hexes = unary_union([hex_polygon(grid, b, col, row) for col, row in grid.hexes()])
    outside = box(0, 0, size[0], size[1]).difference(hexes.buffer(0.5))
    return ring_path(shape_rings(outside)) if not outside.is_empty else ""


def ring_path(all_rings):
    start = all_rings[0][0]
    points = list(all_rings[0])
    for ring in all_rings[1:]:
        points += [start, *ring, ring[0], start]
    return ";".join(f"{x},{y}" for x, y in points)
