"""Waiting for a job without holding a thread: the long poll of GET /api/jobs/<id>/?wait= is a coroutine on the
web server's event loop (hexside/asgi.py), which serves pages meanwhile.

One watcher per event loop looks at every job waited for in that process in a single query a tick, on a thread
of its own: a hundred waits cost one query a tick and one database connection, not a hundred of each. Everything
that touches the database runs on that thread (Django's connection is the calling thread's: one looked up on the
event loop's thread cannot be used or closed on another), and a watcher that fails is logged once and replaced by
the next wait, never left with an exception nobody retrieves. A wait
that starts makes the watcher look soon (an LOS answer takes milliseconds), then less and less often.

Waits are capped in each process, overall and per client (jobs.conf WAITS_MAX, WAITS_PER_CLIENT): past a cap the
request answers at once with the job as it is, which a client following a job copes with (it asks again).
"""

import asyncio
import contextvars
import logging
import weakref
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from django.db import DatabaseError, connection

from jobs import conf
from jobs.models import Job

FIRST_LOOK = 0.005  # seconds after a wait starts
LONGEST_LOOK = 0.2  # between looks, at most

logger = logging.getLogger(__name__)
_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="job-waits")  # the watchers' database connection
_watchers = weakref.WeakKeyDictionary()  # event loop -> Watcher


async def until_finished(pk, seconds, client=""):
    """Return True once job ``pk`` has finished (or is gone), or after ``seconds``; False at once, without
    waiting, when this process already has as many waits as it takes, overall or from ``client``."""
    loop = asyncio.get_running_loop()
    watcher = _watchers.get(loop)
    if watcher is None:
        watcher = _watchers[loop] = Watcher(loop)
    if watcher.count >= conf.get("WAITS_MAX") or watcher.by_client[client] >= conf.get("WAITS_PER_CLIENT"):
        return False
    watcher.count += 1
    watcher.by_client[client] += 1
    try:
        await watcher.wait(pk, seconds)
    finally:
        watcher.count -= 1
        watcher.by_client[client] -= 1
        if not watcher.by_client[client]:
            del watcher.by_client[client]
    return True


def close_connection():
    """Close this thread's database connection (called on the watchers' thread: its own)."""
    connection.close()


def not_live(pks):
    """Those of ``pks`` that are no longer queued or running: finished, or deleted."""
    live = set(Job.objects.filter(pk__in=pks, status__in=Job.LIVE).values_list("pk", flat=True))
    return [pk for pk in pks if pk not in live]


class Watcher:
    def __init__(self, loop):
        self.loop = loop
        self.waiting = {}  # job pk -> the futures of the requests waiting for it
        self.task = None
        self.started = asyncio.Event()
        self.poll = FIRST_LOOK
        self.count, self.by_client = 0, Counter()  # the waits under way: in all, and per client

    async def wait(self, pk, seconds):
        done = self.loop.create_future()
        self.waiting.setdefault(pk, set()).add(done)
        self.poll = FIRST_LOOK
        self.started.set()
        if self.task is None or self.task.done():
            # In a context of its own: not the first waiter's (its request id, its thread for sync code).
            self.task = self.loop.create_task(self.watch(), context=contextvars.Context())
            self.task.add_done_callback(_retrieved)
        try:
            await asyncio.wait_for(done, seconds)
        except TimeoutError:
            pass
        finally:
            futures = self.waiting.get(pk, set())
            futures.discard(done)
            if not futures:
                self.waiting.pop(pk, None)

    async def watch(self):
        while True:
            while self.waiting:
                await self._until_next_look()
                await self._look()
            await self.loop.run_in_executor(_thread, close_connection)  # nobody waits: hold no connection
            if not self.waiting:  # nor did anyone start to meanwhile
                return

    async def _look(self):
        pks = list(self.waiting)
        try:
            finished = await self.loop.run_in_executor(_thread, not_live, pks)
        except DatabaseError:
            logger.exception("looking at the jobs waited for failed; looking again")
            await self.loop.run_in_executor(_thread, close_connection)
            finished = []
        for pk in finished:
            for done in self.waiting.get(pk, ()):
                if not done.done():
                    done.set_result(None)
        self.poll = min(self.poll * 1.2, LONGEST_LOOK)

    async def _until_next_look(self):
        """Sleep for self.poll, cut short to FIRST_LOOK by a wait that starts meanwhile."""
        next_look = self.loop.time() + self.poll
        while (left := next_look - self.loop.time()) > 0:
            self.started.clear()
            try:
                await asyncio.wait_for(self.started.wait(), left)
            except TimeoutError:
                return
            next_look = min(next_look, self.loop.time() + FIRST_LOOK)


def _retrieved(task):
    """A watcher's end: an exception it died of is logged here, once (the next wait starts a new watcher)."""
    if not task.cancelled() and task.exception() is not None:
        logger.error("the watcher of waited-for jobs failed", exc_info=task.exception())
