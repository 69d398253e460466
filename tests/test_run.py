"""`make run`'s supervisor: one Ctrl-C stops the web server, both workers and every process they started."""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def parent_of(pid):
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return int(stat.rpartition(")")[2].split()[1])


def descendants(pid):
    """Every process below ``pid``, read from /proc."""
    children = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            parent = parent_of(entry.name)
            if parent is not None:
                children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def running(pid):
    """Alive and not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def answers(url):
    try:
        urllib.request.urlopen(url, timeout=2)
    except urllib.error.HTTPError:
        return True  # an error page is an answer
    except OSError:
        return False
    return True


def wait_for(test, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = test()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what} after {seconds} s")


@pytest.mark.worker
def test_one_ctrl_c_stops_every_process_make_run_started(tmp_path):
    port = free_port()
    env = {**os.environ, "HEXSIDE_VAR_DIR": str(tmp_path), "SECRET_KEY": "a key for this test only",
           "CELERY_BROKER_DIR": str(tmp_path / "broker"), "DJANGO_SETTINGS_MODULE": "hexside.settings"}
    env.pop("DATABASE_URL", None)
    log = open(tmp_path / "run.log", "wb")  # noqa: SIM115 - open as long as the process runs
    supervisor = subprocess.Popen(
        [sys.executable, "-m", "hexside.run", "--port", str(port), "--workers", "1", "--interactive-workers", "1",
         "--heavy-queue", "run-test", "--interactive-queue", "run-test-interactive"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for(lambda: answers(f"http://127.0.0.1:{port}/"), 90, "the server does not answer")
        # gunicorn and its 2 processes, each worker's main process and its pool process
        started = wait_for(lambda: (lambda found: found if len(found) >= 7 else None)(descendants(supervisor.pid)),
                           90, "not every process is up")
        os.killpg(supervisor.pid, signal.SIGINT)  # what the terminal sends its foreground group on Ctrl-C
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(running(pid) for pid in started + [supervisor.pid]):
            supervisor.poll()
            time.sleep(0.1)
        left = [pid for pid in started if running(pid)]
        assert left == [], (tmp_path / "run.log").read_text(errors="replace")
        assert supervisor.wait(1) == 0
    finally:
        for pid in descendants(supervisor.pid) + [supervisor.pid]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        supervisor.wait()
        log.close()
