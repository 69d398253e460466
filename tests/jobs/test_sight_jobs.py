"""The sight jobs run by the shared worker answer what the command line prints (analyze_map --exposure, --route,
--min-height, --diff), and each refuses a bad request in the designer's words before anything is queued."""

import copy
import io

import pytest
from pypdf import PdfReader
from rest_framework.test import APIClient

from maps.models import apply_edits
from tests.jobs.test_workers import command, follow, map_file
from tests.scenarios.conftest import SMALL

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def run(client, map, name, data):
    response = client.post(f"/api/maps/{map.pk}/{name}/", data, format="json")
    assert response.status_code in (200, 202), response.json()
    body = follow(client, response.json()["url"])
    assert body["status"] == "succeeded", body
    return body["result"]


def test_the_sight_jobs_answer_what_analyze_map_prints(worker, user_client, user_map, tmp_path):
    path = map_file(user_map, tmp_path)
    result = run(user_client, user_map, "exposure", {"observers": ["A1", "D5", "H3"]})
    expected = command("analyze_map", path, "--exposure", "A1,D5,H3")
    assert {k: result[k] for k in expected} == expected
    assert len(result["seen"]) == 80 and result["seen"][0] == expected["hexes"]["A1"]["seen"]

    route = run(user_client, user_map, "route", {"from": "A1", "to": "J8", "observers": ["E1", "E8"]})
    expected = command("analyze_map", path, "--route", "A1", "J8", "--observers", "E1,E8")
    assert {k: route[k] for k in expected} == expected
    drawn = run(user_client, user_map, "route", {"route": ["A1", "A2", "A3"], "observers": ["E1"]})
    assert [h["hex"] for h in drawn["hexes"]] == ["A1", "A2", "A3"] and drawn["drawn"]

    height = run(user_client, user_map, "minimum-height", {"from": "D5"})
    assert height == command("analyze_map", path, "--min-height", "D5")

    woods = {"op": "set_terrain", "hexes": ["E3", "E4", "E5"], "terrain": ["woods"]}
    apply_edits(user_map.pk, user_map.owner, None, [woods])
    user_map.refresh_from_db()
    new_path = map_file(user_map, tmp_path)
    diff = run(user_client, user_map, "diff", {"old": 1})
    expected = command("analyze_map", "--diff", path, new_path)
    assert {k: diff[k] for k in expected} == expected
    assert diff["old"] == 1 and diff["new"] == user_map.revision


def test_a_bad_sight_request_is_refused_by_its_field(user_client, user_map):
    answers = {
        "exposure": ({"observers": ["Z99"]}, "observers"),
        "route": ({"observers": ["A1"]}, "route"),
        "minimum-height": ({"from": "Q1"}, "from"),
        "diff": ({"old": 99}, "old"),
    }
    for name, (data, field) in answers.items():
        response = user_client.post(f"/api/maps/{user_map.pk}/{name}/", data, format="json")
        assert response.status_code == 400, (name, response.json())
        assert field in response.json(), (name, response.json())
    unit = user_client.post(f"/api/maps/{user_map.pk}/route/", {"from": "A1", "to": "B2", "observers": ["A1"],
                                                                "unit_class": "dragon"}, format="json")
    assert unit.status_code == 400 and "moves" in str(unit.json()["unit_class"])


def test_an_exposure_past_the_bound_is_refused_before_it_is_queued(user_client, user_map, settings):
    settings.HEXSIDE_MAX_ANALYSIS_PAIRS = 100
    response = user_client.post(f"/api/maps/{user_map.pk}/exposure/", {"observers": ["A1", "A2"]}, format="json")
    assert response.status_code == 400
    assert response.json()["limit"] == "HEXSIDE_MAX_ANALYSIS_PAIRS" and response.json()["cost"] == 160


def test_a_scenario_prints_its_maps_los_examples(worker, django_user_model, map_document):
    owner = django_user_model.objects.create_user("examiner", password="x")
    client = APIClient()
    client.force_login(owner)
    data = copy.deepcopy(SMALL)
    data["maps"][0]["document"] = copy.deepcopy(map_document)
    data["maps"][0]["document"]["extensions"]["los_examples"] = {"version": 1, "cases": [
        {"from": "A4", "to": "J4", "expect": "clear", "note": "along the valley"}]}
    created = client.post("/api/scenarios/", {"document": data}, format="json")
    assert created.status_code == 201, created.json()
    asked = client.post(f"/api/scenarios/{created.json()['id']}/print/", {"format": "los-examples"}, format="json")
    assert asked.status_code == 202, asked.json()
    job = follow(client, asked.json()["url"])
    assert job["status"] == "succeeded", job
    pdf = b"".join(client.get(job["result_file"]).streaming_content)
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "along the valley" in text and "A4 → J4" in text
