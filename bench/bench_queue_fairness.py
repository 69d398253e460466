"""The heavy queue under one user's load (issue 17, point 5): how long another user's small job waits behind three
whole-map analyses that their requester cancelled.

User A asks for three analyses of a 100 x 100 map (16 parts each) on one worker (one pool process, one numba
thread), waits until the first is running, and asks for a fourth (refused: 429, Retry-After). User B asks for a
print of a small map (a job of milliseconds) and A cancels the three at once. B's wait is from B's request to B's
result. Before: the running part ran to its end (parts of a big map take minutes) and the issue measured 166 s.
After: the cancel revokes the queued parts and the running part is stopped by its heartbeat (JOBS_HEARTBEAT_SECONDS,
5 s by default), so B waits about a heartbeat.

Then the same without a cancel, on a smaller map (--busy-size, 40 x 30 by default): B's wait behind A's three
analyses still running, with their parts all queued at once (JOBS_PARTS_IN_FLIGHT=0, as before) and four at a
time (the default: each part done queues the next, at the back of the queue, behind B).

A fresh folder with its own SQLite database (or BENCH_DATABASE_URL), the filesystem broker and a real worker,
with the production defaults for heartbeats and caps.
Run: .venv/bin/python bench/bench_queue_fairness.py [--size 100] [--busy-size 40] [--skip-busy]
"""

import argparse
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BEFORE_SECONDS = 166.0  # the figure: B's wait behind A's three cancelled analyses


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100, help="columns and rows of A's map (default 100)")
    parser.add_argument("--busy-size", type=int, default=40, help="columns of A's map without a cancel (rows: 3/4)")
    parser.add_argument("--skip-busy", action="store_true")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="hexside-bench-fairness-"))
    queue = f"hexside-bench-{uuid.uuid4().hex[:10]}"
    env = {
        "HEXSIDE_VAR_DIR": str(folder),
        "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{folder / 'bench.sqlite3'}",
        "CELERY_BROKER_URL": "filesystem://",
        "CELERY_BROKER_DIR": str(folder / "broker"),
        "HEXSIDE_JOBS_QUEUE": queue,
        "HEXSIDE_JOBS_INTERACTIVE_QUEUE": "",
        "NUMBA_NUM_THREADS": "1",
        "DEBUG": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or f"bench-only-{uuid.uuid4().hex}{uuid.uuid4().hex}",
    }
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexside.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    from tests.jobs.workers import Worker

    worker = Worker(f"fair-{uuid.uuid4().hex[:4]}", env, folder, concurrency=1, queue=queue, include=())
    try:
        worker.start()
        run(args.size)
        if not args.skip_busy:
            busy(args.busy_size)
    finally:
        worker.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


def client_of(name):
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.get_or_create(username=name)[0]
    client = Client()
    client.force_login(user)
    return user, client


def post(client, path, data):
    return client.post(path, data, content_type="application/json")


def status(client, url):
    return client.get(url).json()["status"]


def until(test, seconds, what):
    deadline = time.monotonic() + seconds
    while not test():
        if time.monotonic() > deadline:
            raise SystemExit(f"{what}: not after {seconds} s")
        time.sleep(0.05)


def run(size):
    from engine.generate import random_map
    from jobs.models import JobPart
    from maps.models import Map

    a, client_a = client_of("a")
    b, client_b = client_of("b")
    big = Map.objects.create_from_doc(a, random_map("ost", size, size, seed=1, name="A's big map"))
    small = Map.objects.create_from_doc(b, random_map("ost", 12, 10, seed=2, name="B's small map"))
    n = size * size
    print(f"Queue fairness: {os.cpu_count()} CPUs, 1 worker; A's map {size} x {size} ({n * (n - 1) // 2:,} pairs)")

    urls = []
    for height in range(3):
        response = post(client_a, f"/api/maps/{big.pk}/analysis/", {"height": height})
        assert response.status_code == 202, response.content
        urls.append(response.json()["url"])
    until(lambda: JobPart.objects.filter(job_id__in=[u.split("/")[-2] for u in urls], status="running").exists(),
          120, "A's first analysis running")
    time.sleep(1)  # the part is well under way
    fourth = post(client_a, f"/api/maps/{big.pk}/analysis/", {"height": 3})
    print(f"A's 4th analysis: {fourth.status_code}, Retry-After {fourth.get('Retry-After')} s: "
          f"{fourth.json().get('detail', '')[:110]}...")

    started = time.perf_counter()
    response = post(client_b, f"/api/maps/{small.pk}/print/", {"dpi": 10})
    assert response.status_code == 202, response.content
    for url in urls:
        client_a.post(f"{url}cancel/")
    url = response.json()["url"]
    until(lambda: status(client_b, url) in ("succeeded", "failed", "cancelled"), 900, "B's print")
    waited = time.perf_counter() - started
    body = client_b.get(url).json()
    print(f"B's print ({body['status']}) waited {waited:.1f} s behind A's cancelled analyses "
          f"(before: {BEFORE_SECONDS:.0f} s, the issue's figure): {waited / BEFORE_SECONDS:.3f} of it, "
          f"{BEFORE_SECONDS / waited:.0f}x shorter")
    print(f"A's analyses: {', '.join(status(client_a, u) for u in urls)}; parts left: "
          f"{JobPart.objects.count()}")



def busy(columns):
    """B's wait behind three analyses that keep running, parts all queued at once, then a few at a time."""
    from engine.generate import random_map
    from maps.models import Map

    a, client_a = client_of("a")
    b, client_b = client_of("b")
    rows = columns * 3 // 4
    print(f"\nWithout a cancel: A's map {columns} x {rows}, three analyses of 16 parts each, then B's print")
    waits = {}
    for in_flight, label in ((0, "parts all queued at once (before)"), (4, "4 parts in flight (after)")):
        os.environ["HEXSIDE_JOBS_PARTS_IN_FLIGHT"] = str(in_flight)
        big = Map.objects.create_from_doc(a, random_map("ost", columns, rows, seed=3, name=f"A's {in_flight}"))
        small = Map.objects.create_from_doc(b, random_map("ost", 12, 10, seed=4, name=f"B's {in_flight}"))
        urls = [post(client_a, f"/api/maps/{big.pk}/analysis/", {"height": h}).json()["url"] for h in range(3)]
        until(lambda: status(client_a, urls[0]) == "running", 120, "A's first analysis running")
        started = time.perf_counter()
        url = post(client_b, f"/api/maps/{small.pk}/print/", {"dpi": 10}).json()["url"]
        until(lambda: status(client_b, url) in ("succeeded", "failed", "cancelled"), 1800, "B's print")
        waits[in_flight] = time.perf_counter() - started
        print(f"{label + ':':<36} B waited {waits[in_flight]:6.1f} s "
              f"(A's analyses: {', '.join(status(client_a, u) for u in urls)})")
        for u in urls:
            client_a.post(f"{u}cancel/")
    print(f"ratio after / before: {waits[4] / waits[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
