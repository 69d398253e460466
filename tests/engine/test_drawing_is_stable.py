"""Two processes draw the same picture of the same map: no drawing depends on the process's hash seed."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Samples whose terrain has patterns, rubble among them (the pattern drawn from random numbers).
SAMPLES = ["hill-112", "oosterbeek-crossroads"]

DRAW = """
import json, sys
from pathlib import Path
from engine import mapfile, render
from engine.los.engine import compile_map
root, out = Path(sys.argv[1]), Path(sys.argv[2])
for name in sys.argv[3:]:
    doc = mapfile.parse(json.loads((root / "maps" / "samples" / f"{name}.json").read_text()))
    render.render_map(compile_map(doc)).save(out / f"{name}.png", "PNG")
"""


def draw(out, seed):
    out.mkdir()
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    subprocess.run([sys.executable, "-c", DRAW, str(ROOT), str(out), *SAMPLES], cwd=ROOT, env=env, check=True,
                   timeout=300)
    return {name: (out / f"{name}.png").read_bytes() for name in SAMPLES}


def test_two_processes_with_different_hash_seeds_draw_identical_pngs(tmp_path):
    first, second = draw(tmp_path / "one", 1), draw(tmp_path / "two", 2)
    for name in SAMPLES:
        assert first[name] == second[name], f"{name}: the two processes drew different pictures"
