"""Roads and railroads drawn as what they are: a line from each hex's centre to the edge it shares with the next
hex of the same kind, as printed boards draw them, never a tan hex that reads as a level-1 hill.

What runs through a hex is the catalogue's ``linear`` ("road", "railroad"), data rather than ids. A linear
terrain gives its hex no fill and no pattern: the hex shows its other terrain (or the map's ground), shaded for
its level, and the line is drawn over it. The raster (map.py) and vector (vector.py) drawings share this geometry.
"""

from dataclasses import dataclass, field

from engine.render.canvas import is_drawn
from engine.render.styles import linear_kind, rgb, style_of

ROAD_WIDTH = 0.2  # the road's core, in map units (a hex's circumradius is 1)
RAIL_WIDTH = 0.07
CASING = (96, 66, 38)  # the road's edges: dark enough that a road never reads as a fill
RAIL_INK = (48, 48, 48)


@dataclass
class Run:
    """One kind of line (a road of one terrain, a railroad): its colour, its segments and the hexes it stops in."""

    kind: str
    colour: tuple
    segments: list = field(default_factory=list)  # [((x, y), (x, y))] in pixels, centre to shared edge
    hubs: list = field(default_factory=list)  # hex centres in pixels (round joins, and a lone road hex's dot)


def runs_of(canvas):
    """The map's roads and railroads as Runs, in a fixed order (the catalogue terrain's order of first use)."""
    cmap, grid, catalogue = canvas.cmap, canvas.grid, canvas.cmap.catalogue
    looks, by_hex = {}, {}
    for i in canvas.drawn:
        terrain = cmap.terrain[i]
        if terrain not in looks:
            looks[terrain] = [(linear_kind(catalogue, tid), tid) for tid in terrain if linear_kind(catalogue, tid)]
        if looks[terrain]:
            by_hex[int(i)] = looks[terrain]
    if not by_hex:
        return []
    drawn, runs = is_drawn(canvas), {}
    kinds_at = {i: {kind for kind, _ in items} for i, items in by_hex.items()}
    for i, items in by_hex.items():
        col, row = grid.from_index(i)
        centre = canvas.centre_px[i]
        for kind, tid in items:
            if tid not in runs:
                style = style_of(catalogue, tid)
                colour = RAIL_INK if kind == "railroad" else rgb(style.get("fill"), (220, 200, 160))
                runs[tid] = Run(kind, colour)
            run = runs[tid]
            run.hubs.append(tuple(centre))
            for side in range(6):
                ncol, nrow = grid.step(col, row, side)
                if not grid.contains(ncol, nrow):
                    continue
                j = grid.index(ncol, nrow)
                if kind in kinds_at.get(j, ()) and drawn[j]:
                    mid = canvas.px(tuple((cmap.centres[i] + cmap.centres[j]) / 2))
                    run.segments.append((tuple(centre), mid))
    # Roads under railroads; each kind in the order its terrain first appears.
    return sorted(runs.values(), key=lambda r: r.kind == "railroad")


def ties(segment, s):
    """A railroad's cross ties along one segment: short lines across it, in pixels."""
    (ax, ay), (bx, by) = segment
    dx, dy = bx - ax, by - ay
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    nx, ny = -dy / length * s * 0.12, dx / length * s * 0.12
    out = []
    for t in (0.35, 0.8):
        x, y = ax + dx * t, ay + dy * t
        out.append(((x - nx, y - ny), (x + nx, y + ny)))
    return out
