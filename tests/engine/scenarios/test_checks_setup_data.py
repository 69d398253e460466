"""Set-up rules the checks read from catalogue data (issue 30, point 3), each with the break and its legal twin:
a vehicle's and a gun's facing (OST 9.0.5, 000 L627; 8.0.12, L576), an AT gun on a transport aircraft (26.1.1-2,
L1559-1560), an M weapon without its crew (ATS 3.6.4, 001 L196), a roadblock in a building with no road (9.8.2,
L1314), a blockhouse no special rule provides (9.3.1, L1208), a half-track in a building (8.3.61, L710) and a Heavy
weapon in rubble (8.22.4, L1030), and the messages that cite the rule they state."""

import copy
import json
import pathlib

import pytest

from tests.engine.scenarios.test_checks_ats import BASE, line
from tests.engine.scenarios.test_checks_ats import found as ats_found
from tests.engine.scenarios.test_checks_ats import scenario as ats
from tests.engine.scenarios.test_checks_ost import HILL, add, at, found, side


@pytest.fixture
def hill():
    return json.loads(HILL.read_text(encoding="utf-8"))


def codes(findings, code):
    return [(f.hex, f.severity) for f in findings if f.code == code]


# -- OST facings ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("type_, rule", [("vehicle", "9.0.5"), ("truck", "9.0.5"), ("gun", "8.0.12"),
                                         ("machine-gun", "8.0.12")])
def test_an_ost_vehicle_or_gun_faces_a_hexside_not_a_vertex(hill, sample_maps, type_, rule):
    add(hill, "german", ["R8"], facing="NE", id="x", unit="Panzer IV", type=type_, casualty_points=2)
    assert not found(hill, sample_maps, "unit-facing")
    side(hill, "german")["placements"][-1]["facing"] = 3
    bad = at(found(hill, sample_maps, "unit-facing"), "R8")
    assert bad and "Panzer IV (German OOB line" in bad[0].message and "faces vertex 3" in bad[0].message
    assert f"OST {rule}" in bad[0].message and "[" not in bad[0].message


def test_a_squad_has_no_facing_rule(hill, sample_maps):
    add(hill, "german", ["R8"], facing=3, id="x", unit="Rifle Squad", type="squad", casualty_points=2)
    assert not found(hill, sample_maps, "unit-facing")


# -- OST aircraft loadouts (26.1.1-2) ------------------------------------------------------------------------------

def _aircraft(hill, kind, cargo_type):
    add(hill, "british", ["A1"], facing="S", id="plane", unit="C-47" if kind == "transport-aircraft" else "Horsa",
        type=kind)
    add(hill, "british", ["A1"], id="cargo", unit="6-pdr AT gun", type=cargo_type, casualty_points=2)


def test_an_at_gun_may_not_ride_a_transport_aircraft(hill, sample_maps):
    _aircraft(hill, "transport-aircraft", "gun")
    bad = at(found(hill, sample_maps, "ost-loadout"), "A1")
    assert bad and "6-pdr AT gun" in bad[0].message and "26.1.1" in bad[0].message


def test_a_crewed_machine_gun_rides_a_transport_and_an_at_gun_a_glider(hill, sample_maps):
    twin = copy.deepcopy(hill)
    _aircraft(hill, "transport-aircraft", "machine-gun")
    assert not found(hill, sample_maps, "ost-loadout")
    _aircraft(twin, "glider", "gun")
    assert not found(twin, sample_maps, "ost-loadout")


# -- OST pillbox facing cites its own rule --------------------------------------------------------------------------

def test_the_pillbox_facing_message_cites_the_facing_rule_only(hill, sample_maps):
    hill["markers"].append({"kind": "pillbox", "hex": "T7", "side": "german", "facing": 2})
    bad = at(found(hill, sample_maps, "ost-pillbox-facing"), "T7")
    assert bad and "13.5.8" in bad[0].message and "13.5.3" not in bad[0].message


# -- ATS crews (3.6.4) ---------------------------------------------------------------------------------------------

def test_an_m_weapon_sets_up_with_its_crew():
    assert not ats_found(ats(("mmg", "D4"), ("crew", "D4")), "weapon-crew")
    bad = [f for f in ats_found(ats(("mmg", "D4"), ("sq", "D4")), "weapon-crew") if f.hex == "D4"]
    assert bad and "Vickers MMG (British OOB line" in bad[0].message and "ATS 3.6.4" in bad[0].message


def test_two_h_weapons_need_two_crews():
    assert codes(ats_found(ats(("gun", "D4"), ("gun", "D4"), ("crew", "D4"))), "weapon-crew") == [
        ("D4", "error")]
    assert not ats_found(ats(("gun", "D4"), ("gun", "D4"), ("crew", "D4"), ("crew", "D4")), "weapon-crew")


def test_a_weapon_arriving_without_a_crew_is_found():
    data = ats(("sq", "A1"))
    british = data["sides"][0]
    british["oob"].append(line("mmg2", "medium-weapon", unit="Vickers MMG"))
    british["reinforcements"] = [{"turn": 2, "units": [{"unit": "mmg2", "count": 1}], "edge": "W"}]
    bad = ats_found(data, "weapon-crew")
    assert bad and "arrives on turn 2" in bad[0].message
    british["oob"].append(line("crew2", "crew"))
    british["reinforcements"][0]["units"].append({"unit": "crew2", "count": 1})
    assert not ats_found(data, "weapon-crew")


# -- ATS emplacements and buildings -------------------------------------------------------------------------------

ROADS = copy.deepcopy(BASE["maps"][0]["document"])
ROADS["hexes"] += [{"hex": "D2", "terrain": ["building", "road"]}, {"hex": "D5", "terrain": ["building"]}]


def on_roads(*placements, markers=()):
    data = ats(*placements, markers=markers)
    data["maps"][0]["document"] = copy.deepcopy(ROADS)
    return data


def test_a_roadblock_goes_in_a_building_only_with_a_road():
    assert not ats_found(on_roads(markers=[("roadblock", "D2")]), "ats-emplacement-terrain")
    bad = ats_found(on_roads(markers=[("roadblock", "D5")]), "ats-emplacement-terrain")
    assert [f.hex for f in bad] == ["D5"] and "ATS 9.8.2" in bad[0].message


def test_a_roadblock_not_in_a_linear_depression():
    bad = ats_found(ats(markers=[("roadblock", "C2")]), "ats-emplacement-terrain")  # C2 is a wadi
    assert [f.hex for f in bad] == ["C2"] and "Linear Depression" in bad[0].message


def test_a_blockhouse_needs_a_special_rule():
    data = ats(markers=[("blockhouse", "E3")])
    bad = ats_found(data, "marker-by-ssr")
    assert [f.hex for f in bad] == ["E3"] and "ATS 9.3.1" in bad[0].message
    data["special_rules"] = ["The British player receives one Blockhouse, set up in his set-up area."]
    assert not ats_found(data, "marker-by-ssr")


def test_a_half_track_may_not_set_up_in_a_building_but_may_on_its_road():
    data = on_roads(("ht", "D5"))
    data["sides"][0]["oob"].append(line("ht", "half-tracked-vehicle", unit="M3 half-track",
                                        **{"class": "half-tracked"}))
    bad = ats_found(data, "forbidden-terrain")
    assert [f.hex for f in bad] == ["D5"] and "8.3.61" in bad[0].message and "M3 half-track" in bad[0].message
    data["sides"][0]["placements"][0]["hex"] = "D2"
    assert not ats_found(data, "forbidden-terrain")


def test_a_heavy_weapon_may_set_up_in_rubble():
    """8.22.4: "Heavy weapons may set up in Rubble hexes but may not ENTER during play"."""
    data = ats(("gun", "D4"), ("crew", "D4"))
    data["maps"][0]["document"]["hexes"].append({"hex": "D4", "terrain": ["rubble"]})
    assert not ats_found(data, "forbidden-terrain")


# -- OST On Road: a unit on the street is not in the structure (16.6.1-16.6.5) ---------------------------------------

def _street(hill):
    document = json.loads(pathlib.Path("maps/samples/hill-112.json").read_text(encoding="utf-8"))
    document["hexes"] = [dict(h, terrain=[*h["terrain"], "road"]) if h["hex"] == "R7" else h
                         for h in document["hexes"]]
    hill["maps"][0] = {"key": "hill", "document": document, "placement": [0, 0], "rotation": 0}


def test_a_flak_36_on_road_in_a_structure_and_road_hex_is_on_the_street(hill, sample_maps):
    _street(hill)
    add(hill, "german", ["R7"], facing="N", id="flak", unit="FlaK 36", type="flak-36", casualty_points=2)
    assert at(found(hill, sample_maps, "forbidden-terrain"), "R7")  # in the structure: 8.0.8
    side(hill, "german")["placements"][-1]["status"] = ["on-road"]
    assert not found(hill, sample_maps, "forbidden-terrain")


def test_on_road_without_a_road_is_still_in_the_structure(hill, sample_maps):
    add(hill, "german", ["R7"], facing="N", id="flak", unit="FlaK 36", type="flak-36", casualty_points=2)
    side(hill, "german")["placements"][-1]["status"] = ["on-road"]
    assert at(found(hill, sample_maps, "forbidden-terrain"), "R7")


def test_a_heavy_weapon_may_not_enter_by_rubble():
    """8.22.4: Heavy weapons "may not ENTER" rubble during play: a reinforcement whose every entry hex is rubble."""
    data = ats(("sq", "A1"))
    data["maps"][0]["document"]["hexes"] += [{"hex": h, "terrain": ["rubble"]} for h in ("A2", "A3")]
    british = data["sides"][0]
    british["oob"] += [line("gun2", "heavy-weapon", unit="6-pounder ATG"), line("crew2", "crew")]
    british["reinforcements"] = [{"turn": 2, "units": [{"unit": "gun2", "count": 1}, {"unit": "crew2", "count": 1}],
                                  "hexes": ["A2", "A3"]}]
    bad = ats_found(data, "entry-terrain")
    assert [f.hex for f in bad] == ["A2"] and "6-pounder ATG" in bad[0].message and "8.22.4" in bad[0].message
    british["reinforcements"][0]["hexes"].append("A4")  # open ground
    assert not ats_found(data, "entry-terrain")


def test_a_truck_may_not_enter_only_by_a_river():
    data = ats(("sq", "A1"))
    data["maps"][0]["document"]["hexes"] += [{"hex": "A2", "terrain": ["river"]}]
    british = data["sides"][0]
    british["oob"].append(line("lorry", "wheeled-vehicle", unit="Bedford truck"))
    british["reinforcements"] = [{"turn": 2, "units": [{"unit": "lorry", "count": 1}], "hexes": ["A2"]}]
    bad = ats_found(data, "entry-terrain")
    assert [f.hex for f in bad] == ["A2"] and "Bedford truck" in bad[0].message
