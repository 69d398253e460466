"""What a reader's view of a scenario costs the web process (engine.scenarios.visibility.view): every read of a
scenario by anyone but its owner (the API's scenario, a revision, the file, the page's note) now takes one.

    .venv/bin/python bench/bench_visibility.py [--repeat 20]

The scenario is Hill 112 grown to the format's limits (limits.OOB_LINES per side, limits.PLACEMENTS per side,
limits.MARKERS, every tenth line hidden, a mine every fifth marker). The baseline ("before") is what each such
read already did: copy the stored document (Scenario.document_of). Printed: milliseconds per call for the copy,
the public view and one side's view, and each view's ratio to the copy.
"""

import argparse
import copy
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.scenarios import limits, visibility  # noqa: E402


def big_scenario():
    data = json.loads((ROOT / "authoring" / "samples" / "hill-112.json").read_text(encoding="utf-8"))
    for side in data["sides"]:
        template = side["oob"][0]
        side["oob"] = [{**template, "id": f"u{n}", "name": f"Unit {n}", "hidden": n % 10 == 0}
                       for n in range(limits.OOB_LINES)]
        zone = side["setup_zone"]
        side["placements"] = [{"unit": f"u{n % limits.OOB_LINES}", "hex": zone[n % len(zone)], "facing": None}
                              for n in range(limits.PLACEMENTS)]
    zone = data["sides"][0]["setup_zone"]
    data["markers"] = [{"kind": "mines" if n % 5 == 0 else "foxholes", "hex": zone[n % len(zone)], "side": "german",
                        "count": 1, "facing": None, "note": ""} for n in range(limits.MARKERS)]
    return data


def per_call(fn, repeat):
    fn()
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    data = big_scenario()
    baseline = per_call(lambda: copy.deepcopy(data), args.repeat)
    public = per_call(lambda: visibility.view(data, set()), args.repeat)
    side = per_call(lambda: visibility.view(data, {"german"}), args.repeat)
    print(f"copy of the document (before): {baseline:.1f} ms")
    print(f"public view:                  {public:.1f} ms  ({public / baseline:.2f}x the copy)")
    print(f"one side's view:              {side:.1f} ms  ({side / baseline:.2f}x the copy)")


if __name__ == "__main__":
    main()
