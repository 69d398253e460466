"""Issue 17, point 5: the heavy queue cannot be monopolised. Live jobs capped per user (per address for anonymous
requests) by class and by estimated cost (429 with Retry-After); one job's cost bounded before it is queued (400
naming the figure and the limit); a cancel stops running work and frees the worker for other users' jobs."""

import re

import pytest
from django.test import override_settings

from jobs import dispatch, limits
from jobs.models import Job, JobPart
from tests.jobs.test_workers import follow, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def analysis(client, map, height):
    return client.post(f"/api/maps/{map.pk}/analysis/", {"height": height}, format="json")


def assert_capped(response, setting):
    assert response.status_code == 429, response.content[:300]
    assert int(response["Retry-After"]) > 0
    assert setting in response.json()["detail"]


# -- caps of live jobs ----------------------------------------------------------------------------------------

def test_a_fourth_heavy_job_is_refused_429_until_one_of_the_three_is_cancelled(user_client, other_client, user_map,
                                                                               other_published_map):
    jobs = [analysis(user_client, user_map, height) for height in range(3)]
    assert [r.status_code for r in jobs] == [202, 202, 202]
    fourth = analysis(user_client, user_map, 3)
    assert_capped(fourth, "JOBS_LIVE_HEAVY")
    assert all(str(r.json()["job"]) in fourth.json()["detail"] for r in jobs)  # it says which jobs are waiting
    assert Job.objects.count() == 3
    # The same question as a live job shares it: no new work, no refusal.
    assert analysis(user_client, user_map, 0).status_code == 202
    # Interactive questions are capped apart, and other users are counted apart.
    assert user_client.post(f"/api/maps/{user_map.pk}/los/", {"from": "A1", "to": "C3"},
                            format="json").status_code == 202
    assert analysis(other_client, other_published_map, 3).status_code == 202
    # A cancelled job is no longer live: there is room again.
    assert user_client.post(f"{jobs[0].json()['url']}cancel/").status_code == 200
    assert analysis(user_client, user_map, 3).status_code == 202


def test_the_estimated_costs_of_a_users_live_jobs_are_capped(user_client, user_map, settings):
    hexes = user_map.hex_grid().size
    pairs = hexes * (hexes - 1) // 2
    settings.JOBS_LIVE_COST = pairs + pairs // 2
    first = analysis(user_client, user_map, 0)
    assert first.status_code == 202
    assert Job.objects.get(pk=first.json()["job"]).cost == pairs
    assert_capped(analysis(user_client, user_map, 1), "JOBS_LIVE_COST")
    settings.JOBS_LIVE_COST = pairs // 2  # one job past the budget still runs when it is the only one
    user_client.post(f"{first.json()['url']}cancel/")
    assert analysis(user_client, user_map, 1).status_code == 202


def test_anonymous_requests_are_capped_per_address(jobs_isolated):
    for k in range(3):
        dispatch.submit("test-sleep", {"seconds": k}, address="203.0.113.5")
    with pytest.raises(limits.TooManyJobs) as refused:
        dispatch.submit("test-sleep", {"seconds": 9}, address="203.0.113.5")
    assert "JOBS_LIVE_HEAVY" in str(refused.value.detail) and refused.value.wait > 0
    assert "yours" not in str(refused.value.detail)  # whose the address's anonymous jobs are is not known
    job, created = dispatch.submit("test-sleep", {"seconds": 9}, address="203.0.113.6")
    assert created and job.requested_from == "203.0.113.6"


def test_a_batch_validation_past_the_cap_is_refused_before_its_upload_is_kept(user_client, settings, map_document):
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    from validations.models import BatchValidation

    settings.JOBS_LIVE_HEAVY = 1
    body = json.dumps(map_document).encode()
    upload = lambda: SimpleUploadedFile("map.json", body, content_type="application/json")  # noqa: E731
    assert user_client.post("/api/validations/", {"file": upload()}).status_code == 202
    assert_capped(user_client.post("/api/validations/", {"file": upload()}), "JOBS_LIVE_HEAVY")
    assert BatchValidation.objects.count() == 1


# -- one job's cost ---------------------------------------------------------------------------------------

def test_a_job_estimated_past_its_kinds_limit_is_refused_naming_the_figure_and_the_limit(user_client, user_map,
                                                                                         settings):
    hexes = user_map.hex_grid().size
    pairs = hexes * (hexes - 1) // 2
    settings.HEXSIDE_MAX_ANALYSIS_PAIRS = pairs - 1
    response = analysis(user_client, user_map, 0)
    assert response.status_code == 400
    body = response.json()
    assert body["limit"] == "HEXSIDE_MAX_ANALYSIS_PAIRS" and body["cost"] == pairs and body["allowed"] == pairs - 1
    assert f"{pairs:,}" in body["detail"] and f"{pairs - 1:,}" in body["detail"]
    assert "HEXSIDE_MAX_ANALYSIS_PAIRS" in body["detail"] and "viewsheds" in body["detail"]
    assert not Job.objects.exists()
    # The job layer checks it too, whoever submits.
    with pytest.raises(limits.CostTooHigh):
        dispatch.submit("analysis", {"height": 0, "markers": []}, subject=user_map, parts=[(0, hexes)])


# -- every endpoint that starts work is throttled ----------------------------------------------------------

RATES = {"jobs": "2/minute", "jobs-address": "100/minute", "validations": "1/minute",
         "validations-address": "100/minute", "findings": "2/minute", "findings-address": "100/minute",
         "images": "2/minute", "images-address": "100/minute"}


@override_settings(HEXSIDE_THROTTLE_RATES=RATES)
def test_exports_and_scenario_jobs_are_throttled(user_client, user_map):
    for k in range(2):
        assert user_client.post(f"/api/maps/{user_map.pk}/print/", {"dpi": 10 + k},
                                format="json").status_code == 202
    assert user_client.post(f"/api/maps/{user_map.pk}/print/", {"dpi": 20}, format="json").status_code == 429
    for path in ("checks", "sight-lines", "print"):  # the rate is counted before the scenario is looked up
        response = user_client.post(f"/api/scenarios/1/{path}/", format="json")
        assert response.status_code == 429 and response.has_header("Retry-After")


@override_settings(HEXSIDE_THROTTLE_RATES=RATES)
def test_batch_validations_are_throttled_on_the_api_and_the_page(user_client, map_document):
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    body = json.dumps(map_document).encode()
    upload = lambda: SimpleUploadedFile("map.json", body, content_type="application/json")  # noqa: E731
    assert user_client.post("/api/validations/", {"file": upload()}).status_code == 202
    refused = user_client.post("/api/validations/", {"file": upload()})
    assert refused.status_code == 429 and refused.has_header("Retry-After")
    page = user_client.post("/validations/", {"file": upload()})
    assert page.status_code == 429 and page.has_header("Retry-After")
    assert user_client.get("/api/validations/").status_code == 200  # reading is not starting


@override_settings(HEXSIDE_THROTTLE_RATES=RATES)
def test_a_maps_findings_are_throttled(user_client, user_map):
    for _ in range(2):
        assert user_client.get(f"/api/maps/{user_map.pk}/findings/").status_code == 200
    refused = user_client.get(f"/api/maps/{user_map.pk}/findings/")
    assert refused.status_code == 429 and refused.has_header("Retry-After")


# -- a cancel stops running work, and the worker takes the next user's job -------------------------------------

@pytest.fixture(scope="module")
def fair_process(start_worker, queue_name):
    """One worker, one process, on a queue of its own; an analysis part takes a minute (unless stopped)."""
    return start_worker("fair", queue=f"{queue_name}-fair", env={"HEXSIDE_TEST_PART_DELAY": 60})


@pytest.fixture
def fair_worker(fair_process, settings, queue_name):
    """That worker, with this test's jobs sent to its queue."""
    settings.JOBS_QUEUE = f"{queue_name}-fair"
    settings.JOBS_INTERACTIVE_QUEUE = ""
    return fair_process


@pytest.mark.worker
def test_cancelled_analyses_free_the_worker_for_another_users_job(fair_worker, user_client, other_client, user_map,
                                                                  make_map, other_user):
    urls = [analysis(user_client, user_map, height).json()["url"] for height in range(3)]
    wait_until(lambda: user_client.get(urls[0]).json()["status"] == "running")
    assert_capped(analysis(user_client, user_map, 3), "JOBS_LIVE_HEAVY")
    small = make_map(other_user, name="B's small map")
    queued = other_client.post(f"/api/maps/{small.pk}/print/", {"dpi": 10}, format="json")
    assert queued.status_code == 202
    for url in urls:
        assert user_client.post(f"{url}cancel/").json()["status"] == "cancelled"
    # B's print waits behind 12 parts of a minute each unless the running part stops and the rest are dropped.
    body = follow(other_client, queued.json()["url"], seconds=30)
    assert body["status"] == "succeeded" and body["worker"].startswith(fair_worker.name), body
    assert [user_client.get(url).json()["status"] for url in urls] == ["cancelled"] * 3
    assert not JobPart.objects.exists()
    log = fair_worker.log(50000)
    assert "stopped, no longer this attempt's" in log  # the running part, by its heartbeat
    assert "Discarding revoked task" in log and "-part-" in log  # the queued ones, by their task ids


@pytest.mark.worker
def test_a_cancelled_one_step_job_stops_running_and_its_process_goes_on(fair_worker, user, other_user):
    first, _ = dispatch.submit("test-sleep", {"seconds": 0}, user=other_user)
    wait_until(lambda: Job.objects.get(pk=first.pk).status == "succeeded", seconds=30)
    long, _ = dispatch.submit("test-sleep", {"seconds": 60}, user=user)
    wait_until(lambda: Job.objects.get(pk=long.pk).status == "running")
    assert dispatch.cancel(long)
    short, _ = dispatch.submit("test-sleep", {"seconds": 0.1}, user=other_user)
    wait_until(lambda: Job.objects.get(pk=short.pk).status == "succeeded", seconds=30)
    assert Job.objects.get(pk=long.pk).status == "cancelled"
    # The same pool process: stopped work raises in it, it is not killed (its numba kernels stay loaded).
    assert Job.objects.get(pk=short.pk).result["pid"] == Job.objects.get(pk=first.pk).result["pid"]


def test_many_accounts_from_one_address_share_its_caps(django_user_model, user_map, settings):
    from rest_framework.test import APIClient

    settings.JOBS_LIVE_HEAVY_ADDRESS = 4
    clients = []
    for k in range(3):
        person = django_user_model.objects.create_user(f"sock-{k}")
        client = APIClient(REMOTE_ADDR="192.0.2.80")
        client.force_login(person)
        clients.append(client)
    user_map.published = True
    user_map.save()
    answers = [analysis(clients[k % 3], user_map, k) for k in range(4)]
    assert [answer.status_code for answer in answers] == [202] * 4
    refused = analysis(clients[1], user_map, 9)
    assert_capped(refused, "JOBS_LIVE_HEAVY_ADDRESS")
    # the refusal names the requester's own jobs (sock-1 asked the second), never the other accounts' (issue 27)
    detail = refused.json()["detail"]
    named = {int(n) for n in re.findall(r"\b\d+\b", detail.split("yours: jobs", 1)[1].split(")")[0])}
    assert named == {answers[1].json()["job"]}
    for k in (0, 2, 3):
        assert f" {answers[k].json()['job']}," not in detail and f" {answers[k].json()['job']})" not in detail
    elsewhere = APIClient(REMOTE_ADDR="192.0.2.81")
    elsewhere.force_login(django_user_model.objects.get(username="sock-0"))
    assert analysis(elsewhere, user_map, 9).status_code == 202  # sock-0 has 2 of its own 3


def test_the_map_picture_of_a_user_at_the_cap_is_a_placeholder_429_not_an_error(user_client, user_map, settings):
    settings.HEXSIDE_MAP_IMAGE_WAIT_HEXES = 0
    for height in range(3):
        assert analysis(user_client, user_map, height).status_code == 202
    response = user_client.get(f"/maps/{user_map.pk}/map.png")
    assert response.status_code == 429 and response["Content-Type"] == "image/png"
    assert response.has_header("Retry-After")


# -- a big job's parts join the queue a few at a time --------------------------------------------------------

def test_an_analysis_queues_its_parts_a_few_at_a_time_and_each_done_queues_the_next(user_client, user_map,
                                                                                    settings, jobs_isolated):
    from jobs import runner
    from tests.jobs.fixtures import broker_messages

    settings.JOBS_PARTS_IN_FLIGHT = 1
    job = Job.objects.get(pk=analysis(user_client, user_map, 0).json()["job"])
    assert job.parts_total == 4 and len(broker_messages(jobs_isolated)) == 1
    for message in broker_messages(jobs_isolated):
        message.unlink()
    for index in range(4):  # what a worker does with each part it is given
        runner.run_part(None, job.pk, index, lambda job, part: (b"", 0.0))
        assert len(broker_messages(jobs_isolated)) == 1  # the next part (at last, the assembly)
        for message in broker_messages(jobs_isolated):
            message.unlink()
    job.refresh_from_db()
    assert job.step == "assemble" and job.parts_done == 4
    assert JobPart.objects.filter(job=job, sent=True).count() == 4


@pytest.mark.worker
def test_an_analysis_sent_one_part_at_a_time_is_run_to_the_end_by_a_worker(start_worker, user_client, user_map,
                                                                          settings, queue_name):
    settings.JOBS_QUEUE = queue = f"{queue_name}-chain"
    settings.JOBS_INTERACTIVE_QUEUE = ""
    settings.JOBS_PARTS_IN_FLIGHT = 1
    start_worker("chain", queue=queue)
    body = follow(user_client, analysis(user_client, user_map, 0).json()["url"])
    assert body["status"] == "succeeded" and body["parts_done"] == body["parts_total"] == 4, body
