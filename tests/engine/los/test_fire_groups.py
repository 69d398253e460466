"""Fire groups (OST 27.8, 000 L1695; the rulebook's examples W23-W25 of 27.8.8): adjacent units firing as one at a
target, the degrading elements of their lines counted once over the group. A 12 x 8 flat map: brush in F4, and
the observers C4 and C5 firing at J4, each line answered alone by the engine as the check of the premise."""

import pytest

from engine import mapfile
from engine.los import engine
from engine.los.fire_groups import FireGroupError, fire_group


def board(hexes=(), hexsides=(), ruleset="ost"):
    doc = mapfile.parse({"format": "hexside-map", "version": 1, "name": "fire group", "ruleset": ruleset,
                         "grid": {"orientation": "flat", "columns": 12, "rows": 8, "stagger": "odd",
                                  "labels": "letter-number"},
                         "defaults": {"terrain": ["open"], "level": 0}, "hexes": list(hexes),
                         "hexsides": list(hexsides), "overlays": []})
    return engine.compile_map(doc)


BRUSH = {"hex": "F4", "terrain": ["brush"]}
HEDGE = {"hex": "E5", "side": "NE", "terrain": "hedge"}


def degrading(cmap, hex):
    line = engine.line_of_sight(cmap, hex, "J4")
    return [r.hex or r.hexside for r in line.reasons if r.effect == "hindering"]


def test_w23_both_lines_through_the_same_brush_cost_the_group_1_fp():
    cmap = board([BRUSH])
    assert degrading(cmap, "C4") == ["F4"] and degrading(cmap, "C5") == ["F4"]
    group = fire_group(cmap, ["C4", "C5"], "J4")
    assert group["may_fire"] and group["fp"] == -1 and [d["hex"] for d in group["degrading"]] == ["F4"]
    assert "27.8.7" in group["why"]


def test_w24_brush_on_one_line_and_a_hedge_on_the_other_cost_2_fp():
    cmap = board([BRUSH], [HEDGE])
    assert degrading(cmap, "C4") == ["F4"] and len(degrading(cmap, "C5")) == 2
    group = fire_group(cmap, ["C4", "C5"], "J4")
    assert group["may_fire"] and group["fp"] == -2 and len(group["degrading"]) == 2


def test_w25_three_degrading_elements_together_and_the_group_may_not_fire():
    cmap = board([BRUSH, {"hex": "G4", "terrain": ["brush"]}], [HEDGE])
    assert all(engine.line_of_sight(cmap, h, "J4").result != "blocked" for h in ("C4", "C5"))  # each alone fires
    group = fire_group(cmap, ["C4", "C5"], "J4")
    assert not group["may_fire"] and group["fp"] is None and len(group["degrading"]) == 3
    assert "3 degrading elements together, more than 2" in group["why"]


def test_a_blocked_line_and_units_too_far_apart():
    cmap = board([{"hex": "F4", "terrain": ["woods"]}])
    group = fire_group(cmap, ["C4", "C5"], "J4")
    assert engine.line_of_sight(cmap, "C4", "J4").result == "blocked"  # woods block (OST 14.5.6)
    assert not group["may_fire"] and "C4 has no LOS to J4" in group["why"]
    with pytest.raises(FireGroupError, match="not in the same or adjacent hexes"):
        fire_group(board(), ["C4", "F6"], "J4")


def test_a_game_without_fire_groups_says_so():
    with pytest.raises(FireGroupError, match="has no fire groups"):
        fire_group(board(ruleset="tocs"), ["C4", "C5"], "J4")
