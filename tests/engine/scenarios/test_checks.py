"""Each check, with a scenario that passes it (the samples validate cleanly) and one that breaks it, at the
right hex; and the Village sample's activation deck by the quick reference's formula."""

import json

import pytest

from engine.games.miniatures.checks import deck_cards
from engine.scenarios import checks as scenario_checks
from engine.scenarios import scenariofile
from tests.scenarios.conftest import SAMPLES, parse

SAMPLE = {p.stem: p for p in SAMPLES}


def load(name):
    return json.loads(SAMPLE[name].read_text(encoding="utf-8"))


def findings(data, maps):
    return scenario_checks.check(parse(data, maps))


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_every_sample_validates_cleanly(path, sample_maps):
    doc = scenariofile.parse(path.read_bytes(), sample_maps)
    assert [str(f) for f in scenario_checks.check(doc)] == []


def side(data, sid):
    return next(s for s in data["sides"] if s["id"] == sid)


def place(data, sid, unit, hex, facing=None):
    side(data, sid)["placements"].append({"unit": unit, "hex": hex, "facing": facing})


def add_unit(data, sid, **unit):
    side(data, sid)["oob"].append(unit)


# Each case: (sample, how to break it, the code expected, the hex expected or None, severity)
def too_few_sides(d):
    d["sides"] = d["sides"][:1]
    d["sets_up_first"] = None
    d["objectives"][0]["owner"] = None
    d["objectives"][1]["owner"] = None
    d["markers"] = []


def outside_play_area(d):
    d["play_area"] = {"corners": ["B2", "T12"]}
    side(d, "british")["placements"][0]["hex"] = "A1"
    side(d, "british")["placements"][0]["unit"] = "piat"
    side(d, "british")["placements"].pop(-1)


def jeep_in_woods(d):
    add_unit(d, "british", id="jeep", unit="Jeep", count=1, **{"class": "wheeled", "type": "wheeled-vehicle"})
    place(d, "british", "jeep", "B2")


def three_squads(d):
    side(d, "german")["placements"][9]["hex"] = "P10"  # the sniper: snipers do not count
    side(d, "german")["placements"][3]["hex"] = "P10"  # a third rifle squad


def two_markers(d):
    d["markers"].append({"kind": "wire", "hex": "P10", "side": "german"})


def pillbox_in_structure(d):
    d["markers"].append({"kind": "pillbox", "hex": "R7", "side": "german", "facing": "NW"})


def pillbox_without_facing(d):
    d["markers"].append({"kind": "pillbox", "hex": "T8", "side": "german"})


def sniper_not_hidden(d):
    side(d, "german")["oob"][5]["hidden"] = False


def no_gut_check(d):
    del side(d, "british")["fields"]["gut_check"]


def late_reinforcement(d):
    side(d, "british")["reinforcements"][0]["turn"] = 15


def entry_inside(d):
    side(d, "british")["reinforcements"][0]["hexes"] = ["E6"]


def too_many_arrive(d):
    side(d, "british")["reinforcements"][0]["units"][0]["count"] = 3
    side(d, "british")["reinforcements"].append({"turn": 4, "units": [{"unit": "sherman", "count": 1}], "edge": "W"})


def both_sides(d):
    place(d, "british", "rifle", "Q9")
    place(d, "german", "rifle", "Q9")
    side(d, "british")["setup_zone"].append("Q9")
    side(d, "german")["oob"][0]["count"] = 5
    side(d, "british")["oob"][0]["count"] = 7


def objective_outside(d):
    d["play_area"] = {"corners": ["A1", "S11"]}
    d["objectives"].append({"id": "corner", "hex": "T12", "name": "Corner"})
    side(d, "german")["setup_zone"] = [h for h in side(d, "german")["setup_zone"] if h[0] != "T" and h[1:] != "12"]


def no_victory(d):
    for s in d["sides"]:
        s["victory"] = None


def unit_nowhere(d):
    side(d, "british")["setup_zone"] = []
    side(d, "british")["placements"] = [p for p in side(d, "british")["placements"] if p["unit"] != "rifle"]


def overlay_apart(d):
    d["rules"]["overlays"] = [{"id": "OG1", "x": "C3", "y": "F3"}]


def no_setup_order(d):
    d["rules"]["setup_order"] = []
    d["sets_up_first"] = None


def two_vehicles(d):
    side(d, "german")["reinforcements"][0]["units"][0]["count"] = 0  # replaced below
    side(d, "german")["reinforcements"].pop(0)
    place(d, "german", "stug", "Q5", "SW")
    place(d, "german", "stug", "Q5", "SW")


def too_many_sp(d):
    side(d, "british")["oob"][0]["count"] = 9
    for _ in range(4):
        place(d, "british", "para", "H7")  # 5 squads (15 SP) in one location (ATS 5.1.2)


def hidden_squad(d):
    side(d, "german")["oob"][0]["hidden"] = True


def empty_zone(d):
    side(d, "british")["setup_zone"] = []
    side(d, "british")["oob"][0]["count"] = 6


def wrong_owner(d):
    d["objectives"][1]["owner"] = "axis"


def no_axis_victory(d):
    side(d, "axis")["victory"] = None


def stacked(d):
    side(d, "axis")["placements"][1]["hex"] = "0303"


def no_facing(d):
    side(d, "axis")["placements"][3]["facing"] = None


def infantry_facing(d):
    side(d, "axis")["placements"][0]["facing"] = 3


def truck_on_objective(d):
    add_unit(d, "allies", id="truck", unit="Truck", count=1, **{"class": "wheeled", "type": "transport"})
    side(d, "allies")["placements"][0]["hex"] = "0910"  # frees 1010
    place(d, "allies", "truck", "1110", 2)
    side(d, "allies")["placements"][1]["hex"] = "1210"


def tank_in_building(d):
    side(d, "axis")["placements"][3]["hex"] = "0101"  # a single-storey building


def too_many_formations(d):
    side(d, "axis")["fields"]["formations"]["infantry"] = 0  # its OOB starts with the Panzergrenadier platoon


def too_many_ta(d):
    side(d, "axis")["fields"]["ta_oas"] = 6


def mines_not_enabled(d):
    d["markers"].append({"kind": "minefield-apm", "hex": "0606", "side": "axis"})


def deck_wrong(d):
    side(d, "german")["fields"]["deck"] = 8


def no_officer(d):
    side(d, "soviet")["oob"] = [u for u in side(d, "soviet")["oob"] if u["id"] != "smg-pc"]
    side(d, "soviet")["reinforcements"][0]["units"].pop()


def trucks_and_halftracks(d):
    add_unit(d, "german", id="truck", unit="Truck", formation="2nd Grenadier platoon", element="platoon",
             **{"class": "wheeled", "type": "truck"})
    add_unit(d, "german", id="ht", unit="SdKfz 251", formation="2nd Grenadier platoon", element="platoon",
             **{"class": "half-tracked", "type": "half-track"})
    d["sides"][0]["fields"]["deck"] = 7


def sniper_close(d):
    place(d, "german", "sniper", "H7")


def small_scale(d):
    d["rules"]["inches_per_hex"] = 1.0


def no_perimeter(d):
    d["perimeter"] = None


def gap_in_perimeter(d):
    d["perimeter"]["german"].remove("22.16")


def outside_perimeter(d):
    side(d, "german")["placements"][3]["hex"] = "09.05"


def flak_in_swamp(d):
    side(d, "german")["placements"][3]["hex"] = "06.07"


def five_companies(d):
    for n in range(5):
        add_unit(d, "allied", id=f"x{n}", unit="Company", steps=4, parent="hq505",
                 **{"class": "foot", "type": "company"})
        place(d, "allied", f"x{n}", "05.12")


def too_many_steps(d):
    side(d, "allied")["oob"][1]["steps"] = 5


def bad_parent(d):
    side(d, "allied")["oob"][2]["parent"] = "co-a"


def no_brief(d):
    side(d, "german")["brief"]["intelligence"] = ""


CASES = [
    ("hill-112", too_few_sides, "too-few-sides", None, "error"),
    ("hill-112", outside_play_area, "setup-outside-play-area", "A1", "error"),
    ("hill-112", jeep_in_woods, "forbidden-terrain", "B2", "error"),
    ("hill-112", three_squads, "stacking", "P10", "error"),
    ("hill-112", two_markers, "ost-markers-per-hex", "P10", "error"),
    ("hill-112", pillbox_in_structure, "ost-fortification-terrain", "R7", "error"),
    ("hill-112", pillbox_without_facing, "ost-pillbox-facing", "T8", "error"),
    ("hill-112", sniper_not_hidden, "ost-hidden", None, "warning"),
    ("hill-112", no_gut_check, "ost-side-numbers", None, "warning"),
    ("hill-112", late_reinforcement, "reinforcement-turn", None, "error"),
    ("hill-112", entry_inside, "entry-not-on-edge", "E6", "error"),
    ("hill-112", too_many_arrive, "more-than-count", None, "error"),
    ("hill-112", both_sides, "both-sides-in-hex", "Q9", "error"),
    ("hill-112", objective_outside, "objective-outside-play-area", "T12", "error"),
    ("hill-112", no_victory, "no-victory", None, "error"),
    ("hill-112", unit_nowhere, "unit-nowhere", None, "warning"),
    ("oosterbeek-crossroads", overlay_apart, "ats-overlay-xy", "C3", "error"),
    ("oosterbeek-crossroads", no_setup_order, "ats-setup-order", None, "warning"),
    ("oosterbeek-crossroads", two_vehicles, "overstacking", "Q5", "warning"),  # allowed with penalties (ATS 5.1.1)
    ("oosterbeek-crossroads", too_many_sp, "overstacking", "H7", "warning"),
    ("oosterbeek-crossroads", hidden_squad, "ats-hidden", None, "warning"),
    ("oosterbeek-crossroads", empty_zone, "ats-empty-zone", None, "error"),
    ("gela-piano-lupo", wrong_owner, "assault-objective-owner", "1110", "error"),
    ("gela-piano-lupo", no_axis_victory, "assault-victory", None, "error"),
    ("gela-piano-lupo", stacked, "stacking", "0303", "error"),
    ("gela-piano-lupo", no_facing, "assault-facing", "0302", "error"),
    ("gela-piano-lupo", infantry_facing, "assault-facing", "0303", "warning"),
    ("gela-piano-lupo", truck_on_objective, "assault-vehicle-objective", "1110", "error"),
    ("gela-piano-lupo", tank_in_building, "forbidden-terrain", "0101", "error"),
    ("gela-piano-lupo", too_many_formations, "assault-formations", None, "error"),
    ("gela-piano-lupo", too_many_ta, "assault-ta-oas", None, "error"),
    ("gela-piano-lupo", mines_not_enabled, "assault-minefields", "0606", "error"),
    ("village-on-the-dnieper", deck_wrong, "miniatures-deck", None, "error"),
    ("village-on-the-dnieper", no_officer, "miniatures-officer", None, "warning"),
    ("village-on-the-dnieper", trucks_and_halftracks, "miniatures-attachments", None, "error"),
    ("village-on-the-dnieper", sniper_close, "miniatures-sniper", "H7", "error"),
    ("village-on-the-dnieper", small_scale, "miniatures-scale", None, "warning"),
    ("groesbeek-heights", no_perimeter, "tocs-perimeter", None, "error"),
    ("groesbeek-heights", gap_in_perimeter, "tocs-no-mans-land", "22.16", "warning"),
    ("groesbeek-heights", outside_perimeter, "tocs-outside-perimeter", "09.05", "error"),
    ("groesbeek-heights", flak_in_swamp, "forbidden-terrain", "06.07", "error"),
    ("groesbeek-heights", five_companies, "stacking", "05.12", "error"),
    ("groesbeek-heights", too_many_steps, "tocs-steps", None, "error"),
    ("groesbeek-heights", bad_parent, "tocs-hq-tree", None, "error"),
    ("groesbeek-heights", no_brief, "tocs-brief", None, "warning"),
]


@pytest.mark.parametrize("sample, breaker, code, hex, severity", CASES,
                         ids=[f"{c[0].split('-')[0]}-{c[1].__name__}" for c in CASES])
def test_check_breaks_at_the_right_hex(sample, breaker, code, hex, severity, sample_maps):
    data = load(sample)
    assert not [f for f in findings(data, sample_maps) if f.code == code]
    breaker(data)
    found = [f for f in findings(data, sample_maps) if f.code == code]
    assert found, f"no {code} finding"
    assert any(f.hex == hex and f.severity == severity for f in found), [str(f) for f in found]
    assert all(f.message and f.path for f in found)


def test_miniatures_deck_by_the_formula(sample_maps):
    """QRS L7, L317 (the sheet has the formula, not a worked example): German 3 Grenadier platoons (one Elite
    PC), 1 local FOO, 1 independent StuG platoon and 1 company commander = 7; Soviet 2 rifle platoons, 1 SMG
    platoon, a tank company fielded as a single unit and 1 company commander = 5; a deck of 12."""
    doc = scenariofile.parse(SAMPLE["village-on-the-dnieper"].read_bytes(), sample_maps)
    german, soviet = doc.data["sides"]
    assert deck_cards(german) == {"platoons": 4, "foos": 1, "elite_commanders": 1,
                                             "company_commanders": 1, "total": 7}
    assert deck_cards(soviet) == {"platoons": 4, "foos": 0, "elite_commanders": 0,
                                             "company_commanders": 1, "total": 5}
    summary = scenario_checks.summary(doc)
    assert summary["deck_size"] == 12
    assert summary["inches_per_hex"] == 2.0  # 45.72 m hexes at 1" = 25 yd


def test_snipers_and_attached_elements_get_no_card():
    side = {"oob": [
        {"id": "a", "unit": "Rifle", "count": 6, "formation": "P1", "element": "platoon", "leader": False},
        {"id": "t", "unit": "Truck", "count": 2, "formation": "P1", "element": "attached", "leader": False},
        {"id": "s", "unit": "Sniper", "count": 1, "formation": None, "element": "sniper", "leader": False},
        {"id": "d", "unit": "FOO", "count": 1, "formation": None, "element": "divisional-foo", "leader": False}]}
    assert deck_cards(side)["total"] == 1


def test_ost_summary_counts_casualty_points(sample_maps):
    doc = scenariofile.parse(SAMPLE["hill-112"].read_bytes(), sample_maps)
    assert scenario_checks.summary(doc)["sides"]["german"]["casualty_points"] == 4 * 2 + 2 + 1 + 2 * 2 + 2 + 1


def test_validate_scenario_command(tmp_path, capsys):
    from django.core.management import call_command

    bad = load("hill-112")
    jeep_in_woods(bad)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    good = str(SAMPLE["hill-112"])
    with pytest.raises(SystemExit) as exited:
        call_command("validate_scenario", good, str(path), "--json")
    assert exited.value.code == 1
    report = json.loads(capsys.readouterr().out)
    assert [f["ok"] for f in report["files"]] == [True, False]
    assert report["files"][1]["findings"][0]["code"] == "forbidden-terrain"
    assert report["files"][1]["findings"][0]["where"].endswith("(B2)")
    call_command("validate_scenario", good)
    assert "ok (0 errors, 0 warnings)" in capsys.readouterr().out
    malformed = tmp_path / "broken.json"
    malformed.write_text("{")
    with pytest.raises(SystemExit):
        call_command("validate_scenario", str(malformed))
    assert "not valid JSON" in capsys.readouterr().out



def test_movement_cases_as_the_catalogue_gives_them():
    """A cost may be a list of cases: the first whose condition holds, else the one without a condition."""
    cases = [{"when": "along-road", "cost": "road rate"}, {"cost": "X"}]
    assert scenario_checks.movement_cost(cases, ("along-road",)) == "road rate"
    assert scenario_checks.movement_cost(cases, ()) == "X"
    assert scenario_checks.movement_cost([{"when": "upper-location", "cost": "X"}], ()) is None
    assert scenario_checks.movement_cost(2, ()) == 2
