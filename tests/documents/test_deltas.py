"""Revision deltas as deep as the documents keep their shape (documents/deltas.py): patching a delta gives the new
document and leaves the old one alone, and a one-hex edit of a scenario's embedded map stores a few bytes, not the
map again."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from authoring.models import Scenario
from documents import deltas
from engine.hexgrid import Grid
from tests.scenarios.conftest import SMALL

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=70) | st.dictionaries(st.text(max_size=2), inner, max_size=4),
    max_leaves=120,
)
documents = st.dictionaries(st.text(max_size=3), json_values, max_size=6)


@settings(max_examples=60, deadline=None)
@given(documents, documents)
def test_a_delta_patched_onto_the_old_document_gives_the_new_one(old, new):
    kept = copy.deepcopy(old)
    ops = deltas.delta(old, new)
    assert deltas.patch(old, json.loads(json.dumps(ops))) == new  # as stored: JSON
    assert old == kept


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 999), min_size=64, max_size=200, unique=True), st.data())
def test_long_lists_take_splices_of_what_changed(items, data):
    new = list(items)
    at = data.draw(st.integers(0, len(new)))
    new[at:at] = data.draw(st.lists(st.integers(1000, 1999), max_size=3))
    if new and data.draw(st.booleans()):
        del new[data.draw(st.integers(0, len(new) - 1))]
    old_doc, new_doc = {"hexes": items}, {"hexes": new}
    assert deltas.patch(old_doc, deltas.delta(old_doc, new_doc)) == new_doc
    assert len(json.dumps(deltas.delta(old_doc, new_doc))) < 120  # one insert and one removal, not the list


def test_a_one_hex_change_of_a_large_list_is_one_operation():
    grid = Grid("flat", 100, 100, "even", "letter-number")
    hexes = [{"hex": grid.label(c, r), "terrain": ["woods"]} for c, r in grid.hexes()]
    old = {"maps": [{"key": "m", "document": {"hexes": hexes}}]}
    new = copy.deepcopy(old)
    new["maps"][0]["document"]["hexes"][5000]["level"] = 2
    ops = deltas.delta(old, new)
    assert ops == [["set", ["maps", 0, "document", "hexes", 5000, "level"], 2]]
    patched = deltas.patch(old, ops)
    assert patched == new
    assert "level" not in old["maps"][0]["document"]["hexes"][5000]
    assert patched["maps"][0]["document"]["hexes"][4999] is old["maps"][0]["document"]["hexes"][4999]  # shared


def test_an_unknown_operation_is_refused():
    with pytest.raises(ValueError):
        deltas.patch({"a": 1}, [["move", ["a"], 2]])


@pytest.mark.django_db
def test_a_one_hex_edit_of_an_embedded_map_stores_a_few_bytes(user_client, map_document):
    small = copy.deepcopy(SMALL)
    small["maps"][0]["document"] = map_document
    grid = Grid("flat", 60, 60, "even", "letter-number")
    document = small["maps"][0]["document"]
    document["grid"] = grid.as_dict()
    document["hexes"] = [{"hex": grid.label(c, r), "terrain": ["woods"]} for c, r in grid.hexes() if (c + r) % 3]
    for side in small["sides"]:
        side.pop("reinforcements", None)
    created = user_client.post("/api/scenarios/", {"document": small}, format="json")
    assert created.status_code == 201, created.json()
    scenario_id = created.json()["id"]
    ops = [{"op": "set", "path": "maps[0].document.hexes[10].terrain", "value": ["brush"]}]
    edited = user_client.post(f"/api/scenarios/{scenario_id}/edits/", {"revision": 1, "operations": ops},
                              format="json")
    assert edited.status_code == 200, edited.json()
    scenario = Scenario.objects.get(pk=scenario_id)
    stored = scenario.revisions.get(number=2)
    document_bytes = len(json.dumps(scenario.document))
    assert stored.snapshot is None
    assert len(json.dumps(stored.changes)) * 500 < document_bytes
    assert scenario.document["maps"][0]["document"]["hexes"][10]["terrain"] == ["brush"]
    assert scenario.document_at(1)["maps"][0]["document"]["hexes"][10]["terrain"] == ["woods"]
