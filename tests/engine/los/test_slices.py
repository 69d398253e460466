"""Large maps are answered slice by slice, each slice traced for its own line shapes (issue 7, point 1): the
answers are those of the whole grid's tables, for every ruleset, and the tables never hold every shape."""

import numpy as np
import pytest

from engine import rulesets
from engine.generate import random_map
from engine.los import engine, tables
from tests.engine.los.helpers import all_pairs

RULESETS = rulesets.builtin_ids()


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("orientation,stagger", [("flat", "even"), ("pointy", "odd")])
def test_slices_answer_as_the_whole_grid(ruleset, orientation, stagger, monkeypatch):
    cmap = engine.compile_map(random_map(ruleset, 13, 11, seed=5, orientation=orientation, stagger=stagger,
                                         hexsides=40))
    rules = engine.rules_for(cmap)
    a, b = all_pairs(cmap.n)
    levels = rules.unit_levels()
    whole = rules.batch(a, b, levels[a], levels[b])
    monkeypatch.setenv("HEXSIDE_LOS_TABLE_MB", "0.02")  # about 600 steps: a few lines a slice
    grid = cmap.grid
    assert not tables.full_tables_fit(grid.orientation, grid.columns, grid.rows, grid.stagger)
    pieces = list(tables.slices(grid, a[:4000], b[:4000]))
    assert len(pieces) > 20
    assert max(t.n_steps for _, t in pieces) < tables.trace_tables(grid.orientation, grid.columns, grid.rows,
                                                                   grid.stagger).n_steps // 20
    sliced = rules.answer_pairs(a, b, levels[a], levels[b])
    for got, expected in zip(sliced, whole, strict=False):
        assert np.array_equal(got, expected)


def test_counts_answered_a_few_pairs_at_a_time_are_the_whole_analysis_counts():
    cmap = engine.compile_map(random_map("ost", 12, 9, seed=8, hexsides=30))
    whole = engine.analyze(cmap, height=1)
    counts, pairs = engine.count_pairs(cmap, 0, cmap.n, height=1, max_pairs=50)
    assert pairs == whole.pairs == cmap.n * (cmap.n - 1) // 2
    for row, name in enumerate(("clear", "hindered", "blocked", "blind")):
        assert counts[row].tolist() == getattr(whole, name).tolist()
    assert counts[2].sum() > 0 and counts[0].sum() > 0  # not a trivial map


def test_a_viewshed_of_a_map_past_the_budget_never_traces_the_whole_grid(monkeypatch):
    """The root of the 23 GB viewshed: every line shape of the grid traced for one observer's n lines."""
    cmap = engine.compile_map(random_map("ats", 17, 13, seed=4, hexsides=30))
    monkeypatch.setenv("HEXSIDE_LOS_TABLE_MB", "0.05")
    tables.trace_tables.cache_clear()
    built = []
    monkeypatch.setattr(tables, "_build", lambda *args, real=tables._build: built.append(real(*args)) or built[-1])
    shed = engine.viewshed(cmap, "I7")
    assert tables.trace_tables.cache_info().misses == 0  # the whole grid's tables were never asked for
    whole = tables.trace_tables(cmap.grid.orientation, cmap.grid.columns, cmap.grid.rows, cmap.grid.stagger)
    assert len(built) > 1 and max(t.n_steps for t in built[:-1]) < whole.n_steps // 4
    monkeypatch.delenv("HEXSIDE_LOS_TABLE_MB")
    assert engine.viewshed(cmap, "I7") == shed  # the same answer from the whole grid's tables
