"""Batch validation end to end: a zip of 100 maps uploaded through the API and checked by two workers.

The zip holds 60 seeded Hexside maps (12 of each ruleset, 40x30) and 40 community files (Tiled hex maps with
their tilesets and Wesnoth maps from tests/data/community/, MegaMek boards of tests/data/megamek.py, as many as
there are, repeated).
The time runs from the upload to the finished report; the aim is under 60 s with two workers (each one pool
process, one numba thread). A fresh folder, SQLite database (or BENCH_DATABASE_URL) and filesystem broker.
Run: .venv/bin/python bench/bench_batch.py [--maps 100] [--workers 2]
"""

import argparse
import io
import os
import posixpath
import shutil
import sys
import tempfile
import time
import uuid
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
AIM_SECONDS = 60.0
RULESETS = ("ost", "ats", "assault", "tocs", "miniatures")


def community_files():
    """(path in the zip, bytes) of each community map, and of the files beside them that they name."""
    from tests.data import COMMUNITY
    from tests.data.megamek import BOARDS

    def entry(path):
        return path.relative_to(COMMUNITY).as_posix(), path.read_bytes()

    maps = [entry(p) for p in sorted(COMMUNITY.rglob("*.tmx")) + sorted(COMMUNITY.rglob("*.map"))[:15]]
    maps += [(f"megamek/{name}", data) for name, data in sorted(BOARDS.items())]
    helpers = [entry(p) for p in sorted(COMMUNITY.rglob("*.tsx")) + sorted(COMMUNITY.rglob("*.png"))[:20]]
    return maps, helpers


def build_zip(count):
    from engine import mapfile
    from engine.generate import random_map

    out = io.BytesIO()
    maps, helpers = community_files()
    own = count * 6 // 10
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for k in range(own):
            ruleset = RULESETS[k % len(RULESETS)]
            doc = random_map(ruleset, 40, 30, seed=k, name=f"bench {ruleset} {k}")
            archive.writestr(f"hexside/{ruleset}-{k}.json", mapfile.dumps(doc))
        for k in range(count - own):
            name, data = maps[k % len(maps)]
            archive.writestr(f"community/{k:03d}/{name}", data)
        for name, data in helpers:
            folder = posixpath.dirname(name)
            for k in range(count - own):
                if posixpath.dirname(maps[k % len(maps)][0]) == folder or posixpath.basename(folder) == "tiles":
                    archive.writestr(f"community/{k:03d}/{name}", data)
    return out.getvalue()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="hexside-bench-batch-"))
    queue = f"hexside-bench-{uuid.uuid4().hex[:10]}"
    env = {
        "HEXSIDE_VAR_DIR": str(folder),
        "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{folder / 'bench.sqlite3'}",
        "CELERY_BROKER_URL": "filesystem://",
        "CELERY_BROKER_DIR": str(folder / "broker"),
        "HEXSIDE_JOBS_QUEUE": queue,
        "NUMBA_NUM_THREADS": "1",
        "DEBUG": "0",
    }
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexside.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.test import Client

    from tests.jobs.workers import Worker

    call_command("migrate", verbosity=0, interactive=False)
    data = build_zip(args.maps)
    workers = [Worker(f"bench{k}-{uuid.uuid4().hex[:4]}", env, folder, concurrency=1, queue=queue, include=())
               for k in range(args.workers)]
    try:
        for worker in workers:
            worker.start()
        user = get_user_model().objects.create_user("bench")
        client = Client()
        client.force_login(user)
        print(f"Hexside batch validation bench: {os.cpu_count()} CPUs, {args.workers} worker(s), a zip of "
              f"{args.maps} maps ({len(data) / 1e6:.1f} MB)")
        started = time.perf_counter()
        response = client.post("/api/validations/", {"file": SimpleUploadedFile("bench.zip", data)})
        if response.status_code != 202:
            raise SystemExit(f"upload: {response.status_code} {response.content[:500]!r}")
        url = response.json()["url"]
        while True:
            report = client.get(url).json()
            if report["status"] not in ("queued", "running"):
                break
            if time.perf_counter() - started > 20 * AIM_SECONDS:
                raise SystemExit(f"not finished after {20 * AIM_SECONDS:.0f} s: {report['message']}")
            time.sleep(0.25)
        seconds = time.perf_counter() - started
    finally:
        for worker in workers:
            worker.stop()
        shutil.rmtree(folder, ignore_errors=True)
    if report["status"] != "succeeded":
        raise SystemExit(f"the batch {report['status']}: {report['message']}")
    counts = report["counts"]
    ratio = seconds / AIM_SECONDS
    print(f"{len(report['files'])} files checked in {seconds:.1f} s ({counts['ok']} ok, {counts['warnings']} with "
          f"warnings, {counts['invalid']} invalid); aim < {AIM_SECONDS:.0f} s: {ratio:.2f} of the aim "
          f"{'(met)' if ratio < 1 else '(MISSED)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
