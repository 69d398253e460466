"""Assault: Sicily '43's scenario checks (engine/games/assault/checks.py), each passing on a legal setup and
breaking on the right hex, on the Gela sample changed one thing at a time; the sample itself validates cleanly."""

import copy
import json

import pytest

from engine import rulesets
from engine.scenarios import checks, scenariofile
from tests.scenarios.conftest import ROOT, SAMPLE_MAPS, parse

GELA = ROOT / "authoring" / "samples" / "gela-piano-lupo.json"
GELA_MAP = json.loads((SAMPLE_MAPS / "gela-beachhead.json").read_text(encoding="utf-8"))


@pytest.fixture
def gela():
    return json.loads(GELA.read_text(encoding="utf-8"))


def found(data, maps, code):
    return [f for f in checks.check(parse(data, maps)) if f.code == code]


def side(data, sid):
    return next(s for s in data["sides"] if s["id"] == sid)


def unit(data, sid, uid, **values):
    line = {"id": uid, "unit": uid.title(), "count": 1}
    line.update(values)
    side(data, sid)["oob"].append(line)


def place(data, sid, uid, hex, facing=None):
    side(data, sid)["placements"].append({"unit": uid, "hex": hex, "facing": facing})


def marker(data, kind, hex, facing=None, sid="axis", count=1):
    data["markers"].append({"kind": kind, "hex": hex, "side": sid, "count": count, "facing": facing, "note": ""})


def only(findings, hex, severity="error"):
    assert findings, "no finding"
    assert all(f.hex == hex and f.severity == severity for f in findings), [str(f) for f in findings]
    return findings[0].message


def test_the_gela_sample_validates_cleanly(sample_maps):
    doc = scenariofile.parse(GELA.read_bytes(), sample_maps)
    assert [str(f) for f in checks.check(doc)] == []


# -- one unit per hex, transported units apart (5.8, 002 L436; 9.10, 9.10.1) ------------------------------------

def test_two_units_in_a_hex(gela, sample_maps):
    side(gela, "axis")["placements"][1]["hex"] = "0303"  # a second Panzergrenadier joins the first
    message = only(found(gela, sample_maps, "stacking"), "0303")
    assert "2 × Panzergrenadier (Axis OOB line 1) set up in 0303" in message and "002 L436" in message


def test_infantry_in_a_truck_and_tank_riders_are_not_counted(gela, sample_maps):
    unit(gela, "axis", "truck", type="transport", deck="vehicle")
    place(gela, "axis", "truck", "0204", 2)
    side(gela, "axis")["placements"][0]["hex"] = "0204"  # loaded in the truck
    side(gela, "axis")["placements"][1]["hex"] = "0302"  # a tank rider on the Tiger (9.10.1)
    assert found(gela, sample_maps, "stacking") == []


def test_artillery_does_not_ride_a_tank(gela, sample_maps):
    unit(gela, "axis", "pak", type="artillery", deck="artillery")
    place(gela, "axis", "pak", "0302", 1)  # the Tiger carries infantry only (9.10.1)
    only(found(gela, sample_maps, "stacking"), "0302")


def test_untyped_lines_are_read_by_their_class(gela, sample_maps):
    unit(gela, "axis", "lorry", **{"class": "wheeled"})
    unit(gela, "axis", "grenadiers", count=2, **{"class": "infantry"})
    place(gela, "axis", "lorry", "0204", 2)
    place(gela, "axis", "grenadiers", "0204")  # a wheeled vehicle may be a transport: not refused
    assert found(gela, sample_maps, "stacking") == []
    place(gela, "axis", "grenadiers", "0104")
    side(gela, "axis")["placements"][2]["hex"] = "0104"  # two infantry, no vehicle
    only(found(gela, sample_maps, "stacking"), "0104")


# -- facing (5.8, 002 L440; 9.9, 002 L1178; 9.7, 002 L1123) ---------------------------------------------------

def test_a_vehicle_faces_a_vertex_never_an_edge(gela, sample_maps):
    side(gela, "axis")["placements"][3]["facing"] = None
    message = only(found(gela, sample_maps, "assault-facing"), "0302")
    assert "Tiger I (Axis OOB line 2)" in message and "002 L1178" in message
    side(gela, "axis")["placements"][3]["facing"] = "E"
    assert "faces the E hexside" in only(found(gela, sample_maps, "assault-facing"), "0302")


def test_artillery_faces_a_vertex_unless_transported(gela, sample_maps):
    side(gela, "allies")["placements"][6]["facing"] = None
    assert "002 L440" in only(found(gela, sample_maps, "assault-facing"), "1112")
    unit(gela, "allies", "truck", type="transport", deck="vehicle")
    place(gela, "allies", "truck", "1112", 5)  # the gun is loaded: facing is irrelevant while transported
    assert found(gela, sample_maps, "assault-facing") == []


def test_infantry_have_no_facing(gela, sample_maps):
    assert found(gela, sample_maps, "assault-facing") == []
    side(gela, "axis")["placements"][0]["facing"] = 3
    only(found(gela, sample_maps, "assault-facing"), "0303", "warning")


# -- unarmoured vehicles and objectives (4.2.2, 9.6) -------------------------------------------------------------

def test_no_unarmoured_vehicle_on_an_objective(gela, sample_maps):
    unit(gela, "allies", "jeep", type="unarmoured-vehicle")
    side(gela, "allies")["placements"][0]["hex"] = "0910"  # the rifle squad leaves the Ridge road
    place(gela, "allies", "jeep", "1110", 2)
    assert "Ridge road" in only(found(gela, sample_maps, "assault-vehicle-objective"), "1110")


def test_an_armoured_vehicle_may_hold_an_objective(gela, sample_maps):
    side(gela, "allies")["placements"][0]["hex"] = "0910"
    unit(gela, "allies", "stuart", type="armoured-vehicle", deck="vehicle")
    place(gela, "allies", "stuart", "1110", 2)
    assert found(gela, sample_maps, "assault-vehicle-objective") == []
    unit(gela, "allies", "lorry", **{"class": "wheeled"})  # untyped wheeled: unarmoured (4.2.2)
    side(gela, "allies")["placements"][-1]["unit"] = "lorry"
    only(found(gela, sample_maps, "assault-vehicle-objective"), "1110")


# -- fortifications and obstacles on a vertex (9.5.7, 002 L904; 9.5.8, 002 L968) --------------------------------

@pytest.mark.parametrize("index, hex", [(0, "1110"), (1, "1211"), (2, "0806")])  # trench, sandbags, wreck
def test_fortifications_and_obstacles_are_aligned_to_a_vertex(gela, sample_maps, index, hex):
    assert found(gela, sample_maps, "assault-marker-vertex") == []
    gela["markers"][index]["facing"] = None
    only(found(gela, sample_maps, "assault-marker-vertex"), hex)
    gela["markers"][index]["facing"] = "NW"
    assert "faces the NW hexside" in only(found(gela, sample_maps, "assault-marker-vertex"), hex)


def test_smoke_and_mines_need_no_vertex(gela, sample_maps):
    gela["rules"]["minefields"] = True
    marker(gela, "smoke", "0605", count=2)
    marker(gela, "minefield-apm", "0606")
    marker(gela, "minefield-dummy", "0607")
    assert found(gela, sample_maps, "assault-marker-vertex") == []


# -- minefields (4.11; 9.5.9.1, 002 L1041, L1051-L1054) ----------------------------------------------------------

def with_mines(data):
    data["rules"]["minefields"] = True
    marker(data, "minefield-apm", "0606")
    marker(data, "minefield-dummy", "0607")


def test_minefields_only_when_the_scenario_allows_them(gela, sample_maps):
    with_mines(gela)
    gela["rules"]["minefields"] = False
    assert "Assault 4.11" in only(found(gela, sample_maps, "assault-minefields"), "0606")
    gela["rules"]["minefields"] = True
    assert found(gela, sample_maps, "assault-minefields") == []


def test_one_minefield_marker_per_hex(gela, sample_maps):
    with_mines(gela)
    assert found(gela, sample_maps, "assault-mines-per-hex") == []
    gela["markers"][-1]["hex"] = "0606"  # the dummy joins the real one
    assert "002 L1051" in only(found(gela, sample_maps, "assault-mines-per-hex"), "0606")
    gela["markers"][-1]["hex"] = "0607"
    gela["markers"][-2]["count"] = 2
    only(found(gela, sample_maps, "assault-mines-per-hex"), "0606")


@pytest.mark.parametrize("hex", ["1110", "0806"])  # the trench (a fortification), the wreck (an obstacle)
def test_no_mines_with_a_fortification_or_an_obstacle(gela, sample_maps, hex):
    with_mines(gela)
    assert found(gela, sample_maps, "assault-mines-fortification") == []
    gela["markers"][-2]["hex"] = hex
    assert "002 L1054" in only(found(gela, sample_maps, "assault-mines-fortification"), hex)


def test_no_at_mines_in_a_building(gela, sample_maps):
    with_mines(gela)
    gela["markers"][-2]["hex"] = "1302"  # an AP minefield in a single-storey building is allowed
    assert found(gela, sample_maps, "assault-at-mines-building") == []
    gela["markers"][-2]["kind"] = "minefield-atm"
    assert "002 L1052" in only(found(gela, sample_maps, "assault-at-mines-building"), "1302")


def test_at_mines_on_an_urban_alley_road(gela, sample_maps):
    """"AT mines may not be placed in buildings, but may be placed in urban alleys on the road" (002 L1052)."""
    with_mines(gela)
    gela["markers"][-2].update(kind="minefield-atm", hex="1302")
    document = copy.deepcopy(GELA_MAP)
    for entry in document["hexes"]:
        if entry["hex"] == "1302":
            entry["terrain"] = ["urban-alley"]
    gela["maps"] = [{"key": "gela", "document": document, "placement": [0, 0], "rotation": 0}]
    assert found(gela, None, "assault-at-mines-building") == []


def test_as_many_dummies_as_real_minefields_per_player(gela, sample_maps):
    with_mines(gela)
    marker(gela, "minefield-atm", "0604", sid="allies")
    marker(gela, "minefield-dummy", "0603", sid="allies")
    assert found(gela, sample_maps, "assault-mine-dummies") == []
    gela["markers"][-1]["side"] = "axis"  # Axis: 1 real, 2 dummies; Allies: 1 real, none
    messages = [f.message for f in found(gela, sample_maps, "assault-mine-dummies")]
    assert len(messages) == 2 and any(m.startswith("Allies: 1 real minefield and 0 dummies") for m in messages)


# -- formation cards (4.1, 002 L214; 5.6, 002 L408-L412) ----------------------------------------------------------

def test_one_experience_level_per_formation_card(gela, sample_maps):
    assert found(gela, sample_maps, "assault-formation-level") == []
    side(gela, "axis")["oob"][2]["quality"] = None  # Panzer III regular beside a veteran Tiger
    message = only(found(gela, sample_maps, "assault-formation-level"), None)
    assert "Schwere Kompanie" in message and "veteran: Tiger I (Axis OOB line 2)" in message
    assert "regular: Panzer III (Axis OOB line 3)" in message


def test_no_quality_reads_as_regular(gela, sample_maps):
    unit(gela, "allies", "bar", type="infantry", deck="infantry", formation="Rifle platoon", quality=None)
    assert found(gela, sample_maps, "assault-formation-level") == []  # beside the regular rifle squads


def test_formations_against_the_scenario_not_the_players_decks(gela, sample_maps):
    """Draw-and-choose draws twice the number from the player's own decks (5.6): the scenario's OOB need not
    hold twice its formations, but it may start with no more than the scenario gives."""
    side(gela, "axis")["fields"]["selection"] = "draw-and-choose"
    assert found(gela, sample_maps, "assault-formations") == []
    side(gela, "axis")["fields"]["formations"]["infantry"] = 3  # fewer than the limit: "up to" (5.6)
    assert found(gela, sample_maps, "assault-formations") == []
    side(gela, "axis")["fields"]["formations"] = {"infantry": 1}
    message = only(found(gela, sample_maps, "assault-formations"), None)
    assert "1 vehicle formation card (Schwere Kompanie)" in message and "gives 0 vehicle formations" in message


def test_a_reinforcing_formation_is_not_a_starting_one(gela, sample_maps):
    allies = side(gela, "allies")
    allies["oob"][3]["formation"] = "Sherman platoon"  # arrives on turn 4 (5.7)
    assert found(gela, sample_maps, "assault-formations") == []
    allies["placements"].append({"unit": "sherman", "hex": "1310", "facing": 5})
    allies["reinforcements"][0]["units"][0]["count"] = 1
    assert "Sherman platoon" in only(found(gela, sample_maps, "assault-formations"), None)


def test_a_random_draw_is_not_a_fixed_oob(gela, sample_maps):
    assert found(gela, sample_maps, "assault-random-draw") == []
    side(gela, "allies")["fields"]["selection"] = "random"
    message = only(found(gela, sample_maps, "assault-random-draw"), None)
    assert "Rifle platoon, 505th PIR and AT section" in message and "002 L412" in message


def test_a_random_draw_with_individual_units_only(gela, sample_maps):
    allies = side(gela, "allies")
    allies["fields"]["selection"] = "random"
    allies["placements"] = []
    allies["oob"] = [line for line in allies["oob"] if line["formation"] is None]  # the Shermans arriving
    assert found(gela, sample_maps, "assault-random-draw") == []


def test_draw_and_choose_lists_one_possible_draw(gela, sample_maps):
    side(gela, "axis")["fields"]["selection"] = "draw-and-choose"
    only(found(gela, sample_maps, "assault-random-draw"), None, "warning")


# -- what Assault does not have -----------------------------------------------------------------------------------

def test_no_casualty_points(gela, sample_maps):
    assert found(gela, sample_maps, "assault-no-casualty-points") == []
    side(gela, "allies")["victory"]["conditions"][1] = {"kind": "casualties", "points": 3, "who": "enemy"}
    findings = found(gela, sample_maps, "assault-no-casualty-points")
    assert [f.path for f in findings] == ["sides[1].victory.conditions[1]"]
    assert "Assault 3.1" in findings[0].message


def test_no_leaders_and_no_hidden_units(gela, sample_maps):
    side(gela, "axis")["oob"][0]["leader"] = True
    side(gela, "axis")["oob"][1]["hidden"] = True
    assert [f.path for f in found(gela, sample_maps, "assault-no-leaders")] == ["sides[0].oob[0].leader"]
    assert [f.path for f in found(gela, sample_maps, "assault-hidden")] == ["sides[0].oob[1].hidden"]


# -- TA/OAS (12.2) and the rest ------------------------------------------------------------------------------------

def test_ta_oas_limits(gela, sample_maps):
    assert found(gela, sample_maps, "assault-ta-oas") == []
    side(gela, "axis")["fields"]["ta_oas"] = 3  # 2 starting formations: the guideline is 2
    only(found(gela, sample_maps, "assault-ta-oas"), None, "warning")
    side(gela, "axis")["fields"]["ta_oas"] = 6
    assert "002 L2213" in only(found(gela, sample_maps, "assault-ta-oas"), None)


def test_objective_in_a_set_up_area_is_its_factions(gela, sample_maps):
    gela["objectives"][1]["owner"] = "axis"
    message = only(found(gela, sample_maps, "assault-objective-owner"), "1110")
    assert "Assault 5.5" in message and "but the scenario gives it to Axis" in message


# -- the catalogue says what a marker or a hex is ----------------------------------------------------------------------

def test_kinds_come_from_the_catalogue():
    assault = rulesets.get("assault")
    assert assault.kinds("trench") == ("fortification",) and assault.kinds("wreck") == ("obstacle", "wreck")
    assert "anti-tank" in assault.kinds("minefield-atm") and assault.kinds("urban-alley") == ("building",)
    profile = {"id": "assault-sicily-plus", "name": "Assault plus", "base": "assault", "extends_base": True,
               "terrain": [{"id": "trench", "name": "Deep trench", "layer": "marker", "los": "clear", "height": None,
                            "movement": {}, "cover": None, "rule": None},
                           {"id": "foxhole", "name": "Foxhole", "layer": "marker", "los": "clear", "height": None,
                            "movement": {}, "cover": None, "rule": None, "kinds": ["fortification"]}]}
    custom = rulesets.from_dict(profile, where="plus.json")
    assert custom.kinds("trench") == ("fortification",)  # kept from the base entry it replaces
    assert custom.kinds("foxhole") == ("fortification",)
    profile["terrain"][1]["kinds"] = ["Fortification", "fortification"]
    with pytest.raises(rulesets.RulesetError) as info:
        rulesets.from_dict(profile, where="plus.json")
    assert any("terrain[1].kinds" in e for e in info.value.errors)


@pytest.mark.parametrize("kind, legal, hex", [("smoke", 4, "0605"), ("wreck", 1, "0806")])
def test_smoke_and_wrecks_per_hex(gela, sample_maps, kind, legal, hex):
    """At most 4 smoke markers per hex (7.2, 002 L659); only one wreck marker per hex (9.5.8.5, 002 L1018)."""
    if kind == "smoke":
        marker(gela, "smoke", hex, count=legal)
    assert found(gela, sample_maps, "assault-markers-per-hex") == []
    marker(gela, kind, hex, facing=0)
    assert f"{legal + 1} {kind} markers in {hex}" in only(found(gela, sample_maps, "assault-markers-per-hex"), hex)


def test_a_side_drawing_its_formations_at_random_needs_no_oob(gela, sample_maps):
    """5.6 method 3 (002 L412): the draw gives the units, so an empty OOB is not 'not playable'."""
    allies = side(gela, "allies")
    allies["oob"], allies["placements"], allies["reinforcements"] = [], [], []
    allies["victory"] = None
    allies["fields"]["selection"] = "free"
    assert [f.path for f in found(gela, sample_maps, "not-playable")] == [f"sides[{gela['sides'].index(allies)}].oob"]
    allies["fields"]["selection"] = "random"
    allies["fields"]["formations"] = {"infantry": 2, "artillery": 1, "vehicle": 1}
    assert found(gela, sample_maps, "not-playable") == []
