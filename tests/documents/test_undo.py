"""The undo history rebuilt from a document's revisions (documents.undo): what a page finds after a reload."""

import copy

import pytest

from authoring import undo as scenario_undo
from authoring.models import Scenario
from documents import undo
from maps import undo as map_undo
from maps.models import Map
from tests.conftest import MAP_DOCUMENT
from tests.scenarios.conftest import SMALL

pytestmark = pytest.mark.django_db


def edit(client, url, revision, operations, undoes=None):
    body = {"revision": revision, "operations": operations}
    if undoes is not None:
        body["undoes"] = undoes
    response = client.post(url, body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()["revision"]


def history(client, url):
    response = client.get(url)
    assert response.status_code == 200, response.json()
    return response.json()


def test_stacks_follow_undo_redo_and_a_new_stroke():
    rows = [(2, "a"), (3, "b"), (4, "undo of revision 3: b"), (5, "undo of revision 4: b")]
    assert undo.stacks(rows) == ([2, 5], [])
    assert undo.stacks(rows[:3]) == ([2], [4])
    assert undo.stacks(rows[:3] + [(6, "c")]) == ([2, 6], [])  # a new stroke empties the redo stack
    assert undo.stacks(rows + [(6, "restored revision 1")]) == ([], [])


def test_map_undo_survives_a_reload_and_is_a_new_revision(user_client, user_map):
    url = f"/api/maps/{user_map.pk}/"
    r2 = edit(user_client, url + "edits/", 1, [{"op": "set_terrain", "hexes": ["A1", "B1"], "terrain": ["woods"]}])
    r3 = edit(user_client, url + "edits/", r2, [{"op": "set_level", "hexes": ["B1"], "level": 2},
                                                {"op": "set_hexside", "hex": "C4", "side": "SE",
                                                 "terrain": "stone-wall"},
                                                {"op": "rename", "name": "Hill 113"}])
    at_2 = Map.objects.get(pk=user_map.pk).document_at(r2)
    found = history(user_client, url + "undo/")
    assert found["revision"] == r3
    assert [e["revision"] for e in found["undo"]] == [r2, r3] and found["redo"] == []
    top = found["undo"][-1]
    assert "level 2 on B1" in top["label"]
    r4 = edit(user_client, url + "edits/", r3, top["operations"], undoes=top["revision"])
    map = Map.objects.get(pk=user_map.pk)
    assert r4 == r3 + 1 and map.document == at_2  # the undo is a new revision, the content back as it was
    assert map.revisions.get(number=r4).summary.startswith(f"undo of revision {r3}")

    found = history(user_client, url + "undo/")  # the page reloaded: the stacks come back from the revisions
    assert [e["revision"] for e in found["undo"]] == [r2]
    assert [e["revision"] for e in found["redo"]] == [r4]
    redo = found["redo"][-1]
    r5 = edit(user_client, url + "edits/", r4, redo["operations"], undoes=redo["revision"])
    map = Map.objects.get(pk=user_map.pk)
    assert map.document == map.document_at(r3)
    found = history(user_client, url + "undo/")
    assert [e["revision"] for e in found["undo"]] == [r2, r5] and found["redo"] == []

    undo_all = found["undo"]
    revision = r5
    for entry in reversed(undo_all):
        revision = edit(user_client, url + "edits/", revision, entry["operations"], undoes=entry["revision"])
    assert Map.objects.get(pk=user_map.pk).document == map.document_at(1)


def test_another_users_history_is_their_own(user_client, other_client, user, make_map):
    url = f"/api/maps/{make_map(user, published=True).pk}/"
    edit(user_client, url + "edits/", 1, [{"op": "set_terrain", "hexes": ["A1"], "terrain": ["woods"]}])
    assert history(other_client, url + "undo/")["undo"] == []  # not theirs to edit, nor their strokes


def test_map_inverse_puts_back_overlays_art_and_cleared_hexes():
    before = copy.deepcopy(MAP_DOCUMENT)
    after = copy.deepcopy(MAP_DOCUMENT)
    after["hexes"] = [h for h in after["hexes"] if h["hex"] != "E5"] + [{"hex": "A1", "terrain": ["woods"],
                                                                         "level": 0}]
    after["overlays"][0]["anchor"] = "B2"
    after["overlays"].append({"id": "new", "anchor": "A1", "rotation": 0, "hexes": [], "hexsides": []})
    ops = map_undo.inverse(before, after)
    names = [op["op"] for op in ops]
    assert {"op": "clear_hexes", "hexes": ["A1"]} in ops
    assert {"op": "remove_overlay", "id": "new"} in ops
    assert {"op": "move_overlay", "id": "H1", "anchor": "H3", "rotation": 2} in ops
    assert {"op": "set_art", "hex": "E5", "art": before["hexes"][2]["art"]} in ops
    assert "set_storeys" in names
    changed = copy.deepcopy(after)
    changed["grid"]["columns"] = 12
    assert map_undo.inverse(before, changed) is None


def test_scenario_undo_survives_a_reload(user_client):
    response = user_client.post("/api/scenarios/", {"document": copy.deepcopy(SMALL) | {
        "maps": [{**SMALL["maps"][0], "document": copy.deepcopy(MAP_DOCUMENT)}]}}, format="json")
    assert response.status_code == 201, response.json()
    scenario = Scenario.objects.get(pk=response.json()["id"])
    url = f"/api/scenarios/{scenario.pk}/"
    first = scenario.document
    r2 = edit(user_client, url + "edits/", 1, [{"op": "set", "path": "title", "value": "Bigger test"},
                                               {"op": "set", "path": "sides[0].name", "value": "Reds"}])
    found = history(user_client, url + "undo/")
    assert [e["revision"] for e in found["undo"]] == [r2]
    ops = found["undo"][0]["operations"]
    assert {op["path"] for op in ops} == {"title", "sides[0].name"}  # as deep as the change, not the whole side
    edit(user_client, url + "edits/", r2, ops, undoes=r2)
    assert Scenario.objects.get(pk=scenario.pk).document == first
    assert [e["revision"] for e in history(user_client, url + "undo/")["redo"]] == [r2 + 1]


def test_scenario_inverse_of_an_insert_is_a_remove():
    before = {"format": "x", "sides": [{"oob": [1, 2]}]}
    after = {"format": "x", "sides": [{"oob": [1, 9, 2]}]}
    assert scenario_undo.inverse(before, after) == [{"op": "remove", "path": "sides[0].oob[1]"}]
    assert scenario_undo.inverse(after, before) == [{"op": "insert", "path": "sides[0].oob", "index": 1,
                                                     "value": 9}]


def test_undoes_must_be_a_revision_number(user_client, user_map):
    response = user_client.post(f"/api/maps/{user_map.pk}/edits/", {"revision": 1, "undoes": "three", "operations": [
        {"op": "set_terrain", "hexes": ["A1"], "terrain": ["woods"]}]}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "undoes"


def test_undo_of_a_stroke_stored_as_a_snapshot(user_client):
    """A stroke over most of a big map is stored whole (a snapshot, no delta): its undo is found by comparing."""
    response = user_client.post("/api/maps/", {"name": "Big", "ruleset": "ost", "grid": {
        "orientation": "flat", "columns": 40, "rows": 30, "stagger": "even", "labels": "letter-number"}},
        format="json")
    map = Map.objects.get(pk=response.json()["id"])
    grid = map.state().doc.grid
    every = [grid.label(c, r) for c in range(40) for r in range(30)]
    url = f"/api/maps/{map.pk}/"
    r2 = edit(user_client, url + "edits/", 1, [{"op": "set_terrain", "hexes": every, "terrain": ["woods"]}])
    assert map.revisions.get(number=r2).changes is None
    r3 = edit(user_client, url + "edits/", r2, [{"op": "set_level", "hexes": ["A1"], "level": 1}])
    entries = history(user_client, url + "undo/")["undo"]
    assert [e["revision"] for e in entries] == [r2, r3]
    revision = r3
    for entry in reversed(entries):
        revision = edit(user_client, url + "edits/", revision, entry["operations"], undoes=entry["revision"])
    assert Map.objects.get(pk=map.pk).document == map.document_at(1)


def test_a_redo_is_named_after_the_stroke_it_redoes(user_client, user_map):
    url = f"/api/maps/{user_map.pk}/"
    r2 = edit(user_client, url + "edits/", 1, [{"op": "set_terrain", "hexes": ["A1"], "terrain": ["woods"]}])
    entry = history(user_client, url + "undo/")["undo"][-1]
    edit(user_client, url + "edits/", r2, entry["operations"], undoes=r2)
    redo = history(user_client, url + "undo/")["redo"][-1]
    assert redo["label"] == entry["label"] == "paint A1 woods"
