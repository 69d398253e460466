"""The life of a job inside workers, step by step in this process: taking, superseding, heartbeats, the sweep
for lost workers, parts joined exactly once, and Celery's eager mode."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from engine import mapfile
from engine.los import engine
from hexside.celery import app
from jobs import dispatch, runner, sweep
from jobs.models import Job, JobPart
from tests.jobs.fixtures import JOBS_SETTINGS, broker_messages, use_broker

pytestmark = pytest.mark.django_db

TIMEOUT = JOBS_SETTINGS["HEARTBEAT_TIMEOUT"]


def queued(kind="test-sleep", **parameters):
    job, created = dispatch.submit(kind, parameters or {"seconds": 0})
    assert created
    return job


def gone_cold(job, seconds=TIMEOUT + 1):
    Job.objects.filter(pk=job.pk).update(heartbeat=timezone.now() - timedelta(seconds=seconds))


def test_a_redelivered_job_is_taken_over_and_only_the_current_attempt_stores_its_result():
    job = queued()
    first = runner.take(job.pk, "w1 pid 1")
    second = runner.take(job.pk, "w2 pid 2")  # the broker gave the message again: the first worker was lost
    assert (first.attempts, second.attempts) == (1, 2)
    assert not runner.finish(first, runner.Outcome({"from": "the lost worker"}))
    assert runner.finish(second, runner.Outcome({"from": "the second worker"}))
    job.refresh_from_db()
    assert (job.status, job.result, job.worker) == ("succeeded", {"from": "the second worker"}, "w2 pid 2")
    assert runner.take(job.pk, "w3 pid 3") is None  # a late duplicate changes nothing


def test_a_job_started_too_often_is_failed_when_it_comes_again():
    job = queued()
    for n in range(JOBS_SETTINGS["MAX_ATTEMPTS"]):
        assert runner.take(job.pk, f"w pid {n}") is not None
    assert runner.take(job.pk, "w pid last") is None
    job.refresh_from_db()
    assert job.status == "failed" and job.error.startswith("gave up: the job was started 3 times")


def test_the_sweep_requeues_a_job_whose_worker_went_silent_and_leaves_the_others(jobs_isolated):
    cold, warm, waiting = queued(seconds=1), queued(seconds=2), queued(seconds=3)
    for job in (cold, warm):
        runner.take(job.pk, f"w pid {job.pk}")
    gone_cold(cold)
    before = len(broker_messages(jobs_isolated))
    assert sweep.sweep() == [(cold.pk, "requeued")]
    cold.refresh_from_db()
    assert (cold.status, cold.heartbeat, cold.worker) == ("queued", None, "")
    assert f"w pid {cold.pk} stopped answering" in cold.message
    assert len(broker_messages(jobs_isolated)) == before + 1
    assert Job.objects.get(pk=warm.pk).status == "running"
    assert Job.objects.get(pk=waiting.pk).status == "queued"


def test_the_sweep_fails_a_job_after_its_last_attempt_with_an_error_saying_why():
    job = queued()
    for n in range(JOBS_SETTINGS["MAX_ATTEMPTS"]):
        runner.take(job.pk, f"w pid {n}")
    gone_cold(job)
    assert sweep.sweep() == [(job.pk, "failed")]
    job.refresh_from_db()
    assert job.status == "failed"
    assert "worker running it was lost" in job.error and "without a heartbeat" in job.error


def test_with_the_broker_unreachable_the_sweep_tries_again_next_time():
    job = queued()
    runner.take(job.pk, "w pid 1")
    gone_cold(job)
    use_broker("redis://127.0.0.1:1/0")
    assert sweep.sweep() == [(job.pk, "broker unreachable")]
    job.refresh_from_db()
    assert job.heartbeat is not None  # still cold, so found again
    assert [what for _, what in sweep.sweep()] == ["broker unreachable"]


def test_the_sweep_requeues_only_the_part_that_was_lost(user_map, jobs_isolated):
    job, _ = dispatch.submit("analysis", {"height": 0, "markers": []}, subject=user_map, parts=[(0, 10), (10, 80)])
    for message in broker_messages(jobs_isolated):
        message.unlink()
    lost = runner.take_part(job.pk, 0, "w pid 1")
    runner.take_part(job.pk, 1, "w pid 2")
    JobPart.objects.filter(pk=lost.pk).update(heartbeat=timezone.now() - timedelta(seconds=TIMEOUT + 1))
    assert sweep.sweep() == [(job.pk, "requeued part")]
    assert [p.status for p in job.parts.order_by("index")] == ["queued", "running"]
    assert len(broker_messages(jobs_isolated)) == 1
    assert Job.objects.get(pk=job.pk).status == "running"


def test_the_last_part_queues_the_assembly_once_however_often_it_is_counted(user_map, jobs_isolated):
    job, _ = dispatch.submit("analysis", {"height": 0, "markers": []}, subject=user_map, parts=[(0, 40), (40, 80)])
    for index in (0, 1):
        part = runner.take_part(job.pk, index, "w pid 1")
        JobPart.objects.filter(pk=part.pk).update(status="done", data=b"")
    for message in broker_messages(jobs_isolated):
        message.unlink()
    runner.join(job)
    runner.join(job)
    job.refresh_from_db()
    assert (job.step, job.parts_done, job.progress) == ("assemble", 2, 95)
    assert len(broker_messages(jobs_isolated)) == 1


@pytest.mark.django_db(transaction=True)
def test_a_heartbeat_keeps_the_row_warm_until_the_job_is_no_longer_ours_then_stops_the_work():
    job = runner.take(queued().pk, "w pid 1")
    rows = Job.objects.filter(pk=job.pk, attempts=job.attempts, status="running")
    with pytest.raises(runner.Stopped), runner.Heartbeat(rows, every=0.05) as beat:
        first = Job.objects.get(pk=job.pk).heartbeat
        assert until(lambda: Job.objects.get(pk=job.pk).heartbeat > first)
        dispatch.cancel(job)
        until(lambda: False, seconds=10)  # work that would go on: the heartbeat stops it
    assert beat.lost


@pytest.mark.django_db(transaction=True)
def test_a_heartbeat_that_ends_with_its_work_stops_nothing_after():
    job = runner.take(queued().pk, "w pid 1")
    rows = Job.objects.filter(pk=job.pk, attempts=job.attempts, status="running")
    with runner.Heartbeat(rows, every=0.05):
        pass
    dispatch.cancel(job)
    assert not until(lambda: False, seconds=0.3)  # no Stopped raised here


def until(condition, seconds=10):
    """Poll a condition until it holds (or the time is up): whether it held."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.mark.django_db(transaction=True)
def test_in_eager_mode_a_job_runs_in_the_request_after_its_commit(user_client, user_map):
    app.conf.task_always_eager = True
    try:
        response = user_client.post(f"/api/maps/{user_map.pk}/los/", {"from": "A1", "to": "J8"}, format="json")
    finally:
        app.conf.task_always_eager = False
    assert response.status_code == 202
    body = user_client.get(response.json()["url"]).json()
    assert body["status"] == "succeeded" and body["worker"].startswith("eager")
    cmap = engine.compile_map(mapfile.parse(user_map.document))
    assert body["result"] == engine.line_of_sight(cmap, "A1", "J8").as_dict()


@pytest.mark.django_db(transaction=True)
def test_a_part_that_raises_fails_the_whole_job_naming_the_part(user_map):
    job, _ = dispatch.submit("analysis", {"height": 0, "markers": []}, subject=user_map, parts=[(0, 40), (40, 80)])

    def work(job, part):
        raise ValueError("no such terrain: 'lava'")

    runner.run_part(None, job.pk, 1, work)
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", "part 2 of 2: ValueError: no such terrain: 'lava'")
    assert not job.parts.exists()
