"""Load benchmark of issue 7's acceptance: the app served as `make run` serves it (gunicorn, a heavy and an
interactive worker), users mixing edits, LOS, viewsheds and one analysis each (bench/locustfile.py), headless.

    .venv/bin/python bench/bench_load.py --db postgres     # 20 users, 60 s, PostgreSQL (BENCH_POSTGRES_URL) and Redis
    .venv/bin/python bench/bench_load.py                   #  5 users, 60 s, SQLite and the filesystem broker

Prints requests per second, p50/p95 per endpoint, the error count, and the LOS job p95 (create to succeeded) with
its ratio to the 300 ms aim. Throttle rates are set high so that the server, not the throttles, is measured.
"""

import argparse
import csv
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from argparse import Namespace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import contextlib

from hexside.run import commands as make_run_commands  # noqa: E402

PY = sys.executable
PORT = 8130  # this engineer's ports: 8130-8139
AIM_LOS_P95_MS = 300
POSTGRES_URL = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/hexside_h3")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/3")
MAP_SIZE = (30, 20)


def environment(db, folder):
    run = uuid.uuid4().hex[:8]
    env = {
        "HEXSIDE_VAR_DIR": str(folder),
        "DEBUG": "0",
        "SECRET_KEY": f"bench-{uuid.uuid4().hex}{uuid.uuid4().hex}",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "HEXSIDE_JOBS_QUEUE": f"bench-heavy-{run}",
        "HEXSIDE_JOBS_INTERACTIVE_QUEUE": f"bench-interactive-{run}",
        "HEXSIDE_NUMBA_CACHE_DIR": str(ROOT / "var" / "numba-cache"),
        "NUMBA_NUM_THREADS": "1",
        "DJANGO_SETTINGS_MODULE": "hexside.settings",
    }
    for name in ("JOBS", "JOBS_ADDRESS", "IMPORTS", "IMPORTS_ADDRESS", "TOKEN", "TOKEN_ADDRESS"):
        env[f"HEXSIDE_THROTTLE_{name}"] = "1000000/minute"
    # Every simulated user comes from 127.0.0.1: the caps of live jobs per address would count them as one.
    for name in ("HEAVY", "INTERACTIVE", "COST"):
        env[f"HEXSIDE_JOBS_LIVE_{name}_ADDRESS"] = "1e12"
    if db == "postgres":
        env.update(DATABASE_URL=POSTGRES_URL, CELERY_BROKER_URL=REDIS_URL)
    else:
        env.update(DATABASE_URL=f"sqlite:///{folder / 'bench.sqlite3'}", CELERY_BROKER_URL="filesystem://",
                   CELERY_BROKER_DIR=str(folder / "broker"))
    return env


def prepare(env, users, folder):
    """Migrate, warm the kernels, and give each bench user a password and a map of their own."""
    for command in (["migrate", "--noinput", "-v", "0"], ["warm_kernels", "-v", "0"]):
        subprocess.run([PY, "manage.py", *command], cwd=ROOT, env={**os.environ, **env}, check=True)
    script = f"""
import json
from django.contrib.auth import get_user_model
from engine.generate import random_map
from maps.models import Map
out = []
for k in range({users}):
    user, _ = get_user_model().objects.get_or_create(username=f"bench{{k}}")
    user.set_password("bench-password-{{k}}".format(k=k))
    user.save()
    doc = random_map("ost", {MAP_SIZE[0]}, {MAP_SIZE[1]}, seed=k, name=f"Bench {{k}}")
    map = Map.objects.create_from_doc(user, doc)
    out.append({{"username": user.username, "password": f"bench-password-{{k}}", "map": map.pk,
                 "columns": {MAP_SIZE[0]}, "rows": {MAP_SIZE[1]}}})
print(json.dumps(out))
"""
    out = subprocess.run([PY, "manage.py", "shell", "-c", script], cwd=ROOT, env={**os.environ, **env},
                         check=True, capture_output=True, text=True)
    path = folder / "users.json"
    path.write_text(out.stdout.strip().splitlines()[-1])
    return path


def start(env, folder):
    """gunicorn as `make run` starts it, and a worker for each queue (heavy: 1 process, interactive: 2)."""
    full = {**os.environ, **env}
    logs = folder / "logs"
    logs.mkdir(exist_ok=True)
    commands = {
        # The web server exactly as `make run` builds it (hexside.run: ASGI, a long poll holds no thread).
        "web": make_run_commands(Namespace(host="127.0.0.1", port=str(PORT), workers=1, interactive_workers=2,
                                           heavy_queue="", interactive_queue=""))["web server"],
        "heavy": [PY, "-m", "celery", "-A", "hexside", "worker", "-n", f"heavy-{PORT}@%h",
                  f"--queues={env['HEXSIDE_JOBS_QUEUE']}", "--concurrency=1", "--loglevel=warning"],
        "interactive": [PY, "-m", "celery", "-A", "hexside", "worker", "-n", f"interactive-{PORT}@%h",
                        f"--queues={env['HEXSIDE_JOBS_INTERACTIVE_QUEUE']}", "--concurrency=2",
                        "--loglevel=warning"],
    }
    processes = {name: subprocess.Popen(command, cwd=ROOT, env=full, start_new_session=True,
                                        stdout=open(logs / f"{name}.log", "w"), stderr=subprocess.STDOUT)
                 for name, command in commands.items()}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORT}/api/rulesets/", timeout=2)
            break
        except OSError:
            time.sleep(0.5)
    else:
        stop(processes)
        raise SystemExit(f"the server did not answer; see {logs}")
    time.sleep(3)  # the workers' own start
    return processes


def stop(processes):
    for process in processes.values():
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes.values():
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def report(prefix, seconds):
    rows = list(csv.DictReader(open(f"{prefix}_stats.csv")))
    total = next(r for r in rows if r["Name"] == "Aggregated")
    http = [r for r in rows if r["Type"] not in ("JOB", "") and r["Name"] != "Aggregated"]
    jobs = [r for r in rows if r["Type"] == "JOB"]
    requests = sum(int(r["Request Count"]) for r in http)
    errors = sum(int(r["Failure Count"]) for r in rows if r["Name"] != "Aggregated")
    print(f"\nHTTP requests per second: {requests / seconds:.1f} ({requests} in {seconds} s)")
    print(f"{'endpoint':42} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'errors':>6}")
    for r in http + jobs:
        print(f"{r['Type'] + ' ' + r['Name']:42} {r['Request Count']:>6} {r['50%']:>8} {r['95%']:>8} "
              f"{r['Failure Count']:>6}")
    print(f"errors: {errors}")
    los = next((r for r in jobs if r["Name"] == "los job"), None)
    if los and los["95%"] not in ("", "N/A"):
        p95 = float(los["95%"])
        print(f"LOS job p95 (create to succeeded): {p95:.0f} ms, {p95 / AIM_LOS_P95_MS:.2f} of the "
              f"{AIM_LOS_P95_MS} ms aim")
    failures = Path(f"{prefix}_failures.csv")
    if errors and failures.exists():
        print(failures.read_text()[:3000])
    return errors, total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="sqlite")
    parser.add_argument("--users", type=int, default=None, help="default: 20 on PostgreSQL, 5 on SQLite")
    parser.add_argument("--seconds", type=int, default=60)
    args = parser.parse_args()
    users = args.users or (20 if args.db == "postgres" else 5)
    folder = ROOT / "var" / f"bench-load-{args.db}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    env = environment(args.db, folder)
    users_file = prepare(env, users, folder)
    processes = start(env, folder)
    prefix = str(folder / "locust")
    try:
        print(f"{users} users for {args.seconds} s on {args.db} "
              f"({'Redis' if args.db == 'postgres' else 'the filesystem broker'}), gunicorn with 2 processes, "
              "ASGI (as make run), a heavy worker (1 process) and an interactive one (2)", flush=True)
        subprocess.run([PY, "-m", "locust", "-f", str(ROOT / "bench" / "locustfile.py"), "--headless",
                        "-u", str(users), "-r", str(users), "-t", f"{args.seconds}s", "--host",
                        f"http://127.0.0.1:{PORT}", "--csv", prefix, "--only-summary", "--stop-timeout", "30",
                        "--loglevel", "WARNING"],
                       cwd=ROOT, env={**os.environ, "BENCH_USERS_FILE": str(users_file)}, check=False,
                       stdout=subprocess.DEVNULL, stderr=open(folder / "logs" / "locust.log", "w"))
    finally:
        stop(processes)
    errors, _ = report(prefix, args.seconds)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
