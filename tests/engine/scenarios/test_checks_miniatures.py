"""The miniatures quick reference's checks (issue 18, point 3), each passing on a legal force and breaking where the
sheet says: trucks and half-tracks never in one platoon, an armoured car no truck (QRS L388); trucks and half-tracks
attached to an infantry (or ATG) platoon, which may have up to 3 half-tracks, 2 trucks, 1 ATG and 1 AFV (L388-389);
the sniper more than 8" from the nearest enemy unit, not from the enemy's empty setup hexes (L333). Built on the
Village sample: 2" hexes, the German zone A1-H6, Soviet units placed in L9, N10 and K10."""

import json

import pytest

from engine.scenarios import checks as scenario_checks
from tests.scenarios.conftest import SAMPLES, parse

VILLAGE = next(p for p in SAMPLES if p.stem == "village-on-the-dnieper")


@pytest.fixture
def village():
    return json.loads(VILLAGE.read_text(encoding="utf-8"))


def german(data):
    return data["sides"][0]


def add(data, id, type, formation, count=1, element="attached", **extra):
    classes = {"truck": "wheeled", "half-track": "half-tracked", "armoured-car": "wheeled", "tank": "tracked",
               "gun": "guns"}
    german(data)["oob"].append({"id": id, "unit": extra.pop("unit", type.title()), "count": count, "type": type,
                                "class": classes.get(type, "infantry"), "formation": formation, "element": element,
                                **extra})
    return len(german(data)["oob"]) - 1


def found(data, maps, code="miniatures-attachments"):
    return [f for f in scenario_checks.check(parse(data, maps)) if f.code == code]


# -- trucks and half-tracks (L388) ---------------------------------------------------------------------------------

def test_trucks_or_half_tracks_attached_to_an_infantry_platoon_pass(village, sample_maps):
    add(village, "opel", "truck", "1st Grenadier platoon", count=2)
    add(village, "251", "half-track", "2nd Grenadier platoon", count=3)
    assert found(village, sample_maps) == []


def test_attached_trucks_and_half_tracks_in_one_platoon_are_refused(village, sample_maps):
    """Attached elements are the platoon's too: the old check read only the platoon's own elements."""
    add(village, "opel", "truck", "1st Grenadier platoon")
    n = add(village, "251", "half-track", "1st Grenadier platoon", unit="SdKfz 251")
    bad = found(village, sample_maps)
    assert [f.path for f in bad] == [f"sides[0].oob[{n}].formation"]
    assert "SdKfz 251 (German OOB line 18) is a half-track in 1st Grenadier platoon, which also has trucks" in \
        bad[0].message and "QRS L388" in bad[0].message


def test_an_armoured_car_is_not_a_truck(village, sample_maps):
    add(village, "opel", "truck", "1st Grenadier platoon")
    add(village, "sdkfz222", "armoured-car", "1st Grenadier platoon")
    assert found(village, sample_maps) == []


def test_an_armoured_car_need_not_be_attached(village, sample_maps):
    """A/C, tanks and ATGs may be independent platoons (L388)."""
    add(village, "sdkfz222", "armoured-car", "Recce platoon", count=2, element="platoon")
    assert found(village, sample_maps) == []


# -- attached to an infantry or ATG platoon (L389) ----------------------------------------------------------------

@pytest.mark.parametrize("formation, said", [(None, "it names no platoon"), ("Truck column", "Truck column has none"),
                                             ("StuG platoon", "StuG platoon has none")])
def test_a_truck_not_attached_to_an_infantry_or_gun_platoon_is_refused(village, sample_maps, formation, said):
    n = add(village, "opel", "truck", formation, unit="Opel Blitz")
    bad = found(village, sample_maps)
    assert [f.path for f in bad] == [f"sides[0].oob[{n}].formation"]
    assert bad[0].message.startswith("Opel Blitz (German OOB line 17) is a Truck, which must be attached to an "
                                     "infantry, weapon team or gun platoon; ") and said in bad[0].message
    assert "QRS L389" in bad[0].message


def test_a_half_track_may_tow_for_a_gun_platoon(village, sample_maps):
    add(village, "pak", "gun", "PaK platoon", count=2, element="platoon")
    add(village, "251", "half-track", "PaK platoon", count=2)
    assert found(village, sample_maps) == []


# -- what an infantry platoon may have attached (L388) -------------------------------------------------------------

@pytest.mark.parametrize("type, most", [("half-track", 3), ("truck", 2), ("gun", 1), ("tank", 1), ("mortar", 1)])
def test_at_most_so_many_attached_to_an_infantry_platoon(village, sample_maps, type, most):
    n = add(village, "extra", type, "3rd Grenadier platoon", count=most)
    assert found(village, sample_maps) == []
    german(village)["oob"][n]["count"] = most + 1
    bad = found(village, sample_maps)
    assert [f.path for f in bad] == [f"sides[0].oob[{n}].count"]
    assert f"3rd Grenadier platoon is an infantry platoon with {most + 1} " in bad[0].message
    assert f"it may have up to {most} " in bad[0].message


def test_two_mortars_in_an_infantry_platoon_are_refused(village, sample_maps):
    """L388: "1 Mortar"; the Grenadier template's own optional mortar (L383) counts as the platoon's one."""
    add(village, "mtr", "mortar", "1st Grenadier platoon", element="platoon", unit="80mm mortar")
    assert found(village, sample_maps) == []
    add(village, "mtr2", "mortar", "1st Grenadier platoon", unit="80mm mortar")
    bad = found(village, sample_maps)
    assert len(bad) == 1 and "with 2 mortars" in bad[0].message and "QRS L388" in bad[0].message


def test_a_truck_may_carry_an_hmg_platoon(village, sample_maps):
    """L389 "infantry (or ATG) platoon": HMGs move as infantry (L29), so an HMG platoon is an infantry one."""
    add(village, "hmg", "weapon-team", "MG platoon", count=2, element="platoon", unit="HMG")
    add(village, "opel", "truck", "MG platoon", unit="Opel Blitz")
    assert found(village, sample_maps) == []


def test_a_tank_and_an_armoured_car_are_two_afvs(village, sample_maps):
    add(village, "pz", "tank", "1st Grenadier platoon")
    add(village, "ac", "armoured-car", "1st Grenadier platoon")
    bad = found(village, sample_maps)
    assert len(bad) == 1 and "with 2 AFVs" in bad[0].message and "up to 1 AFV attached" in bad[0].message


def test_a_tank_platoon_is_not_limited_as_an_infantry_platoon(village, sample_maps):
    """The Soviet tank company fielded as a single unit has 5 tanks (L11)."""
    assert found(village, sample_maps) == []
    assert village["sides"][1]["oob"][10]["count"] == 5


# -- the sniper (L333) ---------------------------------------------------------------------------------------------

def sniper_at(data, hex):
    german(data)["placements"].append({"unit": "sniper", "hex": hex, "facing": None})


def test_a_sniper_within_8_inches_of_the_enemys_empty_setup_hexes_passes(village, sample_maps):
    """H6 is 3 hexes (6") from the Soviet zone's J8, but 5 hexes (10") from the nearest Soviet unit, in L9."""
    sniper_at(village, "H6")
    assert found(village, sample_maps, "miniatures-sniper") == []


def test_a_sniper_within_8_inches_of_an_enemy_unit_is_refused_on_its_hex(village, sample_maps):
    sniper_at(village, "G7")
    assert found(village, sample_maps, "miniatures-sniper") == []  # 5 hexes from L9 and K10: 10"
    german(village)["placements"][-1]["hex"] = "H7"
    bad = found(village, sample_maps, "miniatures-sniper")
    assert [(f.hex, f.severity) for f in bad] == [("H7", "error")]
    assert "Sniper (German OOB line 16) sets up in H7, 8\" (4 hexes of 2\") from the Soviet unit in L9" in \
        bad[0].message


def test_a_sniper_near_two_enemies_in_one_hex_names_the_nearest(village, sample_maps):
    """Two sides in one hex is a finding of its own, not a crash of this one."""
    village["sides"].append({**village["sides"][1], "id": "allied", "name": "Allied", "victory": None})
    sniper_at(village, "H7")
    bad = found(village, sample_maps, "miniatures-sniper")
    assert [f.hex for f in bad] == ["H7"] and "unit in L9" in bad[0].message


def test_a_sniper_with_no_enemy_on_the_map_passes(village, sample_maps):
    village["sides"][1]["placements"] = []
    sniper_at(village, "H6")
    assert found(village, sample_maps, "miniatures-sniper") == []


def test_village_validates_and_does_not_claim_a_worked_example(village, sample_maps):
    assert [str(f) for f in scenario_checks.check(parse(village, sample_maps))] == []
    intro = village["introduction"]
    assert "worked example for the activation deck" not in intro
    assert "The forces are the designer's choice" in intro and "the sheet gives no worked example" in intro
