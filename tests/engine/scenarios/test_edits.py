"""Scenario edits by JSON path: applied all or nothing, each problem naming its operation."""

import pytest

from engine.scenarios import edits
from tests.scenarios.conftest import parse


@pytest.fixture
def document(small):
    return parse(small).data


def test_paths_are_read_step_by_step():
    assert edits.parse_path("sides[0].oob[12].count") == ["sides", 0, "oob", 12, "count"]
    for bad in ("", ".sides", "sides[x]", "sides..oob", 3):
        with pytest.raises(ValueError):
            edits.parse_path(bad)


def test_insert_move_remove_and_set(document):
    doc, summary = edits.apply(document, [
        {"op": "insert", "path": "sides[0].oob", "index": 0, "value": {"id": "mg", "unit": "MMG"}},
        {"op": "move", "path": "sides[0].oob", "from": 0, "to": 3},
        {"op": "remove", "path": "sides[0].placements[2]"},
        {"op": "set", "path": "special_rules", "value": ["Night falls on turn 5."]}])
    assert [u["id"] for u in doc.data["sides"][0]["oob"]] == ["sq", "tank", "ldr", "mg"]
    assert len(doc.data["sides"][0]["placements"]) == 2
    assert doc.data["special_rules"] == ["Night falls on turn 5."]
    assert summary.startswith("add to Blue's OOB; reorder Blue's OOB (1 to 4)")
    assert document["sides"][0]["oob"][0]["id"] == "sq"  # the document given is not changed


def test_every_bad_operation_is_named(document):
    with pytest.raises(edits.EditError) as caught:
        edits.apply(document, [
            {"op": "set", "path": "sides[9].name", "value": "X"},
            {"op": "insert", "path": "title", "value": "X"},
            {"op": "move", "path": "sides[0].oob", "from": 0, "to": 7},
            {"op": "rename", "path": "title"},
            {"op": "set", "path": "version", "value": 2},
            {"op": "remove"}])
    where = {p.path for p in caught.value.errors}
    assert where == {"operations[0].path", "operations[1].path", "operations[2].path", "operations[3].op",
                     "operations[4].path", "operations[5].path"}
    assert all(p.operation is not None for p in caught.value.errors)


def test_a_path_that_is_not_there_is_named_in_words(document):
    """What the editor shows when a change aims at a part someone removed meanwhile: the part by its name."""
    with pytest.raises(edits.EditError) as caught:
        edits.apply(document, [{"op": "remove", "path": "sides[7]"},
                               {"op": "set", "path": "sides[0].oob[9].count", "value": 2},
                               {"op": "insert", "path": "sides[1].name", "value": "X"}])
    said = {p.path: p.message for p in caught.value.errors}
    assert said == {"operations[0].path": "side 8 is not in the scenario (it may have been removed meanwhile)",
                    "operations[1].path": "the count of Blue's OOB line 10 is not in the scenario (it may have "
                                          "been removed meanwhile)",
                    "operations[2].path": "Red's name: insert needs a list"}
