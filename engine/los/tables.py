"""Every line shape a grid can hold, flattened into arrays for compiled kernels, and the kernels' helpers.

A line's steps depend only on the axial difference (dq, dr) between its ends (engine.los.trace), so a grid's
tables hold one shape per difference two of its hexes can have:
``shape id = (dq - dq_min) * dr_span + (dr - dr_min)``, and shape s owns the steps
``shape_start[s]..shape_start[s + 1]`` (empty for a difference no two hexes of the grid have, and for 0, 0).
The step arrays hold what :func:`engine.los.trace.trace` gives, hexes as axial offsets from the start hex, t as
float64. A 60 x 40 map has some 17,000 shapes; walking them in Python takes too long, so this module walks
them again, compiled, with the same integer geometry, and a test keeps the two walks equal step for step.

Every shape of a grid grows as the square of the map (a 500 x 500 map's would take tens of GB), so a grid's whole
tables are built only when they fit HEXSIDE_LOS_TABLE_MB; the pairs of a larger map are answered in slices, each
with tables holding only the shapes of its own pairs (:func:`slices`, used by RulesBase.answer_pairs).

The numba helpers at the end are for every ruleset's kernel: a hex's axial coordinates and index, a pair's
shape, and whether a segment touches a hex's art (as shapely's ``intersects`` would say).
"""

import functools
import os
from dataclasses import dataclass

import numpy as np
from numba import njit

from engine.hexgrid import AXIAL_STEPS, ORIENTATIONS, STAGGERS, Grid
from engine.los.trace import ALONG, CORNER, HEX, SIDE

__all__ = [
    "HEX_CODE", "SIDE_CODE", "ALONG_CODE", "CORNER_CODE", "KIND_CODES", "ORIENTATION_CODES", "STAGGER_CODES",
    "TraceTables", "TablesTooLarge", "trace_tables", "tables_for_shapes", "full_tables_fit", "slices", "axial_of",
    "index_of_axial",
    "shape_id", "segment_hits_art",
]

HEX_CODE, SIDE_CODE, ALONG_CODE, CORNER_CODE = 0, 1, 2, 3
KIND_CODES = {HEX: HEX_CODE, SIDE: SIDE_CODE, ALONG: ALONG_CODE, CORNER: CORNER_CODE}
ORIENTATION_CODES = {name: code for code, name in enumerate(ORIENTATIONS)}  # flat 0, pointy 1
STAGGER_CODES = {name: code for code, name in enumerate(STAGGERS)}  # odd 0, even 1

_STEP_ARRAYS = ("shape_start", "step_kind", "step_q1", "step_r1", "step_q2", "step_r2", "step_side",
                "step_vertex", "step_t0", "step_t1")


@dataclass(frozen=True, eq=False)
class TraceTables:
    """The flattened shapes of one grid shape. The arrays are read-only: a cache shares them."""

    orientation: str
    columns: int
    rows: int
    stagger: str
    orient: int  # ORIENTATION_CODES
    stagger_code: int  # STAGGER_CODES
    dq_min: int
    dr_min: int
    dq_span: int
    dr_span: int
    shape_start: np.ndarray  # int32[n_shapes + 1]
    step_kind: np.ndarray  # int8: HEX_CODE, SIDE_CODE, ALONG_CODE, CORNER_CODE
    step_q1: np.ndarray  # int32: axial offsets of hexes[0] from the start hex
    step_r1: np.ndarray
    step_q2: np.ndarray  # int32: hexes[1] (repeats hexes[0] for HEX and CORNER)
    step_r2: np.ndarray
    step_side: np.ndarray  # int8: side of hexes[0] toward hexes[1] (SIDE, ALONG), else -1
    step_vertex: np.ndarray  # bool: a SIDE crossing exactly through a corner
    step_t0: np.ndarray  # float64
    step_t1: np.ndarray

    @property
    def n_shapes(self):
        return self.dq_span * self.dr_span

    @property
    def n_steps(self):
        return len(self.step_kind)

    @property
    def nbytes(self):
        return sum(getattr(self, name).nbytes for name in _STEP_ARRAYS)

    def shape_id(self, dq, dr):
        return (dq - self.dq_min) * self.dr_span + (dr - self.dr_min)

    def steps(self, dq, dr):
        """The slice of the step arrays that holds the shape of difference (dq, dr)."""
        s = self.shape_id(dq, dr)
        return slice(int(self.shape_start[s]), int(self.shape_start[s + 1]))

    def walk_args(self):
        """What a kernel needs to walk a line's hexes, in the order the kernels take them: the grid codes, the
        shape index and the steps' kinds and relative hexes."""
        return (self.orient, self.stagger_code, self.dq_min, self.dr_min, self.dr_span, self.shape_start,
                self.step_kind, self.step_q1, self.step_r1, self.step_q2, self.step_r2)


# The most memory (MB) one process's line tables may take. A grid whose tables fit is traced once and cached
# (the fast path of an analysis, where every shape serves many pairs); a larger grid's pairs are answered in
# slices, each with tables holding only its own shapes, so a viewshed of a 500 x 500 map needs tens of MB of
# tables, not the tens of GB every shape of that grid would take.
TABLE_MB_DEFAULT = 32
BYTES_PER_STEP = 35  # kind, side, vertex (1 byte each), four int32 hexes, two float64 t
STEPS_PER_DISTANCE = 2.5  # a line crosses about 2.3 steps per hex of distance; the estimate leans high


def table_budget_steps():
    """Steps the tables of one slice (or a grid's cached tables) may hold: HEXSIDE_LOS_TABLE_MB (default 32)."""
    megabytes = float(os.environ.get("HEXSIDE_LOS_TABLE_MB") or TABLE_MB_DEFAULT)
    return max(1, int(megabytes * 2**20 / BYTES_PER_STEP))


def estimated_steps(dq, dr):
    """About how many steps the lines of these axial differences hold (arrays or numbers)."""
    distance = (np.abs(dq) + np.abs(dr) + np.abs(np.asarray(dq) + np.asarray(dr))) // 2
    return np.sum(STEPS_PER_DISTANCE * distance + 2)


class TablesTooLarge(RuntimeError):
    """The whole grid's tables were asked for where they do not fit the budget."""


# At most four grids' tables per process, each within the budget (RulesBase.tables asks only for those that fit):
# the cache holds at most 4 x HEXSIDE_LOS_TABLE_MB.
@functools.lru_cache(maxsize=4)
def trace_tables(orientation, columns, rows, stagger):
    """The :class:`TraceTables` of every shape of a grid, built once per grid shape and process."""
    possible, dq_min, dr_min = possible_differences(orientation, columns, rows, stagger)
    return _build(orientation, columns, rows, stagger, possible, dq_min, dr_min)


def tables_for_shapes(orientation, columns, rows, stagger, shape_ids):
    """:class:`TraceTables` holding only the given shapes (ids as TraceTables.shape_id); the others are empty."""
    possible, dq_min, dr_min = possible_differences(orientation, columns, rows, stagger)
    wanted = np.zeros(possible.shape, dtype=bool)
    wanted.flat[np.asarray(shape_ids, dtype=np.int64)] = True
    return _build(orientation, columns, rows, stagger, wanted & possible, dq_min, dr_min)


def full_tables_fit(orientation, columns, rows, stagger):
    """Do every shape's tables of this grid fit the budget (so they are built once and cached)?"""
    possible, dq_min, dr_min = possible_differences(orientation, columns, rows, stagger)
    i, j = np.nonzero(possible)
    return estimated_steps(i + dq_min, j + dr_min) <= table_budget_steps()


def slices(grid, a, b):
    """The pairs a[k] -> b[k] cut into slices whose shapes' tables fit the budget: yields (slice, TraceTables),
    one slice's tables at a time.

    Consecutive pairs (a viewshed's targets, an analysis's observers in a column) share many shapes, so a slice
    is as long as its distinct shapes allow, halved until they fit.
    """
    key = (grid.orientation, grid.columns, grid.rows, grid.stagger)
    possible, dq_min, dr_min = possible_differences(*key)
    dr_span = possible.shape[1]
    orient, stagger = ORIENTATION_CODES[grid.orientation], STAGGER_CODES[grid.stagger]
    a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
    qa, ra = _axial_array(a, grid.rows, orient, stagger)
    qb, rb = _axial_array(b, grid.rows, orient, stagger)
    dq, dr = qb - qa, rb - ra
    ids = (dq - dq_min) * dr_span + (dr - dr_min)
    budget = table_budget_steps()
    todo = [(0, len(a))]
    while todo:
        start, stop = todo.pop()
        shapes, first = np.unique(ids[start:stop], return_index=True)
        picked = first + start
        if stop - start > 1 and estimated_steps(dq[picked], dr[picked]) > budget:
            middle = (start + stop) // 2
            todo += [(middle, stop), (start, middle)]
            continue
        yield slice(start, stop), tables_for_shapes(*key, shapes)


def _axial_array(index, rows, orient, stagger):
    """Axial (q, r) of hex indices, as axial_of, over arrays."""
    col, row = index // rows, index % rows
    if orient == 0:
        shift = (col - (col & 1)) // 2 if stagger == 0 else (col + (col & 1)) // 2
        return col, row - shift
    shift = (row - (row & 1)) // 2 if stagger == 0 else (row + (row & 1)) // 2
    return col - shift, row


def _build(orientation, columns, rows, stagger, wanted, dq_min, dr_min):
    """Walk the wanted shapes (bool[dq_span, dr_span]) into flat step arrays."""
    dq_span, dr_span = wanted.shape
    axial_steps = np.array(AXIAL_STEPS[orientation], dtype=np.int64)
    counts = _count_steps(axial_steps, dq_min, dr_min, wanted)
    if counts[0] < 0:  # pragma: no cover - the walk always reaches the other end
        raise RuntimeError(f"a line on a {orientation} grid lost its way")
    shape_start = np.zeros(dq_span * dr_span + 1, dtype=np.int64)
    np.cumsum(counts[1:], out=shape_start[1:])
    del counts
    total = int(shape_start[-1])
    kind = np.empty(total, np.int8)
    q1, r1, q2, r2 = (np.empty(total, np.int32) for _ in range(4))
    side = np.empty(total, np.int8)
    vertex = np.empty(total, np.bool_)
    t0, t1 = np.empty(total, np.float64), np.empty(total, np.float64)
    _fill_steps(axial_steps, dq_min, dr_min, wanted, shape_start, kind, q1, r1, q2, r2, side, vertex, t0, t1)
    arrays = [shape_start.astype(np.int32), kind, q1, r1, q2, r2, side, vertex, t0, t1]
    for array in arrays:
        array.flags.writeable = False
    return TraceTables(orientation, columns, rows, stagger, ORIENTATION_CODES[orientation],
                       STAGGER_CODES[stagger], dq_min, dr_min, dq_span, dr_span, *arrays)


@functools.lru_cache(maxsize=4)
def possible_differences(orientation, columns, rows, stagger):
    """_possible_differences of a grid shape, kept (a few MB for the largest maps)."""
    possible, dq_min, dr_min = _possible_differences(Grid(orientation=orientation, columns=columns, rows=rows,
                                                          stagger=stagger))
    return possible, dq_min, dr_min


def _possible_differences(grid):
    """bool[dq_span, dr_span]: which axial differences two hexes of the grid have; and dq_min, dr_min.

    Along one column (flat) or row (pointy) the other axial coordinate runs over one contiguous range, so the
    differences between two such lines form one contiguous range too.
    """
    if grid.orientation == "flat":
        lines = [(col, grid.to_axial(col, 0)[1], grid.to_axial(col, grid.rows - 1)[1])
                 for col in range(grid.columns)]
    else:
        lines = [(row, grid.to_axial(0, row)[0], grid.to_axial(grid.columns - 1, row)[0])
                 for row in range(grid.rows)]
    spans = [(l2 - l1, lo2 - hi1, hi2 - lo1) for l1, lo1, hi1 in lines for l2, lo2, hi2 in lines]
    line_min = min(d for d, _, _ in spans)
    other_min = min(lo for _, lo, _ in spans)
    possible = np.zeros((max(d for d, _, _ in spans) - line_min + 1,
                         max(hi for _, _, hi in spans) - other_min + 1), dtype=bool)
    for d, lo, hi in spans:
        possible[d - line_min, lo - other_min:hi - other_min + 1] = True
    if grid.orientation == "flat":
        return possible, line_min, other_min
    return np.ascontiguousarray(possible.T), other_min, line_min


# -- the walk, as engine.los.trace.walk; t is kept as an integer fraction num / den -----------------------

@njit(cache=True)
def _walk(axial_steps, dq, dr, kind, q1, r1, q2, r2, side, vertex, t0n, t0d, t1n, t1d):
    """Steps of the line from axial (0, 0) to (dq, dr), (dq, dr) canonical; their number, or -1 if lost."""
    u, v = 3 * dq, 3 * dr
    cx_ = np.empty(6, np.int64)
    cy_ = np.empty(6, np.int64)
    kc = np.empty(6, np.int64)
    for i in range(6):
        cx_[i] = axial_steps[i - 1, 0] + axial_steps[i, 0]
        cy_[i] = axial_steps[i - 1, 1] + axial_steps[i, 1]
        kc[i] = u * cy_[i] - v * cx_[i]
    length2 = u * u + v * v
    n = 0
    q = 0
    r = 0
    tin_n = 0
    tin_d = 1
    limit = 4 * (abs(dq) + abs(dr) + 2)
    while q != dq or r != dr:
        limit -= 1
        if limit < 0:
            return -1
        cx, cy = 3 * q, 3 * r
        base = u * cy - v * cx
        found = False
        for i in range(6):
            j = (i + 1) % 6
            wi, wj = base + kc[i], base + kc[j]
            if wi < 0 < wj:
                ax, ay = cx + cx_[i], cy + cy_[i]
                ex, ey = cx_[j] - cx_[i], cy_[j] - cy_[i]
                tn, td = ax * ey - ay * ex, u * ey - v * ex
                nq, nr = q + axial_steps[i, 0], r + axial_steps[i, 1]
                if q != 0 or r != 0:
                    n = _put(n, HEX_CODE, q, r, q, r, -1, False, tin_n, tin_d, tn, td,
                             kind, q1, r1, q2, r2, side, vertex, t0n, t0d, t1n, t1d)
                n = _put(n, SIDE_CODE, q, r, nq, nr, i, False, tn, td, tn, td,
                         kind, q1, r1, q2, r2, side, vertex, t0n, t0d, t1n, t1d)
                q, r, tin_n, tin_d = nq, nr, tn, td
                found = True
                break
            if wi < 0 and wj == 0:
                vx, vy = cx + cx_[j], cy + cy_[j]
                tn, td = vx * u + vy * v, length2
                n1q, n1r = q + axial_steps[i, 0], r + axial_steps[i, 1]
                n2q, n2r = q + axial_steps[j, 0], r + axial_steps[j, 1]
                if q != 0 or r != 0:
                    n = _put(n, HEX_CODE, q, r, q, r, -1, False, tin_n, tin_d, tn, td,
                             kind, q1, r1, q2, r2, side, vertex, t0n, t0d, t1n, t1d)
                ox, oy = cx_[j], cy_[j]
                if kc[j] == 0:
                    en, ed = (vx + ox) * u + (vy + oy) * v, length2
                    if u * (3 * n1r) - v * (3 * n1q) < 0:
                        lq, lr, rq, rr = n1q, n1r, n2q, n2r
                    else:
                        lq, lr, rq, rr = n2q, n2r, n1q, n1r
                    s = 0
                    for k in range(6):
                        if axial_steps[k, 0] == rq - lq and axial_steps[k, 1] == rr - lr:
                            s = k
                    n = _put(n, ALONG_CODE, lq, lr, rq, rr, s, False, tn, td, en, ed,
                             kind, q1, r1, q2, r2, side, vertex, t0n, t0d, t1n, t1d)
                    q, r, tin_n, tin_d = n1q + n2q - q, n1r + n2r - r, en, ed
                else:
                    line_turn = ox * v - oy * u
                    n1_turn = ox * axial_steps[i, 1] - oy * axial_steps[i, 0]
                    if (line_turn > 0) == (n1_turn > 0):
                        iq, ir, gq, gr, s = n1q, n1r, n2q, n2r, i
                    else:
                        iq, ir, gq, gr, s = n2q, n2r, n1q, n1r, j
                    n = _put(n, SIDE_CODE, q, r, iq, ir, s, True, tn, td, tn, td,
                             kind, q1, r1, q2, r2, side, vertex, t0n, t0d, t1n, t1d)
                    if not ((gq == 0 and gr == 0) or (gq == dq and gr == dr)):
                        n = _put(n, CORNER_CODE, gq, gr, gq, gr, -1, False, tn, td, tn, td,
                                 kind, q1, r1, q2, r2, side, vertex, t0n, t0d, t1n, t1d)
                    q, r, tin_n, tin_d = iq, ir, tn, td
                found = True
                break
        if not found:
            return -1
    return n


@njit(cache=True)
def _put(n, k, a, b, c, d, s, at_vertex, an, ad, bn, bd, kind, q1, r1, q2, r2, side, vertex, t0n, t0d, t1n, t1d):
    kind[n] = k
    q1[n], r1[n], q2[n], r2[n] = a, b, c, d
    side[n] = s
    vertex[n] = at_vertex
    t0n[n], t0d[n], t1n[n], t1d[n] = an, ad, bn, bd
    return n + 1


@njit(cache=True)
def _scratch(size):
    return (np.empty(size, np.int8), np.empty(size, np.int64), np.empty(size, np.int64),
            np.empty(size, np.int64), np.empty(size, np.int64), np.empty(size, np.int8),
            np.empty(size, np.bool_), np.empty(size, np.int64), np.empty(size, np.int64),
            np.empty(size, np.int64), np.empty(size, np.int64))


@njit(cache=True)
def _scratch_size(dq_min, dr_min, possible):
    dq_span, dr_span = possible.shape
    worst = max(abs(dq_min), abs(dq_min + dq_span - 1)) + max(abs(dr_min), abs(dr_min + dr_span - 1))
    return 12 * (worst + 2)  # at most 4 (|dq| + |dr| + 2) hexes, each with at most 3 steps


@njit(cache=True)
def _count_steps(axial_steps, dq_min, dr_min, possible):
    """counts[1 + s]: the number of steps of shape s; counts[0] is -1 when a walk got lost."""
    dq_span, dr_span = possible.shape
    counts = np.zeros(dq_span * dr_span + 1, np.int64)
    kind, q1, r1, q2, r2, side, vertex, t0n, t0d, t1n, t1d = _scratch(_scratch_size(dq_min, dr_min, possible))
    for i in range(dq_span):
        for j in range(dr_span):
            dq, dr = i + dq_min, j + dr_min
            if not (dq > 0 or (dq == 0 and dr > 0)):
                continue
            # A shape and its reverse have the same steps: walk the canonical one only, for either or both.
            ri, rj = -dq - dq_min, -dr - dr_min
            if possible[i, j] or possible[ri, rj]:
                n = _walk(axial_steps, dq, dr, kind, q1, r1, q2, r2, side, vertex, t0n, t0d, t1n, t1d)
                if n < 0:
                    counts[0] = -1
                    return counts
                if possible[i, j]:
                    counts[1 + i * dr_span + j] = n
                if possible[ri, rj]:
                    counts[1 + ri * dr_span + rj] = n
    return counts


@njit(cache=True)
def _fill_steps(axial_steps, dq_min, dr_min, possible, start, kind, q1, r1, q2, r2, side, vertex, t0, t1):
    dq_span, dr_span = possible.shape
    w_kind, w_q1, w_r1, w_q2, w_r2, w_side, w_vertex, t0n, t0d, t1n, t1d = _scratch(
        _scratch_size(dq_min, dr_min, possible))
    for i in range(dq_span):
        for j in range(dr_span):
            dq, dr = i + dq_min, j + dr_min
            if (dq == 0 and dr == 0) or not (dq > 0 or (dq == 0 and dr > 0)):
                continue
            ri, rj = -dq - dq_min, -dr - dr_min
            if not (possible[i, j] or possible[ri, rj]):
                continue
            n = _walk(axial_steps, dq, dr, w_kind, w_q1, w_r1, w_q2, w_r2, w_side, w_vertex, t0n, t0d, t1n, t1d)
            # This direction as walked.
            p = start[i * dr_span + j]
            for k in range(n if possible[i, j] else 0):
                kind[p + k] = w_kind[k]
                q1[p + k], r1[p + k], q2[p + k], r2[p + k] = w_q1[k], w_r1[k], w_q2[k], w_r2[k]
                side[p + k] = w_side[k]
                vertex[p + k] = w_vertex[k]
                t0[p + k] = t0n[k] / t0d[k]
                t1[p + k] = t1n[k] / t1d[k]
            # The opposite direction: reversed, moved to start at the other end, hexes of SIDE and ALONG
            # swapped, t -> 1 - t (as engine.los.trace.reverse_shape).
            p = start[ri * dr_span + rj]
            for k in range(n if possible[ri, rj] else 0):
                m = n - 1 - k
                kind[p + k] = w_kind[m]
                if w_kind[m] == SIDE_CODE or w_kind[m] == ALONG_CODE:
                    q1[p + k], r1[p + k] = w_q2[m] - dq, w_r2[m] - dr
                    q2[p + k], r2[p + k] = w_q1[m] - dq, w_r1[m] - dr
                    side[p + k] = (w_side[m] + 3) % 6
                else:
                    q1[p + k], r1[p + k] = w_q1[m] - dq, w_r1[m] - dr
                    q2[p + k], r2[p + k] = w_q2[m] - dq, w_r2[m] - dr
                    side[p + k] = w_side[m]
                vertex[p + k] = w_vertex[m]
                t0[p + k] = (t1d[m] - t1n[m]) / t1d[m]
                t1[p + k] = (t0d[m] - t0n[m]) / t0d[m]


# -- helpers for every ruleset's compiled kernel ------------------------------------------------------

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
        row = r + (q - (q & 1)) // 2 if stagger == 0 else r + (q + (q & 1)) // 2
    else:
        row = r
        col = q + (r - (r & 1)) // 2 if stagger == 0 else q + (r + (r & 1)) // 2
    if col < 0 or col >= columns or row < 0 or row >= rows:
        return -1
    return col * rows + row


@njit(cache=True)
def shape_id(dq, dr, dq_min, dr_min, dr_span):
    """The shape of the line between two hexes of the map whose axial difference is (dq, dr)."""
    return (dq - dq_min) * dr_span + (dr - dr_min)


@njit(cache=True)
def _turn(ax, ay, bx, by, cx, cy):
    """Which way a -> b -> c turns: 1, -1, or 0 when the three are in line."""
    v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    if v > 0:
        return 1
    if v < 0:
        return -1
    return 0


@njit(cache=True)
def _in_box(ax, ay, bx, by, px, py):
    """Is p, in line with a and b, between them?"""
    return min(ax, bx) <= px <= max(ax, bx) and min(ay, by) <= py <= max(ay, by)


@njit(cache=True)
def _segments_touch(ax, ay, bx, by, cx, cy, dx, dy):
    o1 = _turn(ax, ay, bx, by, cx, cy)
    o2 = _turn(ax, ay, bx, by, dx, dy)
    o3 = _turn(cx, cy, dx, dy, ax, ay)
    o4 = _turn(cx, cy, dx, dy, bx, by)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True
    return ((o1 == 0 and _in_box(ax, ay, bx, by, cx, cy)) or (o2 == 0 and _in_box(ax, ay, bx, by, dx, dy))
            or (o3 == 0 and _in_box(cx, cy, dx, dy, ax, ay)) or (o4 == 0 and _in_box(cx, cy, dx, dy, bx, by)))


@njit(cache=True)
def segment_hits_art(x0, y0, x1, y1, i, art_hex_start, art_ring_start, art_x, art_y):
    """Does the segment touch any art polygon of hex i: cross or touch an edge, or lie inside?

    The answer shapely's ``LineString.intersects`` gives for the polygons CompiledMap flattens (their
    outer rings). With no edge touched the segment lies wholly inside or outside, so one end decides.
    """
    for k in range(art_hex_start[i], art_hex_start[i + 1]):
        inside = False
        for p in range(art_ring_start[k], art_ring_start[k + 1] - 1):
            ax, ay, bx, by = art_x[p], art_y[p], art_x[p + 1], art_y[p + 1]
            if _segments_touch(x0, y0, x1, y1, ax, ay, bx, by):
                return True
            if (ay > y0) != (by > y0) and x0 < ax + (y0 - ay) * (bx - ax) / (by - ay):
                inside = not inside
        if inside:
            return True
    return False


# Map units: a line this close to art touches it (docs/los.md, geometry decision 5). Art is clipped to its hex,
# so a line running along a hexside runs exactly on the clipped edge: without a tolerance that touch would
# depend on rounding, and an answer could differ from its reverse.
ART_TOLERANCE = 1e-9


@njit(cache=True)
def _distance2(px, py, ax, ay, bx, by):
    """Squared distance from point p to segment ab."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0
    if length2 > 0.0:
        t = min(1.0, max(0.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    ex, ey = ax + t * dx - px, ay + t * dy - py
    return ex * ex + ey * ey


@njit(cache=True)
def segment_touches_art(x0, y0, x1, y1, i, art_hex_start, art_ring_start, art_x, art_y):
    """segment_hits_art, or within ART_TOLERANCE of an edge: shapely's ``distance(..) <= ART_TOLERANCE``.

    Two segments that do not meet are nearest at an end of one of them, so four point distances decide.
    """
    if segment_hits_art(x0, y0, x1, y1, i, art_hex_start, art_ring_start, art_x, art_y):
        return True
    near = ART_TOLERANCE * ART_TOLERANCE
    for ring in range(art_hex_start[i], art_hex_start[i + 1]):
        for p in range(art_ring_start[ring], art_ring_start[ring + 1] - 1):
            px, py, qx, qy = art_x[p], art_y[p], art_x[p + 1], art_y[p + 1]
            if (_distance2(x0, y0, px, py, qx, qy) <= near or _distance2(x1, y1, px, py, qx, qy) <= near
                    or _distance2(px, py, x0, y0, x1, y1) <= near or _distance2(qx, qy, x0, y0, x1, y1) <= near):
                return True
    return False


def hex_lookup(grid):
    """int32[q, r]: the index of the hex at axial (q0 + q, r0 + r), -1 off the map; and (q0, r0).

    The table spans the map's axial box plus a margin of two, and a line between two hexes of the map only
    touches hexes within one step of that box: kernels look hexes up here instead of converting coordinates.
    """
    axial = np.array([grid.to_axial(*h) for h in grid.hexes()], dtype=np.int64)
    q0, r0 = axial.min(axis=0) - 2
    q1, r1 = axial.max(axis=0) + 2
    lookup = np.full((q1 - q0 + 1, r1 - r0 + 1), -1, dtype=np.int32)
    lookup[axial[:, 0] - q0, axial[:, 1] - r0] = np.arange(grid.size, dtype=np.int32)
    return lookup, int(q0), int(r0)
