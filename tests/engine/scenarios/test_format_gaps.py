"""Issue 18, points 4 and 8: the format gaps the rulebooks' own scenario fragments found, closed, and messages
in the designer's words. An unknown turn count with the sentence that ends the game; a draft side with no units
(the checks say it is not playable yet); a unit off the map reckoned from a hex (004 L506); strength, steps lost
and status per placement; the rule modules in play (002 2.1); bridge and Extended Deployment details as data
(004 L626, L501-506). Each new field is read, refused by its path with a designer's message when wrong, and
printed on the card where the card shows it."""

import copy
import io
import json

import pytest
from pypdf import PdfReader

from engine import rulesets
from engine.scenarios import cards, checks, scenariofile, visibility
from engine.scenarios.checks.common import stacks
from tests.scenarios.conftest import SAMPLE_MAPS, SAMPLES, parse

BY_NAME = {path.stem: path for path in SAMPLES}


@pytest.fixture(scope="module")
def maps():
    return scenariofile.folder_maps(SAMPLE_MAPS)


def sample(name):
    return json.loads(BY_NAME[name].read_text(encoding="utf-8"))


def errors_of(data, maps=None):
    with pytest.raises(scenariofile.ScenarioFormatError) as caught:
        parse(data, maps)
    return {e.path: e for e in caught.value.errors}


def round_trips(doc):
    text = scenariofile.dumps(doc)
    assert scenariofile.dumps(scenariofile.parse(text, doc_maps(doc))) == text
    return json.loads(text)


def doc_maps(doc):
    return lambda entry: next(iter(doc.maps.values()))


def text_of(doc, sheet=None):
    reader = PdfReader(io.BytesIO(cards.card_pdf(doc, "a4", sheet)))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def codes(doc):
    return {(f.code, f.path) for f in checks.check(doc)}


# -- the turn count -------------------------------------------------------------------------------------------

def test_a_turn_count_that_is_not_fixed_reads_and_prints_the_sentence_not_a_track(small):
    small["turns"] = {"count": None, "end": "The game ends when the British hold the crest at the end of a turn"}
    doc = parse(small)
    assert doc.data["turns"] == {"count": None, "counts": "up", "first": 1,  # OST's count-down default drops
                                 "end": "The game ends when the British hold the crest at the end of a turn"}
    round_trips(doc)
    track = cards.turn_track(doc, {"blue", "red"}, 500)
    assert [type(x).__name__ for x in track] == ["Paragraph"]  # no boxes, not a one-box track
    text = text_of(doc)
    assert "The game ends when the British hold the crest at the end of a turn." in text
    assert "Turn 2:" in text and "box" not in text.split("Turn 2:")[1][:30]  # the turn played, no box
    assert "no-end" not in {c for c, _ in codes(doc)}
    assert "reinforcement-turn" not in {c for c, _ in codes(doc)}  # turn 2 is a turn of an open-ended game


def test_an_open_ended_game_must_say_when_it_ends(small):
    small["turns"] = {"count": None}
    assert ("no-end", "turns.end") in codes(parse(small))


def test_a_fixed_count_prints_its_end_sentence_under_the_track(small):
    small["turns"] = {"count": 6, "end": "or sooner, when one side has no units left"}
    assert "or sooner, when one side has no units left." in text_of(parse(small))


@pytest.mark.parametrize("turns, path, words", [
    ({"count": 0}, "turns.count", "the turn count: expected a whole number of turns from 1 to 1000, or null"),
    ({"count": "six"}, "turns.count", "or null where the game has no fixed number of turns"),
    ({"count": None, "counts": "down", "end": "x"}, "turns.counts", "a track that counts down starts at the turn"),
    ({"count": 4, "end": ["x"]}, "turns.end", "when the game ends: expected text, got a list"),
    ({"count": None, "end": "e" * 1001}, "turns.end", "when the game ends is 1,001 characters; at "
                                                      "most 1,000"),
])
def test_bad_turns_are_refused_by_path_in_designer_words(small, turns, path, words):
    small["turns"] = turns
    found = errors_of(small)
    assert words in found[path].message, found


# -- drafts ---------------------------------------------------------------------------------------------------

def test_a_side_with_no_units_yet_reads_and_the_checks_say_it_is_not_playable(small):
    small["sides"].append({"id": "green", "name": "Green", "oob": []})
    small["sides"].append({"id": "grey", "name": "Grey"})  # no OOB key at all: a draft too
    doc = parse(small)
    found = {f.path: f for f in checks.check(doc) if f.code == "not-playable"}
    assert set(found) == {"sides[2].oob", "sides[3].oob"}
    assert found["sides[2].oob"].severity == "error"
    assert found["sides[2].oob"].message == "Green has no units yet: the scenario is not playable until it has"


def test_a_tocs_view_with_sides_of_no_units_reads(maps):
    data = sample("groesbeek-heights")
    for sides in ((), {"allied"}, {"german"}):
        view = visibility.view(data, sides)
        doc = scenariofile.parse(view, maps)
        assert all(not s["oob"] for s in doc.data["sides"] if s["id"] not in sides)


# -- off the map ----------------------------------------------------------------------------------------------

def test_an_off_map_unit_is_reckoned_from_its_hex_and_in_no_stack_zone_or_terrain(small):
    # J8: Red's hex, outside Blue's zone, a hex a tank could enter: none of it matters off the map.
    small["sides"][0]["placements"].append({"unit": "ldr", "hex": "J8", "off_map": True})
    small["sides"][0]["placements"].append({"unit": "sq", "hex": "C4", "off_map": False})
    doc = parse(small)
    placed = doc.data["sides"][0]["placements"]
    assert placed[3] == {"unit": "ldr", "hex": "J8", "facing": None, "off_map": True}
    assert "off_map" not in placed[4]  # the default is not written
    found = codes(doc)
    assert not {c for c, p in found if p.startswith("sides[0].placements[3]")}
    assert ("both-sides-in-hex", "sides") not in found
    assert ("setup-outside-zone", "sides[0].placements[4].hex") in found  # on the map: checked as before
    blue = doc.data["sides"][0]
    assert "J8" not in stacks(blue, doc.units(blue))
    assert "off map (J8)" in text_of(doc)
    round_trips(doc)


def test_off_map_is_true_or_false(small):
    small["sides"][0]["placements"][0]["off_map"] = "yes"
    found = errors_of(small)
    assert found["sides[0].placements[0].off_map"].message == ("the off-map flag of Blue's placement 1 (Rifle Squad): "
                                                               "expected true or false, got 'yes'")


def test_the_tocs_hq_off_map_at_13_07(maps):
    """004 L506: "the 2nd Battalion HQs located off map in hex 13.07"."""
    data = sample("groesbeek-heights")
    german = data["sides"][1]
    german["placements"][0] = {"unit": "kg", "hex": "13.07", "off_map": True}
    doc = scenariofile.parse(data, maps)
    assert not [f for f in checks.check(doc) if f.path == "sides[1].placements[0].hex" and f.code.startswith(
        ("setup-", "forbidden"))]
    assert "off map (13.07)" in text_of(doc, "german")


# -- strength, steps lost, status -----------------------------------------------------------------------------

def test_strength_steps_lost_and_status_are_read_written_and_printed(maps):
    data = sample("groesbeek-heights")
    data["sides"][0]["placements"][1].update(strength="3-4-6", steps_lost=2, status=["fatigued"])
    doc = scenariofile.parse(data, maps)
    assert doc.data["sides"][0]["placements"][1] == {"unit": "co-a", "hex": "06.10", "facing": None,
                                                     "strength": "3-4-6", "steps_lost": 2, "status": ["fatigued"]}
    assert "06.10 (2 steps lost; Fatigued; 3-4-6)" in text_of(doc, "allied")
    again = json.loads(scenariofile.dumps(doc))
    assert scenariofile.dumps(scenariofile.parse(again, maps)) == scenariofile.dumps(doc)


@pytest.mark.parametrize("change, path, message", [
    ({"steps_lost": 4}, "sides[0].placements[1].steps_lost",
     "Company A/1/505 (Allied OOB line 2) has 4 steps; with 4 lost it is eliminated, not set up: at most 3 (TOCS "
     "L179: a unit that receives the maximum number of hits it can sustain is destroyed and moved to the dead pile)"),
    ({"steps_lost": -1}, "sides[0].placements[1].steps_lost",
     "the steps lost of Allied's placement 2 (Company): expected a whole number from 0 to 1000, got -1"),
    ({"status": ["spent"]}, "sides[0].placements[1].status[0]",
     "Company A/1/505 (Allied OOB line 2): status 'spent' is not one of TOCS's statuses (fatigued, disordered, "
     "disrupted, demoralized, dispersed)"),
    ({"status": ["fatigued", "fatigued"]}, "sides[0].placements[1].status[1]",
     "Company A/1/505 (Allied OOB line 2) is given status 'fatigued' twice"),
    ({"status": "fatigued"}, "sides[0].placements[1].status",
     "Company A/1/505 (Allied OOB line 2): expected a list of status ids, got text"),
    ({"strength": 6}, "sides[0].placements[1].strength",
     "the strength of Allied's placement 2 (Company): expected text, got a number"),
    ({"strength": "s" * 41}, "sides[0].placements[1].strength",
     "the strength of Allied's placement 2 (Company) is 41 characters; at most 40"),
])
def test_bad_placement_state_is_refused_by_path_naming_the_unit(maps, change, path, message):
    data = sample("groesbeek-heights")
    data["sides"][0]["placements"][1].update(change)
    found = errors_of(data, maps)
    assert found[path].message == message
    assert found[path].hex == "06.10"


def test_the_steps_lost_of_a_line_without_steps_are_not_bounded_by_a_guess(small):
    small["sides"][0]["placements"][0]["steps_lost"] = 1  # OST: a reduced squad; its type gives no steps
    assert parse(small).data["sides"][0]["placements"][0]["steps_lost"] == 1


def test_statuses_are_the_game_s_own(small):
    small["sides"][0]["placements"][0]["status"] = ["shaken"]
    assert parse(small).data["sides"][0]["placements"][0]["status"] == ["shaken"]  # OST 17.2
    small["sides"][0]["placements"][0]["status"] = ["activated"]
    assert "is not one of Old School Tactical's statuses" in errors_of(small)[
        "sides[0].placements[0].status[0]"].message


# -- rule modules ---------------------------------------------------------------------------------------------

def test_assault_rule_modules_are_read_and_printed(maps):
    """002 2.1: the Infantry Training scenario uses the basic and infantry-specific rules; optional rules are
    left out while learning (3.2.3)."""
    data = sample("gela-piano-lupo")
    data["modules"] = ["infantry", "vehicles"]
    doc = scenariofile.parse(data, maps)
    assert doc.data["modules"] == ["infantry", "vehicles"]
    assert list(doc.data).index("modules") == list(doc.data).index("rules") + 1
    text = text_of(doc)
    assert "Rule modules in play: Infantry specific rules (Assault 3.2.2 (the Infantry Training scenario, 2.1)), " \
           "Vehicle specific rules" in text
    assert "modules" not in scenariofile.parse(sample("gela-piano-lupo"), maps).data  # none: left out


@pytest.mark.parametrize("modules, path, words", [
    (["infantry", "tanks"], "modules[1]", "module 2: expected one of Assault: Sicily '43's rule modules "
                                          "(infantry, artillery, vehicles, optional), got 'tanks'"),
    (["optional", "optional"], "modules[1]", "module 2: 'optional' is named twice"),
    ("infantry", "modules", "the modules: expected a list of rule module ids, got text"),
])
def test_bad_modules_are_refused(maps, modules, path, words):
    data = sample("gela-piano-lupo")
    data["modules"] = modules
    assert errors_of(data, maps)[path].message.startswith(words)


def test_a_game_without_modules_names_none(small):
    small["modules"] = ["optional"]
    assert "(it has none)" in errors_of(small)["modules[0]"].message


# -- marker details -------------------------------------------------------------------------------------------

def test_the_groesbeek_bridges_are_where_the_module_puts_them_with_their_details(maps):
    """004 L1366: "Grave Bridge depicted on the OMG-N Map at 08.12"; L1394: "Nijmegen Highway Bridge as depicted
    on the OMG-N Map at 16.05"; both two-lane metal bridges that carry all vehicle weights (L1368, L1396)."""
    doc = scenariofile.parse(sample("groesbeek-heights"), maps)
    bridges = {m["hex"]: m["details"] for m in doc.data["markers"] if m["kind"] == "bridge"}
    assert bridges == {"08.12": {"name": "Grave Bridge", "construction": "metal", "lanes": 2,
                                 "capacity": "all vehicle weights"},
                       "16.05": {"name": "Nijmegen Highway Bridge", "construction": "metal", "lanes": 2,
                                 "capacity": "all vehicle weights"}}
    objectives = {o["id"]: o["hex"] for o in doc.data["objectives"]}
    assert objectives == {"grave": "08.12", "highway": "16.05"}
    public = text_of(doc, "public")
    assert "name: Grave Bridge; construction: metal; lanes: 2; capacity: all vehicle weights" in public
    german = text_of(doc, "german")
    assert "Extended Deployment 15.03 German 1 toward: 14.03" in german
    assert "Extended Deployment" not in public  # the Commanding Officer never discloses it (004 L506)


@pytest.mark.parametrize("details, path, words", [
    ({"lanes": 3}, "markers[2].details.lanes", "the lanes of the details of marker 3 (bridge in 08.12): expected a "
                                               "whole number from 1 to 2, got 3"),
    ({"construction": "balsa"}, "markers[2].details.construction", "expected one of footbridge, pontoon, wooden"),
    ({"weight": 30}, "markers[2].details.weight", "unknown key 'weight'"),
    ("Grave", "markers[2].details", "the details of marker 3 (bridge in 08.12): expected an object, got a string"),
])
def test_bad_marker_details_are_refused_by_path(maps, details, path, words):
    data = sample("groesbeek-heights")
    data["markers"][2]["details"] = details
    found = errors_of(data, maps)
    assert words in found[path].message, found


def test_a_marker_kind_without_details_takes_none(maps):
    data = sample("groesbeek-heights")
    data["markers"][0]["details"] = {"name": "x"}
    assert errors_of(data, maps)["markers[0].details"].message == (
        "the details of marker 1 (roadblock in 15.03): a Roadblock marker takes no details (its game declares none)")


def test_extended_deployment_points_at_a_hex_of_the_map(maps):
    data = sample("groesbeek-heights")
    data["markers"][4]["details"] = {"toward": [13, 2]}  # given as [column, row]: written as its label
    doc = scenariofile.parse(data, maps)
    assert doc.data["markers"][4]["details"] == {"toward": "14.03"}
    data["markers"][4]["details"] = {"toward": "40.40"}
    assert "off the map" in errors_of(data, maps)["markers[4].details.toward"].message


def test_a_marker_with_details_stays_one_line_of_the_file(maps):
    text = scenariofile.dumps(scenariofile.parse(sample("groesbeek-heights"), maps))
    assert any(line.strip().startswith('{"kind": "bridge", "hex": "08.12"') and line.rstrip(",").endswith("}")
               for line in text.splitlines())


def test_the_catalogue_shape_of_statuses_modules_and_marker_details_is_checked():
    profile = {"id": "my-assault", "name": "Mine", "base": "assault", "terrain": [], "extends_base": True,
               "scenario": {"statuses": {"Pinned": {"name": "Pinned"}, "ok": {"rule": "x"}},
                            "modules": ["infantry"],
                            "markers": {"bridge": {"details": {"lanes": {"type": "lanes"}}, "colour": "red"}}}}
    with pytest.raises(rulesets.RulesetError) as info:
        rulesets.from_dict(copy.deepcopy(profile), where="mine.json")
    text = "\n".join(info.value.errors)
    assert "scenario.statuses.Pinned: 'Pinned' is not an id" in text
    assert "scenario.statuses.ok.name: is required" in text
    assert "scenario.modules: must be an object of {name, rule} per id" in text
    assert "scenario.markers.bridge.details.lanes.type: 'lanes' is not one of" in text
    assert "scenario.markers.bridge.colour: unknown key" in text


# -- messages in the designer's language (point 8) ------------------------------------------------------------

def test_check_messages_name_the_unit_by_its_line_the_side_by_name_and_the_hex(small):
    small["sides"][0]["placements"][0]["hex"] = "C3"
    found = {f.path: f for f in checks.check(parse(small))}
    finding = found["sides[0].placements[0].hex"]
    assert finding.message == "Rifle Squad (Blue OOB line 1) sets up in C3, outside Blue's setup zone"
    assert finding.hex == "C3" and finding.code == "setup-outside-zone"


def test_a_name_the_format_refuses_is_not_used_to_name_its_part():
    from engine.scenarios import limits, naming

    assert naming.NAME == limits.SIDE_NAME == limits.UNIT and naming.OBJECTIVE_NAME == limits.OBJECTIVE_NAME


def test_format_messages_name_the_part_the_path_is_kept(small):
    small["sides"][1]["oob"][0]["count"] = 0
    small["sides"][0]["placements"].append({"unit": "ghost", "hex": "A3"})
    small["sides"][1]["colour"] = "red"
    found = errors_of(small)
    assert found["sides[1].oob[0].count"].message == ("the count of Rifle Squad (Red OOB line 1): expected a whole "
                                                      "number from 1 to 500, got 0")
    assert found["sides[0].placements[3].unit"].message == ("Blue's placement in 'A3' names unit 'ghost', which is "
                                                            "not in Blue's OOB (its unit ids: ldr, sq, tank)")
    assert found["sides[0].placements[3].unit"].hex == "A3"
    assert found["sides[1].colour"].message == "Red's colour: expected a colour written #rrggbb, got 'red'"


ODD_VALUES = [None, True, 0, -3, 2.5, 10**30, "", "x", [], [1], ["fatigued", None], {}, {"a": 1}, [[]], {"toward": {}}]
NEW_FIELDS = [("turns", "count"), ("turns", "end"), ("turns", "counts"), ("modules",),
              ("sides", 0, "placements", 1, "off_map"), ("sides", 0, "placements", 1, "strength"),
              ("sides", 0, "placements", 1, "steps_lost"), ("sides", 0, "placements", 1, "status"),
              ("markers", 2, "details"), ("markers", 2, "details", "lanes"), ("markers", 4, "details", "toward"),
              ("sides", 0, "oob")]


@pytest.mark.parametrize("trail", NEW_FIELDS, ids=lambda t: ".".join(map(str, t)))
def test_any_value_in_a_new_field_is_read_or_refused_with_its_path(maps, trail):
    for value in ODD_VALUES:
        data = sample("groesbeek-heights")
        target = data
        for step in trail[:-1]:
            target = target[step]
        target[trail[-1]] = copy.deepcopy(value)
        try:
            doc = scenariofile.parse(data, maps)
        except scenariofile.ScenarioFormatError as exc:
            assert all(f.path and f.message for f in exc.errors)
        else:
            assert scenariofile.dumps(scenariofile.parse(scenariofile.dumps(doc), maps)) == scenariofile.dumps(doc)
            checks.check(doc)  # the checks read whatever the format took
            text_of(doc, "public")


def test_the_editor_s_edits_set_the_new_fields(maps):
    from engine.scenarios import edits

    data = scenariofile.to_dict(scenariofile.parse(sample("gela-piano-lupo"), maps))
    doc, _ = edits.apply(data, [{"op": "set", "path": "modules", "value": ["infantry"]},
                                {"op": "set", "path": "sides[0].placements[0].status", "value": ["firing"]},
                                {"op": "set", "path": "turns.count", "value": None},
                                {"op": "set", "path": "turns.end", "value": "The game ends when the junction falls"}],
                         maps)
    assert doc.data["modules"] == ["infantry"] and doc.data["sides"][0]["placements"][0]["status"] == ["firing"]
    assert doc.data["turns"] == {"count": None, "counts": "up", "first": 1,
                                 "end": "The game ends when the junction falls"}
    with pytest.raises(edits.EditError) as caught:
        edits.apply(data, [{"op": "set", "path": "sides[0].placements[0].status", "value": ["spent"]}], maps)
    assert "status 'spent' is not one of Assault: Sicily '43's statuses" in str(caught.value)



@pytest.mark.parametrize("reserved", ["public", "card"])
def test_a_side_may_not_take_the_public_sheets_name(reserved, maps):
    data = sample("groesbeek-heights")
    data["sides"][0]["id"] = reserved
    found = errors_of(data, maps)
    assert "public card" in found["sides[0].id"].message
