"""Peak memory of the worst job of each kind at 500x500 (issue 17, point 1: no job takes a worker over 1 GB).

Each kind runs in a fresh process of its own, so each figure is that job's alone: Django loaded, the kernels warmed,
the job asked for through the API as a user asks (Celery eager: the task runs in the same process, so the figure is
the web request's and the worker's together, an upper bound of either), on a random 500x500 OST map with a scenario
on it (the Hill 112 sample's forces). A kind the studio refuses before queueing (its cost past the limit) prints the
refusal: a refused job costs a worker nothing. Baselines are the issue's figures where it gives one.

Run: .venv/bin/python bench/bench_job_memory.py [--size 500] [--kinds los,viewshed,...]
"""

import argparse
import json
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import bench_worker_memory  # its way of setting Django up, on a folder of this bench's own

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "var" / "bench-job-memory"
AIM_MB = 1024
# What the hostile probe of issue 17 measured on the code before it (MB), where it measured the kind.
BASELINE_MB = {"sight-lines": 21_600, "map-image": 1_900, "map-export": 1_800, "batch-validation": 2_260}
KINDS = {
    "los": ("map", "los/", {"from": "first", "to": "last"}),
    "viewshed": ("map", "viewshed/", {"from": "middle"}),
    "analysis": ("map", "analysis/", {"height": 2}),
    "map-export": ("map", "print/", {"dpi": 300, "hex_mm": 19}),
    "map-image": ("page", "map.png", None),
    "scenario-checks": ("scenario", "checks/", {}),
    "sight-lines": ("scenario", "sight-lines/", {}),
    "export": ("scenario", "print/", {"format": "pdf"}),
}


def setup_django():
    bench_worker_memory.setup_django(FOLDER)


def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def prepare(size):
    setup_django()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from authoring.models import Scenario
    from engine.generate import random_map
    from engine.scenarios import scenariofile
    from maps.models import Map

    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username="bench")
    doc = random_map("ost", size, size, seed=7, cover=1 / 3, hills=size // 4, hexsides=size * 50, name="Big")
    big = Map.objects.create_from_doc(user, doc, published=True)
    sample = json.loads((ROOT / "authoring" / "samples" / "hill-112.json").read_text())
    sample["maps"] = [{"key": "hill", "id": big.pk, "placement": [0, 0], "rotation": 0}]
    sample.pop("play_area", None)
    scenario = scenariofile.parse(json.dumps(sample).encode(), lambda entry: big.mapdoc())
    Scenario.objects.create_from_doc(user, scenario, published=True)


def measure(kind):
    setup_django()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from authoring.models import Scenario
    from engine.los import warm
    from jobs.models import Job
    from maps.models import Map

    warm.warm()
    ready = peak_mb()
    client = Client()
    client.force_login(get_user_model().objects.get(username="bench"))
    subject, path, data = KINDS[kind]
    started = time.perf_counter()
    if subject == "page":
        response = client.get(f"/maps/{Map.objects.get().pk}/{path}")
        answer = f"HTTP {response.status_code}"
    else:
        pk = (Map if subject == "map" else Scenario).objects.get().pk
        grid = Map.objects.get().mapdoc().grid
        hexes = {"first": grid.label(0, 0), "last": grid.label(grid.columns - 1, grid.rows - 1),
                 "middle": grid.label(grid.columns // 2, grid.rows // 2)}
        data = {k: hexes.get(v, v) if isinstance(v, str) else v for k, v in data.items()}
        response = client.post(f"/api/{subject}s/{pk}/{path}", data, content_type="application/json")
        body = response.json()
        if response.status_code >= 400:
            answer = f"refused ({response.status_code}): {json.dumps(body)[:160]}"
        else:
            job = Job.objects.get(pk=body.get("id", body.get("job")))  # 202 {job, url}, or a job already there
            answer = job.status + (f": {job.error[:120]}" if job.error else "")
    seconds = time.perf_counter() - started
    print(json.dumps({"kind": kind, "answer": answer, "seconds": round(seconds, 1), "ready_mb": ready,
                      "peak_mb": peak_mb()}), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=500)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--step", choices=("prepare", "measure"))
    parser.add_argument("--kind")
    args = parser.parse_args()
    if args.step == "prepare":
        return prepare(args.size)
    if args.step == "measure":
        return measure(args.kind)
    shutil.rmtree(FOLDER, ignore_errors=True)
    FOLDER.mkdir(parents=True)
    subprocess.run([sys.executable, __file__, "--step", "prepare", "--size", str(args.size)], check=True)
    print(f"{'kind':<18}{'peak MB':>9}{'aim':>7}{'before':>9}{'ratio':>7}  seconds  answer")
    for kind in args.kinds.split(","):
        out = subprocess.run([sys.executable, __file__, "--step", "measure", "--kind", kind], capture_output=True,
                             text=True)
        if out.returncode:
            print(f"{kind:<18} failed: {out.stderr.strip().splitlines()[-1:]}")
            continue
        row = json.loads(out.stdout.strip().splitlines()[-1])
        before = BASELINE_MB.get(kind)
        ratio = f"{row['peak_mb'] / before:.2f}" if before else "-"
        print(f"{kind:<18}{row['peak_mb']:>9}{row['peak_mb'] / AIM_MB:>7.2f}{before or '-':>9}{ratio:>7}"
              f"  {row['seconds']:>7}  {row['answer']}", flush=True)


if __name__ == "__main__":
    main()
