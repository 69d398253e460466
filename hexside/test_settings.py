"""The test suite's settings: hexside.settings, with a key of its own (DEBUG stays off, as in production)."""
import atexit
import os
import shutil
import tempfile

os.environ.setdefault("SECRET_KEY", "hexside-tests-only-key")
# Throttle counts of this run only, in a folder removed at exit (worker processes the tests start inherit it).
if "HEXSIDE_CACHE_URL" not in os.environ:
    _cache_dir = tempfile.mkdtemp(prefix="hexside-test-cache-")
    atexit.register(shutil.rmtree, _cache_dir, True)
    os.environ["HEXSIDE_CACHE_URL"] = "file://" + _cache_dir

from hexside.settings import *  # noqa: E402,F403
