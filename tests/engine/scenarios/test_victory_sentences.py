"""Victory sentences as a reader of the rulebooks would write them: free text as written, nesting kept with
labelled items, "one of A or B", sides named without stray articles, "when" said for hold conditions, and
thresholds of 0 flagged by the scenario checks. Every sample's sentences, read by eye, are asserted whole."""

import io
import json

import pytest
from pypdf import PdfReader

from engine.scenarios import cards, victory
from engine.scenarios import checks as scenario_checks
from tests.scenarios.conftest import SAMPLES, parse

NAMES = {"a": "Church (H3)", "b": "Village well (D5)", "c": "The mill (F2)"}
SAMPLE = {p.stem: p for p in SAMPLES}


def say(condition, enemies=("British",)):
    assert victory.check(condition, "victory", set(NAMES)) == []
    return victory.sentence(victory.normalise(condition), NAMES, list(enemies))


def control(*ids, **keys):
    return {"kind": "control", "objectives": list(ids), **keys}


EXIT = {"kind": "exit", "units": 4, "edge": "N"}
HOLD = {"kind": "hold", "objective": "b", "turns": 2}


# -- free text is kept as written ------------------------------------------------------------------------------

def test_free_text_keeps_its_case_inside_a_combination():
    text = {"kind": "text", "text": "German units may not cross the river"}
    assert say({"kind": "or", "conditions": [{"kind": "eliminate"}, text]}) == (
        "Either: (a) eliminate every British unit; or (b) German units may not cross the river.")


def test_free_text_alone_is_not_capitalised_either():
    assert say({"kind": "text", "text": "de Gaulle must survive"}) == "de Gaulle must survive."


# -- nesting is kept -------------------------------------------------------------------------------------------

def test_an_and_inside_an_or_reads_either_or_both():
    nested = {"kind": "or", "conditions": [control("a", "b"), {"kind": "and", "conditions": [EXIT, HOLD]}]}
    assert say(nested) == (
        "Either: (a) control Church (H3) and Village well (D5) at the end of the game; or (b) both: (i) exit at "
        "least 4 units off the north edge; and (ii) hold Village well (D5) at the end of two consecutive turns, at "
        "any point in the game.")


def test_an_or_inside_an_and_is_not_the_same_sentence_as_an_and_inside_an_or():
    one = {"kind": "or", "conditions": [control("a"), {"kind": "and", "conditions": [EXIT, HOLD]}]}
    other = {"kind": "and", "conditions": [{"kind": "or", "conditions": [control("a"), EXIT]}, HOLD]}
    assert say(other) == (
        "Both: (a) either: (i) control Church (H3) at the end of the game; or (ii) exit at least 4 units off the "
        "north edge; and (b) hold Village well (D5) at the end of two consecutive turns, at any point in the game.")
    assert say(one) != say(other)


def test_three_conditions_read_all_of_and_one_of():
    three = [control("a"), EXIT, {"kind": "vp", "at_least": 5}]
    assert say({"kind": "and", "conditions": three}) == (
        "All of: (a) control Church (H3) at the end of the game; (b) exit at least 4 units off the north edge; and "
        "(c) have at least 5 victory points at the end of the game.")
    assert say({"kind": "or", "conditions": three}).startswith("One of: (a) control")


def test_four_levels_are_labelled_a_i_A_1_and_printed_one_item_a_line():
    deepest = {"kind": "and", "conditions": [control("c"), {"kind": "eliminate"}]}
    level3 = {"kind": "or", "conditions": [EXIT, deepest]}
    level2 = {"kind": "and", "conditions": [HOLD, level3]}
    top = {"kind": "or", "conditions": [control("a"), level2]}
    assert victory.check(top, "victory", set(NAMES)) == []
    lines = victory.lines(victory.normalise(top), NAMES, ["British"])
    assert [(line["depth"], line["text"]) for line in lines] == [
        (0, "Either:"),
        (1, "(a) control Church (H3) at the end of the game; or"),
        (1, "(b) both:"),
        (2, "(i) hold Village well (D5) at the end of two consecutive turns, at any point in the game; and"),
        (2, "(ii) either:"),
        (3, "(A) exit at least 4 units off the north edge; or"),
        (3, "(B) both:"),
        (4, "(1) control The mill (F2) at the end of the game; and"),
        (4, "(2) eliminate every British unit."),
    ]
    assert " ".join(line["text"] for line in lines) == victory.sentence(victory.normalise(top), NAMES, ["British"])


# -- "one of A or B" -------------------------------------------------------------------------------------------

def test_control_some_of_the_objectives_reads_one_of_a_or_b():
    assert say(control("a", "b", count=1)) == "Control one of Church (H3) or Village well (D5) at the end of the game."
    assert say(control("a", "b", "c", count=2)) == (
        "Control two of Church (H3), Village well (D5) or The mill (F2) at the end of the game.")


def test_numbers_past_ten_stay_figures():
    assert victory.number(10) == "ten" and victory.number(11) == "11"


# -- sides without stray articles ------------------------------------------------------------------------------

def test_sides_are_named_as_their_people_and_before_unit_as_their_adjective():
    casualties = {"kind": "casualties", "points": 12}
    assert say(casualties, ["German"]) == "Inflict at least 12 casualty points on the Germans."
    assert say(casualties, ["Allied", "Soviet"]) == "Inflict at least 12 casualty points on the Allies and the Soviets."
    assert say(casualties, ["Axis"]) == "Inflict at least 12 casualty points on the Axis."
    assert say({"kind": "eliminate"}, ["Allies"]) == "Eliminate every Allied unit."
    assert say({"kind": "eliminate"}, ["German", "Allied"]) == "Eliminate every German and Allied unit."


def test_a_side_the_list_does_not_know_is_said_as_written():
    assert say({"kind": "casualties", "points": 3}, ["Blue"]) == "Inflict at least 3 casualty points on Blue."
    assert say({"kind": "eliminate"}, ["Blue"]) == "Eliminate every Blue unit."
    assert say({"kind": "eliminate"}, []) == "Eliminate every enemy unit."


def test_a_scenario_with_three_sides_never_says_the_german_and_the_allied():
    data = {"objectives": [], "sides": [
        {"id": "s", "name": "Soviet", "victory": {"kind": "casualties", "points": 5, "who": "enemy"}},
        {"id": "g", "name": "German", "victory": None},
        {"id": "a", "name": "Allied", "victory": None}]}
    said = victory.sentences_for(data)["s"]
    assert said == "Inflict at least 5 casualty points on the Germans and the Allies."
    assert "the German and the Allied" not in said


# -- when a hold is met ----------------------------------------------------------------------------------------

def test_hold_says_when():
    assert say(HOLD) == "Hold Village well (D5) at the end of two consecutive turns, at any point in the game."
    assert say({**HOLD, "by_turn": 7}) == "Hold Village well (D5) at the end of two consecutive turns, by the end " \
                                          "of turn 7."
    assert say({**HOLD, "turns": 1}) == "Hold Village well (D5) at the end of any turn."
    assert say({**HOLD, "turns": 1, "by_turn": 5}) == "Hold Village well (D5) at the end of any turn up to turn 5."


def test_hold_cannot_end_before_it_has_lasted():
    found = victory.check({**HOLD, "turns": 3, "by_turn": 2}, "sides[1].victory", set(NAMES))
    assert [(f.path, f.message) for f in found] == [("sides[1].victory.by_turn",
                                                     "3 consecutive turns cannot end by turn 2")]


# -- thresholds of 0 -------------------------------------------------------------------------------------------

def test_a_threshold_of_zero_is_said_and_flagged_by_the_checks(sample_maps):
    data = json.loads(SAMPLE["village-on-the-dnieper"].read_text(encoding="utf-8"))
    data["sides"][0]["victory"] = {"kind": "vp", "at_least": 0}
    data["sides"][1]["victory"] = {"kind": "and", "conditions": [{"kind": "casualties", "points": 0}, EXIT]}
    found = [f for f in scenario_checks.check(parse(data, sample_maps)) if f.code == "zero-threshold"]
    assert [(f.severity, f.path, f.message) for f in found] == [
        ("warning", "sides[0].victory.at_least", "sides[0].victory.at_least is 0: the side wins without doing "
                                                 "anything"),
        ("warning", "sides[1].victory.conditions[0].points", "sides[1].victory.conditions[0].points is 0: this "
                                                             "condition is met without doing anything"),
    ]


def test_zero_under_or_wins_outright_and_suffering_none_is_no_threshold():
    condition = victory.normalise({"kind": "or", "conditions": [
        {"kind": "casualties", "points": 0, "who": "own"}, control("a", vp=0), {"kind": "casualties", "points": 0}]})
    assert victory.zero_thresholds(condition, "v") == [
        ("v.conditions[1].vp", "v.conditions[1].vp is 0: controlling scores nothing"),
        ("v.conditions[2].points", "v.conditions[2].points is 0: the side wins without doing anything")]
    assert say({"kind": "casualties", "points": 0, "who": "own"}) == "Suffer no casualty points."


# -- the samples, read by eye ----------------------------------------------------------------------------------

EXPECTED = {
    "gela-piano-lupo": {
        "axis": "Control Piano Lupo junction (0807) and Ridge road (1110) at the end of the game.",
        "allies": "Both: (a) hold Piano Lupo junction (0807) at the end of two consecutive turns, at any point in the "
                  "game; and (b) control Ridge road (1110) at the end of the game."},
    "groesbeek-heights": {
        "allied": "Both: (a) control Grave bridge (09.12) and Nijmegen highway bridge (16.06) at the end of the "
                  "game; and (b) Keep the Groesbeek heights: no German unit in 07.11 at the end of the game.",
        "german": "Control Nijmegen highway bridge (16.06) at the end of the game."},
    "hill-112": {
        "german": "Either: (a) control one of Hill 112 crest (P10) or The Cornfield wood (O9) at the end of the "
                  "game; or (b) inflict at least 21 casualty points on the British.",
        "british": "Both: (a) control Hill 112 crest (P10) and The Cornfield wood (O9) at the end of the game; and "
                   "(b) suffer no more than 20 casualty points."},
    "oosterbeek-crossroads": {
        "british": "Control one of Oosterbeek church (F6) or Crossroads (H5) at the end of the game.",
        "german": "Either: (a) control Oosterbeek church (F6) and Crossroads (H5) at the end of the game; or (b) "
                  "eliminate every British unit."},
    "village-on-the-dnieper": {
        "german": "Control Church (H3) and Village well (D5) at the end of the game.",
        "soviet": "Either: (a) control one of Church (H3) or Village well (D5) at the end of the game; or (b) exit "
                  "at least 4 units off the north edge by the end of turn 10."},
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_samples_sentences(name, sample_maps):
    doc = parse(json.loads(SAMPLE[name].read_text(encoding="utf-8")), sample_maps)
    assert victory.sentences_for(doc) == EXPECTED[name]


def test_every_sample_is_read():
    assert set(EXPECTED) == set(SAMPLE)


# -- the card prints a nested sentence one item a line, each level further in ----------------------------------

def test_the_card_prints_each_item_on_its_own_line_indented_by_level(sample_maps):
    data = json.loads(SAMPLE["village-on-the-dnieper"].read_text(encoding="utf-8"))
    data["sides"][1]["victory"] = {"kind": "or", "conditions": [
        {"kind": "control", "objectives": ["church", "well"], "count": 1},
        {"kind": "and", "conditions": [EXIT, {"kind": "or", "conditions": [
            {"kind": "eliminate"}, {"kind": "text", "text": "German units keep out of the woods"}]}]}]}
    starts = {}

    def visit(text, cm, tm, font, size):
        for prefix in ("Either:", "(a) control", "(b) both:", "(i) exit", "(ii) either:", "(A) eliminate",
                       "(B) German units"):
            if text.startswith(prefix):
                starts[prefix] = round(tm[4] * cm[0] + cm[4], 1)

    for page in PdfReader(io.BytesIO(cards.card_pdf(parse(data, sample_maps)))).pages:
        page.extract_text(visitor_text=visit)
    x = [starts[k] for k in ("Either:", "(a) control", "(i) exit", "(A) eliminate")]
    assert x == sorted(x) and len(set(x)) == 4, starts
    assert starts["(a) control"] == starts["(b) both:"] and starts["(i) exit"] == starts["(ii) either:"]
    assert starts["(A) eliminate"] == starts["(B) German units"]
