"""A viewshed packed for the job's store and the page (issue 17, point 12): a 500 x 500 map's answer in at most
4 MB (as one JSON object per hex it was about 40 MB), unpacking to the very answer."""

import json
from pathlib import Path

import numpy as np
import pytest

from engine import mapfile
from engine.generate import random_map
from engine.hexgrid import Grid
from engine.los import packed
from engine.los.engine import Viewshed, compile_map, rules_for, viewshed_answer

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = sorted((ROOT / "maps" / "samples").glob("*.json"))
PACKED_LIMIT = 4 * 1024 * 1024


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_a_packed_viewshed_unpacks_to_the_viewshed(path):
    cmap = compile_map(mapfile.parse(path.read_text()))
    for observer, level in ((0, None), (cmap.n // 3, 2), (cmap.n - 1, None)):
        shed = viewshed_answer(cmap, cmap.label(observer), level)
        text = json.dumps(shed.packed())
        assert packed.unpack(json.loads(text), cmap.label) == shed.as_dict()
        assert len(text) < len("".join(shed.json_pieces())) / 5


def test_a_one_hex_viewshed_packs():
    cmap = compile_map(random_map("ats", 1, 1, seed=1, hexsides=0))
    shed = viewshed_answer(cmap, cmap.label(0))
    assert packed.unpack(shed.packed(), cmap.label) == shed.as_dict()


def test_the_largest_map_s_viewshed_packs_within_4_mb_whatever_its_answers():
    """The worst case for its size: a 500 x 500 map whose every hex answers at random (no runs to deflate)."""
    grid = Grid("flat", 500, 500, "even", "letter-number")
    cmap = compile_map(mapfile.parse({"format": "hexside-map", "version": 1, "name": "Largest", "ruleset": "ost",
                                      "grid": grid.as_dict(), "hexes": []}))
    rng = np.random.default_rng(17)
    n = cmap.n
    shed = Viewshed(cmap, rules_for(cmap), cmap.label(n // 2), 3,
                    rng.integers(-3, 40, n).astype(np.int32), rng.integers(0, 3, n).astype(np.int8),
                    rng.integers(0, 8, n).astype(np.int16), rng.integers(0, 2, n).astype(bool))
    text = json.dumps(shed.packed())
    assert len(text.encode()) <= PACKED_LIMIT, len(text)
    back = packed.unpack(json.loads(text), cmap.label)
    assert back == shed.as_dict()
    assert len(back["hexes"]) == 250_000


def test_something_else_is_not_taken_for_a_packed_viewshed():
    with pytest.raises(ValueError, match="not a packed viewshed"):
        packed.unpack({"from": "A1", "level": 0, "hexes": {}}, str)
