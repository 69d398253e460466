"""Running a job inside a worker: take it, keep its heartbeat, store its result or its error.

Every write is a conditional update on the row's state (status, step, attempts), so whatever happens around a
task (a duplicate message, a redelivery after a lost worker, a cancel, a sweep that requeued it) exactly one
attempt stores a result, and a superseded attempt changes nothing. Before anything, a message is checked against
the row it names (jobs.tickets): one sent for another job with the same id (another database's) is dropped and
the row is not touched.
"""

import logging
import os
import random
import signal
import tempfile
import threading
import time
from dataclasses import dataclass

from celery import Task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.files.base import ContentFile, File
from django.db import DatabaseError, connections
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone

from jobs import conf, dispatch, tickets
from jobs.models import Job, JobPart

logger = logging.getLogger(__name__)

ROW_WAIT_SECONDS = 5.0


class JobTask(Task):
    """The base of every task that runs a job: its first argument is the job's id (then a part's index)."""

    job_task = True
    ignore_result = True


@dataclass
class Outcome:
    """What a job's work gives: the JSON result, and optionally a file (name, bytes or a File) stored beside it.
    With ``in_file`` the file is the result, as JSON (Job.result_in_file)."""

    result: object
    file: tuple | None = None
    in_file: bool = False


def spooled(pieces):
    """Text pieces written to a temporary file, as a File to store: a large result never whole in memory."""
    out = tempfile.TemporaryFile()  # noqa: SIM115 - the File it returns is closed by whoever stores it
    for piece in pieces:
        out.write(piece.encode())
    out.seek(0)
    return File(out)


def worker_name(task):
    if task is None or task.request.is_eager:
        return f"eager pid {os.getpid()}"
    return f"{task.request.hostname} pid {os.getpid()}"


def describe(exc):
    if isinstance(exc, SoftTimeLimitExceeded):
        return (f"stopped: the job ran longer than its time limit of {settings.CELERY_TASK_SOFT_TIME_LIMIT:g} s "
                "(HEXSIDE_JOB_TIME_LIMIT)")
    text = str(exc) or exc.__class__.__name__
    return text if isinstance(exc, JobError) else f"{exc.__class__.__name__}: {text}"


class JobError(Exception):
    """A job cannot be done, for a reason its requester should read as it is."""


class Stopped(BaseException):  # noqa: N818 - not an error: the work is no longer wanted
    """Raised inside a job's work when its row is no longer this attempt's (cancelled, failed, or taken over by
    another attempt): the work stops and the worker goes on with its next job. A BaseException, so that no
    ``except Exception`` in the work swallows it."""


def wait_for(queryset, seconds=ROW_WAIT_SECONDS):
    """The row, waiting a moment for it: a message can arrive before the transaction that sent it commits."""
    deadline = time.monotonic() + seconds
    while True:
        row = queryset.first()
        if row is not None or time.monotonic() >= deadline:
            return row
        time.sleep(0.05)


# -- locks: tried again, never a job's failure ------------------------------------------------------------

# PostgreSQL's serialization failure, deadlock and lock-not-available.
LOCK_SQLSTATES = {"40001", "40P01", "55P03"}
LOCK_RETRY_MAX_SECONDS = 2.0


def is_lock_error(exc):
    """A database lock or serialization conflict: says nothing about the job, so it is tried again."""
    if not isinstance(exc, DatabaseError):
        return False
    text = str(exc).lower()
    if "database is locked" in text or "database table is locked" in text:
        return True
    cause = exc.__cause__
    return getattr(cause, "sqlstate", None) in LOCK_SQLSTATES or getattr(cause, "pgcode", None) in LOCK_SQLSTATES


def retrying(fn, *args, **kwargs):
    """fn(*args), tried again for as long as it fails on a lock (backing off, with jitter, up to 2 s a wait).

    No count: a lock is always released in the end, and the task's time limit still bounds the whole.
    """
    delay = 0.02
    while True:
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            if not is_lock_error(exc):
                raise
            logger.warning("%s: %s; trying again", getattr(fn, "__name__", fn), exc)
            connections.close_all()  # a fresh connection: no half-open transaction carried over
            time.sleep(delay * (1 + random.random()))
            delay = min(delay * 2, LOCK_RETRY_MAX_SECONDS)


# -- one-step jobs (and the assembling step of jobs in parts) --------------------------------------------

def run(task, job_id, work):
    """Take the job, run ``work(job) -> Outcome or JSON result`` under a heartbeat, store what came of it."""
    job = retrying(take, job_id, worker_name(task), task)
    if job is None:
        return
    beat = Heartbeat(Job.objects.filter(pk=job.pk, attempts=job.attempts, status=Job.Status.RUNNING),
                     enabled=not (task and task.request.is_eager))
    try:
        with beat:
            try:
                outcome = retrying(work, job)
            except Exception as exc:  # any error of the work is the job's error, not the worker's
                logger.exception("job %s (%s) failed", job.pk, job.kind)
                retrying(fail, job.pk, describe(exc), attempt=job.attempts)
                return
    except Stopped:
        logger.info("job %s (%s): stopped, no longer this attempt's (cancelled, or taken over)", job.pk, job.kind)
        return
    if not isinstance(outcome, Outcome):
        outcome = Outcome(outcome)
    try:
        stored = retrying(finish, job, outcome)
    except Exception as exc:  # e.g. a result the database refuses: say so rather than look like a lost worker
        logger.exception("job %s: could not store its result", job.pk)
        retrying(fail, job.pk, f"the result could not be stored: {describe(exc)}", attempt=job.attempts)
        return
    if not stored:
        logger.info("job %s: result dropped (cancelled, taken over by another attempt, or the row is no longer "
                    "the job it was computed for)", job.pk)


def take(job_id, worker, task=None):
    """The job, now running here with its attempts counted; None when there is nothing (more) to do, or when
    ``task``'s message was not sent for this job (jobs.tickets: the row is then left as it was)."""
    job = the_job(job_id)
    if job is None or not tickets.check(task, job):
        return None
    if job.status not in Job.LIVE or job.step == Job.Step.PARTS:
        return None  # finished or cancelled (a late duplicate), or its parts run first
    if job.attempts >= conf.get("MAX_ATTEMPTS"):
        fail(job.pk, gave_up(job.attempts, "the job"), attempt=job.attempts)
        return None
    now = timezone.now()
    taken = Job.objects.filter(pk=job.pk, token=job.token, kind=job.kind, status__in=Job.LIVE, step=job.step,
                               attempts=job.attempts).update(
        status=Job.Status.RUNNING, worker=worker[:255], heartbeat=now, attempts=F("attempts") + 1,
        started=Coalesce("started", now), message="running")
    if not taken:
        return None  # another delivery of the same message took it a moment ago
    job.refresh_from_db()
    return job


def the_job(job_id):
    """The row a message names (waiting a moment for it), or None, said in the log."""
    job = wait_for(Job.objects.filter(pk=job_id))
    if job is None:
        logger.warning("job %s does not exist (deleted, or its request was rolled back); message dropped", job_id)
    return job


def gave_up(attempts, what):
    return (f"gave up: {what} was started {attempts} times and each time the worker running it was lost "
            "(killed, or out of memory) before it finished")


def report(job, progress, message=""):
    """Progress of a running job, 0-100 (never going back). A progress note lost to a lock is skipped: the next
    one, or the result, says more."""
    try:
        Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING, attempts=job.attempts,
                           progress__lte=progress).update(progress=max(0, min(100, int(progress))),
                                                          message=message[:200])
    except DatabaseError as exc:
        if not is_lock_error(exc):
            raise
        logger.info("job %s: progress %s not written (%s)", job.pk, progress, exc)


def finish(job, outcome):
    """Store the result of the attempt that is still current; False (and nothing stored) otherwise.

    Stored only while the row still is the job the work ran for (its token, kind and content), marked
    with what it answers (``result_key``), which dispatch.find_same compares before reusing it."""
    stored, size = "", 0
    if outcome.file is not None:
        name, content = outcome.file
        field = Job._meta.get_field("result_file")
        stored = field.storage.save(field.generate_filename(job, name),
                                    content if isinstance(content, File) else ContentFile(content))
        size = field.storage.size(stored)
    try:
        done = Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING, attempts=job.attempts, token=job.token,
                                  kind=job.kind, content_hash=job.content_hash).update(
            status=Job.Status.SUCCEEDED, result=outcome.result, result_key=dispatch.result_key_of(job),
            result_file=stored, result_in_file=outcome.in_file, result_bytes=size,
            progress=100, message="done", error="", finished=timezone.now(), heartbeat=None)
    except Exception:
        if stored:  # tried again (a lock) or failed: either way this file is nobody's
            Job._meta.get_field("result_file").storage.delete(stored)
        raise
    if not done and stored:
        Job._meta.get_field("result_file").storage.delete(stored)
    if done:
        JobPart.objects.filter(job_id=job.pk).delete()
    return bool(done)


def fail(job_id, error, attempt=None):
    """Mark a live job failed with its error (only the current attempt's, when ``attempt`` is given)."""
    jobs = Job.objects.filter(pk=job_id, status__in=Job.LIVE)
    if attempt is not None:
        jobs = jobs.filter(attempts=attempt)
    failed = jobs.update(status=Job.Status.FAILED, error=error, message="failed", finished=timezone.now(),
                         heartbeat=None)
    if failed:
        JobPart.objects.filter(job_id=job_id).delete()
    return bool(failed)


# -- jobs in parts ---------------------------------------------------------------------------------------

def run_part(task, job_id, index, work):
    """Run one part: ``work(job, part) -> (bytes, seconds)``; the last part to finish queues the assembly."""
    worker = worker_name(task)
    part = retrying(take_part, job_id, index, worker, task)
    if part is None:
        return
    job = part.job
    beat = Heartbeat(JobPart.objects.filter(pk=part.pk, attempts=part.attempts, status=JobPart.Status.RUNNING),
                     enabled=not (task and task.request.is_eager))
    try:
        with beat:
            try:
                data, seconds = retrying(work, job, part)
            except Exception as exc:
                logger.exception("job %s part %s failed", job_id, index)
                retrying(fail, job_id, f"part {index + 1} of {job.parts_total}: {describe(exc)}")
                return
    except Stopped:
        logger.info("job %s part %s: stopped, no longer this attempt's (cancelled, or taken over)", job_id, index)
        return
    try:
        stored = retrying(JobPart.objects.filter(pk=part.pk, status=JobPart.Status.RUNNING,
                                                 attempts=part.attempts).update,
                          status=JobPart.Status.DONE, data=data, seconds=seconds, heartbeat=None)
    except Exception as exc:
        logger.exception("job %s part %s: could not store its answers", job_id, index)
        retrying(fail, job_id,
                 f"part {index + 1} of {job.parts_total}: its answers could not be stored: {describe(exc)}")
        return
    if stored:
        retrying(send_next, job)
        retrying(join, job)


def send_next(job):
    """A part is done: queue the first part of the job not sent yet (JOBS_PARTS_IN_FLIGHT at a time), so that a
    big job's parts join the back of the queue one by one, behind other users' jobs, instead of all at once."""
    if not Job.objects.filter(pk=job.pk, status__in=Job.LIVE).exists():
        return
    unsent = JobPart.objects.filter(job_id=job.pk, sent=False)
    while True:
        following = unsent.order_by("index").values_list("pk", "index").first()
        if following is None:
            return
        if unsent.filter(pk=following[0]).update(sent=True):
            break  # else another part's worker sent that one a moment ago: the next, then
    try:
        dispatch.publish_parts(job, [following[1]])
    except dispatch.BrokerUnavailable as exc:
        fail(job.pk, f"could not queue part {following[1] + 1} of {job.parts_total}: {exc}")


def take_part(job_id, index, worker, task=None):
    """The part, now running here; None when there is nothing (more) to do, or when ``task``'s message was not
    sent for this part of this job (jobs.tickets: the rows are then left as they were)."""
    job = the_job(job_id)
    if job is None or not tickets.check(task, job, index) or job.status not in Job.LIVE:
        return None
    part = JobPart.objects.filter(job_id=job_id, index=index).select_related("job").defer("data").first()
    if part is None:  # the parts are written with the job and dropped only when it finishes
        logger.warning("job %s has no part %s (it has %s); message dropped", job_id, index + 1, job.parts_total)
        return None
    if part.status == JobPart.Status.DONE:
        return None
    if part.attempts >= conf.get("MAX_ATTEMPTS"):
        fail(job_id, gave_up(part.attempts, f"part {index + 1} of {part.job.parts_total}"))
        return None
    now = timezone.now()
    taken = JobPart.objects.filter(pk=part.pk, status__in=(JobPart.Status.QUEUED, JobPart.Status.RUNNING),
                                   attempts=part.attempts).update(
        status=JobPart.Status.RUNNING, worker=worker[:255], heartbeat=now, attempts=F("attempts") + 1)
    if not taken:
        return None
    Job.objects.filter(pk=job_id, status=Job.Status.QUEUED).update(
        status=Job.Status.RUNNING, started=now, worker=worker[:255], message=f"0 of {part.job.parts_total} parts done")
    part.refresh_from_db(fields=["status", "attempts", "heartbeat", "worker"])
    part.job.refresh_from_db()
    return part


def join(job):
    """Count the parts done; the one call that sees them all done moves the job on and queues its assembly."""
    done = JobPart.objects.filter(job_id=job.pk, status=JobPart.Status.DONE).count()
    total = job.parts_total
    Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING, parts_done__lt=done).update(
        parts_done=done, progress=95 * done // total, message=f"{done} of {total} parts done")
    if done < total:
        return
    moved = Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING, step=Job.Step.PARTS).update(
        step=Job.Step.ASSEMBLE, attempts=0, heartbeat=None, message=f"{total} of {total} parts done; assembling")
    if moved:
        try:
            dispatch.publish(job)
        except dispatch.BrokerUnavailable as exc:
            fail(job.pk, f"could not queue the assembling step: {exc}")


# -- heartbeat -------------------------------------------------------------------------------------------

# The signal a heartbeat sends its own process's main thread to stop work that is no longer wanted. Celery's pool
# processes use SIGUSR1 for the soft time limit; SIGUSR2 is free there.
STOP_SIGNAL = getattr(signal, "SIGUSR2", None)
_armed = None  # the Heartbeat whose work a STOP_SIGNAL stops, in this process


def _stop_work(signum, frame):
    beat = _armed
    if beat is not None and beat.armed:
        beat.armed = False
        raise Stopped("the job is no longer this worker's: cancelled, or taken over")


class Heartbeat:
    """While the work runs, a thread stamps the row every few seconds; it stops when the row is no longer ours.

    A worker that dies stops stamping, and the sweep (jobs.sweep) finds the row grown cold. When the row is no
    longer ours (the job was cancelled, or failed, or another attempt took it over) the thread also interrupts
    the work in the main thread (STOP_SIGNAL raises Stopped there, at its next Python step: within
    JOBS_CANCEL_CHECK_SECONDS, or when the engine call it is in returns), so a cancelled job frees its worker
    instead of running on.
    """

    def __init__(self, queryset, every=None, enabled=True):
        self.queryset = queryset
        self.every = every if every is not None else conf.get("HEARTBEAT_SECONDS")
        self.enabled = enabled
        self.lost = False
        self.armed = False
        self._main = None
        self._stop = threading.Event()
        self._thread = None

    def __enter__(self):
        global _armed
        if self.enabled:
            if STOP_SIGNAL is not None and threading.current_thread() is threading.main_thread():
                if signal.getsignal(STOP_SIGNAL) is not _stop_work:
                    signal.signal(STOP_SIGNAL, _stop_work)
                self._main = threading.main_thread().ident
                self.armed = True
                _armed = self
            self._thread = threading.Thread(target=self._beat, name="job-heartbeat", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc_info):
        global _armed
        self.armed = False  # first: a signal from here on changes nothing
        if _armed is self:
            _armed = None
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        return False

    def _beat(self):
        """Stamp the row every ``every`` seconds, and look whether it is still ours every CANCEL_CHECK_SECONDS
        between (a cheap read), so that a cancel stops the work within about a second."""
        look = min(self.every, conf.get("CANCEL_CHECK_SECONDS"))
        stamped = time.monotonic()
        try:
            while not self._stop.wait(look):
                stamp = time.monotonic() - stamped >= self.every - look / 2
                try:
                    ours = self.queryset.update(heartbeat=timezone.now()) if stamp else self.queryset.exists()
                except Exception:  # a missed beat is retried at the next one
                    logger.warning("heartbeat write failed", exc_info=True)
                    continue
                if stamp:
                    stamped = time.monotonic()
                if not ours:
                    self.lost = True  # cancelled, failed or taken over: nothing to keep alive
                    if self.armed and not self._stop.is_set():
                        signal.pthread_kill(self._main, STOP_SIGNAL)
                    return
        finally:
            connections.close_all()
