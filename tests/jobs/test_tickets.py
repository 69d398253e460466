"""A job's message runs only the job it was sent for (issue 33), checked without a worker: the agreement of a
message's ticket with the row (jobs.tickets), foreign messages run in this process by Celery (eager) and refused,
and a stored result reused only for the same kind, question and content. The same with real workers:
test_foreign_messages.py."""

import logging

import pytest
from celery.app.task import Context

from engine import mapfile
from engine.los import engine
from hexside.celery import app
from jobs import dispatch, runner, tickets
from jobs.models import Job
from maps.tasks import answer_los

LOS = {"from": "A1", "to": "J8", "from_level": None, "to_level": None, "markers": []}


def los_job(**fields):
    return Job(pk=7, kind="los", token="a1b2c3d4e5f60718", **fields)


def test_a_message_of_its_own_job_agrees():
    job = los_job()
    assert tickets.differences(tickets.of(job), "maps.los", None, job) == []
    analysis = Job(pk=8, kind="analysis", token="0011223344556677")
    assert tickets.differences(tickets.of(analysis, 2), "maps.analysis_part", 2, analysis) == []
    assert tickets.differences(tickets.of(analysis), "maps.analysis_assemble", None, analysis) == []


def test_another_jobs_message_for_the_same_id_names_what_differs():
    job = los_job()
    theirs = Job(pk=7, kind="map-image", token="stale0000")  # another database's job 7
    assert tickets.differences(tickets.of(theirs), "maps.map_image", None, job) == [
        "token: expected 'a1b2c3d4e5f60718', got 'stale0000'", "kind: expected 'los', got 'map-image'"]
    assert tickets.differences(tickets.of(Job(pk=7, kind="los", token="stale0000")), "maps.los", None, job) == [
        "token: expected 'a1b2c3d4e5f60718', got 'stale0000'"]
    # The right ticket on another kind's task, and a ticket naming another job than the message's argument.
    assert tickets.differences(tickets.of(job), "maps.map_image", None, job) == [
        "task: expected 'maps.los' (the 'los' kind's), got 'maps.map_image'"]
    other_id = tickets.Ticket(job=8, kind="los", token=job.token)
    assert tickets.differences(other_id, "maps.los", None, job) == [
        "id: expected 7 (the message's argument), got 8 (its ticket)"]


def test_a_part_message_must_name_the_part_it_runs():
    job = Job(pk=8, kind="analysis", token="0011223344556677")
    assert tickets.differences(tickets.of(job, 1), "maps.analysis_part", 0, job) == [
        "part: expected 0 (the message's argument), got 1 (its ticket)"]
    assert tickets.differences(tickets.of(job), "maps.analysis_part", 0, job) == [
        "part: expected 0 (the message's argument), got None (its ticket)"]
    assert tickets.differences(tickets.of(job), "maps.analysis_part", None, job) == [
        "task: expected 'maps.analysis_assemble' (the 'analysis' kind's), got 'maps.analysis_part'"]


def test_a_message_with_no_ticket_or_no_token_is_refused():
    job = los_job()
    [reason] = tickets.differences(None, "maps.los", None, job)
    assert reason.startswith("ticket: expected one naming the job's token and kind, got none")
    untokened = Job(pk=7, kind="los", token="")  # a row of before tokens: nothing tells it from another's
    assert tickets.differences(tickets.of(untokened), "maps.los", None, untokened) == [
        "token: expected the job's, got none"]


def test_the_ticket_travels_in_the_message_headers():
    job = los_job()
    signature = dispatch.message(job)
    assert (signature.task, signature.args, signature.options["task_id"]) == ("maps.los", (7,), job.task_id())
    headers = signature.options["headers"]
    assert tickets.carried(Context({"headers": headers})) == tickets.of(job)  # as Celery runs a task eagerly
    assert tickets.carried(Context(headers)) == tickets.of(job)  # as a worker does, from the message's headers
    part = dispatch.message(Job(pk=8, kind="analysis", token="0011223344556677"), 3)
    assert part.options["headers"] == {tickets.HEADER: {"job": 8, "kind": "analysis", "token": "0011223344556677",
                                                        "part": 3}}


def row(job):
    return Job.objects.filter(pk=job.pk).values().get()


@pytest.mark.django_db(transaction=True)
def test_foreign_messages_run_by_celery_leave_the_job_as_it_was(user_map, caplog):
    """In this process, as Celery runs a task eagerly: the issue's message (maps.map_image for the LOS job's id,
    another token in its task id, no ticket) and other foreign ones are refused; its own message answers it."""
    job, _ = dispatch.submit("los", LOS, subject=user_map)
    before = row(job)
    foreign = [
        lambda: app.tasks["maps.map_image"].apply(args=[job.pk], task_id=f"job-{job.pk}-stale0000"),
        lambda: dispatch.message(Job(pk=job.pk, kind="map-image", token="stale0000")).apply(),
        lambda: dispatch.message(Job(pk=job.pk, kind="map-image", token=job.token)).apply(),
        lambda: dispatch.message(Job(pk=job.pk, kind="los", token="stale0000")).apply(),
        lambda: app.tasks["maps.los"].apply(args=[job.pk], task_id=job.task_id()),  # no ticket, the right task id
    ]
    with caplog.at_level(logging.WARNING, logger="jobs.tickets"):
        for send in foreign:
            send()
    assert row(job) == before  # status, worker, attempts, heartbeat, result: untouched
    dropped = [r.getMessage() for r in caplog.records if r.name == "jobs.tickets"]
    assert len(dropped) == len(foreign)
    assert all(f"job {job.pk}: message " in text and "left as it was" in text for text in dropped)
    assert "kind: expected 'los', got 'map-image'" in dropped[1] and "got 'stale0000'" in dropped[1]
    assert "kind: expected 'los', got 'map-image'" in dropped[2] and "token" not in dropped[2]

    dispatch.message(job).apply()
    job.refresh_from_db()
    assert (job.status, job.attempts) == ("succeeded", 1)
    assert job.result == engine.line_of_sight(engine.compile_map(mapfile.parse(user_map.document)), "A1",
                                              "J8").as_dict()


@pytest.mark.django_db
def test_a_part_message_for_a_part_the_job_does_not_have_is_dropped(user_map, caplog):
    job, _ = dispatch.submit("analysis", {"height": 0, "markers": []}, subject=user_map, parts=[(0, 40), (40, 80)])
    parts = list(job.parts.values())
    with caplog.at_level(logging.WARNING, logger="jobs.runner"):
        dispatch.message(job, 5).apply()
    assert f"job {job.pk} has no part 6 (it has 2); message dropped" in caplog.text
    assert list(job.parts.values()) == parts and row(job)["status"] == "queued"


@pytest.mark.django_db
def test_a_stored_result_is_marked_with_what_it_answers_and_reused_only_for_that(user_map):
    job, _ = dispatch.submit("los", LOS, subject=user_map)
    runner.run(None, job.pk, answer_los)
    job.refresh_from_db()
    assert job.result_key == dispatch.result_key("los", LOS, "map", user_map.pk, user_map.content_hash)
    assert dispatch.find_same("los", LOS, subject=user_map) == job
    assert dispatch.submit("los", LOS, subject=user_map) == (job, False)

    # A result stored by an earlier version (no key), or under another kind's, is not reused: asked again.
    for key in ("", dispatch.result_key("map-image", LOS, "map", user_map.pk, user_map.content_hash)):
        Job.objects.filter(pk=job.pk).update(result_key=key)
        assert dispatch.find_same("los", LOS, subject=user_map) is None
    again, created = dispatch.submit("los", LOS, subject=user_map)
    assert created and again.pk != job.pk


@pytest.mark.django_db
def test_a_result_is_not_stored_on_a_row_that_is_no_longer_the_job_it_was_computed_for(user_map):
    job, _ = dispatch.submit("los", LOS, subject=user_map)
    taken = runner.take(job.pk, "w pid 1")
    Job.objects.filter(pk=job.pk).update(kind="viewshed")  # the row says another question meanwhile
    assert runner.finish(taken, runner.Outcome({"image": "page/x.png"})) is False
    assert row(job)["status"] == "running" and row(job)["result"] is None
