"""Issue 17, point 6: a card's layout is linear in its text. reportlab lays a paragraph out again on each page it
continues on, so one long special rule cost the square of its length (1 MB: over 282 s); the card now flows a
long text in runs of at most cards.CHUNK characters. The work is counted, not timed: the characters reportlab
is given to lay out (each Paragraph.wrap call counts its paragraph's text)."""

import io
import json
import random
import re
from types import SimpleNamespace

import pytest
from pypdf import PdfReader
from reportlab.platypus import Paragraph, SimpleDocTemplate

from engine import rulesets
from engine.scenarios import cards, limits, scenariofile
from tests.scenarios.conftest import SAMPLES

WORDS = ["the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "while", "the", "tanks", "roll",
         "on", "to", "the", "bridge", "at", "dawn"]


def prose(n, seed=1):
    rnd = random.Random(seed)
    return " ".join(rnd.choice(WORDS) for _ in range(n // 3))[:n].strip()


@pytest.fixture
def laid_out(monkeypatch):
    """How many characters reportlab has laid out: a count kept around its own Paragraph.wrap."""
    count = {"chars": 0, "calls": 0}
    wrap = Paragraph.wrap

    def counting(self, width, height):
        count["chars"] += len(self.getPlainText())
        count["calls"] += 1
        return wrap(self, width, height)

    monkeypatch.setattr(Paragraph, "wrap", counting)
    return count


def layout_work(flowables, count):
    before = count["chars"]
    SimpleDocTemplate(io.BytesIO()).build(flowables)
    return count["chars"] - before


def test_doubling_a_special_rule_less_than_triples_its_layout_work(laid_out):
    def work(n):
        return layout_work(cards.special_rules(SimpleNamespace(data={"special_rules": [prose(n)]})), laid_out)

    single, double = work(60_000), work(120_000)
    assert double < 2.5 * single  # quadratic: about 4 times
    assert double < 3 * 120_000  # each character laid out a few times, not once per page


def test_a_long_text_flows_in_runs_of_bounded_size_and_keeps_every_word():
    text = prose(50_000) + "\n\n" + "w" * 3_000 + "\n\nLast paragraph."
    flowables = cards.texts(text, lead="<b>7.</b> ")
    plain = [f.getPlainText() for f in flowables]
    assert max(len(t) for t in plain) <= cards.CHUNK + len("7. ")
    assert plain[0].startswith("7. ") and plain[-1] == "Last paragraph."
    assert "".join("".join(plain).split()) == "".join(("7. " + text).split())  # (a long word is cut in two)


def test_the_longest_texts_the_format_allows_lay_out_in_bounded_work(laid_out, sample_maps):
    data = json.loads(next(p for p in SAMPLES if p.stem == "hill-112").read_bytes())
    data["introduction"] = prose(limits.INTRODUCTION, seed=2)
    data["special_rules"] = [prose(limits.SPECIAL_RULE, seed=k) for k in range(limits.SPECIAL_RULES)]
    doc = scenariofile.parse(json.dumps(data), sample_maps)  # allowed
    text = limits.INTRODUCTION + limits.SPECIAL_RULE * limits.SPECIAL_RULES
    pdf = cards.card_pdf(doc)
    assert laid_out["chars"] < 3 * text
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) > limits.SPECIAL_RULES // 2  # the rules are all there


def test_the_longest_oob_line_the_format_allows_fits_its_page(sample_maps):
    """A table row taller than a page is a reportlab LayoutError: the longest weapons and notes get a row of their
    own across the table, and a unit's arrivals and hexes are counted past a few."""
    data = json.loads(next(p for p in SAMPLES if p.stem == "hill-112").read_bytes())
    unit = data["sides"][0]["oob"][0]
    unit.update(name="N" * limits.UNIT, notes=prose(limits.UNIT_NOTES, seed=3) + " END-OF-NOTES",
                weapons=[prose(limits.WEAPON, seed=k) for k in range(limits.WEAPONS)])
    unit["notes"] = unit["notes"][-limits.UNIT_NOTES:]
    data["sides"][0]["reinforcements"] = [
        {"turn": t, "units": [{"unit": unit["id"]}], "hexes": [f"A{k}" for k in range(1, 11)], "note": prose(400)}
        for t in range(1, limits.REINFORCEMENTS + 1)]
    doc = scenariofile.parse(json.dumps(data), sample_maps)
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(cards.card_pdf(doc))).pages).split())
    assert "END-OF-NOTES" in text and f"and {limits.REINFORCEMENTS - cards.CELL_ARRIVALS} more times" in text


def at_limits(data):
    """A scenario with each short text at its limit, written without a space (the hardest to wrap)."""
    data.update(title="T" * limits.TITLE, subtitle="S" * limits.SUBTITLE, place="P" * limits.PLACE,
                date="D" * limits.DATE, designer="N" * limits.DESIGNER)
    data.setdefault("environment", {})["weather"] = "W" * limits.WEATHER
    for objective in data.get("objectives", []):
        objective["name"] = "O" * limits.OBJECTIVE_NAME
    for marker in data.get("markers", []):
        marker["note"] = "M" * limits.MARKER_NOTE
    for side in data["sides"]:
        side.update(name=side["name"] + "S" * (limits.SIDE_NAME - len(side["name"])), nationality="X" * 100)
        for key, spec in rulesets.get(data["ruleset"]).scenario_fields("side").items():
            if spec["type"] == "text":  # a game's own text field, at its limit
                side.setdefault("fields", {})[key] = "g" * limits.GAME_TEXT
        for unit in side["oob"]:
            unit.update(unit="U" * limits.UNIT, name="V" * limits.UNIT, notes="n" * limits.UNIT_NOTES,
                        weapons=["w" * limits.WEAPON] * limits.WEAPONS)
            if "formation" in unit:
                unit["formation"] = "F" * limits.FORMATION
        for reinforcement in side.get("reinforcements", []):
            reinforcement["note"] = "r" * limits.REINFORCEMENT_NOTE
    for key, spec in rulesets.get(data["ruleset"]).scenario_fields("rules").items():
        if spec["type"] == "text":
            data.setdefault("rules", {})[key] = "q" * limits.GAME_TEXT
    return data


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_every_sheet_of_every_sample_prints_with_its_texts_at_their_limits(path, sample_maps):
    doc = scenariofile.parse(json.dumps(at_limits(json.loads(path.read_bytes()))), sample_maps)
    for sheet in cards.sheets(doc):
        assert cards.card_pdf(doc, sheet=sheet).startswith(b"%PDF")
