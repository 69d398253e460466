"""The map painter in real Chromium, driven as a designer drives it: paint, level, hexsides, art, overlays, undo,
two pages at once, LOS and viewshed answered by a real Celery worker, and tracing a board scan."""

import io

import pytest
from PIL import Image

from maps.models import Map
from tests.browser.painting import (
    ARTIFACTS,
    blank_map,
    cells,
    document,
    drag,
    only_expected,
    open_editor,
    point,
    sign_in,
    wait_drawn,
    wait_saved,
    watch_console,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def designer(django_user_model):
    return django_user_model.objects.create_user("designer", password="designer-password")


def choose_tool(page, key):
    page.locator("#map-canvas").focus()
    page.keyboard.press(key)


def test_painting_a_map_persists_every_layer_and_undo_is_a_revision(live_server, page, designer):
    console = watch_console(page)
    sign_in(page, live_server, designer)
    map = blank_map(designer)
    open_editor(page, live_server, map.pk)
    assert page.locator("#tools .tool[data-tool=brush]").get_attribute("aria-pressed") == "true"

    # Woods with the brush: a drag from B2 to D2 (radius 0).
    page.select_option("[data-option=terrain]", "woods")
    drag(page, [point(page, "B2"), point(page, "C2"), point(page, "D2")])
    wait_saved(page)
    assert {h for h, e in cells(map.pk).items() if e["terrain"] == ["woods"]} == {"B2", "C2", "D2"}

    # A rectangle of woods, F3 to G5.
    choose_tool(page, "r")
    assert page.locator("#tools .tool[data-tool=rectangle]").get_attribute("aria-pressed") == "true"
    drag(page, [point(page, "F3"), point(page, "G5")])
    wait_saved(page)
    woods = {h for h, e in cells(map.pk).items() if e["terrain"] == ["woods"]}
    assert {"F3", "F4", "F5", "G3", "G4", "G5"} <= woods

    # Flood fill turns the joined woods of B2..D2 into brush; the rectangle's woods stay.
    choose_tool(page, "f")
    page.select_option("[data-option=terrain]", "brush")
    page.mouse.click(*point(page, "C2"))
    wait_saved(page)
    now = cells(map.pk)
    assert {h: now[h]["terrain"] for h in ("B2", "C2", "D2", "F3")} == {
        "B2": ["brush"], "C2": ["brush"], "D2": ["brush"], "F3": ["woods"]}

    # A level: 2 on H7 and its neighbours (radius 1).
    choose_tool(page, "l")
    page.fill("#opt-level", "2")
    page.locator("#opt-level").dispatch_event("change")
    page.select_option("[data-option=radius]", "1")
    page.mouse.click(*point(page, "H7"))
    wait_saved(page)
    raised = {h for h, e in cells(map.pk).items() if e["level"] == 2}
    assert "H7" in raised and len(raised) == 7

    # A hedge along three edges of C6: N, NE and SE, in one drag.
    choose_tool(page, "h")
    page.select_option("#opt-hexside", "hedge")
    drag(page, [point(page, "C6", 0, -0.8), point(page, "C6", 0.65, -0.4), point(page, "C6", 0.65, 0.4)], steps=8)
    wait_saved(page)
    hedges = {(e["hex"], e["side"]) for e in document(map.pk)["hexsides"] if e["terrain"] == "hedge"}
    assert hedges == {("C6", "N"), ("C6", "NE"), ("C6", "SE")}, hedges

    # A building footprint in E8: four vertices, closed by clicking the first.
    choose_tool(page, "a")
    corners = [(-0.4, -0.4), (0.4, -0.4), (0.4, 0.4), (-0.4, 0.4), (-0.4, -0.4)]
    for dx, dy in corners:
        page.mouse.click(*point(page, "E8", dx, dy))
    wait_saved(page)
    art = cells(map.pk)["E8"]["art"]
    assert len(art) == 1 and len(art[0]) == 4

    # An overlay: made from the rectangle's woods (F3..G4), stamped at J3 turned once, then turned again on the map.
    choose_tool(page, "o")
    page.select_option("[data-option=overlayMode]", "select")
    drag(page, [point(page, "F3"), point(page, "G4")])
    assert page.locator("[data-option=overlayMode]").input_value() == "stamp"
    page.locator("#map-canvas").focus()
    page.keyboard.press("q")
    page.mouse.click(*point(page, "J3"))
    wait_saved(page)
    [overlay] = document(map.pk)["overlays"]
    assert overlay["anchor"] == "J3" and overlay["rotation"] == 1 and len(overlay["hexes"]) == 4
    page.select_option("[data-option=overlayMode]", "rotate")
    page.mouse.click(*point(page, "J3"))
    wait_saved(page)
    assert document(map.pk)["overlays"][0]["rotation"] == 2
    page.screenshot(path=f"{ARTIFACTS}/painter-painted.png")

    # Zoom with the wheel around the pointer: the hex under it stays under it; pan with the right button; fit.
    c2 = point(page, "C2")
    page.mouse.move(*c2)
    assert page.locator("#status-hex").inner_text().startswith("C2 · Brush · level 0")
    scale = page.evaluate("painter.view.scale")
    page.mouse.wheel(0, -400)
    page.wait_for_function(f"() => painter.view.scale > {scale} * 1.5 && !painter.view.zooming")
    after = point(page, "C2")
    assert abs(after[0] - c2[0]) < 1 and abs(after[1] - c2[1]) < 1
    page.mouse.down(button="right")
    page.mouse.move(c2[0] + 100, c2[1] + 50, steps=4)
    page.mouse.up(button="right")
    moved = point(page, "C2")
    assert abs(moved[0] - c2[0] - 100) < 1 and abs(moved[1] - c2[1] - 50) < 1
    page.screenshot(path=f"{ARTIFACTS}/painter-zoomed.png")
    page.keyboard.press("0")
    page.wait_for_function(f"() => Math.abs(painter.view.scale - {scale}) < 1e-6")

    # Undo and redo, from the keyboard and the toolbar; each is a revision of its own.
    revision = Map.objects.get(pk=map.pk).revision
    page.locator("#map-canvas").focus()
    page.keyboard.press("Control+z")
    wait_saved(page)
    assert document(map.pk)["overlays"][0]["rotation"] == 1
    page.keyboard.press("Control+z")
    wait_saved(page)
    assert document(map.pk)["overlays"] == []
    page.click("#redo")
    wait_saved(page)
    page.keyboard.press("Control+Shift+z")
    wait_saved(page)
    assert document(map.pk)["overlays"][0]["rotation"] == 2
    assert Map.objects.get(pk=map.pk).revision == revision + 4

    # A refused edit: a level out of the ruleset's range shows the server's errors and leaves the screen as it was.
    choose_tool(page, "l")
    page.select_option("[data-option=radius]", "0")
    page.fill("#opt-level", "9")
    page.locator("#opt-level").dispatch_event("change")
    page.mouse.click(*point(page, "A9"))
    wait_saved(page)
    banner = page.locator("#banner")
    banner.wait_for()
    assert "level 9 is outside" in banner.inner_text()
    assert page.evaluate("painter.model.cell(0, 8).level") == 0
    assert "A9" not in cells(map.pk)

    # The eraser takes E8 (its art too) back to the defaults; undo brings it all back.
    page.locator("#banner button").click()
    choose_tool(page, "e")
    page.mouse.click(*point(page, "E8"))
    wait_saved(page)
    assert "E8" not in cells(map.pk)
    page.keyboard.press("Control+z")
    wait_saved(page)
    assert len(cells(map.pk)["E8"]["art"][0]) == 4

    # Reload: everything is still there, on the page and through the API.
    page.reload()
    page.wait_for_selector("body[data-ready='1']", state="attached")
    shown = page.evaluate("""() => { const m = painter.model;
        return {c2: m.cell(2, 1).terrain, f3: m.cell(5, 2).terrain, h7: m.cell(7, 6).level,
                hexsides: m.hexsides.size, art: !!m.cell(4, 7).art, overlays: m.overlays.map(o => o.rotation)}; }""")
    assert shown == {"c2": ["brush"], "f3": ["woods"], "h7": 2, "hexsides": 3, "art": True, "overlays": [2]}
    api = page.request.get(f"{live_server.url}/api/maps/{map.pk}/").json()
    assert api["revision"] == Map.objects.get(pk=map.pk).revision
    assert len(api["document"]["hexsides"]) == 3 and api["document"]["overlays"][0]["rotation"] == 2
    page.locator("#history-panel summary").click()
    assert page.locator("#history-list li").count() >= 10
    page.screenshot(path=f"{ARTIFACTS}/painter-reloaded.png")

    # Restore revision 2 (the brush's woods only) from the history panel: a new revision, shown at once.
    before = Map.objects.get(pk=map.pk).revision
    page.locator("#history-list li", has_text="r2 ").get_by_role("button", name="Restore").click()
    page.wait_for_function(f"() => painter.editor.revision === {before + 1}")
    assert page.evaluate("[painter.model.cell(5, 2).terrain[0], painter.model.hexsides.size]") == ["open", 0]
    assert document(map.pk)["hexsides"] == [] and cells(map.pk)["C2"]["terrain"] == ["woods"]
    assert only_expected(console, 400) == []

    # The findings panel: the map checks' answers, or a quiet word where this server has none yet.
    page.locator("#findings-panel summary").click()
    findings = page.locator("#findings-state").inner_text()
    assert findings == "Map checks are not available on this server yet." or "finding" in findings.lower()

    # More than 100 steps undo: 105 strokes, then 105 Ctrl+Z, and A1..A5 are as they were.
    before = Map.objects.get(pk=map.pk).revision
    page.evaluate("""() => { for (let i = 0; i < 105; i++)
        painter.commit([{op: "set_terrain", hexes: [`A${1 + i % 5}`], terrain: [i % 2 ? "woods" : "brush"]}],
                       `step ${i}`); }""")
    wait_saved(page, timeout=60000)
    page.locator("#map-canvas").focus()
    for _ in range(105):
        page.keyboard.press("Control+z")
    wait_saved(page, timeout=60000)
    assert all(f"A{n}" not in cells(map.pk) for n in range(1, 6))
    assert Map.objects.get(pk=map.pk).revision == before + 210
    assert page.evaluate("painter.editor.redoStack.length") == 105 and page.locator("#redo").is_enabled()

    # The help overlay on "?", closed by Escape.
    page.locator("#map-canvas").focus()
    page.keyboard.press("?")
    assert page.locator("#help").is_visible() and "Flood fill" in page.locator("#help").inner_text()
    page.screenshot(path=f"{ARTIFACTS}/painter-help.png")
    page.keyboard.press("Escape")
    assert not page.locator("#help").is_visible()


def no_polling(*pages):
    """Stop pages following the map, once any look they have started is over."""
    for p in pages:
        p.evaluate("painter.editor.poll = async () => false")
    for p in pages:
        p.wait_for_function("() => !painter.editor.polling")


def test_two_pages_edit_one_map_at_once_and_both_strokes_are_kept(live_server, browser, page, designer,
                                                                  django_user_model):
    console = watch_console(page)
    sign_in(page, live_server, designer)
    map = blank_map(designer, name="Shared")
    open_editor(page, live_server, map.pk)
    other = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors = []
    other.on("pageerror", lambda exc: errors.append(str(exc)))
    other_console = watch_console(other)
    sign_in(other, live_server, designer)
    open_editor(other, live_server, map.pk)

    # Both paint at once, each on the revision it saw: one of them gets 409, rebases and sends again.
    page.select_option("[data-option=terrain]", "woods")
    other.select_option("[data-option=terrain]", "marsh")
    no_polling(page, other)  # the second stroke must go through 409
    page.mouse.click(*point(page, "B2"))
    other.mouse.click(*point(other, "E5"))
    wait_saved(page)
    wait_saved(other)
    now = cells(map.pk)
    assert now["B2"]["terrain"] == ["woods"] and now["E5"]["terrain"] == ["marsh"]
    assert Map.objects.get(pk=map.pk).revision == 3

    # A real conflict: both change C3 on the same revision. The second page asks which version to keep.
    page.evaluate("painter.editor.poll = painter.editor.constructor.prototype.poll.bind(painter.editor)")
    other.evaluate("painter.editor.poll = painter.editor.constructor.prototype.poll.bind(painter.editor)")
    page.wait_for_function("() => painter.editor.revision === 3")
    other.wait_for_function("() => painter.editor.revision === 3")
    no_polling(page, other)
    page.mouse.click(*point(page, "C3"))
    wait_saved(page)
    other.mouse.click(*point(other, "C3"))
    other.locator("#banner").wait_for()
    text = other.locator("#banner").inner_text()
    assert "C3" in text and "woods" in text and "marsh" in text
    other.screenshot(path=f"{ARTIFACTS}/painter-conflict.png")
    other.get_by_role("button", name="Keep mine").click()
    wait_saved(other)
    assert cells(map.pk)["C3"]["terrain"] == ["marsh"]

    # The first page sees the second's edits within 5 s, without reloading.
    page.evaluate("painter.editor.poll = painter.editor.constructor.prototype.poll.bind(painter.editor)")
    page.wait_for_function("() => painter.model.cell(2, 2).terrain[0] === 'marsh' "
                           "&& painter.model.cell(4, 4).terrain[0] === 'marsh'",
                           timeout=5000)
    page.screenshot(path=f"{ARTIFACTS}/painter-second-page.png")
    other.context.close()
    # Whichever page saved second met a 409 (the browser logs that answer; it is the protocol, not a fault).
    assert errors == [] and only_expected(console, 409) == [] and only_expected(other_console, 409) == []

    # Another designer may open the published map read-only: looking tools only, nothing sent.
    map.published = True
    map.save(update_fields=["published"])
    rival = django_user_model.objects.create_user("rival")
    viewer = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    sign_in(viewer, live_server, rival)
    open_editor(viewer, live_server, map.pk)
    assert viewer.locator("h1 .tag").inner_text() == "read-only"
    tools = viewer.locator("#tools .tool").evaluate_all("buttons => buttons.map(b => b.dataset.tool)")
    assert tools == ["picker", "los", "viewshed", "analysis", "pan"]
    assert viewer.locator("#undo").is_hidden() and viewer.locator("#scan-form").is_hidden()
    viewer.keyboard.press("b")
    viewer.mouse.click(*point(viewer, "A1"))
    assert Map.objects.get(pk=map.pk).revision == 5
    viewer.screenshot(path=f"{ARTIFACTS}/painter-read-only.png")
    viewer.context.close()


def png(width, height, colour=(200, 180, 120)):
    out = io.BytesIO()
    image = Image.new("RGB", (width, height), colour)
    for x in range(0, width, 40):
        for y in range(height):
            image.putpixel((x, y), (60, 60, 60))
    image.save(out, format="PNG")
    return out.getvalue()


def test_los_viewshed_and_a_board_scan(live_server, page, designer, jobs, tmp_path, settings):
    console = watch_console(page)
    sign_in(page, live_server, designer)
    map = blank_map(designer, name="Sight")
    open_editor(page, live_server, map.pk)
    page.select_option("[data-option=terrain]", "woods")
    page.mouse.click(*point(page, "E5"))
    wait_saved(page)

    # LOS from B5 to H5 runs through the woods in E5: blocked, with E5 as the reason.
    choose_tool(page, "s")
    page.mouse.click(*point(page, "B5"))
    page.mouse.click(*point(page, "H5"))
    page.wait_for_function("() => document.querySelector('#los-answer').dataset.result", timeout=60000)
    answer = page.locator("#los-answer")
    assert answer.get_attribute("data-result") == "blocked"
    reasons = page.locator("#los-reasons .reason")
    assert reasons.count() >= 1
    e5 = page.locator("#los-reasons .reason[data-hex=E5]")
    assert "OST" in e5.inner_text()
    e5.click()
    assert page.evaluate("painter.highlight.hexes") == [[4, 4]]
    page.screenshot(path=f"{ARTIFACTS}/painter-los.png")

    # A smoke marker for the check only: the line B3-H3 becomes hindered, the map does not change.
    revision = Map.objects.get(pk=map.pk).revision
    page.mouse.click(*point(page, "B3"))
    page.mouse.click(*point(page, "H3"))
    page.wait_for_function("() => document.querySelector('#los-answer').dataset.result === 'clear'", timeout=60000)
    page.keyboard.down("Shift")
    page.mouse.click(*point(page, "E3"))
    page.keyboard.up("Shift")
    page.wait_for_function("() => document.querySelector('#los-answer').dataset.result === 'hindered'", timeout=60000)
    assert page.locator("#marker-list li").inner_text() == "smoke in E3"
    page.screenshot(path=f"{ARTIFACTS}/painter-marker.png")
    assert Map.objects.get(pk=map.pk).revision == revision

    # Viewshed from B5: every hex shaded.
    page.click("#clear-markers")
    choose_tool(page, "w")
    page.mouse.click(*point(page, "B5"))
    page.wait_for_function("() => document.body.dataset.viewshed", timeout=60000)
    assert int(page.evaluate("document.body.dataset.viewshed")) == 12 * 9
    assert "blocked" in page.locator("#viewshed-state").inner_text()
    page.screenshot(path=f"{ARTIFACTS}/painter-viewshed.png")

    # The whole-map analysis: a heat map of every hex.
    page.click("#run-analysis")
    page.wait_for_function("() => painter.results.analysis !== null", timeout=60000)
    assert len(page.evaluate("Object.keys(painter.results.analysis.hexes)")) == 12 * 9
    assert "Analysis of 108 hexes" in page.locator("#analysis-state").inner_text()
    page.screenshot(path=f"{ARTIFACTS}/painter-analysis.png")
    page.select_option("#analysis-show", "off")

    # An edit marks the results stale (they stay on screen).
    choose_tool(page, "b")
    page.mouse.click(*point(page, "K8"))
    wait_saved(page)
    assert page.locator("#results-stale").is_visible()

    # A board scan: not an image, then too large, are refused with a message and change nothing.
    page.locator("#scan-panel summary").click()
    revision = Map.objects.get(pk=map.pk).revision

    def upload(name, content):
        path = tmp_path / name
        path.write_bytes(content)
        page.set_input_files("#scan-file", str(path))
        page.click("#scan-form button[type=submit]")
        page.wait_for_function("() => !document.querySelector('#scan-message').textContent.startsWith('Uploading')")
        return page.locator("#scan-message").inner_text()

    assert "not a PNG or JPEG" in upload("notes.png", b"not an image at all")
    settings.HEXSIDE_SCAN_MAX_PIXELS = 1000
    assert "at most 1,000 pixels" in upload("big.png", png(100, 100))
    assert page.locator("#scan-message").get_attribute("data-error") == "1"
    assert Map.objects.get(pk=map.pk).revision == revision and "background" not in document(map.pk)
    settings.HEXSIDE_SCAN_MAX_PIXELS = 10_000_000

    # A good scan: uploaded, stored beside the map, named in its background entry, drawn under the map.
    upload("board.png", png(800, 600))
    page.wait_for_function("() => painter.model.background && painter.view.background "
                           "&& painter.view.background.image.complete")
    entry = document(map.pk)["background"]
    stored = jobs / "media" / "maps" / str(map.pk) / "scans" / entry["image"]
    assert entry["image"].endswith(".png") and stored.exists()

    # Align it: drag A1's handle and L9's handle; the origin, size and rotation follow.
    page.fill("#align-a", "A1")
    page.fill("#align-b", "L9")
    page.click("#scan-align")
    a, b = point(page, "A1"), point(page, "L9")
    drag(page, [a, (a[0] + 30, a[1] + 20)])
    drag(page, [b, (b[0] + 10, b[1] - 25)])
    page.click("#scan-align-done")
    wait_saved(page)
    aligned = document(map.pk)["background"]
    assert aligned["image"] == entry["image"]
    assert aligned["origin"] != entry["origin"] and aligned["hex_px"] != entry["hex_px"] and aligned["rotation"] != 0
    page.fill("#scan-rotation", "0")
    page.click("#scan-apply")
    wait_saved(page)
    assert document(map.pk)["background"]["rotation"] == 0
    # Paint over the scan, then fade and hide it.
    page.mouse.click(*point(page, "C8"))
    wait_saved(page)
    assert cells(map.pk)["C8"]["terrain"] == ["woods"]
    assert page.locator("#status-hex").inner_text() == "C8 · Woods · level 0"
    page.screenshot(path=f"{ARTIFACTS}/painter-scan.png")
    page.check("#scan-hide")
    assert page.evaluate("painter.view.background.visible") is False
    assert only_expected(console, 400) == []


def test_a_missing_board_scan_leaves_the_map_drawn_with_its_labels(live_server, page, designer):
    """Issue 32, bug 3: a background naming an image the server does not have (404) is left out of the drawing,
    which goes on (no "drawImage ... broken state" on each redraw) with its hex labels, and the scan panel says
    why."""
    from django.test import Client

    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(page, live_server, designer)
    map = blank_map(designer, name="No scan")
    client = Client()
    client.force_login(designer)
    answer = client.post(f"/api/maps/{map.pk}/edits/", {"revision": 1, "operations": [{"op": "set_background",
        "background": {"image": "Board.png", "origin": [0, 0], "hex_px": 40}}]}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    open_editor(page, live_server, map.pk)
    page.wait_for_function("() => document.querySelector('#scan-message').textContent.includes('not on the server')",
                           timeout=10000)
    wait_drawn(page)
    page.mouse.move(*point(page, "E4"))  # a redraw over the map
    wait_drawn(page)
    dark = page.evaluate("""() => {
        const p = window.painter, [c, r] = p.grid.parseLabel("E4"), [cx, cy] = p.grid.centre(c, r);
        const [sx, sy] = p.view.toScreen(cx, cy - (Math.sqrt(3) / 2 - 0.08)), d = p.view.dpr, s = 6 * d;
        const px = p.view.canvas.getContext("2d").getImageData(Math.round(sx * d - s), Math.round(sy * d - s),
                                                               2 * s, 2 * s).data;
        let n = 0; for (let i = 0; i < px.length; i += 4) if (px[i] + px[i + 1] + px[i + 2] < 300) n++;
        return n;
    }""")
    assert dark > 3  # the label E4 is written there
    assert "Board.png" in page.inner_text("#scan-message") and page.locator("#scan-panel[open]").count() == 1
    page.screenshot(path=f"{ARTIFACTS}/painter-missing-scan.png")
    assert errors == []
