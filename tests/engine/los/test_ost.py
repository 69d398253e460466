"""Old School Tactical LOS: the rulebook's worked examples (as its digest, section 6, rebuilds them), the
decisions of engine/games/ost/rules.md, and the reference evaluator against the compiled kernel on random maps.

Every example goes through ``los()``, which also asks the kernel for the same pair both ways and the reference
for the reverse line, so each one checks the fast path and reciprocity too. Lines run down one column of a
flat-topped map (C2 to C6 crosses C3, C4 and C5) unless the example needs a hexside or a corner.
"""

import json
import random
from pathlib import Path

import numpy as np
import pytest

from engine import rulesets
from engine.games.ost.los import ASSUME_CORNER, ASSUME_FOOT, ASSUME_SLOPE, ASSUME_STOREYS_ON_HILL, Rules
from engine.hexgrid import Grid
from engine.los.answer import RESULT_CODE
from engine.los.compiled import CompiledMap
from engine.los.trace import ALONG, CORNER, HEX, trace
from engine.mapfile import Cell, MapDoc


def square(grid, label, dx=0.0, dy=0.0, half=0.35):
    """Art: a square of the given half-size around a point near the hex's centre."""
    cx, cy = grid.centre(*grid.parse_label(label))
    x, y = cx + dx, cy + dy
    return ((x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)),


def build(hexes=None, hexsides=None, markers=(), columns=12, rows=24, options=None, orientation="flat",
          stagger="even", art=None):
    """Rules over a small map: hexes {label: dict(terrain=.., level=.., storeys=..)}, hexsides
    {(label, side): id}, art {label: (dx, dy, half)} (a square off the hex's centre)."""
    grid = Grid(orientation, columns, rows, stagger)
    cells = {}
    for label, spec in (hexes or {}).items():
        shape = (art or {}).get(label)
        cells[grid.parse_label(label)] = Cell(
            terrain=tuple(spec.get("terrain", ("open",))), level=spec.get("level", 0),
            storeys=spec.get("storeys", 1), art=square(grid, label, *shape) if shape else None)
    for label in (art or {}):
        assert label in (hexes or {}), f"art for {label} needs an entry in hexes"
    sides = {grid.hexside(*grid.parse_label(label), side): tid for (label, side), tid in (hexsides or {}).items()}
    doc = MapDoc(name="t", ruleset="ost", grid=grid, hexes=cells, hexsides=sides,
                 extensions={"rules": options} if options else {})
    return Rules(CompiledMap(doc, rulesets.get("ost"), markers))


def los(rules, a, b, from_level=None, to_level=None, **units):
    """The reference answer from a to b; checks the kernel (both ways) and the reverse answer agree with it."""
    grid = rules.cmap.grid
    ha, hb = grid.parse_label(a), grid.parse_label(b)
    ia, ib = grid.index(*ha), grid.index(*hb)
    la = rules.unit_level(ia) if from_level is None else from_level
    lb = rules.unit_level(ib) if to_level is None else to_level
    answer = rules.evaluate(trace(grid, ha, hb), la, lb, **units)
    if not units:
        result, hindrances, blind = rules.batch(np.array([ia, ib], np.int32), np.array([ib, ia], np.int32),
                                                np.array([la, lb], np.int32), np.array([lb, la], np.int32))
        code = RESULT_CODE[answer.result]
        assert result.tolist() == [code, code]
        assert hindrances.tolist() == [answer.hindrances] * 2
        assert blind.tolist() == [answer.blind] * 2
        back = rules.evaluate(trace(grid, hb, ha), lb, la)
        assert (back.result, back.hindrances, back.blind) == (answer.result, answer.hindrances, answer.blind)
        assert back.reasons == answer.reasons[::-1]
    return answer


def effects(answer):
    return [(r.hex, r.hexside, r.terrain, r.effect) for r in answer.reasons]


def steps_of(rules, a, b):
    grid = rules.cmap.grid
    t = trace(grid, grid.parse_label(a), grid.parse_label(b))
    return [(s.kind, [grid.label(*h) for h in s.hexes]) for s in t.steps]


HILL_HMG = {"C1": {"level": 1}, "C2": {"level": 1}}  # an HMG on C2, a level-1 crest facing south


# -- 12.1-12.3: clear, degraded, blocked ---------------------------------------------------------------

def test_W1_own_hexes_never_count():
    rules = build({"C2": {"terrain": ["brush"]}, "C6": {"terrain": ["woods"]}})
    answer = los(rules, "C2", "C6")
    assert (answer.result, answer.hindrances, answer.term) == ("clear", 0, "Clear")
    assert answer.reasons == []


def test_W2a_open_line_is_clear():
    assert los(build(), "C2", "C8").result == "clear"


def test_W2b_one_brush_hex_degrades():
    answer = los(build({"C4": {"terrain": ["brush"]}}), "C2", "C6")
    assert (answer.result, answer.hindrances, answer.term) == ("hindered", 1, "Degraded (-1 FP)")
    assert effects(answer) == [("C4", None, "brush", "hindering")]
    assert answer.reasons[0].rule == "OST 14.2.4"


def test_W2c_structure_art_on_the_line_blocks():
    rules = build({"C4": {"terrain": ["light-structure"]}}, art={"C4": (0, 0, 0.4)})
    answer = los(rules, "C2", "C6")
    assert answer.result == "blocked" and not answer.blind
    assert effects(answer) == [("C4", None, "light-structure", "blocking")]


def test_W3_structure_hex_crossed_off_its_art_degrades():
    rules = build({"C4": {"terrain": ["heavy-structure"]}}, art={"C4": (0.6, 0, 0.25)})
    answer = los(rules, "C2", "C6")
    assert (answer.result, answer.hindrances) == ("hindered", 1)
    assert answer.reasons[0].rule == "OST 12.2.3"


def test_W15_third_degrading_hex_blocks():
    rules = build({label: {"terrain": ["brush"]} for label in ("C3", "C4", "C5")})
    answer = los(rules, "C2", "C6")
    assert (answer.result, answer.hindrances, answer.blind) == ("blocked", 3, False)
    two = los(build({label: {"terrain": ["brush"]} for label in ("C3", "C4")}), "C2", "C6")
    assert (two.result, two.term) == ("hindered", "Degraded (-2 FP)")


def test_woods_blocks_at_the_same_level_and_keeps_counting():
    rules = build({"C3": {"terrain": ["woods"]}, "C5": {"terrain": ["orchard"]}})
    answer = los(rules, "C2", "C7")
    assert (answer.result, answer.hindrances) == ("blocked", 1)
    assert effects(answer) == [("C3", None, "woods", "blocking"), ("C5", None, "orchard", "hindering")]


# -- 14.0.8, Q2: along a hexside and through a corner -----------------------------------------------------

def test_W5a_along_a_hexside_the_heavier_side_wins():
    hexes = {"N20": {"terrain": ["brush"]}, "O20": {"terrain": ["woods"]}}
    rules = build(hexes, columns=20, rows=24)
    assert steps_of(rules, "N21", "O19") == [(ALONG, ["N20", "O20"])]
    answer = los(rules, "N21", "O19")
    assert answer.result == "blocked"
    assert effects(answer) == [("O20", "N20/SE", "woods", "blocking")]


def test_W5b_brush_beside_open_degrades_once():
    for hexes in ({"N20": {"terrain": ["brush"]}}, {"N20": {"terrain": ["brush"]}, "O20": {"terrain": ["brush"]}}):
        answer = los(build(hexes, columns=20, rows=24), "N21", "O19")
        assert (answer.result, answer.hindrances) == ("hindered", 1)


def test_corner_graze_touches_the_hex_like_a_hexside_line():
    path = [(HEX, ["E9"]), (CORNER, ["D9"]), (HEX, ["E8"]), (HEX, ["D8"]), (CORNER, ["E7"]), (HEX, ["D7"])]
    rules = build({"D9": {"terrain": ["woods"]}})
    assert [s for s in steps_of(rules, "E10", "D6") if s[0] != "side"] == path
    answer = los(rules, "E10", "D6")
    assert answer.result == "blocked"
    assert effects(answer) == [("D9", None, "woods", "blocking")]
    assert ASSUME_CORNER in answer.assumptions
    brush = los(build({"D9": {"terrain": ["brush"]}, "E9": {"terrain": ["brush"]}}), "E10", "D6")
    assert brush.hindrances == 2  # the hex crossed and the corner touched: two elements


# -- 12.4-12.5: levels, hills, blind hexes ---------------------------------------------------------------

def test_W4a_hill_art_on_the_line_blocks_lower_units():
    rules = build({"C4": {"level": 1}}, art={"C4": (0, 0, 0.4)})
    answer = los(rules, "C2", "C6")
    assert answer.result == "blocked"
    assert effects(answer) == [("C4", None, "hill (level 1)", "blocking")]


def test_W4b_hill_hex_crossed_off_its_art_degrades():
    rules = build({"C4": {"level": 1}}, art={"C4": (0.55, 0, 0.3)})
    answer = los(rules, "C2", "C6")
    assert (answer.result, answer.hindrances) == ("hindered", 1)
    assert answer.reasons[0].rule == "OST 12.2.4"


def test_W6a_blind_hex_behind_woods():
    rules = build({**HILL_HMG, "C4": {"terrain": ["woods"]}})
    answer = los(rules, "C2", "C5")
    assert (answer.result, answer.blind) == ("blocked", True)
    assert effects(answer) == [("C4", None, "woods", "blind")]


def test_W6b_hedge_does_not_degrade_between_levels():
    rules = build(HILL_HMG, hexsides={("C4", "N"): "hedge", ("C6", "N"): "hedge"})
    answer = los(rules, "C2", "C6")
    assert (answer.result, answer.hindrances) == ("clear", 0)
    assert effects(answer) == [(None, "C4/N", "hedge", "ignored"), (None, "C6/N", "hedge", "ignored")]
    assert [r.rule for r in answer.reasons] == ["OST 12.4.9", "OST 15.0.10"]


def test_W6c_blind_hex_behind_a_one_storey_structure():
    answer = los(build({**HILL_HMG, "C4": {"terrain": ["light-structure"]}}), "C2", "C5")
    assert (answer.result, answer.blind) == ("blocked", True)


def test_W6d_degraded_blind_hex_behind_brush():
    answer = los(build({**HILL_HMG, "C4": {"terrain": ["brush"]}}), "C2", "C5")
    assert (answer.result, answer.hindrances, answer.blind) == ("hindered", 1, False)
    assert effects(answer) == [("C4", None, "brush", "blind-hindering")]


def test_W6e_blind_spot_is_one_hex_deep():
    answer = los(build({**HILL_HMG, "C4": {"terrain": ["woods"]}}), "C2", "C6")
    assert answer.result == "clear"
    assert effects(answer) == [("C4", None, "woods", "ignored")]


def test_W6_both_hexes_beside_a_spline_behind_an_obstacle_are_blind():
    # From L24 the line to O19 leaves the woods in N21 along the N20/O20 hexside: both N20 and O20 lie
    # directly behind the woods, and the lines to each of them have the woods as the last hex before them.
    rules = build({"L24": {"level": 1}, "N21": {"terrain": ["woods"]}}, columns=20, rows=24)
    assert [s for s in steps_of(rules, "L24", "O19") if s[0] != "side"][-2:] == [(HEX, ["N21"]),
                                                                                 (ALONG, ["N20", "O20"])]
    for target in ("N20", "O20"):
        answer = los(rules, "L24", target)
        assert (answer.result, answer.blind) == ("blocked", True), target
    assert los(rules, "L24", "O19").result == "clear"


def test_W7_crest_sees_down_plateau_does_not():
    hexes = {"C3": {"level": 1}, "C4": {"level": 1}, "C5": {"level": 1}}
    rules = build(hexes)
    assert los(rules, "C5", "C8").result == "clear"  # W7a: the line drops off the crest at once
    back = los(rules, "C5", "C1")  # W7b: back across C4 and C3, the same level
    assert back.result == "blocked" and not back.blind
    assert back.reasons[0].rule == "OST 12.5.2, 12.5.7"
    assert los(rules, "C5", "C1", to_level=1).result == "clear"  # W7c: same level is fine


def test_W8_lower_unit_sees_the_crest_not_the_plateau():
    rules = build({"C4": {"level": 1}, "C5": {"level": 1}, "C6": {"level": 1}})
    assert los(rules, "C2", "C5").result == "blocked"
    assert los(rules, "C2", "C4").result == "clear"


def test_W11_slope_has_no_blind_hex():
    rules = build({"C2": {"level": 3}, "C3": {"level": 2}, "C4": {"level": 1}})
    answer = los(rules, "C2", "C5")
    assert answer.result == "clear"
    assert ASSUME_SLOPE in answer.assumptions
    # 12.5.12: terrain in a slope hex still casts its blind hex.
    wooded = build({"C2": {"level": 3}, "C3": {"level": 2}, "C4": {"level": 1, "terrain": ["woods"]}})
    assert (los(wooded, "C2", "C5").result, los(wooded, "C2", "C5").blind) == ("blocked", True)
    # Not a slope: a flat hex between breaks the run, and the hill hex casts its blind hex.
    broken = build({"C1": {"level": 2}, "C2": {"level": 2}, "C3": {"level": 1}, "C4": {"level": 1}})
    assert (los(broken, "C2", "C5").result, los(broken, "C2", "C5").blind) == ("blocked", True)


def test_W12_seeing_over_a_lower_hill():
    low = build({"C1": {"level": 1}, "C2": {"level": 1}, "C4": {"level": 1}})
    assert los(low, "C2", "C6").result == "blocked"  # the same level as the hill: 12.5.5
    high = build({"C1": {"level": 2}, "C2": {"level": 2}, "C4": {"level": 1}})
    assert los(high, "C2", "C6").result == "clear"
    behind = los(high, "C2", "C5")
    assert (behind.result, behind.blind) == ("blocked", True)
    assert effects(behind) == [("C4", None, "hill (level 1)", "blind")]


def test_W13_hill_to_hill_ignores_ground_level_terrain():
    hexes = {"C2": {"level": 1}, "C7": {"level": 1}, "C4": {"terrain": ["woods"]}, "C5": {"terrain": ["brush"]}}
    answer = los(build(hexes), "C2", "C7")
    assert answer.result == "clear"
    assert [r.rule for r in answer.reasons] == ["OST 12.4.7, 12.5.14, 12.6.3"] * 2
    buildings = {"C2": {"terrain": ["light-structure"], "storeys": 2},
                 "C7": {"terrain": ["heavy-structure"], "storeys": 2},
                 "C4": {"terrain": ["woods"]}, "C5": {"terrain": ["light-structure"]}}
    assert los(build(buildings), "C2", "C7").result == "clear"


def test_W14_smoke_cannot_be_seen_over():
    rules = build({"C1": {"level": 2}, "C2": {"level": 2}}, markers=[{"hex": "C4", "kind": "smoke2"}])
    answer = los(rules, "C2", "C9")
    assert (answer.result, answer.hindrances) == ("hindered", 1)
    assert effects(answer) == [("C4", None, "smoke2", "hindering")]


def test_wrecks_degrade_and_are_seen_over_vehicles_do_nothing():
    markers = [{"hex": "C4", "kind": "wreck"}, {"hex": "C5", "kind": "vehicle"}, {"hex": "C6", "kind": "rubble"}]
    rules = build({"C1": {"level": 1}}, markers=markers)
    assert los(rules, "C2", "C8").hindrances == 2
    assert los(rules, "C2", "C8", from_level=1).result == "clear"
    assert los(rules, "C2", "C5", from_level=1).result == "hindered"  # the blind hex behind the wreck


# -- 12.6: structures --------------------------------------------------------------------------------------

def test_W9a_W9b_from_a_two_storey_structure():
    rules = build({"C2": {"terrain": ["light-structure"], "storeys": 2}, "C4": {"terrain": ["woods"]}})
    assert rules.unit_level(rules.cmap.index_of("C2")) == 1
    assert los(rules, "C2", "C6").result == "clear"
    blind = los(rules, "C2", "C5")
    assert (blind.result, blind.blind) == ("blocked", True)


def test_W10_multi_storey_building_always_blocks():
    hexes = {"C1": {"level": 3}, "C2": {"level": 3}, "C4": {"terrain": ["heavy-structure"], "storeys": 3}}
    rules = build(hexes, art={"C4": (0, 0, 0.4)})
    answer = los(rules, "C2", "C7")
    assert (answer.result, answer.blind) == ("blocked", False)
    assert answer.reasons[0].rule == "OST 12.6.2"


def test_structure_on_a_hill_adds_its_storeys():
    rules = build({"C2": {"level": 1, "terrain": ["ruins"], "storeys": 3}, "C5": {"terrain": ["light-structure"]}})
    assert rules.unit_level(rules.cmap.index_of("C2")) == 3
    assert rules.unit_level(rules.cmap.index_of("C5")) == 0
    answer = los(rules, "C2", "C8")
    assert answer.from_level == 3 and ASSUME_STOREYS_ON_HILL in answer.assumptions


def test_W22c_inside_one_building_only_adjacent_hexes():
    rules = build({label: {"terrain": ["heavy-structure"]} for label in ("C3", "C4", "C5")})
    inside = los(rules, "C3", "C5")
    assert inside.result == "blocked"
    assert [(r.hex, r.rule) for r in inside.reasons if r.rule == "OST 16.3.6"] == [("C3", "OST 16.3.6"),
                                                                                   ("C5", "OST 16.3.6")]
    assert los(rules, "C3", "C4").result == "clear"


def test_separate_buildings_are_not_one_structure():
    hexes = {label: {"terrain": ["light-structure"]} for label in ("C3", "C4", "C5")}
    rules = build(hexes, art={"C3": (0, 0, 0.3), "C4": (0, 0, 0.3), "C5": (0, 0, 0.3)})
    answer = los(rules, "C3", "C5")
    assert [r.rule for r in answer.reasons] == ["OST 16.1.5"]  # the art of C4 blocks, not 16.3.6


def test_heavy_urban_structures_block_in_whole():
    hexes = {"C4": {"terrain": ["light-structure"]}}
    art = {"C4": (0.6, 0, 0.25)}
    assert los(build(hexes, art=art), "C2", "C6").result == "hindered"
    assert los(build(hexes, art=art, options={"heavy_urban": True}), "C2", "C6").result == "blocked"


def test_W22a_W22b_map_3_open_hexes_and_the_inferred_grid():
    rules = build(columns=20, rows=24)
    assert los(rules, "N21", "N19").result == "clear"
    assert steps_of(rules, "N21", "O19") == [(ALONG, ["N20", "O20"])]
    assert los(rules, "N21", "O19").result == "clear"


def test_G1_ost_boards_are_flat_topped_with_column_a_lower():
    grid = Grid("flat", 30, 20, "even")
    assert grid.label(*grid.step(*grid.parse_label("Y11"), "NE", 3)) == "BB10"


# -- 15: hexside terrain -----------------------------------------------------------------------------------

def test_W16_two_walled_hexsides_of_one_hex_degrade_twice():
    rules = build(hexsides={("C4", "N"): "hedge", ("C4", "S"): "stone-wall"})
    answer = los(rules, "C2", "C7")
    assert (answer.result, answer.hindrances, answer.term) == ("hindered", 2, "Degraded (-2 FP)")
    assert effects(answer) == [(None, "C4/N", "hedge", "hindering"), (None, "C5/N", "stone-wall", "hindering")]


def test_W17_along_a_stone_wall_degrades_once():
    rules = build(hexsides={("N20", "SE"): "stone-wall"}, columns=20, rows=24)
    answer = los(rules, "N21", "O19")
    assert (answer.result, answer.hindrances) == ("hindered", 1)
    assert answer.reasons[0].rule == "OST 15.2.3, 15.0.11"


def test_W18_W20_hexside_of_the_target_hex_is_part_of_it():
    rules = build({"C6": {"terrain": ["cemetery"]}}, hexsides={("C6", "N"): "stone-wall", ("C6", "NE"): "hedge"})
    answer = los(rules, "C2", "C6")
    assert (answer.result, answer.hindrances) == ("clear", 0)
    assert effects(answer) == [(None, "C6/N", "stone-wall", "ignored")]


def test_W19_intervening_stone_wall_degrades():
    rules = build({"C6": {"terrain": ["orchard"]}}, hexsides={("C4", "S"): "stone-wall"})
    answer = los(rules, "C2", "C6")
    assert (answer.result, answer.hindrances) == ("hindered", 1)


def test_W21_bocage_foot_unit_fires_through_vehicle_does_not():
    rules = build(hexsides={("C5", "N"): "bocage"})
    rifle = los(rules, "C2", "C5")
    assert (rifle.result, rifle.hindrances) == ("clear", 0)
    assert ASSUME_FOOT in rifle.assumptions
    marder = los(rules, "C2", "C5", to_unit="vehicle")
    assert marder.result == "blocked" and marder.reasons[0].rule == "OST 15.3.7"
    assert los(rules, "C4", "C5", from_unit="foot", to_unit="vehicle").result == "clear"
    assert los(rules, "C4", "C5", from_unit="vehicle", to_unit="vehicle").result == "blocked"


def test_bocage_between_intervening_hexes():
    rules = build({"C1": {"level": 1}}, hexsides={("C4", "N"): "bocage"})
    assert los(rules, "C2", "C6").result == "blocked"
    assert los(rules, "C2", "C6", from_level=1).result == "clear"  # seen over from a higher level (Q13)
    assert los(rules, "C1", "C3", from_level=1, to_level=1).result == "clear"


def test_bocage_next_to_a_structure_only_into_the_hex_across():
    rules = build({"C5": {"terrain": ["light-structure"]}}, hexsides={("C5", "N"): "bocage"})
    assert los(rules, "C2", "C5").result == "blocked"
    assert los(rules, "C4", "C5").result == "clear"


def test_row_house_walls():
    one_storey = {label: {"terrain": ["light-structure"]} for label in ("C4", "C5")}
    wall = {("C4", "S"): "row-house-wall"}
    assert los(build(one_storey, hexsides=wall), "C4", "C5").result == "blocked"  # at the ends too
    art = {"C4": (0.6, 0, 0.2), "C5": (0.6, 0, 0.2)}
    high = {"C1": {"level": 1}, **one_storey}
    assert los(build(high, hexsides=wall, art=art), "C2", "C7").result == "blocked"  # same level
    assert los(build(high, hexsides=wall, art=art), "C2", "C7", from_level=1).result == "clear"  # seen over
    tall = {"C1": {"level": 1}, **one_storey, "C5": {"terrain": ["light-structure"], "storeys": 2}}
    assert los(build(tall, hexsides=wall, art=art), "C2", "C7", from_level=1).result == "blocked"


def test_steep_slope_has_no_los_effect():
    assert los(build(hexsides={("C4", "N"): "steep-slope"}), "C2", "C6").result == "clear"


# -- 12.5.9-12.5.10: gullies ---------------------------------------------------------------------------------

def test_gully_edge_sees_out_the_gully_floor_does_not():
    edge = build({"C2": {"level": -1}})
    assert los(edge, "C2", "C7").result == "clear"
    floor = build({"C2": {"level": -1}, "C3": {"level": -1}})
    answer = los(floor, "C2", "C7")
    assert answer.result == "blocked"
    assert answer.reasons[0].hex == "C2" and answer.reasons[0].rule == "OST 12.5.9"
    assert los(floor, "C2", "C3").result == "clear"


def test_gullies_do_not_affect_higher_levels_but_separate_gully_units():
    rules = build({"C4": {"level": -1}, "C5": {"level": -1}, "C2": {"level": -1}, "C7": {"level": -1}})
    assert los(rules, "C3", "C6").result == "clear"
    assert los(rules, "C2", "C5").result == "blocked"  # the ground between two gullies


# -- the compiled kernel against the reference ------------------------------------------------------------

TERRAIN_MIX = ["open"] * 14 + ["woods", "brush", "orchard", "cemetery", "light-structure", "heavy-structure",
                                "ruins", "rubble", "road", "olive-grove"]
HEXSIDE_MIX = ["hedge", "stone-wall", "bocage", "row-house-wall", "steep-slope"]
MARKER_MIX = ["smoke", "smoke2", "wreck", "rubble", "vehicle"]


def random_rules(seed, orientation, stagger, columns=9, rows=8):
    """A random map that uses every feature: levels, storeys, art, hexsides and markers."""
    rng = random.Random(seed)
    grid = Grid(orientation, columns, rows, stagger)
    cells = {}
    for col, row in grid.hexes():
        terrain = rng.choice(TERRAIN_MIX)
        level = rng.choice([0] * 8 + [1, 1, 1, 2, 2, 3, -1, -1])
        structure = terrain.endswith("structure") or terrain == "ruins"
        art = None
        if (terrain != "open" or level >= 1) and rng.random() < 0.5:
            cx, cy = grid.centre(col, row)
            x, y = cx + rng.uniform(-0.4, 0.4), cy + rng.uniform(-0.4, 0.4)
            w, h = rng.uniform(0.15, 0.9), rng.uniform(0.15, 0.9)
            art = (((x - w, y - h), (x + w, y - h), (x + w, y + h), (x - w, y + h)),)
        cells[(col, row)] = Cell(terrain=(terrain,), level=level, storeys=rng.choice([1, 1, 2, 3]) if structure else 1,
                                 art=art)
    hexsides = {grid.hexside(col, row, side): rng.choice(HEXSIDE_MIX)
                for col, row in grid.hexes() for side in range(3) if rng.random() < 0.12}
    markers = [{"hex": [rng.randrange(columns), rng.randrange(rows)], "kind": rng.choice(MARKER_MIX)}
               for _ in range(5)]
    doc = MapDoc(name="random", ruleset="ost", grid=grid, hexes=cells, hexsides=hexsides)
    return Rules(CompiledMap(doc, rulesets.get("ost"), markers)), rng


GRIDS = [(o, s) for o in ("flat", "pointy") for s in ("odd", "even")]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("orientation,stagger", GRIDS)
def test_kernel_matches_reference_on_every_pair(seed, orientation, stagger):
    rules, rng = random_rules(seed, orientation, stagger)
    grid, n = rules.cmap.grid, rules.cmap.n
    levels = rules.unit_levels()
    if seed == 2:  # levels given by the caller, as the engine's height option does
        levels = np.array([rng.choice([-1, 0, 1, 2, 3]) for _ in range(n)], dtype=np.int32)
    a = np.repeat(np.arange(n, dtype=np.int32), n)
    b = np.tile(np.arange(n, dtype=np.int32), n)
    result, hindrances, blind = rules.batch(a, b, levels[a], levels[b])
    seen = set()
    for p in range(len(a)):
        i, j = int(a[p]), int(b[p])
        answer = rules.evaluate(trace(grid, grid.from_index(i), grid.from_index(j)), int(levels[i]), int(levels[j]))
        got = (int(result[p]), int(hindrances[p]), bool(blind[p]))
        assert got == (RESULT_CODE[answer.result], answer.hindrances, answer.blind), answer.as_dict()
        seen.add((answer.result, answer.blind))
    assert {("clear", False), ("hindered", False), ("blocked", False), ("blocked", True)} <= seen


@pytest.mark.parametrize("orientation,stagger", GRIDS)
def test_reciprocity_on_every_pair(orientation, stagger):
    rules, rng = random_rules(7, orientation, stagger)
    grid, n = rules.cmap.grid, rules.cmap.n
    for i in range(n):
        for j in range(i + 1, n):
            a, b = grid.from_index(i), grid.from_index(j)
            la, lb = rng.choice([-1, 0, 1, 2]), rng.choice([-1, 0, 1, 2])
            there = rules.evaluate(trace(grid, a, b), la, lb)
            back = rules.evaluate(trace(grid, b, a), lb, la)
            assert (there.result, there.hindrances, there.blind) == (back.result, back.hindrances, back.blind)
            assert there.reasons == back.reasons[::-1]


def test_kernel_on_a_larger_map_sample():
    rules, rng = random_rules(11, "flat", "even", columns=30, rows=20)
    grid, n = rules.cmap.grid, rules.cmap.n
    a = np.array([rng.randrange(n) for _ in range(3000)], dtype=np.int32)
    b = np.array([rng.randrange(n) for _ in range(3000)], dtype=np.int32)
    levels = rules.unit_levels()
    result, hindrances, blind = rules.batch(a, b, levels[a], levels[b])
    for p in range(len(a)):
        i, j = int(a[p]), int(b[p])
        answer = rules.evaluate(trace(grid, grid.from_index(i), grid.from_index(j)), int(levels[i]), int(levels[j]))
        assert (int(result[p]), int(hindrances[p]), bool(blind[p])) == (
            RESULT_CODE[answer.result], answer.hindrances, answer.blind), answer.as_dict()


def test_brush_cites_14_2_4_as_docs_los_shows():
    # 14.2.4 "Degrades LOS." is the brush rule; 12.3.2 is the two-hex limit (issue 7 point 10).
    answer = los(build({"C6": {"terrain": ["brush"]}}), "C4", "C8")
    assert [(r.hex, r.terrain, r.effect, r.rule) for r in answer.reasons] == [("C6", "brush", "hindering",
                                                                              "OST 14.2.4")]
    docs = (Path(__file__).resolve().parents[3] / "docs" / "los.md").read_text(encoding="utf-8")
    example = json.loads(docs.split("```json\n", 1)[1].split("```", 1)[0])
    assert example["reasons"][0]["rule"] == "OST 14.2.4" and example["reasons"][0]["terrain"] == "brush"
    assert answer.term == example["term"]


def test_default_levels_raised_by_buildings_only_where_the_rules_put_units_upstairs():
    from engine.los.engine import compile_map, rules_for

    grid = Grid("flat", 3, 3, "even")
    expected = {"ost": ("light-structure", 3, 2), "assault": ("large-multi-storey-building", 1, 1),
                "miniatures": ("building", 2, 1), "ats": ("building", 3, 0), "tocs": ("city", 3, 0)}
    for ruleset, (building, storeys, level) in expected.items():
        cells = {(1, 1): Cell(terrain=(building,), level=0, storeys=storeys)}
        open_id = rulesets.get(ruleset).terrain_ids("hex")[0]
        doc = MapDoc(name="b", ruleset=ruleset, grid=grid, default_terrain=(open_id,), hexes=cells)
        rules = rules_for(compile_map(doc))
        assert rules.unit_level(grid.index(1, 1)) == level, ruleset
