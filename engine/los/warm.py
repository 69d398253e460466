"""Compile every ruleset's kernels ahead of time, into numba's cache, so a fresh process answers at once.

numba compiles a kernel the first time it is called with a new kind of arguments (about 30 s for all of them)
and, with ``cache=True``, keeps the machine code on disk (NUMBA_CACHE_DIR; Hexside's setting
HEXSIDE_NUMBA_CACHE_DIR, default var/numba-cache). `manage.py warm_kernels` runs :func:`warm` during setup: it
asks each ruleset what a worker asks (a viewshed, an analysis part big enough for the threaded kernel, the line
tables of a whole grid and of a slice), so every kernel is compiled for the arguments the jobs give it.
"""

import time

import numpy as np

from engine import rulesets as registry
from engine.generate import random_map
from engine.los import engine, tables

RULESETS = registry.builtin_ids()


def warm(rulesets=RULESETS):
    """[(ruleset, seconds)]: each ruleset's kernels compiled (or loaded from the cache)."""
    out = []
    for ruleset in rulesets:
        started = time.perf_counter()
        cmap = engine.compile_map(random_map(ruleset, 15, 14, seed=1, hexsides=30))
        engine.viewshed(cmap, "H7")
        engine.analyze_pairs(cmap, 0, cmap.n)  # 21,945 pairs: the threaded kernel too
        rules = engine.rules_for(cmap)
        a, b = np.zeros(3, np.int32), np.arange(3, dtype=np.int32)
        grid = cmap.grid
        for part, sliced in tables.slices(grid, a, b):  # the sliced path of large maps
            rules._slice_tables = sliced
            try:
                rules.batch(a[part], b[part], a[part], a[part])
            finally:
                rules._slice_tables = None
        out.append((ruleset, time.perf_counter() - started))
    return out


def compile_events(fn, *args):
    """(fn's value, how many numba compilations it caused): 0 when everything came from the cache."""
    from numba.core import event

    seen = []

    class Listener(event.Listener):
        def on_start(self, ev):
            seen.append(ev.data)

        def on_end(self, ev):
            pass

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        value = fn(*args)
    finally:
        event.unregister("numba:compile", listener)
    return value, len(seen)
