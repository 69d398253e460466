"""A one-hex edit of the largest map allowed (500 x 500, every hex listed): time per request and bytes stored.

    .venv/bin/python bench/bench_big_edit.py [--edits 5] [--size 500]

Runs against the default database (DATABASE_URL, or the SQLite file), migrating it first, through Django's test
client with token authentication. Prints the map file's size, the median and worst time of a one-hex edit
request, the time the write transaction held (on SQLite, the database's one write lock), and the bytes the new
revision stored (its changes; a snapshot every so many revisions), with its ratio to the map file. The map
and user it makes are removed after.
"""

import argparse
import io
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexside.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.test import Client  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from engine.hexgrid import Grid  # noqa: E402
from maps.models import Map, MapRevision  # noqa: E402

BENCH_USER = "bench-big-edit"
TERRAIN = ["woods", "brush", "orchard", "wheatfield", "farm"]


def full_map(size, rng):
    grid = Grid("flat", size, size, "even", "letter-number")
    return {"format": "hexside-map", "version": 1, "name": "Big edit bench", "ruleset": "ost",
            "grid": grid.as_dict(),
            "hexes": [{"hex": grid.label(c, r), "terrain": [rng.choice(TERRAIN)], "level": rng.randint(-1, 3)}
                      for c, r in grid.hexes()]}


class HeldTimer:
    """Times every outermost transaction.atomic block: how long the write lock is held."""

    def __init__(self):
        self.held = []
        self._real_enter, self._real_exit = transaction.Atomic.__enter__, transaction.Atomic.__exit__
        self._start = None

    def __enter__(self):
        timer = self

        def enter(atomic):
            from django.db import connection

            if not connection.in_atomic_block:
                timer._start = time.perf_counter()
            return timer._real_enter(atomic)

        def leave(atomic, *exc):
            from django.db import connection

            result = timer._real_exit(atomic, *exc)
            if not connection.in_atomic_block and timer._start is not None:
                timer.held.append(time.perf_counter() - timer._start)
                timer._start = None
            return result

        transaction.Atomic.__enter__, transaction.Atomic.__exit__ = enter, leave
        return self

    def __exit__(self, *exc):
        transaction.Atomic.__enter__, transaction.Atomic.__exit__ = self._real_enter, self._real_exit


def stored_bytes(revision):
    """What a revision stored: its snapshot (the whole map, compressed) or its changes."""
    if revision.snapshot is not None:
        return len(bytes(revision.snapshot))
    import json

    return len(json.dumps(revision.changes, separators=(",", ":")).encode("utf-8"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--size", type=int, default=500)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    rng = random.Random(7)
    User = get_user_model()
    User.objects.filter(username=BENCH_USER).delete()
    user = User.objects.create_user(BENCH_USER)
    client = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    try:
        body = full_map(args.size, rng)
        import json

        text = json.dumps(body)
        started = time.perf_counter()
        upload = io.BytesIO(text.encode("utf-8"))
        upload.name = "big.json"
        response = client.post("/api/maps/import/", {"file": upload})  # multipart: as a designer uploads
        assert response.status_code == 201, response.content[:500]
        map_id = response.json()["id"]
        print(f"import of a {args.size} x {args.size} map ({len(text) / 1e6:.1f} MB): "
              f"{time.perf_counter() - started:.2f} s")
        times, held = [], []
        for k in range(args.edits):
            revision = Map.objects.filter(pk=map_id).values_list("revision", flat=True).get()
            ops = [{"op": "set_level", "hexes": [[k, k]], "level": 3 - k % 2}]
            with HeldTimer() as timer:
                started = time.perf_counter()
                response = client.post(f"/api/maps/{map_id}/edits/", {"revision": revision, "operations": ops},
                                       content_type="application/json")
                times.append(time.perf_counter() - started)
            assert response.status_code == 200, response.content[:500]
            held.append(max(timer.held) if timer.held else 0.0)
        map = Map.objects.get(pk=map_id)
        document_bytes = len(map.export().encode("utf-8"))
        last = MapRevision.objects.get(map=map, number=map.revision)
        revision_bytes = stored_bytes(last)
        print(f"one-hex edit: median {statistics.median(times):.2f} s, worst {max(times):.2f} s "
              f"({args.edits} edits)")
        print(f"write transaction held: median {statistics.median(held) * 1000:.0f} ms, "
              f"worst {max(held) * 1000:.0f} ms ({statistics.median(held) / statistics.median(times):.0%} "
              "of the request)")
        print(f"stored by the last revision: {revision_bytes:,} bytes; map file {document_bytes / 1e6:.2f} MB; "
              f"ratio {revision_bytes / document_bytes:.6f}")
    finally:
        Map.objects.filter(owner=user).delete()
        user.delete()


if __name__ == "__main__":
    main()
