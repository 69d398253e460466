"""Issue 17, point 6: every text and every list of the scenario format has a limit (engine/scenarios/limits.py),
and a scenario past one is refused with the part named in a designer's words and the limit, before it costs
anything to print."""

import pytest

from engine.scenarios import limits, scenariofile
from tests.scenarios.conftest import SAMPLES, parse


def problems(data):
    with pytest.raises(scenariofile.ScenarioFormatError) as caught:
        parse(data)
    return {(f.path, f.message) for f in caught.value.errors}


def test_a_megabyte_special_rule_is_refused_in_designer_words(small):
    small["special_rules"] = ["Night rules apply.", "Smoke lasts a turn.", "x" * 1_048_576]
    assert problems(small) == {("special_rules[2]", "special rule 3 is 1,048,576 characters; at most 4,000")}


def test_the_longest_allowed_special_rule_is_read(small):
    small["special_rules"] = ["y" * limits.SPECIAL_RULE] * limits.SPECIAL_RULES
    assert len(parse(small).data["special_rules"]) == limits.SPECIAL_RULES


# (where in the document, key, limit, what the message calls it)
TEXTS = [
    ((), "title", limits.TITLE, "the title"),
    ((), "subtitle", limits.SUBTITLE, "the subtitle"),
    ((), "introduction", limits.INTRODUCTION, "the introduction"),
    ((), "designer", limits.DESIGNER, "the designer's name"),
    (("sides", 0), "name", limits.SIDE_NAME, "the name of side 1"),
    (("sides", 0, "brief"), "mission", limits.BRIEF, "Blue's mission"),
    (("sides", 0, "oob", 1), "unit", limits.UNIT, "the unit type of Blue's OOB line 2"),
    (("sides", 0, "oob", 1), "notes", limits.UNIT_NOTES, "the notes of Sherman (Blue OOB line 2)"),
    (("sides", 0, "reinforcements", 0), "note", limits.REINFORCEMENT_NOTE,
     "the note of Blue's reinforcement 1 (turn 2)"),
]


@pytest.mark.parametrize("where, key, limit, what", TEXTS, ids=lambda v: v if isinstance(v, str) else None)
def test_every_text_has_a_limit_named_in_its_message(small, where, key, limit, what):
    target = small
    for step in where:
        target = target.setdefault("brief", {}) if step == "brief" else target[step]
    target[key] = "z" * (limit + 1)
    found = problems(small)
    assert any(message == f"{what} is {limit + 1:,} characters; at most {limit:,}" for _, message in found), found


def test_too_many_oob_lines_are_refused_before_they_are_read(small):
    oob = [{"id": f"u{i}", "unit": "Rifle Squad"} for i in range(limits.OOB_LINES + 1)]
    oob[3]["nope"] = True  # not reported: the list is not read past its count
    small["sides"][1]["oob"] = oob
    found = problems(small)
    assert ("sides[1].oob", f"Red has {limits.OOB_LINES + 1:,} OOB lines; at most {limits.OOB_LINES:,}") in found
    assert not any("nope" in path for path, _ in found)


@pytest.mark.parametrize("key, limit, noun", [("special_rules", limits.SPECIAL_RULES, "special rules"),
                                              ("markers", limits.MARKERS, "markers"),
                                              ("objectives", limits.OBJECTIVES, "objectives")])
def test_too_many_of_the_scenario_s_lists(small, key, limit, noun):
    small[key] = ["rule"] * (limit + 1) if key == "special_rules" else [{}] * (limit + 1)
    assert (key, f"the scenario has {limit + 1:,} {noun}; at most {limit:,}") in problems(small)


def test_too_many_placements_reinforcements_and_sides(small):
    side = small["sides"][0]
    side["placements"] = [{"unit": "sq", "hex": "A1"}] * (limits.PLACEMENTS + 1)
    side["reinforcements"] = [{"turn": 2, "units": [{"unit": "sq"}] * (limits.REINFORCEMENT_UNITS + 1),
                               "edge": "W"}]
    side["setup_zone"] = ["A1"] * (limits.HEXES + 1)
    found = {message for _, message in problems(small)}
    assert f"Blue has {limits.PLACEMENTS + 1:,} placements; at most {limits.PLACEMENTS:,}" in found
    assert (f"Blue's reinforcement 1 (turn 2) has {limits.REINFORCEMENT_UNITS + 1:,} units; at most "
            f"{limits.REINFORCEMENT_UNITS:,}") in found
    assert f"Blue's setup zone has {limits.HEXES + 1:,} hexes; at most {limits.HEXES:,}" in found
    small["sides"] = [small["sides"][0]] * (limits.SIDES + 1)
    assert ("sides", f"the scenario has {limits.SIDES + 1} sides; at most {limits.SIDES}") in problems(small)


def test_a_victory_condition_combines_a_bounded_number_of_conditions(small):
    leaf = {"kind": "vp", "at_least": 1}
    small["sides"][0]["victory"] = {"kind": "or", "conditions": [leaf] * (limits.VICTORY_CONDITIONS + 5)}
    found = problems(small)
    assert ("sides[0].victory", f"Blue's victory condition combines more than {limits.VICTORY_CONDITIONS} conditions; "
                                f"at most {limits.VICTORY_CONDITIONS}") in found
    small["sides"][0]["victory"] = {"kind": "text", "text": "w" * (limits.VICTORY_TEXT + 1)}
    assert ("sides[0].victory.text", f"the text of Blue's victory condition is {limits.VICTORY_TEXT + 1:,} characters; "
                                     f"at most {limits.VICTORY_TEXT:,}") in problems(small)


def test_every_sample_is_within_the_limits(sample_maps):
    for path in SAMPLES:
        scenariofile.parse(path.read_bytes(), sample_maps)  # raises past a limit


def test_the_limits_are_documented():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs" / "scenario-format.md").read_text()
    for name in ("SPECIAL_RULE", "SPECIAL_RULES", "OOB_LINES", "PLACEMENTS", "REINFORCEMENTS", "SIDES", "MARKERS",
                 "OBJECTIVES", "VICTORY_CONDITIONS", "INTRODUCTION", "BRIEF", "UNIT_NOTES"):
        assert f"`{name}`" in text and f"{getattr(limits, name):,}" in text, name


def test_a_game_s_own_fields_are_bounded(small):
    small["sides"][0]["fields"]["impulse"] = "2D6+" + "3" * limits.GAME_FIELD  # past any field's limit
    found = problems(small)
    assert any(path == "sides[0].fields.impulse" and message.endswith(f"at most {limits.GAME_FIELD:,}")
               for path, message in found), found


def test_the_texts_together_and_the_oob_lines_of_all_sides_are_bounded(small):
    """Each within its own limit, but not all of them at once: the card prints them all."""
    small["introduction"] = "i" * limits.INTRODUCTION
    small["special_rules"] = ["r" * limits.SPECIAL_RULE] * limits.SPECIAL_RULES
    small["sides"][0]["oob"][0]["notes"] = "n" * limits.UNIT_NOTES
    small["sides"][0]["brief"] = {"mission": "m" * limits.BRIEF, "intelligence": "l" * limits.BRIEF}
    for _k in range(limits.REINFORCEMENTS):
        small["sides"][1].setdefault("reinforcements", []).append(
            {"turn": 2, "units": [{"unit": "sq"}], "edge": "E", "note": "t" * limits.REINFORCEMENT_NOTE})
    total = (limits.INTRODUCTION + limits.SPECIAL_RULE * limits.SPECIAL_RULES + limits.UNIT_NOTES + 2 * limits.BRIEF
             + limits.REINFORCEMENT_NOTE * limits.REINFORCEMENTS)
    found = problems(small)
    [(path, message)] = [(p, m) for p, m in found if p == "$"]
    assert message.startswith("the scenario's texts come to ")
    assert message.endswith(f"at most {limits.TEXTS:,} together")
    assert int(message.split()[5].replace(",", "")) >= total

    side = {"id": "x", "name": "X", "oob": [{"id": f"u{i}", "unit": "Rifle Squad"} for i in range(limits.OOB_LINES)]}
    sides = [dict(side, id=f"s{k}") for k in range(limits.OOB_LINES_ALL // limits.OOB_LINES + 1)]
    small.update(sides=sides, introduction="", special_rules=[])
    assert ("sides", f"the sides have {len(sides) * limits.OOB_LINES:,} OOB lines in all; at most "
                     f"{limits.OOB_LINES_ALL:,}") in problems(small)


def test_a_victory_condition_of_a_million_entries_is_one_finding(small):
    small["sides"][0]["victory"] = {"kind": "or", "conditions": [{"kind": "and", "conditions": list(range(10**6))},
                                                                 {"kind": "vp", "at_least": 1}]}
    small["sides"][1]["victory"] = {"kind": "control", "objectives": ["hill"] * 10**6}
    found = problems(small)
    assert len(found) == 2 and {path for path, _ in found} == {"sides[0].victory", "sides[1].victory.objectives"}


def test_a_victory_condition_names_a_bounded_number_of_objectives_in_all(small):
    small["objectives"] = [{"id": f"o{k}", "hex": "D5", "name": "O" * limits.OBJECTIVE_NAME} for k in range(100)]
    control = {"kind": "control", "objectives": [f"o{k}" for k in range(100)]}
    small["sides"][0]["victory"] = {"kind": "or", "conditions": [control] * 3}
    assert problems(small) == {("sides[0].victory", f"Blue's victory condition names 300 objectives in all; at most "
                                                    f"{limits.OBJECTIVES}")}


def test_the_hex_lists_together_are_bounded(small):
    entry = {"turn": 2, "units": [{"unit": "sq"}], "hexes": ["A1"] * limits.HEXES}
    small["sides"][0]["reinforcements"] = [entry] * (limits.HEXES_ALL // limits.HEXES + 3)
    found = problems(small)
    assert len([f for f in found if "hex lists" in f[1]]) == 1  # said once, where the budget ran out
    # (the setup zones count too, so the budget runs out at the 10th list of 5,000 hexes)
    assert (f"sides[0].reinforcements[{limits.HEXES_ALL // limits.HEXES - 1}].hexes",
            f"the scenario's hex lists come to more than {limits.HEXES_ALL:,} hexes here; at most "
            f"{limits.HEXES_ALL:,} in all") in found
