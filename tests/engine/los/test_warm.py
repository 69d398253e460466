"""First answer fast (issue 7, point 8): after `manage.py warm_kernels`, a fresh process loads every kernel from
numba's cache (HEXSIDE_NUMBA_CACHE_DIR) instead of compiling it: counted with numba's own compile events."""

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[3]

FIRST_ANSWERS = """
import json
from engine.generate import random_map
from engine.los import engine
from engine.los.warm import RULESETS, compile_events

def first_answers():
    for ruleset in RULESETS:
        cmap = engine.compile_map(random_map(ruleset, 16, 14, seed=9, hexsides=20))
        engine.viewshed(cmap, "C4")
        engine.analyze_pairs(cmap, 0, cmap.n)
        engine.line_of_sight(cmap, "A1", "P9")

print(json.dumps(compile_events(first_answers)[1]))
"""


def test_a_fresh_process_after_warm_up_compiles_no_kernel(capsys):
    call_command("warm_kernels")
    assert "kernels ready" in capsys.readouterr().out
    cache = Path(settings.HEXSIDE_NUMBA_CACHE_DIR)
    assert list(cache.rglob("*.nbi")) and list(cache.rglob("*.nbc"))  # numba's index and code files
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", FIRST_ANSWERS], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == 0  # compilations in the fresh process
