"""The painter and the scenario editor used with fingers, in Chromium with a touch screen: real touch input
(CDP's Input.dispatchTouchEvent, which the browser turns into Pointer Events of pointerType "touch"). On a tablet:
two fingers pinch to zoom and drag to pan without painting, one finger drags to pan with the Pan tool, paints a
stroke with the brush, and places a unit in the scenario editor by taps; on a phone, two taps with the LOS tool
ask the rules and the answer shows on the map."""

import io

import pytest
from django.core.management import call_command
from django.test import Client

from authoring.models import Scenario
from maps.models import Map
from tests.browser.painting import blank_map, cells, open_editor, point, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET, PHONE = {"width": 768, "height": 1024}, {"width": 390, "height": 844}


@pytest.fixture
def fingers(browser):
    """fingers(viewport) -> (page, touch): a touch screen's page and a function sending one touch event."""
    contexts = []

    def open_page(viewport):
        context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=viewport["width"] < 500)
        contexts.append(context)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        cdp = context.new_cdp_session(page)

        def touch(kind, *points):
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
                {"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})
        page.errors = errors
        return page, touch

    yield open_page
    for context in contexts:
        errors = context.pages[0].errors if context.pages else []
        context.close()
        assert errors == [], errors


def gesture(touch, starts, ends, steps=8):
    """Fingers down at `starts`, moved in steps to `ends`, lifted."""
    touch("touchStart", *starts)
    for i in range(1, steps + 1):
        touch("touchMove", *[(a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps)
                             for a, b in zip(starts, ends, strict=True)])
    touch("touchEnd")


def tap(touch, at):
    touch("touchStart", at)
    touch("touchEnd")


def view_state(page, name="painter"):
    return page.evaluate(f"() => {{ const v = window.{name}.view; return [v.scale, v.ox, v.oy]; }}")


def centre_of_canvas(page):
    page.locator("#map-canvas").scroll_into_view_if_needed()
    return page.evaluate("() => { const r = document.getElementById('map-canvas').getBoundingClientRect();"
                         " return [r.left + r.width / 2, r.top + r.height / 2]; }")


def test_pinch_and_two_finger_pan_move_the_map_and_paint_nothing(live_server, fingers, user):
    board = blank_map(user, columns=14, rows=10)
    page, touch = fingers(TABLET)
    sign_in(page, live_server, user)
    open_editor(page, live_server, board.pk)
    x, y = centre_of_canvas(page)
    scale, ox, oy = view_state(page)
    gesture(touch, [(x - 40, y), (x + 40, y)], [(x - 100, y), (x + 100, y)])
    zoomed = view_state(page)
    assert zoomed[0] == pytest.approx(scale * 2.5, rel=0.05)
    gesture(touch, [(x - 50, y), (x + 50, y)], [(x + 10, y + 40), (x + 110, y + 40)])
    panned = view_state(page)
    assert panned[0] == pytest.approx(zoomed[0], rel=0.01)
    assert (panned[1] - zoomed[1], panned[2] - zoomed[2]) == (pytest.approx(60, abs=2), pytest.approx(40, abs=2))
    page.wait_for_function("() => !window.painter.editor.busy")
    assert page.evaluate("() => window.painter.editor.revision") == 1
    assert Map.objects.get(pk=board.pk).revision == 1 and cells(board.pk) == {}


def test_one_finger_pans_with_the_pan_tool_and_paints_with_the_brush(live_server, fingers, user):
    board = blank_map(user, columns=14, rows=10)
    page, touch = fingers(TABLET)
    sign_in(page, live_server, user)
    open_editor(page, live_server, board.pk)
    page.locator("#opt-terrain").select_option("woods")
    centre_of_canvas(page)
    gesture(touch, [point(page, "C3")], [point(page, "C6")])
    page.wait_for_function("() => !window.painter.editor.busy && window.painter.editor.revision > 1")
    painted = {label for label, cell in cells(board.pk).items() if cell.get("terrain") == ["woods"]}
    assert {"C3", "C4", "C5", "C6"} <= painted and len(painted) <= 6

    # The tool is chosen by a click: what is tested is the map under one finger. (A tap right after the brush's
    # gesture is read by Chrome's gesture detector as its second tap, whenever it comes, in a busy suite.)
    page.locator("#tools .tool[data-tool=pan]").click()
    page.wait_for_function("() => window.painter.tool.id === 'pan'")
    before = view_state(page)
    x, y = centre_of_canvas(page)
    gesture(touch, [(x, y)], [(x - 80, y + 30)])
    after = view_state(page)
    assert (after[1] - before[1], after[2] - before[2]) == (pytest.approx(-80, abs=2), pytest.approx(30, abs=2))
    assert Map.objects.get(pk=board.pk).revision == 2


def test_los_by_two_taps_on_a_phone(live_server, fingers, user, jobs):
    board = blank_map(user, columns=10, rows=8)
    page, touch = fingers(PHONE)
    sign_in(page, live_server, user)
    open_editor(page, live_server, board.pk)
    page.locator("#tools .tool[data-tool=los]").tap()
    centre_of_canvas(page)
    tap(touch, point(page, "B2"))
    tap(touch, point(page, "F5"))
    chip = page.locator("#los-chip")
    page.wait_for_function("() => /CLEAR|BLOCKED|HINDERED/.test(document.getElementById('los-chip').textContent)",
                           timeout=60000)
    assert "B2" in chip.inner_text() and "F5" in chip.inner_text()
    box = chip.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    assert box["x"] + box["width"] <= PHONE["width"]


def test_a_unit_is_placed_by_taps_on_a_tablet(live_server, fingers, user):
    call_command("load_samples", stdout=io.StringIO())
    call_command("load_scenario_samples", stdout=io.StringIO())
    sample = Scenario.objects.get(title="Hill 112: the Orne heights")
    client = Client()
    client.force_login(user)
    client.post(f"/maps/{Map.objects.filter(owner=sample.owner, ruleset=sample.ruleset).first().pk}/duplicate/")
    client.post(f"/scenarios/{sample.pk}/duplicate/")
    scenario = Scenario.objects.get(owner=user)
    index, side, unit = next((i, side, u["id"]) for i, side in enumerate(scenario.document["sides"])
                             for u in side["oob"] if not u.get("hidden")
                             and [p["unit"] for p in side["placements"]].count(u["id"]) < u.get("count", 1))
    before, revision = len(side["placements"]), scenario.revision
    page, touch = fingers(TABLET)
    sign_in(page, live_server, user)
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    page.locator("#tabs [role=tab]", has_text=side["name"]).tap()
    page.locator(f"#oob tr[data-unit='{unit}'] td.counts").tap()
    page.locator("#map-canvas").scroll_into_view_if_needed()
    x, y = page.evaluate("""() => {
        const e = window.scenarioEditor, [cx, cy] = e.grid.centre(1, 2), [sx, sy] = e.view.toScreen(cx, cy);
        const box = e.view.canvas.getBoundingClientRect();
        return [box.left + sx, box.top + sy];
    }""")
    tap(touch, (x, y))
    page.wait_for_function(f"() => window.scenarioEditor.doc.sides[{index}].placements.length > {before}",
                           timeout=10000)
    page.wait_for_function(f"() => window.scenarioEditor.scenario.revision > {revision}", timeout=10000)
    placements = Scenario.objects.get(pk=scenario.pk).document["sides"][index]["placements"]
    assert len(placements) == before + 1 and placements[-1]["unit"] == unit
