"""Issue 17, point 11: how many of 8,192 fuzzed scenario edits and 8,192 fuzzed map edits crash the engine.

Each scenario edit puts one value of a fixed list of wrong JSON types (null, true, numbers, text, lists,
objects, nested ones) at one place of a sample scenario (every path of the five samples, in a fixed random
order), then reads the edited document as the API does (parse, then the checks); each map edit puts one such
value in one field of one operation kind. A crash is any exception other than the format error
(ScenarioFormatError, EditError): through the API it was a 500. The baseline ("before") is this script run on
the engine of commit 2fce266 (before issue 17, point 11): 201 of 8,192 scenario edits (the issue's own fuzzer
counted 158) and 76 of 8,192 map edits; the aim is 0.
Run: .venv/bin/python bench/bench_fuzz.py
"""

import copy
import itertools
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import edits, mapfile  # noqa: E402
from engine.scenarios import checks, scenariofile  # noqa: E402

N = 8_192
BEFORE_SCENARIO = 201  # measured on 2fce266
BEFORE_MAP = 76
VALUES = [None, True, 0, -1, 2**70, 1.5, "", "x", "A1", [], [1], ["a"], {}, {"a": 1}, [[{}]], {"kind": []},
          {"corners": {}}, [{"unit": []}]]


def places(value, trail=()):
    if trail:
        yield trail
    if isinstance(value, dict) and value.get("format") != "hexside-map":
        for key, child in value.items():
            yield from places(child, trail + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from places(child, trail + (i,))


def put(data, trail, value):
    for step in trail[:-1]:
        data = data[step]
    data[trail[-1]] = value


def scenario_crashes():
    maps = scenariofile.folder_maps(ROOT / "maps" / "samples")
    files = sorted((ROOT / "authoring" / "samples").glob("*.json"))
    samples = [json.loads(path.read_text(encoding="utf-8")) for path in files]
    every = [(s, t, v) for s in samples for t in places(s) for v in VALUES]
    random.Random(17).shuffle(every)  # the same 8,192 each run, from every sample
    crashes = 0
    for sample, trail, value in itertools.islice(itertools.cycle(every), N):
        data = copy.deepcopy(sample)
        put(data, trail, copy.deepcopy(value))
        try:
            checks.check(scenariofile.parse(data, maps))
        except scenariofile.ScenarioFormatError:
            pass
        except Exception:  # noqa: BLE001 - what is counted
            crashes += 1
    return crashes


# One valid-looking operation of each kind (as tests/test_hypothesis_edits.py has them).
VALID = {
    "set_terrain": {"hexes": ["C4"], "terrain": ["woods"]}, "set_level": {"hexes": ["C4"], "level": 1},
    "set_storeys": {"hexes": ["C4"], "storeys": 2}, "set_label_note": {"hexes": ["C4"], "label_note": "ford"},
    "clear_hexes": {"hexes": ["C4"]}, "set_art": {"hex": "C4", "art": [[[0, 0], [1, 0], [1, 1]]]},
    "clear_art": {"hex": "C4"}, "set_hexside": {"hex": "C4", "side": "N", "terrain": "hedge"},
    "clear_hexside": {"hex": "C4", "side": "N"},
    "place_overlay": {"overlay": {"id": "Z", "anchor": "B2", "rotation": 0, "hexes": [], "hexsides": []}},
    "move_overlay": {"id": "Z", "anchor": "D4", "rotation": 1}, "remove_overlay": {"id": "Z"},
    "set_background": {"background": {"image": "scan.png", "origin": [10, 12], "hex_px": 40}},
    "rename": {"name": "Hill 113"},
}


def map_crashes():
    doc = mapfile.parse((ROOT / "maps" / "samples" / "hill-112.json").read_bytes())
    ops = itertools.cycle((name, key, v) for name in VALID for key in VALID[name] for v in VALUES)
    crashes = 0
    for name, key, value in itertools.islice(ops, N):
        op = {"op": name, **copy.deepcopy(VALID[name]), key: copy.deepcopy(value)}
        try:
            edits.apply(doc, [op])
        except edits.EditError:
            pass
        except Exception:  # noqa: BLE001 - what is counted
            crashes += 1
    return crashes


def main():
    for what, before, after in (("scenario edits", BEFORE_SCENARIO, scenario_crashes()),
                                ("map edits", BEFORE_MAP, map_crashes())):
        print(f"{what} crashing the engine (a 500 through the API): before {before} of {N}, after {after} of {N} "
              f"(ratio {after / before:.3f})")


if __name__ == "__main__":
    main()
