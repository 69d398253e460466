"""The size of a viewshed job's answer on the largest map (issue 17, point 12): as one JSON object per hex (main
before this issue, about 40 MB for 500 x 500) and packed (engine.los.packed, aim at most 4 MB), with the time to
write each and to unpack the packed one.

Run: .venv/bin/python bench/bench_viewshed_size.py [--size 500]
The seeded OST map is made once into var/bench/ (as bench/bench_memory.py makes it).
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexside.settings")

from engine import mapfile  # noqa: E402
from engine.generate import random_map  # noqa: E402
from engine.los import packed  # noqa: E402
from engine.los.engine import compile_map, viewshed_answer  # noqa: E402

AIM_BYTES = 4 * 1024 * 1024
MAPS_DIR = ROOT / "var" / "bench"


def map_doc(size):
    path = MAPS_DIR / f"ost-{size}x{size}.json"
    if not path.exists():
        MAPS_DIR.mkdir(parents=True, exist_ok=True)
        doc = random_map("ost", size, size, seed=7, cover=1 / 3, hills=max(8, size * size // 2000),
                         hexsides=size * size // 10)
        path.write_text(mapfile.dumps(doc))
    return mapfile.parse(path.read_text())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=500)
    size = parser.parse_args().size
    cmap = compile_map(map_doc(size))
    shed = viewshed_answer(cmap, cmap.label(cmap.n // 2 + size // 2))
    started = time.perf_counter()
    before = "".join(shed.json_pieces()).encode()
    before_s = time.perf_counter() - started
    started = time.perf_counter()
    after = json.dumps(shed.packed()).encode()
    after_s = time.perf_counter() - started
    started = time.perf_counter()
    same = packed.unpack(json.loads(after), cmap.label) == json.loads(before)
    unpack_s = time.perf_counter() - started
    mb = 1024 * 1024
    print(f"{size}x{size} viewshed, one JSON object per hex (before): {len(before) / mb:.1f} MB, written in "
          f"{before_s:.2f} s")
    print(f"{size}x{size} viewshed, packed (after): {len(after) / mb:.2f} MB, written in {after_s:.2f} s, unpacked "
          f"in {unpack_s:.2f} s, the same answer: {same}")
    print(f"after / before: {len(after) / len(before):.4f} ({len(before) / len(after):.0f} times smaller); "
          f"{len(after) / AIM_BYTES:.2f} of the 4 MB aim")


if __name__ == "__main__":
    main()
