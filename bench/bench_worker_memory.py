"""Peak memory of a worker's process answering 500x500 viewsheds through the database (issue 7, point 1).

bench/bench_memory.py measures the engine alone; this one does what a pool process does: Django loaded, the kernels
warmed, then for each of N different 500x500 maps a viewshed job taken, its map read from the database, compiled
(the compiled-map cache making room first), answered, and its JSON written. It prints the process's resident and
peak memory after each job, and the peak's ratio to the 500 MB aim. SQLite: the database runs in this process.

Run: .venv/bin/python bench/bench_worker_memory.py [--maps 2]
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "var" / "bench-worker-memory"
AIM_MB = 500


def setup_django(folder=FOLDER):
    """Django in this process on a SQLite database of its own under ``folder``, Celery eager."""
    sys.path.insert(0, str(ROOT))
    os.environ.update(DJANGO_SETTINGS_MODULE="hexside.settings", DEBUG="0", SECRET_KEY="bench-" + "x" * 60,
                      HEXSIDE_VAR_DIR=str(folder), CELERY_TASK_ALWAYS_EAGER="1", NUMBA_NUM_THREADS="1",
                      NUMBA_CACHE_DIR=str(ROOT / "var" / "numba-cache"))
    os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()


def megabytes():
    with open("/proc/self/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) // 1024
    return rss, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def prepare(maps):
    """The database and the maps, made in this child process (not measured)."""
    setup_django()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from engine.generate import random_map
    from maps.models import Map

    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username="bench")
    for k in range(maps):
        doc = random_map("ost", 500, 500, seed=7 + k, cover=1 / 3, hills=125, hexsides=25_000, name=f"Big {k}")
        Map.objects.create_from_doc(user, doc)


def measure():
    setup_django()
    from engine.los import warm
    from jobs import dispatch
    from jobs.models import Job
    from maps import tasks  # noqa: F401 - the tasks the messages name
    from maps.models import Map

    warm.warm()
    rss, peak = megabytes()
    print(f"worker ready: {rss} MB resident", flush=True)
    worst = 0
    for map in Map.objects.order_by("pk"):
        job = Job.objects.create(kind="viewshed", parameters={"from": [250, 250]}, request_key=f"bench-{map.pk}",
                                 subject_type="map", subject_id=map.pk, content_hash=map.content_hash,
                                 token=f"bench{map.pk}")
        started = time.perf_counter()
        dispatch.message(job).apply()  # the task as a worker runs its message, ticket and all
        job.refresh_from_db()
        rss, peak = megabytes()
        worst = max(worst, peak)
        print(f"map {map.pk}: {job.status}, {time.perf_counter() - started:.1f} s, resident {rss} MB, peak {peak} MB, "
              f"result file {job.result_file.size / 2**20:.1f} MB", flush=True)
    print(f"500x500 viewshed in a worker: peak {worst} MB, {worst / AIM_MB:.2f} of the {AIM_MB} MB aim")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--maps", type=int, default=2)
    parser.add_argument("--step", choices=("prepare", "measure"))
    args = parser.parse_args()
    if args.step == "prepare":
        return prepare(args.maps)
    if args.step == "measure":
        return measure()
    shutil.rmtree(FOLDER, ignore_errors=True)
    FOLDER.mkdir(parents=True)
    subprocess.run([sys.executable, __file__, "--step", "prepare", "--maps", str(args.maps)], check=True)
    subprocess.run([sys.executable, __file__, "--step", "measure"], check=True)


if __name__ == "__main__":
    main()
