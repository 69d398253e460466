"""Undo after a reload and in another tab (the history rebuilt from the revisions, documents/undo.py), in the
painter and in the scenario editor; the scenario editor's maps, its out-of-zone flag and its OOB table at 1366."""

import copy

import pytest

from maps.models import Map
from tests.browser.painting import ARTIFACTS, blank_map, cells, drag, open_editor, point, sign_in, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def designer(django_user_model):
    return django_user_model.objects.create_user("designer", password="designer-password")


def undo_ready(page, expected, button="#undo"):
    """Wait until the Undo (or Redo) button says it can take back ``expected``."""
    try:
        page.wait_for_function("([b, e]) => !document.querySelector(b).disabled && document.querySelector(b).title"
                               ".toLowerCase().includes(e.toLowerCase())", arg=[button, expected], timeout=10000)
    except Exception:
        raise AssertionError(page.evaluate("(b) => document.querySelector(b).title", button)) from None


def test_painter_undo_survives_a_reload_and_another_tab(live_server, browser, page, designer):
    sign_in(page, live_server, designer)
    map = blank_map(designer, name="Reloaded")
    open_editor(page, live_server, map.pk)
    page.select_option("[data-option=terrain]", "woods")
    drag(page, [point(page, "B2"), point(page, "C2")])
    wait_saved(page)
    page.select_option("[data-option=terrain]", "marsh")
    page.mouse.click(*point(page, "E5"))
    wait_saved(page)
    assert cells(map.pk)["E5"]["terrain"] == ["marsh"]

    page.reload()
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    undo_ready(page, "marsh")
    page.click("#undo")
    wait_saved(page)
    assert "E5" not in cells(map.pk) or cells(map.pk)["E5"]["terrain"] == ["open"]
    assert cells(map.pk)["B2"]["terrain"] == ["woods"]
    revision = Map.objects.get(pk=map.pk).revision
    assert revision == 4  # created, two strokes, the undo: a new revision, history kept
    assert Map.objects.get(pk=map.pk).revisions.get(number=revision).summary.startswith("undo of revision 3")
    page.screenshot(path=f"{ARTIFACTS}/undo-after-reload.png")

    # Another tab of the same designer: the same history, the redo of the undo first, then the first stroke.
    other = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors = []
    other.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(other, live_server, designer)
    open_editor(other, live_server, map.pk)
    undo_ready(other, "marsh", "#redo")
    undo_ready(other, "woods")
    other.click("#redo")
    wait_saved(other)
    assert cells(map.pk)["E5"]["terrain"] == ["marsh"]
    # The first tab sees the stroke of the second (polling) and its history follows.
    page.wait_for_function("() => document.body.dataset.revision === '5'", timeout=15000)
    undo_ready(page, "marsh")
    page.click("#undo")
    wait_saved(page)
    page.click("#undo")
    wait_saved(page)
    assert all(e["terrain"] == ["open"] for e in cells(map.pk).values())
    assert page.locator("#undo").is_disabled()
    other.screenshot(path=f"{ARTIFACTS}/undo-other-tab.png")
    other.context.close()
    assert errors == []


def small_scenario(owner, **changes):
    """The scenario tests' small OST scenario (its map embedded), made through the API as its owner."""
    from django.test import Client

    from authoring.models import Scenario
    from tests.conftest import MAP_DOCUMENT
    from tests.scenarios.conftest import SMALL

    data = copy.deepcopy(SMALL)
    data["maps"][0]["document"] = copy.deepcopy(MAP_DOCUMENT)
    data.update(changes)
    client = Client()
    client.force_login(owner)
    answer = client.post("/api/scenarios/", {"document": data}, content_type="application/json")
    assert answer.status_code == 201, answer.content
    return Scenario.objects.get(pk=answer.json()["id"])


E5 = {"unit": "sq", "hex": "E5", "facing": None}


def placements(scenario, side=0):
    from authoring.models import Scenario

    return Scenario.objects.get(pk=scenario.pk).document["sides"][side]["placements"]


def open_scenario(page, live_server, scenario):
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)


def scenario_point(page, label):
    return page.evaluate("""(label) => {
        const e = window.scenarioEditor, [c, r] = e.grid.parseLabel(label), [cx, cy] = e.grid.centre(c, r);
        const [sx, sy] = e.view.toScreen(cx, cy), box = e.view.canvas.getBoundingClientRect();
        return [box.left + sx, box.top + sy];
    }""", label)


def scenario_saved(page):
    page.wait_for_function("() => window.scenarioEditor && !window.scenarioEditor.session.busy", timeout=10000)


def test_scenario_editor_flags_a_placement_outside_its_zone_and_undoes_after_a_reload(live_server, browser,
                                                                                      designer):
    from authoring.models import Scenario

    scenario = small_scenario(designer)
    context = browser.new_context(viewport={"width": 1366, "height": 850})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(page, live_server, designer)
    open_scenario(page, live_server, scenario)
    assert page.locator("#zone-flags").is_hidden()

    page.click("#tabs [role=tab]:text('Blue')")
    page.click("#oob tr[data-unit='sq'] td.counts")   # picks the squad for the Place tool
    page.mouse.click(*scenario_point(page, "E5"))
    # Said at once, from the zone data, before the server has answered or any check is run.
    flag = page.locator("#zone-flags li[data-hex='E5']")
    flag.wait_for(timeout=2000)
    assert "Rifle Squad sets up in E5, outside Blue's setup zone" in flag.inner_text()
    scenario_saved(page)
    assert E5 in placements(scenario)

    # The OOB table fits the side panel at 1366 px: no sideways scrolling, in the panel or the page.
    widths = page.evaluate("""() => { const t = document.querySelector('#oob'), w = t.parentElement;
        return [t.scrollWidth, w.clientWidth, document.documentElement.scrollWidth, window.innerWidth]; }""")
    page.screenshot(path=f"{ARTIFACTS}/scenario-out-of-zone-1366.png")
    assert widths[0] <= widths[1] and widths[2] <= widths[3], widths

    # After a reload, Undo takes the placement back (a new revision) and the flag goes; Redo brings both back.
    page.reload()
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    undo_ready(page, "place Rifle Squad in E5")   # the page's own words, kept in the browser by revision
    assert page.locator("#zone-flags li[data-hex='E5']").count() == 1
    page.click("#undo")
    assert page.locator("#zone-flags").is_hidden()
    scenario_saved(page)
    stored = Scenario.objects.get(pk=scenario.pk)
    assert E5 not in placements(scenario)
    assert stored.revisions.get(number=stored.revision).summary.startswith("undo of revision 2")
    undo_ready(page, "place Rifle Squad in E5", "#redo")
    page.click("#redo")
    page.locator("#zone-flags li[data-hex='E5']").wait_for(timeout=2000)
    scenario_saved(page)
    assert E5 in placements(scenario)
    page.screenshot(path=f"{ARTIFACTS}/scenario-redo-after-reload.png")
    context.close()
    assert errors == []


def test_scenario_editor_shows_every_map_and_places_on_the_one_shown(live_server, page, designer):
    from tests.conftest import MAP_DOCUMENT

    east = copy.deepcopy(MAP_DOCUMENT) | {"name": "East board"}
    east["hexes"] = [{"hex": "B3", "terrain": ["woods"]}]
    scenario = small_scenario(designer, maps=[{"key": "m", "document": copy.deepcopy(MAP_DOCUMENT)},
                                              {"key": "east", "document": east, "placement": [10, 0]}])
    sign_in(page, live_server, designer)
    open_scenario(page, live_server, scenario)
    choice = page.locator("#map-choice")
    assert choice.is_visible()
    assert page.locator("#map-choice option").all_inner_texts() == ["Hill 112 (main)", "East board"]
    page.click("#tabs [role=tab]:text('Red')")
    page.click("#oob tr[data-unit='sq'] td.counts")
    page.select_option("#map-choice", "east")
    page.wait_for_function("() => document.body.dataset.map === 'east'")
    # The east board's own terrain is drawn: its woods at B3, not the main map's woods at C4.
    assert page.evaluate("() => scenarioEditor.model.cell(...scenarioEditor.grid.parseLabel('B3')).terrain") == [
        "woods"]
    page.mouse.click(*scenario_point(page, "D3"))
    flag = page.locator("#zone-flags li[data-hex='east:D3']")   # Red's zone is on the main map
    flag.wait_for(timeout=2000)
    assert "Rifle Squad sets up in D3 on East board, outside Red's setup zone" in flag.inner_text()
    scenario_saved(page)
    assert {"unit": "sq", "hex": "east:D3", "facing": None} in placements(scenario, side=1)
    page.screenshot(path=f"{ARTIFACTS}/scenario-second-map.png")
    # Back on the main map, its counters are drawn and the east board's are not.
    page.select_option("#map-choice", "m")
    page.wait_for_function("() => document.body.dataset.map === 'm'")
    assert page.evaluate("() => scenarioEditor.hexOf('east:D3')") is None
    assert page.evaluate("() => scenarioEditor.hexOf('J8')") == [9, 7]


def test_a_named_overlay_stamp_is_undone_after_a_reload(live_server, page, designer):
    """Issue 32, bug 1: the stamp writes the overlay's name (extensions.overlay_names); its undo is found after a
    reload and takes the overlay and its name away."""
    from tests.browser.painting import document

    sign_in(page, live_server, designer)
    map = blank_map(designer, name="Stamped")
    open_editor(page, live_server, map.pk)
    page.select_option("[data-option=terrain]", "woods")
    page.locator("#map-canvas").focus()
    page.keyboard.press("r")
    drag(page, [point(page, "F3"), point(page, "G4")])
    wait_saved(page)
    page.keyboard.press("o")
    page.select_option("[data-option=overlayMode]", "select")
    page.fill("#opt-overlay-name", "Farmhouse")
    page.dispatch_event("#opt-overlay-name", "change")
    drag(page, [point(page, "F3"), point(page, "G4")])
    page.mouse.click(*point(page, "J3"))
    wait_saved(page)
    assert list(document(map.pk)["extensions"]["overlay_names"].values()) == ["Farmhouse"]

    page.reload()
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    undo_ready(page, "Farmhouse")
    assert "sel-" not in page.locator("#undo").get_attribute("title")
    page.screenshot(path=f"{ARTIFACTS}/undo-stamp-after-reload.png")
    page.click("#undo")
    wait_saved(page)
    doc = document(map.pk)
    assert doc["overlays"] == [] and "overlay_names" not in doc.get("extensions", {})
    undo_ready(page, "woods")  # the rectangle under it is still on the stack, named in words
    assert page.locator("#undo").get_attribute("title") == "Undo rectangle of Woods (Ctrl+Z)"
    undo_ready(page, "Farmhouse", "#redo")
