"""The scenario format: samples round trip byte for byte, and bad input gets every problem with its path."""

import json

import pytest

from engine.scenarios import scenariofile
from tests.scenarios.conftest import SAMPLES, parse


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_every_sample_round_trips_byte_for_byte(path, sample_maps):
    text = path.read_text(encoding="utf-8")
    doc = scenariofile.parse(text, sample_maps)
    assert scenariofile.dumps(doc) == text
    # And once more from the decoded object with every object's keys reversed, as a store may reorder them
    # (PostgreSQL's jsonb does): the writer, not the input, decides the order.
    assert scenariofile.dumps(scenariofile.parse(reversed_keys(json.loads(text)), sample_maps)) == text


def reversed_keys(value):
    if isinstance(value, dict):
        return {k: reversed_keys(v) for k, v in reversed(list(value.items()))}
    if isinstance(value, list):
        return [reversed_keys(v) for v in value]
    return value


def test_there_is_a_sample_for_every_ruleset(sample_maps):
    rulesets = {scenariofile.parse(p.read_bytes(), sample_maps).ruleset for p in SAMPLES}
    assert rulesets == set(scenariofile.RULESETS)


def test_embedded_map_round_trips_and_defaults_are_written(small):
    doc = parse(small)
    text = scenariofile.dumps(doc)
    again = scenariofile.parse(text)
    assert scenariofile.dumps(again) == text
    data = json.loads(text)
    assert list(data)[:4] == ["format", "version", "title", "ruleset"]
    assert data["turns"] == {"count": 6, "counts": "down", "first": 1}  # OST's track counts down
    assert data["sides"][0]["oob"][0]["class"] == "foot"  # the ruleset's first unit class
    assert data["maps"][0]["document"]["name"] == "Hill 112"


def test_hexes_given_as_pairs_are_written_as_labels(small):
    small["sides"][0]["placements"][0]["hex"] = [0, 0]
    assert parse(small).data["sides"][0]["placements"][0]["hex"] == "A1"


def errors_of(data, maps=None):
    with pytest.raises(scenariofile.ScenarioFormatError) as caught:
        parse(data, maps)
    return {(e.path, e.hex): e for e in caught.value.errors}


def test_bad_input_gets_every_problem_with_its_path(small):
    blue = small["sides"][0]
    blue["oob"][0]["strength"] = 4  # an unknown unit field
    blue["oob"][1]["class"] = "hover"
    blue["placements"][1]["hex"] = "Z99"  # off the map
    blue["placements"].append({"unit": "ghost", "hex": "A3"})
    small["sides"][1]["victory"] = {"kind": "hold", "objective": "nowhere", "turns": 2}
    small["objectives"][0]["owner"] = "purple"
    small["sides"][1]["fields"]["impulse"] = "2d8"
    small["sides"].append({"id": "green", "name": "Green", "oob": []})  # a draft side: read (the checks object)
    found = errors_of(small)
    assert ("sides[0].oob[0].strength", None) in found
    assert "unknown key 'strength'" in found[("sides[0].oob[0].strength", None)].message
    assert ("sides[0].oob[1].class", None) in found
    assert ("sides[0].placements[1].hex", "Z99") in found
    assert "off the map" in found[("sides[0].placements[1].hex", "Z99")].message
    assert ("sides[0].placements[3].unit", "A3") in found
    assert ("sides[1].victory.objective", None) in found
    assert ("objectives[0].owner", "D5") in found
    assert ("sides[2].oob", None) not in found
    assert ("sides[1].fields.impulse", None) in found
    assert len(found) == 7


def test_malformed_files_are_refused_with_a_reason():
    for data, path, words in ((b"\xff\xfe", "$", "not UTF-8"), ("{", "$", "not valid JSON"),
                              ("[]", "$", "expected an object"),
                              ('{"format": "hexside-map", "version": 2}', "format", "expected 'hexside-scenario'")):
        with pytest.raises(scenariofile.ScenarioFormatError) as caught:
            scenariofile.parse(data)
        first = {e.path: e.message for e in caught.value.errors}
        assert words in first[path]


def test_map_named_by_id_without_a_library_says_so(small):
    small["maps"] = [{"key": "m", "id": 3}]
    found = errors_of(small)
    assert "embed the map file" in found[("maps[0].id", None)].message


def test_map_of_another_ruleset_is_refused(small, sample_maps):
    small["maps"] = [{"key": "m", "name": "Gela beachhead (Assault)"}]
    found = errors_of(small, sample_maps)
    assert "made for ruleset 'assault'" in found[("maps[0]", None)].message


def test_second_map_hexes_are_prefixed(small, map_document):
    other = dict(map_document, name="Second sheet")
    small["maps"].append({"key": "two", "document": other, "placement": [10, 0], "rotation": 180})
    small["sides"][1]["setup_zone"].append("two:B2")
    doc = parse(small)
    assert "two:B2" in doc.data["sides"][1]["setup_zone"]
    assert doc.resolve("two:B2") == ("two", 1, 1)
    assert errors_of(dict(small, objectives=[{"id": "x", "hex": "three:B2"}]))[("objectives[0].hex", "three:B2")]


def test_too_many_counters_placed(small):
    small["sides"][0]["oob"][1]["count"] = 1
    small["sides"][0]["placements"].append({"unit": "tank", "hex": "B3"})
    assert errors_of(small)[("sides[0].placements[3].unit", "B3")].message == (
        "Sherman (Blue OOB line 2) is placed more times than its count (1)")


def test_exit_hexes_of_a_victory_condition_are_on_the_map(small):
    small["sides"][0]["victory"] = {"kind": "or", "conditions": [
        {"kind": "control", "objectives": ["hill"]}, {"kind": "exit", "units": 2, "hexes": ["j8", [9, 6], "K9"]}]}
    found = errors_of(small)
    assert list(found) == [("sides[0].victory.conditions[1].hexes[2]", "K9")]
    small["sides"][0]["victory"]["conditions"][1]["hexes"] = ["j8", [9, 6]]
    assert parse(small).data["sides"][0]["victory"]["conditions"][1]["hexes"] == ["J7", "J8"]
