"""What a painter's stroke costs, end to end through Django: a 50-hex stroke on a fully listed 100 x 100 map and on
a 10 x 10 map, and a one-hex edit of a fully listed 500 x 500 map (time and bytes stored).

    .venv/bin/python bench/bench_edits.py [--requests 30] [--hexes 50] [--big-edits 5] [--big-size 500]

Runs against the default database (DATABASE_URL, or the SQLite file), migrating it first, through Django's test
client with token authentication (POST /api/maps/<id>/edits/, as the painter saves): routing, authentication, the
edit, the revision check, the new revision and the answer are all counted. Each figure is printed with its aim
and with its ratio to the figure measured before revisions were stored as changes (BASELINE: the same bench on
the same machine, while other work shared its two cores). The maps and user it makes are removed after.
"""

import argparse
import io
import json
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
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from engine.hexgrid import Grid  # noqa: E402
from maps.models import Map, MapRevision  # noqa: E402

BENCH_USER = "bench-edits"
TERRAIN = ["woods", "brush", "orchard", "wheatfield", "farm"]
AIMS = {"stroke_100": 40.0, "big_edit_ms": 100.0, "big_edit_bytes": 10_000}
# Measured with whole documents per revision (the commit before revisions became changes), p95 / median in ms.
BASELINE = {
    "sqlite": {"stroke_100": 386.6, "stroke_10": 24.7, "big_edit_ms": 22_750.0, "big_edit_bytes": 1_060_000},
    "postgresql": {"stroke_100": 1010.9, "stroke_10": 68.3, "big_edit_ms": 9_240.0, "big_edit_bytes": 1_060_000},
}


def full_map(grid, rng, name="Edit bench"):
    """A map whose every hex is listed, as a finished map's are: the largest document of that size."""
    hexes = [{"hex": grid.label(c, r), "terrain": [rng.choice(TERRAIN)], "level": rng.randint(-1, 3)}
             for c, r in grid.hexes()]
    row = min(10, grid.rows - 1)
    hexsides = [{"hex": grid.label(c, row), "side": "S", "terrain": "hedge"} for c in range(grid.columns)]
    return {"format": "hexside-map", "version": 1, "name": name, "ruleset": "ost", "grid": grid.as_dict(),
            "hexes": hexes, "hexsides": hexsides}


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def import_map(client, document):
    upload = io.BytesIO(json.dumps(document).encode("utf-8"))
    upload.name = "bench.json"
    response = client.post("/api/maps/import/", {"file": upload})  # multipart: as a designer uploads
    if response.status_code != 201:
        raise SystemExit(f"import answered {response.status_code}: {response.content[:500]!r}")
    return response.json()


def edit_times(client, map_id, revision, operations_of, count, warmup):
    times = []
    for n in range(warmup + count):
        body = {"revision": revision, "operations": operations_of(n)}
        start = time.perf_counter()
        response = client.post(f"/api/maps/{map_id}/edits/", body, content_type="application/json")
        elapsed = (time.perf_counter() - start) * 1000
        if response.status_code != 200:
            raise SystemExit(f"edit {n} answered {response.status_code}: {response.content[:500]!r}")
        revision = response.json()["revision"]
        if n >= warmup:
            times.append(elapsed)
    return times


def strokes(client, size, rng, args):
    grid = Grid("flat", size, size, "even", "letter-number", 50)
    created = import_map(client, full_map(grid, rng))
    everything = list(grid.hexes())

    def stroke(n):
        hexes = [list(h) for h in rng.sample(everything, min(args.hexes, len(everything)))]
        return [{"op": "set_terrain", "hexes": hexes, "terrain": [TERRAIN[n % len(TERRAIN)]]}]

    return edit_times(client, created["id"], created["revision"], stroke, args.requests, args.warmup)


def stored_bytes(revision):
    if revision.snapshot is not None:
        return len(bytes(revision.snapshot))
    return len(json.dumps(revision.changes, separators=(",", ":")).encode("utf-8"))


def big_edit(client, rng, args):
    grid = Grid("flat", args.big_size, args.big_size, "even", "letter-number", 50)
    created = import_map(client, full_map(grid, rng, "Big edit bench"))
    times = edit_times(client, created["id"], created["revision"],
                       lambda n: [{"op": "set_level", "hexes": [[n, n]], "level": 3 - n % 2}], args.big_edits, 1)
    map = Map.objects.get(pk=created["id"])
    last = MapRevision.objects.get(map=map, number=map.revision)
    return times, stored_bytes(last), len(map.export().encode("utf-8"))


def line(label, value, unit, key, vendor):
    aim = AIMS.get(key)
    base = BASELINE.get(vendor, {}).get(key)
    parts = [f"{label}: {value:,.1f} {unit}"]
    if aim is not None:
        parts.append(f"aim {aim:,.0f} {unit} ({value / aim:.2f} of it)")
    if base:
        parts.append(f"before {base:,.1f} {unit} (now {value / base:.3f} of it, {base / value:.0f}x less)")
    print("; ".join(parts))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--hexes", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--big-edits", type=int, default=5)
    parser.add_argument("--big-size", type=int, default=500)
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    rng = random.Random(112)
    users = get_user_model().objects
    users.filter(username=BENCH_USER).delete()
    user = users.create_user(BENCH_USER)
    client = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    vendor = connection.vendor
    try:
        large, small = strokes(client, 100, rng, args), strokes(client, 10, rng, args)
        print(f"{args.hexes}-hex strokes, {args.requests} requests each, every hex listed ({vendor})")
        line("100 x 100 stroke p95", percentile(large, 0.95), "ms", "stroke_100", vendor)
        line("100 x 100 stroke median", statistics.median(large), "ms", None, vendor)
        line("10 x 10 stroke p95", percentile(small, 0.95), "ms", "stroke_10", vendor)
        ratio = percentile(large, 0.95) / percentile(small, 0.95)
        print(f"100 x 100 / 10 x 10 (p95): {ratio:.2f} (aim: within 2; before "
              f"{BASELINE[vendor]['stroke_100'] / BASELINE[vendor]['stroke_10']:.1f})" if vendor in BASELINE
              else f"100 x 100 / 10 x 10 (p95): {ratio:.2f} (aim: within 2)")
        if args.big_edits:
            times, stored, file_bytes = big_edit(client, rng, args)
            print(f"one-hex edits of a {args.big_size} x {args.big_size} map, every hex listed "
                  f"({file_bytes / 1e6:.1f} MB of map file), {args.big_edits} requests")
            line("one-hex edit median", statistics.median(times), "ms", "big_edit_ms", vendor)
            line("one-hex edit worst", max(times), "ms", None, vendor)
            line("stored by the revision", stored, "bytes", "big_edit_bytes", vendor)
    finally:
        Map.objects.filter(owner=user).delete()
        user.delete()


if __name__ == "__main__":
    main()
