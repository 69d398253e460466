"""Special rules that change the terrain (issue 30, point 2): a change carried by a special rule gives the same LOS,
checks and card map as the change painted by hand, on the samples; what the card prints is the rule's text; bad
changes are refused naming the special rule in the designer's words."""

import copy
import json
import pathlib

import numpy as np
import pytest

from engine import mapfile
from engine.los import engine
from engine.scenarios import checks, scenariofile, terrain_rules
from tests.scenarios.conftest import SAMPLES, parse

MAPS = pathlib.Path("maps/samples")


def sample(stem):
    return json.loads(next(p for p in SAMPLES if p.stem == stem).read_text(encoding="utf-8"))


def embedded(data, map_stem, edit=None):
    """The scenario with its main map embedded, edited by hand first where ``edit(document)`` is given."""
    document = json.loads((MAPS / f"{map_stem}.json").read_text(encoding="utf-8"))
    if edit:
        edit(document)
    entry = data["maps"][0]
    data["maps"][0] = {"key": entry["key"], "document": document, "placement": entry.get("placement", [0, 0]),
                       "rotation": entry.get("rotation", 0)}
    return data


def all_pairs(doc):
    """Every pair's LOS answer on the main map, at the levels units stand on."""
    mdoc = doc.maps[doc.main_key]
    rules = engine.rules_for(engine.compile_map(mdoc, []))
    levels = rules.unit_levels().astype(np.int32)
    n = mdoc.grid.columns * mdoc.grid.rows
    a, b = np.repeat(np.arange(n, dtype=np.int32), n), np.tile(np.arange(n, dtype=np.int32), n)
    return rules.answer_pairs(a, b, levels[a], levels[b])


def same_los(by_rule, by_hand):
    for x, y in zip(all_pairs(by_rule), all_pairs(by_hand), strict=True):
        assert np.array_equal(x, y)


def with_rule(data, text, *changes):
    data["special_rules"] = [*data.get("special_rules", []), {"text": text, "terrain": list(changes)}]
    return data


def _replace_everywhere(document, old, new):
    for h in document["hexes"]:
        h["terrain"] = [new if t == old else t for t in h["terrain"]]
    for overlay in document.get("overlays", []):
        for h in overlay.get("hexes", []):
            h["terrain"] = [new if t == old else t for t in h.get("terrain", [])]


def test_all_orchards_are_woods_is_the_map_painted_so():
    """ATS Oosterbeek, overlay included: "all orchards are woods" against the orchards repainted by hand."""
    rule = with_rule(embedded(sample("oosterbeek-crossroads"), "oosterbeek-crossroads"), "All orchards are woods.",
                     {"replace": {"orchard": "woods"}})
    hand = embedded(sample("oosterbeek-crossroads"), "oosterbeek-crossroads",
                    lambda d: _replace_everywhere(d, "orchard", "woods"))
    by_rule, by_hand = parse(rule), parse(hand)
    before = parse(sample_embedded("oosterbeek-crossroads"))
    cells = by_rule.maps[by_rule.main_key].resolved()[0]
    assert not any("orchard" in c.terrain for c in cells.values())
    woods = [sum("woods" in c.terrain for c in d.maps[d.main_key].resolved()[0].values()) for d in (before, by_rule)]
    assert woods[1] > woods[0]
    same_los(by_rule, by_hand)


def sample_embedded(stem):
    return embedded(sample(stem), stem)


def test_bocage_on_hill_hexes_does_not_exist():
    """OST Hill 112: a hexside terrain removed where one of its hexes is at level 1 or higher."""
    base = sample("hill-112")
    rule = with_rule(embedded(copy.deepcopy(base), "hill-112"), "Bocage on hill hexes does not exist.",
                     {"levels": [1, 9], "remove": ["bocage"]})

    def by_hand(document):
        levels = {h["hex"]: h.get("level", document["defaults"].get("level", 0)) for h in document["hexes"]}
        grid = mapfile.parse(document).grid
        kept = []
        for side in document["hexsides"]:
            col, row = grid.parse_label(side["hex"])
            other = grid.step(col, row, grid_side(grid, side["side"]))
            high = levels.get(side["hex"], 0) >= 1 or (grid.contains(*other) and levels.get(
                grid.label(*other), document["defaults"].get("level", 0)) >= 1)
            if not (side["terrain"] == "bocage" and high):
                kept.append(side)
        assert len(kept) < len(document["hexsides"])  # the sample has bocage on its hill
        document["hexsides"] = kept

    hand = embedded(copy.deepcopy(base), "hill-112", by_hand)
    same_los(parse(rule), parse(hand))


def grid_side(grid, name):
    from engine.hexgrid import SIDES
    return SIDES[grid.orientation].index(name)


def test_a_blown_bridge_and_a_raised_hex():
    """Hexes named one by one: the bridge at a hex removed, a hex's level set."""
    data = embedded(sample("oosterbeek-crossroads"), "oosterbeek-crossroads")
    document = data["maps"][0]["document"]
    target = next(h for h in document["hexes"] if "building" in h["terrain"])["hex"]
    rule = with_rule(copy.deepcopy(data), "The building is rubble.", {"hexes": [target], "replace": {"building":
                                                                                                     "rubble"}},
                     {"hexes": ["A1"], "level": 5})

    def edit(d):
        for h in d["hexes"]:
            if h["hex"] == target:
                h["terrain"] = ["rubble" if t == "building" else t for t in h["terrain"]]
        a1 = next((h for h in d["hexes"] if h["hex"] == "A1"), None)
        if a1 is None:
            d["hexes"].append({"hex": "A1", "terrain": list(d["defaults"]["terrain"]), "level": 5})
        else:
            a1["level"] = 5

    same_los(parse(rule), parse(embedded(sample("oosterbeek-crossroads"), "oosterbeek-crossroads", edit)))


def test_the_checks_read_the_changed_map():
    """A Heavy structure made rubble: the FlaK 36 barred from the structure may now set up there (OST 8.0.8)."""
    data = embedded(sample("hill-112"), "hill-112")
    german = data["sides"][0]
    german["oob"].append({"id": "flak", "unit": "FlaK 36", "count": 1, "type": "flak-36", "class": "foot",
                          "casualty_points": 2})
    german["placements"].append({"unit": "flak", "hex": "R7", "facing": "N"})
    assert [f.hex for f in checks.check(parse(data)) if f.code == "forbidden-terrain"] == ["R7"]
    with_rule(data, "The chateau at R7 was flattened.", {"hexes": ["R7"], "replace": {"heavy-structure": "rubble"}})
    assert not [f for f in checks.check(parse(data)) if f.code == "forbidden-terrain"]


def test_the_rule_keeps_its_text_and_round_trips():
    data = with_rule(sample_embedded("oosterbeek-crossroads"), "All orchards are woods.",
                     {"replace": {"orchard": "woods"}})
    doc = parse(data)
    assert doc.data["special_rules"][-1] == {"text": "All orchards are woods.",
                                             "terrain": [{"replace": {"orchard": "woods"}}]}
    again = scenariofile.parse(json.loads(scenariofile.dumps(doc)))
    assert again.data["special_rules"] == doc.data["special_rules"]
    assert terrain_rules.rule_text(doc.data["special_rules"][-1]) == "All orchards are woods."


@pytest.mark.parametrize("change, said", [
    ({"replace": {"orchard": "no-such"}}, "'no-such' is not a terrain of"),
    ({"replace": {"orchard": "hedge"}}, "a change keeps a terrain's layer"),
    ({"remove": ["orchard"], "level": 1}, "say one thing the change does"),
    ({"add": ["hedge"]}, "is a hexside terrain"),
    ({"hexes": ["Z99"], "remove": ["orchard"]}, "Z99"),
    ({"levels": [3, 1], "remove": ["orchard"]}, "expected [lowest, highest] levels"),
    ({"los": "purple", "remove": ["orchard"]}, "expected an LOS class of the game"),
    ({"hexes": ["A1"], "level": 3}, "is not a multiple of 5"),
])
def test_a_bad_change_is_refused_naming_the_special_rule(change, said):
    data = with_rule(sample_embedded("oosterbeek-crossroads"), "A rule.", change)
    with pytest.raises(scenariofile.ScenarioFormatError) as caught:
        parse(data)
    messages = [f.message for f in caught.value.errors]
    assert any(said in m for m in messages), messages


def test_too_many_changes_are_refused_before_any_is_made():
    data = sample_embedded("oosterbeek-crossroads")
    data["special_rules"] = [{"text": f"Rule {n}.", "terrain": [{"level": 5}] * 20} for n in range(3)]
    with pytest.raises(scenariofile.ScenarioFormatError) as caught:
        parse(data)
    assert any("at most 50" in f.message for f in caught.value.errors)


def test_the_card_map_draws_the_changed_map():
    """The card's map of a rule's change is the map painted so, pixel for pixel (Hill 112 has no overlays)."""
    from engine.scenarios import cards

    rule = with_rule(sample_embedded("hill-112"), "The woods are brush.", {"replace": {"woods": "brush"}})
    hand = embedded(sample("hill-112"), "hill-112", lambda d: _replace_everywhere(d, "woods", "brush"))
    plain = cards.scenario_map_png(parse(sample_embedded("hill-112")), "card", 60, 10)
    changed = cards.scenario_map_png(parse(rule), "card", 60, 10)
    assert changed == cards.scenario_map_png(parse(hand), "card", 60, 10) and changed != plain
