"""Every victory kind says itself as a plain English sentence, and bad conditions are found with their paths."""

import pytest

from engine.scenarios import victory

NAMES = {"crest": "Hill 112 crest (P10)", "wood": "The wood (O9)", "farm": "Esquay farm (I11)"}

CASES = [
    ({"kind": "control", "objectives": ["crest"]}, "Control Hill 112 crest (P10) at the end of the game."),
    ({"kind": "control", "objectives": ["crest", "wood", "farm"], "at": "end"},
     "Control Hill 112 crest (P10), The wood (O9) and Esquay farm (I11) at the end of the game."),
    ({"kind": "control", "objectives": ["crest"], "at": "each-turn", "vp": 3},
     "Score 3 VP for Hill 112 crest (P10) you control at the end of each turn."),
    ({"kind": "control", "objectives": ["crest", "wood"], "at": "each-turn", "vp": 1},
     "Score 1 VP for each of Hill 112 crest (P10) and The wood (O9) you control at the end of each turn."),
    ({"kind": "control", "objectives": ["crest", "wood", "farm"], "count": 2},
     "Control two of Hill 112 crest (P10), The wood (O9) or Esquay farm (I11) at the end of the game."),
    ({"kind": "vp", "at_least": 10}, "Have at least 10 victory points at the end of the game."),
    ({"kind": "vp", "at_least": 1}, "Have at least 1 victory point at the end of the game."),
    ({"kind": "casualties", "points": 16}, "Inflict at least 16 casualty points on the British."),
    ({"kind": "casualties", "points": 20, "who": "own"}, "Suffer no more than 20 casualty points."),
    ({"kind": "exit", "units": 4, "edge": "N", "by_turn": 10},
     "Exit at least 4 units off the north edge by the end of turn 10."),
    ({"kind": "exit", "vp": 12, "hexes": ["A5", "A6"]}, "Exit units worth at least 12 VP through hexes A5 or A6."),
    ({"kind": "hold", "objective": "farm", "turns": 3},
     "Hold Esquay farm (I11) at the end of three consecutive turns, at any point in the game."),
    ({"kind": "hold", "objective": "farm", "turns": 1}, "Hold Esquay farm (I11) at the end of any turn."),
    ({"kind": "eliminate"}, "Eliminate every British unit."),
    ({"kind": "and", "conditions": [{"kind": "control", "objectives": ["crest"]}, {"kind": "vp", "at_least": 5}]},
     "Both: (a) control Hill 112 crest (P10) at the end of the game; and (b) have at least 5 victory points at the "
     "end of the game."),
    ({"kind": "or", "conditions": [{"kind": "eliminate"}, {"kind": "text", "text": "Hold out until dusk"}]},
     "Either: (a) eliminate every British unit; or (b) Hold out until dusk."),
    ({"kind": "text", "text": "Keep the bridge intact"}, "Keep the bridge intact."),
]


@pytest.mark.parametrize("condition, expected", CASES, ids=[c[0]["kind"] + str(i) for i, c in enumerate(CASES)])
def test_sentence(condition, expected):
    assert victory.check(condition, "victory", set(NAMES)) == []
    assert victory.sentence(victory.normalise(condition), NAMES, "the British") == expected


def test_every_kind_has_a_sentence_case():
    assert {c[0]["kind"] for c in CASES} == set(victory.KINDS)


def test_bad_conditions_are_found_with_their_paths():
    bad = {"kind": "and", "conditions": [
        {"kind": "control", "objectives": ["crest", "nowhere"], "at": "sometimes"},
        {"kind": "exit", "units": 0},
        {"kind": "hold", "objective": "crest"},
        {"kind": "flags"}]}
    found = {f.path: f.message for f in victory.check(bad, "sides[0].victory", set(NAMES))}
    assert "no objective 'nowhere'" in found["sides[0].victory.conditions[0].objectives[1]"]
    assert "'end' or 'each-turn'" in found["sides[0].victory.conditions[0].at"]
    assert "needs an 'edge'" in found["sides[0].victory.conditions[1]"]
    assert "from 1" in found["sides[0].victory.conditions[1].units"]
    assert "needs 'turns'" in found["sides[0].victory.conditions[2].turns"]
    assert "expected one of" in found["sides[0].victory.conditions[3].kind"]
