"""How long an edit request of 1,000 hexes takes on a 60 x 40 map, end to end through Django.

    .venv/bin/python bench/bench_edits.py [--requests 40] [--hexes 1000]

Runs against the default database (DATABASE_URL, or the SQLite file), migrating it first, through Django's
test client with token authentication: routing, authentication, the row lock, the edit, the new revision and
the answer are all counted. The target is 100 ms a request. The map and user it makes are removed after.
"""

import argparse
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

from engine import mapfile  # noqa: E402
from engine.hexgrid import Grid  # noqa: E402
from maps.models import Map  # noqa: E402

TARGET_MS = 100.0
BENCH_USER = "bench-edits"
TERRAIN = ["woods", "brush", "orchard", "wheatfield", "farm"]


def full_map(grid, rng):
    """A map whose every hex is listed, as a finished map's are: the largest document of that size."""
    hexes = [{"hex": grid.label(c, r), "terrain": [rng.choice(TERRAIN)], "level": rng.randint(-1, 3)}
             for c, r in grid.hexes()]
    hexsides = [{"hex": grid.label(c, min(10, grid.rows - 1)), "side": "S", "terrain": "hedge"} for c in range(grid.columns)]
    return {"format": "hexside-map", "version": 1, "name": "Edit bench", "ruleset": "ost", "grid": grid.as_dict(),
            "hexes": hexes, "hexsides": hexsides}


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--hexes", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--columns", type=int, default=60)
    parser.add_argument("--rows", type=int, default=40)
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    rng = random.Random(112)
    grid = Grid("flat", args.columns, args.rows, "even", "letter-number", 50)
    users = get_user_model().objects
    user = users.filter(username=BENCH_USER).first() or users.create_user(BENCH_USER)
    token, _ = Token.objects.get_or_create(user=user)
    map = Map.objects.create_from_doc(user, mapfile.parse(full_map(grid, rng)))
    client = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    everything = list(grid.hexes())
    revision = map.revision
    times = []
    try:
        for n in range(args.warmup + args.requests):
            hexes = [list(h) for h in rng.sample(everything, args.hexes)]
            body = {"revision": revision, "operations": [
                {"op": "set_terrain", "hexes": hexes, "terrain": [TERRAIN[n % len(TERRAIN)]]}]}
            start = time.perf_counter()
            response = client.post(f"/api/maps/{map.pk}/edits/", body, content_type="application/json")
            elapsed = (time.perf_counter() - start) * 1000
            if response.status_code != 200:
                raise SystemExit(f"request {n} answered {response.status_code}: {response.content[:500]!r}")
            revision = response.json()["revision"]
            if n >= args.warmup:
                times.append(elapsed)
        report(times, args, grid)
    finally:
        map.delete()
        user.delete()


def report(times, args, grid):
    median, p95 = statistics.median(times), percentile(times, 0.95)
    print(f"edit requests: {args.requests} x {args.hexes} hexes on a {grid.columns} x {grid.rows} map, every hex "
          f"listed ({connection.vendor})")
    print(f"median {median:.1f} ms ({median / TARGET_MS:.2f} of {TARGET_MS:.0f} ms)")
    print(f"p95    {p95:.1f} ms ({p95 / TARGET_MS:.2f} of {TARGET_MS:.0f} ms)")
    print(f"min {min(times):.1f} ms, max {max(times):.1f} ms")


if __name__ == "__main__":
    main()
