"""Putting jobs on the queue, finding the same request already asked, cancelling. The web side of jobs.

A job row and its broker message are made together: the row is written and the message published inside one
transaction, so a broker that cannot be reached rolls the row back (the API answers 503 and no row claims to be
queued). A worker that receives the message before the commit waits a moment for the row (runner.wait_for).
"""

import hashlib
import json
import logging
import secrets
import time

from celery import current_app as app  # the project's Celery app (hexside/celery.py): jobs/ imports no project module
from celery import group
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from kombu.exceptions import KombuError

from jobs import conf, kinds, limits, subjects, tickets
from jobs.models import Job, JobPart

logger = logging.getLogger(__name__)


class BrokerUnavailable(Exception):
    """The job queue (the Celery broker) could not be reached; nothing was queued."""


def request_key(kind, parameters):
    """One key for one question: the kind and the normalised parameters, order of keys aside."""
    text = json.dumps({"kind": kind, "parameters": parameters}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def result_key(kind, parameters, subject_type, subject_id, content_hash):
    """What a stored result answers: the kind, the normalised parameters and the content of its subject. Written
    with the result (runner.finish) and compared again before the result is reused (find_same)."""
    text = json.dumps({"kind": kind, "parameters": parameters, "subject": [subject_type, subject_id],
                       "content": content_hash}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def result_key_of(job):
    """The result key a job's own row gives: the kind, parameters and content it says it is about."""
    return result_key(job.kind, job.parameters, job.subject_type, job.subject_id, job.content_hash)


def find_same(kind, parameters, subject=None, content_hash=None):
    """A job that already answers this request on this content: succeeded first, else one still live.

    A succeeded one is reused only when its stored result was written for this kind, question and content (its
    ``result_key``) and its row still says so; any other is left alone, and the question is asked again."""
    subject_type, subject_id, content_hash = about(subject, content_hash)
    jobs = Job.objects.filter(kind=kind, request_key=request_key(kind, parameters), subject_type=subject_type,
                              subject_id=subject_id, content_hash=content_hash)
    key = result_key(kind, parameters, subject_type, subject_id, content_hash)
    done = jobs.filter(status=Job.Status.SUCCEEDED, result_key=key).order_by("-finished", "-id").first()
    if done is not None and result_key_of(done) != key:
        logger.warning("job %s: its stored result is not reused, its row no longer says the question it answers",
                       done.pk)
        done = None
    return done or jobs.filter(status__in=Job.LIVE).order_by("-id").first()


def about(subject, content_hash=None):
    """(subject_type, subject_id, content_hash) of a job about ``subject`` (a model instance of a registered
    Subject, or None); the content hash defaults to the subject's current one."""
    if subject is None:
        return "", None, content_hash or ""
    spec = subjects.of(subject)
    return spec.name, subject.pk, spec.hash_of(subject) if content_hash is None else content_hash


def submit(kind, parameters, subject=None, user=None, parts=(), content_hash=None, cost=None, address=""):
    """(job, created): the job answering this request, queued now unless the same one exists.

    ``parameters`` must already be checked and normalised (equal questions, equal dicts). ``subject`` is what the
    job is about (a map, a scenario: jobs.subjects), at its current content unless ``content_hash`` says which.
    ``parts`` lists (start, stop) slices for a kind that runs in parts. A new job is bounded first (jobs.limits):
    its ``cost`` (estimated here unless given) against its kind's limit (CostTooHigh), and the requester's live
    jobs (the ``user``'s, else those of the anonymous ``address``; and all from ``address``, the request's) against
    the caps (TooManyJobs). Raises BrokerUnavailable when nothing could be queued.
    """
    spec = kinds.get(kind)
    subject_type, subject_id, content_hash = about(subject, content_hash)
    same = find_same(kind, parameters, subject, content_hash)
    if same is not None:
        return same, False
    parts = list(parts)
    if spec.split and not parts:
        raise ValueError(f"{kind} jobs run in parts: give at least one")
    if cost is None:
        cost = limits.estimate(kind, parameters, subject)
    user = user if user is not None and user.is_authenticated else None
    address = (address or "")[:64]
    check_caps(kind, cost, user, address)
    try:
        with transaction.atomic():
            job = Job.objects.create(
                kind=kind, parameters=parameters, request_key=request_key(kind, parameters),
                subject_type=subject_type, subject_id=subject_id, content_hash=content_hash, requested_by=user,
                requested_from=address, cost=cost, token=secrets.token_hex(8),
                queue=conf.queue_for(kind), step=Job.Step.PARTS if spec.split else Job.Step.ONE,
                parts_total=len(parts),
                message=f"waiting for a worker ({len(parts)} parts)" if spec.split else "waiting for a worker")
            if spec.split:
                first = conf.get("PARTS_IN_FLIGHT") or len(parts)
                JobPart.objects.bulk_create(JobPart(job=job, index=k, start=start, stop=stop, sent=k < first)
                                            for k, (start, stop) in enumerate(parts))
                publish_parts(job, range(min(first, len(parts))))
            else:
                publish(job)
    except IntegrityError:
        # The same request was queued by someone else between our look and our write: share theirs.
        same = find_same(kind, parameters, subject, content_hash)
        if same is None:
            raise
        return same, False
    return job, True


def check_caps(kind, cost=0, user=None, address=""):
    """TooManyJobs (a 429) when the requester (a signed-in ``user``, else an anonymous ``address``) already has as
    many live jobs as one may, or one more costing ``cost`` would pass their budget, or the requests from
    ``address`` together would (jobs.limits). Nothing is capped for neither (the system's own jobs). Call it
    before costly preparations (storing an upload)."""
    user = user if user is not None and user.is_authenticated else None
    address = (address or "")[:64]
    live = Job.objects.filter(status__in=Job.LIVE)
    own = live.filter(requested_by=user) if user is not None else None  # the jobs a refusal may name
    if user is not None:
        limits.check_caps(kind, cost, own, own=own)
    elif address:  # an anonymous requester's are the address's: whose they are is not known, so none is named
        limits.check_caps(kind, cost, live.filter(requested_by=None, requested_from=address))
    if address:
        limits.check_caps(kind, cost, live.filter(requested_from=address), address=True, own=own)


def cancel(job):
    """Stop a queued or running job: True, or False when it had already finished.

    Its row says cancelled at once, its parts are dropped, and its tasks are revoked: a worker throws a queued
    message away unread, and the worker running it is stopped by the job's heartbeat (jobs.runner.Heartbeat),
    which finds the job no longer its own and interrupts the work. Either way the worker is free for the next job.
    """
    parts = list(JobPart.objects.filter(job_id=job.pk).values_list("index", "status"))
    done = Job.objects.filter(pk=job.pk, status__in=Job.LIVE).update(
        status=Job.Status.CANCELLED, finished=timezone.now(), heartbeat=None, message="cancelled")
    if done:
        JobPart.objects.filter(job_id=job.pk).delete()
        job.refresh_from_db(fields=["token", "step"])
        queued = [job.task_id(index) for index, status in parts if status == JobPart.Status.QUEUED]
        revoke(queued if job.step == Job.Step.PARTS else [job.task_id()])
    return bool(done)


def revoke(task_ids):
    """Tell every worker to drop these tasks when their messages arrive (a broadcast; nothing waits for it)."""
    if not task_ids or app.conf.task_always_eager:
        return
    try:
        app.control.revoke(task_ids, terminate=False)
    except Exception as exc:  # noqa: BLE001 - the row is cancelled already; a worker that gets it drops it
        logger.warning("could not revoke %s tasks (%s): workers will drop them on taking", len(task_ids), exc)


def wait(job, seconds, poll=0.005):
    """The job as it is once finished, or after ``seconds``: a long poll, so clients need not spin.

    Short jobs (an LOS answer takes milliseconds) are looked at often; longer ones less and less. A job deleted
    while it is waited on (its map deleted meanwhile) ends the wait: the job is given back as last read, and the
    caller answers as for a job not done, never with a 500.
    """
    deadline = time.monotonic() + min(float(seconds), conf.get("WAIT_MAX"))
    while not job.is_finished and time.monotonic() < deadline:
        time.sleep(poll)
        poll = min(poll * 1.2, 0.2)
        try:
            job.refresh_from_db()
        except type(job).DoesNotExist:
            return job
    return job


# -- the broker ------------------------------------------------------------------------------------------

def message(job, part=None):
    """The Celery signature of a job's message (of one of its parts): its kind's task with the job's id (and the
    part's index), its fixed task id, and its ticket (jobs.tickets), which a worker checks against the row."""
    spec = kinds.get(job.kind)
    if part is None:
        return app.signature(spec.task, args=[job.pk], task_id=job.task_id(), headers=tickets.of(job).headers())
    return app.signature(spec.part_task, args=[job.pk, part], task_id=job.task_id(part),
                         headers=tickets.of(job, part).headers())


def publish(job):
    """Queue the task that runs a job (for a job in parts: the one that assembles them)."""
    send([message(job)], job.queue)


def publish_parts(job, indices):
    """Queue a group of part tasks: they run in parallel on whatever workers there are (a few at a time:
    runner.send_next queues the rest as parts finish)."""
    send([message(job, index) for index in indices], job.queue)


def send(signatures, queue=""):
    if not signatures:
        return
    if app.conf.task_always_eager:
        # No broker: run after the commit, outside the caller's transaction, like a worker would.
        app.loader.import_default_modules()
        transaction.on_commit(lambda: [s.apply() for s in signatures])
        return
    options = {
        # The limits travel in the message: stated here, from this process's settings, not left to defaults.
        "soft_time_limit": settings.CELERY_TASK_SOFT_TIME_LIMIT,
        "time_limit": settings.CELERY_TASK_TIME_LIMIT,
        "retry": True,
        "retry_policy": {"max_retries": conf.get("PUBLISH_RETRIES"), "interval_start": 0, "interval_step": 0.2,
                         "interval_max": 0.5},
    }
    if queue:
        options["queue"] = queue
    try:
        if len(signatures) == 1:
            signatures[0].apply_async(**options)
        else:
            group(signatures).apply_async(**options)
    except (KombuError, OSError) as exc:
        raise BrokerUnavailable(f"the job queue cannot be reached ({broker_name()}: {exc}); nothing was queued, "
                                "try again later") from exc


def broker_name():
    """The broker's address without its password, for messages."""
    try:
        return app.connection_for_write().as_uri()
    except Exception:  # noqa: BLE001 - a message must not fail for want of a name
        return "the broker"
