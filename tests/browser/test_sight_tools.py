"""The sight instruments in the browser: the painter's exposure heat map with its legend, the least-exposed route
with its counts, the lowest observer level, LOS examples kept and answered again after an edit, the history's
comparison; the scenario page's exposure heat map and objective and zone questions. Each answer is checked
against the engine's own, and the legends are looked at in screenshots at 1280 x 800."""

import copy
import json

import pytest
from pypdf import PdfReader

from authoring.models import Scenario
from engine import mapfile
from engine.los import engine, sight
from engine.scenarios import scenariofile
from tests.browser.painting import ARTIFACTS, blank_map, open_editor, point, sign_in, wait_drawn, wait_saved
from tests.conftest import MAP_DOCUMENT
from tests.scenarios.conftest import SMALL

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def designer(django_user_model):
    return django_user_model.objects.create_user("sighter", password="pw-sighter-1")


def choose_tool(page, key):
    page.locator("#map-canvas").focus()
    page.keyboard.press(key)


def legend(page, selector):
    box = page.locator(selector)
    assert box.is_visible()
    spans = box.locator("[data-legend]").all_inner_texts()
    assert box.bounding_box()["width"] >= 200  # wide enough to read its numbers at 1280 x 800
    return spans


def test_the_painters_exposure_route_height_examples_and_comparison(live_server, page, designer, jobs):
    page.set_viewport_size({"width": 1280, "height": 800})
    sign_in(page, live_server, designer)
    map = blank_map(designer, name="Approaches")
    open_editor(page, live_server, map.pk)
    page.select_option("[data-option=terrain]", "woods")
    for label in ("F3", "F4", "F5", "F6"):
        page.mouse.click(*point(page, label))
    wait_saved(page)
    page.evaluate("() => { document.querySelector('#exposure-panel').open = true; }")

    # Exposure from three observers on the east edge: every hex counted, the legend from 0 to the most.
    page.fill("#exposure-observers", "L2 L5 L8")
    page.click("#run-exposure")
    page.wait_for_function("() => document.body.dataset.exposure", timeout=90000)
    cmap = engine.compile_map(mapfile.parse(json.dumps(map.__class__.objects.get(pk=map.pk).document)))
    expected = sight.exposure(cmap, sight.observer_indices(cmap, ["L2", "L5", "L8"]))
    shown = page.evaluate("() => Object.fromEntries(painter.exposurePanel.shown.values)")
    assert shown == {cmap.label(i): int(expected.seen[i]) for i in range(cmap.n)}
    spans = legend(page, "#exposure-legend")
    assert spans[0] == "0" and spans[2] == str(int(expected.seen.max()))
    assert "observers that see the hex" in spans[3]
    wait_drawn(page)
    page.screenshot(path=f"{ARTIFACTS}/painter-exposure.png")

    # The least-exposed route from A5 to K5 hides behind the woods: its numbers drawn on the map.
    page.fill("#route-from", "A5")
    page.fill("#route-to", "K5")
    page.click("#run-route")
    page.wait_for_function("() => document.body.dataset.route", timeout=90000)
    route = page.evaluate("() => painter.exposurePanel.route")
    path = sight.least_exposed_route(cmap, expected.seen, cmap.index_of("A5"), cmap.index_of("K5"),
                                     cmap.catalogue.unit_classes[0])
    assert [h["hex"] for h in route["hexes"]] == [cmap.label(i) for i in path]
    assert f"exposure {route['exposure']}" in page.inner_text("#route-state")
    wait_drawn(page)
    page.screenshot(path=f"{ARTIFACTS}/painter-route.png")

    # The lowest level from which an observer in A1 sees each hex.
    page.fill("#height-from", "A1")
    page.click("#run-height")
    page.wait_for_function("() => document.body.dataset.height", timeout=90000)
    heights = page.evaluate("() => Object.fromEntries(painter.exposurePanel.shown.values)")
    assert heights == sight.minimum_height(cmap, "A1")["hexes"]
    assert "lowest observer level" in legend(page, "#exposure-legend")[3]
    wait_drawn(page)
    page.screenshot(path=f"{ARTIFACTS}/painter-minimum-height.png")

    # An LOS kept as an example; an edit that changes it is said.
    choose_tool(page, "s")
    page.mouse.click(*point(page, "B4"))
    page.mouse.click(*point(page, "J4"))
    page.wait_for_function("() => document.querySelector('#los-answer').dataset.result === 'blocked'", timeout=90000)
    page.evaluate("() => { document.querySelector('#examples-panel').open = true; }")
    page.fill("#example-note", "blocked by the woods at F4")
    page.click("#keep-example")
    page.wait_for_function("() => document.body.dataset.examples === '1/1'", timeout=90000)
    before = map.__class__.objects.get(pk=map.pk).revision
    choose_tool(page, "b")
    page.select_option("[data-option=terrain]", "open")
    page.mouse.click(*point(page, "F4"))
    wait_saved(page)
    page.wait_for_function("() => document.body.dataset.examples === '0/1'", timeout=90000)
    state = page.inner_text("#examples-state")
    assert "This edit changed example 1 (B4 to J4: blocked → clear)" in state
    assert "now clear, not blocked" in page.inner_text("#examples-list")

    # The history compares the revision before the edit with the working one.
    page.evaluate("() => { document.querySelector('#history-panel').open = true; }")
    page.fill("#diff-old", str(before))
    page.click("#run-diff")
    page.wait_for_function("() => document.body.dataset.diff", timeout=90000)
    assert "Removing the woods at F4" in page.inner_text("#diff-state")
    page.screenshot(path=f"{ARTIFACTS}/painter-examples-and-diff.png")


def test_the_scenario_pages_exposure_and_questions(live_server, page, designer, jobs):
    page.set_viewport_size({"width": 1280, "height": 800})
    data = copy.deepcopy(SMALL)
    data["maps"][0]["document"] = copy.deepcopy(MAP_DOCUMENT)
    data["maps"][0]["document"]["extensions"]["los_examples"] = {"version": 1, "cases": [
        {"from": "A4", "to": "J4", "expect": "blocked", "note": "through the hill at D5"}]}
    doc = scenariofile.parse(json.loads(json.dumps(data)))
    scenario = Scenario.objects.create_from_doc(designer, doc)
    sign_in(page, live_server, designer)
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    page.click("#run-sight")
    page.wait_for_function("() => document.body.dataset.sight", timeout=120000)
    objectives = page.inner_text("#sight-objectives")
    assert "Hill (D5): seen from" in objectives
    assert "Blue and Red:" in page.inner_text("#sight-zones")
    page.select_option("#sight-heat", "blue:setup_zone")
    page.wait_for_function("() => document.body.dataset.sightHeat", timeout=10000)
    cmap = engine.compile_map(doc.maps[doc.main_key])
    zone = [cmap.index_of(h) for h in SMALL["sides"][0]["setup_zone"]]
    counts = sight.exposure(cmap, zone).seen
    shown = page.evaluate("() => Object.fromEntries(scenarioEditor.sightHeat.values)")
    assert shown == {cmap.label(i): int(c) for i, c in enumerate(counts) if c}
    spans = legend(page, "#sight-legend")
    assert spans[2] == str(int(counts.max())) and "setup hexes of Blue" in spans[3]
    wait_drawn(page, "scenarioEditor.view")
    page.locator("#sight-legend").scroll_into_view_if_needed()
    page.screenshot(path=f"{ARTIFACTS}/scenario-exposure.png")

    # The page of LOS examples for the players, downloaded from the export bar.
    with page.expect_download(timeout=90000) as info:
        page.click("#export-los-examples")
    text = " ".join(p.extract_text() for p in PdfReader(info.value.path()).pages)
    single = engine.line_of_sight(cmap, "A4", "J4")
    assert "through the hill at D5" in text and single.term in text
