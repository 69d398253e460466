"""The job layer's knobs: a Django setting JOBS_<NAME> wins, then the environment variable HEXSIDE_JOBS_<NAME>.

Read at each use, so that tests and a worker started with other environment variables see their own values.
"""

import os

from django.conf import settings

from jobs import kinds

DEFAULTS = {
    # A running job's worker writes a heartbeat this often.
    "HEARTBEAT_SECONDS": 5.0,
    # A running job's worker looks this often whether the job is still its own (not cancelled), and stops if not.
    "CANCEL_CHECK_SECONDS": 1.0,
    # A job (or part) taken by a worker whose heartbeat is older than this is requeued, or failed.
    "HEARTBEAT_TIMEOUT": 60.0,
    # How often each worker looks for such jobs.
    "SWEEP_SECONDS": 15.0,
    # A finished job's result file (a print, a card, an export) is kept this many days, then the job is deleted
    # with its file by the sweep (0: kept for ever); while kept, it counts towards its requester's storage.
    "FILE_DAYS": 7.0,
    # How many times a job (or one part of it) is started before it is failed.
    "MAX_ATTEMPTS": 3,
    # The Celery queue the jobs go to; empty: Celery's default queue ("celery").
    "QUEUE": "",
    # Interactive jobs (a person waits for the answer) go to a queue of their own, with workers of their own, so
    # they never wait behind heavy ones (analyses, images, exports); empty: the same queue as the others.
    "INTERACTIVE_QUEUE": "interactive",
    # The kinds that are interactive, comma-separated; empty: those registered as interactive (jobs.kinds).
    "INTERACTIVE_KINDS": "",
    # A whole-map analysis is split into this many parts of about equal work.
    "ANALYSIS_PARTS": 16,
    # A job in parts has this many parts queued at a time; each one done queues the next. Another user's job then
    # waits behind a few parts of a big job, not all of them. 0: all at once.
    "PARTS_IN_FLIGHT": 4,
    # Publishing to the broker: how many retries before the API answers 503.
    "PUBLISH_RETRIES": 2,
    # The longest a client may ask GET /api/jobs/<id>/?wait= to wait, in seconds.
    "WAIT_MAX": 30.0,
    # Long polls waiting at once in one web server process, and from one client (a user, or an address signed
    # out); past either, the answer comes at once with the job as it is (jobs.waiting).
    "WAITS_MAX": 500,
    "WAITS_PER_CLIENT": 8,
    # Live jobs (queued or running) one user may have at once (one address, for anonymous visitors), by class:
    # heavy kinds (analyses, images, exports, batches) and interactive ones (LOS, viewsheds); past it, 429.
    "LIVE_HEAVY": 3,
    "LIVE_INTERACTIVE": 20,
    # The estimated cost (jobs.limits) one user's live jobs may add up to; a job alone may always run.
    "LIVE_COST": 400_000_000,
    # The same for every job started from one address, whoever signed in (many accounts, one caller).
    "LIVE_HEAVY_ADDRESS": 6,
    "LIVE_INTERACTIVE_ADDRESS": 40,
    "LIVE_COST_ADDRESS": 800_000_000,
    # The Retry-After of a 429 for too many live jobs, in seconds.
    "LIVE_RETRY_AFTER": 10.0,
}


def get(name):
    value = getattr(settings, f"JOBS_{name}", None)
    if value is None:
        value = os.environ.get(f"HEXSIDE_JOBS_{name}")
    if value is None or value == "" and name not in ("QUEUE", "INTERACTIVE_QUEUE", "INTERACTIVE_KINDS"):
        return DEFAULTS[name]
    kind = type(DEFAULTS[name])
    if kind is int and isinstance(value, str):
        return int(float(value))  # "4e8" in the environment
    return kind(value)


def is_interactive(kind):
    """Does a person wait for this kind's answer (INTERACTIVE_KINDS, else the kind's registration)?"""
    names = get("INTERACTIVE_KINDS")
    if names:
        return kind in {k.strip() for k in names.split(",")}
    return kind in kinds.KINDS and kinds.KINDS[kind].interactive


def queue_for(kind):
    """The Celery queue a kind of job goes to: the interactive queue for interactive kinds, else QUEUE."""
    if is_interactive(kind) and get("INTERACTIVE_QUEUE"):
        return get("INTERACTIVE_QUEUE")
    return get("QUEUE")


def queues():
    """Every queue jobs go to, for a worker that takes them all: "celery,interactive" by default."""
    names = [get("QUEUE") or "celery", get("INTERACTIVE_QUEUE")]
    return ",".join(dict.fromkeys(n for n in names if n))
