"""Which real services a test may use. A missing one is a skip, or a failure under HEXSIDE_REQUIRE_SERVICES=1."""
import os
import shutil
import socket

import pytest

REQUIRED = os.environ.get("HEXSIDE_REQUIRE_SERVICES") == "1"
CHROMIUM = os.environ.get("HEXSIDE_CHROMIUM", "/usr/bin/chromium")
REDIS_URL = os.environ.get("HEXSIDE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def _port_open(host, port):
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def need(name, present, how):
    """Skip (or fail under HEXSIDE_REQUIRE_SERVICES=1) when a service is missing."""
    if present:
        return
    message = f"{name} is not available: {how}"
    if REQUIRED:
        pytest.fail(message + " (HEXSIDE_REQUIRE_SERVICES=1)")
    pytest.skip(message)


def need_redis():
    need("Redis", _port_open("127.0.0.1", 6379), "nothing listens on 127.0.0.1:6379")


def need_postgres():
    need("PostgreSQL", _port_open("127.0.0.1", 5432), "nothing listens on 127.0.0.1:5432")


def need_chromium():
    present = os.path.exists(CHROMIUM) or shutil.which("chromium") is not None
    need("Chromium", present, f"{CHROMIUM} is missing (apt-get install chromium)")


class Shared:
    """A costly service (the browser, a Celery worker) that one run of tests shares: started by the first test that
    asks for it, stopped once the run of tests that may use it is over (tests/conftest.py sorts those tests
    together and stops it when the next test is not one of them), so that it never outlives them: Playwright's
    event loop would break the test client's async views, and an idle worker would keep polling the database."""

    running = []

    def __init__(self, start, stop):
        self._start, self._stop, self.value = start, stop, None

    def get(self):
        if self.value is None:
            self.value = self._start()
            Shared.running.append(self)
        return self.value

    def stop(self):
        value, self.value = self.value, None
        if value is not None:
            Shared.running.remove(self)
            self._stop(value)

    @classmethod
    def stop_all(cls):
        for shared in list(cls.running):
            shared.stop()
