"""Map space to pixels for one image: which hexes are drawn, their pixel centres and corners."""

import math

import numpy as np

from engine.hexgrid import FIRST_CORNER_ANGLE
from engine.render.styles import SQRT3

MARGIN = 8


class Canvas:
    """Map space to pixels for one image: the hexes drawn, their pixel centres and corners."""

    def __init__(self, cmap, scale, margin, crop):
        self.cmap, self.grid, self.s = cmap, cmap.grid, float(scale)
        self.drawn = np.arange(cmap.n) if crop is None else np.array(sorted(crop), dtype=np.int64)
        angles = np.radians(FIRST_CORNER_ANGLE[self.grid.orientation] + 60.0 * np.arange(6))
        self.unit_corners = np.stack([np.cos(angles), np.sin(angles)], axis=1)  # corner i starts side i
        centres = cmap.centres[self.drawn]
        lo = centres.min(axis=0) - 1.0
        hi = centres.max(axis=0) + 1.0
        if self.grid.orientation == "flat":
            lo[1], hi[1] = lo[1] + (1 - SQRT3 / 2), hi[1] - (1 - SQRT3 / 2)
        else:
            lo[0], hi[0] = lo[0] + (1 - SQRT3 / 2), hi[0] - (1 - SQRT3 / 2)
        self.origin = lo
        self.margin = margin
        self.map_w = int(math.ceil((hi[0] - lo[0]) * self.s))
        self.map_h = int(math.ceil((hi[1] - lo[1]) * self.s))
        self.centre_px = np.zeros((cmap.n, 2))
        self.centre_px[self.drawn] = (centres - lo) * self.s + margin
        self.min_text = 0.0  # the smallest legible text in pixels (a print's), or 0: text smaller is left out

    def px(self, point):
        return ((point[0] - self.origin[0]) * self.s + self.margin, (point[1] - self.origin[1]) * self.s + self.margin)

    def corners(self, i):
        cx, cy = self.centre_px[i]
        return [(cx + x * self.s, cy + y * self.s) for x, y in self.unit_corners]

    def edge(self, i, side):
        c = self.corners(i)
        return c[side], c[(side + 1) % 6]


def is_drawn(canvas):
    mask = np.zeros(canvas.cmap.n, dtype=bool)
    mask[canvas.drawn] = True
    return mask


def hex_index(cmap, ref):
    """A hex's index from its label, [column, row] or index."""
    return cmap.index_of(ref) if not isinstance(ref, (int, np.integer)) else int(ref)
