"""The sight instruments against brute force from single reference answers (engine.los.engine.line_of_sight):
exposure per level, route exposure, the least-exposed route's cost, the minimum observer height and the diff of
an edit (against two whole-map analyses)."""

import copy
import heapq
import random

import numpy as np
import pytest

from engine import mapfile
from engine.generate import random_map
from engine.los import changes, engine, sight
from engine.mapfile import Cell

GAMES = ("ost", "ats", "assault", "miniatures", "tocs")


def seen(cmap, a, b, la=None, lb=None):
    answer = engine.line_of_sight(cmap, cmap.label(a), cmap.label(b), la, lb)
    return answer.result != "blocked" and not answer.blind


def small(game, seed, columns=9, rows=7):
    return engine.compile_map(random_map(game, columns, rows, seed=seed, cover=0.45, hexsides=25))


@pytest.mark.parametrize("game", GAMES)
def test_exposure_counts_equal_single_answers(game):
    cmap = small(game, 11)
    rules = engine.rules_for(cmap)
    unit = rules.unit_levels()
    observers = random.Random(3).sample(range(cmap.n), 12)
    result = sight.exposure(cmap, observers)
    for t in range(cmap.n):
        assert result.seen[t] == sum(seen(cmap, o, t, int(unit[o]), int(unit[t])) for o in observers), cmap.label(t)
        for level, count in result.levels.get(t, {}).items():
            assert count == sum(seen(cmap, o, t, int(unit[o]), level) for o in observers)
    levels = sight.standing_levels(cmap)
    assert all(set(result.levels.get(t, {})) == set(levels[t]) - {int(unit[t])} for t in range(cmap.n))


def test_a_building_of_storeys_is_counted_at_each_storey():
    doc = random_map("ost", 9, 7, seed=4, cover=0.3, hexsides=10)
    doc.hexes[(4, 3)] = Cell(terrain=("heavy-structure",), level=0, storeys=3)
    cmap = engine.compile_map(doc)
    result = sight.exposure(cmap, [0, 10, 60])
    i = cmap.grid.index(4, 3)
    assert sorted({*result.levels[i], int(engine.rules_for(cmap).unit_levels()[i])}) == [0, 1, 2]
    entry = result.as_dict()["hexes"][cmap.label(i)]
    assert [row["level"] for row in entry["levels"]] == [0, 1, 2]


def brute_route_cost(cmap, cost, start, goal, unit_class):
    """Dijkstra on (exposure, hexes) with the graph worked out again from the catalogue hex by hex."""
    grid, catalogue = cmap.grid, cmap.catalogue

    def may_enter(i):
        return catalogue.refuses(cmap.terrain[i], unit_class) is None

    def may_cross(i, j):
        side = grid.side_towards(grid.from_index(i), grid.from_index(j))
        tid = cmap.side_terrain(i, side)
        return tid is None or catalogue.refuses((tid,), unit_class) is None

    best = {start: (cost[start], 1)}
    heap = [(cost[start], 1, start)]
    while heap:
        c, steps, i = heapq.heappop(heap)
        if (c, steps) > best[i]:
            continue
        for h in grid.neighbours(*grid.from_index(i)):
            j = grid.index(*h)
            if may_enter(j) and may_cross(i, j) and (c + cost[j], steps + 1) < best.get(j, (1e18, 0)):
                best[j] = (c + cost[j], steps + 1)
                heapq.heappush(heap, (c + cost[j], steps + 1, j))
    return best.get(goal)


@pytest.mark.parametrize("game", ("ost", "ats", "tocs"))
def test_the_least_exposed_route_has_no_cheaper_rival(game):
    cmap = small(game, 5, 10, 8)
    observers = [cmap.index_of(h) for h in ("J1", "J4", "I8", "H2")]
    counts = [sum(seen(cmap, o, t) for o in observers) for t in range(cmap.n)]
    unit_class = cmap.catalogue.unit_classes[0]
    free = [i for i in range(cmap.n) if cmap.catalogue.refuses(cmap.terrain[i], unit_class) is None]
    start, goal = free[0], free[-1]
    assert list(sight.exposure(cmap, observers).seen) == counts
    route = sight.least_exposed_route(cmap, counts, start, goal, unit_class)
    report = sight.route_report(cmap, route, counts)
    assert (report["exposure"], report["length"]) == brute_route_cost(cmap, counts, start, goal, unit_class)
    assert report["exposure"] == sum(counts[i] for i in route)
    assert report["seen_hexes"] == sum(counts[i] > 0 for i in route)
    assert route[0] == start and route[-1] == goal
    assert sight.check_route(cmap, [cmap.label(i) for i in route], unit_class) == route


def test_a_route_never_enters_what_the_catalogue_refuses():
    doc = random_map("ost", 8, 6, seed=2, cover=0, hexsides=0)
    for row in range(6):
        if row != 5:
            doc.hexes[(4, row)] = Cell(terrain=("marsh",) if False else ("heavy-structure",), level=0)
    cmap = engine.compile_map(doc)
    unit_class = cmap.catalogue.unit_classes[0]
    refused = cmap.catalogue.refuses(("heavy-structure",), unit_class)
    counts = np.zeros(cmap.n, dtype=int)
    route = sight.least_exposed_route(cmap, counts, cmap.index_of("A1"), cmap.index_of("H1"), unit_class)
    if refused:
        assert all(cmap.label(i)[0] != "E" or cmap.label(i) == "E6" for i in route)
    with pytest.raises(ValueError, match="not next to each other"):
        sight.check_route(cmap, ["A1", "C3"], unit_class)


def test_a_drawn_route_reports_each_hex_and_its_share_seen():
    cmap = small("ost", 7)
    counts = sight.exposure(cmap, [cmap.index_of("E4")]).seen
    route = sight.check_route(cmap, ["A1", "A2", "A3", "B3"], cmap.catalogue.unit_classes[0])
    report = sight.route_report(cmap, route, counts)
    assert [h["seen"] for h in report["hexes"]] == [seen(cmap, cmap.index_of("E4"), i) for i in route]
    assert report["share_seen"] == round(sum(h["seen"] > 0 for h in report["hexes"]) / 4, 4)


@pytest.mark.parametrize("game", ("ost", "ats", "miniatures"))
def test_the_minimum_height_is_the_lowest_level_that_sees(game):
    cmap = small(game, 9)
    result = sight.minimum_height(cmap, "E4")
    a = cmap.index_of("E4")
    for t in range(cmap.n):
        expected = next((lv for lv in result["levels"] if seen(cmap, a, t, lv, None) or t == a), None)
        assert result["hexes"][cmap.label(t)] == expected, cmap.label(t)


def edited(doc, seed, count=6):
    """A copy of the map with ``count`` hexes and two hexsides changed."""
    rng = random.Random(seed)
    out = copy.deepcopy(doc)
    catalogue = engine.compile_map(doc).catalogue
    hexes = [t for t in catalogue.terrain_ids("hex") if t != "road"]
    grid = doc.grid
    for _ in range(count):
        h = (rng.randrange(grid.columns), rng.randrange(grid.rows))
        out.hexes[h] = Cell(terrain=(rng.choice(hexes),), level=rng.choice((0, 0, catalogue.level_step or 1)))
    sides = catalogue.terrain_ids("hexside")
    for _ in range(2 if sides else 0):
        out.hexsides[(rng.randrange(grid.columns), rng.randrange(grid.rows), rng.randrange(3))] = rng.choice(sides)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_diff_equals_two_whole_map_analyses(game):
    doc = random_map(game, 14, 10, seed=21, cover=0.4, hexsides=30)
    new_doc = edited(doc, 8)
    old, new = engine.compile_map(doc), engine.compile_map(new_doc)
    result = changes.diff(old, new)
    before, after = (engine.analyze(c, full=True).matrix for c in (old, new))
    sees = [(m["result"] != 2) & ~m["blind"] for m in (before, after)]
    upper = np.triu(np.ones((old.n, old.n), bool), 1)
    for got, want in ((result.gained, sees[1] & ~sees[0]), (result.lost, sees[0] & ~sees[1]),
                      (result.blind_made, after["blind"] & ~before["blind"]),
                      (result.blind_removed, before["blind"] & ~after["blind"])):
        assert set(zip(*got, strict=False)) == set(zip(*np.nonzero(want & upper), strict=False))
    assert result.traced < old.n * (old.n - 1) // 2


def test_the_diff_of_a_hedge_says_what_it_blocks():
    doc = random_map("ost", 12, 8, seed=1, cover=0, hills=0, hexsides=0, art=0)
    new_doc = copy.deepcopy(doc)
    for row in range(2, 6):
        new_doc.hexes[(5, row)] = Cell(terrain=("woods",), level=0)
    old, new = engine.compile_map(doc), engine.compile_map(new_doc)
    zones = {"a": [old.index_of(h) for h in ("A3", "A4", "A5")], "b": [old.index_of(h) for h in ("L3", "L4")]}
    result = changes.diff(old, new, zones)
    lost = len(result.lost[0])
    assert lost > 0 and not len(result.gained[0])
    assert result.sentence.startswith(f"The woods at F3–F6 blocks {lost} pairs and opens 0, ")
    between = sum((x in zones["a"] and y in zones["b"]) or (x in zones["b"] and y in zones["a"])
                  for x, y in zip(*result.lost, strict=True))
    assert f"{between} of them between the two setup zones" in result.sentence
    assert changes.diff(old, engine.compile_map(doc)).sentence.startswith("Nothing that LOS reads changed")


def test_two_grids_are_not_compared():
    a = engine.compile_map(random_map("ost", 8, 6, seed=1, hexsides=10))
    b = engine.compile_map(random_map("ost", 9, 6, seed=1, hexsides=10))
    with pytest.raises(changes.NotComparable, match="grids differ"):
        changes.diff(a, b)


def test_the_sample_maps_answer_as_single_lines():
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "maps" / "samples" / "village-skirmish.json"
    cmap = engine.compile_map(mapfile.parse(path.read_bytes()))
    observers = list(range(0, cmap.n, 17))
    result = sight.exposure(cmap, observers)
    unit = engine.rules_for(cmap).unit_levels()
    for t in range(0, cmap.n, 3):
        assert result.seen[t] == sum(seen(cmap, o, t, int(unit[o]), int(unit[t])) for o in observers)
