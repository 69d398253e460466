"""The job layer's knobs: a Django setting JOBS_<NAME> wins, then the environment variable HEXSIDE_JOBS_<NAME>.

Read at each use, so that tests and a worker started with other environment variables see their own values.
"""

import os

from django.conf import settings

DEFAULTS = {
    # A running job's worker writes a heartbeat this often.
    "HEARTBEAT_SECONDS": 5.0,
    # A job (or part) taken by a worker whose heartbeat is older than this is requeued, or failed.
    "HEARTBEAT_TIMEOUT": 60.0,
    # How often each worker looks for such jobs.
    "SWEEP_SECONDS": 15.0,
    # How many times a job (or one part of it) is started before it is failed.
    "MAX_ATTEMPTS": 3,
    # The Celery queue the jobs go to; empty: Celery's default queue.
    "QUEUE": "",
    # A whole-map analysis is split into this many parts of about equal work.
    "ANALYSIS_PARTS": 16,
    # Publishing to the broker: how many retries before the API answers 503.
    "PUBLISH_RETRIES": 2,
    # The longest a client may ask GET /api/jobs/<id>/?wait= to wait, in seconds.
    "WAIT_MAX": 30.0,
}


def get(name):
    value = getattr(settings, f"JOBS_{name}", None)
    if value is None:
        value = os.environ.get(f"HEXSIDE_JOBS_{name}")
    if value is None or value == "" and name != "QUEUE":
        return DEFAULTS[name]
    return type(DEFAULTS[name])(value)
