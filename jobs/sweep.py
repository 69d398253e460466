"""Finding jobs whose worker was lost, and giving them to another one (or failing them after a few tries).

A job or part that a worker holds has a heartbeat (jobs.runner.Heartbeat). When the worker dies (killed, out
of memory, its machine gone) the heartbeat stops. The broker may redeliver the message by itself (acks_late,
reject_on_worker_lost) but not always: a worker process killed outright takes its reserved messages with it on
the filesystem transport, and Redis gives them back only after its visibility timeout. So every worker sweeps
every JOBS_SWEEP_SECONDS: a live job or part whose heartbeat is older than JOBS_HEARTBEAT_TIMEOUT is queued
again, and after JOBS_MAX_ATTEMPTS starts it is failed with an error saying why. A job no worker has taken yet
has no heartbeat and is left alone: it is waiting, not lost.
"""

import logging
import os
import threading
from contextlib import contextmanager
from datetime import timedelta

from django.db import connections
from django.utils import timezone

from jobs import conf, dispatch
from jobs.models import Job, JobPart
from jobs.runner import fail, gave_up

logger = logging.getLogger(__name__)


def sweep(now=None):
    """Requeue or fail every job and part gone cold, and delete the jobs whose result file has expired; a list of
    (job id, what was done) for the log."""
    now = now or timezone.now()
    done = expire_files(now)
    limit = now - timedelta(seconds=conf.get("HEARTBEAT_TIMEOUT"))
    for job in Job.objects.filter(status__in=Job.LIVE, heartbeat__lt=limit).exclude(step=Job.Step.PARTS):
        done.append((job.pk, requeue(job, now)))
    parts = JobPart.objects.filter(status__in=(JobPart.Status.QUEUED, JobPart.Status.RUNNING), heartbeat__lt=limit,
                                   job__status__in=Job.LIVE).select_related("job").defer("data")
    for part in parts:
        done.append((part.job_id, requeue_part(part, now)))
    return done


def expire_files(now):
    """Finished jobs whose result file is older than JOBS_FILE_DAYS, deleted with their file (models'
    delete_result_file): asked again, they are made again."""
    days = conf.get("FILE_DAYS")
    if not days or days <= 0:
        return []
    old = Job.objects.filter(status__in=Job.FINISHED, finished__lt=now - timedelta(days=days)).exclude(result_file="")
    done = []
    for job in old.only("pk", "result_file")[:500]:  # a few hundred a sweep: the next sweep takes the rest
        pk = job.pk
        job.delete()
        done.append((pk, "deleted: its result file expired"))
    return done


def sweep_job(job, now=None):
    """The same for one job, when someone looks at it (so a job shows its fate even with no worker left)."""
    now = now or timezone.now()
    limit = now - timedelta(seconds=conf.get("HEARTBEAT_TIMEOUT"))
    if job.status in Job.LIVE and job.step != Job.Step.PARTS and job.heartbeat and job.heartbeat < limit:
        requeue(job, now)
        job.refresh_from_db()
    return job


def _silence(heartbeat, now):
    return f"{(now - heartbeat).total_seconds():.0f} s without a heartbeat"


def requeue(job, now):
    lost = job.worker or "its worker"
    if job.attempts >= conf.get("MAX_ATTEMPTS"):
        fail(job.pk, gave_up(job.attempts, "the job") + f" (last: {lost}, {_silence(job.heartbeat, now)})",
             attempt=job.attempts)
        return "failed"
    status = Job.Status.RUNNING if job.step == Job.Step.ASSEMBLE else Job.Status.QUEUED
    moved = Job.objects.filter(pk=job.pk, status=job.status, attempts=job.attempts, heartbeat=job.heartbeat).update(
        status=status, heartbeat=None, worker="",
        message=f"requeued: {lost} stopped answering ({_silence(job.heartbeat, now)})"[:200])
    if not moved:
        return "changed meanwhile"
    try:
        dispatch.publish(job)
    except dispatch.BrokerUnavailable:
        # Put the stale heartbeat back so that the next sweep tries again.
        Job.objects.filter(pk=job.pk, heartbeat=None, attempts=job.attempts).update(heartbeat=job.heartbeat)
        logger.warning("job %s: the broker is unreachable; will requeue at the next sweep", job.pk)
        return "broker unreachable"
    logger.warning("job %s requeued: %s stopped answering", job.pk, lost)
    return "requeued"


def requeue_part(part, now):
    total = part.job.parts_total
    if part.attempts >= conf.get("MAX_ATTEMPTS"):
        fail(part.job_id, gave_up(part.attempts, f"part {part.index + 1} of {total}")
             + f" (last: {part.worker or 'its worker'}, {_silence(part.heartbeat, now)})")
        return "failed"
    moved = JobPart.objects.filter(pk=part.pk, status=part.status, attempts=part.attempts,
                                   heartbeat=part.heartbeat).update(status=JobPart.Status.QUEUED, heartbeat=None,
                                                                    worker="")
    if not moved:
        return "changed meanwhile"
    try:
        dispatch.publish_parts(part.job, [part.index])
    except dispatch.BrokerUnavailable:
        JobPart.objects.filter(pk=part.pk, heartbeat=None, attempts=part.attempts).update(heartbeat=part.heartbeat)
        return "broker unreachable"
    logger.warning("job %s part %s requeued: %s stopped answering", part.job_id, part.index + 1, part.worker)
    return "requeued part"


# Pool processes are forked from a worker's main process, where the sweeper and the receipt stamps
# (jobs.tasks) use the database. A connection open across a fork breaks the child's own connections (SQLite keeps
# its locks per process, so a child can read an old snapshot; PostgreSQL would share the socket). So the main
# process holds a connection only inside main_process_database(), and a fork waits until it is closed again.
_fork_lock = threading.Lock()
os.register_at_fork(before=_fork_lock.acquire, after_in_parent=_fork_lock.release,
                    after_in_child=_fork_lock.release)


@contextmanager
def main_process_database():
    """Use the database in a worker's main process: no fork meanwhile, and no connection left open after."""
    with _fork_lock:
        try:
            yield
        finally:
            connections.close_all()


class Sweeper:
    """A thread in each worker's main process that sweeps now and then; the first sweeper to act wins."""

    def __init__(self, every=None):
        self.every = every if every is not None else conf.get("SWEEP_SECONDS")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="job-sweeper", daemon=True)

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        self._thread.join(timeout=5)

    def _loop(self):
        while not self._stop.wait(self.every):
            try:
                with main_process_database():
                    done = sweep()
            except Exception:  # a failed sweep is tried again at the next
                logger.warning("sweep failed", exc_info=True)
                continue
            for job_id, what in done:
                logger.info("sweep: job %s %s", job_id, what)
