"""The card's map in vectors: every sample scenario's map as SVG and PDF at the hex size asked, cropped to its play
area as the PNG is, with its units, objectives and sides as text, and nothing a sheet's reader may not see."""

import io
import math
import xml.etree.ElementTree as ET

import pytest
from pypdf import PdfReader

from engine import render
from engine.los.engine import compile_map
from engine.scenarios import cards, scenariofile
from engine.scenarios.cards import mapimage
from engine.scenarios.cards.vectormap import scenario_map_vector
from tests.engine.render.test_vector import SVG, across_flats, hexes_of
from tests.scenarios.conftest import SAMPLE_MAPS, SAMPLES


@pytest.fixture(scope="module")
def docs():
    maps = scenariofile.folder_maps(SAMPLE_MAPS)
    return {path.stem: scenariofile.parse(path.read_bytes(), maps) for path in SAMPLES}


def texts(svg):
    return [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]


@pytest.mark.parametrize("name", [p.stem for p in SAMPLES])
def test_the_card_map_in_vectors_is_true_size_and_shows_what_the_sheet_shows(docs, name):
    doc = docs[name]
    sheet = cards.sheets(doc)[0]
    svg = scenario_map_vector(doc, sheet, 14.0, "svg")
    root = ET.fromstring(svg)
    cmap = compile_map(doc.maps[doc.main_key])
    crop = cards.crop_of(doc)
    area = render.play_area(cmap, crop) if crop else None
    hexes = hexes_of(root)
    assert len(hexes) == (len(area) if area else cmap.n)  # the play area only, as the PNG
    assert across_flats(hexes[0], cmap.grid.orientation) == pytest.approx(14.0, abs=0.002)
    width_px, _ = render.printed_size(cmap.grid, 100, 14.0, area=area, cmap=cmap)
    assert float(root.get("width")[:-2]) == pytest.approx(width_px / 100 * 25.4, abs=1.0)  # the PNG's width
    layer = mapimage.scenario_layer(cards.sheet_view(doc, sheet), cards.sheet_sides(doc, sheet))
    shown = texts(svg)
    drawn = render.play_area(cmap, crop) if crop else set(range(cmap.n))
    for unit in layer.units:
        if cmap.index_of(unit["hex"]) in drawn:
            words = unit["label"].split()
            assert any(part and part in " ".join(t or "" for t in shown) for part in words), unit
    for side in layer.side_colours:
        assert side in shown  # the legend names the sides
    pdf = PdfReader(io.BytesIO(scenario_map_vector(doc, sheet, 14.0, "pdf"))).pages[0]
    assert float(pdf.mediabox.width) == pytest.approx(float(root.get("width")[:-2]) * 72 / 25.4, abs=0.01)
    assert math.isclose(float(pdf.mediabox.height), float(root.get("height")[:-2]) * 72 / 25.4, abs_tol=0.01)


def test_a_side_brief_in_vectors_holds_nothing_of_the_other_side(docs):
    doc = docs["groesbeek-heights"]  # TOCS: a public sheet and a secret brief per side
    everyone = mapimage.scenario_layer(doc, {s["id"] for s in doc.data["sides"]})
    for sheet, side in (("german", "German"), ("allied", "Allied"), ("public", None)):
        shown = texts(scenario_map_vector(doc, sheet, 12.0, "svg"))
        for label in ("HQ", "Company", "Battery"):
            own = [u for u in everyone.units if u["side"] == side and u["label"] == label]
            assert shown.count(label) == len(own), (sheet, label)  # the side's own counters, no other's
        assert {"Allied", "German"} <= set(shown)  # the perimeter is both players' (004 L362): its legend names both


def test_an_unknown_sheet_or_format_is_refused(docs):
    doc = docs["hill-112"]
    with pytest.raises(cards.CardError, match="no sheet 'russian'"):
        scenario_map_vector(doc, "russian", 12.0)
    with pytest.raises(cards.CardError, match="svg or pdf"):
        scenario_map_vector(doc, cards.sheets(doc)[0], 12.0, "png")
