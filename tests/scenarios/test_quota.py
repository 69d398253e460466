"""Issue 27 point 5: a scenario's revisions (with the maps it embeds) count towards its owner's storage quota, and
a scenario write past the quota is refused with nothing written. The hostile sequence: one-hex edits of a
scenario embedding a large map, after which the quota tells the truth."""

import copy

import pytest

from authoring.models import Scenario, ScenarioRevision
from engine.hexgrid import Grid
from maps import quotas
from maps.writes import revision_bytes
from tests.scenarios.conftest import SMALL

pytestmark = pytest.mark.django_db


def embedding(map_document, size):
    data = copy.deepcopy(SMALL)
    grid = Grid("flat", size, size, "even", "letter-number")
    document = copy.deepcopy(map_document)
    document["grid"] = grid.as_dict()
    document["hexes"] = [{"hex": grid.label(c, r), "terrain": ["woods"]} for c, r in grid.hexes() if (c * r) % 5]
    data["maps"][0]["document"] = document
    for side in data["sides"]:
        side.pop("reinforcements", None)
    return data


def edit(client, pk, revision, index):
    ops = [{"op": "set", "path": f"maps[0].document.hexes[{index}].terrain", "value": ["brush"]}]
    return client.post(f"/api/scenarios/{pk}/edits/", {"revision": revision, "operations": ops}, format="json")


def test_a_scenarios_revisions_count_and_the_quota_tells_the_truth(user, user_client, map_document):
    before = quotas.used(user.pk)
    created = user_client.post("/api/scenarios/", {"document": embedding(map_document, 60)}, format="json")
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    for k in range(6):
        assert edit(user_client, pk, k + 1, 100 * k).status_code == 200
    scenario = Scenario.objects.get(pk=pk)
    revisions = sum(revision_bytes(r) for r in ScenarioRevision.objects.filter(scenario=scenario))
    assert scenario.stored_bytes == revisions > 0
    assert quotas.used(user.pk) - before == revisions
    first = revision_bytes(ScenarioRevision.objects.get(scenario=scenario, number=1))
    assert revisions - first < first / 20  # six one-hex edits: a few bytes each, not the embedded map again
    assert quotas.usage(user)["used"] == quotas.used(user.pk)


def test_a_scenario_past_the_quota_is_refused_and_nothing_is_written(user, user_client, map_document, settings):
    created = user_client.post("/api/scenarios/", {"document": embedding(map_document, 30)}, format="json")
    assert created.status_code == 201
    pk = created.json()["id"]
    used = quotas.used(user.pk)
    settings.HEXSIDE_STORAGE_QUOTA_MB = (used + 10) / quotas.MB
    refused = user_client.post("/api/scenarios/", {"document": embedding(map_document, 30)}, format="json")
    assert refused.status_code == 400, refused.json()
    message = refused.json()["errors"][0]["message"]
    assert "this scenario needs" in message and "delete a map, a scenario" in message
    assert Scenario.objects.count() == 1
    settings.HEXSIDE_STORAGE_QUOTA_MB = used / quotas.MB
    refused = edit(user_client, pk, 1, 3)
    assert refused.status_code == 400, refused.json()
    assert "this change needs" in refused.json()["errors"][0]["message"]
    scenario = Scenario.objects.get(pk=pk)
    assert scenario.revision == 1 and scenario.revisions.count() == 1 and quotas.used(user.pk) == used
