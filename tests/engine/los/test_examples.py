"""LOS examples kept with the map: the format's section (read, refused in a designer's words, kept by the edit
operation), each answered as a single `los` answer, listed by the checks when it no longer holds, and printed as
a page for the scenario's players."""

import copy
import io
import json

import pytest
from pypdf import PdfReader

from engine import edits, mapfile
from engine.checks import check_examples
from engine.generate import random_map
from engine.los import engine, examples
from engine.mapfile import Cell
from engine.scenarios import scenariofile
from engine.scenarios.cards.los_examples import los_examples_pdf
from tests.scenarios.conftest import SAMPLE_MAPS, SAMPLES


def open_map():
    return random_map("ost", 10, 8, seed=3, cover=0, hills=0, hexsides=0, art=0)


def keep(doc, cases):
    out, _summary = edits.apply(doc, [{"op": "set_los_examples", "examples": cases}])
    return out


def test_an_example_is_a_single_los_answer_and_the_checks_list_what_an_edit_broke():
    doc = keep(open_map(), [{"from": "A4", "to": "J4", "expect": "clear", "note": "open ground, rule 12.3"},
                            {"from": "A1", "to": "A8", "expect": "clear", "hindrances": None}])
    again = mapfile.parse(mapfile.dumps(doc))  # written and read back: the section is part of the file
    assert again.extensions["los_examples"]["version"] == 1
    cmap = engine.compile_map(again)
    rows = examples.run(cmap)
    for row in rows:
        single = engine.line_of_sight(cmap, row["case"]["from"], row["case"]["to"])
        assert row["got"] == ("blind" if single.blind else single.result) and row["holds"]
    assert check_examples(again) == []

    edited = copy.deepcopy(again)
    for row in range(8):
        edited.hexes[(5, row)] = Cell(terrain=("heavy-structure",), level=0, storeys=2)
    found = check_examples(edited)
    assert [f.code for f in found] == ["los-example"]
    assert found[0].message == "LOS example 1, A4 to J4 (open ground, rule 12.3): now blocked, not clear"
    assert found[0].hex == "A4"


def test_a_bad_example_is_refused_in_a_designers_words():
    doc = open_map()
    with pytest.raises(edits.EditError) as info:
        edits.apply(doc, [{"op": "set_los_examples", "examples": [{"from": "Z99", "to": "A1", "expect": "maybe"}]}])
    text = str(info.value)
    assert "LOS example 1: its from hex" in text and "should expect one of clear, hindered, blocked, blind" in text
    data = json.loads(mapfile.dumps(doc))
    data["extensions"]["los_examples"] = {"version": 2, "cases": []}
    with pytest.raises(mapfile.MapFormatError) as bad:
        mapfile.parse(json.dumps(data))
    assert "this reader knows version 1" in str(bad.value.errors[0])
    cleared = keep(keep(doc, [{"from": "A1", "to": "B2", "expect": "clear"}]), [])
    assert "los_examples" not in cleared.extensions


def test_the_page_of_examples_prints_each_answer_and_note():
    data = json.loads(next(p for p in SAMPLES if p.stem == "hill-112").read_text())
    raw = json.loads((SAMPLE_MAPS / "hill-112.json").read_text())
    raw.setdefault("extensions", {})["los_examples"] = {"version": 1, "cases": [
        {"from": "A1", "to": "C3", "expect": "clear", "note": "along the road"},
        {"from": "B2", "to": "H7", "expect": "blocked", "note": "behind the crest, rule 13.1"}]}
    data["maps"][0] = {"key": data["maps"][0]["key"], "document": raw}
    doc = scenariofile.parse(data, {})
    pdf = los_examples_pdf(doc)
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    cmap = engine.compile_map(doc.maps[doc.main_key])
    for case in raw["extensions"]["los_examples"]["cases"]:
        assert case["note"] in text
        assert engine.line_of_sight(cmap, case["from"], case["to"]).term in text
    assert "LOS examples" in text
