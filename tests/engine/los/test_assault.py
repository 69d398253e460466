"""Assault LOS: the rulebook's worked examples (digest §6, L01-L19, L21, L28) and reciprocity (the reference
against the fast path on random maps: test_reference_vs_batch.py). Maps are pointy-topped, as Assault's tiles are
(digest §1)."""

import random

import numpy as np
import pytest

from engine import rulesets
from engine.games.assault.los import Rules
from engine.hexgrid import Grid
from engine.los.compiled import CompiledMap
from engine.los.trace import ALONG, CORNER, HEX, trace
from engine.mapfile import Cell, MapDoc
from tests.engine.los.helpers import check


def make(hexes=None, markers=(), grid=None):
    """A map of clear level-0 hexes; ``hexes`` maps labels to (terrain ids, level)."""
    grid = grid or Grid("pointy", 12, 9, "even")
    cells = {}
    for label, (terrain, level) in (hexes or {}).items():
        cells[grid.parse_label(label)] = Cell(terrain=tuple(terrain), level=level)
    doc = MapDoc(name="t", ruleset="assault", grid=grid, default_terrain=("clear",), hexes=cells)
    return Rules(CompiledMap(doc, None, markers))


def effects(answer):
    return [(r.hex, r.terrain, r.effect) for r in answer.reasons]


def along_hexes(grid, a, b):
    """The two hexes beside the one hexside the line from a to b runs along."""
    steps = [s for s in trace(grid, grid.parse_label(a), grid.parse_label(b)).steps if s.kind == ALONG]
    assert len(steps) == 1
    return [grid.label(*h) for h in steps[0].hexes]


# A pointy grid: E5 to E3 runs straight up, along the hexside between E4 and F4 (pointy, even rows shifted).
GRID = Grid("pointy", 12, 9, "even")


def test_along_fixture_is_a_hexside():
    assert sorted(along_hexes(GRID, "E5", "E3")) == ["E4", "F4"]
    kinds = [s.kind for s in trace(GRID, GRID.parse_label("E5"), GRID.parse_label("E3")).steps]
    assert HEX not in kinds


def test_L01_adjacent_always_clear():
    rules = make({"F5": (["heavy-forest"], 2), "E5": (["clear"], 0)})
    answer = check(rules, "E5", "F5")
    assert answer.result == "clear" and answer.term == "Clear"


def test_L02_units_never_block():
    rules = make(markers=[{"hex": "E5", "kind": "vehicle"}, {"hex": "F5", "kind": "wreck"}])
    answer = check(rules, "B5", "I5")
    assert answer.result == "clear" and answer.reasons == []


def test_L03_clear_hexes_only():
    answer = check(make(), "B5", "I5")
    assert (answer.result, answer.hindrances, answer.term) == ("clear", 0, "Clear")


def test_L04_one_brush_hex_hinders():
    answer = check(make({"E5": (["brush"], 0)}), "B5", "I5")
    assert (answer.result, answer.hindrances, answer.term) == ("hindered", 1, "Hindered")
    assert effects(answer) == [("E5", "brush", "hindering")]
    assert answer.reasons[0].rule.startswith("Assault 10.3")


def test_L05_heavy_forest_blocks():
    answer = check(make({"E5": (["heavy-forest"], 0)}), "B5", "I5")
    assert answer.result == "blocked"
    assert effects(answer) == [("E5", "heavy-forest", "blocking")]


def test_L06_along_hexside_block_and_block_blocks():
    answer = check(make({"F4": (["heavy-forest"], 0), "E4": (["large-single-storey-building"], 0)}), "E5", "E3")
    assert answer.result == "blocked"
    assert answer.reasons[0].hexside is not None and answer.reasons[0].effect == "blocking"


def test_L07_along_hexside_block_and_hinder_hinders():
    answer = check(make({"F4": (["heavy-forest"], 0), "E4": (["brush"], 0)}), "E5", "E3")
    assert (answer.result, answer.hindrances) == ("hindered", 1)


def test_L08_along_hexside_block_and_smoke_hinders():
    rules = make({"F4": (["heavy-forest"], 0)}, markers=[{"hex": "E4", "kind": "smoke"}])
    answer = check(rules, "E5", "E3")
    assert (answer.result, answer.hindrances) == ("hindered", 1)


def test_L09_along_hexside_block_and_clear_is_clear():
    answer = check(make({"E4": (["heavy-forest"], 0)}), "E5", "E3")
    assert (answer.result, answer.hindrances) == ("clear", 0)
    assert answer.reasons[0].effect == "ignored"


def test_L10_along_hexside_hinder_and_clear_is_clear():
    answer = check(make({"F4": (["brush"], 0)}), "E5", "E3")
    assert answer.result == "clear"


def test_Q6_along_hexside_hinder_and_hinder_counts_once():
    answer = check(make({"F4": (["brush"], 0), "E4": (["light-forest"], 0)}), "E5", "E3")
    assert (answer.result, answer.hindrances) == ("hindered", 1)


def test_L11_hill_sees_over_brush():
    answer = check(make({"B5": (["clear"], 1), "E5": (["brush"], 0)}), "B5", "I5")
    assert answer.result == "clear"
    assert effects(answer) == [("E5", "brush", "ignored")]
    # The same brush between two level-0 units hinders.
    assert check(make({"E5": (["brush"], 0)}), "B5", "I5").result == "hindered"


def test_L12_same_level_hill_hides_the_lower_hex_behind():
    answer = check(make({"B5": (["clear"], 1), "E5": (["clear"], 1)}), "B5", "I5")
    assert answer.result == "blocked"
    assert effects(answer) == [("E5", "hill (level 1)", "blocking")]


def test_L13_level_2_sees_over_levels_minus_1_0_1():
    hexes = {"B5": (["clear"], 2), "D5": (["brush"], -1), "E5": (["heavy-forest"], 0), "F5": (["brush"], 1),
             "G5": (["clear"], 1)}
    answer = check(make(hexes), "B5", "I5")
    assert answer.result == "clear"
    # The ambiguous case: +1 terrain on a level-1 hex reaches level 2, the viewer's own level: it blocks.
    hexes["G5"] = (["heavy-forest"], 1)
    assert check(make(hexes), "B5", "I5").result == "blocked"


def test_L14_example_1_large_single_storey_building_blocks_a_level_1_hill():
    hexes = {"B5": (["clear"], 1), "E5": (["large-single-storey-building"], 0)}
    rules = make(hexes, markers=[{"hex": "B5", "kind": "vehicle"}])
    answer = check(rules, "B5", "I5")
    assert answer.result == "blocked"
    assert effects(answer) == [("E5", "large-single-storey-building", "blocking")]


def test_L15_example_2_along_large_building_and_single_storey_building_hinders():
    hexes = {"F4": (["large-single-storey-building"], 0), "E4": (["single-storey-building"], 0)}
    answer = check(make(hexes), "E5", "E3")
    assert (answer.result, answer.hindrances, answer.term) == ("hindered", 1, "Hindered")


def test_L16_example_3_three_hindrances_block():
    hexes = {"D5": (["single-storey-building"], 0), "E5": (["single-storey-building"], 0), "G5": (["trees"], 0)}
    answer = check(make(hexes), "B5", "I5")
    assert (answer.result, answer.hindrances) == ("blocked", 3)
    assert [e for _, _, e in effects(answer)] == ["hindering"] * 3


def test_L17_example_4_one_single_storey_building_hinders():
    answer = check(make({"F5": (["single-storey-building"], 0)}), "B5", "I5")
    assert (answer.result, answer.hindrances) == ("hindered", 1)


def test_L18_example_5_target_behind_a_large_multi_storey_building():
    hexes = {"B5": (["large-multi-storey-building"], 0), "H5": (["large-multi-storey-building"], 0),
             "I5": (["heavy-forest"], 0)}
    rules = make(hexes)
    assert rules.unit_level(rules.cmap.index_of("B5")) == 1
    answer = check(rules, "B5", "I5")
    assert (answer.from_level, answer.to_level, answer.result) == (1, 0, "blocked")
    assert effects(answer) == [("H5", "large-multi-storey-building", "blocking")]


def test_L19_example_6_dense_forest_next_to_the_target_blocks():
    hexes = {"B5": (["large-multi-storey-building"], 0), "H5": (["dense-forest"], 0), "I5": (["heavy-forest"], 0)}
    answer = check(make(hexes), "B5", "I5")
    assert answer.result == "blocked"
    # One level higher, the firer sees over it.
    assert check(make(hexes), "B5", "I5", from_level=2).result == "clear"


def test_L21_line_across_an_alley_takes_its_light_forest():
    answer = check(make({"E5": (["road", "light-forest"], 0)}), "B5", "I5")
    assert (answer.result, answer.hindrances) == ("hindered", 1)
    assert effects(answer) == [("E5", "light-forest", "hindering")]
    assert any("9.5.4" in note for note in answer.assumptions)


@pytest.mark.parametrize("count, result", [(1, "hindered"), (2, "hindered"), (3, "blocked"), (4, "blocked")])
def test_L28_smoke_markers(count, result):
    answer = check(make(markers=[{"hex": "E5", "kind": "smoke", "count": count}]), "B5", "I5")
    assert answer.result == result
    assert answer.reasons[0].terrain == f"smoke x{count}"
    assert any("7.2" in note for note in answer.assumptions)


def test_smoke_markers_add_to_hindering_terrain():
    rules = make({"D5": (["brush"], 0)}, markers=[{"hex": "F5", "kind": "smoke", "count": 2}])
    assert (check(rules, "B5", "I5").result, check(rules, "B5", "I5").hindrances) == ("blocked", 3)


def test_smoke_reaches_two_levels_above_its_ground():
    rules = make({"B5": (["clear"], 2)}, markers=[{"hex": "E5", "kind": "smoke"}])
    assert check(rules, "B5", "I5").result == "hindered"
    assert check(rules, "B5", "I5", from_level=3).result == "clear"


def test_smoke_in_the_end_hexes_does_not_hinder():
    rules = make(markers=[{"hex": "B5", "kind": "smoke", "count": 3}, {"hex": "I5", "kind": "smoke"}])
    assert check(rules, "B5", "I5").result == "clear"


def test_terrain_the_rulebook_does_not_rate_says_so():
    answer = check(make({"E5": (["olive-grove"], 0)}), "B5", "I5")
    assert answer.result == "hindered"
    assert any(note.startswith("olive-grove") for note in answer.assumptions)
    # An id no table knows is hindering by 9.4.4 ("neither clear nor LOS-blocking"), and the answer says so.
    answer = check(make({"E5": (["cactus"], 0)}), "B5", "I5")
    assert answer.result == "hindered" and any("cactus" in note for note in answer.assumptions)


def test_the_catalogue_rates_terrain_when_given():
    grid = GRID
    profile = rulesets.from_dict({"id": "assault-cactus", "name": "t", "base": "assault", "extends_base": True,
                                  "terrain": [{"id": "cactus", "name": "Cactus", "layer": "hex", "los": "blocking",
                                               "height": 2, "movement": {}, "cover": None, "rule": "House 1"}]})
    doc = MapDoc(name="t", ruleset="assault-cactus", grid=grid, default_terrain=("clear",),
                 hexes={grid.parse_label("E5"): Cell(terrain=("cactus",))})
    rules = Rules(CompiledMap(doc, profile))
    answer = check(rules, "B5", "I5")
    assert answer.result == "blocked" and answer.reasons[0].rule == "House 1"
    assert check(rules, "B5", "I5", from_level=2).result == "blocked"  # 2 levels tall
    assert check(rules, "B5", "I5", from_level=3).result == "clear"


def test_own_table_agrees_with_the_built_in_catalogue():
    catalogue = rulesets.get("assault")
    ids = [tid for tid in catalogue.terrain_ids("hex") if catalogue.get(tid)["los"] != "special"]
    grid = Grid("pointy", 8, 7, "odd")
    rnd = random.Random(5)
    cells = {h: Cell(terrain=(rnd.choice(ids),), level=rnd.choice([0, 0, 1, 2])) for h in grid.hexes()}
    doc = MapDoc(name="c", ruleset="assault", grid=grid, default_terrain=("clear",), hexes=cells)
    own, listed = Rules(CompiledMap(doc, None)), Rules(CompiledMap(doc, catalogue))
    assert np.array_equal(own.los_class, listed.los_class) and np.array_equal(own.top, listed.top)


def test_no_blind_hexes():
    # Behind a level-1 hill seen from level 2, the level-0 hex is seen (digest Q3).
    answer = check(make({"B5": (["clear"], 2), "E5": (["clear"], 1)}), "B5", "F5")
    assert (answer.result, answer.blind) == ("clear", False)


def test_a_hex_touched_only_at_a_corner_adds_nothing():
    grid = Grid("pointy", 12, 12, "even")
    for a, b in ((grid.label(1, 1), grid.label(c, r)) for c in range(12) for r in range(12)):
        steps = trace(grid, grid.parse_label(a), grid.parse_label(b)).steps
        corners = [s for s in steps if s.kind == CORNER]
        if corners:
            break
    else:
        pytest.fail("no line through a corner on this grid")
    corner = grid.label(*corners[0].hexes[0])
    rules = make({corner: (["heavy-forest"], 0)}, grid=grid)
    assert check(rules, a, b).result == "clear"
