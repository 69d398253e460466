"""The print-and-play kit of a 60 x 40 scenario (engine/exports/kit.py): the designer's whole kit (public card,
both sides' sheets, the map at 19 mm hexes on A4 pages, the counter sheets) in under 15 s and under 50 MB.

The scenario is Hill 112's (OST) on a 60 x 40 random map, its play area the whole map and each OOB line's count
multiplied so that each side has about 150 counters. Prints each figure and its ratio to its bound.

    .venv/bin/python bench/bench_kit.py [--repeat 3]
"""

import argparse
import io
import json
import resource
import statistics
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BOUNDS = {"seconds": 15.0, "mb": 50.0}


def scenario():
    from engine.generate import random_map
    from engine.scenarios import scenariofile

    board = random_map("ost", 60, 40, seed=7, name="Bench 60x40")
    data = json.loads((ROOT / "authoring" / "samples" / "hill-112.json").read_text())
    data["maps"] = [{"key": "hill", "name": board.name, "placement": [0, 0], "rotation": 0}]
    data["play_area"] = {"corners": [board.grid.label(0, 0), board.grid.label(59, 39)]}
    for side in data["sides"]:
        for unit in side["oob"]:
            unit["count"] *= 12
    return scenariofile.parse(data, lambda entry: board)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from engine.exports import kit
    from engine.scenarios import visibility

    doc = scenario()
    counters = sum(u["count"] for side in doc.data["sides"] for u in side["oob"])
    times, content = [], b""
    for _ in range(args.repeat):
        start = time.perf_counter()
        content = kit.kit_zip(doc, visibility.ALL, paper="a4", hex_mm=19.0, counter_size="5/8in")
        times.append(time.perf_counter() - start)
    seconds = statistics.median(times)
    mb = len(content) / 1e6
    files = zipfile.ZipFile(io.BytesIO(content)).infolist()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"60x40 scenario's kit ({counters} unit counters, {len(files)} files): median {seconds:.2f} s of "
          f"{args.repeat} (bound {BOUNDS['seconds']:.0f} s, ratio {seconds / BOUNDS['seconds']:.2f}), "
          f"{mb:.2f} MB (bound {BOUNDS['mb']:.0f} MB, ratio {mb / BOUNDS['mb']:.3f}); peak RSS {peak:.0f} MB")
    for info in files:
        print(f"  {info.filename}: {info.file_size / 1e3:.0f} kB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
