"""The ATS scenario checks (engine/games/ats/checks.py), each by the rulebook's own section, on small
scenarios: a set-up that obeys the rule passes, one that breaks it is found on the right hex with the right
severity; and the ATS samples validate with no finding at all."""

import copy
import json

import pytest

from engine.scenarios import checks as scenario_checks
from engine.scenarios import scenariofile
from tests.scenarios.conftest import SAMPLES, parse

# 8 x 6, flat, odd stagger: brush B2, building B3, a church with a steeple B4, a 2-storey building A6, wadi C2,
# railcars C3, shellholes C4, scrub D3, a bocage hexside north of A5; the rest open ground.
MAP = {
    "format": "hexside-map", "version": 1, "name": "ATS test", "ruleset": "ats",
    "grid": {"orientation": "flat", "columns": 8, "rows": 6, "stagger": "odd", "labels": "letter-number"},
    "defaults": {"terrain": ["open-ground"], "level": 0},
    "hexes": [
        {"hex": "B2", "terrain": ["brush"]}, {"hex": "B3", "terrain": ["building"]},
        {"hex": "B4", "terrain": ["building", "steeple"]}, {"hex": "A6", "terrain": ["building"], "storeys": 2},
        {"hex": "C2", "terrain": ["wadi"]}, {"hex": "C3", "terrain": ["railcars"]},
        {"hex": "C4", "terrain": ["shellholes"]}, {"hex": "D3", "terrain": ["scrub"]},
    ],
    "hexsides": [{"hex": "A5", "side": "N", "terrain": "bocage"}],
    "overlays": [],
}
BRITISH_ZONE = [f"{c}{r}" for c in "ABCDE" for r in range(1, 7)]
GERMAN_ZONE = [f"{c}{r}" for c in "GH" for r in range(1, 7)]


def line(id, type, count=1, hidden=False, **more):
    klass = {"fully-tracked-vehicle": "fully-tracked", "wheeled-vehicle": "wheeled"}.get(type, "personnel")
    return {"id": id, "unit": more.pop("unit", type.replace("-", " ").capitalize()), "count": count, "type": type,
            "class": klass, "hidden": hidden, **more}


BASE = {
    "format": "hexside-scenario", "version": 1, "title": "ATS checks", "ruleset": "ats",
    "maps": [{"key": "m", "document": MAP}],
    "turns": {"count": 6},
    "sets_up_first": "british",
    "rules": {"setup_order": ["british", "german"]},
    "sides": [
        {"id": "british", "name": "British",
         "oob": [line("sq", "squad", 12, unit="Para squad"), line("ldr", "leader", 2, unit="Lt."),
                 line("crew", "crew", 3), line("gun", "heavy-weapon", 2, unit="6-pounder ATG"),
                 line("mmg", "medium-weapon", unit="Vickers MMG"),
                 line("hgun", "heavy-weapon", 2, True, unit="6-pounder ATG"), line("hcrew", "crew", 2, True),
                 line("hldr", "leader", 1, True, unit="Lt."), line("hsq", "squad", 1, True, unit="Para squad"),
                 line("truck", "wheeled-vehicle", 2, unit="Bedford truck")],
         "setup_zone": BRITISH_ZONE, "placements": [],
         "victory": {"kind": "control", "objectives": ["church"]}},
        {"id": "german", "name": "German",
         "oob": [line("gren", "squad", 3, unit="Grenadier squad")],
         "setup_zone": GERMAN_ZONE, "placements": [{"unit": "gren", "hex": "G3"}],
         "victory": {"kind": "eliminate"}},
    ],
    "markers": [],
    "objectives": [{"id": "church", "hex": "B4", "name": "Church", "owner": "british"}],
}


def scenario(*placements, markers=(), **top):
    """The base scenario with British placements (unit, hex) and markers (kind, hex[, count[, side]])."""
    data = copy.deepcopy(BASE)
    british = data["sides"][0]
    british["placements"] = [{"unit": u, "hex": h} for u, h in placements]
    used = {}
    for u, _ in placements:
        used[u] = used.get(u, 0) + 1
    for entry in british["oob"]:  # every unit the OOB has is placed: none left to set up anywhere in the zone
        entry["count"] = max(1, used.get(entry["id"], 0))
    british["oob"] = [e for e in british["oob"] if e["id"] in used] or british["oob"][:1]
    if not placements:
        british["placements"] = [{"unit": "sq", "hex": "A1"}]
    data["markers"] = [{"kind": m[0], "hex": m[1], "count": m[2] if len(m) > 2 else 1,
                        "side": m[3] if len(m) > 3 else "british"} for m in markers]
    data.update(top)
    return data


def found(data, code=None):
    out = scenario_checks.check(parse(json.loads(json.dumps(data))))
    return [f for f in out if code is None or f.code == code]


def at(data, code):
    """(hex, severity) of each finding of the code."""
    return sorted((f.hex, f.severity) for f in found(data, code))


def test_the_base_scenario_is_clean():
    assert [str(f) for f in found(scenario(("sq", "A1")))] == []


# -- hidden set-up: terrain (6.8.11) ---------------------------------------------------------------------------

@pytest.mark.parametrize("hex", ["B2", "B3", "D3", "C2", "A5"],
                         ids=["brush", "building", "scrub", "wadi-down", "behind-bocage"])
def test_a_hidden_gun_in_hiding_terrain_passes(hex):
    """Brush (Obscuring, 1L), a building (Improved, 2L), scrub ("Hiding terrain", 8.24.3), a wadi (down and out of
    sight, 7.3.3) and a hex behind bocage (6.8.11's exception) all allow hidden set-up."""
    data = scenario(("hgun", hex), ("hcrew", hex))
    assert found(data, "ats-hidden-terrain") == [] and found(data, "ats-hidden") == []
    assert [f for f in found(data) if f.severity == "error"] == []


def test_a_hidden_gun_in_open_ground_is_an_error_on_its_hex():
    data = scenario(("hgun", "E3"), ("hcrew", "E3"), ("sq", "B2"))
    assert at(data, "ats-hidden-terrain") == [("E3", "error"), ("E3", "error")]
    message = found(data, "ats-hidden-terrain")[0].message
    assert "6-pounder ATG (British OOB line 2) sets up hidden in E3, Open Ground" in message
    assert "(ATS 6.8.11)" in message


def test_railcars_and_shellholes_hide_personnel_but_not_heavy_weapons():
    """8.18.3: only Personnel and their L and M weapons hide in Railcars; 8.25.3: shellholes give no cover to the
    crew of an H weapon, so no shift for it (Hexside's reading, the entry's `decided`)."""
    assert at(scenario(("hgun", "C3"), ("hcrew", "C3")), "ats-hidden-terrain") == [("C3", "error")]
    assert at(scenario(("hgun", "C4"), ("hcrew", "C4")), "ats-hidden-terrain") == [("C4", "error")]
    assert at(scenario(("hsq", "C3")), "ats-hidden-terrain") == []  # a squad hides there (a special rule aside)


def test_a_weapons_pit_lets_its_gun_hide_in_any_terrain_but_must_hold_it():
    """9.10.2: a Weapons Pit and its units hide in any terrain; 9.10.3: it holds one H weapon and its crew OR
    3 Stacking Points of Personnel, so a leader hidden with the gun in open ground has no room."""
    pit = [("weapons-pit", "E3")]
    assert found(scenario(("hgun", "E3"), ("hcrew", "E3"), markers=pit), "ats-hidden-terrain") == []
    assert found(scenario(("hgun", "E3"), ("hcrew", "E3"), markers=pit), "ats-stacking-limit") == []
    crowded = scenario(("hgun", "E3"), ("hcrew", "E3"), ("hldr", "E3"), markers=pit)
    assert ("E3", "error") in at(crowded, "ats-stacking-limit")
    two_pits = scenario(("hgun", "E3"), ("hcrew", "E3"), ("hldr", "E3"), markers=[("weapons-pit", "E3", 2)])
    assert [f for f in found(two_pits) if f.severity == "error"] == []


def test_only_the_weapons_pit_makes_open_ground_hiding_terrain():
    """9.10.2 gives the Weapons Pit alone the right to hide in any terrain; a Bunker's cover is not terrain that
    allows it (6.8.11), Hexside's reading (docs/scenarios.md, "ATS")."""
    assert at(scenario(("hgun", "E3"), ("hcrew", "E3"), markers=[("bunker", "E3")]), "ats-hidden-terrain") == [
        ("E3", "error"), ("E3", "error")]
    assert found(scenario(("hgun", "E3"), ("hcrew", "E3"), markers=[("weapons-pit", "E3", 1, None)]),
                 "ats-hidden-terrain") == []  # an unowned pit serves too


# -- hidden set-up: which units (6.8.1) ------------------------------------------------------------------------

def test_leaders_hide_with_a_hidden_gun_and_not_alone():
    assert found(scenario(("hgun", "B2"), ("hcrew", "B2"), ("hldr", "B2")), "ats-hidden") == []
    alone = scenario(("hldr", "B2"))
    assert at(alone, "ats-hidden") == [("B2", "error")]
    assert "Lt. (British OOB line 1) sets up hidden in B2 with no hidden Heavy weapon" in found(alone)[0].message
    assert "(ATS 6.8.1)" in found(alone)[0].message


def test_a_hidden_squad_needs_a_special_rule():
    """6.8.1: units other than H weapons, their crews and leaders with them hide "via SSR" only. With no special
    rule on hidden set-up it is an error; with one, a warning to check that it allows this unit."""
    data = scenario(("hsq", "B2"))
    assert [(f.path, f.hex, f.severity) for f in found(data, "ats-hidden")] == [
        ("sides[0].oob[0].hidden", None, "error")]
    assert "has none that speaks of hidden set-up (ATS 6.8.1)" in found(data, "ats-hidden")[0].message
    data = scenario(("hsq", "B2"), special_rules=["British squads in brush may set up hidden."])
    assert [(f.path, f.severity) for f in found(data, "ats-hidden")] == [("sides[0].oob[0].hidden", "warning")]
    assert at(scenario(("hldr", "B2"), special_rules=["The sniper hides."]), "ats-hidden") == [("B2", "warning")]


def test_a_hidden_gun_hides_its_crew_too():
    assert at(scenario(("hgun", "B2"), ("crew", "B2")), "ats-hidden") == [("B2", "warning")]
    assert at(scenario(("hgun", "B2"), ("hcrew", "B2")), "ats-hidden") == []


# -- emplacements: where they may be set up (9.1.4, 9.5.2 and the others) ---------------------------------------

@pytest.mark.parametrize("kind, hex", [("foxhole", "B3"), ("foxhole", "C2"), ("foxhole", "B4"), ("bunker", "B3"),
                                       ("sangar", "C2"), ("weapons-pit", "A6"), ("hedgehog", "B3")])
def test_emplacements_refused_in_buildings_and_depressions(kind, hex):
    data = scenario(("sq", "A1"), markers=[(kind, hex)])
    assert at(data, "ats-emplacement-terrain") == [(hex, "error")]


def test_a_foxhole_in_a_building_says_the_rule():
    data = scenario(("sq", "A1"), markers=[("foxhole", "B3")])
    assert "Foxhole marker in B3 may not be placed in Building terrain (ATS 9.5.2: Foxholes may not be placed in a " \
        "Building hex" in found(data)[0].message


@pytest.mark.parametrize("kind", ["foxhole", "bunker", "sangar", "weapons-pit", "hedgehog"])
def test_emplacements_in_open_ground_and_brush_pass(kind):
    assert found(scenario(("sq", "A1"), markers=[(kind, "E3"), (kind, "B2")]), "ats-emplacement-terrain") == []


def test_one_foxhole_bunker_blockhouse_or_hedgehog_per_hex():
    """9.1.4: only one Hedgehog, Bunker, Blockhouse or Foxhole marker in a hex."""
    assert at(scenario(("sq", "A1"), markers=[("foxhole", "E3", 2)]), "ats-emplacement-terrain") == [
        ("E3", "error")]
    assert at(scenario(("sq", "A1"), markers=[("bunker", "E3"), ("foxhole", "E3")]), "ats-emplacement-terrain") \
        == [("E3", "error")]
    assert found(scenario(("sq", "A1"), markers=[("weapons-pit", "E3", 2), ("foxhole", "E3")]),
                 "ats-emplacement-terrain") == []  # weapons pits are not limited to one a hex


# -- stacking: the hard limits (8.3.131, 9.3.3, 9.4.3, 9.9.3, 9.10.3) and the soft one (5.1.1, 5.3.1) -----------

def test_a_bunker_holds_a_gun_and_crew_or_three_stacking_points():
    assert found(scenario(("gun", "E3"), ("crew", "E3"), markers=[("bunker", "E3")]), "ats-stacking-limit") \
        == []
    assert found(scenario(("sq", "E3"), markers=[("bunker", "E3")]), "ats-stacking-limit") == []
    two = scenario(("sq", "E3"), ("sq", "E3"), markers=[("bunker", "E3")])
    assert at(two, "ats-stacking-limit") == [("E3", "warning")]  # the second squad sets up on top
    message = found(two, "ats-stacking-limit")[0].message
    assert "Personnel of at most 3 Stacking Points" in message and "(ATS 9.4.3)" in message
    assert "on top of it" in message


def test_a_blockhouse_holds_six_stacking_points_and_no_gun():
    assert found(scenario(("sq", "E3"), ("sq", "E3"), markers=[("blockhouse", "E3")]),
                 "ats-stacking-limit") == []
    assert at(scenario(("sq", "E3"), ("sq", "E3"), ("sq", "E3"), markers=[("blockhouse", "E3")]),
              "ats-stacking-limit") == [("E3", "warning")]
    assert at(scenario(("gun", "E3"), ("crew", "E3"), markers=[("blockhouse", "E3")]),
              "ats-stacking-limit") == [("E3", "warning")]


def test_a_sangar_holds_a_vehicle():
    assert found(scenario(("truck", "E3"), markers=[("sangar", "E3")]), "ats-stacking-limit") == []
    assert at(scenario(("truck", "E3"), ("sq", "E3"), markers=[("sangar", "E3")]),
              "ats-stacking-limit") == [("E3", "warning")]


def test_a_steeple_holds_two_stacking_points_and_the_rest_are_told_so():
    """8.3.131: a warning, not an error: the placement does not say which of the church's locations a unit is in."""
    assert found(scenario(("sq", "B3"), ("sq", "B3")), "ats-stacking-limit") == []  # no steeple in B3
    assert found(scenario(("ldr", "B4"), ("ldr", "B4")), "ats-stacking-limit") == []
    data = scenario(("sq", "B4"))
    assert at(data, "ats-stacking-limit") == [("B4", "warning")]
    message = found(data, "ats-stacking-limit")[0].message
    assert "a Steeple holds Personnel of at most 2 Stacking Points" in message and "(ATS 8.3.131)" in message
    assert [f for f in found(data) if f.severity == "error"] == []


def test_a_steeple_adds_a_location_of_two_stacking_points():
    """8.3.131: the steeple holds 2 Stacking Points and may not be overstacked; the church's ground level holds
    12 before it is overstacked (5.3.1), so 14 in B4 need no overstacking and 15 do."""
    fourteen = [("sq", "B4")] * 4 + [("ldr", "B4")] * 2
    assert found(scenario(*fourteen), "overstacking") == []
    over = scenario(*fourteen, ("mmg", "B4"), ("crew", "B4"))
    assert at(over, "overstacking") == [("B4", "warning")]
    message = found(over, "overstacking")[0].message
    assert "8.3.131" in message
    # no "may not be overstacked ... overstacking is allowed" contradiction: only the other locations may be
    assert "its Steeple may not be overstacked, but its other locations may, with the penalties" in message
    assert "overstacking is allowed" not in message


def test_each_building_level_is_a_location():
    """5.1.2: stacking applies separately in each location; A6 has two levels."""
    assert found(scenario(*[("sq", "A6")] * 8), "overstacking") == []
    assert at(scenario(*[("sq", "A6")] * 9), "overstacking") == [("A6", "warning")]
    assert at(scenario(*[("sq", "E3")] * 5), "overstacking") == [("E3", "warning")]


def test_overstacking_a_bunker_hex_is_allowed_with_its_penalties():
    data = scenario(*[("sq", "E3")] * 5, markers=[("bunker", "E3")])
    assert at(data, "overstacking") == [("E3", "warning")]
    assert "double the usual entry cost" in found(data, "overstacking")[0].message


def test_one_heavy_weapon_per_hex_and_its_crew_not_counted():
    """5.2.1 one Heavy weapon per hex; 5.3.11 the crew manning it does not count."""
    assert at(scenario(("gun", "E3"), ("gun", "E3"), ("crew", "E3"), ("crew", "E3")), "overstacking") == [
        ("E3", "warning")]
    assert found(scenario(*[("sq", "E3")] * 4, ("gun", "E3"), ("crew", "E3")), "overstacking") == []
    assert at(scenario(*[("sq", "E3")] * 4, ("crew", "E3")), "overstacking") == [("E3", "warning")]


# -- who sets up first (3.5.3) ---------------------------------------------------------------------------------

def entering_germans(**top):
    data = scenario(("sq", "A1"), **top)
    german = data["sides"][1]
    german["placements"] = []
    german["reinforcements"] = [{"turn": 1, "units": [{"unit": "gren", "count": 3}], "edge": "E"}]
    return data


def test_the_side_that_does_not_enter_sets_up_first():
    assert found(entering_germans(), "ats-setup-order") == []
    wrong = entering_germans(sets_up_first="german", rules={"setup_order": ["german", "british"]})
    assert sorted(f.path for f in found(wrong, "ats-setup-order")) == ["rules.setup_order", "sets_up_first"]
    assert all(f.severity == "warning" for f in found(wrong, "ats-setup-order"))
    assert "British, who does not enter, sets up first (ATS 3.5.3)" in found(wrong, "ats-setup-order")[0].message


def test_no_initiative_roll_is_asked_for_when_one_side_enters():
    """3.5.3: with all of one side entering from off map, the rule itself says who sets up first."""
    assert found(entering_germans(sets_up_first=None, rules={}), "ats-setup-order") == []
    both_on_map = scenario(("sq", "A1"), sets_up_first=None, rules={})
    assert [f.path for f in found(both_on_map, "ats-setup-order")] == ["rules.setup_order"]
    assert "roll for Initiative" in found(both_on_map, "ats-setup-order")[0].message


def test_a_set_up_order_that_contradicts_who_sets_up_first():
    data = scenario(("sq", "A1"), sets_up_first="british", rules={"setup_order": ["german", "british"]})
    assert [(f.path, f.severity) for f in found(data, "ats-setup-order")] == [("rules.setup_order", "warning")]


# -- control of the set-up area (3.5.63a) ----------------------------------------------------------------------

@pytest.mark.parametrize("owner", ["german", None])
def test_an_objective_in_a_sides_set_up_area_is_that_sides(owner):
    data = scenario(("sq", "A1"))
    data["objectives"][0]["owner"] = owner
    assert at(data, "ats-control") == [("B4", "warning")]
    assert "Church (B4) is in British's set-up area, so British controls it from the start (ATS 3.5.63a)" in \
        found(data, "ats-control")[0].message


def test_an_objective_outside_the_set_up_areas_may_have_any_first_owner():
    data = scenario(("sq", "A1"))
    data["objectives"] = [{"id": "church", "hex": "F4", "name": "Church", "owner": "german"}]
    assert found(data, "ats-control") == []
    assert found(scenario(("sq", "A1")), "ats-control") == []  # owned by British, in British's area


# -- the samples -----------------------------------------------------------------------------------------------

ATS_SAMPLES = [p for p in SAMPLES if json.loads(p.read_text(encoding="utf-8"))["ruleset"] == "ats"]


@pytest.mark.parametrize("path", ATS_SAMPLES, ids=lambda p: p.stem)
def test_every_ats_sample_validates_with_no_finding(path, sample_maps):
    doc = scenariofile.parse(path.read_bytes(), sample_maps)
    assert [str(f) for f in scenario_checks.check(doc)] == []


def test_the_oosterbeek_gun_hides_in_crops_and_no_foxhole_is_in_a_building(sample_maps):
    path = next(p for p in ATS_SAMPLES if p.stem == "oosterbeek-crossroads")
    doc = scenariofile.parse(path.read_bytes(), sample_maps)
    board = scenario_checks.Board.of(doc)
    british = doc.data["sides"][0]
    gun = next(p for p in british["placements"] if p["unit"] == "6pdr")
    assert "crops" in board.terrain(gun["hex"])
    for marker in doc.data["markers"]:
        if marker["kind"] == "foxhole":
            assert not {"building", "house"} & set(board.terrain(marker["hex"])), marker
    assert "designer's choice" in doc.data["introduction"]


# -- the set-up data in a custom profile -----------------------------------------------------------------------

def test_a_profile_with_bad_set_up_data_is_refused_naming_the_path():
    from engine import rulesets

    entry = {"id": "pillbox", "name": "Pillbox", "layer": "marker", "los": "clear", "height": None, "movement": {},
             "cover": "Full", "rule": None, "column_shift": -1, "stacking_limit": {"points": "three"},
             "placing": {"barred": ["Building"]}, "hidden_barred": ["heavy-weapon"]}
    with pytest.raises(rulesets.RulesetError) as refused:
        rulesets.from_dict({"id": "ats-pillbox", "name": "Pillboxes", "base": "ats", "extends_base": True,
                            "terrain": [entry]})
    text = str(refused.value)
    for path in ("terrain[0].column_shift", "terrain[0].stacking_limit.points", "terrain[0].stacking_limit.rule",
                 "terrain[0].placing.barred", "terrain[0].placing.rule", "terrain[0].hidden_barred"):
        assert path in text, path
    good = dict(entry, column_shift=3, stacking_limit={"points": 2, "or_one": ["heavy-weapon"], "rule": "house"},
                placing={"barred": ["building"], "facing": None, "rule": "house"},
                hidden_barred={"kinds": ["vehicle"], "rule": "house"})
    profile = rulesets.from_dict({"id": "ats-pillbox", "name": "Pillboxes", "base": "ats", "extends_base": True,
                                  "terrain": [good]})
    assert profile.terrain["pillbox"]["stacking_limit"]["points"] == 2


def test_a_pontoon_bridge_may_never_be_overstacked():
    """8.31.531: overstacking a Pontoon Bridge is not allowed at all, so it is an error, not a penalty."""
    bridge = [("pontoon-bridge", "E3", 1, None)]
    assert found(scenario(*[("sq", "E3")] * 4, markers=bridge), "overstacking") == []
    over = scenario(*[("sq", "E3")] * 5, markers=bridge)
    assert at(over, "overstacking") == [("E3", "error")]
    assert "a Pontoon Bridge may never be overstacked (ATS 8.31.531)" in found(over, "overstacking")[0].message
    assert at(scenario(("truck", "E3"), ("truck", "E3"), markers=bridge), "overstacking") == [("E3", "error")]
