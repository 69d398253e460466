"""The exact line from one hex centre to another: the hexes and hexsides it crosses, runs along or grazes.

Everything is decided on integers, never with a float tolerance. In axial coordinates a hex centre is a linear
function of ``(q, r)``, and the linear map from axial space to map space keeps orientation (for flat and pointy
grids alike), so straight lines, left and right, and the position ``t`` along a line are the same in both
spaces. Scaled by 3, every centre ``(3q, 3r)`` and every corner (a centre plus ``step[i - 1] + step[i]``) is an
integer point, and which side of the line a corner lies on is the sign of an integer cross product.

A line's steps depend only on the axial difference between its ends, so the shape of each difference is traced
once (in one canonical direction; the other direction is that shape reversed, which makes LOS reciprocal by
construction) and translated to wherever it is needed. See docs/los-geometry.md.
"""

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from engine.hexgrid import AXIAL_STEPS

HEX = "hex"
SIDE = "side"
ALONG = "along"
CORNER = "corner"

KINDS = (HEX, SIDE, ALONG, CORNER)

# Shapes kept: every shape of a map up to about 25 x 20 hexes. A 60 x 40 map has some 16,500 shapes, and a
# long shape takes about 15 kB, so the cache stays within about 30 MB; a shape not cached is walked again
# (a fraction of a millisecond). The compiled kernels use engine.los.tables instead.
SHAPE_CACHE_SIZE = 2048


class Step(NamedTuple):
    """One thing that happens along the line, in order from a to b.

    ``t0`` and ``t1`` are exact fractions of the way from a's centre (0) to b's centre (1): ``float(t)`` when
    a float is wanted. ``side`` is the side index (0-5) of ``hexes[0]`` toward ``hexes[1]`` for SIDE and ALONG,
    and ``hexside`` the canonical key of that edge (``Grid.hexside``). ``at_vertex`` marks a SIDE crossing
    exactly at a corner; the hex grazed there is a CORNER step beside it, at the same ``t``. A line that leaves a
    hex at a corner to run along a hexside crosses no hexside there: the ALONG step names the two hexes.
    """

    kind: str
    hexes: tuple
    side: int = -1
    hexside: tuple | None = None
    t0: Fraction = Fraction(0)
    t1: Fraction = Fraction(0)
    at_vertex: bool = False


@dataclass(frozen=True)
class Trace:
    """The line from hex ``a`` to hex ``b`` (offset coordinates) and its steps."""

    a: tuple
    b: tuple
    steps: tuple

    def __iter__(self):
        return iter(self.steps)

    def __len__(self):
        return len(self.steps)


def trace(grid, a, b):
    """The line from the centre of hex ``a`` to the centre of hex ``b``, both ``(column, row)``."""
    a, b = (int(a[0]), int(a[1])), (int(b[0]), int(b[1]))
    qa, ra = grid.to_axial(*a)
    qb, rb = grid.to_axial(*b)
    offset = grid.from_axial
    steps = []
    for kind, q1, r1, q2, r2, side, kq, kr, kside, t0, t1, at_vertex in _plan(grid.orientation, qb - qa, rb - ra):
        first = offset(qa + q1, ra + r1)
        if kind in (HEX, CORNER):
            steps.append(Step(kind, (first,), -1, None, t0, t1, False))
        else:
            key = offset(qa + kq, ra + kr) + (kside,)
            steps.append(Step(kind, (first, offset(qa + q2, ra + r2)), side, key, t0, t1, at_vertex))
    return Trace(a, b, tuple(steps))


@lru_cache(maxsize=SHAPE_CACHE_SIZE)
def _plan(orientation, dq, dr):
    """The shape with the owner of each hexside worked out (Grid.hexside: the hex whose side index is 0-2)."""
    plan = []
    for kind, q1, r1, q2, r2, side, t0, t1, at_vertex in shape(orientation, dq, dr):
        owner = (q2, r2, side - 3) if side >= 3 else (q1, r1, side)
        plan.append((kind, q1, r1, q2, r2, side) + owner + (t0, t1, at_vertex))
    return tuple(plan)


def hexes_crossed(trace):
    """Every hex the line touches except its two ends, in order along the line, each once."""
    seen = {trace.a, trace.b}
    out = []
    for step in trace.steps:
        if step.kind == SIDE:
            continue
        for h in step.hexes:
            if h not in seen:
                seen.add(h)
                out.append(h)
    return out


# -- shapes: relative axial steps ----------------------------------------------------------------------
# A raw step is (kind, q1, r1, q2, r2, side, t0, t1, at_vertex), hexes relative to the start of the line.
# HEX and CORNER steps touch one hex: q2, r2 repeat q1, r1 and side is -1.

def is_canonical(dq, dr):
    """The direction in which a shape is traced; the opposite direction is its reverse."""
    return dq > 0 or (dq == 0 and dr > 0)


@lru_cache(maxsize=SHAPE_CACHE_SIZE)
def shape(orientation, dq, dr):
    """The raw steps of the line from axial (0, 0) to axial (dq, dr)."""
    if dq == 0 and dr == 0:
        return ()
    if is_canonical(dq, dr):
        return walk(orientation, dq, dr)
    return reverse_shape(shape(orientation, -dq, -dr), dq, dr)


def reverse_shape(steps, dq, dr):
    """The same line walked the other way: it starts at the other end, which is (dq, dr) from the new start.

    Hexes move by (dq, dr), t becomes 1 - t, a SIDE or ALONG step swaps its hexes (so an ALONG step's first hex
    is again on the left) and turns its side index to the opposite one.
    """
    out = []
    for kind, q1, r1, q2, r2, side, t0, t1, at_vertex in reversed(steps):
        q1, r1, q2, r2 = q1 + dq, r1 + dr, q2 + dq, r2 + dr
        if kind in (SIDE, ALONG):
            q1, r1, q2, r2, side = q2, r2, q1, r1, (side + 3) % 6
        out.append((kind, q1, r1, q2, r2, side, 1 - t1, 1 - t0, at_vertex))
    return tuple(out)


def walk(orientation, dq, dr):
    """Walk the line from axial (0, 0) to (dq, dr), hex by hex, on integers.

    Space is axial scaled by 3; the line is ``t * (u, v)``. For a point p, ``cross(p) = u * p.y - v * p.x``
    is 0 on the line, negative on its left and positive on its right (looking from a to b, y downward as on
    the map). The corners of a hex are clockwise, so the line leaves a hex where its corners turn from left
    to right: through the middle of a side, or exactly through a corner.
    """
    steps = AXIAL_STEPS[orientation]
    u, v = 3 * dq, 3 * dr
    corners = [(steps[i - 1][0] + steps[i][0], steps[i - 1][1] + steps[i][1]) for i in range(6)]
    corner_cross = [u * cy - v * cx for cx, cy in corners]
    ends = {(0, 0), (dq, dr)}
    length2 = u * u + v * v
    out = []

    def cross(x, y):
        return u * y - v * x

    def t_on_line(x, y):
        # (x, y) lies on the line, so it is t * (u, v) exactly.
        return Fraction(x * u + y * v, length2)

    q = r = 0
    t_in = Fraction(0)
    limit = 4 * (abs(dq) + abs(dr) + 2)
    while (q, r) != (dq, dr):
        limit -= 1
        if limit < 0:  # pragma: no cover - the walk always reaches b
            raise RuntimeError(f"line to axial ({dq}, {dr}) lost its way at ({q}, {r})")
        cx, cy = 3 * q, 3 * r
        base = cross(cx, cy)
        w = [base + k for k in corner_cross]
        for i in range(6):
            j = (i + 1) % 6
            if w[i] < 0 < w[j]:
                # Out through the middle of side i.
                (ax, ay), (bx, by) = corners[i], corners[j]
                ax, ay, ex, ey = cx + ax, cy + ay, bx - ax, by - ay
                t = Fraction(ax * ey - ay * ex, u * ey - v * ex)
                nq, nr = q + steps[i][0], r + steps[i][1]
                if (q, r) != (0, 0):
                    out.append((HEX, q, r, q, r, -1, t_in, t, False))
                out.append((SIDE, q, r, nq, nr, i, t, t, False))
                q, r, t_in = nq, nr, t
                break
            if w[i] < 0 and w[j] == 0:
                # Out exactly through corner j, shared with the neighbours across sides i and j.
                vx, vy = cx + corners[j][0], cy + corners[j][1]
                t = t_on_line(vx, vy)
                n1 = (q + steps[i][0], r + steps[i][1])
                n2 = (q + steps[j][0], r + steps[j][1])
                if (q, r) != (0, 0):
                    out.append((HEX, q, r, q, r, -1, t_in, t, False))
                ox, oy = corners[j]  # the edge between n1 and n2 leaves the corner in this direction
                if corner_cross[j] == 0:
                    # The line runs along that edge to its far corner, then into the hex beyond.
                    t_end = t_on_line(vx + ox, vy + oy)
                    left, right = (n1, n2) if cross(3 * n1[0], 3 * n1[1]) < 0 else (n2, n1)
                    side = steps.index((right[0] - left[0], right[1] - left[1]))
                    out.append((ALONG, *left, *right, side, t, t_end, False))
                    q, r, t_in = n1[0] + n2[0] - q, n1[1] + n2[1] - r, t_end
                else:
                    # Into n1 or n2, grazing the other: n1 is entered when the line and n1's centre lie on
                    # the same side of the edge between them.
                    line_turn = ox * v - oy * u
                    n1_turn = ox * steps[i][1] - oy * steps[i][0]
                    into, grazed, side = (n1, n2, i) if (line_turn > 0) == (n1_turn > 0) else (n2, n1, j)
                    out.append((SIDE, q, r, *into, side, t, t, True))
                    if grazed not in ends:
                        out.append((CORNER, *grazed, *grazed, -1, t, t, False))
                    q, r, t_in = into[0], into[1], t
                break
        else:  # pragma: no cover - a line through a hex's interior always leaves it
            raise RuntimeError(f"line to axial ({dq}, {dr}) found no way out of ({q}, {r})")
    return tuple(out)
