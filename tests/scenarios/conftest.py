"""Scenario fixtures: the sample scenarios read with the sample maps, and a small valid OST scenario to break."""

import copy
import json
from pathlib import Path

import pytest

from engine.scenarios import scenariofile

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "authoring" / "samples").glob("*.json"))
SAMPLE_MAPS = ROOT / "maps" / "samples"

SMALL = {
    "format": "hexside-scenario", "version": 1, "title": "Small test", "ruleset": "ost",
    "maps": [{"key": "m", "document": None}],
    "turns": {"count": 6},
    "sides": [
        {"id": "blue", "name": "Blue", "fields": {"gut_check": 7, "impulse": "2D6+3"},
         "oob": [{"id": "sq", "unit": "Rifle Squad", "count": 3}, {"id": "tank", "unit": "Sherman", "class": "tracked"},
                 {"id": "ldr", "unit": "Leader", "leader": True}],
         "setup_zone": ["A1", "A2", "A3", "B1", "B2", "B3"],
         "placements": [{"unit": "sq", "hex": "A1"}, {"unit": "sq", "hex": "A2"}, {"unit": "tank", "hex": "B2"}],
         "reinforcements": [{"turn": 2, "units": [{"unit": "sq", "count": 1}], "edge": "W"}],
         "victory": {"kind": "control", "objectives": ["hill"]}},
        {"id": "red", "name": "Red", "fields": {"gut_check": 8, "impulse": "1D6+2"},
         "oob": [{"id": "sq", "unit": "Rifle Squad", "count": 2}],
         "setup_zone": ["J7", "J8", "I8"],
         "placements": [{"unit": "sq", "hex": "J8"}],
         "victory": {"kind": "eliminate"}}],
    "objectives": [{"id": "hill", "hex": "D5", "name": "Hill", "owner": None}],
}


@pytest.fixture
def sample_maps():
    return scenariofile.folder_maps(SAMPLE_MAPS)


@pytest.fixture
def small(map_document):
    """A valid OST scenario (a fresh copy) on the test map embedded: 10 x 8, woods in C4, level 1 in D5."""
    data = copy.deepcopy(SMALL)
    data["maps"][0]["document"] = map_document
    return data


def parse(data, maps=None):
    return scenariofile.parse(json.loads(json.dumps(data)), maps)
