"""The exact line tracer: what a centre-to-centre line meets on its way (docs/los-geometry.md).

A line of sight runs from the centre of hex a to the centre of hex b. Along it, in order, it meets:

- ``HEX``: an intervening hex whose interior it passes through, from ``t0`` to ``t1``;
- ``SIDE``: a hexside it crosses from ``hexes[0]`` into ``hexes[1]`` (leaving a and entering b included);
  ``at_vertex`` when the crossing is exactly at a corner of that hexside;
- ``ALONG``: a hexside it runs exactly along, ``hexes[0]`` on the left looking from a to b, from ``t0`` to
  ``t1``; neither hex is a ``HEX`` step for that stretch;
- ``CORNER``: a corner it passes exactly through, listing the hex meeting there that it does not pass into.

``t`` is the position along the line, 0 at a's centre and 1 at b's centre.

Why integers: in axial coordinates hex centres are a linear function of ``(q, r)``, and scaling map space by
(2, 2/sqrt 3) for flat hexes or (2/sqrt 3, 2) for pointy ones puts every centre and every corner on an integer
point. Scaling each axis by a positive factor keeps straight lines straight, keeps left and right, and keeps
where a point sits along a line, so all the decisions (which side, which corner, along or across) are made
with integer cross products, and a line along a hexside or through a corner is recognised every time.

Why shapes: the line depends only on the axial difference b - a and the orientation, not on where it starts
nor on the stagger. Each difference is walked once (in one canonical direction, reversed for the other, so
that LOS is reciprocal by construction), cached, and translated to the pair asked for. The walk is compiled
with numba because :mod:`maps.los.tables` walks every difference a map can hold.
"""

import functools
from dataclasses import dataclass

import numpy as np
from numba import njit

from maps.hexgrid import AXIAL_STEPS, ORIENTATIONS

HEX = "hex"
SIDE = "side"
ALONG = "along"
CORNER = "corner"
# The position of a kind here is its code in the flattened tables.
KINDS = (HEX, SIDE, ALONG, CORNER)
HEX_CODE, SIDE_CODE, ALONG_CODE, CORNER_CODE = range(4)

ORIENTATION_CODES = {name: code for code, name in enumerate(ORIENTATIONS)}

# Corner i of a hex, relative to its centre, in the integer coordinates described above; side i runs from
# corner i to corner i + 1 (as in maps.hexgrid). Rows: flat, pointy.
CORNER_OFFSETS = np.array([
    [(-1, -1), (1, -1), (2, 0), (1, 1), (-1, 1), (-2, 0)],
    [(0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)],
], dtype=np.int64)
SIDE_STEPS = np.array([AXIAL_STEPS[name] for name in ORIENTATIONS], dtype=np.int64)


@njit(cache=True)
def centre_xy(orient, q, r):
    """Integer centre of axial hex (q, r), up to a constant that cancels in every difference."""
    if orient == 0:
        return 3 * q, q + 2 * r
    return 2 * q + r, 3 * r


@njit(cache=True)
def max_steps(dq, dr):
    """A bound on the steps of a shape, for buffers: a line touches fewer than 2 hexes per hex of distance."""
    return 8 * ((abs(dq) + abs(dr) + abs(dq + dr)) // 2 + 1)


@njit(cache=True)
def _side_between(orient, q1, r1, q2, r2):
    for i in range(6):
        if q2 - q1 == SIDE_STEPS[orient, i, 0] and r2 - r1 == SIDE_STEPS[orient, i, 1]:
            return i
    return -1


@njit(cache=True)
def _put(out_kind, out_q1, out_r1, out_q2, out_r2, out_side, out_vertex, out_t0, out_t1,
         n, kind, q1, r1, q2, r2, side, vertex, t0, t1):
    if n >= out_kind.shape[0]:
        raise ValueError("trace buffer too small")
    out_kind[n] = kind
    out_q1[n] = q1
    out_r1[n] = r1
    out_q2[n] = q2
    out_r2[n] = r2
    out_side[n] = side
    out_vertex[n] = vertex
    out_t0[n] = t0
    out_t1[n] = t1
    return n + 1


@njit(cache=True)
def _walk(orient, dq, dr, kind, q1, r1, q2, r2, side, vertex, t0, t1, start):
    """Walk the line from axial (0, 0) to (dq, dr), writing its steps from ``start``; return the end.

    Hex by hex: leave the current hex where the line first crosses outward over one of its side lines. One
    side reached first: a plain hexside crossing. Two sides at once: the line is at their shared corner, and
    it goes on into one of the two hexes beyond, or, when it also passes through the current hex's centre,
    along the hexside between them up to the next corner, where it enters the hex straight ahead.
    """
    dx, dy = centre_xy(orient, dq, dr)
    dd = dx * dx + dy * dy
    n = start
    q, r = 0, 0
    tn, td = 0, 1  # where the line entered the current hex, as a fraction
    open_hex = -1  # the HEX step of the current hex, waiting for its exit
    while not (q == dq and r == dr):
        if not (q == 0 and r == 0):
            open_hex = n
            n = _put(kind, q1, r1, q2, r2, side, vertex, t0, t1,
                     n, HEX_CODE, q, r, q, r, -1, False, tn / td, tn / td)
        cx, cy = centre_xy(orient, q, r)
        first, second = -1, -1
        bn, bd = 0, 1
        for i in range(6):
            kx, ky = CORNER_OFFSETS[orient, i, 0], CORNER_OFFSETS[orient, i, 1]
            j = (i + 1) % 6
            ex, ey = CORNER_OFFSETS[orient, j, 0] - kx, CORNER_OFFSETS[orient, j, 1] - ky
            den = dx * ey - dy * ex
            inward = ex * ky - ey * kx  # sign of cross(centre - corner i, side i): the inside
            if den == 0 or (den > 0) == (inward > 0):
                continue  # parallel to this side, or moving inward across its line
            num = (cx + kx) * ey - (cy + ky) * ex
            if den < 0:
                num, den = -num, -den
            if first == -1 or num * bd < bn * den:
                first, second, bn, bd = i, -1, num, den
            elif num * bd == bn * den:
                second = i
        if open_hex >= 0:
            t1[open_hex] = bn / bd
            open_hex = -1
        if second == -1:
            nq, nr = q + SIDE_STEPS[orient, first, 0], r + SIDE_STEPS[orient, first, 1]
            n = _put(kind, q1, r1, q2, r2, side, vertex, t0, t1,
                     n, SIDE_CODE, q, r, nq, nr, first, False, bn / bd, bn / bd)
            q, r, tn, td = nq, nr, bn, bd
            continue
        # Through the corner shared by sides i and i + 1 (corner i + 1).
        i = first if (second - first) % 6 == 1 else second
        j = (i + 1) % 6
        kx, ky = CORNER_OFFSETS[orient, j, 0], CORNER_OFFSETS[orient, j, 1]
        aq, ar = q + SIDE_STEPS[orient, i, 0], r + SIDE_STEPS[orient, i, 1]
        bq, br = q + SIDE_STEPS[orient, j, 0], r + SIDE_STEPS[orient, j, 1]
        turn = kx * dy - ky * dx
        if turn == 0:
            # Along the hexside between a and b, from this corner to the next one.
            ax, ay = centre_xy(orient, aq, ar)
            if dx * ay - dy * ax < 0:  # a is on the left (y grows downward)
                lq, lr, rq, rr = aq, ar, bq, br
            else:
                lq, lr, rq, rr = bq, br, aq, ar
            wn = (cx + 2 * kx) * dx + (cy + 2 * ky) * dy
            n = _put(kind, q1, r1, q2, r2, side, vertex, t0, t1,
                     n, ALONG_CODE, lq, lr, rq, rr, _side_between(orient, lq, lr, rq, rr), False,
                     bn / bd, wn / dd)
            q, r, tn, td = aq + SIDE_STEPS[orient, j, 0], ar + SIDE_STEPS[orient, j, 1], wn, dd
            continue
        ax, ay = centre_xy(orient, aq, ar)
        if (kx * (ay - cy) - ky * (ax - cx) > 0) == (turn > 0):
            nq, nr, crossed, oq, orr = aq, ar, i, bq, br
        else:
            nq, nr, crossed, oq, orr = bq, br, j, aq, ar
        n = _put(kind, q1, r1, q2, r2, side, vertex, t0, t1,
                 n, SIDE_CODE, q, r, nq, nr, crossed, True, bn / bd, bn / bd)
        if not ((oq == 0 and orr == 0) or (oq == dq and orr == dr)):
            n = _put(kind, q1, r1, q2, r2, side, vertex, t0, t1,
                     n, CORNER_CODE, oq, orr, oq, orr, -1, False, bn / bd, bn / bd)
        q, r, tn, td = nq, nr, bn, bd
    return n


@njit(cache=True)
def walk_shape(orient, dq, dr, kind, q1, r1, q2, r2, side, vertex, t0, t1, start):
    """Steps of the line from axial (0, 0) to (dq, dr), written from ``start``; returns the end.

    Only the canonical direction (dq > 0, or dq == 0 and dr > 0) is walked; the other is that walk
    reversed, so that the line from b to a is exactly the line from a to b backwards.
    """
    if dq > 0 or (dq == 0 and dr > 0):
        return _walk(orient, dq, dr, kind, q1, r1, q2, r2, side, vertex, t0, t1, start)
    end = _walk(orient, -dq, -dr, kind, q1, r1, q2, r2, side, vertex, t0, t1, start)
    # Reverse in place: order, hexes across a hexside, sides, and t.
    lo, hi = start, end - 1
    while lo < hi:
        for arr in (q1, r1, q2, r2):
            arr[lo], arr[hi] = arr[hi], arr[lo]
        kind[lo], kind[hi] = kind[hi], kind[lo]
        side[lo], side[hi] = side[hi], side[lo]
        vertex[lo], vertex[hi] = vertex[hi], vertex[lo]
        t0[lo], t0[hi] = t0[hi], t0[lo]
        t1[lo], t1[hi] = t1[hi], t1[lo]
        lo += 1
        hi -= 1
    for k in range(start, end):
        a_q, a_r, b_q, b_r = q1[k] + dq, r1[k] + dr, q2[k] + dq, r2[k] + dr
        if kind[k] == SIDE_CODE or kind[k] == ALONG_CODE:
            a_q, a_r, b_q, b_r = b_q, b_r, a_q, a_r
            side[k] = (side[k] + 3) % 6
        q1[k], r1[k], q2[k], r2[k] = a_q, a_r, b_q, b_r
        early, late = t0[k], t1[k]
        t0[k], t1[k] = 1.0 - late, 1.0 - early
    return end


@njit(cache=True)
def _shape_arrays(orient, dq, dr):
    size = max_steps(dq, dr)
    kind = np.empty(size, np.int8)
    q1, r1 = np.empty(size, np.int32), np.empty(size, np.int32)
    q2, r2 = np.empty(size, np.int32), np.empty(size, np.int32)
    side = np.empty(size, np.int8)
    vertex = np.empty(size, np.bool_)
    t0, t1 = np.empty(size, np.float64), np.empty(size, np.float64)
    n = walk_shape(orient, dq, dr, kind, q1, r1, q2, r2, side, vertex, t0, t1, 0)
    return kind[:n], q1[:n], r1[:n], q2[:n], r2[:n], side[:n], vertex[:n], t0[:n], t1[:n]


@functools.lru_cache(maxsize=4096)
def shape(orientation, dq, dr):
    """The line from axial (0, 0) to (dq, dr) as a tuple of relative steps.

    Each step is ``(kind, q1, r1, q2, r2, side, at_vertex, t0, t1)`` with axial coordinates relative to the
    start; (q2, r2) repeats (q1, r1) for HEX and CORNER. A viewshed from one hex needs one shape per target,
    so the cache holds a few thousand (a few MB).
    """
    arrays = _shape_arrays(ORIENTATION_CODES[orientation], dq, dr)
    return tuple(
        (KINDS[kind], q1, r1, q2, r2, side, vertex, t0, t1)
        for kind, q1, r1, q2, r2, side, vertex, t0, t1 in zip(*(a.tolist() for a in arrays))
    )


@dataclass(frozen=True)
class Step:
    """One thing the line meets; see the module docstring for the kinds."""

    kind: str
    hexes: tuple
    side: int = -1
    hexside: tuple | None = None
    t0: float = 0.0
    t1: float = 0.0
    at_vertex: bool = False


@dataclass(frozen=True)
class Trace:
    """The line from the centre of hex a to the centre of hex b (offset coordinates), step by step."""

    a: tuple
    b: tuple
    steps: tuple

    def __iter__(self):
        return iter(self.steps)

    def __len__(self):
        return len(self.steps)


def trace(grid, a, b):
    """The line from hex a to hex b, ``(column, row)`` each, as a :class:`Trace`.

    The end hexes appear only in the hexsides crossed leaving a and entering b. Hexes off the map may appear
    (a line along the map border) with their coordinates; evaluators treat them as open ground.
    """
    a, b = tuple(a), tuple(b)
    qa, ra = grid.to_axial(*a)
    qb, rb = grid.to_axial(*b)
    steps = []
    for kind, q1, r1, q2, r2, side, vertex, t0, t1 in shape(grid.orientation, qb - qa, rb - ra):
        first = grid.from_axial(qa + q1, ra + r1)
        if kind == SIDE or kind == ALONG:
            hexes = (first, grid.from_axial(qa + q2, ra + r2))
            hexside = grid.hexside(first[0], first[1], side)
        else:
            hexes, hexside = (first,), None
        steps.append(Step(kind, hexes, side, hexside, t0, t1, vertex))
    return Trace(a, b, tuple(steps))


def hexes_crossed(trace):
    """Every hex other than the two ends that the line touches (HEX, ALONG, CORNER), in order, once each."""
    seen = {trace.a, trace.b}
    out = []
    for step in trace.steps:
        for h in step.hexes:
            if h not in seen:
                seen.add(h)
                out.append(h)
    return out
