"""A plain page's time while the studio is under a visitor's abuse (issue 17, point 4): 24 anonymous long polls
on a job that never finishes (GET /api/jobs/<id>/?wait=30, no worker running) and 20 clients sending their
headers or body a byte a second. Before: gunicorn's gthread worker (2 x 8 threads, hexside.wsgi), where the page
took 36 s or never answered; after: the web server as `make run` starts it (hexside.run). Aim: under 1 s.
Each page load is under a load of its own (24 new polls, 20 new slow clients).

Run: .venv/bin/python bench/bench_web_tier.py
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import webload  # noqa: E402

AIM_SECONDS = 1.0
LOOKS = 3  # page loads, each under a load of its own
TIMEOUT = 40  # seconds a page load may take before it counts as not answered

SETUP = """
import uuid
from jobs.models import Job
from maps.models import Map
map = Map.objects.filter(published=True).order_by("pk").first()
job = Job.objects.create(kind="los", parameters={"from": "A1", "to": "B2"}, request_key=uuid.uuid4().hex * 2,
                         subject_type="map", subject_id=map.pk)
print(job.pk)
"""


def before_command(port):
    """main's web server before this point."""
    return [sys.executable, "-m", "gunicorn", "hexside.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2",
            "--threads", "8", "--timeout", "120", "--log-level", "warning"]


def fresh_job(env):
    """A job no worker will take, on a published map (anyone may wait for it)."""
    return subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True).stdout.split()[-1]


def under_load(name, env, folder, command=None):
    port = webload.free_port()
    server = webload.start_web_server(port, env, Path(folder) / f"{name}.log",
                                      command=command(port) if command else None)
    page = f"http://127.0.0.1:{port}/accounts/login/"
    try:
        webload.wait_until_it_answers(server, page)
        idle = webload.timed_get(page)[0]
        threads_idle = webload.threads_of(server.pid)
        times = []
        for _look in range(LOOKS):  # each under a fresh load: the waits of the one before have ended
            job = fresh_job(env)
            polls = webload.long_polls(port, f"/api/jobs/{job}/", 24)
            slow = webload.SlowClients(port, 20)
            try:
                times.append(webload.timed_get(page, timeout=TIMEOUT))
                threads = webload.threads_of(server.pid)
            finally:
                slow.stop()
                webload.close(polls)
    finally:
        webload.stop_web_server(server)
    seconds = [t for t, _ in times]
    failed = sum(1 for _, status in times if status != 200)
    return {"idle": idle, "median": statistics.median(seconds), "worst": max(seconds), "failed": failed,
            "threads_idle": threads_idle, "threads": threads}


def main():
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, **webload.server_env(f"sqlite:///{folder}/bench.sqlite3", folder)}
        for step in (["migrate", "--noinput", "-v", "0"], ["load_samples", "-v", "0"]):
            subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, env=env, check=True,
                           stdout=subprocess.DEVNULL)
        started = time.monotonic()
        before = under_load("before", env, folder, command=before_command)
        after = under_load("after", env, folder)
    for name, figures in (("before (gthread 2 x 8)", before), ("after (make run)", after)):
        print(f"{name:24}: a page takes {figures['median']:6.3f} s (worst {figures['worst']:6.3f} s, "
              f"{figures['failed']}/{LOOKS} not answered in {TIMEOUT} s; idle {figures['idle']:.3f} s) under 24 "
              f"long polls + 20 slow clients; server threads {figures['threads_idle']} idle, "
              f"{figures['threads']} under load")
    print(f"after / before (median): {after['median'] / before['median']:.4f}; "
          f"after / aim of {AIM_SECONDS:g} s: {after['worst'] / AIM_SECONDS:.3f} (worst)  "
          f"[{time.monotonic() - started:.0f} s]")


if __name__ == "__main__":
    main()
