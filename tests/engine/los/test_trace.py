"""The exact line tracer: hand-checked lines on every grid kind, reciprocity, translation, and brute force
against points sampled along the line and against shapely's polygons."""

import math
import random
from fractions import Fraction as F

import pytest
from shapely.geometry import LineString, Polygon

from engine.hexgrid import AXIAL_STEPS, Grid
from engine.los.trace import ALONG, CORNER, HEX, SIDE, Step, _plan, hexes_crossed, shape, trace

GRIDS = [Grid(orientation=o, columns=17, rows=13, stagger=s) for o in ("flat", "pointy") for s in ("odd", "even")]
GRID_IDS = [f"{g.orientation}-{g.stagger}" for g in GRIDS]


def axial_step(grid, hex_, dq, dr):
    q, r = grid.to_axial(*hex_)
    return grid.from_axial(q + dq, r + dr)


def random_pairs(grid, n, seed):
    rng = random.Random(seed)
    hexes = list(grid.hexes())
    return [(rng.choice(hexes), rng.choice(hexes)) for _ in range(n)]


def point(grid, a, b, t):
    (xa, ya), (xb, yb) = grid.centre(*a), grid.centre(*b)
    t = float(t)
    return xa + t * (xb - xa), ya + t * (yb - ya)


def reversed_by_hand(steps):
    """The steps of the line b -> a as the contract describes them, made from the steps of a -> b."""
    out = []
    for s in reversed(steps):
        if s.kind in (SIDE, ALONG):
            out.append(Step(s.kind, (s.hexes[1], s.hexes[0]), (s.side + 3) % 6, s.hexside,
                            1 - s.t1, 1 - s.t0, s.at_vertex))
        else:
            out.append(Step(s.kind, s.hexes, s.side, s.hexside, 1 - s.t1, 1 - s.t0, s.at_vertex))
    return tuple(out)


# -- hand-checked lines ------------------------------------------------------------------------------

@pytest.mark.parametrize("grid", GRIDS, ids=GRID_IDS)
def test_same_hex_has_no_steps(grid):
    t = trace(grid, (4, 5), (4, 5))
    assert t.steps == ()
    assert hexes_crossed(t) == []


@pytest.mark.parametrize("grid", GRIDS, ids=GRID_IDS)
@pytest.mark.parametrize("a", [(4, 5), (5, 5), (4, 6)])
def test_adjacent_hexes_cross_one_hexside_halfway(grid, a):
    for side in range(6):
        b = grid.step(*a, side)
        assert trace(grid, a, b).steps == (Step(SIDE, (a, b), side, grid.hexside(*a, side), F(1, 2), F(1, 2)),)
        assert hexes_crossed(trace(grid, a, b)) == []


def test_straight_down_a_flat_column():
    grid = Grid(orientation="flat", columns=10, rows=10, stagger="even")
    t = trace(grid, (2, 2), (2, 5))
    assert t.steps == (
        Step(SIDE, ((2, 2), (2, 3)), 3, (2, 3, 0), F(1, 6), F(1, 6)),
        Step(HEX, ((2, 3),), -1, None, F(1, 6), F(1, 2)),
        Step(SIDE, ((2, 3), (2, 4)), 3, (2, 4, 0), F(1, 2), F(1, 2)),
        Step(HEX, ((2, 4),), -1, None, F(1, 2), F(5, 6)),
        Step(SIDE, ((2, 4), (2, 5)), 3, (2, 5, 0), F(5, 6), F(5, 6)),
    )
    assert hexes_crossed(t) == [(2, 3), (2, 4)]


def test_straight_along_a_pointy_row():
    grid = Grid(orientation="pointy", columns=10, rows=10, stagger="odd")
    t = trace(grid, (1, 3), (4, 3))
    assert [s.kind for s in t.steps] == [SIDE, HEX, SIDE, HEX, SIDE]
    assert [s.hexes for s in t.steps if s.kind == HEX] == [((2, 3),), ((3, 3),)]
    assert {s.side for s in t.steps if s.kind == SIDE} == {1}  # E
    assert [s.t0 for s in t.steps if s.kind == SIDE] == [F(1, 6), F(1, 2), F(5, 6)]
    assert not any(s.at_vertex for s in t.steps)


@pytest.mark.parametrize("orientation, stagger, a, b, left, right, side", [
    # flat: two columns to the right on the same row, between the NE and SE neighbours; north is on the left.
    ("flat", "even", (2, 2), (4, 2), (3, 2), (3, 3), 3),
    ("flat", "odd", (2, 2), (4, 2), (3, 1), (3, 2), 3),
    # pointy: two rows down, straight below; looking south (down the map), east is on the left.
    ("pointy", "even", (2, 2), (2, 4), (3, 3), (2, 3), 4),
    ("pointy", "odd", (2, 2), (2, 4), (2, 3), (1, 3), 4),
])
def test_line_exactly_along_a_hexside(orientation, stagger, a, b, left, right, side):
    grid = Grid(orientation=orientation, columns=10, rows=10, stagger=stagger)
    t = trace(grid, a, b)
    assert t.steps == (Step(ALONG, (left, right), side, grid.hexside(*left, side), F(1, 3), F(2, 3)),)
    assert hexes_crossed(t) == [left, right]
    back = trace(grid, b, a)
    assert back.steps == (Step(ALONG, (right, left), (side + 3) % 6, grid.hexside(*left, side), F(1, 3), F(2, 3)),)


def test_line_through_two_corners_flat():
    # Axial (0, 0) to (5, -1): (2, 2) is in a shifted column, (3, 3) in an unshifted one; the line meets the
    # corner (4, 3) / (3, 3) / (4, 2) at a third of the way, and (5, 3) / (6, 3) / (5, 4) at two thirds.
    grid = Grid(orientation="flat", columns=10, rows=10, stagger="even")
    t = trace(grid, (2, 2), (7, 4))
    assert t.steps == (
        Step(SIDE, ((2, 2), (3, 3)), 2, (2, 2, 2), F(1, 9), F(1, 9)),
        Step(HEX, ((3, 3),), -1, None, F(1, 9), F(1, 3)),
        Step(SIDE, ((3, 3), (4, 3)), 2, (3, 3, 2), F(1, 3), F(1, 3), True),
        Step(CORNER, ((4, 2),), -1, None, F(1, 3), F(1, 3)),
        Step(HEX, ((4, 3),), -1, None, F(1, 3), F(1, 2)),
        Step(SIDE, ((4, 3), (5, 3)), 1, (4, 3, 1), F(1, 2), F(1, 2)),
        Step(HEX, ((5, 3),), -1, None, F(1, 2), F(2, 3)),
        Step(SIDE, ((5, 3), (6, 3)), 2, (5, 3, 2), F(2, 3), F(2, 3), True),
        Step(CORNER, ((5, 4),), -1, None, F(2, 3), F(2, 3)),
        Step(HEX, ((6, 3),), -1, None, F(2, 3), F(8, 9)),
        Step(SIDE, ((6, 3), (7, 4)), 2, (6, 3, 2), F(8, 9), F(8, 9)),
    )
    assert hexes_crossed(t) == [(3, 3), (4, 2), (4, 3), (5, 3), (5, 4), (6, 3)]


def test_line_through_two_corners_pointy():
    grid = Grid(orientation="pointy", columns=10, rows=12, stagger="odd")
    a = (3, 2)
    t = trace(grid, a, axial_step(grid, a, -1, 5))
    corners = [s for s in t.steps if s.kind == CORNER]
    assert [s.t0 for s in corners] == [F(1, 3), F(2, 3)]
    assert [s.t0 for s in t.steps if s.kind == SIDE and s.at_vertex] == [F(1, 3), F(2, 3)]
    for s in corners:
        x, y = point(grid, t.a, t.b, s.t0)
        assert min(math.dist((x, y), c) for c in grid.corners(*s.hexes[0])) < 1e-9


def test_line_along_the_map_border_keeps_the_hex_off_the_map():
    grid = Grid(orientation="flat", columns=10, rows=10, stagger="even")
    t = trace(grid, (1, 0), (3, 0))
    assert t.steps == (Step(ALONG, ((2, -1), (2, 0)), 3, (2, 0, 0), F(1, 3), F(2, 3)),)


# -- whole families of lines, every orientation and stagger -------------------------------------------

@pytest.mark.parametrize("grid", GRIDS, ids=GRID_IDS)
def test_lines_between_two_neighbours_run_along_hexsides_all_the_way(grid):
    steps = AXIAL_STEPS[grid.orientation]
    for a in [(0, 0), (5, 4), (6, 7), (3, 12)]:
        for i in range(6):
            dq, dr = steps[i][0] + steps[(i + 1) % 6][0], steps[i][1] + steps[(i + 1) % 6][1]
            for k in range(1, 6):
                t = trace(grid, a, axial_step(grid, a, k * dq, k * dr))
                assert [s.kind for s in t.steps] == [ALONG, HEX] * (k - 1) + [ALONG]
                # Centre to corner, corner to corner, corner to centre: a third of a hex each.
                for n, s in enumerate(t.steps):
                    m = n // 2
                    ends = (3 * m + 1, 3 * m + 2) if s.kind == ALONG else (3 * m + 2, 3 * m + 4)
                    assert (s.t0, s.t1) == (F(ends[0], 3 * k), F(ends[1], 3 * k))


@pytest.mark.parametrize("grid", GRIDS, ids=GRID_IDS)
def test_lines_through_hex_centres_cross_hexside_middles(grid):
    for a in [(0, 0), (5, 4), (6, 7)]:
        for i in range(6):
            for k in range(1, 7):
                t = trace(grid, a, grid.step(*a, i, k))
                assert [s.kind for s in t.steps] == [SIDE, HEX] * (k - 1) + [SIDE]
                assert all(s.side == i and not s.at_vertex for s in t.steps if s.kind == SIDE)


# -- reciprocity, translation, structure ------------------------------------------------------------

@pytest.mark.parametrize("grid", GRIDS, ids=GRID_IDS)
def test_reciprocity(grid):
    for a, b in random_pairs(grid, 400, seed=1):
        assert trace(grid, b, a).steps == reversed_by_hand(trace(grid, a, b).steps)


def relative(grid, t):
    qa, ra = grid.to_axial(*t.a)
    out = []
    for s in t.steps:
        rel = tuple((q - qa, r - ra) for q, r in (grid.to_axial(*h) for h in s.hexes))
        out.append((s.kind, rel, s.side, s.t0, s.t1, s.at_vertex))
    return out


@pytest.mark.parametrize("grid", GRIDS, ids=GRID_IDS)
def test_translation_and_stagger_invariance(grid):
    other = Grid(orientation=grid.orientation, columns=grid.columns, rows=grid.rows,
                 stagger="even" if grid.stagger == "odd" else "odd")
    rng = random.Random(2)
    for a, b in random_pairs(grid, 200, seed=3):
        shift = rng.randint(-4, 4), rng.randint(-4, 4)
        a2, b2 = axial_step(grid, a, *shift), axial_step(grid, b, *shift)
        expected = relative(grid, trace(grid, a, b))
        assert relative(grid, trace(grid, a2, b2)) == expected
        qa, ra = grid.to_axial(*a)
        qb, rb = grid.to_axial(*b)
        assert relative(other, trace(other, other.from_axial(qa, ra), other.from_axial(qb, rb))) == expected


@pytest.mark.parametrize("grid", GRIDS, ids=GRID_IDS)
def test_steps_chain_from_a_to_b(grid):
    """Walking the steps leads from a to b: each hex is left where the next one is entered."""
    for a, b in random_pairs(grid, 300, seed=4):
        t = trace(grid, a, b)
        if a == b:
            continue
        assert len(t.steps) <= 6 * grid.distance(a, b)
        current, at, beside = a, None, None
        for s in t.steps:
            assert 0 < s.t0 <= s.t1 < 1
            if beside is not None and s.kind in (SIDE, HEX):
                # After running along a hexside the line is in the hex straight ahead, next to both.
                if s.kind == HEX:
                    current = s.hexes[0]
                assert all(grid.distance(current, h) == 1 for h in beside)
                beside = None
            if s.kind == SIDE:
                assert s.hexes[0] == current and s.t0 == s.t1 and at in (None, s.t0)
                assert grid.step(*s.hexes[0], s.side) == s.hexes[1]
                assert s.hexside == grid.hexside(*s.hexes[0], s.side)
                current, at = s.hexes[1], s.t0
            elif s.kind == HEX:
                assert s.hexes == (current,) and s.t0 == at and s.t1 > s.t0
                assert s.hexside is None and s.side == -1 and not s.at_vertex
                at = s.t1
            elif s.kind == ALONG:
                assert at in (None, s.t0) and s.t1 > s.t0 and not s.at_vertex
                assert all(grid.distance(current, h) == 1 for h in s.hexes)
                assert grid.step(*s.hexes[0], s.side) == s.hexes[1]
                assert s.hexside == grid.hexside(*s.hexes[0], s.side)
                at, beside = s.t1, s.hexes
            else:
                assert s.t0 == s.t1 == at and len(s.hexes) == 1 and s.hexes[0] not in (a, b)
                assert s.hexside is None and s.side == -1
        if beside is not None:
            assert all(grid.distance(b, h) == 1 for h in beside)
        else:
            assert current == b


@pytest.mark.parametrize("grid", GRIDS, ids=GRID_IDS)
def test_endpoint_hexes_appear_only_in_the_end_hexsides(grid):
    for a, b in random_pairs(grid, 300, seed=7):
        if a == b:
            continue
        steps = trace(grid, a, b).steps
        # The line leaves a through the middle of a hexside, or at a corner straight into a run along one.
        assert (steps[0].kind, steps[0].hexes[0], steps[0].at_vertex) == (SIDE, a, False) or steps[0].kind == ALONG
        assert (steps[-1].kind, steps[-1].hexes[1], steps[-1].at_vertex) == (SIDE, b, False) or steps[-1].kind == ALONG
        ends = [s for s in steps if {a, b} & set(s.hexes)]
        assert all(s.kind == SIDE for s in ends) and len(ends) <= 2


# -- brute force: the line in map space, floats far from every boundary -----------------------------

@pytest.mark.parametrize("grid", GRIDS, ids=GRID_IDS)
def test_against_sampled_points(grid):
    rng = random.Random(5)
    for a, b in random_pairs(grid, 120, seed=6):
        if a == b:
            continue
        t = trace(grid, a, b)
        (xa, ya), (xb, yb) = grid.centre(*a), grid.centre(*b)
        dx, dy = xb - xa, yb - ya
        inside = {s.hexes[0] for s in t.steps if s.kind == HEX}
        along = {h for s in t.steps if s.kind == ALONG for h in s.hexes}
        times = sorted({s.t0 for s in t.steps} | {s.t1 for s in t.steps} | {F(0), F(1)})
        eps = min(F(1, 10**7), min(v - u for u, v in zip(times, times[1:], strict=False)) / 4)
        for s in t.steps:
            if s.kind == HEX:
                assert grid.hex_at(*point(grid, a, b, (s.t0 + s.t1) / 2)) == s.hexes[0]
            elif s.kind == SIDE:
                assert grid.hex_at(*point(grid, a, b, s.t0 - eps)) == s.hexes[0]
                assert grid.hex_at(*point(grid, a, b, s.t0 + eps)) == s.hexes[1]
                x, y = point(grid, a, b, s.t0)
                p, q = grid.side_endpoints(*s.hexes[0], s.side)
                assert abs(math.dist(p, (x, y)) + math.dist((x, y), q) - 1.0) < 1e-9  # on that hexside
                nearest_end = min(math.dist(p, (x, y)), math.dist(q, (x, y)))
                assert nearest_end < 1e-9 if s.at_vertex else nearest_end > 1e-6
            elif s.kind == ALONG:
                p, q = grid.side_endpoints(*s.hexes[0], s.side)
                start, end = point(grid, a, b, s.t0), point(grid, a, b, s.t1)
                assert min(math.dist(p, start) + math.dist(q, end), math.dist(p, end) + math.dist(q, start)) < 1e-9
                # hexes[0] lies on the left looking from a to b, as seen on the map (y downward).
                cl, cr = grid.centre(*s.hexes[0]), grid.centre(*s.hexes[1])
                assert dx * (cl[1] - ya) - dy * (cl[0] - xa) < 0 < dx * (cr[1] - ya) - dy * (cr[0] - xa)
            else:
                x, y = point(grid, a, b, s.t0)
                assert min(math.dist((x, y), c) for c in grid.corners(*s.hexes[0])) < 1e-9
        n = 400
        for k in range(n):
            h = grid.hex_at(*point(grid, a, b, (k + rng.uniform(0.01, 0.99)) / n))
            assert h in inside or h in along or h in (a, b)


@pytest.mark.parametrize("grid", GRIDS, ids=GRID_IDS)
def test_against_shapely_hex_polygons(grid):
    """Every hex polygon near the line, classified by shapely: passed through, run along, or touched at a
    corner, must be exactly the HEX, ALONG and CORNER hexes of the trace."""
    for a, b in random_pairs(grid, 150, seed=8) + [((3, 3), axial_step(grid, (3, 3), 2, 2)),
                                                  ((3, 3), axial_step(grid, (3, 3), 6, -3)),
                                                  ((2, 8), axial_step(grid, (2, 8), 10, -5))]:
        if a == b:
            continue
        t = trace(grid, a, b)
        line = LineString([grid.centre(*a), grid.centre(*b)])
        through, beside, grazed = set(), set(), set()
        (ca, ra), (cb, rb) = a, b
        for col in range(min(ca, cb) - 2, max(ca, cb) + 3):
            for row in range(min(ra, rb) - 2, max(ra, rb) + 3):
                if (col, row) in (a, b):
                    continue
                hex_ = Polygon(grid.corners(col, row))
                if line.distance(hex_) > 1e-9:
                    continue
                if line.intersects(hex_.buffer(-1e-7)):
                    through.add((col, row))
                elif line.intersection(hex_.buffer(1e-9)).length > 1e-6:
                    beside.add((col, row))
                else:
                    grazed.add((col, row))
        assert {s.hexes[0] for s in t.steps if s.kind == HEX} == through
        assert {h for s in t.steps if s.kind == ALONG for h in s.hexes} == beside
        assert {h for s in t.steps if s.kind == CORNER for h in s.hexes} == grazed
        assert set(hexes_crossed(t)) == through | beside | grazed


# -- caching ------------------------------------------------------------------------------------------

def test_shape_is_traced_once_per_difference_and_direction():
    shape.cache_clear()
    _plan.cache_clear()
    grid = Grid(orientation="flat", columns=20, rows=20, stagger="odd")
    dq, dr = (q - p for p, q in zip(grid.to_axial(1, 1), grid.to_axial(9, 6), strict=False))
    trace(grid, (1, 1), (9, 6))
    assert _plan.cache_info().misses == 1 and shape.cache_info().misses == 1
    trace(grid, (3, 4), axial_step(grid, (3, 4), dq, dr))
    assert (_plan.cache_info().hits, _plan.cache_info().misses) == (1, 1)
    # The other direction is the same walk reversed, and then cached too.
    trace(grid, (9, 6), (1, 1))
    assert (_plan.cache_info().hits, _plan.cache_info().misses) == (1, 2)
    trace(grid, (12, 7), axial_step(grid, (12, 7), -dq, -dr))
    assert (_plan.cache_info().hits, _plan.cache_info().misses) == (2, 2)
    assert shape.cache_info().misses == 2


def test_hexes_crossed_lists_each_touched_hex_once_in_order():
    grid = Grid(orientation="flat", columns=10, rows=10, stagger="even")
    t = trace(grid, (1, 3), axial_step(grid, (1, 3), 4, 4))  # along, hex, along, hex, along, hex, along
    crossed = hexes_crossed(t)
    assert len(crossed) == len(set(crossed)) == 3 + 4 * 2
    assert (1, 3) not in crossed and t.b not in crossed
    firsts = [next(n for n, s in enumerate(t.steps) if h in s.hexes) for h in crossed]
    assert firsts == sorted(firsts)
