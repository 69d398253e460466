"""The mapping step's proposal and preview for a 100 x 100 source, against the 2 s the issue asks (issue 19).

A Wesnoth map of 100 x 100 hexes (grass, forest, hills, water, villages, and codes the default mapping lacks) is
converted with the default mapping and proposed (what the batch job does once), then previewed with the proposal
and with an edited mapping (what the page's job does at each change). The CPU time is printed too: on a shared
machine the wall time is the load's as much as the work's.
Run: .venv/bin/python bench/bench_mapping_preview.py
"""

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import importers  # noqa: E402
from engine.importers import preview, suggest  # noqa: E402

AIM_SECONDS = 2.0
# The preview checks the map as the report does, with the LOS sample of hexside/settings.py's defaults.
CHECKS = {"los_pairs": 24, "los_seconds": 1.0}
CODES = ["Gg", "Gs", "Gs^Fp", "Hh", "Mm", "Ww", "Wo", "Re", "Gg^Vh", "Sm", "Qxu", "Xu", "Gs^Qhu", "Dd^Dr"]


def wesnoth_map(size=100, seed=19):
    rng = random.Random(seed)
    rows = []
    for _ in range(size + 2):  # a border of one all round, as Wesnoth writes it
        rows.append(", ".join(rng.choice(CODES) for _ in range(size + 2)))
    return ("\n".join(rows) + "\n").encode()


def main():
    upload = importers.Upload("big.map", wesnoth_map())
    cpu = time.process_time()
    started = time.perf_counter()
    proposal, _findings = suggest.suggest(upload, ruleset="ost")
    proposed = time.perf_counter() - started
    started = time.perf_counter()
    png, groups, hexes = preview.preview(upload, proposal, ruleset="ost", **CHECKS)
    drawn = time.perf_counter() - started
    cpu = time.process_time() - cpu
    edited = dict(proposal, terrain={**proposal["terrain"], "Sm": "marsh", "Qxu": {"terrain": [], "flag": True}})
    started = time.perf_counter()
    preview.preview(upload, edited, ruleset="ost", **CHECKS)
    again = time.perf_counter() - started
    total = proposed + drawn
    assert png and hexes == 100 * 100, (hexes, groups)
    print(f"100 x 100 Wesnoth source ({len(proposal['terrain'])} codes): proposal {proposed:.2f} s, preview "
          f"{drawn:.2f} s ({len(png):,} bytes of PNG), preview after an edit {again:.2f} s")
    print(f"proposal + preview: {total:.2f} s, {total / AIM_SECONDS:.2f} of the {AIM_SECONDS:g} s aim; "
          f"a preview alone {again / AIM_SECONDS:.2f} of it")
    print(f"CPU time of proposal + preview: {cpu:.2f} s, {cpu / AIM_SECONDS:.2f} of the aim (the wall time above "
          "grows with the machine's load)")


if __name__ == "__main__":
    main()
