"""Issue 17, point 11: any JSON value in any field of a scenario is a format error naming its path, never a crash.

Hypothesis takes a valid scenario (the small test scenario and the samples), picks one place in it (every path of
the document: each key, each list entry) and puts an arbitrary JSON value there, or takes the key away. The reader
either accepts the result (and then the checks, the victory sentences and the writer take it too) or raises
ScenarioFormatError; anything else fails. The scenario edits get arbitrary operations the same way. Bounded and
derandomized, so that CI sees the same examples every run.
"""

import copy
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import jsonsafe
from engine.scenarios import checks, scenariofile, victory
from engine.scenarios import edits as scenario_edits
from tests.conftest import MAP_DOCUMENT
from tests.scenarios.conftest import SAMPLE_MAPS, SAMPLES, SMALL

EXAMPLES = int(os.environ.get("HEXSIDE_FUZZ_EXAMPLES", "200"))  # more, by hand, to look further
BOUNDED = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MAPS = scenariofile.folder_maps(SAMPLE_MAPS)


def small():
    data = copy.deepcopy(SMALL)
    data["maps"][0]["document"] = copy.deepcopy(MAP_DOCUMENT)
    return data


BASES = {"small": small(), **{path.stem: json.loads(path.read_text(encoding="utf-8")) for path in SAMPLES}}


def paths(value, trail=()):
    """Every place in a JSON document, as a tuple of keys and indexes (an embedded map file as one place)."""
    yield trail
    if isinstance(value, dict) and value.get("format") != "hexside-map":
        for key, child in value.items():
            yield from paths(child, trail + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from paths(child, trail + (i,))


def leaves(value):
    """The document's own scalar values: ids, hexes, kinds, so that a replaced value is often nearly right."""
    if isinstance(value, dict):
        for child in value.values():
            yield from leaves(child)
    elif isinstance(value, list):
        for child in value:
            yield from leaves(child)
    else:
        yield value


PLACES = [(name, trail) for name, data in BASES.items() for trail in paths(data) if trail]
KNOWN = sorted({v for data in BASES.values() for v in leaves(data) if isinstance(v, str) and len(v) < 40})

scalars = (st.none() | st.booleans() | st.integers(-10, 10) | st.integers() | st.integers(2**63, 2**80)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12) | st.sampled_from(KNOWN))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=8) | st.sampled_from(KNOWN), inner, max_size=3),
                           max_leaves=8)


def put(data, trail, value):
    here = data
    for step in trail[:-1]:
        here = here[step]
    if value is REMOVE:
        del here[trail[-1]]
    else:
        here[trail[-1]] = value


REMOVE = object()


def read_all_the_way(data):
    """Parse; when it is accepted, the checks, the sentences and the writer must take it too."""
    try:
        doc = scenariofile.parse(data, MAPS)
    except scenariofile.ScenarioFormatError as exc:
        assert exc.errors
        for finding in exc.errors:
            assert isinstance(finding.path, str) and finding.path
            assert isinstance(finding.message, str) and finding.message
        return None
    checks.check(doc)
    victory.sentences_by_side(doc.data)
    try:
        jsonsafe.check(doc.data)
    except jsonsafe.UnsafeJSON:
        return doc  # a number past 64 bits, say: as text (all the API reads) it is refused before the reader
    assert scenariofile.parse(scenariofile.dumps(doc), MAPS).data == doc.data
    return doc


@BOUNDED
@given(place=st.sampled_from(PLACES), value=json_values | st.just(REMOVE))
def test_any_value_anywhere_is_a_format_error_or_accepted(place, value):
    name, trail = place
    data = copy.deepcopy(BASES[name])
    put(data, trail, value if value is REMOVE else copy.deepcopy(value))
    read_all_the_way(data)


@BOUNDED
@given(place=st.sampled_from(PLACES), value=json_values, twice=st.sampled_from(PLACES))
def test_two_values_anywhere(place, value, twice):
    data = copy.deepcopy(BASES[place[0]])
    put(data, place[1], copy.deepcopy(value))
    if twice[0] == place[0]:
        try:
            put(data, twice[1], copy.deepcopy(value))
        except (KeyError, IndexError, TypeError):
            pass  # the first change took that place away
    read_all_the_way(data)


@pytest.mark.parametrize("trail, value, path, message", [
    (("sides", 0, "placements", 2, "unit"), ["tank"], "sides[0].placements[2].unit",
     "expected a unit id (text), got a list"),
    (("sides", 0, "reinforcements", 0, "units", 0, "unit"), {"id": "sq"}, "sides[0].reinforcements[0].units[0].unit",
     "expected a unit id (text), got an object"),
    (("sides", 0, "victory", "kind"), ["control"], "sides[0].victory.kind", "expected a condition kind"),
    (("sides", 0, "victory", "objectives"), [["hill"]], "sides[0].victory.objectives[0]",
     "expected an objective id (text), got a list"),
    (("sides", 0, "victory"), {"kind": "hold", "objective": {}, "turns": 2}, "sides[0].victory.objective",
     "expected an objective id (text), got an object"),
    (("sides", 0, "victory"), {"kind": "exit", "units": 2, "edge": ["N"]}, "sides[0].victory.edge",
     "expected N, E, S or W"),
    (("play_area",), {}, "play_area.corners", "is required"),
])
def test_a_wrong_type_names_its_path(trail, value, path, message):
    data = small()
    put(data, trail, value)
    with pytest.raises(scenariofile.ScenarioFormatError) as caught:
        scenariofile.parse(data, MAPS)
    found = {f.path: f.message for f in caught.value.errors}
    assert path in found, found
    assert message in found[path]


def test_a_tocs_scenario_types_its_rules():
    data = copy.deepcopy(BASES["groesbeek-heights"])
    data["rules"] = {"module": ["OMG-N"], "turn_hours": {"h": 3}}
    with pytest.raises(scenariofile.ScenarioFormatError) as caught:
        scenariofile.parse(data, MAPS)
    found = {f.path: f.message for f in caught.value.errors}
    assert found["rules.module"] == "the module of the rules: expected text, got a list"
    assert found["rules.turn_hours"].startswith("the turn hours of the rules: expected a positive number")


# -- scenario edits --------------------------------------------------------------------------------------

def dotted(trail):
    out = ""
    for step in trail:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out


EDIT_PATHS = sorted({dotted(trail) for name, trail in PLACES if name == "small"}) + [
    "[0]", "[0].x", "sides[0][1]", "title[0]", "sides.x", ".title", "sides[99]", "rules.x.y"]
ints = st.integers(-2, 12)
operations = st.fixed_dictionaries(
    {"op": st.sampled_from(sorted(scenario_edits.OPERATIONS)) | json_values},
    optional={"path": st.sampled_from(EDIT_PATHS) | json_values, "value": json_values, "index": ints | json_values,
              "from": ints | json_values, "to": ints | json_values})


@BOUNDED
@given(ops=st.lists(operations, min_size=1, max_size=3) | json_values)
def test_any_scenario_edit_is_applied_or_refused_with_its_path(ops):
    try:
        doc, summary = scenario_edits.apply(small(), ops, MAPS)
    except scenario_edits.EditError as exc:
        assert exc.errors
        assert all(isinstance(p.path, str) and p.path and isinstance(p.message, str) for p in exc.errors)
        return
    assert isinstance(summary, str)
    read_all_the_way(doc.data)


def test_a_scenario_edit_path_starts_with_a_key():
    with pytest.raises(scenario_edits.EditError) as caught:
        scenario_edits.apply(small(), [{"op": "set", "path": "[0]", "value": 1}], MAPS)
    assert [(p.path, p.message) for p in caught.value.errors] == [
        ("operations[0].path", "[0]: a path starts with a key of the document, e.g. \"sides[0].oob\"")]


# -- the API and the command -------------------------------------------------------------------------------

BAD = [(("sides", 0, "placements", 0, "unit"), ["sq"]), (("sides", 1, "victory", "kind"), {"kind": "vp"}),
       (("sides", 0, "victory", "objectives"), [{"id": "hill"}]), (("play_area",), {})]


@pytest.mark.django_db
@pytest.mark.parametrize("trail, value", BAD)
def test_the_api_answers_a_wrong_type_400_naming_the_path(user_client, trail, value):
    data = small()
    put(data, trail, value)
    created = user_client.post("/api/scenarios/", {"document": data}, format="json")
    assert created.status_code == 400, created.content
    assert any(dotted(trail) in e["path"] for e in created.json()["errors"]), created.json()
    imported = user_client.post("/api/scenarios/import/", data, format="json")
    assert imported.status_code == 400, imported.content
    scenario = user_client.post("/api/scenarios/", {"document": small()}, format="json")
    assert scenario.status_code == 201, scenario.content
    edit = {"op": "set", "path": dotted(trail), "value": value}
    response = user_client.post(f"/api/scenarios/{scenario.json()['id']}/edits/",
                                {"revision": 1, "operations": [edit]}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"]


@pytest.mark.django_db
@pytest.mark.parametrize("trail, value", BAD)
def test_validate_scenario_reports_a_wrong_type(tmp_path, trail, value):
    from authoring.management.commands.validate_scenario import validate_file

    data = small()
    put(data, trail, value)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    doc, findings = validate_file(path, MAPS)
    assert doc is None and findings
    assert all(f.path and f.message for f in findings)
