"""Issue 17, point 11: any JSON value in any field of a map edit operation (or of the map file) is a problem naming
its path, never a crash.

For every operation kind, hypothesis starts from a valid operation and puts arbitrary JSON values in its fields
(or drops them, or adds one); engine.edits.apply either applies it or raises EditError. The map file gets the
same treatment as the scenario file (tests/test_hypothesis_scenarios.py). A few examples go through the API,
which must answer 400 and not 500. Bounded and derandomized.
"""

import copy
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import edits, mapfile
from tests.conftest import MAP_DOCUMENT
from tests.test_hypothesis_scenarios import REMOVE, json_values, paths, put

EXAMPLES = int(os.environ.get("HEXSIDE_FUZZ_EXAMPLES", "200"))  # more, by hand, to look further
BOUNDED = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
DOC = mapfile.parse(MAP_DOCUMENT)

# One valid operation of each kind: hypothesis changes its fields one or more at a time.
VALID = {
    "set_terrain": {"hexes": ["C4", [1, 1]], "terrain": ["woods"]},
    "set_level": {"hexes": ["C4"], "level": 1},
    "set_storeys": {"hexes": ["E5"], "storeys": 2},
    "set_label_note": {"hexes": ["C4"], "label_note": "ford"},
    "clear_hexes": {"hexes": ["C4"]},
    "set_art": {"hex": "C4", "art": [[[2.8, 5.9], [3.2, 5.9], [3.2, 6.2]]]},
    "clear_art": {"hex": "E5"},
    "set_hexside": {"hex": "C4", "side": "N", "terrain": "hedge"},
    "clear_hexside": {"hex": "C4", "side": "SE"},
    "place_overlay": {"overlay": {"id": "H2", "anchor": "B2", "rotation": 0,
                                  "hexes": [{"hex": [0, 0], "terrain": ["woods"]}],
                                  "hexsides": [{"hex": [0, 0], "side": "S", "terrain": "hedge"}]}},
    "move_overlay": {"id": "H1", "anchor": "D4", "rotation": 1},
    "remove_overlay": {"id": "H1"},
    "name_overlay": {"id": "H1", "name": "Farmhouse"},
    "set_background": {"background": {"image": "scan.png", "origin": [10, 12], "hex_px": 40, "rotation": 0.5,
                                      "opacity": 0.6}},
    "rename": {"name": "Hill 113"},
    "set_los_examples": {"examples": [{"from": "C4", "to": "E5", "expect": "blocked", "note": "the woods"}]},
}
KNOWN = ["C4", "E5", "H1", "N", "SE", "woods", "hedge", "open", "scan.png", [0, 0], [1, 1], "Z99", {}, [], ""]
values = json_values | st.sampled_from(KNOWN)
_DROP = object()


def test_every_operation_kind_has_a_valid_example():
    assert set(VALID) == set(edits.OPERATIONS)
    for name, fields in VALID.items():
        edits.apply(DOC, [{"op": name, **copy.deepcopy(fields)}])


def valid_op_values():
    """Every place inside the valid operations, as (operation name, trail)."""
    return [(name, trail) for name, fields in VALID.items() for trail in paths(fields) if trail]


def key_of_operation():
    return [(name, key) for name, (_, required, optional) in edits.OPERATIONS.items() for key in required + optional]


@st.composite
def operations(draw):
    """A valid operation with one to three places in it given arbitrary values (or taken away)."""
    name = draw(st.sampled_from(sorted(VALID)))
    op = {"op": name, **copy.deepcopy(VALID[name])}
    places = [trail for n, trail in valid_op_values() if n == name]
    places += [(key,) for n, key in key_of_operation() if n == name and key not in op]  # optional keys unused
    for trail in draw(st.lists(st.sampled_from(places), min_size=1, max_size=3)):
        value = draw(values | st.just(_DROP))
        try:
            if value is _DROP:
                put(op, trail, REMOVE)
            else:
                put(op, trail, copy.deepcopy(value))
        except (KeyError, IndexError, TypeError):
            pass  # an earlier change took that place away
    if draw(st.booleans()):
        op[draw(st.sampled_from(["extra", "op", "hexes", "hex"]))] = copy.deepcopy(draw(values))
    return op


def assert_applied_or_refused(ops):
    try:
        doc, summary = edits.apply(DOC, ops)
    except edits.EditError as exc:
        assert exc.errors
        for problem in exc.errors:
            assert isinstance(problem.path, str) and problem.path.startswith("operations")
            assert isinstance(problem.message, str) and problem.message
        return None
    assert isinstance(summary, str)
    # What an edit accepts, the map file takes: the edited map writes and reads back the same.
    assert mapfile.parse(mapfile.dumps(doc)) == mapfile.parse(mapfile.dumps(mapfile.parse(mapfile.dumps(doc))))
    return doc


@BOUNDED
@given(ops=st.lists(operations(), min_size=1, max_size=3))
def test_any_value_in_any_operation_field_is_applied_or_refused(ops):
    assert_applied_or_refused(ops)


@BOUNDED
@given(ops=values | st.lists(values | st.fixed_dictionaries({"op": st.sampled_from(sorted(VALID)) | values}),
                              min_size=1, max_size=3))
def test_any_request_body_is_applied_or_refused(ops):
    assert_applied_or_refused(ops)


MAP_PLACES = [trail for key, value in MAP_DOCUMENT.items() for trail in paths(value, (key,))]


@BOUNDED
@given(trail=st.sampled_from(MAP_PLACES), value=values | st.just(_DROP))
def test_any_value_anywhere_in_a_map_file_is_a_format_error_or_accepted(trail, value):
    data = copy.deepcopy(MAP_DOCUMENT)
    put(data, trail, REMOVE if value is _DROP else copy.deepcopy(value))
    try:
        doc = mapfile.parse(data)
    except mapfile.MapFormatError as exc:
        assert exc.errors and all(f.path and f.message for f in exc.errors)
        return
    mapfile.dumps(doc)


@pytest.mark.parametrize("background", [{}, {"image": "scan.png"}, {"origin": [0, 0], "hex_px": 4}, [], "scan.png"])
def test_set_background_with_a_part_missing_names_what_is_missing(background):
    with pytest.raises(edits.EditError) as caught:
        edits.apply(DOC, [{"op": "set_background", "background": background}])
    assert all(p.path.startswith("operations[0].") for p in caught.value.errors)
    if background == {}:
        assert {p.path for p in caught.value.errors} == {f"operations[0].background.{key}"
                                                        for key in ("image", "origin", "hex_px")}


# -- through the API -------------------------------------------------------------------------------------

API_EXAMPLES = [
    [{"op": "set_background", "background": {}}],
    [{"op": "set_terrain", "hexes": [{"C4": 1}], "terrain": ["woods"]}],
    [{"op": "set_hexside", "hex": "C4", "side": ["N"], "terrain": {"t": "hedge"}}],
    [{"op": "place_overlay", "overlay": {"id": [], "anchor": {}, "hexes": "C4"}}],
    [{"op": "move_overlay", "id": {"H1": 1}, "rotation": []}],
    [{"op": ["rename"], "name": "x"}],
    [{"op": "rename", "name": {"n": 1}}],
]


@pytest.mark.django_db
@pytest.mark.parametrize("operations", API_EXAMPLES)
def test_the_api_answers_bad_operations_400(user_client, user_map, operations):
    response = user_client.post(f"/api/maps/{user_map.pk}/edits/", {"revision": 1, "operations": operations},
                                format="json")
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert errors and all(e["path"].startswith("operations[0]") for e in errors), errors


@pytest.mark.django_db
def test_the_board_scan_alignment_with_an_empty_object_is_400(user_client, user_map):
    response = user_client.post(f"/api/maps/{user_map.pk}/edits/",
                                {"revision": 1, "operations": [{"op": "set_background", "background": {}}]},
                                format="json")
    assert response.status_code == 400
    assert "operations[0].background.origin" in {e["path"] for e in response.json()["errors"]}


@pytest.mark.django_db
@pytest.mark.parametrize("body", ["[" * 100_000 + "]" * 100_000, '{"username": ' * 5_000 + "1" + "}" * 5_000,
                                  '{"username": "a", "password": ' + "[" * 2_000 + "]" * 2_000 + "}"])
def test_the_token_view_refuses_deep_json_with_400(client, body):
    response = client.post("/api/token/", body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert "nested deeper" in response.content.decode()


@pytest.mark.django_db
def test_a_form_body_with_too_many_fields_is_400(user_client, user_map):
    """Django refuses more than DATA_UPLOAD_MAX_NUMBER_FIELDS form fields while DRF parses the body: a 400 in the
    documents' shape (it was a 500), here at an endpoint that takes a form (the board scan's upload)."""
    fields = {f"f{i}": "x" for i in range(1_500)}
    response = user_client.post(f"/api/maps/{user_map.pk}/background/", fields, format="multipart")
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["path"] == "$"
    edits = user_client.post(f"/api/maps/{user_map.pk}/edits/", fields, format="multipart")
    assert edits.status_code == 415  # operations are JSON only, as the schema says


@pytest.mark.django_db
@pytest.mark.parametrize("body", ["\x00", "{", "[1,", '{"revision": NaN}'])
def test_edits_that_are_not_json_are_400_in_the_edits_shape(user_client, user_map, body):
    response = user_client.post(f"/api/maps/{user_map.pk}/edits/", body, content_type="application/json")
    assert response.status_code == 400
    problem = response.json()["errors"][0]
    assert problem["path"] == "$" and problem["operation"] is None and problem["message"]
