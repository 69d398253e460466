"""Issue 27, point 8: the long poll's watcher (jobs/waiting.py) uses the database only from its own thread, so a
wait ends without a DatabaseError ("DatabaseWrapper objects created in a thread can only be used in that same
thread") and without a task exception nobody retrieves."""

import asyncio
import logging

import pytest

from jobs import waiting
from jobs.models import Job

pytestmark = pytest.mark.django_db(transaction=True)  # the watcher's thread reads the job: it must be committed


def test_waits_end_and_the_watcher_closes_its_connection_without_an_error(caplog):
    finished = Job.objects.create(kind="los", status=Job.Status.SUCCEEDED, request_key="waited-for")
    live = Job.objects.create(kind="los", status=Job.Status.QUEUED, request_key="still-queued")

    async def waits():
        loop = asyncio.get_running_loop()
        for _ in range(3):  # each round's watcher ends when nobody waits, closing its connection
            assert await waiting.until_finished(finished.pk, 5)
            assert await waiting.until_finished(live.pk, 0.05)  # answered at the end of the wait
            await waiting._watchers[loop].task  # raises what the watcher died of, if it did
        return waiting._watchers[loop].task

    with caplog.at_level(logging.WARNING):
        task = asyncio.run(waits())
    assert task.done() and task.exception() is None
    assert "DatabaseError" not in caplog.text and "failed" not in caplog.text, caplog.text
