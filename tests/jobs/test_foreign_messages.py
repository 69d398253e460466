"""A message for a job's id sent for another job never runs on it (issue 33), with real workers: a broker folder
left over from a reset database, and one Redis shared by two databases, deliver messages for the same id with
another token, or of another kind, or for another part. Each is dropped with a warning naming what differed, the
job is left exactly as it was, and then its own message answers it.

The worker takes the heavy queue only, as in the issue. A job's own message waits on a queue no worker takes
(the interactive queue, which has no worker here) until the foreign ones are dropped; then it is moved to the
worker's queue (``move_to``), so the order is sure: foreign first, own after.
"""

import time
from contextlib import contextmanager

import pytest
from django.test import override_settings

from engine import mapfile
from engine.los import engine
from hexside.celery import app
from jobs import dispatch, tickets
from jobs.models import Job, JobPart
from tests.jobs.fixtures import broker_messages, interactive, use_broker
from tests.jobs.test_workers import Slow, follow
from tests.jobs.workers import forget_redis_queue
from tests.services import REDIS_URL, need_redis

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

WAIT = 30


@pytest.fixture(scope="module")
def heavy_worker(start_worker, queue_name):
    """One worker, one process, on the heavy queue only: shared by this module's filesystem tests."""
    return start_worker("heavy", queue=queue_name)


def ask_los(client, user_map):
    """An LOS job queued through the API: its message waits on the interactive queue, which no worker takes."""
    response = client.post(f"/api/maps/{user_map.pk}/los/", {"from": "A1", "to": "J8"}, format="json")
    assert response.status_code == 202, response.content
    return Job.objects.get(pk=response.json()["job"])


def foreign(job_id, kind, token, queue, part=None):
    """The message another database's job ``job_id`` (of ``kind``, with ``token``) has its dispatcher send."""
    other = Job(pk=job_id, kind=kind, token=token, queue=queue)
    if part is None:
        dispatch.publish(other)
    else:
        dispatch.publish_parts(other, [part])
    return other.task_id(part)


def rows(job):
    """Everything the job's rows hold, to compare before and after."""
    return Job.objects.filter(pk=job.pk).values().get(), list(JobPart.objects.filter(job_id=job.pk).values())


def dropped(worker, text, seconds=WAIT):
    """Wait until the worker's log says it dropped a message with ``text`` in its warning; that warning."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for line in worker.log(tail=10**7).splitlines():
            if text in line and "dropped" in line:
                return line
        time.sleep(0.05)
    raise Slow(f"no message dropped with {text!r}", seconds)


def move_to(job, queue, folder=None):
    """Move a job, and its own messages waiting on its queue, to ``queue``: on a broker folder by renaming their
    files (the name says the queue), on Redis by moving them from its list to the other."""
    waiting = job.queue
    Job.objects.filter(pk=job.pk).update(queue=queue)  # what it queues next (an analysis's assembly) goes there too
    if folder is None:
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        while client.rpoplpush(waiting, queue) is not None:
            pass
        return
    for path in broker_messages(folder):
        if path.name.endswith(f".{waiting}.msg"):
            path.rename(path.with_name(path.name.replace(f".{waiting}.msg", f".{queue}.msg")))


@contextmanager
def left_as_it_was(client, job, user_map, queue, folder=None):
    """Around foreign messages for an LOS job: its row is exactly the same after them (never taken: still queued,
    no worker, no attempt, no heartbeat, no result); then its own message answers it, as LOS."""
    before = rows(job)
    yield
    assert rows(job) == before
    move_to(job, queue, folder)
    body = follow(client, f"/api/jobs/{job.pk}/")
    assert (body["status"], body["kind"], body["attempts"]) == ("succeeded", "los", 1), body
    cmap = engine.compile_map(mapfile.parse(user_map.document))
    assert body["result"] == engine.line_of_sight(cmap, "A1", "J8").as_dict()  # not {"image": ...}


def test_the_issues_map_image_message_for_the_los_jobs_id_never_runs_on_it(request, user_client, user_map,
                                                                         queue_name, jobs_isolated):
    """The reproduction: LOS job queued, a maps.map_image message for its id with another token in its task id
    (no ticket: as the issue's was made, and as an earlier version sent) on the heavy queue, a worker started."""
    job = ask_los(user_client, user_map)
    with left_as_it_was(user_client, job, user_map, queue_name, jobs_isolated):
        stale = f"job-{job.pk}-stale0000"
        app.send_task("maps.map_image", args=[job.pk], task_id=stale, queue=queue_name)
        worker = request.getfixturevalue("heavy_worker")  # started now, with the message waiting
        line = dropped(worker, stale)
        assert f"job {job.pk}: message maps.map_image" in line and "ticket: expected one naming" in line
        # The same message as this version's dispatcher sends it, for another database's map-image job 'job.pk'.
        line = dropped(worker, foreign(job.pk, "map-image", "stale0001", queue_name))
        assert f"token: expected '{job.token}', got 'stale0001'" in line
        assert "kind: expected 'los', got 'map-image'" in line


def test_another_kinds_message_with_the_right_token_never_runs_on_it(heavy_worker, user_client, user_map, queue_name,
                                                                    jobs_isolated):
    job = ask_los(user_client, user_map)
    with left_as_it_was(user_client, job, user_map, queue_name, jobs_isolated):
        line = dropped(heavy_worker, foreign(job.pk, "map-image", job.token, queue_name))
        assert "kind: expected 'los', got 'map-image'" in line and "token:" not in line
        # The job's own ticket on another kind's task.
        app.send_task("maps.viewshed", args=[job.pk], task_id="viewshed-with-los-ticket", queue=queue_name,
                      headers=tickets.of(job).headers())
        line = dropped(heavy_worker, "viewshed-with-los-ticket")
        assert "task: expected 'maps.los' (the 'los' kind's), got 'maps.viewshed'" in line


def test_the_right_kinds_message_with_a_wrong_token_never_runs_on_it(heavy_worker, user_client, user_map, queue_name,
                                                                    jobs_isolated):
    job = ask_los(user_client, user_map)
    with left_as_it_was(user_client, job, user_map, queue_name, jobs_isolated):
        line = dropped(heavy_worker, foreign(job.pk, "los", "0123456789abcdef", queue_name))
        assert f"token: expected '{job.token}', got '0123456789abcdef'" in line and "kind:" not in line
        # An earlier version's message: the right task and task id, but no ticket. Refused all the same.
        app.send_task("maps.los", args=[job.pk], task_id=job.task_id(), queue=queue_name)
        line = dropped(heavy_worker, f"(task id {job.task_id()})")
        assert "ticket: expected one naming the job's token and kind, got none" in line


def test_part_messages_with_a_wrong_token_or_index_never_run_a_part(heavy_worker, user_client, user_map, queue_name,
                                                                   jobs_isolated):
    with override_settings(JOBS_QUEUE=interactive(queue_name)):  # its parts wait where no worker takes them
        response = user_client.post(f"/api/maps/{user_map.pk}/analysis/", {"height": 0}, format="json")
    job = Job.objects.get(pk=response.json()["job"])
    assert job.parts_total >= 2
    before = rows(job)
    line = dropped(heavy_worker, foreign(job.pk, "analysis", "feedfacefeedface", queue_name, part=0))
    assert f"job {job.pk} part 1: message maps.analysis_part" in line and "got 'feedfacefeedface'" in line
    app.send_task("maps.analysis_part", args=[job.pk, 0], task_id="part-0-ticket-of-part-1", queue=queue_name,
                  headers=tickets.of(job, 1).headers())
    assert "part: expected 0 (the message's argument), got 1 (its ticket)" in dropped(heavy_worker,
                                                                                   "part-0-ticket-of-part-1")
    app.send_task("maps.analysis_part", args=[job.pk, 0], task_id=job.task_id(0), queue=queue_name)  # no ticket
    assert "ticket: expected one naming" in dropped(heavy_worker, f"(task id {job.task_id(0)})")
    foreign(job.pk, job.kind, job.token, queue_name, part=job.parts_total + 3)  # its ticket, a part it has not
    dropped(heavy_worker, f"job {job.pk} has no part {job.parts_total + 4} (it has {job.parts_total}); message")
    assert rows(job) == before  # the job and every part untouched
    move_to(job, queue_name, jobs_isolated)
    body = follow(user_client, f"/api/jobs/{job.pk}/", seconds=300)  # a fresh worker compiles the analysis first
    assert (body["status"], body["kind"]) == ("succeeded", "analysis"), body
    n = engine.compile_map(mapfile.parse(user_map.document)).n
    assert body["result"]["pairs"] == n * (n - 1) // 2 and body["result"]["mode"] == "matrix"


@pytest.mark.redis
def test_a_redis_broker_shared_by_two_databases_runs_each_message_only_on_its_own_job(start_worker, user_client,
                                                                                      user_map, queue_name):
    """Two deployments, two databases, one Redis and the same queue names: the other's job with this job's id (a
    map image; an LOS of its own) sends its messages where this deployment's worker takes them."""
    need_redis()
    worker = start_worker("redis", broker_url=REDIS_URL, queue=queue_name)
    use_broker(REDIS_URL)
    try:
        job = ask_los(user_client, user_map)
        with left_as_it_was(user_client, job, user_map, queue_name):
            line = dropped(worker, foreign(job.pk, "map-image", "0a0a0a0a0a0a0a0a", queue_name))
            assert "kind: expected 'los', got 'map-image'" in line and "got '0a0a0a0a0a0a0a0a'" in line
            line = dropped(worker, foreign(job.pk, "los", "0b0b0b0b0b0b0b0b", queue_name))
            assert f"token: expected '{job.token}', got '0b0b0b0b0b0b0b0b'" in line
        assert Job.objects.get(pk=job.pk).worker.startswith("redis-")
    finally:
        forget_redis_queue(REDIS_URL, queue_name)
        forget_redis_queue(REDIS_URL, interactive(queue_name))
        app._after_fork()
