"""Jobs run by real worker processes: the same answers as the command line, analyses in parts, and the faults
(a worker killed in the middle of a job, a task that raises, a map edited while its analysis runs, Redis)."""

import io
import json
import os
import signal
import time

import numpy as np
import pytest
from django.core.management import call_command

from engine import mapfile
from engine.los import engine, packed
from hexside.celery import app
from jobs import dispatch
from jobs.models import Job
from maps.models import Map, apply_edits
from tests.jobs.fixtures import JOBS_SETTINGS, interactive, use_broker
from tests.jobs.workers import Worker, forget_redis_queue
from tests.services import REDIS_URL, need_redis

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

WAIT = 60  # seconds a job may take here before the test gives up on it


class Slow(AssertionError):
    """Something a test waited for did not happen; says what the jobs and the workers were doing."""

    def __init__(self, what, seconds):
        jobs = "\n".join(str(row) for row in Job.objects.values("id", "kind", "status", "step", "worker", "attempts",
                                                                   "message", "error"))
        logs = "\n".join(f"--- {w.name}\n{w.log(3000)}" for w in Worker.running)
        super().__init__(f"{what} after {seconds} s\njobs:\n{jobs}\n{logs}")


def follow(client, url, seconds=WAIT):
    """GET a job until it has finished (with the API's own long poll)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        body = client.get(f"{url}?wait=5").json()
        if body["status"] in ("succeeded", "failed", "cancelled"):
            return body
    raise Slow(f"job {url} still {body['status']}", seconds)


def wait_until(test, seconds=WAIT, every=0.05):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = test()
        if value:
            return value
        time.sleep(every)
    raise Slow("not yet", seconds)


def command(*args):
    """A management command's JSON output (run in this process: what it prints is the point, not the process)."""
    out = io.StringIO()
    call_command(*args, "--json", stdout=out)
    return json.loads(out.getvalue())


def map_file(map, folder):
    path = folder / f"map-{map.pk}-{map.revision}.json"
    path.write_text(map.export())
    return str(path)


def submit_test_job(kind, **parameters):
    job, created = dispatch.submit(kind, parameters)
    assert created
    return job


# -- the same answers as the command line -----------------------------------------------------------------

def test_a_los_job_answers_exactly_what_the_los_command_prints(worker, user_client, user_map, tmp_path):
    path = map_file(user_map, tmp_path)
    asks = [({"from": "A1", "to": "J8"}, ["A1", "J8"]),
            ({"from": "B2", "to": [8, 3], "from_level": 2, "markers": [{"hex": "E5", "kind": "smoke", "count": 2}]},
             ["B2", "I4", "--from-level", "2", "--marker", "E5:smoke:2"])]
    for data, args in asks:
        url = user_client.post(f"/api/maps/{user_map.pk}/los/", data, format="json").json()["url"]
        body = follow(user_client, url)
        assert body["status"] == "succeeded", body
        assert body["result"] == command("los", path, *args)
        assert body["worker"].startswith(worker.name)


def test_a_fire_group_job_answers_exactly_what_the_fire_group_command_prints(worker, user_client, user_map, tmp_path):
    """OST 27.8: the LOS job with a ``group`` answers the fire group, as `manage.py fire_group` does."""
    path = map_file(user_map, tmp_path)
    url = user_client.post(f"/api/maps/{user_map.pk}/los/", {"from": "B2", "group": ["B3"], "to": "H6"},
                           format="json").json()["url"]
    body = follow(user_client, url)
    assert body["status"] == "succeeded", body
    assert body["result"] == command("fire_group", path, "H6", "B2", "B3")
    assert body["result"]["observers"] == ["B2", "B3"] and "may_fire" in body["result"]


def test_a_viewshed_job_answers_packed_what_the_viewshed_command_prints(worker, user_client, user_map, tmp_path):
    url = user_client.post(f"/api/maps/{user_map.pk}/viewshed/", {"from": "D5"}, format="json").json()["url"]
    body = follow(user_client, url)
    assert body["status"] == "succeeded", body
    expected = command("viewshed", map_file(user_map, tmp_path), "D5")
    label = engine.compile_map(mapfile.parse(user_map.document)).label
    assert body["result"]["encoding"] == "packed-1"  # issue 17: one small entry per answer, not per hex
    assert packed.unpack(body["result"], label) == expected
    # Kept as a JSON file, not in the row (issue 7, point 1), and shown as the result all the same.
    job = Job.objects.get(pk=body["id"])
    assert job.result is None and job.result_in_file
    with job.result_file.open("rb") as f:
        assert json.loads(f.read()) == body["result"]
    assert user_client.get(url, HTTP_ACCEPT="text/html").status_code == 200  # the browsable API shows it too
    assert json.loads(user_client.get(f"{url}file/").getvalue()) == body["result"]


def test_an_analysis_runs_in_parts_and_assembles_the_whole_map(worker, user_client, user_map):
    url = user_client.post(f"/api/maps/{user_map.pk}/analysis/", {"height": 1}, format="json").json()["url"]
    seen = set()

    def finished():
        body = user_client.get(url).json()
        seen.add(body["progress"])
        return body if body["status"] in ("succeeded", "failed") else None

    body = wait_until(finished)
    assert body["status"] == "succeeded", body
    assert body["parts_done"] == body["parts_total"] == JOBS_SETTINGS["ANALYSIS_PARTS"]
    assert len(seen - {0, 100}) >= 1  # progress was reported between start and end

    expected = engine.analyze(engine.compile_map(mapfile.parse(user_map.document)), height=1, full=True)
    assert body["result"]["hexes"] == expected.as_dict()["hexes"]
    assert body["result"]["pairs"] == expected.pairs and body["result"]["height"] == 1
    download = user_client.get(body["result_file"])
    assert download.status_code == 200
    with np.load(io.BytesIO(b"".join(download.streaming_content))) as matrix:
        assert list(matrix["labels"]) == expected.labels
        for name in ("result", "hindrances", "blind"):
            assert np.array_equal(matrix[name], expected.matrix[name])


# -- faults -----------------------------------------------------------------------------------------------

def test_a_task_that_raises_fails_its_job_with_the_error_and_the_worker_goes_on(worker, user_client, user_map):
    failed = submit_test_job("test-fail", message="the dice rolled off the table")
    failed = wait_until(lambda: Job.objects.filter(pk=failed.pk, status__in=Job.FINISHED).first())
    assert failed.status == "failed"
    assert failed.error == "RuntimeError: the dice rolled off the table"

    url = user_client.post(f"/api/maps/{user_map.pk}/los/", {"from": "A1", "to": "C4"}, format="json").json()["url"]
    after = follow(user_client, url)
    assert after["status"] == "succeeded"
    assert after["worker"] == failed.worker  # the same worker, the same pool process


def test_a_job_that_hangs_is_stopped_at_its_time_limit_and_the_worker_goes_on(start_worker, settings):
    settings.JOBS_QUEUE = f"{settings.JOBS_QUEUE}-timed"
    timed = start_worker("timed", env={"HEXSIDE_JOB_TIME_LIMIT": 1}, queue=settings.JOBS_QUEUE)
    # The limits travel in each message, from the sending side's settings (docs/jobs.md).
    settings.CELERY_TASK_SOFT_TIME_LIMIT, settings.CELERY_TASK_TIME_LIMIT = 1, 31
    hung = submit_test_job("test-sleep", seconds=30)
    hung = wait_until(lambda: Job.objects.filter(pk=hung.pk, status__in=Job.FINISHED).first(), seconds=20)
    assert hung.status == "failed"
    assert "time limit of 1 s" in hung.error
    quick = submit_test_job("test-sleep", seconds=0.1)
    quick = wait_until(lambda: Job.objects.filter(pk=quick.pk, status__in=Job.FINISHED).first(), seconds=20)
    assert quick.status == "succeeded"
    timed.stop()  # its sweeper would requeue other tests' lost jobs with its one-second limit


def test_a_job_whose_worker_is_killed_runs_again_on_another_worker(start_worker, queue_name, settings):
    settings.JOBS_QUEUE = queue = f"{queue_name}-kill"  # a queue of their own: the module's worker keeps out
    first = start_worker("a", queue=queue)
    second = start_worker("b", queue=queue)
    job = submit_test_job("test-sleep", seconds=3)
    running = wait_until(lambda: Job.objects.filter(pk=job.pk, status="running").first())
    assert running.worker.startswith((first.name, second.name))
    holder, other = (first, second) if running.worker.startswith(first.name) else (second, first)

    holder.kill()
    # Its message went with it (the filesystem transport deletes a message when it is taken): only the other
    # worker's sweep can notice, once the heartbeat is older than the timeout. A generous limit, not a timing.
    done = wait_until(lambda: Job.objects.filter(pk=job.pk, status__in=Job.FINISHED).first(), seconds=30)
    assert done.status == "succeeded", (done.error, other.log())
    assert done.worker.startswith(other.name)
    assert done.attempts == 2
    other.stop()


def test_a_job_whose_pool_process_is_killed_is_given_again_and_finishes(worker):
    job = submit_test_job("test-sleep", seconds=1.5)
    running = wait_until(lambda: Job.objects.filter(pk=job.pk, status="running").first())
    os.kill(int(running.worker.rsplit(" pid ", 1)[1]), signal.SIGKILL)  # as the kernel's OOM killer would
    done = wait_until(lambda: Job.objects.filter(pk=job.pk, status__in=Job.FINISHED).first(), seconds=30)
    assert done.status == "succeeded", done.error
    assert done.attempts == 2 and done.worker != running.worker
    assert done.result["pid"] != int(running.worker.rsplit(" pid ", 1)[1])


def test_a_job_that_kills_its_worker_every_time_is_failed_after_the_last_attempt(worker, user_client, user_map):
    job = submit_test_job("test-die")
    done = wait_until(lambda: Job.objects.filter(pk=job.pk, status__in=Job.FINISHED).first(), seconds=60)
    assert done.status == "failed"
    assert f"started {JOBS_SETTINGS['MAX_ATTEMPTS']} times" in done.error and "worker" in done.error
    assert worker.alive
    url = user_client.post(f"/api/maps/{user_map.pk}/los/", {"from": "A1", "to": "D4"}, format="json").json()["url"]
    assert follow(user_client, url)["status"] == "succeeded"


def test_while_the_broker_cannot_be_reached_nothing_is_queued_and_afterwards_all_is_as_before(
        worker, user_client, user_map, jobs_isolated):
    use_broker("redis://127.0.0.1:1/0")  # this process loses its broker; the worker keeps its own
    refused = user_client.post(f"/api/maps/{user_map.pk}/los/", {"from": "A1", "to": "F6"}, format="json")
    assert refused.status_code == 503 and "cannot be reached" in refused.json()["detail"]
    assert not Job.objects.exists()

    use_broker("filesystem://", jobs_isolated)
    url = user_client.post(f"/api/maps/{user_map.pk}/los/", {"from": "A1", "to": "F6"}, format="json").json()["url"]
    body = follow(user_client, url)
    assert body["status"] == "succeeded" and Job.objects.count() == 1


def test_a_map_edited_while_its_analysis_runs_gets_the_result_for_the_content_it_was_asked_about(
        worker, user, user_client, user_map):
    asked = Map.objects.get(pk=user_map.pk)
    url = user_client.post(f"/api/maps/{user_map.pk}/analysis/", {}, format="json").json()["url"]
    wait_until(lambda: user_client.get(url).json()["status"] == "running")
    apply_edits(user_map.pk, user, None, [{"op": "set_terrain", "hexes": ["E4", "E3", "F4"], "terrain": ["woods"]},
                                          {"op": "set_level", "hexes": ["D5"], "level": 3}])
    edited = Map.objects.get(pk=user_map.pk)
    assert edited.content_hash != asked.content_hash

    body = follow(user_client, url)
    assert body["status"] == "succeeded", body
    assert body["map_hash"] == asked.content_hash and body["stale"] is True
    before = engine.analyze(engine.compile_map(mapfile.parse(asked.document)))
    after = engine.analyze(engine.compile_map(mapfile.parse(edited.document)))
    assert before.as_dict()["hexes"] != after.as_dict()["hexes"]  # the edit matters, so the check below can fail
    assert body["result"]["hexes"] == before.as_dict()["hexes"]


def test_a_cancelled_job_waiting_behind_another_is_never_run(worker, user_client, user_map):
    busy = submit_test_job("test-sleep", seconds=1.5)
    # Running before the LOS is asked: a worker taking both queues could otherwise take the LOS first.
    wait_until(lambda: Job.objects.filter(pk=busy.pk, status="running").exists())
    url = user_client.post(f"/api/maps/{user_map.pk}/los/", {"from": "B1", "to": "H7"}, format="json").json()["url"]
    assert user_client.post(url + "cancel/").json()["status"] == "cancelled"
    after = submit_test_job("test-sleep", seconds=0)  # queued behind it: once done, the cancelled one was seen
    wait_until(lambda: Job.objects.filter(pk=after.pk, status="succeeded").exists())
    assert Job.objects.get(pk=busy.pk).status == "succeeded"
    body = user_client.get(url).json()
    assert (body["status"], body["result"], body["started"]) == ("cancelled", None, None)


@pytest.mark.redis
def test_a_los_job_through_redis(start_worker, user_client, user_map, queue_name):
    need_redis()
    start_worker("r", broker_url=REDIS_URL)
    use_broker(REDIS_URL)
    try:
        url = user_client.post(f"/api/maps/{user_map.pk}/los/", {"from": "A1", "to": "J8"},
                               format="json").json()["url"]
        body = follow(user_client, url)
        assert body["status"] == "succeeded", body
        cmap = engine.compile_map(mapfile.parse(user_map.document))
        assert body["result"] == engine.line_of_sight(cmap, "A1", "J8").as_dict()
        assert body["worker"].startswith("r-")
    finally:
        forget_redis_queue(REDIS_URL, queue_name)
        forget_redis_queue(REDIS_URL, interactive(queue_name))
        app._after_fork()


def test_a_worker_finds_a_custom_ruleset_it_was_never_told_about(worker, user, user_client, make_map):
    """Issue 7 point 9: the worker process started before the ruleset existed; its first lookup reads it."""
    from maps.models import CustomRuleset

    CustomRuleset.objects.create(slug="ost-desert", owner=user, data={
        "id": "ost-desert", "name": "Desert", "base": "ost", "extends_base": True,
        "terrain": [{"id": "dunes", "name": "Dunes", "layer": "hex", "los": "hindering", "height": 0,
                     "obstacle": "low", "movement": {"foot": 2}, "cover": 1, "rule": "house rule 1"}]})
    desert = make_map(user, ruleset="ost-desert", hexes=[{"hex": "C4", "terrain": ["dunes"]}], overlays=[],
                      hexsides=[])
    url = user_client.post(f"/api/maps/{desert.pk}/los/", {"from": "C2", "to": "C6"}, format="json").json()["url"]
    body = follow(user_client, url)
    assert body["status"] == "succeeded", body
    assert [(r["hex"], r["terrain"], r["rule"]) for r in body["result"]["reasons"]] == [
        ("C4", "dunes", "house rule 1")]
