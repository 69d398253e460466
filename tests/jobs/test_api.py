"""The job API without workers: checking requests, who may, the same request answered once, stale results,
cancelling, listing, the schema, and a broker that cannot be reached."""

import itertools
import json

import pytest
from drf_spectacular.validation import validate_schema

from hexside.celery import app
from jobs import dispatch, runner
from jobs.models import Job, JobPart
from maps.models import apply_edits
from tests.jobs.fixtures import broker_messages, use_broker

pytestmark = pytest.mark.django_db


def post(client, map, kind, data):
    return client.post(f"/api/maps/{map.pk}/{kind}/", data, format="json")


def run_here(job, result):
    """Do what a worker would: take the job and store a result."""
    taken = runner.take(job.pk, "test pid 0")
    assert runner.finish(taken, runner.Outcome(result))


# -- asking -----------------------------------------------------------------------------------------------

def test_a_los_request_is_queued_and_answered_202_with_the_job(user_client, user_map, jobs_isolated):
    response = post(user_client, user_map, "los", {"from": "C4", "to": [7, 5], "from_level": 1})
    assert response.status_code == 202, response.content
    job = Job.objects.get()
    assert response.json() == {"job": job.pk, "url": f"/api/jobs/{job.pk}/"}
    assert job.kind == "los" and job.status == "queued" and job.content_hash == user_map.content_hash
    assert job.parameters == {"from": "C4", "to": "H6", "from_level": 1, "to_level": None, "markers": []}
    assert len(broker_messages(jobs_isolated)) == 1


def test_a_level_a_unit_can_stand_at_is_asked(user_client, user_map, jobs_isolated):
    for level in (-1, 12):  # the lowest ground, the top storey of a 10-storey building on the highest hill
        assert post(user_client, user_map, "los", {"from": "C4", "to": "D5", "from_level": level}).status_code == 202


@pytest.mark.parametrize("kind, data, field, words", [
    ("los", {"from": "Z99", "to": "C4"}, "from", "off the map"),
    ("los", {"from": "C4"}, "to", "required"),
    ("los", {"from": "C4", "to": "D5", "from_level": "high"}, "from_level", "integer"),
    ("los", {"from": "C4", "to": "D5", "form": "C4"}, "form", "unknown field"),
    ("los", {"from": "C4", "to": "D5", "markers": [{"hex": "E6", "kind": "fog"}]}, "markers", "not a valid choice"),
    ("los", {"from": "C4", "to": "D5", "markers": [{"hex": "Q1", "kind": "smoke"}]}, "markers", "off the map"),
    ("viewshed", {"from": [40, 2]}, "from", "off the map"),
    ("viewshed", {"from": "C4", "level": 5000}, "level", "less than or equal"),
    # OST stands from level -1 to its highest hill (3) plus nine upper storeys
    ("los", {"from": "C4", "to": "D5", "from_level": 13}, "from_level", "outside what a unit can stand at in Old"),
    ("los", {"from": "C4", "to": "D5", "to_level": -2}, "to_level", "from -1 (its lowest ground) to 12"),
    ("viewshed", {"from": "C4", "level": 40}, "level", "outside what a unit can stand at"),
    ("analysis", {"height": "tall"}, "height", "integer"),
    ("los", {"from": "C4", "to": "D5", "group": ["Z99"]}, "group", "off the map"),
    ("los", {"from": "C4", "to": "D5", "group": ["C5"] * 6}, "group", "no more than 5"),
])
def test_a_wrong_request_is_refused_naming_the_field_and_nothing_is_queued(user_client, user_map, jobs_isolated,
                                                                            kind, data, field, words):
    response = post(user_client, user_map, kind, data)
    assert response.status_code == 400
    body = response.json()
    assert list(body) == [field]
    assert words in json.dumps(body[field])
    assert not Job.objects.exists()
    assert broker_messages(jobs_isolated) == []


def test_an_analysis_is_queued_as_a_group_of_parts_covering_every_observer(user_client, user_map, jobs_isolated):
    response = post(user_client, user_map, "analysis", {})
    assert response.status_code == 202
    job = Job.objects.get()
    parts = list(job.parts.order_by("index"))
    assert job.step == "parts" and job.parts_total == len(parts) == 4
    assert parts[0].start == 0 and parts[-1].stop == user_map.hex_grid().size
    assert all(a.stop == b.start for a, b in itertools.pairwise(parts))
    assert len(broker_messages(jobs_isolated)) == 4
    assert job.parameters == {"height": 0, "markers": []}


# -- who may ----------------------------------------------------------------------------------------------

def test_a_private_map_of_another_user_and_its_jobs_do_not_exist_for_others(user_client, other_client,
                                                                            user_map, api_client):
    assert post(other_client, user_map, "los", {"from": "C4", "to": "D5"}).status_code == 404
    assert post(api_client, user_map, "viewshed", {"from": "C4"}).status_code == 404
    job_url = post(user_client, user_map, "los", {"from": "C4", "to": "D5"}).json()["url"]
    assert other_client.get(job_url).status_code == 404
    assert api_client.get(job_url).status_code == 404
    assert user_client.get(job_url).status_code == 200


def test_starting_a_job_needs_a_signed_in_user_and_anonymous_visitors_get_stored_answers(
        api_client, user_client, other_published_map):
    refused = post(api_client, other_published_map, "los", {"from": "A1", "to": "J8"})
    assert refused.status_code in (401, 403)
    assert "Sign in to start a job" in refused.json()["detail"]
    assert "/api/" not in refused.json()["detail"] and "admin" not in refused.json()["detail"]  # a designer's words
    assert not Job.objects.exists()

    asked = post(user_client, other_published_map, "los", {"from": "A1", "to": "J8"})
    assert asked.status_code == 202
    job = Job.objects.get()
    assert post(api_client, other_published_map, "los", {"from": "A1", "to": "J8"}).status_code in (401, 403)
    run_here(job, {"result": "clear"})
    stored = post(api_client, other_published_map, "los", {"from": "A1", "to": "J8"})
    assert stored.status_code == 200
    assert stored.json()["id"] == job.pk and stored.json()["result"] == {"result": "clear"}
    assert Job.objects.count() == 1


# -- the same request -------------------------------------------------------------------------------------

def test_the_same_request_shares_the_queued_job_then_gets_the_finished_one_at_once(user_client, other_client,
                                                                                   other_published_map,
                                                                                   jobs_isolated):
    first = post(user_client, other_published_map, "los", {"from": "C4", "to": "H6"})
    again = post(other_client, other_published_map, "los", {"from": [2, 3], "to": "h6", "markers": []})
    assert first.status_code == again.status_code == 202
    assert first.json() == again.json()
    assert Job.objects.count() == 1 and len(broker_messages(jobs_isolated)) == 1

    job = Job.objects.get()
    run_here(job, {"result": "clear"})
    done = post(user_client, other_published_map, "los", {"from": "C4", "to": "H6"})
    assert done.status_code == 200
    assert done.json()["id"] == job.pk and done.json()["result"] == {"result": "clear"}
    assert Job.objects.count() == 1 and len(broker_messages(jobs_isolated)) == 1

    other = post(user_client, other_published_map, "los", {"from": "C4", "to": "H6", "to_level": 2})
    assert other.status_code == 202 and other.json()["job"] != job.pk


def test_a_failed_or_cancelled_job_is_not_reused(user_client, user_map):
    first = post(user_client, user_map, "viewshed", {"from": "C4"}).json()["job"]
    runner.fail(first, "something broke")
    second = post(user_client, user_map, "viewshed", {"from": "C4"}).json()["job"]
    assert second != first
    user_client.post(f"/api/jobs/{second}/cancel/")
    third = post(user_client, user_map, "viewshed", {"from": "C4"}).json()["job"]
    assert third not in (first, second)


def test_after_an_edit_the_job_is_stale_and_the_same_request_computes_again(user, user_client, user_map):
    first = post(user_client, user_map, "los", {"from": "C4", "to": "H6"}).json()
    job = Job.objects.get(pk=first["job"])
    run_here(job, {"result": "clear"})
    assert user_client.get(first["url"]).json()["stale"] is False

    apply_edits(user_map.pk, user, None, [{"op": "set_terrain", "hexes": ["E5"], "terrain": ["woods"]}])
    body = user_client.get(first["url"]).json()
    assert body["stale"] is True and body["map_hash"] == job.content_hash
    again = post(user_client, user_map, "los", {"from": "C4", "to": "H6"})
    assert again.status_code == 202 and again.json()["job"] != job.pk


# -- following, cancelling, listing -----------------------------------------------------------------------

def test_a_job_shows_status_progress_result_error_and_map_hash(user_client, user_map):
    url = post(user_client, user_map, "los", {"from": "C4", "to": "H6"}).json()["url"]
    body = user_client.get(url).json()
    for key in ("id", "kind", "status", "progress", "message", "result", "error", "map", "map_hash", "stale",
                "parameters", "created", "started", "finished", "attempts", "worker", "result_file"):
        assert key in body
    assert (body["status"], body["progress"], body["result"], body["map"]) == ("queued", 0, None, user_map.pk)
    runner.fail(body["id"], "RuntimeError: no")
    body = user_client.get(url + "?wait=1").json()
    assert (body["status"], body["error"]) == ("failed", "RuntimeError: no")
    assert user_client.get(url + "?wait=soon").status_code == 400


@pytest.mark.django_db(transaction=True)
def test_a_job_deleted_while_a_request_waits_for_it_is_404_not_a_500(user_client, user_map):
    import threading

    from django.db import connection

    url = post(user_client, user_map, "los", {"from": "C4", "to": "H6"}).json()["url"]
    job_id = int(url.rstrip("/").rsplit("/", 1)[-1])

    def delete_soon():
        threading.Event().wait(0.3)
        Job.objects.filter(pk=job_id).delete()
        connection.close()

    deleter = threading.Thread(target=delete_soon)
    deleter.start()
    response = user_client.get(url + "?wait=5")
    deleter.join()
    assert response.status_code == 404
    assert "deleted" in response.json()["detail"]


def test_cancelling_is_for_the_requester_the_map_owner_and_staff(user_client, other_client, other_user,
                                                                  make_map, user, api_client):
    map = make_map(other_user, published=True)
    url = post(user_client, map, "los", {"from": "C4", "to": "H6"}).json()["url"]
    assert api_client.post(url + "cancel/").status_code == 403
    response = other_client.post(url + "cancel/")  # the map's owner
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    assert user_client.post(url + "cancel/").status_code == 409

    url = post(other_client, map, "viewshed", {"from": "C4"}).json()["url"]
    assert user_client.post(url + "cancel/").status_code == 403
    user.is_staff = True
    user.save()
    assert user_client.post(url + "cancel/").json()["status"] == "cancelled"


def test_a_cancelled_job_is_not_run_by_the_worker_that_receives_it(user_client, user_map):
    url = post(user_client, user_map, "analysis", {}).json()["url"]
    job_id = user_client.post(url + "cancel/").json()["id"]
    assert runner.take(job_id, "test pid 0") is None
    assert runner.take_part(job_id, 0, "test pid 0") is None
    assert not JobPart.objects.filter(job_id=job_id).exists()


def test_the_job_list_holds_my_own_jobs_only(user_client, other_client, other_published_map, api_client):
    mine = post(user_client, other_published_map, "los", {"from": "C4", "to": "H6"}).json()["job"]
    post(other_client, other_published_map, "viewshed", {"from": "C4"})
    body = user_client.get("/api/jobs/").json()
    assert [job["id"] for job in body["results"]] == [mine]
    assert "result" not in body["results"][0]
    assert user_client.get("/api/jobs/?status=succeeded").json()["results"] == []
    assert api_client.get("/api/jobs/").status_code in (401, 403)


def test_a_job_without_a_file_has_no_download(user_client, user_map):
    url = post(user_client, user_map, "los", {"from": "C4", "to": "H6"}).json()["url"]
    assert user_client.get(url).json()["result_file"] is None
    assert user_client.get(url + "file/").status_code == 404


def test_the_schema_describes_the_job_api(api_client):
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = json.loads(response.content)
    validate_schema(schema)
    paths = schema["paths"]
    for path in ("/api/maps/{id}/los/", "/api/maps/{id}/viewshed/", "/api/maps/{id}/analysis/"):
        assert set(paths[path]["post"]["responses"]) >= {"200", "202", "400", "404", "503"}
    los = schema["components"]["schemas"]["LosRequest"]
    assert {"from", "to"} <= set(los["required"])
    assert "/api/jobs/{id}/cancel/" in paths and "/api/jobs/" in paths and "/api/jobs/{id}/" in paths


# -- the broker cannot be reached -------------------------------------------------------------------------

@pytest.mark.parametrize("kind, data", [("los", {"from": "C4", "to": "H6"}), ("analysis", {})])
def test_when_redis_cannot_be_reached_the_answer_is_503_and_no_job_claims_to_be_queued(user_client, user_map,
                                                                                        kind, data):
    use_broker("redis://127.0.0.1:1/0")  # nothing listens on port 1
    response = post(user_client, user_map, kind, data)
    assert response.status_code == 503
    assert "cannot be reached" in response.json()["detail"]
    assert not Job.objects.exists() and not JobPart.objects.exists()


def test_when_the_broker_folder_cannot_be_written_the_answer_is_503(user_client, user_map, tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the broker's folder should be")
    use_broker("filesystem://", tmp_path / "broker")
    app.conf.broker_transport_options = {**app.conf.broker_transport_options, "data_folder_out": str(blocked / "in")}
    app._after_fork()
    response = post(user_client, user_map, "los", {"from": "C4", "to": "H6"})
    assert response.status_code == 503, response.content
    assert not Job.objects.exists()


def test_the_admin_lists_jobs_with_filters_and_shows_a_result_read_only(client, django_user_model, user_map):
    admin = django_user_model.objects.create_superuser("boss", password="boss-password")
    job, _ = dispatch.submit("los", {"from": "C4", "to": "H6", "from_level": None, "to_level": None, "markers": []},
                             subject=user_map)
    run_here(job, {"result": "hindered", "term": "Degraded <-1 FP>"})
    client.force_login(admin)
    listing = client.get("/admin/jobs/job/?status__exact=succeeded")
    assert listing.status_code == 200 and f"/admin/jobs/job/{job.pk}/change/" in listing.content.decode()
    page = client.get(f"/admin/jobs/job/{job.pk}/change/").content.decode()
    assert "Degraded &lt;-1 FP&gt;" in page  # the result, escaped
    assert 'name="status"' not in page  # nothing to edit


def test_a_job_deleted_while_it_is_waited_on_ends_the_wait(user_client, user_map, jobs_isolated):
    """A map deleted while its image is waited on: the wait ends with the job as last read, no exception."""
    post(user_client, user_map, "los", {"from": "C4", "to": "D5"})
    job = Job.objects.get()
    Job.objects.filter(pk=job.pk).delete()
    assert dispatch.wait(job, 1) is job and not job.is_finished
