"""How long the scenario checks of the largest sample take, and the sight lines of a scenario on a 60 x 40 map
with 50 setup hexes per side, in one process (what one worker does).

    .venv/bin/python bench/bench_scenarios.py [--repeat 5]

Aims: checks under 1 s, sight lines under 5 s. Each figure is the best of --repeat runs after one warm-up run
(the warm-up compiles the LOS kernels, which numba caches on disk).
"""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexside.settings")
os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import django  # noqa: E402

django.setup()

from engine import mapfile  # noqa: E402
from engine.generate import random_map  # noqa: E402
from engine.scenarios import checks as scenario_checks  # noqa: E402
from engine.scenarios import scenariofile  # noqa: E402
from engine.scenarios.sightlines import sight_lines_of  # noqa: E402

CHECKS_AIM = 1.0
SIGHT_AIM = 5.0


def best(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def big_scenario():
    """A 60 x 40 OST map (seeded), two sides with 50 setup hexes each (10 x 5 blocks at either end), 5
    objectives between them and an entry edge each."""
    mdoc = random_map("ost", 60, 40, seed=7)
    grid = mdoc.grid

    def block(c0, r0):
        return [grid.label(c, r) for c in range(c0, c0 + 10) for r in range(r0, r0 + 5)]

    objectives = [{"id": f"o{k}", "hex": grid.label(20 + 4 * k, 15 + 2 * k), "name": f"Objective {k + 1}"}
                  for k in range(5)]
    sides = []
    for sid, name, c0, edge in (("blue", "Blue", 2, "W"), ("red", "Red", 48, "E")):
        sides.append({"id": sid, "name": name, "fields": {"gut_check": 7, "impulse": "2D6+3"},
                      "oob": [{"id": "sq", "unit": "Rifle Squad", "count": 10}],
                      "setup_zone": block(c0, 17),
                      "reinforcements": [{"turn": 3, "units": [{"unit": "sq", "count": 2}], "edge": edge}],
                      "victory": {"kind": "control", "objectives": ["o2"]}})
    data = {"format": scenariofile.FORMAT, "version": 1, "title": "Sight-line bench", "ruleset": "ost",
            "maps": [{"key": "m", "document": mapfile.to_dict(mdoc)}], "turns": {"count": 10},
            "sides": sides, "objectives": objectives}
    return scenariofile.parse(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    maps = scenariofile.folder_maps(ROOT / "maps" / "samples")
    samples = sorted((ROOT / "authoring" / "samples").glob("*.json"), key=lambda p: p.stat().st_size)
    largest = samples[-1]
    doc = scenariofile.parse(largest.read_bytes(), maps)
    seconds = best(lambda: scenario_checks.check(doc), args.repeat)
    print(f"checks of the largest sample ({largest.name}): {seconds * 1000:.1f} ms "
          f"(aim {CHECKS_AIM:g} s: {seconds / CHECKS_AIM:.4f} of it)")
    parse_and_check = best(lambda: scenario_checks.check(scenariofile.parse(largest.read_bytes(), maps)), args.repeat)
    print(f"  read and checked from the file: {parse_and_check * 1000:.1f} ms")
    big = big_scenario()
    seconds = best(lambda: sight_lines_of(big), args.repeat)
    result = sight_lines_of(big)
    print(f"sight lines, 60 x 40 map, 50 setup hexes per side, 5 objectives: {seconds:.3f} s "
          f"(aim {SIGHT_AIM:g} s: {seconds / SIGHT_AIM:.3f} of it)")
    for side in result["sides"].values():
        print(f"  {side['sentence']}")


if __name__ == "__main__":
    main()
