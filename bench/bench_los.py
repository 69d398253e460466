"""LOS engine speed on the issue's benchmark map, beside a naive baseline timed in the same run.

The map: a seeded 60x40 Old School Tactical board, about a third of the hexes not open, hills to level 3, 300
hexside features. The baseline is what one would write first: a shapely LineString per pair, intersected with
the hex polygons (through an STRtree), each touched hex looked up and classified per pair. It is timed on a
sample and scaled. Run: .venv/bin/python bench/bench_los.py [--seed N] [--ruleset ats]; the issue's figures are
for the default, ost.
"""

import argparse
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexside.settings")

import numpy as np  # noqa: E402
from shapely import STRtree  # noqa: E402
from shapely.geometry import LineString, Polygon  # noqa: E402

from engine.generate import random_map  # noqa: E402
from engine.los.engine import analyze, compile_map, line_of_sight, rules_for, viewshed  # noqa: E402

# Issue 29's aims: a viewshed under 5 ms and the whole-map analysis under 1 s, since every visibility question
# stands on them (the answer's aim is older).
AIMS = {"answer": 1e-3, "viewshed": 5e-3, "analysis": 1.0}
# The same figures before the kernels were split (main at 595a617, warm numba cache, this 2-core machine quiet):
# each figure is printed beside these and its ratio to them.
BEFORE = {"ost": {"answer": 450e-6, "viewshed": 7.4e-3, "analysis": 1.89},
          "ats": {"answer": 559e-6, "viewshed": 4.9e-3, "analysis": 1.95}}


class NaiveBaseline:
    """Per pair: a LineString against hex polygons, each touched hex classified by its terrain."""

    def __init__(self, cmap):
        self.cmap = cmap
        grid = cmap.grid
        self.polygons = [Polygon(grid.corners(*grid.from_index(i))) for i in range(cmap.n)]
        self.tree = STRtree(self.polygons)
        self.los = [max((cmap.catalogue.get(t).get("los", "clear") for t in ts), key=_weight)
                    for ts in cmap.terrain]

    def answer(self, a, b):
        cmap = self.cmap
        line = LineString([cmap.centres[a], cmap.centres[b]])
        degrading = 0
        blocked = False
        for i in self.tree.query(line, predicate="intersects"):
            if i in (a, b):
                continue
            hit = cmap.art[i] if cmap.art[i] is not None else self.polygons[i]
            if not line.intersects(hit):
                continue
            top = max(cmap.level[a], cmap.level[b])
            if cmap.level[i] > top or self.los[i] == "blocking":
                blocked = True
            elif self.los[i] != "clear":
                degrading += 1
        return "blocked" if blocked or degrading >= 3 else ("hindered" if degrading else "clear")


def _weight(los):
    return {"clear": 0, "hindering": 1, "special": 2, "blocking": 3}.get(los, 0)


def timed(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=112)
    parser.add_argument("--ruleset", default="ost", help="a built-in ruleset id (the same size of map)")
    args = parser.parse_args()

    doc = random_map(args.ruleset, 60, 40, seed=args.seed, cover=1 / 3, hills=10, hexsides=300)
    cmap = compile_map(doc)
    n = cmap.n
    non_open = sum(1 for t in cmap.terrain if t != ("open",))
    print(f"map: {doc.name}: {n} hexes, {non_open} not open ({non_open / n:.0%}), "
          f"levels {cmap.level.min()}..{cmap.level.max()}, {len(cmap.hexsides)} hexside features")
    rng = random.Random(args.seed)
    pairs = [(rng.randrange(n), rng.randrange(n)) for _ in range(1000)]

    # Warm up: compile kernels and trace caches.
    rules_for(cmap)
    start = time.perf_counter()
    viewshed(cmap, cmap.label(0))
    print(f"warm-up (kernel compile or cache load, trace tables): {time.perf_counter() - start:.2f} s")
    for a, b in pairs[:50]:
        line_of_sight(cmap, cmap.label(a), cmap.label(b))

    baseline = NaiveBaseline(cmap)

    # 1. One LOS answer with reasons.
    answer_times = [timed(lambda: line_of_sight(cmap, cmap.label(a), cmap.label(b)), 1)[0] for a, b in pairs]
    base_times = [timed(lambda: baseline.answer(a, b), 1)[0] for a, b in pairs[:300]]
    ours, theirs = statistics.median(answer_times), statistics.median(base_times)
    before = BEFORE.get(args.ruleset, {})
    report("one LOS answer with reasons (median of 1000)", ours, theirs, AIMS["answer"], before.get("answer"))

    # 2. A viewshed of 2,400 targets.
    observers = [rng.randrange(n) for _ in range(20)]
    shed_times = [timed(lambda: viewshed(cmap, cmap.label(o)), 1)[0] for o in observers]
    base_pair = statistics.mean(timed(lambda: [baseline.answer(observers[0], t) for t in range(0, n, 8)], 1)) / len(
        range(0, n, 8))
    report("viewshed, 2,400 targets (median of 20)", statistics.median(shed_times), base_pair * n, AIMS["viewshed"],
           before.get("viewshed"))

    # 3. The whole-map analysis.
    result = analyze(cmap)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    report(f"whole-map analysis, {result.pairs:,} pairs", result.seconds, base_pair * result.pairs, AIMS["analysis"],
           before.get("analysis"))
    print(f"  peak memory of this process: {peak_mb:.0f} MB (aim: under 2,048 MB)")
    counts = np.array([result.clear.sum(), result.hindered.sum(), result.blocked.sum(), result.blind.sum()]) // 2
    print(f"  pairs clear/hindered/blocked/blind: {counts.tolist()}")


def report(what, ours, baseline, aim, before=None):
    then = f"  before {fmt(before)}: {ours / before:.2f} of it" if before else ""
    print(f"{what}: {fmt(ours)}  (aim {fmt(aim)}: {ours / aim:.2f} of it){then}  "
          f"naive baseline {fmt(baseline)}  -> speed-up {baseline / ours:.2f}x")


def fmt(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


if __name__ == "__main__":
    main()
