"""Issue 27, point 8: a side link's holder, once the link is revoked, lists nothing of the jobs made for that
side (GET /api/jobs/), as reading them by id is a 404; their jobs of the public part stay theirs."""

import copy

import pytest
from rest_framework.test import APIClient

from authoring.models import Scenario, SideLink
from jobs.models import Job
from tests.scenarios.conftest import SMALL

pytestmark = pytest.mark.django_db


def client_of(user):
    client = APIClient()
    client.force_login(user)
    return client


def test_a_revoked_link_holders_job_list_keeps_nothing_of_that_sides_jobs(user, other_user, map_document):
    data = copy.deepcopy(SMALL)
    data["maps"][0]["document"] = map_document
    data["sides"][0]["brief"] = {"mission": "Hold the bridge at all costs."}
    created = client_of(user).post("/api/scenarios/", {"document": data, "published": True}, format="json")
    assert created.status_code == 201, created.json()
    scenario = Scenario.objects.get(pk=created.json()["id"])
    link = SideLink.objects.create(scenario=scenario, side="blue")
    holder = client_of(other_user)
    assert holder.get(f"/scenarios/{scenario.pk}/side/{link.token}/").status_code == 302  # kept in the session

    def job(sides, key):
        return Job.objects.create(kind="scenario-checks", subject_type="scenario", subject_id=scenario.pk,
                                  requested_by=other_user, content_hash=scenario.content_hash, request_key=key,
                                  parameters={"scenario": scenario.pk, "content_hash": scenario.content_hash,
                                              "maps": [], "sides": sides},
                                  status="succeeded", result={"ok": True, "findings": []})

    blue, public = job(["blue"], "blue-checks"), job([], "public-checks")
    listed = lambda: [entry["id"] for entry in holder.get("/api/jobs/").json()["results"]]  # noqa: E731
    assert sorted(listed()) == sorted([blue.pk, public.pk])
    assert holder.get(f"/api/jobs/{blue.pk}/").status_code == 200

    link.revoke()
    assert listed() == [public.pk]
    assert holder.get("/api/jobs/?kind=scenario-checks").json()["count"] == 1
    assert holder.get(f"/api/jobs/{blue.pk}/").status_code == 404
