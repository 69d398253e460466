import itertools
import math
import random

import pytest

from engine.hexgrid import Grid, column_index, column_letters, cube_round

KINDS = [(o, s) for o in ("flat", "pointy") for s in ("odd", "even")]


def grids(columns=9, rows=8):
    return [Grid(o, columns, rows, s) for o, s in KINDS]


# -- the two known facts --------------------------------------------------------------------------------

def test_ost_drift_y11_three_hexes_ne_is_bb10():
    """OST 33.3 diagram: drift from Y11, direction 2 (NE), distance 3 lands in BB10."""
    g = Grid("flat", 60, 40, "even", "letter-number")
    assert g.label(*g.step(*g.parse_label("Y11"), "NE", 3)) == "BB10"


def test_tocs_neighbours_of_11_05():
    g = Grid("flat", 40, 30, "odd", "xx.yy")
    got = [g.label(*n) for n in g.neighbours(*g.parse_label("11.05"))]
    assert got == ["11.04", "12.04", "12.05", "11.06", "10.05", "10.04"]


# -- labels ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("index,letters", [(0, "A"), (25, "Z"), (26, "AA"), (27, "BB"), (51, "ZZ"), (52, "AAA")])
def test_column_letters_the_wargame_way(index, letters):
    assert column_letters(index) == letters
    assert column_index(letters) == index


@pytest.mark.parametrize("bad", ["AB", "", "A1", "É"])
def test_column_index_rejects_spreadsheet_names(bad):
    with pytest.raises(ValueError):
        column_index(bad)


@pytest.mark.parametrize("scheme,col,row,label", [
    ("letter-number", 1, 9, "B10"), ("letter-number", 27, 9, "BB10"),
    ("xxyy", 2, 3, "0304"), ("xx.yy", 10, 4, "11.05"),
])
def test_labels_both_ways(scheme, col, row, label):
    g = Grid("flat", 60, 40, "odd", scheme)
    assert g.label(col, row) == label
    assert g.parse_label(label) == (col, row)


def test_xxyy_uses_three_digits_past_99():
    g = Grid("flat", 120, 10, "odd", "xxyy")
    assert g.label(104, 2) == "105003"
    assert g.parse_label("105003") == (104, 2)
    with pytest.raises(ValueError, match="6 digits"):
        g.parse_label("0503")


@pytest.mark.parametrize("orientation,stagger", KINDS)
@pytest.mark.parametrize("scheme", ["letter-number", "xxyy", "xx.yy"])
def test_every_label_round_trips(orientation, stagger, scheme):
    g = Grid(orientation, 30, 12, stagger, scheme)
    labels = {g.label(c, r) for c, r in g.hexes()}
    assert len(labels) == g.size
    for c, r in g.hexes():
        assert g.parse_label(g.label(c, r)) == (c, r)


@pytest.mark.parametrize("scheme", ["letter-number", "xxyy", "xx.yy"])
@pytest.mark.parametrize("columns,rows", [(30, 12), (120, 10), (3, 140)])
def test_all_labels_are_each_hex_label_in_index_order(scheme, columns, rows):
    g = Grid("flat", columns, rows, "odd", scheme)
    assert g.all_labels() == [g.label(*g.from_index(i)) for i in range(g.size)]


@pytest.mark.parametrize("text", ["A0", "A13", "Z1", "C", "4C", "C-4"])
def test_bad_or_off_map_labels_say_what(text):
    g = Grid("flat", 20, 12, "even")
    with pytest.raises(ValueError) as exc:
        g.parse_label(text)
    assert text in str(exc.value)


def test_parse_hex_takes_pairs():
    g = Grid("flat", 20, 12, "even")
    assert g.parse_hex([2, 3]) == (2, 3)
    assert g.parse_hex("C4") == (2, 3)
    for bad in ([20, 0], [1], [True, 2], 3.5):
        with pytest.raises(ValueError):
            g.parse_hex(bad)


# -- coordinates -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("grid", grids(), ids=lambda g: f"{g.orientation}-{g.stagger}")
def test_offset_axial_cube_round_trip(grid):
    for c, r in grid.hexes():
        q, ar = grid.to_axial(c, r)
        assert grid.from_axial(q, ar) == (c, r)
        x, y, z = grid.to_cube(c, r)
        assert x + y + z == 0
        assert grid.from_cube(x, y, z) == (c, r)


def test_from_cube_rejects_off_plane():
    with pytest.raises(ValueError):
        Grid().from_cube(1, 1, 1)


@pytest.mark.parametrize("grid", grids(), ids=lambda g: f"{g.orientation}-{g.stagger}")
def test_centres_follow_the_format(grid):
    """map-format.md: flat centre(c, r) = (1.5c, sqrt3 (r + s(c)/2)); pointy (sqrt3 (c + s(r)/2), 1.5r)."""
    for c, r in grid.hexes():
        x, y = grid.centre(c, r)
        if grid.orientation == "flat":
            shifted = (c % 2 == 1) == (grid.stagger == "odd")
            assert (x, y) == pytest.approx((1.5 * c, math.sqrt(3) * (r + 0.5 * shifted)))
        else:
            shifted = (r % 2 == 1) == (grid.stagger == "odd")
            assert (x, y) == pytest.approx((math.sqrt(3) * (c + 0.5 * shifted), 1.5 * r))
    if grid.stagger == "odd":  # the origin is the centre of an unshifted column 0, row 0
        assert grid.centre(0, 0) == (0, 0)


def test_even_stagger_shifts_column_a_down():
    g = Grid("flat", 4, 4, "even")
    assert g.centre(0, 0)[1] > g.centre(1, 0)[1]
    g = Grid("flat", 4, 4, "odd")
    assert g.centre(0, 0)[1] < g.centre(1, 0)[1]


# -- neighbours, sides, distance -------------------------------------------------------------------------

@pytest.mark.parametrize("grid", grids(), ids=lambda g: f"{g.orientation}-{g.stagger}")
def test_neighbours_are_one_hex_width_away_in_the_named_direction(grid):
    expected_angle = {"N": -90, "NE": -30, "SE": 30, "S": 90, "SW": 150, "NW": -150,
                      "E": 0, "W": 180}
    if grid.orientation == "pointy":
        expected_angle.update({"NE": -60, "SE": 60, "SW": 120, "NW": -120})
    for c, r in grid.hexes():
        x, y = grid.centre(c, r)
        for i, name in enumerate(grid.sides):
            n = grid.step(c, r, i)
            nx, ny = grid.centre(*n)
            assert math.hypot(nx - x, ny - y) == pytest.approx(math.sqrt(3))
            assert math.degrees(math.atan2(ny - y, nx - x)) == pytest.approx(expected_angle[name])
            assert grid.side_towards((c, r), n) == i
            assert grid.step(*n, (i + 3) % 6) == (c, r)
            assert grid.distance((c, r), n) == 1


def test_neighbours_on_the_border_are_only_those_on_the_map():
    g = Grid("flat", 5, 5, "odd")
    assert g.neighbours(0, 0) == [(1, 0), (0, 1)]
    assert len(Grid("flat", 5, 5, "even").neighbours(0, 0)) == 3  # column A sits lower: SE and NE both on the map
    assert len(g.neighbours(2, 2)) == 6
    assert g.neighbour(0, 0, "N") is None


def test_side_names_and_errors():
    g = Grid("pointy", 5, 5, "odd")
    assert g.side_index("w") == 4
    with pytest.raises(ValueError, match="NE E SE SW W NW"):
        g.side_index("N")


@pytest.mark.parametrize("grid", grids(), ids=lambda g: f"{g.orientation}-{g.stagger}")
def test_distance_is_the_breadth_first_step_count(grid):
    start = (4, 3)
    seen = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for h in frontier:
            for n in grid.neighbours(*h):
                if n not in seen:
                    seen[n] = seen[h] + 1
                    nxt.append(n)
        frontier = nxt
    # On a rectangle the BFS may detour only off-map; the axial distance can never exceed it and equals it
    # for a hex deep inside, which this grid centre is for its near neighbours.
    for h, steps in seen.items():
        assert grid.distance(start, h) <= steps
        if steps <= 3:
            assert grid.distance(start, h) == steps
        assert grid.distance(h, start) == grid.distance(start, h)


def test_distance_across_a_large_map():
    g = Grid("flat", 60, 40, "even")
    assert g.distance(g.parse_label("Y11"), g.parse_label("BB10")) == 3
    assert g.distance((0, 0), (0, 39)) == 39
    assert g.distance((0, 0), (59, 0)) == 59


# -- hexsides --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("grid", grids(), ids=lambda g: f"{g.orientation}-{g.stagger}")
def test_a_hexside_is_the_same_named_from_either_hex(grid):
    keys = set()
    for c, r in grid.hexes():
        for i in range(6):
            key = grid.hexside(c, r, i)
            n = grid.step(c, r, i)
            assert grid.hexside(*n, (i + 3) % 6) == key
            assert key[2] in (0, 1, 2)
            keys.add(key)
            name = grid.hexside_name(key)
            assert grid.contains(name[0], name[1])
            assert grid.hexside(name[0], name[1], name[2]) == key
            assert set(grid.hexside_hexes(key)) <= {(c, r), n}
    # Each interior edge is shared: fewer keys than 6 per hex.
    assert len(keys) < 6 * grid.size


@pytest.mark.parametrize("grid", grids(), ids=lambda g: f"{g.orientation}-{g.stagger}")
def test_corners_and_sides_meet_between_neighbours(grid):
    for c, r in itertools.islice(grid.hexes(), 30):
        corners = grid.corners(c, r)
        cx, cy = grid.centre(c, r)
        for x, y in corners:
            assert math.hypot(x - cx, y - cy) == pytest.approx(1)
        for i in range(6):
            a, b = grid.side_endpoints(c, r, i)
            n = grid.step(c, r, i)
            na, nb = grid.side_endpoints(*n, (i + 3) % 6)
            assert a == pytest.approx(nb) and b == pytest.approx(na)


@pytest.mark.parametrize("grid", grids(), ids=lambda g: f"{g.orientation}-{g.stagger}")
def test_hex_at_finds_the_hex_under_a_point(grid):
    rng = random.Random(4)
    for c, r in grid.hexes():
        x, y = grid.centre(c, r)
        angle, radius = rng.uniform(0, 2 * math.pi), rng.uniform(0, 0.85)
        assert grid.hex_at(x + radius * math.cos(angle), y + radius * math.sin(angle)) == (c, r)


def test_cube_round_prefers_the_nearest():
    assert cube_round(0.4, 0.4) in {(0, 0), (1, 0), (0, 1)}
    assert cube_round(0.9, -0.1) == (1, 0)


@pytest.mark.parametrize("kwargs,field", [
    ({"orientation": "square"}, "orientation"), ({"stagger": "both"}, "stagger"), ({"labels": "abc"}, "labels"),
    ({"columns": 0}, "columns"), ({"rows": 501}, "rows"), ({"columns": True}, "columns"),
])
def test_grid_rejects_bad_settings(kwargs, field):
    with pytest.raises(ValueError, match=field):
        Grid(**kwargs)


def test_extent_covers_every_corner():
    for grid in grids(7, 5):
        x0, y0, x1, y1 = grid.extent()
        for c, r in grid.hexes():
            for x, y in grid.corners(c, r):
                assert x0 - 1e-9 <= x <= x1 + 1e-9 and y0 - 1e-9 <= y <= y1 + 1e-9
