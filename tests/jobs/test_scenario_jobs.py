"""Scenario jobs (checks, sight lines) run by a real worker process, followed through the API."""

import copy

import pytest
from rest_framework.test import APIClient

from authoring.models import Scenario
from engine.scenarios import checks as scenario_checks
from tests.jobs.test_scenario_map_jobs import published_on
from tests.jobs.test_workers import follow
from tests.scenarios.conftest import SMALL

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_checks_and_sight_lines_through_a_worker(worker, django_user_model, map_document):
    owner = django_user_model.objects.create_user("planner", password="x")
    client = APIClient()
    client.force_login(owner)
    data = copy.deepcopy(SMALL)
    data["maps"][0]["document"] = map_document
    data["sides"][0]["placements"].append({"unit": "ldr", "hex": "E5"})  # outside Blue's zone
    created = client.post("/api/scenarios/", {"document": data}, format="json")
    assert created.status_code == 201, created.json()
    scenario = Scenario.objects.get(pk=created.json()["id"])

    asked = client.post(f"/api/scenarios/{scenario.pk}/checks/", format="json")
    assert asked.status_code == 202, asked.json()
    job = follow(client, asked.json()["url"])
    assert job["status"] == "succeeded", (job["error"], job["message"])
    assert job["kind"] == "scenario-checks" and job["scenario"] == scenario.pk
    expected = [f.as_dict() for f in scenario_checks.check(scenario.scenariodoc())]
    assert job["result"]["findings"] == expected
    outside = [f for f in expected if f["code"] == "setup-outside-zone"]
    assert outside and outside[0]["hex"] == "E5"
    assert job["result"]["victory"]["red"] == "Eliminate every Blue unit."

    again = client.post(f"/api/scenarios/{scenario.pk}/checks/", format="json")
    assert again.status_code == 200 and again.json()["id"] == job["id"]

    asked = client.post(f"/api/scenarios/{scenario.pk}/sight-lines/", format="json")
    assert asked.status_code == 202
    job = follow(client, asked.json()["url"])
    assert job["status"] == "succeeded", (job["error"], job["message"])
    assert set(job["result"]["sides"]) == {"blue", "red"}
    assert job["result"]["sides"]["blue"]["sentence"].startswith("Blue sees ")

    stranger = APIClient()
    assert stranger.get(asked.json()["url"]).status_code == 404  # a private scenario's job
    assert stranger.post(f"/api/scenarios/{scenario.pk}/checks/", format="json").status_code == 404


def test_the_worker_draws_the_pinned_map(worker, django_user_model, make_map):
    """A reader's job carries the map's id and content hash; the worker reads the map and draws it."""
    owner = django_user_model.objects.create_user("mapper", password="x")
    reader = django_user_model.objects.create_user("reader", password="x")
    board = make_map(owner, published=True, name="Board")
    scenario = published_on(owner, board)
    client = APIClient()
    client.force_login(reader)
    asked = client.post(f"/api/scenarios/{scenario.pk}/print/", {"format": "png"}, format="json")
    assert asked.status_code == 202, asked.json()
    job = follow(client, asked.json()["url"])
    assert job["status"] == "succeeded", (job["error"], job["message"])
    assert client.get(f"/api/jobs/{job['id']}/file/").status_code == 200
    board.published = False  # as the map's API does: its owner's scenarios on it go private with it
    board.save(update_fields=["published", "updated"])
    assert not Scenario.objects.get(pk=scenario.pk).published
    assert client.post(f"/api/scenarios/{scenario.pk}/print/", {"format": "png"}, format="json").status_code == 404
