"""Undo survives a reload after every kind of edit the painter and the scenario editor send: each edit below is
made through the API, the history is asked for afresh (what a reloaded page does), and its top entry, sent back,
puts the document back as it was; its redo makes the edit again. The operations the pages send are read from
static/js, so a new kind of edit that this test does not make fails it."""

import copy
import re
from pathlib import Path

import pytest

from authoring.models import Scenario
from maps.models import Map
from tests.conftest import MAP_DOCUMENT
from tests.documents.test_undo import edit, history
from tests.scenarios.conftest import SMALL

pytestmark = pytest.mark.django_db

JS = Path(__file__).resolve().parents[2] / "static" / "js"
OP = re.compile(r"""\bop:\s*["']([a-z_]+)["']""")
SCAN = {"image": "scan-abc.png", "origin": [12.5, 30.0], "hex_px": 40.0, "rotation": 1.5, "opacity": 0.4}
STAMP = {"id": "sel-1", "anchor": "B6", "rotation": 1, "hexes": [{"hex": [0, 0], "terrain": ["woods"]}],
         "hexsides": []}

# (what the designer did, the operations the page sends); each starts from the map as the one before left it.
MAP_EDITS = [
    ("brush", [{"op": "set_terrain", "hexes": ["A1", "B1"], "terrain": ["woods"]}]),
    ("level", [{"op": "set_level", "hexes": ["B1"], "level": 2}]),
    ("storeys", [{"op": "set_storeys", "hexes": ["E5"], "storeys": 3}]),
    ("label note", [{"op": "set_label_note", "hexes": ["C4"], "label_note": "orchard"}]),
    ("eraser", [{"op": "clear_hexes", "hexes": ["C4", "F2"]}]),
    ("art", [{"op": "set_art", "hex": "D5", "art": [[4.3, 6.7], [4.7, 6.7], [4.7, 7.1], [4.3, 7.1]]}]),
    ("art removed", [{"op": "clear_art", "hex": "E5"}]),
    ("hexside", [{"op": "set_hexside", "hex": "D5", "side": "N", "terrain": "hedge"}]),
    ("hexside cleared", [{"op": "clear_hexside", "hex": "C4", "side": "SE"}]),
    ("named stamp", [{"op": "place_overlay", "overlay": STAMP, "name": "Farm"}]),
    ("unnamed stamp", [{"op": "place_overlay", "overlay": {**STAMP, "id": "sel-2", "anchor": "H6"}}]),
    ("moved", [{"op": "move_overlay", "id": "sel-1", "anchor": "C6"}]),
    ("rotated", [{"op": "move_overlay", "id": "H1", "rotation": 3}]),
    ("named", [{"op": "name_overlay", "id": "H1", "name": "Orchard"}]),
    ("renamed", [{"op": "name_overlay", "id": "sel-1", "name": "Big farm"}]),
    ("name taken away", [{"op": "name_overlay", "id": "sel-1", "name": ""}]),
    ("named removed", [{"op": "remove_overlay", "id": "H1"}]),
    ("unnamed removed", [{"op": "remove_overlay", "id": "sel-2"}]),
    ("scan placed", [{"op": "set_background", "background": SCAN}]),
    ("scan faded", [{"op": "set_background", "background": {**SCAN, "opacity": 0.8}}]),
    ("scan removed", [{"op": "set_background", "background": None}]),
    ("renamed map", [{"op": "rename", "name": "Hill 113"}]),
    ("LOS examples", [{"op": "set_los_examples", "examples": [{"from": "A1", "to": "C3", "expect": "clear"}]}]),
    ("LOS examples removed", [{"op": "set_los_examples", "examples": []}]),
]

SCENARIO_EDITS = [
    ("title", [{"op": "set", "path": "title", "value": "Bigger test"}]),
    ("victory", [{"op": "set", "path": "sides[0].victory", "value": {"kind": "eliminate"}}]),
    ("special rule added", [{"op": "insert", "path": "special_rules", "value": "New special rule."}]),
    ("special rule removed", [{"op": "remove", "path": "special_rules[0]"}]),
    ("unit added", [{"op": "insert", "path": "sides[0].oob", "value": {"id": "mg", "unit": "MG Team"}}]),
    ("unit copied", [{"op": "insert", "path": "sides[0].oob", "index": 1, "value": {"id": "sq2", "unit": "Rifle"}}]),
    ("unit moved down", [{"op": "move", "path": "sides[0].oob", "from": 0, "to": 1}]),
    ("reinforcement", [{"op": "insert", "path": "sides[0].reinforcements",
                        "value": {"turn": 3, "units": [{"unit": "sq", "count": 1}], "edge": "E", "hexes": []}}]),
    ("reinforcement unit", [{"op": "insert", "path": "sides[0].reinforcements[0].units",
                             "value": {"unit": "tank", "count": 1}}]),
    ("reinforcement removed", [{"op": "remove", "path": "sides[0].reinforcements[1]"}]),
    ("placed", [{"op": "insert", "path": "sides[0].placements", "value": {"unit": "ldr", "hex": "B1"}}]),
    ("counter removed", [{"op": "remove", "path": "sides[0].placements[0]"}]),
    ("objective", [{"op": "insert", "path": "objectives", "value": {"id": "wood", "hex": "C4", "name": "Wood",
                                                                       "owner": "red"}}]),
    ("objective removed", [{"op": "remove", "path": "objectives[1]"}]),
    ("marker", [{"op": "insert", "path": "markers", "value": {"kind": "smoke", "hex": "E5", "side": None,
                                                               "facing": None}}]),
    ("marker removed", [{"op": "remove", "path": "markers[0]"}]),
    ("side added", [{"op": "insert", "path": "sides", "value": {"id": "green", "name": "Green", "oob": []}}]),
    ("side removed", [{"op": "set", "path": "sets_up_first", "value": None},
                      {"op": "remove", "path": "sides[2]"}]),
    ("unit removed", [{"op": "set", "path": "sides[1]", "value": {**SMALL["sides"][1], "oob": [], "placements": []}}]),
]


def sent_by_pages(*folders):
    """The operation names the page modules in these folders (or files) of static/js send."""
    found = set()
    for folder in folders:
        for path in [JS / folder] if folder.endswith(".js") else (JS / folder).rglob("*.js"):
            found |= set(OP.findall(path.read_text(encoding="utf-8")))
    return found


def made(cases):
    return {op["op"] for _, operations in cases for op in operations}


def test_every_operation_the_pages_send_is_made_here():
    assert sent_by_pages("painter", "documents/map.js") - made(MAP_EDITS) == set()
    assert sent_by_pages("scenario") - made(SCENARIO_EDITS) == set()


def walk(client, url, document, cases):
    """Make each edit, then (as after a reload) undo it from the history, check the document is back as it
    was, redo it from the history and check it is as the edit left it."""
    revision = 1
    for what, operations in cases:
        was = document()
        revision = edit(client, url + "edits/", revision, operations)
        now = document()
        assert now != was, what
        found = history(client, url + "undo/")
        assert found["undo"] and found["undo"][-1]["revision"] == revision, f"{what}: nothing to undo after a reload"
        top = found["undo"][-1]
        revision = edit(client, url + "edits/", revision, top["operations"], undoes=top["revision"])
        assert document() == was, f"{what}: the undo did not put it back"
        redo = history(client, url + "undo/")["redo"]
        assert redo and redo[-1]["revision"] == revision, f"{what}: nothing to redo after a reload"
        revision = edit(client, url + "edits/", revision, redo[-1]["operations"], undoes=redo[-1]["revision"])
        assert document() == now, f"{what}: the redo did not make the edit again"
    return revision


def test_map_undo_survives_a_reload_after_every_kind_of_edit(user_client, user_map):
    def document():
        return Map.objects.get(pk=user_map.pk).document

    url = f"/api/maps/{user_map.pk}/"
    revision = walk(user_client, url, document, MAP_EDITS)
    entries = history(user_client, url + "undo/")["undo"]
    assert len(entries) == len(MAP_EDITS)  # every redone edit is still on the stack: none cut it
    for entry in reversed(entries):
        revision = edit(user_client, url + "edits/", revision, entry["operations"], undoes=entry["revision"])
    assert document() == Map.objects.get(pk=user_map.pk).document_at(1)


def test_scenario_undo_survives_a_reload_after_every_kind_of_edit(user_client):
    data = copy.deepcopy(SMALL)
    data["maps"] = [{**SMALL["maps"][0], "document": copy.deepcopy(MAP_DOCUMENT)}]
    data["special_rules"] = ["Night."]
    data["markers"] = [{"kind": "smoke", "hex": "A1"}]
    data["sets_up_first"] = "red"
    response = user_client.post("/api/scenarios/", {"document": data}, format="json")
    assert response.status_code == 201, response.json()
    pk = response.json()["id"]

    def document():
        return Scenario.objects.get(pk=pk).document

    revision = walk(user_client, f"/api/scenarios/{pk}/", document, SCENARIO_EDITS)
    assert revision == 1 + 3 * len(SCENARIO_EDITS)
