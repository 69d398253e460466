"""Cards that print what each game's rules say (issue 18, point 5): the turn track shades the box of the turn
played, counting down (OST 1.3) or up; every sheet says who sets up and who moves first, the rules' own sentence
where the scenario names no side; the TOCS perimeter is drawn on the public sheet's map; games are named as
their rulebooks spell them; no id of the file (OOB, objective, overlay, marker) is printed."""

import copy
import dataclasses
import io
import json
import re

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader

from engine import render, rulesets
from engine.los.engine import compile_map
from engine.render.scenario import PERIMETER_INK
from engine.scenarios import cards, scenariofile
from tests.scenarios.conftest import SAMPLE_MAPS, SAMPLES

BY_NAME = {path.stem: path for path in SAMPLES}


@pytest.fixture(scope="module")
def maps():
    return scenariofile.folder_maps(SAMPLE_MAPS)


def load(maps, name, change=None):
    data = json.loads(BY_NAME[name].read_text())
    if change:
        change(data)
    return scenariofile.parse(data, maps)


@pytest.fixture(scope="module")
def docs(maps):
    return {name: load(maps, name) for name in BY_NAME}


def text_of(pdf):
    reader = PdfReader(io.BytesIO(pdf))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def sheet_texts(doc):
    return {sheet: text_of(cards.card_pdf(doc, "a4", sheet)) for sheet in cards.sheets(doc)}


def shaded_boxes(doc):
    """The numbers of the turn track's shaded boxes, and what is written under each."""
    table = cards.turn_track(doc, {s["id"] for s in doc.data["sides"]}, 500)[0]
    out = {}
    for command in table._bkgrndcmds:
        (col, row) = command[1]
        box = table._cellvalues[row][col].getPlainText()
        out[int(box)] = table._cellvalues[row + 1][col].getPlainText()
    return out


# -- the turn track ---------------------------------------------------------------------------------------------

def test_count_down_track_shades_the_box_of_the_turn_played(docs):
    # Hill 112: a 14-turn OST track counting down; the British Shermans arrive on turn 3 played, which the
    # track shows in box 12 (OST 1.3: the first turn is box 14), not box 3 near the end.
    doc = docs["hill-112"]
    assert doc.data["turns"] == {"count": 14, "counts": "down", "first": 1}
    assert shaded_boxes(doc) == {12: "British"}
    assert cards.track_box(doc.data["turns"], 1) == 14 and cards.track_box(doc.data["turns"], 14) == 1
    text = text_of(cards.card_pdf(doc))
    assert "Turn 3 (box 12 of the track): 3 × Sherman" in text
    assert "the first turn is box 14, the last box 1" in text


def test_count_up_track_shades_the_box_of_the_turn_played(docs, maps):
    doc = docs["gela-piano-lupo"]
    assert shaded_boxes(doc) == {4: "Allies"}  # turn 4 of a track 1..7
    assert "Turn 4: 2 × M4 Sherman" in text_of(cards.card_pdf(doc))

    def from_five(data):
        data["turns"]["first"] = 5
    moved = load(maps, "gela-piano-lupo", from_five)
    assert shaded_boxes(moved) == {8: "Allies"}  # boxes 5..11: the 4th turn played is box 8
    assert "Turn 4 (box 8 of the track)" in text_of(cards.card_pdf(moved))


def test_count_down_first_and_last_turn(docs, maps):
    turns = {"count": 6, "counts": "down", "first": 1}
    assert [cards.track_box(turns, t) for t in range(1, 7)] == [6, 5, 4, 3, 2, 1]
    assert [cards.track_box({"count": 6, "counts": "up", "first": 0}, t) for t in (1, 6)] == [0, 5]

    def late(data):
        data["sides"][1]["reinforcements"][0]["turn"] = 16  # past the 14 turns: no box shows it
    doc = load(maps, "hill-112", late)
    assert shaded_boxes(doc) == {}
    assert "Turn 16 (not on the track)" in text_of(cards.card_pdf(doc))


# -- who sets up and who moves first ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_every_sheet_says_who_sets_up_and_moves_first(docs, name):
    doc = docs[name]
    catalogue = rulesets.get(doc.ruleset)
    names = {s["id"]: s["name"] for s in doc.data["sides"]}
    expected = []
    # "Sets up first: Allies." reads for a plural side's name too ("Allies sets up first" did not)
    for key, lead in (("sets_up_first", "Sets up first"), ("moves_first", "Moves first")):
        side = doc.data[key]
        expected.append(f"{lead}: {names[side]}." if side else catalogue.play_order(key))
    for sheet, text in sheet_texts(doc).items():
        for sentence in expected:
            assert " ".join(sentence.split()) in text, (sheet, sentence)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_no_side_named_prints_what_the_rules_say(maps, name):
    def unnamed(data):
        data["sets_up_first"] = data["moves_first"] = None
    doc = load(maps, name, unnamed)
    catalogue = rulesets.get(doc.ruleset)
    for key in ("sets_up_first", "moves_first"):
        sentence = catalogue.play_order(key)
        # It cites where the rules say it, or says that they do not (the miniatures sheet is silent on set-up).
        assert sentence and (re.search(r"\(.+\)\.$", sentence) or "does not say" in sentence), (key, sentence)
        for sheet, text in sheet_texts(doc).items():
            assert " ".join(sentence.split()) in text, (sheet, key)


def test_the_rules_sentences_are_the_rulebooks():
    assert "pre-game Initiative roll" in rulesets.get("ats").play_order("sets_up_first")  # ATS 3.5.3
    assert "(3.5.3)" in rulesets.get("ats").play_order("sets_up_first")
    assert "higher roll chooses who places first" in rulesets.get("assault").play_order("sets_up_first")  # 5.8
    assert "2D6 for the Initiative" in rulesets.get("ost").play_order("moves_first")  # OST 3.4
    assert "cards are drawn" in rulesets.get("miniatures").play_order("moves_first")
    assert "first Operational Impulse" in rulesets.get("tocs").play_order("moves_first")


def test_a_catalogue_play_order_is_checked():
    data = rulesets.get("ost").as_dict()
    data["id"], data["base"] = "ost-test", "ost"
    data["scenario"]["play_order"] = {"moves_first": "", "who": "x"}
    with pytest.raises(rulesets.RulesetError) as caught:
        rulesets.from_dict(data)
    text = "\n".join(caught.value.errors)
    assert "scenario.play_order.who" in text and "scenario.play_order.moves_first" in text


# -- the TOCS perimeter --------------------------------------------------------------------------------------------

def perimeter_pixels(doc, sheet):
    """Pixels of the perimeter's colour on the map the sheet prints (the card's own map_png)."""
    png, _, _ = cards.map_png(doc, cards.sheet_sides(doc, sheet), 180, 130)
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    return int(np.all(pixels == PERIMETER_INK, axis=-1).sum())


def test_tocs_public_sheet_draws_the_perimeter(docs, maps):
    def unmarked(data):  # a side's markers drawn over its brief's map would cover some of the line
        data["markers"] = []
    doc = load(maps, "groesbeek-heights", unmarked)
    assert doc.data["perimeter"]["allied"] and doc.data["perimeter"]["german"]
    drawn = perimeter_pixels(doc, "public")
    assert drawn > 500

    def without(data):
        data.pop("perimeter")
    assert perimeter_pixels(load(maps, "groesbeek-heights", without), "public") == 0
    for side in ("allied", "german"):
        assert perimeter_pixels(doc, side) == drawn  # the same perimeter on both maps (004 L362)


def test_perimeter_line_runs_between_owners_only(maps):
    def one_owner(data):
        every = data["perimeter"]["allied"] + data["perimeter"]["german"]
        data["perimeter"] = {"allied": every}
    # One side owns everything listed: the line is drawn only where its hexes meet hexes nobody owns.
    doc = load(maps, "groesbeek-heights", one_owner)
    layer = cards.scenario_layer(doc, set())
    assert list(layer.perimeter) == ["Allied"] and "Allied" in layer.side_colours
    assert perimeter_pixels(doc, "public") < perimeter_pixels(load(maps, "groesbeek-heights"), "public")


# -- names -----------------------------------------------------------------------------------------------------

GAME_NAMES = {"hill-112": "Old School Tactical", "oosterbeek-crossroads": "Advanced Tobruk System",
              "gela-piano-lupo": "Assault: Sicily '43", "groesbeek-heights": "TOCS",
              "village-on-the-dnieper": "Untitled WWII miniatures quick reference (last updated April 12, 2007)"}


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_games_named_as_their_rulebooks_spell_them(docs, name):
    doc = docs[name]
    assert cards.game_name(doc) == rulesets.get(doc.ruleset).name == GAME_NAMES[name]
    for text in sheet_texts(doc).values():
        assert GAME_NAMES[name] in text
        assert "Tactics System" not in text and "Operational Combat Series" not in text


def test_markers_by_their_catalogue_names(docs):
    text = text_of(cards.card_pdf(docs["hill-112"]))
    assert "Foxholes" in text and not re.search(r"\bfoxholes\b", text)


# -- no ids ----------------------------------------------------------------------------------------------------

VOCABULARY = {"element", "kind", "class", "quality", "selection", "at", "type"}  # "type": a catalogue unit type


def renamed(data):
    """Every OOB and objective id of the file, and every reference to it, as a token no text contains."""
    ids = {u["id"] for s in data["sides"] for u in s["oob"]} | {o["id"] for o in data.get("objectives", [])}
    tokens = {old: f"zqid{n}x" for n, old in enumerate(sorted(ids))}

    def walk(value, key=None):
        if isinstance(value, dict):
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, key) for v in value]
        if key in VOCABULARY or not isinstance(value, str):
            return value  # a word of the game's vocabulary that happens to be spelt like an id ("sniper")
        return tokens.get(value, value)
    data.update(walk(data))
    if data.get("objectives"):
        data["objectives"][0].pop("name", None)  # an objective without a name is printed by its hex
    rules = data.setdefault("rules", {})
    if data["ruleset"] == "ats":
        rules["overlays"] = [{"id": "sel-1", "x": "B2", "y": "B3"}]


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_no_id_of_the_file_is_printed(maps, name):
    doc = load(maps, name, renamed)
    for sheet, text in sheet_texts(doc).items():
        assert not re.search(r"zqid\d+x", text), (sheet, re.findall(r"zqid\d+x", text))
        assert "sel-1" not in text and "sel" not in text.split()


def test_overlays_print_their_letter_number_id_only(docs):
    # ATS 3.3.1 (001 L138): "Each overlay is identified by a letter-number ID"; the painter's "sel-1" is not one.
    assert [cards.overlay_id(i) for i in ("P3", "P3-2", "OG12", "sel-1", "selection-3", "")] == \
        ["P3", "P3", "OG12", "", "", ""]
    doc = copy.copy(docs["oosterbeek-crossroads"])
    mapdoc = doc.maps[doc.main_key]
    assert [o.id for o in mapdoc.overlays] == ["P3"]
    painted = dataclasses.replace(mapdoc, overlays=[dataclasses.replace(mapdoc.overlays[0], id="sel-1")])
    doc.maps = {doc.main_key: painted}

    def image(mapdoc):
        return render.render_print(compile_map(mapdoc), dpi=60, hex_mm=19, legend=False, scale_bar=False).tobytes()
    unlabelled = dataclasses.replace(painted, overlays=[dataclasses.replace(painted.overlays[0], id="")])
    named = dataclasses.replace(painted, extensions={**painted.extensions, "overlay_names": {"sel-1": "Farm"}})
    # "sel-1" is drawn nowhere (the card, the screen, the print); the name the designer gave is.
    assert image(cards.printed_map(doc)) == image(unlabelled) == image(painted) != image(named)
    assert image(mapdoc) != image(unlabelled)  # "P3", a printed ID, is drawn
