"""An anonymous visitor's export requests of a published scenario that names one big map 20 times (issue 17,
point 7): the time and the peak memory of the web process answering them.

    .venv/bin/python bench/bench_scenario_maps.py [--size 400] [--entries 20]

The parent makes a throwaway SQLite database under var/bench/ (a big seeded OST map, published, and a published
scenario whose maps list names it ``--entries`` times, written straight to the database as a scenario stored
before the limit would be), then each request runs in a fresh child process, as a web process that has not read
the map yet: the scenario file download (GET /api/scenarios/<id>/export/), the scenario page, and the PNG and
PDF export jobs asked anonymously (answered without queueing anything). The child prints its wall time and its
own peak resident memory (ru_maxrss) above what Django and the database took before the request.

Before, the file download read every map document in the web process: the issue's probe, 30.7 s and 1.75 GB;
on this branch's base (400 x 400 map, a 2-core machine shared with others) 2.2 s and 61 MB for one map named 20
times (the process keeps the one map it read), 19.6 s and 258 MB for eight distinct maps (--entries 8
--distinct 8). After: the 20 entries are refused at once (the same map twice; more than HEXSIDE_MAX_SCENARIO_MAPS),
and eight distinct maps are read as their rows only (no map document) on the web process; the workers read the
documents a job's pins name.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexside.settings")
DB = ROOT / "var" / "bench" / "scenario-maps.sqlite3"
os.environ["DATABASE_URL"] = f"sqlite:///{DB}"

ISSUE_BEFORE = {"seconds": 30.7, "peak_mb": 1750}  # the issue's figures for the file of 20 entries
# This branch's base, measured with this script (--size 400): (entries, distinct) -> the file download.
BEFORE = {(20, 1): {"seconds": 2.23, "peak_mb": 61}, (8, 8): {"seconds": 19.58, "peak_mb": 258}}
UNIT = [{"id": "sq", "unit": "Rifle Squad", "count": 1}]


def setup(size, entries, distinct):
    import django

    DB.parent.mkdir(parents=True, exist_ok=True)
    DB.unlink(missing_ok=True)
    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from authoring.models import Scenario
    from engine.generate import random_map
    from engine.scenarios import scenariofile
    from maps.models import Map

    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create_user("bench-owner", password="x")
    mdoc = random_map("ost", size, size, seed=7, cover=1 / 3, hills=max(8, size * size // 2000),
                      hexsides=size * size // 10, name="Big map")
    bigs = []
    for k in range(distinct):  # the same content under other names: distinct maps, each read on its own
        mdoc.name = "Big map" if k == 0 else f"Big map {k + 1}"
        bigs.append(Map.objects.create_from_doc(owner, mdoc, published=True))
    data = {"format": scenariofile.FORMAT, "version": scenariofile.VERSION, "title": "Twenty times the same map",
            "ruleset": "ost", "maps": [{"key": f"m{k}", "id": bigs[k % distinct].pk, "placement": [0, 0], "rotation": 0}
                                       for k in range(entries)],
            "turns": {"count": 6}, "environment": {}, "rules": {},
            "sides": [{"id": side, "name": side.title(), "oob": UNIT, "setup_zone": [], "placements": [],
                       "reinforcements": [], "victory": {"kind": "eliminate"}} for side in ("blue", "red")],
            "objectives": [], "markers": [], "special_rules": []}
    # As a scenario stored before the limit: written as it is, not read through the checks of today.
    scenario = Scenario.objects.create_from_doc(owner, scenariofile.ScenarioDoc(data=data))
    Scenario.objects.filter(pk=scenario.pk).update(published=True)
    return scenario.pk


def child(what, pk):
    import django

    django.setup()
    from django.test import Client

    client = Client()
    client.get("/api/scenarios/")  # Django, the URLconf and the database opened: not the request's cost
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    started = time.perf_counter()
    if what == "file":
        response = client.get(f"/api/scenarios/{pk}/export/")
    elif what == "page":
        response = client.get(f"/scenarios/{pk}/")
    else:
        response = client.post(f"/api/scenarios/{pk}/print/", {"format": what},
                               content_type="application/json")
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"status": response.status_code, "seconds": seconds, "peak_mb": peak - base,
                      "says": response.content[:110].decode("utf-8", "replace") if response.status_code >= 400
                      else ""}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=400, help="the big map's columns and rows")
    parser.add_argument("--entries", type=int, default=20)
    parser.add_argument("--distinct", type=int, default=1, help="how many distinct maps the entries name in turn")
    parser.add_argument("--child", nargs=2)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    started = time.perf_counter()
    pk = setup(args.size, args.entries, args.distinct)
    print(f"set up {args.distinct} map(s) of {args.size}x{args.size} named in {args.entries} entries in "
          f"{time.perf_counter() - started:.1f} s", flush=True)
    for what in ("file", "page", "png", "pdf"):
        run = subprocess.run([sys.executable, __file__, "--child", what, str(pk)], capture_output=True, text=True,
                             env={**os.environ, "NUMBA_NUM_THREADS": "1"})
        if run.returncode != 0:
            print(what, "failed:", run.stderr.strip().splitlines()[-3:])
            continue
        got = json.loads(run.stdout.strip().splitlines()[-1])
        line = (f"{what:5} status {got['status']}  {got['seconds']:7.2f} s  {got['peak_mb']:7.0f} MB above the "
                f"idle process {got['says']}")
        before = BEFORE.get((args.entries, args.distinct)) if args.size == 400 else None
        if what == "file" and before:
            line += (f"\n      before {before['seconds']} s, {before['peak_mb']} MB: ratio "
                     f"{got['seconds'] / before['seconds']:.4f} (time), "
                     f"{got['peak_mb'] / before['peak_mb']:.4f} (memory)")
        if what == "file" and (args.entries, args.distinct) == (20, 1):
            line += (f"\n      the issue's {ISSUE_BEFORE['seconds']} s, {ISSUE_BEFORE['peak_mb']} MB: ratio "
                     f"{got['seconds'] / ISSUE_BEFORE['seconds']:.4f} (time), "
                     f"{got['peak_mb'] / ISSUE_BEFORE['peak_mb']:.4f} (memory)")
        print(line, flush=True)
    DB.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
