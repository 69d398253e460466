"""Unit types as data (issue 18, point 2): an OOB line names its type, the checks read the type and never the
unit's name. Each misreading the issue quotes, the ATS stacking rules (5.1.1, 5.2.1, 5.3.11), a designer's own
type, a type that does not exist, and the catalogue's unit_types section checked."""

import json

import pytest

from engine import rulesets
from engine.games.ats.checks import ats_stack
from engine.scenarios import checks as scenario_checks
from engine.scenarios import scenariofile
from tests.scenarios.conftest import SAMPLES, parse

SAMPLE = {p.stem: p for p in SAMPLES}


def load(name):
    return json.loads(SAMPLE[name].read_text(encoding="utf-8"))


def side(data, sid):
    return next(s for s in data["sides"] if s["id"] == sid)


def oob(data, sid, uid):
    return next(u for u in side(data, sid)["oob"] if u["id"] == uid)


def add(data, sid, hexes, **unit):
    """An OOB line, one counter placed in each hex given."""
    unit.setdefault("count", len(hexes) or 1)
    side(data, sid)["oob"].append(unit)
    for ref in hexes:
        side(data, sid)["placements"].append({"unit": unit["id"], "hex": ref, "facing": None})


def findings(data, maps, code=None):
    found = scenario_checks.check(parse(data, maps))
    return [f for f in found if code is None or f.code == code]


# -- ATS: stacking read from the types ------------------------------------------------------------------------

def test_panzergrenadiere_count_the_stacking_points_of_their_type(sample_maps):
    """The name has no word the old guess knew ("squad", "team"...), so it counted 0 points; typed a squad, each
    counter is 3 Stacking Points (ATS 5.3.1): five in one hex are 15, over the 12."""
    d = load("oosterbeek-crossroads")
    add(d, "german", ["P5"] * 5, id="pzg", unit="Panzergrenadiere 6|5|8", type="squad", **{"class": "personnel"})
    found = findings(d, sample_maps, "overstacking")
    assert [(f.hex, f.severity) for f in found] == [("P5", "warning")]
    assert "15 Stacking Points" in found[0].message


def test_overstacking_is_a_warning_that_says_the_penalty(sample_maps):
    """ATS 5.1.1: a unit may enter a hex past the limit, with penalties (5.4.11 double entry cost, 5.4.12
    spotting): a warning naming them, not an error."""
    d = load("oosterbeek-crossroads")
    oob(d, "british", "para")["count"] = 9
    for _ in range(4):  # into the graveyard H7, one location (D6 is a 2-storey building: two, ATS 5.1.2)
        side(d, "british")["placements"].append({"unit": "para", "hex": "H7", "facing": None})
    found = findings(d, sample_maps)
    over = [f for f in found if f.hex == "H7" and f.code in ("overstacking", "stacking")]
    assert [(f.code, f.severity) for f in over] == [("overstacking", "warning")]
    assert "15 Stacking Points" in over[0].message  # 5 squads
    assert "double the usual entry cost" in over[0].message and "(ATS 5.1.1, 5.4.11, 5.4.12)" in over[0].message
    assert not [f for f in found if f.severity == "error"]


def test_a_legal_stack_with_a_heavy_weapon_and_its_crew_is_accepted(sample_maps):
    """Four squads (12 Stacking Points) with the 6-pounder and the crew manning it: the crew is not counted
    (ATS 5.3.11), so the stack is at the limit, not over it."""
    d = load("oosterbeek-crossroads")
    oob(d, "british", "para")["count"] = 9
    for _ in range(4):
        side(d, "british")["placements"].append({"unit": "para", "hex": "F5", "facing": None})
    assert findings(d, sample_maps, "overstacking") == []
    assert findings(d, sample_maps, "stacking") == []
    vehicles, heavy, points = ats_stack(parse(d, sample_maps), [
        (0, u) for u in side(d, "british")["oob"] if u["id"] in ("para", "6pdr", "crew")])
    assert (vehicles, heavy, points) == (0, 1, 3)  # one squad counted; the crew mans the gun


def test_a_crew_without_a_heavy_weapon_is_counted(sample_maps):
    d = load("oosterbeek-crossroads")
    oob(d, "british", "para")["count"] = 9
    for _ in range(4):
        side(d, "british")["placements"].append({"unit": "para", "hex": "F5", "facing": None})
    side(d, "british")["placements"] = [p for p in side(d, "british")["placements"] if p["unit"] != "6pdr"]
    found = findings(d, sample_maps, "overstacking")
    assert [f.hex for f in found] == ["F5"] and "14 Stacking Points" in found[0].message


def test_heavy_weapons_are_counted_one_per_hex(sample_maps):
    """ATS 5.2.1: two Heavy weapons in a hex overstack it (a vehicle and one Heavy weapon do not)."""
    d = load("oosterbeek-crossroads")
    add(d, "british", ["F5"], id="17pdr", unit="17-pounder ATG", type="heavy-weapon", **{"class": "personnel"})
    found = findings(d, sample_maps, "overstacking")
    assert [(f.hex, f.severity) for f in found] == [("F5", "warning")]
    assert "2 Heavy weapons" in found[0].message and "ATS 5.2.1" in found[0].message


# -- TOCS: steps and the chain of command from the types ----------------------------------------------------

def test_panzer_platoon_is_a_vehicle_platoon_by_its_type(sample_maps):
    """The old guess made any name without "vehicle platoon" a company (4 steps); typed, a vehicle platoon has
    2 steps (TOCS: "Vehicle Platoons ... have 2SL")."""
    d = load("groesbeek-heights")
    add(d, "german", ["16.05"], id="pz", unit="Panzer platoon", type="vehicle-platoon", steps=4, parent="kg",
        **{"class": "tracked"})
    found = findings(d, sample_maps, "tocs-steps")
    assert len(found) == 1 and "at most 2" in found[0].message and "Vehicle platoon" in found[0].message
    assert found[0].path == "sides[1].oob[5].steps"
    oob(d, "german", "pz")["steps"] = 2
    assert findings(d, sample_maps, "tocs-steps") == []


def test_division_headquarters_is_accepted_as_a_parent_by_its_echelon(sample_maps):
    d = load("groesbeek-heights")
    add(d, "allied", [], id="div82", unit="Division Headquarters", name="82nd Airborne", type="division-hq",
        steps=3, **{"class": "foot"})
    oob(d, "allied", "hq505")["parent"] = "div82"
    assert findings(d, sample_maps, "tocs-hq-tree") == []


def test_the_chain_of_command_runs_in_decreasing_echelon(sample_maps):
    """TOCS: Corps, Division, Brigade/Regiment, Battalion: a division does not report to a regiment."""
    d = load("groesbeek-heights")
    add(d, "allied", [], id="div82", unit="Division Headquarters", type="division-hq", parent="hq505",
        **{"class": "foot"})
    found = findings(d, sample_maps, "tocs-hq-tree")
    assert len(found) == 1 and "higher echelon" in found[0].message and "505th PIR HQ" in found[0].message


# -- a line with no type, a designer's own type, a type that does not exist --------------------------------

def test_a_line_without_a_type_is_said_to_be_unchecked(sample_maps):
    d = load("hill-112")
    del oob(d, "german", "rifle")["type"]
    found = findings(d, sample_maps, "no-unit-type")
    assert [(f.path, f.severity) for f in found] == [("sides[0].oob[0].type", "warning")]
    assert found[0].message == ("Rifle Squad (German OOB line 1) has no unit type: its stacking and what its type "
                                "allows are not checked")
    # and it is left out of the stack count, not guessed: three squads in P10 are two typed ones
    assert findings(d, sample_maps, "stacking") == []


def test_a_designers_own_type_counts_its_own_points(sample_maps):
    d = load("oosterbeek-crossroads")
    d["unit_types"] = [{"id": "assault-pioneers", "name": "Assault pioneer squad", "kind": "squad",
                        "class": "personnel", "stacking": 4}]
    add(d, "german", ["P5"] * 3, id="pio", unit="Sturmpioniere", type="assault-pioneers", **{"class": "personnel"})
    assert findings(d, sample_maps, "overstacking") == []  # 3 x 4 = 12, at the limit
    add(d, "german", ["P5"], id="pio2", unit="Sturmpioniere", type="assault-pioneers", **{"class": "personnel"})
    found = findings(d, sample_maps, "overstacking")
    assert [f.hex for f in found] == ["P5"] and "16 Stacking Points" in found[0].message
    doc = parse(d, sample_maps)
    assert doc.data["unit_types"][0]["stacking"] == 4
    assert scenariofile.parse(scenariofile.dumps(doc), sample_maps).data == doc.data  # kept on the way out


def test_a_designers_own_type_is_checked_like_the_catalogues(sample_maps):
    d = load("oosterbeek-crossroads")
    d["unit_types"] = [{"id": "pioneers", "name": "Pioneers", "kind": "engineer", "stacking": -1},
                       {"id": "squad", "name": "My squad", "kind": "squad"}]
    with pytest.raises(scenariofile.ScenarioFormatError) as exc:
        parse(d, sample_maps)
    paths = {f.path: f.message for f in exc.value.errors}
    assert "is not one of this game's kinds" in paths["unit_types[0].kind"]
    assert "unit_types[0].stacking" in paths
    assert "already a unit type of the ats catalogue" in paths["unit_types[1].id"]


def test_a_type_that_does_not_exist_is_refused_naming_the_oob_line(sample_maps):
    d = load("oosterbeek-crossroads")
    oob(d, "german", "gren")["type"] = "tank-destroyer"
    with pytest.raises(scenariofile.ScenarioFormatError) as exc:
        parse(d, sample_maps)
    (error,) = [f for f in exc.value.errors if f.code == "unknown-unit-type"]
    assert error.path == "sides[1].oob[0].type"
    assert error.message.startswith("Grenadier squad (German OOB line 1) names unit type 'tank-destroyer'")


def test_a_designers_barred_terrain_is_checked(sample_maps):
    d = load("hill-112")
    doc = parse(d, sample_maps)
    board = scenario_checks.Board.of(doc)
    ref = side(d, "german")["placements"][0]["hex"]
    terrain = sorted(board.terrain(ref))[0]
    d["unit_types"] = [{"id": "heavy-flak", "name": "Heavy FlaK", "kind": "gun", "class": "foot",
                        "barred": [terrain], "rule": "the designer's rule"}]
    oob(d, "german", "rifle")["type"] = "heavy-flak"
    found = findings(d, sample_maps, "forbidden-terrain")
    assert {f.hex for f in found if "Heavy FlaK" in f.message} == {ref}


# -- the catalogue's unit_types section ----------------------------------------------------------------------

def test_every_builtin_catalogue_has_unit_types():
    for rid in rulesets.BUILTIN_IDS:
        ruleset = rulesets.get(rid)
        assert ruleset.unit_types and ruleset.unit_kinds
        assert all(t["kind"] in ruleset.unit_kinds for t in ruleset.unit_types.values())
    assert rulesets.get("tocs").unit_types["company"]["steps"] == 4
    assert rulesets.get("tocs").unit_types["vehicle-platoon"]["steps"] == 2
    assert rulesets.get("ats").unit_types["crew"]["stacking"] == 2


def profile(**extra):
    return {"id": "ats-desert", "name": "ATS desert", "base": "ats", "terrain": [], "extends_base": True, **extra}


def test_a_profile_inherits_its_bases_unit_types():
    assert rulesets.from_dict(profile()).unit_types == rulesets.get("ats").unit_types


def test_a_bad_unit_types_entry_is_refused_with_its_path():
    types = {"kinds": ["squad"], "echelons": [],
             "types": [{"id": "squad", "name": "Squad", "kind": "squad", "stacking": "three"},
                       {"id": "gun", "name": "Gun", "kind": "artillery", "barred": ["no-such-terrain"]},
                       {"id": "squad", "name": "Again", "kind": "squad", "colour": "red"}]}
    with pytest.raises(rulesets.RulesetError) as exc:
        rulesets.from_dict(profile(unit_types=types), where="desert.json")
    text = "\n".join(exc.value.errors)
    assert "desert.json: unit_types.types[0].stacking: must be a whole number" in text
    assert "desert.json: unit_types.types[1].kind: 'artillery' is not one of this game's kinds (squad)" in text
    assert "desert.json: unit_types.types[1].barred: 'no-such-terrain' is not one of this ruleset's terrain" in text
    assert "desert.json: unit_types.types[2].id: duplicate id 'squad'" in text
    assert "desert.json: unit_types.types[2].colour: unknown key" in text


def test_a_builtin_catalogue_without_unit_types_is_refused():
    from engine.rulesets import reading

    data = json.loads(rulesets.games.get("ost").catalogue_path.read_text(encoding="utf-8"))
    del data["unit_types"]
    with pytest.raises(rulesets.RulesetError, match="unit_types: is required in a built-in catalogue"):
        reading._build(data, where="ost.json", builtin_id="ost")


def test_messages_cite_the_rulebooks_not_the_digests_item_numbers():
    """A digest's item ("V17", "(15)", "(18)") collides with real sections (TOCS 15 is air missions): the
    messages cite the rulebook's own section or line, with the game's name."""
    import re
    from pathlib import Path

    root = Path(scenario_checks.__file__).parent  # the checks package: common; then each game's, in its folder
    games = root.parents[1] / "games"
    paths = sorted(root.glob("*.py")) + [root.parent / "victory.py"] + sorted(games.glob("*/checks.py"))
    assert len(paths) > 7
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert not re.findall(r"\bV\d{1,2}\b|\bQ\d{1,2}\b|\((?:\d{1,2}(?:, )?)+\)\"", text), path


def test_an_armoured_car_is_not_a_truck(sample_maps):
    """QRS L388: trucks and half-tracks are not mixed in one platoon; an armoured car is wheeled but no truck."""
    d = load("village-on-the-dnieper")
    for uid, unit, kind, cls in (("ac", "SdKfz 222", "armoured-car", "wheeled"),
                                 ("ht", "SdKfz 251", "half-track", "half-tracked")):
        add(d, "german", [], id=uid, unit=unit, type=kind, formation="2nd Grenadier platoon", element="platoon",
            attached=True, **{"class": cls})
    assert findings(d, sample_maps, "miniatures-attachments") == []
    oob(d, "german", "ac")["type"] = "truck"
    assert len(findings(d, sample_maps, "miniatures-attachments")) == 1


def test_a_line_without_a_class_moves_as_its_type(sample_maps):
    """A typed line that gives no class takes its type's, not the ruleset's first (foot): a vehicle is tracked."""
    d = load("hill-112")
    add(d, "german", [], id="pz3", unit="PzKpfw III", type="vehicle")
    add(d, "german", [], id="inf", unit="Grenadiere")
    doc = parse(d, sample_maps)
    units = doc.units(doc.side("german"))
    assert units["pz3"]["class"] == "tracked" and units["inf"]["class"] == "foot"


def test_a_declared_types_texts_and_lists_have_limits(sample_maps):
    d = load("oosterbeek-crossroads")
    d["unit_types"] = [{"id": "big", "name": "x" * 5000, "kind": "squad", "carries": ["squad"] * 50}]
    with pytest.raises(scenariofile.ScenarioFormatError) as exc:
        parse(d, sample_maps)
    assert {f.path for f in exc.value.errors} == {"unit_types[0].name", "unit_types[0].carries"}


def test_an_hq_line_that_contradicts_its_types_echelon_is_warned(sample_maps):
    d = load("groesbeek-heights")
    assert findings(d, sample_maps, "tocs-echelon") == []
    oob(d, "allied", "hq505")["echelon"] = "division"
    found = findings(d, sample_maps, "tocs-echelon")
    assert [(f.path, f.severity) for f in found] == [("sides[0].oob[0].echelon", "warning")]
    assert "of echelon regiment" in found[0].message


def test_ost_a_unit_riding_a_vehicle_is_not_refused(sample_maps):
    """OST 20.0.3: a vehicle transporting another unit counts as 1 unit, so a vehicle and two squads may be a legal
    stack (one squad riding): a warning, not an error; three squads and a vehicle are over either way."""
    d = load("hill-112")
    add(d, "german", ["P10"], id="ht", unit="SdKfz 251", type="vehicle", **{"class": "tracked"})
    found = [f for f in findings(d, sample_maps, "stacking") if f.hex == "P10"]
    assert [f.severity for f in found] == ["warning"] and "OST 20.0.3" in found[0].message
    side(d, "german")["placements"][3]["hex"] = "P10"  # a third rifle squad
    found = [f for f in findings(d, sample_maps, "stacking") if f.hex == "P10"]
    assert [f.severity for f in found] == ["error"]


def test_a_truck_is_attached_to_an_infantry_or_gun_platoon(sample_maps):
    """QRS L389: half-tracks and trucks must be attached to an infantry (or ATG) platoon: the type's attaches_to."""
    d = load("village-on-the-dnieper")
    add(d, "german", [], id="opel", unit="Opel Blitz", type="truck", formation="2nd Grenadier platoon",
        element="attached", attached=True, **{"class": "wheeled"})
    assert findings(d, sample_maps, "miniatures-attachments") == []
    oob(d, "german", "opel")["formation"] = "StuG platoon"
    found = findings(d, sample_maps, "miniatures-attachments")
    assert [f.path for f in found] == ["sides[0].oob[16].formation"]
    assert "Opel Blitz (German OOB line 17) is a Truck" in found[0].message
    assert "StuG platoon has none" in found[0].message
