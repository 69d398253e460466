"""The catalogues are the one source of what a game's rules say: scenario fields, roads, built-ins, the scale."""

import copy
import json
import math

import pytest

from engine import rulesets
from engine.checks.rules import check_data
from engine.games.miniatures.los import Rules as MiniaturesRules
from engine.los import warm
from engine.los.compiled import CompiledMap
from engine.mapfile import MapDoc
from engine.rulesets import catalogue
from engine.scenarios import checks, scenariofile


def parse(data):
    return scenariofile.parse(json.dumps(data), rulesets=rulesets.get)

# A custom OST profile: a "causeway" flagged as a road (no road word in its name) and a "trail" that is not.
PROFILE = {
    "id": "lanes-ost", "name": "OST with lanes", "base": "ost", "extends_base": True,
    "terrain": [
        {"id": "causeway", "name": "Causeway", "layer": "hex", "linear": "road", "los": "clear", "height": 0,
         "movement": {"foot": 1, "wheeled": 1, "tracked": 1}, "cover": 0, "rule": None},
        {"id": "trail", "name": "Trail", "layer": "hex", "los": "clear", "height": 0,
         "movement": {"foot": 1, "wheeled": 2, "tracked": 2}, "cover": 0, "rule": None},
    ],
}


@pytest.fixture
def lanes():
    profile = rulesets.register(rulesets.from_dict(copy.deepcopy(PROFILE)))
    yield profile
    rulesets.unregister(profile.id)


def on_custom(small, ruleset_id, hexes):
    """The small OST scenario on a custom ruleset, with extra hexes on its embedded map."""
    data = copy.deepcopy(small)
    data["ruleset"] = ruleset_id
    document = data["maps"][0]["document"]
    document["ruleset"] = ruleset_id
    document["hexes"] = [h for h in document["hexes"] if h["hex"] not in {x["hex"] for x in hexes}] + hexes
    return data


def forbidden_codes(doc):
    return [(f.code, f.hex) for f in checks.check(doc) if f.code == "forbidden-terrain"]


def test_a_terrain_flagged_as_road_lets_vehicles_into_a_structure_and_a_trail_does_not(small, lanes):
    # OST vehicles enter a light structure only along a road (16.6.2): the tank in B2 needs the hex's road.
    hexes = [{"hex": "B2", "terrain": ["light-structure", "causeway"]}]
    doc = parse(on_custom(small, lanes.id, hexes))
    assert forbidden_codes(doc) == []
    hexes = [{"hex": "B2", "terrain": ["light-structure", "trail"]}]
    doc = parse(on_custom(small, lanes.id, hexes))
    assert forbidden_codes(doc) == [("forbidden-terrain", "B2")]


def test_road_flags_are_the_movement_conditions(lanes):
    assert lanes.movement_conditions(["light-structure", "causeway"]) == ("along-road",)
    assert lanes.movement_conditions(["trail"]) == ()
    assert lanes.linear("road") == "road"  # inherited from the OST entry of the same id
    ats = rulesets.get("ats")
    assert ats.movement_conditions(["railroad"]) == ("along-railroad",)  # a railroad is not a road
    assert ats.linear("sunken-road") == "road" and ats.linear("woods") is None


def test_a_replaced_entry_may_drop_its_road():
    data = {"id": "no-roads", "name": "No roads", "base": "ost", "extends_base": True,
            "terrain": [dict(rulesets.get("ost").get("road"), linear=None)]}
    assert rulesets.from_dict(data).linear("road") is None


def test_bad_linear_and_scenario_data_are_refused_with_their_paths():
    data = copy.deepcopy(PROFILE)
    data["id"] = "bad-lanes"
    data["terrain"][0]["linear"] = "canal"
    data["scenario"] = {"rules": {"fuel": {"type": "integer", "min": 5, "max": 1, "default": "lots"},
                                  "mood": {"type": "colour"}},
                        "turn_track": "sideways", "colour": "red"}
    data["table_scale"] = {"metres_per_inch": 0}
    with pytest.raises(rulesets.RulesetError) as caught:
        rulesets.from_dict(data)
    paths = {e.split(": ")[1] for e in caught.value.errors}
    assert {"terrain[0].linear", "scenario.rules.fuel.min", "scenario.rules.fuel.default", "scenario.rules.mood.type",
            "scenario.turn_track", "scenario.colour", "table_scale.metres_per_inch"} <= paths


def test_each_builtin_catalogue_flags_the_roads_its_map_checks_follow():
    """The map checks' linear features name terrain the catalogue flags as that kind (one source of roads)."""
    for ruleset_id in rulesets.builtin_ids():
        ruleset = rulesets.get(ruleset_id)
        for spec in check_data(ruleset_id).get("linear", ()):
            for tid in spec["ids"]:
                assert ruleset.linear(tid) == spec["name"], (ruleset_id, tid)


# -- scenario fields -------------------------------------------------------------------------------------------

def test_a_scenario_rules_key_comes_from_the_catalogue(small, map_document):
    data = copy.deepcopy(PROFILE)
    data.update(id="fuel-ost", scenario={
        "turn_track": "up",
        "rules": {"fuel": {"type": "integer", "min": 0, "max": 9, "default": 3, "means": "fuel points per side"}}})
    profile = rulesets.register(rulesets.from_dict(data))
    try:
        scenario = on_custom(small, profile.id, [])
        scenario["rules"] = {"fuel": 4}
        for side in scenario["sides"]:
            side["fields"] = {}  # the profile's own scenario section has no side fields
        doc = parse(scenario)
        assert doc.data["rules"] == {"fuel": 4}
        assert doc.data["turns"]["counts"] == "up"  # its own turn track, not OST's count-down
        scenario["rules"] = {"fuel": 12}
        with pytest.raises(scenariofile.ScenarioFormatError) as caught:
            parse(scenario)
        assert [(e.path, e.code) for e in caught.value.errors] == [("rules.fuel", "bad-number")]
        scenario["rules"] = {"luck_cards": 1}  # OST's key, not this profile's
        with pytest.raises(scenariofile.ScenarioFormatError) as caught:
            parse(scenario)
        assert [e.path for e in caught.value.errors] == ["rules.luck_cards"]
    finally:
        rulesets.unregister(profile.id)


def test_a_custom_profile_without_a_scenario_section_takes_its_bases(small, lanes):
    assert lanes.scenario_fields("rules") == rulesets.get("ost").scenario_fields("rules")
    doc = parse(on_custom(small, lanes.id, []))
    assert doc.data["turns"]["counts"] == "down"


def test_builtin_scenario_sections_match_what_the_format_reads(small):
    ost = rulesets.get("ost")
    assert list(ost.scenario_fields("rules")) == ["luck_cards", "extended_play"]
    assert ost.scenario_fields("rules")["luck_cards"]["default"] == 1
    small["rules"] = {"luck_cards": 11}
    with pytest.raises(scenariofile.ScenarioFormatError) as caught:
        parse(small)
    assert [e.path for e in caught.value.errors] == ["rules.luck_cards"]
    for ruleset in map(rulesets.get, rulesets.builtin_ids()):
        for part in catalogue.SCENARIO_PARTS:
            for spec in ruleset.scenario_fields(part).values():
                assert spec.get("means"), (ruleset.id, part)


# -- one list of built-ins -------------------------------------------------------------------------------------

def test_every_place_reads_the_one_list_of_builtins():
    ids = rulesets.builtin_ids()
    assert ids == scenariofile.RULESETS
    assert ids == warm.RULESETS
    assert tuple(g.id for g in rulesets.games.all_games()) == ids
    for ruleset_id in ids:
        assert rulesets.games.get(ruleset_id).los.Rules.id == ruleset_id


# -- one inches per hex ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("metres", [45.72, 50, 100, 30, 10])
def test_one_inches_per_hex_everywhere(metres, map_document):
    """The LOS, the scenario checks, cards and the API payload agree on the inches per hex."""
    minis = rulesets.get("miniatures")
    scale = minis.table_scale
    expected = max(scale["inch_step"], math.floor(metres / scale["metres_per_inch"]))
    value, _ = minis.inches_per_hex(metres)
    assert value == expected
    document = dict(copy.deepcopy(map_document), ruleset="miniatures", hexes=[], hexsides=[], overlays=[])
    document["grid"]["hex_metres"] = metres
    scenario = {"format": "hexside-scenario", "version": 1, "title": "Scale", "ruleset": "miniatures",
                "maps": [{"key": "m", "document": document}],
                "sides": [{"id": "a", "name": "A", "oob": [{"id": "u", "unit": "Platoon"}]},
                          {"id": "b", "name": "B", "oob": [{"id": "u", "unit": "Platoon"}]}]}
    doc = scenariofile.parse(json.dumps(scenario))
    assert scenariofile.inches_per_hex(doc) == expected
    assert checks.summary(doc)["inches_per_hex"] == expected
    mdoc = doc.maps["m"]
    los = MiniaturesRules(CompiledMap(MapDoc(name="t", ruleset="miniatures", grid=mdoc.grid,
                                             default_terrain=("open",)), None))
    assert los.inches_per_hex == expected


def test_a_map_or_scenario_scale_wins_over_the_table_scale(map_document):
    document = dict(copy.deepcopy(map_document), ruleset="miniatures", hexes=[], hexsides=[], overlays=[],
                    extensions={"rules": {"inches_per_hex": 1.5}})
    scenario = {"format": "hexside-scenario", "version": 1, "title": "Scale", "ruleset": "miniatures",
                "maps": [{"key": "m", "document": document}],
                "sides": [{"id": "a", "name": "A", "oob": [{"id": "u", "unit": "Platoon"}]}]}
    assert scenariofile.inches_per_hex(scenariofile.parse(json.dumps(scenario))) == 1.5  # the map's, as the LOS
    scenario["rules"] = {"inches_per_hex": 3}
    assert scenariofile.inches_per_hex(scenariofile.parse(json.dumps(scenario))) == 3.0
    assert rulesets.get("ost").inches_per_hex() is None  # a game measured in hexes has no table scale


# -- what the pages are given ----------------------------------------------------------------------------------

@pytest.mark.django_db
def test_editor_and_ruleset_api_carry_the_catalogues_fields_and_scale(client, api_client):
    import io

    from django.core.management import call_command

    from authoring.models import Scenario

    call_command("load_samples", stdout=io.StringIO())
    call_command("load_scenario_samples", stdout=io.StringIO())
    minis = Scenario.objects.get(ruleset="miniatures")
    page = client.get(f"/scenarios/{minis.pk}/")
    assert page.status_code == 200
    config = page.context["config"]
    doc = minis.scenariodoc()
    assert config["inchesPerHex"] == scenariofile.inches_per_hex(doc) == checks.summary(doc)["inches_per_hex"]
    assert config["rulesFields"] == list(rulesets.get("miniatures").scenario_fields("rules"))
    assert config["fieldSpecs"]["rules"]["rounding"]["values"] == ["floor", "nearest"]
    body = api_client.get("/api/rulesets/miniatures/").json()
    assert body["inches_per_hex"] == rulesets.get("miniatures").inches_per_hex()[0]
    assert body["ruleset"]["scenario"]["rules"]["inches_per_hex"]["type"] == "number"
    assert body["ruleset"]["table_scale"]["metres_per_inch"] > 0
    assert api_client.get("/api/rulesets/ost/").json()["inches_per_hex"] is None
    ost = client.get(f"/scenarios/{Scenario.objects.get(ruleset='ost').pk}/").context["config"]
    assert ost["inchesPerHex"] is None and ost["sideFields"] == ["gut_check", "impulse"]


def test_the_open_terrain_of_a_hex_is_catalogue_data():
    """A hex with no terrain holds the catalogue's open_terrain; a profile may name its own."""
    from engine import mapfile

    for rid, expected in (("ost", "open"), ("ats", "open-ground"), ("assault", "clear"), ("tocs", "open")):
        assert rulesets.get(rid).open_hex() == expected
    data = json.loads(rulesets.games.get("ats").catalogue_path.read_text(encoding="utf-8"))
    data.update(id="ats-steppe", name="Steppe", base="ats", open_terrain="brush")
    data.pop("scenario", None)
    steppe = rulesets.from_dict(data)
    assert steppe.open_hex() == "brush"
    doc = mapfile.parse({"format": "hexside-map", "version": 1, "name": "n", "ruleset": "ats",
                         "grid": {"orientation": "flat", "columns": 2, "rows": 2, "stagger": "even",
                                  "labels": "letter-number", "hex_metres": 40}}, rulesets={"ats": steppe}.get)
    assert doc.default_terrain == ("brush",)
    data["open_terrain"] = "stone-wall"  # a hexside, not a hex
    with pytest.raises(rulesets.RulesetError, match="open_terrain"):
        rulesets.from_dict(data)
