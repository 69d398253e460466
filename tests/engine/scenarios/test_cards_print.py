"""The cards against their rulebooks (issue 28), read from the PDFs' text and the card map's pixels: every force a
rulebook lists on its card is on the public card with its position hidden (OST 3.1.4 with 21.0.1, ATS 3.5.2),
facings printed with the hex they belong to and drawn on the map, markers drawn, the casualty points of every
line counted, the miniatures elite commander and sniper, TOCS steps and parent HQ, the wording fixes, and
Oosterbeek's overlay placed by a special rule (ATS 3.3.1)."""

import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader

from engine.scenarios import cards, scenariofile

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = {p.stem: p for p in sorted((ROOT / "authoring" / "samples").glob("*.json"))}
FORCES_PUBLIC = {"ost", "ats"}  # the rulebooks that list every force on the card (000 L354, 001 L150)


@pytest.fixture(scope="module")
def maps():
    return scenariofile.folder_maps(ROOT / "maps" / "samples")


def load(maps, name, change=None):
    data = json.loads(SAMPLES[name].read_text())
    if change:
        change(data)
    return scenariofile.parse(data, maps)


def text_of(pdf):
    reader = PdfReader(io.BytesIO(pdf))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def squeeze(text):
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("name", ["hill-112", "oosterbeek-crossroads"])
def test_the_public_card_lists_every_force_its_rulebook_lists(maps, name):
    doc = load(maps, name)
    assert doc.ruleset in FORCES_PUBLIC
    public = squeeze(text_of(cards.card_pdf(doc, "a4", "public")))
    hidden = 0
    for side in doc.data["sides"]:
        for unit in side["oob"]:
            assert squeeze(cards.unit_name({"name": "", **unit})) in public, (side["id"], unit["unit"])
            if unit.get("hidden") or unit.get("dummy"):
                hidden += 1
                for placement in side["placements"]:
                    if placement["unit"] == unit["id"]:
                        assert squeeze(f"setsupin{placement['hex']}") not in public  # its position is hidden
    assert hidden and public.count(squeeze("position hidden")) == hidden


def test_a_dummy_is_listed_by_its_fow_side(maps):
    public = text_of(cards.card_pdf(load(maps, "oosterbeek-crossroads"), "a4", "public"))
    assert "AFV dummy (FOW counter)" in public and "FOW side up; position hidden" in public


def test_hill_112_counts_the_hidden_lines_casualty_points(maps):
    doc = load(maps, "hill-112")
    german = doc.side("german")
    total = sum(u["count"] * u["casualty_points"] for u in german["oob"])
    assert total == 18  # with the PaK 40 (2) and the sniper (1), 21.0.1
    public = text_of(cards.card_pdf(doc, "a4", "public"))
    assert f"German {german['fields']['gut_check']} {german['fields']['impulse']} {total}" in public


def facing_placements(doc):
    return [(side, pl) for side in doc.data["sides"] for pl in side["placements"] if pl.get("facing") is not None]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_facing_is_printed_beside_its_hex(maps, name):
    doc = load(maps, name)
    for side, placement in facing_placements(doc):
        text = squeeze(text_of(cards.card_pdf(doc, "a4", side["id"])))
        facing = placement["facing"]
        word = f"facing{facing}" if isinstance(facing, str) else "facingvertex"
        assert squeeze(placement["hex"]) + word in text, (side["id"], placement)


def map_pixels(doc, sheet):
    png, _, _ = cards.map_png(doc, cards.sheet_sides(doc, sheet), 180, 130)
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


@pytest.mark.parametrize("name", ["gela-piano-lupo", "hill-112", "oosterbeek-crossroads"])
def test_facings_are_drawn_on_the_card_map(maps, name):
    doc = load(maps, name)
    side = facing_placements(doc)[0][0]["id"]

    def unfaced(data):
        for s in data["sides"]:
            for pl in s["placements"]:
                pl["facing"] = None
    drawn, plain = map_pixels(doc, side), map_pixels(load(maps, name, unfaced), side)
    assert drawn.shape == plain.shape and (np.abs(drawn - plain).sum(axis=-1) > 60).sum() > 20


def test_gelas_wreck_is_drawn_on_the_card_map(maps):
    def wreck_only(data):
        data["markers"] = [m for m in data["markers"] if m["kind"] == "wreck"]

    def no_marker(data):
        data["markers"] = []
    with_wreck = map_pixels(load(maps, "gela-piano-lupo", wreck_only), "public")
    without = map_pixels(load(maps, "gela-piano-lupo", no_marker), "public")
    rows = int(without.shape[0] * 0.7)  # the map above its legend (which names the wreck: one more line)
    assert (np.abs(with_wreck[:rows] - without[:rows]).sum(axis=-1) > 60).sum() > 20


def test_card_counters_carry_their_key(maps):
    """A counter on the card's map is no blank square: its key in the forces table is drawn on it (issue 32)."""
    doc = load(maps, "hill-112")
    layer = cards.scenario_layer(doc, {"german"}, keyed=True)
    assert {u["label"] for u in layer.units} == {"1", "2", "3", "4", "5", "6"}
    text = text_of(cards.card_pdf(doc, "a4", "german"))
    assert re.search(r"#\s*Unit", text) and "1 Rifle Squad" in text

    def renamed(data):  # every key the same: the counters' pixels change where the keys are drawn
        for side in data["sides"]:
            for k, unit in enumerate(side["oob"]):
                side["oob"][k] = {**unit}
    keyed = map_pixels(doc, "german")
    blank = cards.scenario_layer(doc, {"german"}, keyed=True)
    for unit in blank.units:
        unit["label"] = ""
    from engine import render
    from engine.los.engine import compile_map
    cmap = compile_map(cards.printed_map(doc))
    with_keys = np.asarray(render.render_print(cmap, dpi=100, hex_mm=12, crop=cards.crop_of(doc),
                                               scenario=layer).convert("RGB")).astype(int)
    without = np.asarray(render.render_print(cmap, dpi=100, hex_mm=12, crop=cards.crop_of(doc),
                                             scenario=blank).convert("RGB")).astype(int)
    assert keyed.size and (np.abs(with_keys - without).sum(axis=-1) > 100).sum() > 30


def test_miniatures_elite_commander_and_sniper(maps):
    text = text_of(cards.card_pdf(load(maps, "village-on-the-dnieper"), "a4", "public"))
    assert "elite platoon commander of 1st Grenadier platoon gets one extra activation card" in text
    assert "elitecommander" in squeeze(text)  # the forces table's quality cell (narrow: it wraps)
    assert re.search(r"Sniper 1 .{0,12}sets up anywhere more than 8\" from the nearest enemy", text)
    assert "Sniper 1 — — sets up in the setup zone" not in text


def test_tocs_briefs_print_steps_and_parent_hq(maps):
    doc = load(maps, "groesbeek-heights")
    for side in doc.data["sides"]:
        text = squeeze(text_of(cards.card_pdf(doc, "a4", side["id"])))
        assert "Steps" in text and "Reportsto" in text
        units = doc.units(side)
        for unit in side["oob"]:
            if unit.get("parent"):
                parent = units[unit["parent"]]
                assert squeeze(f"{unit['unit']}({unit['name']})1—{unit['steps']}{parent['unit']}"
                               f"({parent['name']})") in text, unit["id"]


def test_the_wording(maps):
    gela = text_of(cards.card_pdf(load(maps, "gela-piano-lupo"), "a4", "public"))
    assert "TA/OAS" in gela and "TA/OAs" not in gela
    assert "Sets up first: Allies." in gela and "Allies sets up first" not in gela
    hill = text_of(cards.card_pdf(load(maps, "hill-112"), "a4", "public"))
    assert "sets up in P10 (2), N9, Q8" in hill


def test_oosterbeeks_overlay_is_placed_by_a_special_rule(maps):
    doc = load(maps, "oosterbeek-crossroads")
    assert any("Overlay P3" in rule for rule in doc.data["special_rules"])
    text = text_of(cards.card_pdf(doc, "a4", "public"))
    assert "Drawn on the map at its placement: overlay P3." in text and "no special rule places" not in text

    def unplaced(data):
        data["rules"]["overlays"] = []
        data["special_rules"] = [r for r in data["special_rules"] if "Overlay P3" not in r]
    text = text_of(cards.card_pdf(load(maps, "oosterbeek-crossroads", unplaced), "a4", "public"))
    assert "which no special rule places: unless an SSR says so, no overlay is used (3.3.1)" in text
