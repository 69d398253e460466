"""Issue 17, point 1: sight lines go through the rules' sliced path a bounded chunk at a time, so a map past the
line-table budget never has its whole grid's tables built; their cost is bounded from the scenario before
they are queued."""

import copy

import numpy as np
import pytest

from engine.generate import random_map
from engine.los import engine, tables
from engine.scenarios import scenariofile, sightlines
from engine.scenarios.sightlines import pairs_bound, pairs_of, sight_lines_of
from tests.scenarios.conftest import SAMPLES, SMALL, parse


def big_scenario(columns=17, rows=13):
    """SMALL on a random OST map, the blue zone a whole column, red's the opposite one."""
    mdoc = random_map("ost", columns, rows, seed=3, hexsides=30)
    data = copy.deepcopy(SMALL)
    data["maps"] = [{"key": "m", "document": scenariofile.mapfile.to_dict(mdoc)}]
    grid = mdoc.grid
    data["sides"][0]["setup_zone"] = [grid.label(0, r) for r in range(rows)]
    data["sides"][0]["placements"] = [{"unit": "sq", "hex": grid.label(0, 0)}]
    data["sides"][1]["setup_zone"] = [grid.label(columns - 1, r) for r in range(rows)]
    data["sides"][1]["placements"] = [{"unit": "sq", "hex": grid.label(columns - 1, 0)}]
    data["objectives"][0]["hex"] = grid.label(columns // 2, rows // 2)
    return parse(data)


def test_sight_lines_past_the_table_budget_never_build_the_whole_grid_and_answer_the_same(monkeypatch):
    doc = big_scenario()
    whole = sight_lines_of(doc)
    monkeypatch.setenv("HEXSIDE_LOS_TABLE_MB", "0.05")
    grid = doc.maps[doc.main_key].grid
    assert not tables.full_tables_fit(grid.orientation, grid.columns, grid.rows, grid.stagger)
    tables.trace_tables.cache_clear()
    monkeypatch.setattr(sightlines, "PAIRS_PER_CHUNK", 500)  # many chunks, each through the slices
    sliced = sight_lines_of(doc)
    assert tables.trace_tables.cache_info().misses == 0
    whole.pop("seconds"), sliced.pop("seconds")
    assert sliced == whole


def test_the_whole_grids_tables_are_refused_where_they_do_not_fit(monkeypatch):
    cmap = engine.compile_map(random_map("ost", 17, 13, seed=3))
    rules = engine.rules_for(cmap)
    monkeypatch.setenv("HEXSIDE_LOS_TABLE_MB", "0.05")
    a, b = np.zeros(3, np.int32), np.arange(3, dtype=np.int32)
    with pytest.raises(tables.TablesTooLarge):
        rules.batch(a, b, a, a)
    assert len(rules.answer_pairs(a, b, a, a)[0]) == 3  # the sliced path answers


def test_the_bound_from_the_document_is_never_below_the_lines_traced(sample_maps):
    docs = [scenariofile.parse(p.read_bytes(), sample_maps) for p in SAMPLES] + [big_scenario()]
    for doc in docs:
        grid = doc.maps[doc.main_key].grid
        assert pairs_bound(doc.data, grid.columns, grid.rows) >= pairs_of(doc) > 0, doc.data["title"]
