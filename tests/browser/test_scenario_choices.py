"""Issue 32, bug 2 and the fixed choices: "+ Reinforcement" works on a side just made, and what the catalogue
fixes (a map edge, ATS's dummy flag) is chosen from a list or ticked, never typed."""

import io

import pytest
from django.core.management import call_command

from tests.browser.painting import ARTIFACTS, sign_in
from tests.browser.test_scenario_editor import document, new_scenario, saved_after

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def designer(django_user_model):
    return django_user_model.objects.create_user("chooser", password="chooser-password")


def test_a_reinforcement_is_added_and_its_edge_and_the_dummy_flag_are_chosen(live_server, page, designer):
    call_command("load_samples", stdout=io.StringIO())
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(page, live_server, designer)
    scenario, r = new_scenario(page, live_server, "Reinforced", "Oosterbeek crossroads (ATS) (ats)")
    page.click("#tabs [role=tab]:text('Side 1')")
    page.click("#add-unit")
    r = saved_after(page, r)
    page.click("#add-reinforcement")
    r = saved_after(page, r)
    assert not page.locator("#banner").is_visible() or "Not changed" not in page.inner_text("#banner")
    assert page.locator("#reinforcements li").count() == 1
    assert "no entry hexes" in page.inner_text("#reinforcements li")
    assert len(document(scenario.pk)["sides"][0]["reinforcements"]) == 1

    # The edge is a choice in words: the west edge is written W.
    edge = page.locator("#reinforcements li select").first
    assert "west edge" in edge.inner_text()
    edge.select_option(label="east edge")
    r = saved_after(page, r)
    assert document(scenario.pk)["sides"][0]["reinforcements"][0]["edge"] == "E"
    title = page.locator("#undo").get_attribute("title")
    assert title.startswith("Undo the edge of reinforcement 1 of Side 1") and "[" not in title, title

    # ATS's side field friendly_edge (catalogue type "edge") is a drop-down too.
    friendly = page.locator("#side-panel .fields label:has-text('friendly edge') select")
    friendly.select_option(label="west edge")
    r = saved_after(page, r)
    assert document(scenario.pk)["sides"][0]["fields"]["friendly_edge"] == "W"

    # ATS's dummy flag (catalogue type boolean) is a checkbox; its VP a number.
    unit = document(scenario.pk)["sides"][0]["oob"][0]["id"]
    more = f"#oob tr[data-unit-more='{unit}']"
    assert page.locator(f"{more} input[aria-label=dummy]").get_attribute("type") == "checkbox"
    assert page.locator(f"{more} input[aria-label=vp]").get_attribute("type") == "number"
    page.check(f"{more} input[aria-label=dummy]")
    r = saved_after(page, r)
    assert document(scenario.pk)["sides"][0]["oob"][0]["dummy"] is True
    page.screenshot(path=f"{ARTIFACTS}/scenario-reinforcement-choices.png", full_page=True)
    assert errors == []


def test_the_ats_setup_order_is_chosen_from_the_sides(live_server, page, designer):
    """ATS's setup_order (catalogue type side-ids) is a choice of side for each place, not JSON typed."""
    call_command("load_samples", stdout=io.StringIO())
    sign_in(page, live_server, designer)
    scenario, r = new_scenario(page, live_server, "Ordered", "Oosterbeek crossroads (ATS) (ats)")
    page.click("#tabs [role=tab]:text('Scenario')")
    order = page.locator("fieldset.counts-field:has(legend:text('setup order'))")
    assert order.locator("select").count() == 2
    order.locator("select").nth(0).select_option(label="Side 2")
    r = saved_after(page, r)
    order = page.locator("fieldset.counts-field:has(legend:text('setup order'))")
    order.locator("select").nth(1).select_option(label="Side 1")
    r = saved_after(page, r)
    sides = [s["id"] for s in document(scenario.pk)["sides"]]
    assert document(scenario.pk)["rules"]["setup_order"] == [sides[1], sides[0]]
    page.screenshot(path=f"{ARTIFACTS}/scenario-setup-order.png", full_page=True)


def test_a_tocs_units_hq_and_echelon_are_chosen_not_typed(live_server, page, designer):
    """TOCS's parent (catalogue type unit: another unit of the side) and echelon (a choice of the catalogue's
    echelons) are drop-downs; the choice writes the unit's OOB id, which the designer never types."""
    call_command("load_samples", stdout=io.StringIO())
    sign_in(page, live_server, designer)
    scenario, r = new_scenario(page, live_server, "Chain of command", "Nijmegen approaches (TOCS) (tocs)")
    page.click("#tabs [role=tab]:text('Side 1')")
    for _ in range(2):
        page.click("#add-unit")
        r = saved_after(page, r)
    units = [u["id"] for u in document(scenario.pk)["sides"][0]["oob"]]
    hq_name = "#oob tr[data-unit='%s'] input[aria-label=unit]" % units[0]
    page.fill(hq_name, "Battalion HQ")
    page.locator(hq_name).dispatch_event("change")
    r = saved_after(page, r)
    more = f"#oob tr[data-unit-more='{units[1]}']"
    parent = page.locator(f"{more} label:has-text('parent') select")
    assert "Battalion HQ" in parent.inner_text() and units[0] not in parent.inner_text()
    parent.select_option(label="Battalion HQ")
    r = saved_after(page, r)
    echelon = page.locator(f"#oob tr[data-unit-more='{units[0]}'] label:has-text('echelon') select")
    echelon.select_option("battalion")
    r = saved_after(page, r)
    oob = document(scenario.pk)["sides"][0]["oob"]
    assert oob[1]["parent"] == units[0] and oob[0]["echelon"] == "battalion"
    page.screenshot(path=f"{ARTIFACTS}/scenario-tocs-parent.png", full_page=True)


def test_vp_values_and_overlays_are_rows_of_fields_not_json(live_server, page, designer):
    """ATS's VP per kind of unit and its overlays (3.3.1): a name and a number, an id and two hexes, no JSON box."""
    call_command("load_samples", stdout=io.StringIO())
    sign_in(page, live_server, designer)
    scenario, r = new_scenario(page, live_server, "Valued", "Oosterbeek crossroads (ATS) (ats)")
    page.click("#tabs [role=tab]:text('Scenario')")
    assert page.locator("#scenario-panel label:has-text('(JSON)')").count() == 0
    page.fill("#scenario-panel [aria-label='vp values: new name']", "squad")
    page.fill("#scenario-panel [aria-label='vp values: new value']", "2")
    page.click("#scenario-panel fieldset[data-field='vp values'] button:text('+')")
    r = saved_after(page, r)
    assert document(scenario.pk)["rules"]["vp_values"] == {"squad": 2}
    page.fill("#scenario-panel [aria-label='vp values: squad']", "3")
    page.locator("#scenario-panel [aria-label='vp values: squad']").dispatch_event("change")
    r = saved_after(page, r)
    assert document(scenario.pk)["rules"]["vp_values"] == {"squad": 3}
    for words, value in (("X hex", "k6"), ("Y hex", "K7")):
        page.fill(f"#scenario-panel [aria-label='New overlay: {words}']", value)
    page.click("#scenario-panel fieldset[data-field='overlays'] button:text('+ Overlay')")
    r = saved_after(page, r)
    assert document(scenario.pk)["rules"]["overlays"] == [{"id": "P1", "x": "K6", "y": "K7"}]
    page.screenshot(path=f"{ARTIFACTS}/scenario-vp-and-overlays.png", full_page=True)
