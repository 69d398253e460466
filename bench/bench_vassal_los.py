"""Hexside's LOS table in a VASSAL module (issue 26 item 6, acceptance: a 60 x 40 map's table exported in at most
10 s and at most 2 MB inside the module).

The map is the random 60 x 40 Old School Tactical map of bench/bench_vassal_export.py (terrain on a third of its
hexes, hills, buildings of several storeys); the table answers every pair of places a unit may stand there (each
hex at each of its levels), past the reasons' bound (engine/exports/vassal_los.py). Printed per game's random 60 x 40
map: the wall time (best of 2; the kernels compiled first), the CPU time of that run (all threads: what it costs on
an idle machine's cores) and the table's size as it is in the module, each with its ratio to the target; then a sample
map's whole table, reasons included.
Run: .venv/bin/python bench/bench_vassal_los.py
"""

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_S, TARGET_MB = 10.0, 2.0


def timed(make):
    best = None
    for _ in range(2):
        wall, cpu = time.perf_counter(), time.process_time()
        data = make()
        run = (time.perf_counter() - wall, time.process_time() - cpu, data)
        best = run if best is None or run[0] < best[0] else best
    return best


def main():
    from engine import mapfile
    from engine.exports import vassal_los
    from engine.generate import random_map

    vassal_los.table_bytes(random_map("ost", 6, 4, seed=1, hexsides=5))  # compile the kernels: not the export's cost
    for game in ("ost", "ats", "miniatures", "tocs", "assault"):
        doc = random_map(game, 60, 40, seed=7, name="Bench 60x40")
        wall, cpu, table = timed(lambda doc=doc: vassal_los.table_bytes(doc))
        mb = len(table) / 1e6
        print(f"{game:10s} 60 x 40: {wall:5.2f} s ({wall / TARGET_S:.2f} of {TARGET_S:g} s), CPU {cpu:5.2f} s "
              f"({cpu / TARGET_S:.2f}), table {mb:4.2f} MB ({mb / TARGET_MB:.2f} of {TARGET_MB:g} MB), "
              f"status {table and vassal_los.zlib.decompress(table)[6]}")
    doc = mapfile.parse((ROOT / "maps" / "samples" / "nijmegen-approaches.json").read_bytes())
    wall, cpu, table = timed(lambda: vassal_los.table_bytes(doc))
    print(f"sample nijmegen-approaches (22 x 16, with reasons): {wall:5.2f} s, CPU {cpu:5.2f} s, "
          f"table {len(table) / 1e6:4.2f} MB")


if __name__ == "__main__":
    main()
