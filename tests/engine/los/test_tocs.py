"""TOCS observation: Hill 340 (rulebook L724), the 4-hex visibility range, flat ground, obstruction levels and
derived forest, no hindered state (L719, L721), and reciprocity (the reference against the fast path on random
maps: test_reference_vs_batch.py)."""


import pytest

from engine import rulesets
from engine.games.tocs.los import Rules
from engine.hexgrid import Grid
from engine.los.compiled import CompiledMap
from engine.mapfile import Cell, MapDoc
from tests.engine.los import helpers

# TOCS maps: flat hexes, "CC.RR" labels, even-numbered (1-based) columns half a hex lower (digest §1.1).
GRID = Grid("flat", 40, 16, "odd", labels="xx.yy", hex_metres=1200)


def make(hexes=None, grid=GRID, options=None):
    """A map of open level-0 hexes; ``hexes`` maps labels to (terrain ids, contour level)."""
    cells = {grid.parse_label(label): Cell(terrain=tuple(terrain), level=level)
             for label, (terrain, level) in (hexes or {}).items()}
    doc = MapDoc(name="t", ruleset="tocs", grid=grid, default_terrain=("open",), hexes=cells,
                 extensions={"rules": options} if options else {})
    return Rules(CompiledMap(doc, None))


def check(rules, a, b, from_level=None, to_level=None):
    answer = helpers.check(rules, a, b, from_level, to_level)
    words = [answer.term] + answer.assumptions + [f"{r.terrain} {r.effect} {r.rule}" for r in answer.reasons]
    for text in words:  # in TOCS, LOS is the Line Of Supply: observation never borrows the word
        assert "LOS" not in text and "line of sight" not in text.lower() and "supply" not in text.lower()
    return answer


def test_T1_grid_matches_the_rulebook_neighbours():
    assert sorted(GRID.label(*h) for h in GRID.neighbours(*GRID.parse_label("11.05"))) == sorted(
        ["11.04", "12.04", "12.05", "11.06", "10.05", "10.04"])


def test_hill_340_fo_on_top_observes_35_12():
    # L724: "Hex 35.11, known as Hill 340, consists of the village of Belleau at the bottom and two contour lines
    # to the top. A FO at the top would have a 1 level height advantage over the village of Belleau and would
    # allow hex 35.12 to be observed for artillery fire."
    rules = make({"35.11": (["village"], 2), "35.12": (["open"], 0)})
    answer = check(rules, "35.11", "35.12")
    assert (answer.result, answer.term) == ("clear", "Observed")


def test_hill_340_sees_over_a_village_one_level_below_and_not_level_with_it():
    # L724 goes on: units in the hex may observe hexes within 4 "if they had a height advantage over any terrain
    # in between". A village at contour 0 between them tops out at level 1: seen over from level 2 (L719 "1 level
    # (or more) higher than the intervening terrain obstacle"), not from level 1, and never "hindered".
    rules = make({"35.11": (["village"], 2), "35.12": (["village"], 0), "35.14": (["open"], 0)})
    answer = check(rules, "35.11", "35.14")
    assert (answer.result, answer.hindrances, answer.term) == ("clear", 0, "Observed")
    assert ("35.12", "village", "ignored") in [(r.hex, r.terrain, r.effect) for r in answer.reasons]
    level_with_it = check(rules, "35.11", "35.14", from_level=1)
    assert (level_with_it.result, level_with_it.hindrances, level_with_it.term) == ("blocked", 0, "Not observed")
    assert ("35.12", "village", "blocking") in [(r.hex, r.terrain, r.effect) for r in level_with_it.reasons]
    assert "level-1 obstruction" in next(r.rule for r in level_with_it.reasons if r.hex == "35.12")


def test_visibility_range_is_4_hexes():
    rules = make({"10.05": (["open"], 1)})
    assert check(rules, "10.05", "10.09").result == "clear"
    answer = check(rules, "10.05", "10.10")
    assert (answer.result, answer.term) == ("blocked", "Not observed")
    assert "visibility range 4" in answer.reasons[0].rule
    wider = make({"10.05": (["open"], 1)}, options={"visibility_hexes": 6})
    assert check(wider, "10.05", "10.10").result == "clear"


def test_off_a_hill_only_adjacent_hexes_are_observed():
    rules = make()
    assert check(rules, "10.05", "10.06").result == "clear"
    answer = check(rules, "10.05", "10.07")
    assert answer.result == "blocked" and "needs a hill" in answer.reasons[0].rule
    assert check(rules, "10.05", "10.07", from_level=1).result == "clear"


@pytest.mark.parametrize("terrain, result", [
    ("city", "blocked"), ("suburb", "blocked"), ("jungle", "blocked"), ("forest", "blocked"),
    ("town", "blocked"), ("village", "blocked"), ("woods", "blocked"), ("bocage", "blocked"),
    ("orchard", "blocked"), ("farmland", "clear"), ("swamp", "clear"),
])
def test_obstruction_levels(terrain, result):
    # L719, L721: no hindered state; an obstruction the observer is not a level above stops observation.
    rules = make({"10.05": (["open"], 1), "10.07": ([terrain], 0)})
    assert check(rules, "10.05", "10.09").result == result
    level = rulesets.get("tocs").get(terrain)["height"] if result == "blocked" else 0
    # One level above the obstruction's top (contour 0 + its level), the observer sees over it; level with it, not.
    assert check(rules, "10.05", "10.09", from_level=level + 1).result == "clear"
    if level:
        assert check(rules, "10.05", "10.09", from_level=level).result == "blocked"


@pytest.mark.parametrize("terrain", ["woods", "village", "town", "bocage", "orchard"])
def test_level_1_obstructions_are_not_hindering_in_the_catalogue(terrain):
    # Issue 12: the catalogue said "hindering" (answered "Observed (hindered)"); L719, L721 give no such state.
    entry = rulesets.get("tocs").get(terrain)
    assert (entry["los"], entry["height"]) == ("blocking", 1)
    assert "hindered" not in rulesets.get("tocs").terms["hindered"].lower()


def test_woods_surrounded_by_woods_is_forest():
    centre = GRID.parse_label("10.07")
    ring = [GRID.label(*GRID.step(*centre, side)) for side in range(6)]
    rules = make({"10.05": (["open"], 1), "10.07": (["woods"], 0), **{h: (["woods"], 0) for h in ring}})
    answer = check(rules, "10.05", "10.09")
    assert answer.result == "blocked"
    assert ("10.07", "forest", "blocking") in [(r.hex, r.terrain, r.effect) for r in answer.reasons]


def test_woods_at_the_map_edge_stays_woods():
    grid = Grid("flat", 6, 8, "odd", labels="xx.yy")
    edge = grid.parse_label("01.04")
    around = [grid.label(*h) for h in grid.neighbours(*edge)]
    assert len(around) < 6
    rules = make({"01.04": (["woods"], 0), **{h: (["woods"], 0) for h in around}}, grid=grid)
    assert rules.level[rules.cmap.index_of("01.04")] == 1  # level 1: woods, not forest


def test_a_custom_profile_rating_hindering_is_an_obstruction_and_says_so():
    profile = rulesets.from_dict({"id": "tocs-house", "name": "House", "base": "tocs", "extends_base": True,
                                  "terrain": [{"id": "vineyard", "name": "Vineyard", "layer": "hex",
                                               "los": "hindering", "height": 1, "movement": {}, "cover": None,
                                               "rule": None}]}, where="house.json")
    cells = {GRID.parse_label("10.05"): Cell(terrain=("open",), level=1),
             GRID.parse_label("10.07"): Cell(terrain=("vineyard",), level=0)}
    doc = MapDoc(name="t", ruleset="tocs-house", grid=GRID, default_terrain=("open",), hexes=cells)
    answer = check(Rules(CompiledMap(doc, profile)), "10.05", "10.09")
    assert (answer.result, answer.hindrances) == ("blocked", 0)
    assert any("no hindered observation" in note for note in answer.assumptions)


def test_hill_between_blocks_observation():
    rules = make({"10.05": (["open"], 1), "10.07": (["open"], 1)})
    answer = check(rules, "10.05", "10.09")
    assert answer.result == "blocked" and answer.reasons[0].terrain == "hill (level 1)"
