"""The sight instruments on the issue's benchmark map (bench/bench_los.py's seeded 60 x 40 Old School Tactical
board), each beside the naive way timed in the same run.

    .venv/bin/python bench/bench_sight.py [--seed N] [--observers 2000] [--sample 300]

- exposure from 2,000 observers (engine.los.sight.exposure: the batch kernel, each pair of two observers once)
  beside one viewshed per observer (the batch kernel, no pair shared) and beside single reference answers
  (engine.los.engine.line_of_sight, one per observer and hex: timed on --sample pairs and scaled);
- the least-exposed route across the map from a 200-hex zone's observers: the exposure and the Dijkstra
  (heapq), beside the same exposure asked by single reference answers (sampled and scaled);
- what a 10-hex edit changed (engine.los.changes.diff: only the lines through the edit traced again) beside two
  whole-map analyses (engine.los.engine.analyze), both measured here, and its ratio to them: a wood of ten hexes
  in the middle of the map (the most lines cross it) and a hedge along ten hexsides near the west edge.

The kernels (engine/games/*/los/kernel.py) are not this bench's: their own speed is bench/bench_los.py's.
"""

import argparse
import copy
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from engine.generate import random_map  # noqa: E402
from engine.los import changes, engine, sight  # noqa: E402
from engine.mapfile import Cell  # noqa: E402


def timed(fn, *args, **kwargs):
    started = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - started


def reference_rate(cmap, pairs):
    """Seconds a single reference answer takes, from a sample of pairs."""
    started = time.perf_counter()
    for a, b in pairs:
        engine.line_of_sight(cmap, cmap.label(a), cmap.label(b))
    return (time.perf_counter() - started) / max(1, len(pairs))


def row(what, seconds, baseline, how):
    print(f"{what:<44} {seconds:8.3f} s   {how:<44} {baseline:9.2f} s   x{baseline / max(seconds, 1e-9):7.1f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--observers", type=int, default=2000)
    parser.add_argument("--sample", type=int, default=300, help="reference answers timed for the naive figures")
    args = parser.parse_args()
    doc = random_map("ost", 60, 40, seed=args.seed, cover=1 / 3, hills=10, hexsides=300)
    cmap = engine.compile_map(doc)
    n = cmap.n
    rng = random.Random(args.seed)
    sight.exposure(cmap, [0, 1])  # the kernel compiled and the tables built before anything is timed
    sample = [(rng.randrange(n), rng.randrange(n)) for _ in range(args.sample)]
    per_answer = reference_rate(cmap, sample)
    print(f"60 x 40 OST map (seed {args.seed}), {n} hexes; a reference answer takes {per_answer * 1e3:.2f} ms")

    observers = rng.sample(range(n), args.observers)
    result, seconds = timed(sight.exposure, cmap, observers)
    rules = engine.rules_for(cmap)
    _, per_viewshed = timed(lambda: [engine.viewshed_answer(cmap, cmap.label(o)) for o in observers[:100]])
    viewsheds = per_viewshed / 100 * len(observers)
    row(f"exposure, {len(observers)} observers", seconds, viewsheds, "one viewshed per observer")
    row("", seconds, per_answer * len(observers) * n, "single reference answers (scaled)")
    print(f"{'':<44} {result.pairs} pairs answered, not {len(observers) * n}")

    zone = [cmap.grid.index(c, r) for c in range(50, 60) for r in range(10, 30)]
    start, goal = cmap.grid.index(0, 20), cmap.grid.index(45, 20)
    counts, exposure_seconds = timed(lambda: sight.exposure(cmap, zone).seen)
    route, route_seconds = timed(sight.least_exposed_route, cmap, counts, start, goal, rules.catalogue.unit_classes[0])
    report = sight.route_report(cmap, route, counts)
    row(f"least-exposed route, {len(zone)} observers", exposure_seconds + route_seconds,
        per_answer * len(zone) * n + route_seconds, "exposure by single reference answers")
    print(f"{'':<44} of which the Dijkstra {route_seconds * 1e3:.1f} ms; {report['length']} hexes, exposure "
          f"{report['exposure']}, {100 * report['share_seen']:.0f}% seen")

    _, full_seconds = timed(lambda: (engine.analyze(cmap), engine.analyze(engine.compile_map(doc))))
    blob = copy.deepcopy(doc)
    for k in range(10):  # a wood, two hexes thick, in the middle of the map: the most lines cross it
        blob.hexes[(28 + k % 2, 16 + k // 2)] = Cell(terrain=("woods",), level=0)
    hedge = copy.deepcopy(doc)
    for k in range(10):  # a hedge along ten hexsides from F4 down, as the example
        hedge.hexsides[(5, 3 + k // 2, 1 + k % 2)] = "hedge"
    for what, edited in (("a 10-hex wood in the middle", blob), ("a 10-hexside hedge from F4", hedge)):
        new = engine.compile_map(edited)
        changes.diff(cmap, new)  # its marking compiled before it is timed
        diff, diff_seconds = timed(changes.diff, cmap, new)
        row(f"diff after {what}", diff_seconds, full_seconds, "two whole-map analyses")
        print(f"{'':<44} {diff.traced} pairs traced again of {n * (n - 1) // 2}; ratio to two analyses "
              f"{diff_seconds / full_seconds:.3f} (aim: under 0.1)")
        print(f"{'':<44} {diff.sentence}")
    assert np.all(result.seen >= 0)


if __name__ == "__main__":
    main()
