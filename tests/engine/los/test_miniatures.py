"""Miniatures QRS LOS on a hex map: the dead-zone worked test (digest §6.8), seeing one hex into woods, smoke,
inches, and reciprocity (the reference against the fast path on random maps: test_reference_vs_batch.py)."""

import random

import numpy as np
import pytest

from engine import rulesets
from engine.games.miniatures.los import Rules
from engine.hexgrid import Grid
from engine.los.compiled import CompiledMap
from engine.los.trace import ALONG, trace
from engine.mapfile import Cell, MapDoc
from tests.engine.los.helpers import check

# Flat hexes: a line down one column passes through that column's hexes only. 50 m hexes: 2" each.
GRID = Grid("flat", 5, 16, "even", hex_metres=50)


def make(hexes=None, markers=(), grid=GRID, options=None, hexsides=None):
    """A map of open level-0 hexes; ``hexes`` maps labels to (terrain ids, level[, storeys])."""
    cells = {}
    for label, spec in (hexes or {}).items():
        terrain, level, storeys = (list(spec) + [1])[:3]
        cells[grid.parse_label(label)] = Cell(terrain=tuple(terrain), level=level, storeys=storeys)
    doc = MapDoc(name="t", ruleset="miniatures", grid=grid, default_terrain=("open",), hexes=cells,
                 hexsides=hexsides or {}, extensions={"rules": options} if options else {})
    return Rules(CompiledMap(doc, None, markers))


def test_dead_zone_worked_test_firer_on_hill_woods_12_inches_away():
    # Digest §6.8: woods 12" (6 hexes at 2") from a firer on a hill: 3 hexes (6") of dead ground behind them.
    rules = make({"C1": (["open"], 2), "C7": (["woods"], 0)})
    assert rules.inches_per_hex == 2
    for target in ("C8", "C9", "C10"):
        answer = check(rules, "C1", target)
        assert (answer.result, answer.blind, answer.term) == ("blocked", True, "Blocked (dead zone)")
        assert [(r.hex, r.terrain, r.effect) for r in answer.reasons] == [("C7", "woods", "blind")]
        assert any('6 hexes (12")' in note and '3 hexes (6")' in note for note in answer.assumptions)
    for target in ("C11", "C14"):
        answer = check(rules, "C1", target)
        assert (answer.result, answer.blind) == ("clear", False)
        assert answer.reasons[0].effect == "ignored"


def test_dead_zone_is_reciprocal_from_the_lower_unit():
    rules = make({"C1": (["open"], 2), "C7": (["woods"], 0)})
    answer = check(rules, "C9", "C1")
    assert (answer.result, answer.blind) == ("blocked", True)


def test_woods_as_tall_as_the_firer_block_outright():
    rules = make({"C1": (["open"], 1), "C7": (["woods"], 0)})
    answer = check(rules, "C1", "C14")
    assert (answer.result, answer.blind, answer.term) == ("blocked", False, "Blocked")


def test_hill_between_lower_units_casts_a_dead_zone_and_a_slope_does_not():
    rules = make({"C1": (["open"], 2), "C5": (["open"], 1)})
    assert check(rules, "C1", "C6").blind  # 4 hexes out, 2 hexes deep
    assert check(rules, "C1", "C7").blind
    assert check(rules, "C1", "C8").result == "clear"
    slope = make({"C1": (["open"], 2), "C2": (["open"], 1)})
    assert check(slope, "C1", "C3").result == "clear"


def test_higher_ground_between_blocks():
    answer = check(make({"C5": (["open"], 1)}), "C1", "C9")
    assert answer.result == "blocked" and not answer.blind
    assert answer.reasons[0].terrain == "hill (level 1)"


@pytest.mark.parametrize("terrain", ["woods", "building", "rough-scrub"])
def test_see_one_hex_into_blocking_terrain_not_through(terrain):
    rules = make({"C6": ([terrain], 0), "C7": ([terrain], 0), "C8": ([terrain], 0)})
    assert check(rules, "C2", "C6").result == "clear"  # into the first hex
    answer = check(rules, "C2", "C7")  # the second: through the first
    assert answer.result == "blocked"
    assert [(r.hex, r.effect) for r in answer.reasons] == [("C6", "blocking")]
    assert check(rules, "C6", "C2").result == "clear"  # out of the edge hex
    assert check(rules, "C8", "C2").result == "blocked"


@pytest.mark.parametrize("terrain", ["river", "road"])
def test_other_terrain_does_not_block(terrain):
    assert check(make({"C5": ([terrain], 0)}), "C1", "C9").result == "clear"


def test_walls_and_hedges_do_not_block():
    grid = GRID
    sides = {grid.hexside(2, 4, 3): "wall", grid.hexside(2, 6, 3): "hedge"}
    assert check(make(hexsides=sides), "C1", "C12").result == "clear"


def test_smoke_blocks_through_but_not_into():
    rules = make(markers=[{"hex": "C5", "kind": "smoke"}])
    assert check(rules, "C1", "C9").result == "blocked"
    assert check(rules, "C1", "C5").result == "clear"
    assert check(rules, "C1", "C9", from_level=3).result == "blocked"


def test_along_a_hexside_blocked_only_when_both_sides_block():
    grid = Grid("pointy", 9, 9, "even", hex_metres=50)
    step = [s for s in trace(grid, (4, 6), (4, 2)).steps if s.kind == ALONG][0]
    left, right = (grid.label(*h) for h in step.hexes)
    one = make({left: (["woods"], 0)}, grid=grid)
    assert check(one, grid.label(4, 6), grid.label(4, 4)).result == "clear"
    both = make({left: (["woods"], 0), right: (["building"], 0)}, grid=grid)
    answer = check(both, grid.label(4, 6), grid.label(4, 4))
    assert answer.result == "blocked" and answer.reasons[0].hexside is not None


def test_range_in_inches_is_in_the_answer():
    answer = check(make(), "C1", "C10")
    assert answer.assumptions[0].startswith('range 9 hexes = 18" at 2" per hex')
    custom = check(make(options={"inches_per_hex": 1.75}), "C1", "C10")
    assert custom.assumptions[0].startswith('range 9 hexes = 15.75" at 1.75" per hex')
    assert make(grid=Grid("flat", 3, 3, "even", hex_metres=100)).inches_per_hex == 4


def test_unit_on_an_upper_floor_stands_one_level_up():
    rules = make({"C1": (["building"], 0, 2), "C2": (["building"], 0, 1)})
    assert rules.unit_level(rules.cmap.index_of("C1")) == 1
    assert rules.unit_level(rules.cmap.index_of("C2")) == 0


def test_jungle_blocks_and_says_it_is_an_assumption():
    answer = check(make({"C5": (["jungle"], 0)}), "C1", "C9")
    assert answer.result == "blocked"
    assert any("jungle" in note for note in answer.assumptions)


def test_own_table_agrees_with_the_built_in_catalogue():
    catalogue = rulesets.get("miniatures")
    ids = [tid for tid in catalogue.terrain_ids("hex") if catalogue.get(tid)["los"] != "special"]
    rnd = random.Random(3)
    cells = {h: Cell(terrain=(rnd.choice(ids),), level=rnd.choice([0, 1, 2])) for h in GRID.hexes()}
    doc = MapDoc(name="c", ruleset="miniatures", grid=GRID, default_terrain=("open",), hexes=cells)
    own, listed = Rules(CompiledMap(doc, None)), Rules(CompiledMap(doc, catalogue))
    assert np.array_equal(own.obstacle, listed.obstacle) and np.array_equal(own.top, listed.top)
    assert 1 in own.obstacle
