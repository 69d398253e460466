"""The compiled kernels on the maps of bench/bench_los.py (seeded 60 x 40, a third not open, hills, 300 hexside
features), whose lines are as long as a whole-map analysis's: on random pairs at random levels the fast path
answers as the reference does, both ways. test_reference_vs_batch.py checks every pair of small maps."""

import numpy as np
import pytest

from engine.generate import random_map
from engine.los.engine import compile_map, rules_for
from tests.engine.los.helpers import agree_on_every_pair

# A level step of each game: OST counts levels one by one, ATS in feet (+5 a hillock, +10 a hill level).
LEVEL_STEP = {"ost": 1, "ats": 5}


@pytest.mark.parametrize("ruleset", sorted(LEVEL_STEP))
def test_kernel_answers_as_the_reference_on_the_benchmark_map(ruleset):
    cmap = compile_map(random_map(ruleset, 60, 40, seed=112, cover=1 / 3, hills=10, hexsides=300))
    rules = rules_for(cmap)
    rng = np.random.default_rng(29)
    a, b = rng.integers(0, cmap.n, (2, 300)).astype(np.int32)
    levels = rules.unit_levels()
    la = levels[a] + LEVEL_STEP[ruleset] * rng.integers(0, 3, a.size)
    lb = levels[b] + LEVEL_STEP[ruleset] * rng.integers(0, 2, b.size)
    seen = agree_on_every_pair(rules, a, b, la, lb)
    assert {("clear", False), ("blocked", False)} <= seen, seen
