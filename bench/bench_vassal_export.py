"""A 60 x 40 scenario as a VASSAL module (issue 21, acceptance: under 5 s and under 20 MB).

The scenario is the Hill 112 sample with its map replaced by a random 60 x 40 Old School Tactical map (terrain on
a third of its hexes, hills, 300 hexsides), each side holding 120 counters placed across a setup zone of ten
columns, with reinforcements on three turns. Printed: the time (best of 3) and the module's size for the module
both sides play and a side's view, at the default board (19 mm hexes at 100 dpi) and at 150 dpi, each with its
ratio to the target.
Run: .venv/bin/python bench/bench_vassal_export.py
"""

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_S, TARGET_MB = 5.0, 20.0


def scenario():
    from engine.generate import random_map
    from engine.mapfile.writing import to_dict
    from engine.scenarios import scenariofile

    map_doc = random_map("ost", 60, 40, seed=7, name="Bench 60x40")
    data = json.loads((ROOT / "authoring" / "samples" / "hill-112.json").read_text())
    data["maps"] = [{"key": "hill", "document": to_dict(map_doc), "placement": [0, 0], "rotation": 0}]
    data["play_area"] = None
    data["objectives"] = []
    data["markers"] = []
    for n, side in enumerate(data["sides"]):
        columns = range(0, 10) if n else range(50, 60)
        zone = [map_doc.grid.label(c, r) for c in columns for r in range(40)]
        side["setup_zone"] = zone
        side["victory"] = None
        side["oob"] = [{**side["oob"][0], "id": f"u{k}", "unit": f"Squad {k}", "count": 3, "hidden": k % 10 == 0}
                       for k in range(45)]
        side["placements"] = [{"unit": f"u{k // 3}", "hex": zone[(k * 7) % len(zone)], "facing": None}
                              for k in range(120)]
        side["reinforcements"] = [{"turn": t, "units": [{"unit": f"u{40 + t}", "count": 3}], "edge": "N",
                                   "hexes": [], "note": ""} for t in (2, 3, 4)]
    return scenariofile.parse(json.dumps(data))


def main():
    from engine.exports import vassal_scenario

    doc = scenario()
    print("60 x 40 scenario, 240 placed counters, 2 x 3 turns of reinforcements")
    first = doc.data["sides"][0]["id"]
    for label, side, dpi in (("to play, 100 dpi", None, 100), ("a side's view, 100 dpi", first, 100),
                             ("to play, 150 dpi", None, 150)):
        times = []
        for _ in range(3):
            start = time.perf_counter()
            module = vassal_scenario.scenario_module(doc, side=side, dpi=dpi)
            times.append(time.perf_counter() - start)
        seconds, mb = min(times), len(module) / 1e6
        print(f"{label:18s} {seconds:5.2f} s ({seconds / TARGET_S:.2f} of {TARGET_S:g} s)   "
              f"{mb:5.2f} MB ({mb / TARGET_MB:.2f} of {TARGET_MB:g} MB)")


if __name__ == "__main__":
    main()
