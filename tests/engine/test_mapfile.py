import copy
import json
from pathlib import Path

import pytest

from engine import mapfile
from engine.hexgrid import Grid


class Catalogue:
    """A small stand-in ruleset so that these tests are about the format, not a game's terrain list."""

    id = base = "ost"
    level_min, level_max, level_step = -1, 3, 1
    hex_metres = 50

    def terrain_ids(self, layer):
        return {"hex": {"open", "woods", "brush", "light-structure", "stream"},
                "hexside": {"hedge", "stone-wall", "bocage"}}[layer]

    def open_hex(self):
        return "open"


class Stepped(Catalogue):
    id = base = "ats"
    level_min, level_max, level_step = -20, 60, 5

    def terrain_ids(self, layer):
        return {"hex": {"open-ground", "woods"}, "hexside": {"wall"}}[layer]

    def open_hex(self):
        return "open-ground"


def lookup(ruleset_id):
    known = {"ost": Catalogue(), "ats": Stepped()}
    if ruleset_id not in known:
        raise KeyError(f"unknown ruleset {ruleset_id!r}; expected one of: ats, ost")
    return known[ruleset_id]


def parse(data):
    return mapfile.parse(data, lookup)


SPEC_EXAMPLE = {
    "format": "hexside-map",
    "version": 1,
    "name": "Hill 112",
    "ruleset": "ost",
    "grid": {"orientation": "flat", "columns": 20, "rows": 12, "stagger": "even",
             "labels": "letter-number", "hex_metres": 50},
    "defaults": {"terrain": ["open"], "level": 0},
    "hexes": [
        {"hex": "C4", "terrain": ["woods"]},
        {"hex": "D5", "level": 1},
        {"hex": "E5", "terrain": ["light-structure"], "storeys": 2,
         "art": [[6.2, 8.1], [6.9, 8.1], [6.9, 8.8], [6.2, 8.8]]},
    ],
    "hexsides": [{"hex": "C4", "side": "SE", "terrain": "hedge"}],
    "overlays": [],
    "extensions": {},
}


def example(**changes):
    data = copy.deepcopy(SPEC_EXAMPLE)
    data.update(changes)
    return data


def errors_of(data):
    with pytest.raises(mapfile.MapFormatError) as exc:
        parse(data)
    return exc.value.errors


def test_the_spec_example_reads():
    doc = parse(SPEC_EXAMPLE)
    assert doc.name == "Hill 112"
    assert doc.grid == Grid("flat", 20, 12, "even", "letter-number", 50)
    assert doc.hexes[(2, 3)].terrain == ("woods",)
    assert doc.hexes[(3, 4)].level == 1 and doc.hexes[(3, 4)].terrain == ("open",)
    assert doc.hexes[(4, 4)].storeys == 2 and len(doc.hexes[(4, 4)].art) == 1
    assert doc.hexsides == {doc.grid.hexside(2, 3, "SE"): "hedge"}


def test_round_trip_gives_an_equal_map_and_identical_bytes():
    doc = parse(SPEC_EXAMPLE)
    text = mapfile.dumps(doc)
    again = parse(text)
    assert again == doc
    assert mapfile.dumps(again) == text
    assert mapfile.content_hash(again) == mapfile.content_hash(doc)
    assert json.loads(text)["hexes"][0] == {"hex": "C4", "terrain": ["woods"], "level": 0}


def test_a_hexside_named_from_the_neighbour_is_the_same_hexside():
    grid = Grid("flat", 20, 12, "even")
    neighbour = grid.label(*grid.step(2, 3, "SE"))
    doc = parse(example(hexsides=[{"hex": "C4", "side": "SE", "terrain": "hedge"},
                                  {"hex": neighbour, "side": "NW", "terrain": "hedge"}]))
    assert len(doc.hexsides) == 1
    errors = errors_of(example(hexsides=[{"hex": "C4", "side": "SE", "terrain": "hedge"},
                                         {"hex": neighbour, "side": "NW", "terrain": "bocage"}]))
    assert [(e.path, e.code) for e in errors] == [("hexsides[1]", "hexside-conflict")]
    assert "C4/SE" in errors[0].message or f"{neighbour}/NW" in errors[0].message


def test_hexes_by_pair_and_terrain_as_one_id():
    doc = parse(example(hexes=[{"hex": [2, 3], "terrain": "woods"}]))
    assert doc.hexes[(2, 3)].terrain == ("woods",)


def test_a_malformed_file_reports_every_error_with_its_path():
    data = example(colour="red")
    data["hexes"] = [
        {"hex": "C4", "terrain": ["woodz"]},
        {"hex": "ZZ99"},
        {"hex": "C4"},
        {"hex": "D4", "level": 7, "shade": 1},
        {"hex": "E4", "storeys": 0},
        {"hex": "F4", "art": [[0, 0], [1, 0]]},
    ]
    data["hexsides"] = [{"hex": "C4", "side": "X", "terrain": "hedge"},
                        {"hex": "C5", "side": "N", "terrain": "moat"}]
    data["overlays"] = [{"id": "H3", "anchor": "T12", "rotation": 0, "hexes": [{"hex": [1, 0], "terrain": "woods"}]}]
    got = {(e.path, e.hex, e.code) for e in errors_of(data)}
    assert got == {
        ("colour", None, "unknown-key"),
        ("hexes[0].terrain[0]", "C4", "unknown-terrain"),
        ("hexes[1].hex", "ZZ99", "bad-hex"),
        ("hexes[2].hex", "C4", "duplicate-hex"),
        ("hexes[3].shade", None, "unknown-key"),
        ("hexes[3].level", "D4", "bad-level"),
        ("hexes[4].storeys", "E4", "bad-storeys"),
        ("hexes[5].art", "F4", "bad-art"),
        ("hexsides[0].side", "C4", "bad-side"),
        ("hexsides[1].terrain", "C5", "unknown-terrain"),
        ("overlays[0].hexes[0].hex", None, "overlay-off-map"),
    }


def test_every_error_says_what_was_expected():
    errors = errors_of(example(hexes=[{"hex": "C4", "terrain": ["woodz"]}]))
    assert "expected one of" in errors[0].message and "woods" in errors[0].message
    assert str(errors[0]).startswith("hexes[0].terrain[0] (C4):")


@pytest.mark.parametrize("data,path,code", [
    ("{not json", "$", "bad-json"),
    (b"\xff\xfe", "$", "not-utf8"),
    ([], "$", "bad-type"),
])
def test_unreadable_input_is_one_clear_error(data, path, code):
    errors = errors_of(data)
    assert [(e.path, e.code) for e in errors] == [(path, code)]


def test_missing_top_level_keys_are_named():
    data = example()
    del data["grid"], data["name"]
    got = {(e.path, e.code) for e in errors_of(data)}
    assert got == {("grid", "missing"), ("name", "missing")}


def test_grid_errors_are_all_reported():
    data = example(grid={"orientation": "square", "columns": 0, "rows": 12, "stagger": "even",
                         "labels": "letter-number", "size": 3})
    got = {(e.path, e.code) for e in errors_of(data)}
    assert got == {("grid.orientation", "bad-grid"), ("grid.columns", "bad-grid"), ("grid.size", "unknown-key")}


def test_unknown_ruleset_and_wrong_format():
    got = {(e.path, e.code) for e in errors_of(example(ruleset="chess", format="tiled", version=2))}
    assert got == {("ruleset", "unknown-ruleset"), ("format", "bad-format"), ("version", "bad-version")}


def test_levels_follow_the_rulesets_step():
    data = example(ruleset="ats", defaults={"terrain": ["open-ground"], "level": 0},
                   hexes=[{"hex": "C4", "level": 10}, {"hex": "C5", "level": 12}], hexsides=[])
    errors = errors_of(data)
    assert [(e.path, e.code) for e in errors] == [("hexes[1].level", "bad-level")]
    assert "multiple of 5" in errors[0].message


def test_defaults_fall_back_to_the_rulesets_open_ground():
    data = example(ruleset="ats", hexes=[], hexsides=[])
    del data["defaults"]
    assert parse(data).default_terrain == ("open-ground",)


def test_art_must_touch_its_hex():
    errors = errors_of(example(hexes=[{"hex": "C4", "art": [[30, 30], [31, 30], [31, 31]]}]))
    assert [(e.path, e.code) for e in errors] == [("hexes[0].art", "art-outside-hex")]


def test_overlays_lay_terrain_turned_by_their_rotation():
    data = example(overlays=[{"id": "H3", "anchor": "K6", "rotation": 1,
                              "hexes": [{"hex": [0, 0], "terrain": "woods"}, {"hex": [0, -1], "level": 2}],
                              "hexsides": [{"hex": [0, 0], "side": "N", "terrain": "hedge"}]}])
    doc = parse(data)
    grid = doc.grid
    cells, hexsides = doc.resolved()
    anchor = grid.parse_label("K6")
    assert cells[anchor].terrain == ("woods",)
    # [0, -1] is north of the anchor; turned once clockwise it lies to the north-east, and its N side turns to NE.
    assert cells[grid.step(*anchor, "NE")].level == 2
    assert hexsides[grid.hexside(*anchor, "NE")] == "hedge"
    assert parse(mapfile.dumps(doc)) == doc


def test_overlay_errors():
    data = example(overlays=[{"id": "A", "anchor": "A1", "rotation": 7},
                             {"id": "B", "anchor": "B2", "hexes": [{"hex": [0, 0]}, {"hex": [0, 0]}]},
                             {"id": "B", "anchor": "B2"}])
    got = {(e.path, e.code) for e in errors_of(data)}
    assert got == {("overlays[0].rotation", "bad-rotation"), ("overlays[1].hexes[1].hex", "duplicate-hex"),
                   ("overlays[2].id", "duplicate-overlay")}


def test_extensions_are_kept_and_written_sorted():
    doc = parse(example(extensions={"zeta": 1, "rules": {"terraced_hills": True}, "alpha": [1, 2]}))
    text = mapfile.dumps(doc)
    assert text.index('"alpha"') < text.index('"rules"') < text.index('"zeta"')
    assert parse(text).extensions == {"zeta": 1, "rules": {"terraced_hills": True}, "alpha": [1, 2]}


def test_writing_does_not_depend_on_the_order_things_were_given():
    a = example()
    b = example(hexes=list(reversed(SPEC_EXAMPLE["hexes"])), extensions={})
    assert mapfile.dumps(parse(a)) == mapfile.dumps(parse(b))


# -- the shipped samples, with the real catalogues ---------------------------------------------------------

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "maps" / "samples").glob("*.json"))


def test_there_is_a_sample_for_every_builtin_ruleset():
    from engine import rulesets

    found = {json.loads(p.read_text())["ruleset"] for p in SAMPLES}
    assert found == set(rulesets.builtin_ids())


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_round_trips_and_exports_byte_identical(path):
    text = path.read_text(encoding="utf-8")
    doc = mapfile.parse(text)
    exported = mapfile.dumps(doc)
    assert mapfile.parse(exported) == doc
    assert mapfile.dumps(mapfile.parse(exported)) == exported
    # The samples are stored in canonical form, so the export is the file itself.
    assert exported == text


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_validates_cleanly(path):
    from engine.checks.findings import validate_file

    doc, findings = validate_file(path)
    assert doc is not None
    assert findings == []
