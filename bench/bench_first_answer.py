"""The first answer of a fresh process (issue 7, point 8): a worker's first LOS answer, viewshed and analysis part,
with numba's kernel cache cold (a fresh install before this issue) and warm (after `manage.py warm_kernels`,
which `make setup` runs). Aim: under 3 s each, warm.

Run: .venv/bin/python bench/bench_first_answer.py
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AIM_SECONDS = 3.0

CHILD = """
import json, sys, time
started = time.perf_counter()
from engine.generate import random_map
from engine.los import engine
cmap = engine.compile_map(random_map("ost", 60, 40, seed=3))
ready = time.perf_counter()
what = sys.argv[1]
if what == "los":
    engine.line_of_sight(cmap, cmap.label(0), cmap.label(cmap.n - 1))
elif what == "viewshed":
    engine.viewshed(cmap, cmap.label(cmap.n // 2))
else:
    engine.analyze_pairs(cmap, 0, 150)  # an analysis part: 150 observers against the rest
print(json.dumps({"answer": time.perf_counter() - ready, "process": time.perf_counter() - started}))
"""


def first(what, cache_dir):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(ROOT), "NUMBA_NUM_THREADS": "1"}
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD, what], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True)
    inner = json.loads(out.stdout.strip().splitlines()[-1])
    return inner["answer"], time.perf_counter() - started


def main():
    warm_dir = ROOT / "var" / "numba-cache"
    subprocess.run([sys.executable, "manage.py", "warm_kernels", "-v", "0"], cwd=ROOT, check=True,
                   env={**os.environ, "HEXSIDE_NUMBA_CACHE_DIR": str(warm_dir), "NUMBA_CACHE_DIR": str(warm_dir)})
    for what in ("los", "viewshed", "analysis"):
        with tempfile.TemporaryDirectory() as cold_dir:
            cold, cold_process = first(what, cold_dir)
        warm, warm_process = first(what, warm_dir)
        print(f"first {what:9}: cold cache {cold:6.2f} s (process {cold_process:5.1f} s), warm {warm:5.2f} s "
              f"(process {warm_process:4.1f} s): {warm / AIM_SECONDS:.2f} of the {AIM_SECONDS:g} s aim")


if __name__ == "__main__":
    main()
