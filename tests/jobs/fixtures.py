"""What every test with jobs shares (tests/conftest.py loads this plugin): a broker folder of the test process's
own, short heartbeats, real worker processes, and the one worker that all tests needing no special worker share.

Worker processes must see the rows a test writes, so the tests that use them run with ``transactional_db`` and
the test database must be one another process can open: on SQLite a file (hexside/settings.py names one), on
PostgreSQL the test_<name> database pytest-django
creates. Workers get the test database's address as DATABASE_URL.
"""

import shutil
import uuid
from pathlib import Path

import pytest
from django.db import connection

from hexside.broker import TRANSPORT as BROKER_TRANSPORT
from hexside.broker import filesystem_options
from hexside.celery import app
from tests.jobs import worker_tasks  # noqa: F401 - the test-only kinds, known here as in the workers
from tests.jobs.workers import Worker, database_url
from tests.services import Shared

# Short enough that lost workers are noticed within seconds, long enough to never fire on a healthy one.
JOBS_SETTINGS = {
    "HEARTBEAT_SECONDS": 0.3,
    "HEARTBEAT_TIMEOUT": 2.5,
    "SWEEP_SECONDS": 0.5,
    "MAX_ATTEMPTS": 3,
    "ANALYSIS_PARTS": 4,
}


@pytest.fixture(scope="session")
def jobs_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("jobs")


@pytest.fixture(scope="session")
def queue_name():
    """A queue of this test run's own, so that nothing left over in a shared Redis reaches its workers."""
    return f"hexside-test-{uuid.uuid4().hex[:12]}"


def use_broker(url, folder=None):
    """Point this process's Celery app at a broker (and, for the filesystem transport, a folder)."""
    app.conf.broker_url = url
    if url.startswith("filesystem://"):
        app.conf.broker_transport = BROKER_TRANSPORT
        app.conf.broker_transport_options = filesystem_options(folder)
    else:
        app.conf.broker_transport = None
        app.conf.broker_transport_options = {}
    app._after_fork()  # drop pooled connections to the previous broker


@pytest.fixture
def jobs_isolated(jobs_dir, queue_name, settings):
    """A test's jobs: its own broker folder, media folder, short heartbeats and the test-only kinds (every test
    under tests/jobs, tests/jobs/conftest.py). Set through pytest-django's ``settings``, as the tests' own changes
    are, so that all are undone in the reverse order whatever order the fixtures came in."""
    broker = jobs_dir / "broker"
    for message in broker_messages(broker):
        message.unlink(missing_ok=True)  # what an earlier test left queued is not this test's
    # Nor what it left in storage (the shared worker's too: its media folder is this one): a map's findings are
    # kept by content, and another test's map of the same content would find them already there.
    shutil.rmtree(jobs_dir / "media", ignore_errors=True)
    saved = (app.conf.broker_url, app.conf.broker_transport, app.conf.broker_transport_options)
    use_broker("filesystem://", broker)
    settings.MEDIA_ROOT = str(jobs_dir / "media")
    settings.JOBS_QUEUE = queue_name
    settings.JOBS_INTERACTIVE_QUEUE = interactive(queue_name)
    for key, value in JOBS_SETTINGS.items():
        setattr(settings, f"JOBS_{key}", value)
    yield broker
    app.conf.broker_url, app.conf.broker_transport, app.conf.broker_transport_options = saved
    app._after_fork()


def broker_messages(folder):
    """The job messages waiting in a filesystem broker folder (not the workers' control messages: a cancel's
    revoke is broadcast to them)."""
    return sorted(path for path in (Path(folder) / "in").glob("*.msg") if ".pidbox." not in path.name)


def interactive(queue_name):
    """The interactive queue (LOS, viewsheds) beside a run's queue."""
    return f"{queue_name}-interactive"


def worker_env(jobs_dir, queue_name, broker_url="filesystem://", **extra):
    env = {
        "HEXSIDE_JOBS_INTERACTIVE_QUEUE": interactive(queue_name),
        "DATABASE_URL": database_url(connection.settings_dict),
        "CELERY_BROKER_URL": broker_url,
        "CELERY_BROKER_DIR": str(jobs_dir / "broker"),
        "HEXSIDE_VAR_DIR": str(jobs_dir),
        "HEXSIDE_JOBS_QUEUE": queue_name,
        "NUMBA_NUM_THREADS": "1",
    }
    env.update({f"HEXSIDE_JOBS_{k}": str(v) for k, v in JOBS_SETTINGS.items()})
    env.update({k: str(v) for k, v in extra.items()})
    return env


def launch(name, jobs_dir, queue_name, broker_url="filesystem://", concurrency=1, env=None, queue=None):
    """A ready Worker on a run's broker; ``queue``: the queues it takes (comma-separated), default both of the run's."""
    queue = queue or f"{queue_name},{interactive(queue_name)}"
    worker = Worker(f"{name}-{uuid.uuid4().hex[:6]}", worker_env(jobs_dir, queue_name, broker_url, **(env or {})),
                    jobs_dir, concurrency=concurrency, queue=queue)
    return worker.start()


@pytest.fixture(scope="module")
def start_worker(django_db_setup, jobs_dir, queue_name):
    """start_worker(name, **options) -> a ready Worker on this run's broker, for a test that needs a worker of its
    own (its settings, its queue, several of them, one to kill); all stopped at the module's end."""
    started = []

    def start(name, broker_url="filesystem://", concurrency=1, env=None, queue=None):
        started.append(launch(name, jobs_dir, queue_name, broker_url, concurrency, env, queue))
        return started[-1]

    yield start
    for worker in started:
        worker.terminate()  # all at once, then wait for each
    for worker in started:
        worker.stop()


def shared_queue(queue_name):
    """The queue of the shared worker: apart from the run's, which the tests' own workers take."""
    return f"{queue_name}-shared"


@pytest.fixture(scope="session")
def one_worker(django_db_setup, jobs_dir, queue_name):
    """The one worker of this test process that every test asking for ``worker`` shares (tests.services.Shared):
    the filesystem broker, one pool process, analysis parts of at least 0.4 s each, on queues of its own."""
    queue = shared_queue(queue_name)
    shared = Shared(lambda: launch("w", jobs_dir, queue, env={"HEXSIDE_TEST_PART_DELAY": 0.4}),
                    lambda worker: worker.stop())
    yield shared
    shared.stop()


@pytest.fixture
def worker(one_worker, jobs_isolated, queue_name, settings):
    """The shared worker, with this test's jobs sent to its queues. A test that changes the worker's settings, kills
    it or needs it alone starts its own (start_worker)."""
    settings.JOBS_QUEUE = shared_queue(queue_name)
    settings.JOBS_INTERACTIVE_QUEUE = interactive(shared_queue(queue_name))
    return one_worker.get()
