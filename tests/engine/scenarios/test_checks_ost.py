"""Old School Tactical's checks (issue 18, point 3), each passing on a legal setup and breaking on the right hex:
FlaK 36 out of structures, pillboxes and bunkers (8.0.8, 000 L572), flamethrowers only for engineers (6.1.4,
000 L458), where bunkers and pillboxes may be placed and the pillbox's hexside (13.4.3, 13.5.3, 13.5.8), aircraft
spacing and direction (26.2.3-5, 000 L1572), casualty points by unit type (1.6, 000 L202-214). Built on the Hill
112 sample: the German zone is M7-T12 (R7 heavy structure, M8 light structure, T7 and R8 open), the British A1-D12
(B4 stream)."""

import json

import pytest

from engine import rulesets
from engine.scenarios import checks as scenario_checks
from tests.scenarios.conftest import SAMPLES, parse

HILL = next(p for p in SAMPLES if p.stem == "hill-112")


@pytest.fixture
def hill():
    return json.loads(HILL.read_text(encoding="utf-8"))


def side(data, sid):
    return next(s for s in data["sides"] if s["id"] == sid)


def add(data, sid, hexes=(), facing=None, **unit):
    """An OOB line, one counter placed in each hex given."""
    unit.setdefault("count", max(len(hexes), 1))
    side(data, sid)["oob"].append(unit)
    for ref in hexes:
        side(data, sid)["placements"].append({"unit": unit["id"], "hex": ref, "facing": facing})


def found(data, maps, code):
    return [f for f in scenario_checks.check(parse(data, maps)) if f.code == code]


def at(findings, hex, severity="error"):
    return [f for f in findings if f.hex == hex and f.severity == severity]


# -- FlaK 36 (8.0.8) ---------------------------------------------------------------------------------------------

def test_a_flak_36_may_not_set_up_in_a_structure(hill, sample_maps):
    add(hill, "german", ["R8"], id="flak", unit="FlaK 36", type="flak-36", casualty_points=2)
    assert not found(hill, sample_maps, "forbidden-terrain")
    side(hill, "german")["placements"][-1]["hex"] = "R7"  # heavy structure
    bad = at(found(hill, sample_maps, "forbidden-terrain"), "R7")
    assert bad and "8.0.8" in bad[0].message and "FlaK 36" in bad[0].message


@pytest.mark.parametrize("marker", ["pillbox", "bunker"])
def test_a_flak_36_may_not_occupy_a_pillbox_or_bunker(hill, sample_maps, marker):
    hill["markers"].append({"kind": marker, "hex": "T7", "side": "german", "facing": "NW"})
    add(hill, "german", ["T7"], id="flak", unit="FlaK 36", type="flak-36", casualty_points=2)
    assert at(found(hill, sample_maps, "forbidden-terrain"), "T7")


def test_an_anti_tank_gun_may_occupy_a_structure(hill, sample_maps):
    """8.0.7: anti-tank guns may occupy bunkers, pillboxes and the ground level of structures."""
    side(hill, "german")["placements"][8]["hex"] = "R7"  # the PaK 40
    assert not found(hill, sample_maps, "forbidden-terrain")


# -- flamethrowers (6.1.4) ---------------------------------------------------------------------------------------

def test_a_flamethrower_sets_up_with_an_engineer(hill, sample_maps):
    add(hill, "german", ["R8"], id="pio", unit="Pioneer Squad", type="engineer", casualty_points=2)
    add(hill, "german", ["R8"], id="ft", unit="Flammenwerfer 41", type="flamethrower", casualty_points=0)
    assert not found(hill, sample_maps, "ost-weapon-user")


def test_a_flamethrower_without_an_engineer_is_refused_on_its_hex(hill, sample_maps):
    # Q8 holds a rifle squad
    add(hill, "german", ["Q8"], id="ft", unit="Flammenwerfer 41", type="flamethrower", casualty_points=0)
    bad = at(found(hill, sample_maps, "ost-weapon-user"), "Q8")
    assert bad and "Flammenwerfer 41 (German OOB line 7)" in bad[0].message and "6.1.4" in bad[0].message
    assert bad[0].path == "sides[0].placements[10].hex"


def test_a_flamethrower_in_a_rifle_squads_weapons_is_refused(hill, sample_maps):
    side(hill, "german")["oob"][0]["weapons"] = ["LMG", "Flamethrower"]
    bad = found(hill, sample_maps, "ost-weapon-user")
    assert [f.path for f in bad] == ["sides[0].oob[0].weapons"]
    assert "Rifle Squad (German OOB line 1) carries a Flamethrower" in bad[0].message
    side(hill, "german")["oob"][0]["type"] = "engineer"
    assert not found(hill, sample_maps, "ost-weapon-user")


def test_a_flamethrower_with_a_unit_without_a_type_is_not_judged(hill, sample_maps):
    """The untyped unit may be the engineer: its line is reported as unchecked (no-unit-type), not guessed."""
    add(hill, "german", ["R8"], id="x", unit="Pioniere", casualty_points=2)
    add(hill, "german", ["R8"], id="ft", unit="Flammenwerfer 41", type="flamethrower", casualty_points=0)
    assert not found(hill, sample_maps, "ost-weapon-user")
    assert found(hill, sample_maps, "no-unit-type")


def test_a_flamethrower_arrives_with_an_engineer(hill, sample_maps):
    add(hill, "british", id="ft", unit="Lifebuoy", type="flamethrower", casualty_points=0)
    arriving = side(hill, "british")["reinforcements"][0]["units"]
    arriving.append({"unit": "ft", "count": 1})
    bad = found(hill, sample_maps, "ost-weapon-user")
    assert [f.path for f in bad] == ["sides[1].reinforcements[0].units"]
    add(hill, "british", id="re", unit="Sapper Squad", type="engineer", casualty_points=2)
    arriving.append({"unit": "re", "count": 1})
    assert not found(hill, sample_maps, "ost-weapon-user")


# -- bunkers and pillboxes (13.4.3, 13.5.3, 13.5.8) ----------------------------------------------------------------

def test_a_pillbox_faces_a_hexside(hill, sample_maps):
    hill["markers"].append({"kind": "pillbox", "hex": "T7", "side": "german", "facing": "NW"})
    assert not found(hill, sample_maps, "ost-pillbox-facing")
    hill["markers"][-1]["facing"] = 2  # a vertex
    bad = at(found(hill, sample_maps, "ost-pillbox-facing"), "T7")
    assert bad and "faces vertex 2, but needs a facing hexside" in bad[0].message and "13.5.8" in bad[0].message
    hill["markers"][-1]["facing"] = None
    assert at(found(hill, sample_maps, "ost-pillbox-facing"), "T7")


def test_a_bunker_needs_no_facing(hill, sample_maps):
    """Units fire out of a bunker in a 360 degree arc (13.4.8)."""
    hill["markers"].append({"kind": "bunker", "hex": "T7", "side": "german"})
    assert not found(hill, sample_maps, "ost-pillbox-facing")
    assert not found(hill, sample_maps, "ost-fortification-terrain")


@pytest.mark.parametrize("kind, hex, terrain", [("pillbox", "B4", "Stream"), ("bunker", "M8", "Light Structure"),
                                                 ("pillbox", "R7", "Heavy Structure")])
def test_no_bunker_or_pillbox_in_a_structure_or_stream(hill, sample_maps, kind, hex, terrain):
    hill["markers"].append({"kind": kind, "hex": hex, "side": "german", "facing": "N"})
    bad = at(found(hill, sample_maps, "ost-fortification-terrain"), hex)
    assert bad and terrain.lower() in bad[0].message.lower()


def test_a_pillbox_in_rubble_is_not_in_a_structure(hill, sample_maps):
    """Rubble is terrain (14.12), not a structure; ruins are (16.5.1)."""
    hill["markers"].append({"kind": "pillbox", "hex": "S10", "side": "german", "facing": "N"})
    assert not found(hill, sample_maps, "ost-fortification-terrain")


# -- aircraft (26.2.3-26.2.5) -------------------------------------------------------------------------------------

def aircraft(data, hexes, facings, type="transport-aircraft"):
    add(data, "british", id="c47", unit="C-47", type=type, count=len(hexes))
    for ref, facing in zip(hexes, facings, strict=False):
        side(data, "british")["placements"].append({"unit": "c47", "hex": ref, "facing": facing})


def test_aircraft_four_hexes_apart_pass(hill, sample_maps):
    aircraft(hill, ["A1", "A6"], ["S", "S"])  # A2-A5 between them
    assert not found(hill, sample_maps, "ost-aircraft-spacing")
    assert not found(hill, sample_maps, "ost-aircraft-facing")


def test_aircraft_three_hexes_apart_are_refused_on_the_second(hill, sample_maps):
    aircraft(hill, ["A1", "A5"], ["S", "S"])
    bad = at(found(hill, sample_maps, "ost-aircraft-spacing"), "A5")
    assert bad and "3 hexes from C-47" in bad[0].message and "26.2.3" in bad[0].message


def test_gliders_keep_the_spacing_too(hill, sample_maps):
    aircraft(hill, ["B7", "B10"], [None, 3], type="glider")
    assert at(found(hill, sample_maps, "ost-aircraft-spacing"), "B10")
    assert not found(hill, sample_maps, "ost-aircraft-facing")  # a glider's direction does not matter (26.2.5)


def test_transport_aircraft_fly_one_way_towards_a_hexside(hill, sample_maps):
    aircraft(hill, ["A1", "A7"], ["S", "N"])
    bad = at(found(hill, sample_maps, "ost-aircraft-facing"), "A7")
    assert bad and "C-47 (British OOB line 6) in A7 flies N, C-47 (British OOB line 6) in A1 S" in bad[0].message
    hill["sides"][1]["placements"][-1]["facing"] = None
    bad = at(found(hill, sample_maps, "ost-aircraft-facing"), "A7")
    assert bad and "26.2.4" in bad[0].message


def test_an_aircrafts_loadout_is_not_a_stack(hill, sample_maps):
    """Units stacked on an aircraft counter are its loadout (26.1.3): 3 squads and a leader on a C-47."""
    aircraft(hill, ["A1"], ["S"])
    add(hill, "british", ["A1", "A1", "A1"], id="para", unit="Airborne Squad", type="squad", casualty_points=2)
    assert not found(hill, sample_maps, "stacking")
    hill["sides"][1]["placements"].pop(-4)  # the C-47: three squads on the ground are a stack again
    assert at(found(hill, sample_maps, "stacking"), "A1")


def test_a_transport_holds_three_squads_and_a_glider_two(hill, sample_maps):
    aircraft(hill, ["A1"], ["S"])
    add(hill, "british", ["A1", "A1", "A1"], id="para", unit="Airborne Squad", type="squad", casualty_points=2)
    add(hill, "british", ["A1"], id="mmg", unit="MMG", type="machine-gun", casualty_points=2)
    bad = at(found(hill, sample_maps, "ost-loadout"), "A1")
    assert bad and "4 units are loaded on C-47 (British OOB line 6) in A1" in bad[0].message
    assert "26.1.1" in bad[0].message
    hill["sides"][1]["oob"][5]["type"] = "glider"
    hill["sides"][1]["placements"].pop()  # the MMG stays behind: 3 squads are one too many for a glider
    assert at(found(hill, sample_maps, "ost-loadout"), "A1")
    hill["sides"][1]["placements"].pop()
    assert not found(hill, sample_maps, "ost-loadout")


def test_only_a_glider_carries_a_jeep(hill, sample_maps):
    aircraft(hill, ["A1"], ["S"], type="glider")
    add(hill, "british", ["A1"], id="jeep", unit="Jeep", type="wheeled-vehicle", casualty_points=2)
    add(hill, "british", ["A1"], id="para", unit="Airborne Squad", type="squad", casualty_points=2)
    assert not found(hill, sample_maps, "ost-loadout")
    hill["sides"][1]["oob"][5]["type"] = "transport-aircraft"
    bad = at(found(hill, sample_maps, "ost-loadout"), "A1")
    assert bad and bad[0].message.startswith("Jeep (British OOB line 7) is loaded on C-47")


# -- messages (issue 18, point 8) ----------------------------------------------------------------------------------

def test_stacking_and_marker_messages_name_what_is_there(hill, sample_maps):
    side(hill, "german")["placements"][3]["hex"] = "P10"  # a third rifle squad
    hill["markers"].append({"kind": "wire", "hex": "P10", "side": "german"})
    stacking = at(found(hill, sample_maps, "stacking"), "P10")
    assert stacking[0].message == (
        "3 units and 1 leader of German in P10 (Rifle Squad (German OOB line 1), Rifle Squad (German OOB line 1), "
        "Leader (German OOB line 3), Rifle Squad (German OOB line 1)): at most 2 units and 2 leaders per hex "
        "(OST 20.0.1)")
    markers = at(found(hill, sample_maps, "ost-markers-per-hex"), "P10")
    assert markers[0].message == ("Foxholes and Wire markers in P10: at most 1 battlefield marker per hex, smoke "
                                  "aside (OST 13.0)")


# -- casualty points (1.6) ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, value, ok", [(0, 2, True), (0, 1, True), (0, 3, False), (1, 2, True), (1, 0, False),
                                             (2, 1, True), (2, 2, False), (5, 1, True), (5, 0, False)])
def test_casualty_points_by_unit_type(hill, sample_maps, line, value, ok):
    """A squad 2 (reduced 1), a crewed weapon such as the HMG 2, a leader 1, a sniper 1."""
    side(hill, "german")["oob"][line]["casualty_points"] = value
    bad = found(hill, sample_maps, "ost-casualty-points")
    assert not bad if ok else [f.path for f in bad] == [f"sides[0].oob[{line}].casualty_points"]


def test_casualty_points_of_trucks_transports_and_weapons(hill, sample_maps):
    add(hill, "german", ["R10"], id="opel", unit="Opel Blitz", type="truck", casualty_points=2)
    add(hill, "german", ["S8"], id="251", unit="SdKfz 251/1", type="armored-transport", casualty_points=1)
    add(hill, "german", ["S8"], id="mg", unit="LMG", type="support-weapon", casualty_points=1)
    bad = found(hill, sample_maps, "ost-casualty-points")
    assert [f.path for f in bad] == ["sides[0].oob[6].casualty_points", "sides[0].oob[8].casualty_points"]
    assert "Opel Blitz (German OOB line 7) is worth 2 casualty points, but a Truck is worth 1 (OST 1.6)" in \
        bad[0].message


def test_a_designers_own_type_gives_its_own_casualty_points(hill, sample_maps):
    hill["unit_types"] = [{"id": "elite-squad", "name": "Elite squad", "kind": "squad", "class": "foot",
                           "stacking": 1, "casualty_points": 3, "rule": "the designer's choice"}]
    side(hill, "german")["oob"][0].update(type="elite-squad", casualty_points=3)
    assert not found(hill, sample_maps, "ost-casualty-points")


def test_missing_casualty_points_are_warned_where_a_victory_counts_them(hill, sample_maps):
    del side(hill, "german")["oob"][0]["casualty_points"]
    bad = found(hill, sample_maps, "ost-casualty-points")
    assert [(f.path, f.severity) for f in bad] == [("sides[0].oob[0].casualty_points", "warning")]
    for s in hill["sides"]:
        s["victory"] = {"kind": "control", "objectives": ["crest"], "at": "end"}
    assert not found(hill, sample_maps, "ost-casualty-points")


# -- the catalogue's data ------------------------------------------------------------------------------------------

def test_the_catalogue_checks_casualty_points_and_placing():
    base = {"id": "my-ost", "name": "My OST", "base": "ost", "extends_base": True}
    types = dict(rulesets.get("ost").as_dict()["unit_types"])
    types["types"] = [{"id": "squad", "name": "Squad", "kind": "squad", "casualty_points": "two"}]
    terrain = [{"id": "redoubt", "name": "Redoubt", "layer": "marker", "los": "clear", "height": 0,
                "movement": {}, "cover": 2, "rule": "mine", "placing": {"facing": "edge", "barred": ["Woods"]}}]
    with pytest.raises(rulesets.RulesetError) as exc:
        rulesets.from_dict({**base, "unit_types": types, "terrain": terrain}, where="my.json")
    text = "\n".join(exc.value.errors)
    assert "my.json: unit_types.types[0].casualty_points: must be a whole number" in text
    assert "my.json: terrain[0].placing.facing: 'edge' is not null or one of hexside, vertex" in text
    assert "my.json: terrain[0].placing.barred: must be a list of terrain ids" in text
    assert "my.json: terrain[0].placing.rule: is required" in text


def test_the_builtin_types_and_markers_say_what_the_checks_read():
    ost = rulesets.get("ost")
    assert ost.unit_types["flak-36"]["barred"] == ["light-structure", "heavy-structure", "ruins", "pillbox", "bunker"]
    assert ost.unit_types["flamethrower"]["attaches_to"] == ["engineer"]
    assert ost.terrain["pillbox"]["placing"]["facing"] == "hexside"
    assert ost.terrain["bunker"]["placing"]["facing"] is None


# -- the sample (issue 18, point 7) ---------------------------------------------------------------------------------

def leaves(condition):
    if condition["kind"] in ("and", "or"):
        return [leaf for c in condition["conditions"] for leaf in leaves(c)]
    return [condition]


def test_hill_112_validates_says_what_is_the_designers_and_is_won_at_the_end(hill, sample_maps):
    assert [str(f) for f in scenario_checks.check(parse(hill, sample_maps))] == []
    intro = hill["introduction"]
    assert "the German stat line" not in intro and "The designer's choices: the stat lines" in intro
    assert "which names no side" in intro and "a French side's there" in intro  # 000 L408, L1295-1297
    german = side(hill, "german")
    assert german["fields"] == {"gut_check": 7, "impulse": "2D6+3"}
    # the Germans start on the crest and in the wood: no condition of theirs may be met by standing there a turn
    assert all(leaf["kind"] != "control" or leaf["at"] == "end" for leaf in leaves(german["victory"]))
    assert {o["id"]: o["owner"] for o in hill["objectives"]}["crest"] == "german"
