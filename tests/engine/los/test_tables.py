"""Flattened trace shapes and the numba helpers: the same steps as trace(), and the same art answers as shapely."""

import math
import random

import numpy as np
import pytest
from shapely.geometry import LineString, Polygon

from engine.hexgrid import Grid
from engine.los.compiled import CompiledMap
from engine.los.tables import (
    ALONG_CODE,
    CORNER_CODE,
    HEX_CODE,
    KIND_CODES,
    ORIENTATION_CODES,
    SIDE_CODE,
    STAGGER_CODES,
    axial_of,
    index_of_axial,
    segment_hits_art,
    shape_id,
    trace_tables,
)
from engine.los.trace import trace
from engine.mapfile import Cell, MapDoc

GRIDS = [Grid(orientation=o, columns=c, rows=r, stagger=s)
         for o in ("flat", "pointy") for s in ("odd", "even") for c, r in ((15, 11), (6, 9))]
GRID_IDS = [f"{g.orientation}-{g.stagger}-{g.columns}x{g.rows}" for g in GRIDS]


def tables_of(grid):
    return trace_tables(grid.orientation, grid.columns, grid.rows, grid.stagger)


def steps_from_tables(tables, grid, a, b):
    """The steps of the line a -> b read back from the tables, in trace()'s terms."""
    qa, ra = grid.to_axial(*a)
    qb, rb = grid.to_axial(*b)
    s = shape_id(qb - qa, rb - ra, tables.dq_min, tables.dr_min, tables.dr_span)
    out = []
    for k in range(tables.shape_start[s], tables.shape_start[s + 1]):
        first = grid.from_axial(qa + int(tables.step_q1[k]), ra + int(tables.step_r1[k]))
        second = grid.from_axial(qa + int(tables.step_q2[k]), ra + int(tables.step_r2[k]))
        out.append((int(tables.step_kind[k]), first, second, int(tables.step_side[k]),
                    bool(tables.step_vertex[k]), float(tables.step_t0[k]), float(tables.step_t1[k])))
    return out


def steps_from_trace(grid, a, b):
    return [(KIND_CODES[s.kind], s.hexes[0], s.hexes[-1], s.side, s.at_vertex, float(s.t0), float(s.t1))
            for s in trace(grid, a, b).steps]


# -- the shapes --------------------------------------------------------------------------------------

def test_kind_and_grid_codes():
    assert (HEX_CODE, SIDE_CODE, ALONG_CODE, CORNER_CODE) == (0, 1, 2, 3)
    assert ORIENTATION_CODES == {"flat": 0, "pointy": 1}
    assert STAGGER_CODES == {"odd": 0, "even": 1}


@pytest.mark.parametrize("grid", GRIDS, ids=GRID_IDS)
def test_tables_hold_exactly_what_trace_gives(grid):
    tables = tables_of(grid)
    hexes = list(grid.hexes())
    pairs = [(a, b) for a in hexes for b in hexes] if grid.size < 60 else []
    rng = random.Random(grid.columns * 7 + grid.rows)
    pairs += [(rng.choice(hexes), rng.choice(hexes)) for _ in range(1500)]
    # The corners of the map give the longest lines, and every extreme difference.
    corners = [(0, 0), (0, grid.rows - 1), (grid.columns - 1, 0), (grid.columns - 1, grid.rows - 1)]
    pairs += [(a, b) for a in corners for b in corners]
    for a, b in pairs:
        assert steps_from_tables(tables, grid, a, b) == steps_from_trace(grid, a, b), (a, b)


@pytest.mark.parametrize("grid", GRIDS, ids=GRID_IDS)
def test_every_difference_of_the_grid_has_a_shape_and_no_other(grid):
    tables = tables_of(grid)
    assert tables.n_shapes == tables.dq_span * tables.dr_span
    assert tables.shape_start.shape == (tables.n_shapes + 1,) and tables.shape_start[0] == 0
    assert np.all(np.diff(tables.shape_start) >= 0) and tables.shape_start[-1] == tables.n_steps
    differences = set()
    for a in grid.hexes():
        for b in grid.hexes():
            qa, ra = grid.to_axial(*a)
            qb, rb = grid.to_axial(*b)
            differences.add((qb - qa, rb - ra))
    assert min(dq for dq, _ in differences) == tables.dq_min
    assert min(dr for _, dr in differences) == tables.dr_min
    assert max(dq for dq, _ in differences) == tables.dq_min + tables.dq_span - 1
    assert max(dr for _, dr in differences) == tables.dr_min + tables.dr_span - 1
    for i in range(tables.dq_span):
        for j in range(tables.dr_span):
            dq, dr = tables.dq_min + i, tables.dr_min + j
            n = tables.shape_start[tables.shape_id(dq, dr) + 1] - tables.shape_start[tables.shape_id(dq, dr)]
            assert (n > 0) == ((dq, dr) in differences and (dq, dr) != (0, 0)), (dq, dr)


def test_array_types_and_sharing():
    tables = trace_tables("pointy", 12, 9, "even")
    assert trace_tables("pointy", 12, 9, "even") is tables
    assert (tables.orient, tables.stagger_code) == (1, 1)
    for name, dtype in (("shape_start", np.int32), ("step_kind", np.int8), ("step_q1", np.int32),
                        ("step_r1", np.int32), ("step_q2", np.int32), ("step_r2", np.int32),
                        ("step_side", np.int8), ("step_vertex", np.bool_), ("step_t0", np.float64),
                        ("step_t1", np.float64)):
        array = getattr(tables, name)
        assert array.dtype == dtype, name
        assert not array.flags.writeable, name
    one_hex = tables.step_kind != SIDE_CODE
    one_hex &= tables.step_kind != ALONG_CODE
    assert np.array_equal(tables.step_q1[one_hex], tables.step_q2[one_hex])
    assert np.array_equal(tables.step_r1[one_hex], tables.step_r2[one_hex])
    assert np.all(tables.step_side[one_hex] == -1)
    assert np.all((tables.step_side[~one_hex] >= 0) & (tables.step_side[~one_hex] < 6))


def test_a_line_along_a_hexside_in_the_tables():
    # Flat, even: two columns right on one row runs along the hexside between (3, 2) (left) and (3, 3).
    grid = Grid(orientation="flat", columns=10, rows=10, stagger="even")
    assert steps_from_tables(tables_of(grid), grid, (2, 2), (4, 2)) == [
        (ALONG_CODE, (3, 2), (3, 3), 3, False, 1 / 3, 2 / 3)]
    # Back: hexes swapped, side turned, t -> 1 - t, each t the nearest float to the exact fraction.
    assert steps_from_tables(tables_of(grid), grid, (4, 2), (2, 2)) == [
        (ALONG_CODE, (3, 3), (3, 2), 0, False, 1 / 3, 2 / 3)]


# -- numba helpers -----------------------------------------------------------------------------------

@pytest.mark.parametrize("grid", GRIDS, ids=GRID_IDS)
def test_axial_and_index_helpers_agree_with_the_grid(grid):
    orient, stagger = ORIENTATION_CODES[grid.orientation], STAGGER_CODES[grid.stagger]
    for col in range(-3, grid.columns + 3):
        for row in range(-3, grid.rows + 3):
            q, r = axial_of(col, row, orient, stagger)
            assert (q, r) == grid.to_axial(col, row)
            expected = grid.index(col, row) if grid.contains(col, row) else -1
            assert index_of_axial(q, r, orient, stagger, grid.columns, grid.rows) == expected


# -- art: the segment against a hex's polygons, as shapely sees it -----------------------------------

def flatten(polygons):
    """One hex's polygons flattened the way CompiledMap flattens art (closed outer rings)."""
    xs, ys, ring_start = [], [], [0]
    for poly in polygons:
        for x, y in Polygon(poly).exterior.coords:
            xs.append(x)
            ys.append(y)
        ring_start.append(len(xs))
    return (np.array([0, len(polygons)], np.int32), np.array(ring_start, np.int32),
            np.array(xs, np.float64), np.array(ys, np.float64))


def star_polygon(rng, cx, cy, radius, n, whole=False):
    """A simple polygon: points at increasing angles around a centre, at random distances."""
    angles = sorted(rng.uniform(0, 2 * math.pi) for _ in range(n))
    points = []
    for a in angles:
        d = rng.uniform(0.2, 1.0) * radius
        x, y = cx + d * math.cos(a), cy + d * math.sin(a)
        points.append((round(x), round(y)) if whole else (x, y))
    poly = Polygon(points)
    return points if poly.is_valid and poly.area > 0 else None


def hits_by_shapely(segment, polygons):
    line = LineString(segment)
    return any(line.intersects(Polygon(p)) for p in polygons)


def hits_by_kernel(segment, polygons):
    (x0, y0), (x1, y1) = segment
    return segment_hits_art(x0, y0, x1, y1, 0, *flatten(polygons))


def test_segment_hits_art_agrees_with_shapely_on_random_polygons():
    rng = random.Random(11)
    checked = hits = 0
    while checked < 3000:
        polygons = [p for p in (star_polygon(rng, rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.2, 1.5),
                                             rng.randint(3, 9)) for _ in range(rng.randint(1, 3))) if p]
        if not polygons:
            continue
        for _ in range(10):
            segment = [(rng.uniform(-2.5, 2.5), rng.uniform(-2.5, 2.5)) for _ in range(2)]
            expected = hits_by_shapely(segment, polygons)
            assert hits_by_kernel(segment, polygons) == expected, (segment, polygons)
            checked += 1
            hits += expected
    assert 0.1 * checked < hits < 0.9 * checked  # both answers were exercised


def test_segment_hits_art_agrees_with_shapely_when_touching():
    """Small whole-number coordinates: segments end on edges and corners, and run along edges."""
    rng = random.Random(12)
    checked = 0
    while checked < 3000:
        poly = star_polygon(rng, 0, 0, 4, rng.randint(3, 7), whole=True)
        if not poly:
            continue
        for _ in range(10):
            if rng.random() < 0.5:
                # Through or onto a corner of the polygon, or along one of its edges.
                k = rng.randrange(len(poly))
                p = poly[k]
                other = poly[(k + 1) % len(poly)] if rng.random() < 0.3 else (rng.randint(-6, 6), rng.randint(-6, 6))
                segment = [p, other] if rng.random() < 0.5 else [other, p]
            else:
                segment = [(rng.randint(-6, 6), rng.randint(-6, 6)) for _ in range(2)]
            assert hits_by_kernel(segment, [poly]) == hits_by_shapely(segment, [poly]), (segment, poly)
            checked += 1


def test_segment_hits_art_cases():
    square = [(0, 0), (4, 0), (4, 4), (0, 4)]
    assert hits_by_kernel([(1, 1), (2, 2)], [square])  # wholly inside
    assert hits_by_kernel([(-1, 2), (5, 2)], [square])  # through
    assert hits_by_kernel([(-1, 4), (5, 4)], [square])  # along an edge
    assert hits_by_kernel([(-1, 5), (5, -1)], [square])  # through a corner... and across
    assert hits_by_kernel([(-1, 9), (5, 3)], [square])  # just touching the corner (4, 4)
    assert not hits_by_kernel([(-1, 9), (5, 3.5)], [square])
    assert not hits_by_kernel([(5, 1), (6, 3)], [square])
    assert not hits_by_kernel([(1, 1), (2, 2)], [])


def test_segment_hits_art_on_a_compiled_map():
    grid = Grid(orientation="flat", columns=4, rows=4, stagger="even")
    cx, cy = grid.centre(1, 1)
    house = ((cx - 0.3, cy - 0.3), (cx + 0.3, cy - 0.3), (cx + 0.3, cy + 0.3), (cx - 0.3, cy + 0.3))
    shed = ((cx + 0.5, cy + 0.5), (cx + 0.7, cy + 0.5), (cx + 0.6, cy + 0.7))
    doc = MapDoc(name="art", ruleset="ost", grid=grid, default_terrain=("clear",),
                 hexes={(1, 1): Cell(terrain=("building",), art=(house, shed))})
    cmap = CompiledMap(doc, None)
    i = grid.index(1, 1)
    rng = random.Random(13)
    for _ in range(500):
        x0, y0, x1, y1 = (rng.uniform(-1.2, 1.2) + c for c in (cx, cy, cx, cy))
        expected = LineString([(x0, y0), (x1, y1)]).intersects(cmap.art[i])
        assert segment_hits_art(x0, y0, x1, y1, i, cmap.art_hex_start, cmap.art_ring_start,
                                cmap.art_x, cmap.art_y) == expected
    assert not segment_hits_art(cx - 1, cy - 1, cx + 1, cy - 1, grid.index(0, 0), cmap.art_hex_start,
                                cmap.art_ring_start, cmap.art_x, cmap.art_y)
