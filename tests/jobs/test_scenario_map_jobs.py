"""A scenario's jobs carry its maps as the requester may read them (ids and content hashes, read from the maps'
rows on the web process) and the worker reads the documents: no job kind gives a private map through a published
scenario, to anyone but its owner (authoring/scenario_maps.py)."""

import copy

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from authoring.models import Scenario
from authoring.tasks import answer_export
from documents.models import forget_states
from engine.scenarios import scenariofile
from jobs.models import Job
from jobs.runner import JobError
from maps.models import Map
from tests.jobs.fixtures import broker_messages
from tests.scenarios.conftest import SMALL


@pytest.fixture(autouse=True)
def nothing_left_queued(jobs_isolated):
    """These tests queue jobs with no worker: their messages (about rows rolled back) are not the next test's."""
    yield
    for message in broker_messages(jobs_isolated):
        message.unlink(missing_ok=True)


KINDS = [("checks", None), ("sight-lines", None), ("print", {"format": "pdf"}), ("print", {"format": "png"})]


def published_on(owner, map):
    """A published scenario on ``map``, written by its row (as one published before the rule, or whose map went
    private after)."""
    data = copy.deepcopy(SMALL)
    data["maps"] = [{"key": "main", "id": map.pk}]
    doc = scenariofile.parse(data, lambda entry: map.mapdoc())
    scenario = Scenario.objects.create_from_doc(owner, doc)
    Scenario.objects.filter(pk=scenario.pk).update(published=True)
    return scenario


def ask(client, scenario, kind, body):
    return client.post(f"/api/scenarios/{scenario.pk}/{kind}/", body, format="json")


@pytest.mark.django_db
def test_no_job_kind_gives_a_private_map_through_a_published_scenario(user, user_client, other_client, user_map):
    scenario = published_on(user, user_map)
    owners = ask(user_client, scenario, "print", {"format": "png"})
    assert owners.status_code == 202, owners.json()
    job = Job.objects.get(pk=owners.json()["job"])
    assert job.parameters["maps"] == [["main", user_map.pk, user_map.content_hash]]
    Job.objects.filter(pk=job.pk).update(status=Job.Status.SUCCEEDED)  # the owner's PNG of their private map
    for client in (APIClient(), other_client):
        for kind, body in KINDS:
            answer = ask(client, scenario, kind, body)
            assert answer.status_code == 403, (kind, body, answer.json())
            assert answer.json()["errors"][0]["path"] == "maps[0].id"
            assert "private" in answer.json()["errors"][0]["message"]
    assert Job.objects.count() == 1


@pytest.mark.django_db
def test_starting_every_job_kind_reads_no_map_document(user, other_client, make_map, settings):
    settings.JOBS_LIVE_HEAVY = len(KINDS)  # no worker here: every job stays queued
    board = make_map(user, published=True, name="Board")
    scenario = published_on(user, board)
    forget_states()  # a web process that has not read the map
    with CaptureQueriesContext(connection) as queries:
        for kind, body in KINDS:
            answer = ask(other_client, scenario, kind, body)
            assert answer.status_code == 202, (kind, answer.json())
    assert [q["sql"] for q in queries if "maps_maprevision" in q["sql"]] == []
    pinned = {tuple(map(tuple, job.parameters["maps"])) for job in Job.objects.all()}
    assert pinned == {(("main", board.pk, board.content_hash),)}


@pytest.mark.django_db
def test_a_job_whose_map_went_private_before_it_ran_fails_without_drawing_it(user, other_user, other_client,
                                                                            make_map):
    board = make_map(user, published=True, name="Board")
    scenario = published_on(other_user, board)  # another user's scenario on the map
    asked = ask(other_client, scenario, "print", {"format": "png"})
    assert asked.status_code == 202
    Map.objects.filter(pk=board.pk).update(published=False)
    forget_states()
    with pytest.raises(JobError, match="map .* is gone or private"):  # what the worker's task does with it
        answer_export(Job.objects.get(pk=asked.json()["job"]))
