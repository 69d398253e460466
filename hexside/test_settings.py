"""The test suite's settings: hexside.settings, with a key of its own (DEBUG stays off, as in production)."""
import atexit
import os
import shutil
import tempfile

os.environ.setdefault("SECRET_KEY", "hexside-tests-only-key")
# Throttle counts of this test process only, in a folder removed at exit (worker processes the tests start inherit
# it). Under pytest-xdist each test process makes its own: a folder inherited from the process that started it
# (marked by HEXSIDE_TEST_CACHE_OF) is that process's, and sharing it would mix two processes' counts and clears.
if "HEXSIDE_CACHE_URL" not in os.environ or os.environ.get("HEXSIDE_TEST_CACHE_OF") not in (None, str(os.getpid())):
    _cache_dir = tempfile.mkdtemp(prefix="hexside-test-cache-")
    atexit.register(shutil.rmtree, _cache_dir, True)
    os.environ["HEXSIDE_CACHE_URL"] = "file://" + _cache_dir
    os.environ["HEXSIDE_TEST_CACHE_OF"] = str(os.getpid())

from hexside.settings import *  # noqa: E402,F403

# Users are made by the hundred in fixtures; the production hasher (PBKDF2) is slow on purpose and would cost
# about a minute of every run. No test measures how passwords are hashed.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
