"""Every line shape a grid can hold, flattened into arrays for compiled kernels, and the kernels' helpers.

A line's steps depend only on the axial difference (dq, dr) between its ends (maps.los.trace), so a grid's
tables hold one shape per difference two of its hexes can have:
``shape id = (dq - dq_min) * dr_span + (dr - dr_min)``, and shape s owns the steps
``shape_start[s]..shape_start[s + 1]`` (empty for a difference no two hexes of the grid have). Step arrays
hold exactly what :func:`maps.los.trace.trace` gives, with hexes as axial offsets from the start hex.

The numba helpers below are for every ruleset's kernel: find a hex's axial coordinates and index, a pair's
shape, and whether a segment touches a hex's art (as shapely's ``intersects`` would say).
"""

import functools
from dataclasses import dataclass

import numpy as np
from numba import njit

from maps.hexgrid import Grid, STAGGERS
from maps.los.trace import (ALONG_CODE, CORNER_CODE, HEX_CODE, ORIENTATION_CODES, SIDE_CODE, max_steps,
                            walk_shape)

__all__ = [
    "HEX_CODE", "SIDE_CODE", "ALONG_CODE", "CORNER_CODE", "ORIENTATION_CODES", "STAGGER_CODES",
    "TraceTables", "trace_tables", "axial_of", "index_of_axial", "shape_id", "segment_hits_art",
]

STAGGER_CODES = {name: code for code, name in enumerate(STAGGERS)}  # odd 0, even 1


@dataclass(frozen=True, eq=False)
class TraceTables:
    """The flattened shapes of one grid shape. Arrays are read-only: they are shared through a cache."""

    orientation: str
    columns: int
    rows: int
    stagger: str
    orient: int  # ORIENTATION_CODES: flat 0, pointy 1
    stagger_code: int  # STAGGER_CODES: odd 0, even 1
    dq_min: int
    dr_min: int
    dq_span: int
    dr_span: int
    shape_start: np.ndarray  # int32[n_shapes + 1]
    step_kind: np.ndarray  # int8: HEX_CODE, SIDE_CODE, ALONG_CODE, CORNER_CODE
    step_q1: np.ndarray  # int32, axial offsets from the start hex
    step_r1: np.ndarray
    step_q2: np.ndarray
    step_r2: np.ndarray
    step_side: np.ndarray  # int8, side of hex 1 toward hex 2 (SIDE, ALONG), else -1
    step_vertex: np.ndarray  # bool
    step_t0: np.ndarray  # float64
    step_t1: np.ndarray

    @property
    def n_shapes(self):
        return self.dq_span * self.dr_span

    @property
    def nbytes(self):
        return sum(getattr(self, name).nbytes for name in (
            "shape_start", "step_kind", "step_q1", "step_r1", "step_q2", "step_r2", "step_side",
            "step_vertex", "step_t0", "step_t1"))

    def shape_id(self, dq, dr):
        return (dq - self.dq_min) * self.dr_span + (dr - self.dr_min)

    def steps(self, dq, dr):
        """The slice of the step arrays holding the shape of difference (dq, dr)."""
        s = self.shape_id(dq, dr)
        return slice(int(self.shape_start[s]), int(self.shape_start[s + 1]))


def _possible_differences(grid):
    """bool[dq_span, dr_span] of the axial differences two hexes of the grid have, and dq_min, dr_min.

    Along one column (flat) or row (pointy) the other axial coordinate runs over a contiguous range, so the
    differences between two such lines are one contiguous range too.
    """
    if grid.orientation == "flat":
        lines = [(q, grid.to_axial(q, 0)[1], grid.to_axial(q, grid.rows - 1)[1]) for q in range(grid.columns)]
    else:
        lines = [(r, grid.to_axial(0, r)[0], grid.to_axial(grid.columns - 1, r)[0]) for r in range(grid.rows)]
    spans = [(l2 - l1, lo2 - hi1, hi2 - lo1) for l1, lo1, hi1 in lines for l2, lo2, hi2 in lines]
    line_min = min(d for d, _, _ in spans)
    line_span = max(d for d, _, _ in spans) - line_min + 1
    other_min = min(lo for _, lo, _ in spans)
    other_span = max(hi for _, _, hi in spans) - other_min + 1
    possible = np.zeros((line_span, other_span), dtype=bool)
    for d, lo, hi in spans:
        possible[d - line_min, lo - other_min:hi - other_min + 1] = True
    if grid.orientation == "flat":
        return possible, line_min, other_min
    return possible.T.copy(), other_min, line_min


@njit(cache=True)
def _count_steps(orient, dq_min, dr_min, possible):
    dq_span, dr_span = possible.shape
    counts = np.zeros(dq_span * dr_span, np.int64)
    biggest = 0
    for i in range(dq_span):
        for j in range(dr_span):
            if possible[i, j]:
                biggest = max(biggest, max_steps(i + dq_min, j + dr_min))
    kind = np.empty(biggest, np.int8)
    q1, r1 = np.empty(biggest, np.int32), np.empty(biggest, np.int32)
    q2, r2 = np.empty(biggest, np.int32), np.empty(biggest, np.int32)
    side, vertex = np.empty(biggest, np.int8), np.empty(biggest, np.bool_)
    t0, t1 = np.empty(biggest, np.float64), np.empty(biggest, np.float64)
    for i in range(dq_span):
        for j in range(dr_span):
            dq, dr = i + dq_min, j + dr_min
            # A shape and its reverse have the same length: walk the canonical one only.
            if possible[i, j] and (dq > 0 or (dq == 0 and dr > 0)):
                n = walk_shape(orient, dq, dr,
                               kind, q1, r1, q2, r2, side, vertex, t0, t1, 0)
                counts[i * dr_span + j] = n
                counts[(-dq - dq_min) * dr_span + (-dr - dr_min)] = n
    return counts


@njit(cache=True)
def _fill_steps(orient, dq_min, dr_min, possible, start, kind, q1, r1, q2, r2, side, vertex, t0, t1):
    dq_span, dr_span = possible.shape
    for i in range(dq_span):
        for j in range(dr_span):
            if possible[i, j]:
                s = i * dr_span + j
                walk_shape(orient, i + dq_min, j + dr_min, kind, q1, r1, q2, r2, side, vertex, t0, t1, start[s])


@functools.lru_cache(maxsize=8)
def trace_tables(orientation, columns, rows, stagger):
    """The :class:`TraceTables` of a grid shape, built once per shape (60 x 40: about a second, tens of MB)."""
    grid = Grid(orientation=orientation, columns=columns, rows=rows, stagger=stagger)
    orient = ORIENTATION_CODES[orientation]
    possible, dq_min, dr_min = _possible_differences(grid)
    counts = _count_steps(orient, dq_min, dr_min, possible)
    start = np.zeros(counts.shape[0] + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    total = int(start[-1])
    kind = np.empty(total, np.int8)
    q1, r1 = np.empty(total, np.int32), np.empty(total, np.int32)
    q2, r2 = np.empty(total, np.int32), np.empty(total, np.int32)
    side, vertex = np.empty(total, np.int8), np.empty(total, np.bool_)
    t0, t1 = np.empty(total, np.float64), np.empty(total, np.float64)
    _fill_steps(orient, dq_min, dr_min, possible, start, kind, q1, r1, q2, r2, side, vertex, t0, t1)
    arrays = [start.astype(np.int32), kind, q1, r1, q2, r2, side, vertex, t0, t1]
    for a in arrays:
        a.flags.writeable = False
    return TraceTables(orientation, columns, rows, stagger, orient, STAGGER_CODES[stagger],
                       dq_min, dr_min, possible.shape[0], possible.shape[1], *arrays)


# -- helpers for compiled kernels ----------------------------------------------------------------------

@njit(cache=True)
def axial_of(col, row, orient, stagger):
    """Axial (q, r) of an offset hex, as Grid.to_axial (orient: flat 0, pointy 1; stagger: odd 0, even 1)."""
    if orient == 0:
        if stagger == 0:
            return col, row - (col - (col & 1)) // 2
        return col, row - (col + (col & 1)) // 2
    if stagger == 0:
        return col - (row - (row & 1)) // 2, row
    return col - (row + (row & 1)) // 2, row


@njit(cache=True)
def index_of_axial(q, r, orient, stagger, columns, rows):
    """Index (column * rows + row) of an axial hex, or -1 when it is off the map."""
    if orient == 0:
        col = q
        if stagger == 0:
            row = r + (q - (q & 1)) // 2
        else:
            row = r + (q + (q & 1)) // 2
    else:
        row = r
        if stagger == 0:
            col = q + (r - (r & 1)) // 2
        else:
            col = q + (r + (r & 1)) // 2
    if col < 0 or col >= columns or row < 0 or row >= rows:
        return -1
    return col * rows + row


@njit(cache=True)
def shape_id(dq, dr, dq_min, dr_min, dr_span):
    """The shape of the line between two hexes of the map whose axial difference is (dq, dr)."""
    return (dq - dq_min) * dr_span + (dr - dr_min)


@njit(cache=True)
def _orientation(ax, ay, bx, by, cx, cy):
    v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    if v > 0:
        return 1
    if v < 0:
        return -1
    return 0


@njit(cache=True)
def _within(ax, ay, bx, by, px, py):
    """Is p, known to be on the line ab, within the segment ab?"""
    return min(ax, bx) <= px <= max(ax, bx) and min(ay, by) <= py <= max(ay, by)


@njit(cache=True)
def _segments_touch(ax, ay, bx, by, cx, cy, dx, dy):
    o1 = _orientation(ax, ay, bx, by, cx, cy)
    o2 = _orientation(ax, ay, bx, by, dx, dy)
    o3 = _orientation(cx, cy, dx, dy, ax, ay)
    o4 = _orientation(cx, cy, dx, dy, bx, by)
    if o1 != o2 and o3 != o4:
        return True
    if o1 == 0 and _within(ax, ay, bx, by, cx, cy):
        return True
    if o2 == 0 and _within(ax, ay, bx, by, dx, dy):
        return True
    if o3 == 0 and _within(cx, cy, dx, dy, ax, ay):
        return True
    if o4 == 0 and _within(cx, cy, dx, dy, bx, by):
        return True
    return False


@njit(cache=True)
def segment_hits_art(x0, y0, x1, y1, i, art_hex_start, art_ring_start, art_x, art_y):
    """Does the segment touch any art polygon of hex i (crossing, touching, or lying inside)?

    The same answer as shapely's ``LineString.intersects(polygon)`` for the rings CompiledMap flattens.
    """
    for k in range(art_hex_start[i], art_hex_start[i + 1]):
        lo, hi = art_ring_start[k], art_ring_start[k + 1]
        inside = False
        for p in range(lo, hi - 1):
            ax, ay, bx, by = art_x[p], art_y[p], art_x[p + 1], art_y[p + 1]
            if _segments_touch(x0, y0, x1, y1, ax, ay, bx, by):
                return True
            if (ay > y0) != (by > y0) and x0 < ax + (y0 - ay) * (bx - ax) / (by - ay):
                inside = not inside
        if inside:
            return True
    return False
