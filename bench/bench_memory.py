"""Peak memory and time of a viewshed and of an analysis as the map grows (issue 7, point 1).

Each measure runs in a fresh child process (so one's peak does not hide the next) that builds a seeded OST map,
compiles it, runs the work and turns its answer into the JSON a job stores (the engine alone: for a whole worker
process, Django and the database included, see bench/bench_worker_memory.py); the parent prints the child's peak
resident memory (its own ru_maxrss) and times. The kernels are warmed first (numba's cache), so compile time is not
counted. Aim: a 500x500 viewshed under 500 MB, memory growing linearly with the map.

Run: .venv/bin/python bench/bench_memory.py [--sizes 100,200,500] [--analysis 60x40,100x100]
"""

import argparse
import io
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

AIM_MB = 500


MAPS_DIR = ROOT / "var" / "bench"


def map_file(columns, rows):
    """A seeded OST map of this size as a file, made once (in its own process, so it is not measured)."""
    path = MAPS_DIR / f"ost-{columns}x{rows}.json"
    if not path.exists():
        MAPS_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, __file__, "--make", str(columns), str(rows)], check=True)
    return path


def make(columns, rows):
    from engine import mapfile
    from engine.generate import random_map

    doc = random_map("ost", columns, rows, seed=7, cover=1 / 3, hills=max(8, columns * rows // 2000),
                     hexsides=columns * rows // 10)
    (MAPS_DIR / f"ost-{columns}x{rows}.json").write_text(mapfile.dumps(doc))


def child(what, columns, rows):
    """What a worker does: the document as the database gives it (parsed JSON), compiled, answered, stored."""
    from engine import mapfile, render
    from engine.los import engine

    data = json.loads(map_file(columns, rows).read_text())
    cmap = engine.compile_map(mapfile.parse(data))
    del data
    started = time.perf_counter()
    if what == "viewshed":  # the JSON text a viewshed job stores, written straight from the answer's arrays
        answer = engine.viewshed_answer(cmap, cmap.label(cmap.n // 2 + rows // 2))
    elif what == "map-image":  # what the web process did on every request before issue 7, a map-image job now
        out = io.BytesIO()
        render.render_map(cmap).save(out, format="PNG")
        answer = {"png_bytes": len(out.getvalue())}
    elif what == "analysis-matrix":  # what an analysis job's parts and assembly hold in matrix mode, in one process
        answer = engine.analyze(cmap, full=True).as_dict()
    else:  # counts mode: one part's work is this, for its slice of observers
        counts, pairs = engine.count_pairs(cmap, 0, cmap.n)
        answer = {"pairs": pairs, "clear": counts[0].tolist()}
    text = "".join(answer.json_pieces()) if what == "viewshed" else json.dumps(answer)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "bytes": len(text), "peak_mb": peak}))


def measure(what, columns, rows):
    map_file(columns, rows)
    started = time.perf_counter()
    out = subprocess.run([sys.executable, __file__, "--child", what, str(columns), str(rows)],
                         capture_output=True, text=True, env={**os.environ, "NUMBA_NUM_THREADS": "1"})
    wall = time.perf_counter() - started
    if out.returncode != 0:
        return {"what": what, "size": f"{columns}x{rows}", "error": out.stderr.strip().splitlines()[-1:]}
    inner = json.loads(out.stdout.strip().splitlines()[-1])
    return {"what": what, "size": f"{columns}x{rows}", "peak_mb": round(inner["peak_mb"]),
            "work_s": round(inner["seconds"], 2), "process_s": round(wall, 2),
            "json_mb": round(inner["bytes"] / 2**20, 1)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="100,200,500")
    parser.add_argument("--analysis", default="60x40,100x80", help="maps analysed whole, in counts mode (what a "
                        "part keeps past the matrix budget) and in matrix mode")
    parser.add_argument("--images", default="", help="map sizes drawn as the map page's PNG, e.g. 200,500")
    parser.add_argument("--child", nargs=3)
    parser.add_argument("--make", nargs=2)
    args = parser.parse_args()
    if args.make:
        make(int(args.make[0]), int(args.make[1]))
        return
    if args.child:
        child(args.child[0], int(args.child[1]), int(args.child[2]))
        return
    rows = []
    for size in sorted(int(s) for s in args.sizes.split(",") if s):
        rows.append(measure("viewshed", size, size))
        print(rows[-1], flush=True)
    for spec in [s for s in args.analysis.split(",") if s]:
        columns, height = (int(v) for v in spec.split("x"))
        for what in ("analysis-counts", "analysis-matrix"):
            rows.append(measure(what, columns, height))
            print(rows[-1], flush=True)
    for size in [int(s) for s in args.images.split(",") if s]:
        rows.append(measure("map-image", size, size))
        print(rows[-1], flush=True)
    for row in rows:
        if row["what"] == "viewshed" and row["size"] == "500x500" and "peak_mb" in row:
            print(f"500x500 viewshed: {row['peak_mb']} MB, {row['peak_mb'] / AIM_MB:.2f} of the {AIM_MB} MB aim")


if __name__ == "__main__":
    main()
