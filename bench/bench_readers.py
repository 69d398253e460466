"""A cheap GET while six clients read the largest published map (issue 27 point 3).

Six anonymous clients read GET /api/maps/<id>/ of a published 500 x 500 map (every hex listed) over and over, as
browsers do (gzip taken, no copy kept: each read is a whole answer); meanwhile a seventh times GET
/api/rulesets/ost/ every 50 ms. The web server is the one `make run` starts. Prints the cheap GET's median and
p95 beside the aim (100 ms p95) and beside the figures before the change (16 ms idle; a median of 12 s, 23 s at
worst, under the six readers), the readers' answers per second and the web server's peak memory.

    .venv/bin/python bench/bench_readers.py [--seconds 30] [--size 500] [--before REV]

--before REV measures a checkout of that revision too (a temporary git worktree), in the same run.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import webload  # noqa: E402

AIM_P95 = 0.100
BEFORE = {"idle": 0.016, "median": 12.0, "worst": 23.0}  # issue 27's figures on main before the change
READERS = 6

SETUP = """
import random
from django.contrib.auth import get_user_model
from engine import mapfile
from engine.hexgrid import Grid
from maps.models import Map
size, rng = {size}, random.Random(7)
grid = Grid("flat", size, size, "even", "letter-number")
data = {{"format": "hexside-map", "version": 1, "name": "Readers bench", "ruleset": "ost", "grid": grid.as_dict(),
        "hexes": [{{"hex": grid.label(c, r), "terrain": [rng.choice(["woods", "brush", "orchard", "wheatfield"])],
                   "level": rng.randint(-1, 3)}} for c, r in grid.hexes()]}}
owner = get_user_model().objects.create_user("bench-readers")
print(Map.objects.create_from_doc(owner, mapfile.parse(data), published=True).pk)
"""


def peak_memory_mb(pid):
    """The largest VmHWM among the server process and its children (gunicorn's workers)."""
    peaks = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
        if int(fields.get("PPid", "0").strip()) in (pid,) or int(fields.get("Pid", "0").strip()) == pid:
            peaks.append(int(fields.get("VmHWM", "0 kB").split()[0]) / 1024)
    return max(peaks, default=0.0)


def reader(url, stop, counts):
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    while not stop.is_set():
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                response.read()
            counts.append(1)
        except OSError:
            counts.append(0)


def measure(root, seconds, size):
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, **webload.server_env(f"sqlite:///{folder}/bench.sqlite3", folder)}
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=root, env=env,
                       check=True)
        map_id = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP.format(size=size)], cwd=root,
                                env=env, check=True, capture_output=True, text=True).stdout.split()[-1]
        port = webload.free_port()
        log = open(Path(folder) / "server.log", "ab")  # noqa: SIM115 - open as long as the server runs
        server = subprocess.Popen(webload.make_run_command(port), cwd=root, env=env, stdout=log,
                                  stderr=subprocess.STDOUT, start_new_session=True)
        server.log = log
        cheap = f"http://127.0.0.1:{port}/api/rulesets/ost/"
        try:
            webload.wait_until_it_answers(server, cheap)
            idle = statistics.median(webload.timed_get(cheap)[0] for _ in range(10))
            stop, counts = threading.Event(), []
            readers = [threading.Thread(target=reader, args=(f"http://127.0.0.1:{port}/api/maps/{map_id}/", stop,
                                                             counts)) for _ in range(READERS)]
            for thread in readers:
                thread.start()
            times, started = [], time.monotonic()
            while time.monotonic() - started < seconds:
                times.append(webload.timed_get(cheap, timeout=60)[0])
                time.sleep(0.05)
            stop.set()
            for thread in readers:
                thread.join()
            memory = peak_memory_mb(server.pid)
        finally:
            webload.stop_web_server(server)
    times.sort()
    return {"idle": idle, "median": statistics.median(times), "p95": times[int(0.95 * (len(times) - 1))],
            "worst": times[-1], "reads": sum(counts) / seconds, "failed": counts.count(0), "memory": memory,
            "probes": len(times)}


def report(name, f):
    print(f"{name:10}: cheap GET idle {f['idle'] * 1000:7.1f} ms; under {READERS} readers median "
          f"{f['median'] * 1000:8.1f} ms, p95 {f['p95'] * 1000:8.1f} ms, worst {f['worst'] * 1000:8.1f} ms "
          f"({f['probes']} probes); map answers {f['reads']:.2f}/s ({f['failed']} failed); web server peak "
          f"{f['memory']:.0f} MB")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--size", type=int, default=500)
    parser.add_argument("--before", help="a revision to measure too, in a temporary worktree")
    args = parser.parse_args()
    before = None
    if args.before:
        with tempfile.TemporaryDirectory() as tree:
            subprocess.run(["git", "worktree", "add", "--detach", "-q", tree, args.before], cwd=ROOT, check=True)
            try:
                before = measure(Path(tree), args.seconds, args.size)
            finally:
                subprocess.run(["git", "worktree", "remove", "--force", tree], cwd=ROOT, check=False)
        report("before", before)
    after = measure(ROOT, args.seconds, args.size)
    report("after", after)
    base = before or BEFORE
    print(f"cheap GET p95 / aim of {AIM_P95 * 1000:.0f} ms: {after['p95'] / AIM_P95:.3f}; median after / before: "
          f"{after['median'] / base['median']:.4f} (before: {'measured' if before else 'issue 27, 12 s'})")


if __name__ == "__main__":
    main()
