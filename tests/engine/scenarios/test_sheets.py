"""Each game's sheets (docs/cards.md, "A public card and one secret sheet per side"): the public card's map is
the map of the scenario with its hidden items taken out by hand (OST 21.0: the sniper, the PaK and the mines,
000 L1351-1353), whoever prints it; a side's sheet's map draws that side's hidden units."""

import copy
import io
import json
import re

import numpy as np
from PIL import Image

from engine.scenarios import cards, scenariofile
from tests.scenarios.conftest import SAMPLES


def hill_112(sample_maps, change=None):
    data = json.loads(next(p for p in SAMPLES if p.stem == "hill-112").read_text())
    if change:
        change(data)
    return scenariofile.parse(json.dumps(data).encode(), sample_maps)


def pixels(doc, sheet):
    return np.asarray(Image.open(io.BytesIO(cards.scenario_map_png(doc, sheet, 40, 8.0))).convert("RGB"))


def without_hidden(data):
    german = next(s for s in data["sides"] if s["id"] == "german")
    hidden = {u["id"] for u in german["oob"] if u.get("hidden")}
    assert hidden == {"pak", "sniper"}, hidden  # what the rulebook says starts hidden (21.0)
    german["oob"] = [u for u in german["oob"] if u["id"] not in hidden]
    german["placements"] = [pl for pl in german["placements"] if pl["unit"] not in hidden]
    data["markers"] = [m for m in data["markers"] if m["kind"] != "mines"]


def test_the_public_cards_map_draws_no_hidden_unit(sample_maps):
    doc = hill_112(sample_maps)
    assert cards.sheets(doc) == ["public", "german", "british"]
    public = pixels(doc, "public")
    assert np.array_equal(public, pixels(hill_112(sample_maps, without_hidden), "public"))
    assert np.array_equal(public, pixels(doc, "card"))  # the public card's old name
    german, stripped = pixels(doc, "german"), pixels(hill_112(sample_maps, without_hidden), "german")
    assert not np.array_equal(german, stripped)  # the German sheet draws its sniper and PaK


def test_a_side_sheet_prints_its_hidden_setup_and_the_public_card_none(sample_maps):
    doc = hill_112(sample_maps)
    text = {sheet: " ".join(" ".join(t.split()) for t in read(cards.card_pdf(doc, "a4", sheet)))
            for sheet in cards.sheets(doc)}
    for unit, hex, facing in (("PaK 40", "R11", " facing NW"), ("Sniper", "O9", "")):
        assert f"{unit} 1 — sets up in {hex}{facing}; hidden" in text["german"]
        named = re.compile(rf"\b{re.escape(unit)}\b")  # not the special rule's "Snipers ... set up hidden"
        assert not named.search(text["british"])
        # the public card lists it, its position hidden (OST 3.1.4, 000 L354; 21.0.1, L1353)
        assert f"{unit} 1 — position hidden (recorded on paper)" in text["public"]
        assert f"sets up in {hex}" not in text["public"]
    assert "Mines L10 German 1" in text["german"] and "Mines L10" not in text["public"]
    assert "SECRET — German sheet" in text["german"] and "SECRET" not in text["public"]
    # the public card prints both sides' public forces; a side's sheet only its own
    assert "Sherman" in text["public"] and "Sherman" not in text["german"]
    data = copy.deepcopy(doc.data)
    data["sides"][0]["brief"] = {"mission": "Hold the crest.", "intelligence": ""}
    briefed = scenariofile.parse(json.dumps(data).encode(), sample_maps)
    assert "Hold the crest." in " ".join(read(cards.card_pdf(briefed, "a4", "german")))
    assert "Hold the crest." not in " ".join(read(cards.card_pdf(briefed, "a4", "public")))


def read(pdf):
    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]
