"""The scenario API: the shape of /api/maps/ (permissions, import/export, edits with revision, history)."""

import io
import json

import pytest
from django.core.management import call_command

from authoring.models import Scenario, ScenarioRevision
from tests.scenarios.conftest import SAMPLES

pytestmark = pytest.mark.django_db


@pytest.fixture
def samples(db):
    call_command("load_samples", stdout=io.StringIO())
    call_command("load_scenario_samples", stdout=io.StringIO())
    return {s.ruleset: s for s in Scenario.objects.all()}


@pytest.fixture
def scenario(user, user_client, small):
    response = user_client.post("/api/scenarios/", {"document": small}, format="json")
    assert response.status_code == 201, response.json()
    return Scenario.objects.get(pk=response.json()["id"])


def test_samples_load_and_export_byte_for_byte(samples, api_client):
    """Their owner downloads each sample as its file; anyone else gets its public part (tests/scenarios/
    test_hidden.py)."""
    assert set(samples) == {"ost", "ats", "assault", "miniatures", "tocs"}
    by_title = {s.title: s for s in samples.values()}
    api_client.force_authenticate(samples["ost"].owner)
    for path in SAMPLES:
        text = path.read_text(encoding="utf-8")
        scenario = by_title[json.loads(text)["title"]]
        response = api_client.get(f"/api/scenarios/{scenario.pk}/export/")
        assert response.status_code == 200
        assert response.content.decode("utf-8") == text
    out = io.StringIO()
    call_command("load_scenario_samples", stdout=out)
    assert "5 unchanged" in out.getvalue()


def test_blank_scenario_on_a_map_takes_the_map_ruleset(user_client, user_map):
    response = user_client.post("/api/scenarios/", {"title": "Meeting", "map": user_map.pk}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["ruleset"] == "ost"
    assert body["document"]["maps"] == [{"key": "main", "id": user_map.pk, "placement": [0, 0], "rotation": 0}]
    assert body["revision"] == 1


def test_a_private_map_of_another_user_cannot_be_used(user_client, other_private_map):
    response = user_client.post("/api/scenarios/", {"title": "Sneaky", "map": other_private_map.pk}, format="json")
    assert response.status_code == 400
    assert any(e["path"] == "maps[0].id" and "private map" in e["message"] for e in response.json()["errors"])
    assert Scenario.objects.count() == 0


def test_permissions_as_for_maps(scenario, user_client, other_client, api_client):
    url = f"/api/scenarios/{scenario.pk}/"
    assert other_client.get(url).status_code == 404
    assert api_client.get(url).status_code == 404
    listing = other_client.get("/api/scenarios/").json()
    assert (listing["results"] if isinstance(listing, dict) else listing) == []
    assert user_client.patch(url, {"published": True}, format="json").status_code == 200
    retitled = user_client.patch(url, {"title": "Renamed"}, format="json")
    assert retitled.status_code == 200 and retitled.json()["title"] == "Renamed"
    assert retitled.json()["revision"] == 2 and retitled.json()["published"] is True
    assert user_client.patch(url, {"title": " "}, format="json").status_code == 400
    assert api_client.get(url).status_code == 200
    assert other_client.get(url).status_code == 200
    edit = {"revision": 1, "operations": [{"op": "set", "path": "title", "value": "Mine now"}]}
    assert other_client.post(f"{url}edits/", edit, format="json").status_code == 403
    assert api_client.post(f"{url}edits/", edit, format="json").status_code in (401, 403)
    assert other_client.delete(url).status_code == 403
    assert other_client.patch(url, {"published": False}, format="json").status_code == 403
    assert user_client.delete(url).status_code == 204
    assert not Scenario.objects.filter(pk=scenario.pk).exists()


def test_edits_with_revision_and_409_on_stale_writing_nothing(scenario, user_client):
    url = f"/api/scenarios/{scenario.pk}/edits/"
    ops = [{"op": "insert", "path": "sides[1].oob", "value": {"id": "mg", "unit": "MMG", "count": 1}},
           {"op": "insert", "path": "sides[1].placements", "value": {"unit": "mg", "hex": "J7"}},
           {"op": "move", "path": "sides[1].oob", "from": 1, "to": 0}]
    response = user_client.post(url, {"revision": 1, "operations": ops}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["revision"] == 2
    scenario.refresh_from_db()
    assert [u["id"] for u in scenario.document["sides"][1]["oob"]] == ["mg", "sq"]
    before = (scenario.document, scenario.content_hash, scenario.revisions.count())
    stale = user_client.post(url, {"revision": 1, "operations": [{"op": "set", "path": "title", "value": "X"}]},
                             format="json")
    assert stale.status_code == 409
    assert stale.json()["revision"] == 2
    scenario.refresh_from_db()
    assert (scenario.document, scenario.content_hash, scenario.revisions.count()) == before


def test_bad_edits_report_every_problem_and_write_nothing(scenario, user_client):
    url = f"/api/scenarios/{scenario.pk}/edits/"
    ops = [{"op": "set", "path": "sides[0].oob[0].strength", "value": 3},
           {"op": "insert", "path": "sides[0].placements", "value": {"unit": "sq", "hex": "Q40"}},
           {"op": "remove", "path": "sides[7]"},
           {"op": "set", "path": "format", "value": "other"}]
    response = user_client.post(url, {"revision": 1, "operations": ops}, format="json")
    assert response.status_code == 400
    paths = {e["path"] for e in response.json()["errors"]}
    assert {"operations[2].path", "operations[3].path"} <= paths
    ops = ops[:2]
    response = user_client.post(url, {"revision": 1, "operations": ops}, format="json")
    assert response.status_code == 400
    errors = {(e["path"], e["hex"]): e["message"] for e in response.json()["errors"]}
    assert ("sides[0].oob[0].strength", None) in errors
    assert ("sides[0].placements[3].hex", "Q40") in errors
    scenario.refresh_from_db()
    assert scenario.revision == 1 and scenario.revisions.count() == 1


def test_import_reports_every_problem_and_saves_nothing(user_client, small):
    small["sides"][0]["oob"][0]["strength"] = 4
    small["sides"][0]["placements"][0]["hex"] = "Z99"
    small["sides"][1]["victory"] = {"kind": "hold", "objective": "gone", "turns": 1}
    small["sides"].append({"id": "green", "name": "Green"})  # a draft side with no units: not a format error
    response = user_client.post("/api/scenarios/import/", small, format="json")
    assert response.status_code == 400
    paths = {(e["path"], e["hex"]) for e in response.json()["errors"]}
    assert paths == {("sides[0].oob[0].strength", None), ("sides[0].placements[0].hex", "Z99"),
                     ("sides[1].victory.objective", None)}
    upload = io.BytesIO(b"{not json")
    upload.name = "broken.json"
    response = user_client.post("/api/scenarios/import/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert "not valid JSON" in response.json()["errors"][0]["message"]
    assert Scenario.objects.count() == 0 and ScenarioRevision.objects.count() == 0


def test_import_then_export_is_byte_identical(user_client, small):
    from engine.scenarios import scenariofile

    text = scenariofile.dumps(scenariofile.parse(small))
    upload = io.BytesIO(text.encode("utf-8"))
    upload.name = "small.json"
    response = user_client.post("/api/scenarios/import/", {"file": upload, "published": "true"}, format="multipart")
    assert response.status_code == 201, response.json()
    assert response.json()["published"] is True
    exported = user_client.get(response.json()["links"]["export"])
    assert exported.content.decode("utf-8") == text


def test_revisions_and_restore(scenario, user_client, other_client):
    url = f"/api/scenarios/{scenario.pk}/"
    user_client.post(f"{url}edits/", {"revision": 1, "operations": [{"op": "set", "path": "title", "value": "B"}]},
                     format="json")
    listing = user_client.get(f"{url}revisions/").json()
    numbers = [r["number"] for r in (listing["results"] if isinstance(listing, dict) else listing)]
    assert numbers == [2, 1]
    assert user_client.get(f"{url}revisions/1/").json()["document"]["title"] == "Small test"
    assert user_client.post(f"{url}revisions/1/restore/", {"revision": 1}, format="json").status_code == 409
    response = user_client.post(f"{url}revisions/1/restore/", {"revision": 2}, format="json")
    assert response.status_code == 200 and response.json()["revision"] == 3
    scenario.refresh_from_db()
    assert scenario.title == "Small test"
    assert user_client.post(f"{url}revisions/9/restore/", {}, format="json").status_code == 404


def test_schema_lists_the_scenario_routes(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for route in ("/api/scenarios/", "/api/scenarios/{id}/", "/api/scenarios/import/",
                  "/api/scenarios/{id}/export/", "/api/scenarios/{id}/edits/", "/api/scenarios/{id}/revisions/",
                  "/api/scenarios/{id}/revisions/{number}/restore/", "/api/scenarios/{id}/checks/",
                  "/api/scenarios/{id}/sight-lines/"):
        assert route in schema["paths"], route


def test_a_bad_sample_file_is_reported_and_the_others_still_load(db, tmp_path):
    from django.core.management.base import CommandError

    call_command("load_samples", stdout=io.StringIO())
    good = next(p for p in SAMPLES if p.stem == "hill-112")
    (tmp_path / good.name).write_text(good.read_text(encoding="utf-8"), encoding="utf-8")
    bad = json.loads(good.read_text(encoding="utf-8"))
    bad["title"] = "Broken"
    bad["sides"][0]["placements"][0]["hex"] = "Z40"
    (tmp_path / "broken.json").write_text(json.dumps(bad))
    err = io.StringIO()
    with pytest.raises(CommandError, match="not loaded: broken.json"):
        call_command("load_scenario_samples", dir=tmp_path, stdout=io.StringIO(), stderr=err)
    assert "sides[0].placements[0].hex (Z40)" in err.getvalue()
    assert list(Scenario.objects.values_list("title", flat=True)) == ["Hill 112: the Orne heights"]


def test_sight_lines_too_costly_are_refused_before_they_are_queued(user_client, small):
    from django.test import override_settings

    from jobs.models import Job

    created = user_client.post("/api/scenarios/", {"document": small}, format="json")
    assert created.status_code == 201, created.json()
    url = f"/api/scenarios/{created.json()['id']}/sight-lines/"
    with override_settings(HEXSIDE_MAX_SIGHT_LINES_HEXES=100):
        refused = user_client.post(url, format="json")
    assert refused.status_code == 400
    body = refused.json()
    assert body["limit"] == "HEXSIDE_MAX_SIGHT_LINES_HEXES" and "setup zones" in body["detail"]
    assert not Job.objects.filter(kind="sight-lines").exists()
