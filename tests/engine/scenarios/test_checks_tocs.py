"""TOCS's scenario checks (engine/games/tocs/checks.py), each passing on the Groesbeek sample and breaking,
at the right hex, on a copy changed the way a designer could get it wrong; and the sample's public view, which
reads and checks without the findings about what it withholds."""

import copy
import dataclasses
import json

import pytest

from engine.scenarios import checks, scenariofile, visibility
from tests.scenarios.conftest import SAMPLES, parse

GROESBEEK = next(p for p in SAMPLES if p.stem == "groesbeek-heights")


@pytest.fixture
def data():
    return json.loads(GROESBEEK.read_text(encoding="utf-8"))


def side(data, sid):
    return next(s for s in data["sides"] if s["id"] == sid)


def add(data, sid, hex=None, **unit):
    unit.setdefault("class", "foot")
    side(data, sid)["oob"].append(unit)
    if hex is not None:
        side(data, sid)["placements"].append({"unit": unit["id"], "hex": hex})


def found(data, maps, code):
    return [f for f in checks.check(parse(data, maps)) if f.code == code]


def only(data, maps, code, severity="error"):
    hits = found(data, maps, code)
    assert len(hits) == 1, [str(f) for f in hits]
    assert hits[0].severity == severity, str(hits[0])
    return hits[0]


def test_the_sample_passes_every_tocs_check(data, sample_maps):
    assert [str(f) for f in checks.check(parse(data, sample_maps))] == []


# -- steps by unit type (TOCS L207, L211, L213, L189-193) ---------------------------------------------------

def test_a_company_has_four_steps(data, sample_maps):
    side(data, "allied")["oob"][1]["steps"] = 5
    hit = only(data, sample_maps, "tocs-steps")
    assert hit.path == "sides[0].oob[1].steps"
    assert hit.message == ("A/1/505 (Company, Allied OOB line 2) has 5 steps; a Company takes at most 4 (TOCS L207: "
                           "Companies have 4SL)")


def test_a_vehicle_platoon_has_two_steps_whatever_its_name(data, sample_maps):
    stug = side(data, "german")["oob"][4]
    stug["steps"] = 4
    hit = only(data, sample_maps, "tocs-steps")
    assert hit.path == "sides[1].oob[4].steps" and "TOCS L211" in hit.message and "StuG platoon" in hit.message
    stug["type"] = "company"  # the type, not the name "Vehicle Platoon", says how many steps
    assert not found(data, sample_maps, "tocs-steps")


def test_fewer_steps_than_the_type_is_a_warning_that_says_what_to_do(data, sample_maps):
    side(data, "allied")["oob"][2]["steps"] = 3
    hit = only(data, sample_maps, "tocs-steps", "warning")
    assert "steps_lost" in hit.message and "B/1/505" in hit.message


def test_an_hq_has_the_steps_of_its_echelon(data, sample_maps):
    side(data, "german")["oob"][0]["steps"] = 2  # a battalion HQ can take 1SL
    assert "TOCS L189" in only(data, sample_maps, "tocs-steps").message


def test_an_army_hq_is_in_the_catalogue_with_four_steps(data, sample_maps):
    add(data, "allied", id="army", unit="HQ", name="First Allied Airborne Army", type="army-hq", steps=4)
    add(data, "allied", id="corps", unit="HQ", name="XVIII Airborne Corps", type="corps-hq", parent="army")
    side(data, "allied")["oob"][0]["parent"] = "corps"
    assert [str(f) for f in checks.check(parse(data, sample_maps))] == []
    side(data, "allied")["oob"][5]["steps"] = 5
    assert "TOCS L193" in only(data, sample_maps, "tocs-steps").message


def test_a_placement_with_all_its_steps_lost_is_a_dead_unit(data, sample_maps):
    """Read on the canonical document as the format gives it once placements carry steps_lost (issue 18, 4)."""
    doc = parse(data, sample_maps)
    allied = doc.data["sides"][0]
    allied["placements"][1]["steps_lost"] = 3
    assert not [f for f in checks.check(doc) if f.code == "tocs-steps"]
    allied["placements"][1]["steps_lost"] = 4
    hits = [f for f in checks.check(doc) if f.code == "tocs-steps"]
    assert [(f.hex, f.path, f.severity) for f in hits] == [("06.10", "sides[0].placements[1].steps_lost", "error")]
    assert "TOCS L179" in hits[0].message


# -- the chain of command (TOCS L187, L203) -----------------------------------------------------------------

def test_units_report_to_an_hq(data, sample_maps):
    side(data, "allied")["oob"][2]["parent"] = "co-a"
    hit = only(data, sample_maps, "tocs-hq-tree")
    assert hit.path == "sides[0].oob[2].parent"
    assert hit.message.startswith("B/1/505 (Company, Allied OOB line 3) reports to A/1/505 (Company, Allied OOB "
                                  "line 2), which is not an HQ")


def test_a_parent_of_the_other_side_or_of_no_one(data, sample_maps):
    side(data, "allied")["oob"][2]["parent"] = "kg"
    assert "'kg', a unit of German" in only(data, sample_maps, "tocs-hq-tree").message
    side(data, "allied")["oob"][2]["parent"] = "hq506"
    assert "not in Allied's OOB" in only(data, sample_maps, "tocs-hq-tree").message


def test_an_hq_reports_to_a_higher_echelon_by_its_type(data, sample_maps):
    # legal: a battalion under the regiment, the regiment under a division, the division under a corps
    add(data, "allied", id="div", unit="Division Headquarters", name="82nd Airborne", type="division-hq",
        parent="corps")
    add(data, "allied", id="corps", unit="HQ", name="XVIII Airborne Corps", type="corps-hq")
    add(data, "allied", id="bn", unit="HQ", name="1/505", type="battalion-hq", parent="hq505")
    side(data, "allied")["oob"][0]["parent"] = "div"
    assert not found(data, sample_maps, "tocs-hq-tree")
    # a company may report straight to the division (or any HQ of its side)
    side(data, "allied")["oob"][1]["parent"] = "div"
    assert not found(data, sample_maps, "tocs-hq-tree")
    add(data, "allied", id="bn2", unit="HQ", name="2/505", type="battalion-hq")
    side(data, "allied")["oob"][6]["parent"] = "bn2"  # the corps under a battalion: not decreasing
    hit = only(data, sample_maps, "tocs-hq-tree")
    assert hit.path == "sides[0].oob[6].parent"
    assert hit.message.startswith("XVIII Airborne Corps (HQ, Allied OOB line 7), a corps HQ, reports to 2/505 (HQ, "
                                  "Allied OOB line 9), a battalion HQ, which is not of a higher echelon")


def test_the_same_echelon_is_not_higher_brigade_and_regiment_stand_level(data, sample_maps):
    add(data, "german", id="bde", unit="HQ", name="Brigade", type="brigade-hq")
    side(data, "german")["oob"][0]["parent"] = "bde"
    assert not found(data, sample_maps, "tocs-hq-tree")  # a battalion under a brigade
    add(data, "german", id="rgt", unit="HQ", name="Regiment", type="regiment-hq", parent="bde")
    assert "a regiment HQ, reports to Brigade" in only(data, sample_maps, "tocs-hq-tree").message


def test_a_loop_is_named_once_by_its_units(data, sample_maps):
    oob = side(data, "allied")["oob"]
    add(data, "allied", id="div", unit="HQ", name="82nd Airborne", type="division-hq", parent="hq505")
    oob[0]["parent"] = "div"
    hits = [f for f in found(data, sample_maps, "tocs-hq-tree") if "loops" in f.message]
    assert len(hits) == 1  # the companies below the loop are not in it
    assert hits[0].path == "sides[0].oob[0].parent"
    assert "(505th PIR HQ → 82nd Airborne → 505th PIR HQ)" in hits[0].message


def test_an_hq_reporting_to_itself(data, sample_maps):
    side(data, "german")["oob"][0]["parent"] = "kg"
    hit = only(data, sample_maps, "tocs-hq-tree")
    assert hit.message.startswith("KG Henke (HQ, German OOB line 1) reports to itself")


def test_independent_units_need_no_parent(data, sample_maps):
    del side(data, "allied")["oob"][4]["parent"]  # TOCS L203: [EXC: Independent Units]
    assert [str(f) for f in checks.check(parse(data, sample_maps))] == []


def test_an_hq_of_no_echelon_is_said_to_be_unchecked(data, sample_maps):
    data["unit_types"] = [{"id": "kg-hq", "name": "Kampfgruppe HQ", "kind": "hq", "class": "foot", "steps": 1}]
    side(data, "german")["oob"][0]["type"] = "kg-hq"
    del side(data, "german")["oob"][0]["echelon"]
    hit = only(data, sample_maps, "tocs-echelon", "warning")
    assert hit.path == "sides[1].oob[0].echelon" and "not checked" in hit.message
    assert not found(data, sample_maps, "tocs-hq-tree")


def test_a_line_whose_echelon_contradicts_its_type(data, sample_maps):
    side(data, "german")["oob"][0]["echelon"] = "division"
    assert "the type's echelon is used" in only(data, sample_maps, "tocs-echelon", "warning").message


# -- the perimeter and the meeting engagement (TOCS L35, L360, L362) ----------------------------------------

def test_a_no_mans_land_only_in_a_meeting_engagement(data, sample_maps):
    for ref in ("12.05", "12.06"):
        data["perimeter"]["german"].remove(ref)
    hit = only(data, sample_maps, "tocs-no-mans-land", "warning")
    assert hit.hex == "12.05" and "2 hexes belong to no side (12.05, 12.06)" in hit.message
    assert "TOCS L362" in hit.message and "TOCS L35" in hit.message
    data["rules"]["meeting_engagement"] = True
    assert [str(f) for f in checks.check(parse(data, sample_maps))] == []


def test_the_meeting_engagement_is_a_true_or_false_rule(data, sample_maps):
    data["rules"]["meeting_engagement"] = "yes"
    with pytest.raises(scenariofile.ScenarioFormatError, match="rules.meeting_engagement"):
        parse(data, sample_maps)


def test_units_set_up_inside_their_own_perimeter(data, sample_maps):
    side(data, "german")["placements"][3]["hex"] = "09.05"
    hit = only(data, sample_maps, "tocs-outside-perimeter")
    assert (hit.hex, hit.path) == ("09.05", "sides[1].placements[3].hex")
    assert hit.message == ("Flak battery (Battery, German OOB line 4) sets up in 09.05, in Allied's perimeter, "
                           "outside German's perimeter: all friendly units are within their friendly perimeter "
                           "(TOCS L360); batteries never enter the enemy perimeter (TOCS L374)")


def test_no_unit_sets_up_in_no_mans_land(data, sample_maps):
    data["rules"]["meeting_engagement"] = True
    data["perimeter"]["german"].remove("16.05")
    hits = found(data, sample_maps, "tocs-outside-perimeter")
    assert {(f.hex, f.severity) for f in hits} == {("16.05", "error")}
    assert len(hits) == 2 and "in a hex no side owns" in hits[0].message  # KG Henke and 1./Ers.Btl


def test_an_off_map_unit_is_not_in_the_perimeter(data, sample_maps):
    """An HQ "off map at 13.07" (TOCS L506), read on the canonical document as the format gives it once
    placements carry off_map (issue 18, 4)."""
    doc = parse(data, sample_maps)
    allied = doc.data["sides"][0]
    allied["placements"][0]["hex"] = "13.07"
    assert [f.hex for f in checks.check(doc) if f.code == "tocs-outside-perimeter"] == ["13.07"]
    allied["placements"][0]["off_map"] = True
    assert not [f for f in checks.check(doc) if f.code == "tocs-outside-perimeter"]


def test_a_missing_perimeter(data, sample_maps):
    data["perimeter"] = None
    assert "TOCS L362" in only(data, sample_maps, "tocs-perimeter").message


# -- improved positions and minefields in their own perimeter (TOCS 10.9, 10.11) ----------------------------

@pytest.mark.parametrize("kind, rule", [("entrenched", "TOCS 10.9"), ("strongpoint", "TOCS 10.9"),
                                        ("fortified-area", "TOCS 10.9"), ("minefield", "TOCS 10.11")])
def test_a_sides_improved_positions_and_minefields_lie_in_its_perimeter(data, sample_maps, kind, rule):
    data["markers"].append({"kind": kind, "hex": "15.06", "side": "german"})
    assert not found(data, sample_maps, "tocs-own-ground")
    data["markers"][-1]["hex"] = "09.05"
    hit = only(data, sample_maps, "tocs-own-ground")
    assert (hit.hex, hit.path) == ("09.05", f"markers[{len(data['markers']) - 1}].hex")
    assert hit.message.startswith("German's ") and "in 09.05 lies in Allied's perimeter" in hit.message
    assert rule in hit.message


def test_the_entrenchment_of_the_sample_moved_to_the_enemy(data, sample_maps):
    data["markers"][1]["hex"] = "10.05"
    assert only(data, sample_maps, "tocs-own-ground").hex == "10.05"


def test_markers_the_rule_does_not_tie_to_a_side(data, sample_maps):
    data["markers"] += [{"kind": "minefield", "hex": "09.05"},  # of no side: the hex holder's
                        {"kind": "fort", "hex": "09.07", "side": "german"}]  # a map feature (L862)
    assert not found(data, sample_maps, "tocs-own-ground")


def test_an_improved_position_in_no_mans_land(data, sample_maps):
    data["rules"]["meeting_engagement"] = True
    data["perimeter"]["allied"].remove("09.05")
    data["markers"].append({"kind": "entrenched", "hex": "09.05", "side": "allied"})
    assert "in a hex no side owns" in only(data, sample_maps, "tocs-own-ground").message


def test_an_objective_is_first_owned_by_its_hexs_owner(data, sample_maps):
    data["objectives"][1]["owner"] = "allied"
    hit = only(data, sample_maps, "tocs-objective-owner")
    assert (hit.hex, hit.path) == ("16.05", "objectives[1].owner")
    assert hit.message.startswith("objective Nijmegen highway bridge in 16.05 is first owned by Allied, but its hex "
                                  "is in German's perimeter")
    data["objectives"][1]["owner"] = None  # no owner: its hex's
    assert not found(data, sample_maps, "tocs-objective-owner")


# -- stacking (TOCS L169) -----------------------------------------------------------------------------------

def test_four_companies_and_any_number_of_hqs_per_hex(data, sample_maps):
    for n in range(4):
        add(data, "allied", hex="05.13", id=f"x{n}", unit="Company", type="company", parent="hq505")
    for n in range(3):
        add(data, "allied", hex="05.13", id=f"h{n}", unit="HQ", type="battalion-hq", parent="hq505")
    assert not found(data, sample_maps, "stacking")
    add(data, "allied", hex="05.13", id="x4", unit="Vehicle Platoon", type="vehicle-platoon", parent="hq505")
    hit = only(data, sample_maps, "stacking")
    assert hit.hex == "05.13" and "Allied stacks 5 companies, vehicle platoons and batteries in 05.13" in \
        hit.message and "TOCS L169" in hit.message


def test_four_assets_per_hex(data, sample_maps):
    for n in range(5):
        add(data, "german", hex="17.05", id=f"a{n}", unit="Asset", type="asset", parent="kg")
    assert only(data, sample_maps, "stacking").hex == "17.05"


# -- what is optional -------------------------------------------------------------------------------------

def test_a_minimum_op_value_is_optional(data, sample_maps):
    """TOCS L85: "the TOCS Game Module may specify a minimum number of OPs"."""
    for s in data["sides"]:
        s["fields"] = {}
    assert [str(f) for f in checks.check(parse(data, sample_maps))] == []


def test_a_secret_brief_without_its_intelligence_report(data, sample_maps):
    side(data, "german")["brief"]["intelligence"] = ""
    hit = only(data, sample_maps, "tocs-brief", "warning")
    assert hit.path == "sides[1].brief" and hit.message.startswith("German's secret Mission Brief")


# -- the public view -------------------------------------------------------------------------------------------

def public_findings(doc):
    """The checks on a view as the checks job gives them: without the findings about what was withheld."""
    paths = visibility.withheld_paths(doc.data)
    return [f for f in checks.check(doc) if not visibility.about_withheld(f.path, paths)]


def test_the_public_view_checks_without_findings_about_what_it_withholds(sample_maps):
    doc = scenariofile.parse(GROESBEEK.read_bytes(), sample_maps)
    public = dataclasses.replace(doc, data=visibility.view(doc.data, ()))
    assert all(not s["oob"] for s in public.data["sides"])
    assert {"sides[0].oob", "sides[1].oob"} <= set(visibility.withheld_paths(public.data))
    assert [str(f) for f in public_findings(public)] == []


def test_a_view_with_units_left_keeps_the_findings_about_them(sample_maps):
    """Only a side whose every unit was withheld has its OOB's findings left out."""
    doc = scenariofile.parse(GROESBEEK.read_bytes(), sample_maps)
    german = visibility.view(doc.data, ("german",))
    assert "sides[1].oob" not in visibility.withheld_paths(german)
    broken = copy.deepcopy(german)
    broken["sides"][1]["oob"][1]["steps"] = 9
    found_here = public_findings(dataclasses.replace(doc, data=broken))
    assert [f.path for f in found_here if f.code == "tocs-steps"] == ["sides[1].oob[1].steps"]


def test_the_public_view_file_reads_back_and_checks(sample_maps):
    doc = scenariofile.parse(GROESBEEK.read_bytes(), sample_maps)
    public = scenariofile.ScenarioDoc(data=visibility.view(doc.data, ()), maps=doc.maps)
    again = scenariofile.parse(scenariofile.dumps(public), sample_maps)
    assert [f for f in public_findings(again) if f.severity == "error"] == []


# -- markers on units and in the friendly perimeter (issue 30) -----------------------------------------------------

def test_extended_deployment_is_on_a_company_not_a_battery(data, sample_maps):
    """TOCS 10.15 (L501): an HQ orders a subordinate Company into extended deployment."""
    assert not found(data, sample_maps, "marker-on-unit")
    deployment = next(m for m in data["markers"] if m["kind"] == "extended-deployment")
    deployment["hex"], deployment["details"]["toward"] = "18.04", "17.04"  # the German FlaK battery
    bad = only(data, sample_maps, "marker-on-unit")
    assert bad.hex == "18.04" and "battery" in bad.message and "Company" in bad.message and "L501" in bad.message


def test_a_roadblock_in_the_enemys_perimeter_is_a_warning(data, sample_maps):
    """TOCS L467: a roadblock is created in a hex within the friendly perimeter."""
    assert not found(data, sample_maps, "tocs-own-ground")
    roadblock = next(m for m in data["markers"] if m["kind"] == "roadblock")
    roadblock["hex"] = side(data, "allied")["placements"][1]["hex"]
    bad = only(data, sample_maps, "tocs-own-ground", "warning")
    assert "L467" in bad.message and "Allied" in bad.message


def test_stacking_and_steps_messages_read_as_english(data, sample_maps):
    for n in range(5):
        add(data, "german", "18.04", id=f"a{n}", unit=f"Asset {n}", type="asset", steps=2)
    bad = only(data, sample_maps, "stacking")
    assert "stacks 5 assets in 18.04" in bad.message and "companies" not in bad.message.split(":")[0]
    steps = [f.message for f in found(data, sample_maps, "tocs-steps")]
    assert steps and all("an Asset takes at most 1" in m and "L171" not in m for m in steps)
