"""The differential test of every game's LOS: on random maps of each grid shape, the fast path (the compiled
batch kernel) answers every pair of hexes as the reference evaluator does, and both answer the reverse line the
same (reasons reversed). Each game makes its maps with its own terrain, levels and markers, and names the kinds
of answer its maps must show, so a test cannot pass on maps where nothing is ever blocked."""

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from engine import rulesets
from engine.games.assault import los as assault
from engine.games.ats import los as ats
from engine.games.miniatures import los as miniatures
from engine.games.tocs import los as tocs
from engine.hexgrid import Grid
from engine.los.compiled import CompiledMap
from engine.mapfile import Cell, MapDoc
from tests.engine.los.helpers import agree_on_every_pair, all_pairs, square

# -- assault ---------------------------------------------------------------------------------------------------------

ASSAULT_TERRAIN = ["clear"] * 6 + ["brush", "light-forest", "heavy-forest", "single-storey-building",
                           "large-single-storey-building", "large-multi-storey-building", "rocky"]


def assault_map(seed, grid):
    rnd = random.Random(seed)
    cells = {}
    for col, row in grid.hexes():
        terrain = [rnd.choice(ASSAULT_TERRAIN)]
        if rnd.random() < 0.05:
            terrain = ["road", "light-forest"]
        cells[(col, row)] = Cell(terrain=tuple(terrain), level=rnd.choice([-1, 0, 0, 0, 1, 1, 2]))
    markers = [{"hex": [rnd.randrange(grid.columns), rnd.randrange(grid.rows)], "kind": "smoke",
                "count": rnd.randint(1, 3)} for _ in range(4)]
    doc = MapDoc(name="r", ruleset="assault", grid=grid, default_terrain=("clear",), hexes=cells)
    return assault.Rules(CompiledMap(doc, None, markers))


# -- ats -------------------------------------------------------------------------------------------------------------

ATS_HEX_CHOICES = (["open-ground"] * 10 + ["brush", "crops", "woods", "orchard", "palm-grove", "rubble", "forest",
                                       "building", "graveyard", "scrub", "railcars"])
ATS_SIDE_CHOICES = ["hedge", "wall", "high-wall", "bocage", "cliff", "interior-wall", "hillock-contour", "sand-dune"]


def ats_map(seed, grid):
    """Hills, hillocks with their contours, a deir and a wadi, terrain with and without art, hexsides and
    markers, at random."""
    rnd = random.Random(seed)
    hexes = list(grid.hexes())
    levels = {h: 0 for h in hexes}
    terrain = {h: [rnd.choice(ATS_HEX_CHOICES)] for h in hexes}
    for _ in range(2):  # hills stepping down 10 per hex
        centre, height = rnd.choice(hexes), rnd.choice([10, 20, 30])
        for h in hexes:
            levels[h] = max(levels[h], height - 10 * grid.distance(h, centre))
    hillocks = set()
    for _ in range(2):  # +5 hillocks on level 0
        centre, radius = rnd.choice(hexes), rnd.randint(0, 1)
        for h in hexes:
            if grid.distance(h, centre) <= radius and levels[h] == 0:
                levels[h] = 5
                hillocks.add(h)
    centre = rnd.choice(hexes)  # a deir
    for h in hexes:
        if grid.distance(h, centre) <= 1 and levels[h] == 0:
            levels[h], terrain[h] = -5, ["deir"]
    h = rnd.choice(hexes)  # a wadi, walked hex by hex
    for _ in range(6):
        if levels[h] >= 0:
            terrain[h] = ["wadi"]
        h = grid.step(*h, rnd.randrange(6))
        if not grid.contains(*h):
            break
    cells = {}
    for h in hexes:
        extra = {}
        ids = terrain[h]
        if ids[0] == "building":
            extra["storeys"] = rnd.randint(1, 3)
        elif ids[0] == "open-ground" and rnd.random() < 0.03:
            ids = ["house", "steeple"]
        if ids[0] in ("woods", "building", "orchard") and rnd.random() < 0.5:
            dx, dy = rnd.uniform(-0.5, 0.5), rnd.uniform(-0.5, 0.5)
            extra["art"] = (square(grid, grid.label(*h), dx, dy, rnd.uniform(0.1, 0.4)),)
        cells[h] = Cell(terrain=tuple(ids), level=levels[h], **extra)
    hexsides = {}
    for col, row in hexes:
        for s in range(3):
            other = grid.step(col, row, s)
            if (col, row) in hillocks and levels.get(other) == 0 or other in hillocks and levels[(col, row)] == 0:
                hexsides[grid.hexside(col, row, s)] = "hillock-contour"
            elif rnd.random() < 0.06:
                hexsides[grid.hexside(col, row, s)] = rnd.choice(ATS_SIDE_CHOICES)
    markers = []
    for kind in ("smoke", "vehicle", "wreck", "rubble", "vehicle", "wreck", "dust"):
        markers.append({"hex": list(rnd.choice(hexes)), "kind": kind})
    options = {"terraced_hills": rnd.random() < 0.3}
    doc = MapDoc(name="r", ruleset="ats", grid=grid, default_terrain=("open-ground",), hexes=cells,
                 hexsides=hexsides, extensions={"rules": options})
    return ats.Rules(CompiledMap(doc, rulesets.get("ats"), markers))


# -- miniatures ------------------------------------------------------------------------------------------------------

MINIATURES_TERRAIN = ["open"] * 7 + ["woods", "building", "rough-scrub", "river", "road"]


def miniatures_map(seed, grid):
    rnd = random.Random(seed)
    cells = {(c, r): Cell(terrain=(rnd.choice(MINIATURES_TERRAIN),), level=rnd.choice([0, 0, 0, 1, 1, 2, 3]))
             for c, r in grid.hexes()}
    markers = [{"hex": [rnd.randrange(grid.columns), rnd.randrange(grid.rows)], "kind": "smoke"} for _ in range(2)]
    doc = MapDoc(name="r", ruleset="miniatures", grid=grid, default_terrain=("open",), hexes=cells)
    return miniatures.Rules(CompiledMap(doc, None, markers))


# -- tocs ------------------------------------------------------------------------------------------------------------

TOCS_TERRAIN = ["open"] * 5 + ["farmland", "woods", "woods", "woods", "village", "town", "city", "suburb", "swamp"]


def tocs_map(seed, grid):
    rnd = random.Random(seed)
    cells = {(c, r): Cell(terrain=(rnd.choice(TOCS_TERRAIN),), level=rnd.choice([0, 0, 1, 1, 2, 3]))
             for c, r in grid.hexes()}
    doc = MapDoc(name="r", ruleset="tocs", grid=grid, default_terrain=("open",), hexes=cells)
    return tocs.Rules(CompiledMap(doc, None))


# -- the games ---------------------------------------------------------------------------------------------

SQUARE_GRIDS = [Grid(o, 9, 8, s) for o in ("flat", "pointy") for s in ("odd", "even")]
RESULTS = {"clear", "hindered", "blocked"}


@dataclass(frozen=True)
class RandomMaps:
    """One game's random maps: how they are made, the (seed, grid) cases, how the viewers' levels are drawn
    (now and then off their ground) and the kinds of (result, blind) answer they must show."""
    make: Callable
    cases: list
    viewer_levels: Callable
    shows: Callable


GAMES = {
    "assault": RandomMaps(
        assault_map, [*enumerate(SQUARE_GRIDS + [Grid("pointy", 13, 5, "even")]), (11, SQUARE_GRIDS[3])],
        lambda rnd, levels: np.where(rnd.random(levels.size) < 0.2, rnd.integers(-1, 4, levels.size), levels),
        lambda seen: {result for result, _ in seen} == RESULTS),
    # now and then a unit above its ground (an upper floor) or DOWN in its depression
    "ats": RandomMaps(
        ats_map, [*enumerate(SQUARE_GRIDS + [Grid("flat", 14, 5, "odd")]), (7, SQUARE_GRIDS[0])],
        lambda rnd, levels: np.where(rnd.random(levels.size) < 0.25,
                                     levels + rnd.choice([-10, 5, 10, 20], levels.size), levels),
        lambda seen: {("clear", False), ("hindered", False), ("blocked", False), ("blocked", True)} <= seen),
    "miniatures": RandomMaps(
        miniatures_map, [*enumerate(SQUARE_GRIDS + [Grid("flat", 14, 5, "odd")]), (21, SQUARE_GRIDS[0])],
        lambda rnd, levels: np.where(rnd.random(levels.size) < 0.3, rnd.integers(0, 5, levels.size), levels),
        lambda seen: seen == {("clear", False), ("blocked", False), ("blocked", True)}),
    "tocs": RandomMaps(
        tocs_map, [*enumerate(SQUARE_GRIDS + [Grid("flat", 12, 6, "odd")]), (31, SQUARE_GRIDS[1])],
        lambda rnd, levels: np.where(rnd.random(levels.size) < 0.3, rnd.integers(0, 5, levels.size), levels),
        lambda seen: {result for result, _ in seen} == {"clear", "blocked"}),  # never hindered (L719, L721)
}


def case_id(game, seed, grid):
    return f"{game}-seed{seed}-{grid.orientation}-{grid.columns}x{grid.rows}-{grid.stagger}"


@pytest.mark.parametrize("game, seed, grid", [
    pytest.param(game, seed, grid, id=case_id(game, seed, grid))
    for game, maps in GAMES.items() for seed, grid in maps.cases])
def test_reference_equals_batch_and_is_reciprocal_on_random_maps(game, seed, grid):
    maps = GAMES[game]
    rules = maps.make(seed, grid)
    a, b = all_pairs(rules.cmap.n)
    levels = rules.unit_levels()
    la = maps.viewer_levels(np.random.default_rng(seed), levels[a]).astype(np.int32)
    lb = levels[b].astype(np.int32)
    seen = agree_on_every_pair(rules, a, b, la, lb)
    assert maps.shows(seen), f"the random maps showed only {sorted(seen)}"
