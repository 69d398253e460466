"""The test suite's settings: hexside.settings, with a key of its own (DEBUG stays off, as in production)."""
import os
import tempfile

os.environ.setdefault("SECRET_KEY", "hexside-tests-only-key")
# Throttle counts of this run only (the worker processes tests start inherit the environment too).
os.environ.setdefault("HEXSIDE_CACHE_URL", "file://" + tempfile.mkdtemp(prefix="hexside-test-cache-"))

from hexside.settings import *  # noqa: E402,F403
