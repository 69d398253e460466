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
