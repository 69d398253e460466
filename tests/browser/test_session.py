"""The browser's apply against the server's: 1,000 random map operations of every kind, and a few hundred
scenario operations, applied by the JS document models (static/js/documents/) in Chromium and by the server
through the edits API; the two whole documents must be equal, and the JS inverses must bring the first back."""

import pytest
from django.test import Client

from authoring.models import Scenario
from maps.models import Map
from tests.browser.operations import MAP_OPERATIONS, MapOperations, ScenarioOperations
from tests.browser.painting import blank_map

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

APPLY = """async ([module, kind, document, batches]) => {
    const model = (await import(module))[kind].model(document), undo = [];
    for (const ops of batches) undo.unshift(model.apply(ops).inverse);
    const after = model.toDocument();
    for (const ops of undo) model.apply(ops);
    return [after, model.toDocument()];
}"""


def canonical_map(document):
    """A map document with its hexes and hexsides in one order (the server sorts them by column and row)."""
    out = dict(document)
    out["hexes"] = sorted(document["hexes"], key=lambda e: e["hex"])
    out["hexsides"] = sorted(document["hexsides"], key=lambda e: (e["hex"], e["side"]))
    return out


def post_batches(client, url, revision, batches):
    for ops in batches:
        answer = client.post(url, {"revision": revision, "operations": ops}, content_type="application/json")
        assert answer.status_code == 200, (answer.json(), ops)
        revision = answer.json()["revision"]
    return revision


def test_a_thousand_map_operations_give_the_servers_map(live_server, page, user):
    map = blank_map(user, "Random strokes", columns=16, rows=12)
    first = map.document
    generator = MapOperations(first, seed=20261201)
    batches = generator.batches(1000, 40)
    assert {op["op"] for ops in batches for op in ops} == set(MAP_OPERATIONS)
    client = Client()
    client.force_login(user)
    post_batches(client, f"/api/maps/{map.pk}/edits/", map.revision, batches)
    server = Map.objects.get(pk=map.pk).document

    page.goto(f"{live_server.url}/")
    js, undone = page.evaluate(APPLY, ["/static/js/documents/map.js", "mapKind", first, batches])
    assert len(server["hexes"]) > 20 and server["hexsides"] and server["overlays"]   # a map worth comparing
    assert canonical_map(js) == canonical_map(server)
    assert canonical_map(undone) == canonical_map(first)


def test_scenario_operations_give_the_servers_scenario(live_server, page, user):
    map = blank_map(user, "Scenario ground", columns=14, rows=10)
    client = Client()
    client.force_login(user)
    created = client.post("/api/scenarios/", {"title": "Random orders", "map": map.pk}, content_type="application/json")
    assert created.status_code == 201, created.content
    pk, revision = created.json()["id"], created.json()["revision"]
    squads = [{"id": "unit-1", "unit": "Rifle squad", "count": 40}]
    sides = [{"op": "insert", "path": "sides", "value": {"id": f"side-{n}", "name": f"Side {n}", "oob": squads}}
             for n in (1, 2)]
    post_batches(client, f"/api/scenarios/{pk}/edits/", revision, [sides])
    scenario = Scenario.objects.get(pk=pk)
    first = scenario.document
    batches = ScenarioOperations(first, map.document["grid"], seed=112).batches(300, 15)
    assert {op["op"] for ops in batches for op in ops} == {"set", "insert", "remove", "move"}
    post_batches(client, f"/api/scenarios/{pk}/edits/", scenario.revision, batches)
    server = Scenario.objects.get(pk=pk).document

    page.goto(f"{live_server.url}/")
    js, undone = page.evaluate(APPLY, ["/static/js/documents/scenario.js", "scenarioKind", first, batches])
    assert server["objectives"] or server["markers"]
    assert js == server
    assert undone == first
