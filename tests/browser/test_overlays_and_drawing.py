"""Issue 20, points 4 and 8, in real Chromium: overlays are named in the painter and a template needs a drag; roads
are lines on the painter's canvas; the whole-map analysis shows its heat map's colour legend."""

import pytest

from tests.browser.painting import (
    ARTIFACTS,
    blank_map,
    document,
    drag,
    open_editor,
    point,
    sign_in,
    wait_drawn,
    wait_saved,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def designer(django_user_model):
    return django_user_model.objects.create_user("overlayer", password="overlayer-password")


def choose_tool(page, key):
    page.locator("#map-canvas").focus()
    page.keyboard.press(key)


def pixel(page, label, dx=0.0, dy=0.0):
    """The canvas's colour (r, g, b) at a hex's centre plus an offset in hex radii."""
    return tuple(page.evaluate("""([label, dx, dy]) => {
        const p = window.painter, [c, r] = p.grid.parseLabel(label), [cx, cy] = p.grid.centre(c, r);
        const [sx, sy] = p.view.toScreen(cx + dx, cy + dy), d = p.view.dpr;
        const px = p.view.canvas.getContext("2d").getImageData(Math.round(sx * d), Math.round(sy * d), 1, 1).data;
        return [px[0], px[1], px[2]];
    }""", [label, dx, dy]))


def near(a, b, tolerance=12):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=False))


def test_overlays_are_named_and_a_template_needs_a_drag(live_server, page, designer):
    sign_in(page, live_server, designer)
    map = blank_map(designer, name="Named overlays")
    open_editor(page, live_server, map.pk)
    page.select_option("[data-option=terrain]", "woods")
    choose_tool(page, "r")
    drag(page, [point(page, "F3"), point(page, "G4")])
    wait_saved(page)

    # A single click in "make from a selection" makes nothing and stays in that mode, saying why.
    choose_tool(page, "o")
    page.select_option("[data-option=overlayMode]", "select")
    templates = page.locator("#opt-template option").count()
    page.mouse.click(*point(page, "B2"))
    assert page.locator("[data-option=overlayMode]").input_value() == "select"
    assert page.locator("#opt-template option").count() == templates
    assert "drag across the hexes" in page.locator("#status-note").inner_text()

    # A drag with a name typed makes a named template and switches to stamp.
    page.fill("#opt-overlay-name", "Farmhouse")
    page.dispatch_event("#opt-overlay-name", "change")
    drag(page, [point(page, "F3"), point(page, "G4")])
    assert page.locator("[data-option=overlayMode]").input_value() == "stamp"
    assert "Farmhouse" in page.locator("#opt-template").inner_text()
    page.mouse.click(*point(page, "J3"))
    wait_saved(page)
    page.mouse.click(*point(page, "J7"))
    wait_saved(page)
    doc = document(map.pk)
    ids = [o["id"] for o in doc["overlays"]]
    assert len(ids) == 2 and all("name" not in o for o in doc["overlays"])  # the format's overlay keys only
    assert doc["extensions"]["overlay_names"] == {ids[0]: "Farmhouse", ids[1]: "Farmhouse 2"}

    # The name action renames the overlay clicked.
    page.select_option("[data-option=overlayMode]", "name")
    page.fill("#opt-overlay-name", "Mill")
    page.dispatch_event("#opt-overlay-name", "change")
    page.mouse.click(*point(page, "J7"))
    wait_saved(page)
    assert document(map.pk)["extensions"]["overlay_names"][ids[1]] == "Mill"
    listed = page.locator("#opt-template").inner_text()
    assert "Mill (on the map)" in listed and "Farmhouse (on the map)" in listed and "sel-" not in listed
    page.screenshot(path=f"{ARTIFACTS}/overlays-named.png")

    # After a reload the names are there; the canvas writes them, not the ids.
    open_editor(page, live_server, map.pk)
    titles = page.evaluate("painter.model.overlays.map((o) => painter.model.overlayTitle(o))")
    assert titles == ["Farmhouse", "Mill"]
    # The map's own picture (the page's PNG) is drawn by the engine, which writes names (tests/engine).
    answer = page.request.get(f"{live_server.url}/maps/{map.pk}/")
    assert answer.ok and "sel-1" not in answer.text()


def test_roads_are_lines_on_the_painter_canvas(live_server, page, designer):
    sign_in(page, live_server, designer)
    map = blank_map(designer, name="Roads")
    open_editor(page, live_server, map.pk)
    page.select_option("[data-option=terrain]", "road")
    drag(page, [point(page, "C3"), point(page, "C4"), point(page, "C5")])
    wait_saved(page)
    page.mouse.click(*point(page, "H4"))
    wait_saved(page)
    wait_drawn(page)
    road, ground = (220, 201, 160), (233, 228, 201)  # ost's road and open fills
    assert near(pixel(page, "C4"), road)  # the line, through the centre
    assert near(pixel(page, "C4", 0, 0.85), road)  # and on across the edge C4 shares with C5
    assert near(pixel(page, "C4", 0.55, 0), ground)  # beside it the hex is open ground, not tan
    assert near(pixel(page, "H4"), road) and near(pixel(page, "H4", 0, 0.6), ground)  # a lone road hex: a dot
    page.screenshot(path=f"{ARTIFACTS}/roads-painter.png")
    # Taking C5's road away takes the line's half towards it away from C4 too.
    page.select_option("[data-option=terrain]", "open")
    page.mouse.click(*point(page, "C5"))
    wait_saved(page)
    wait_drawn(page)
    assert near(pixel(page, "C4", 0, 0.6), ground)


def test_the_heat_map_has_a_colour_legend(live_server, page, designer, jobs):
    sign_in(page, live_server, designer)
    map = blank_map(designer, name="Heat")
    open_editor(page, live_server, map.pk)
    page.select_option("[data-option=terrain]", "woods")
    page.mouse.click(*point(page, "E5"))
    wait_saved(page)
    assert page.locator("#heat-legend").is_hidden()
    page.click("#run-analysis")
    page.wait_for_function("() => painter.results.analysis !== null", timeout=60000)
    legend = page.locator("#heat-legend")
    assert legend.is_visible()
    assert page.locator("#heat-legend-min").inner_text() == "0"
    most = max(v["clear"] + v["hindered"] for v in page.evaluate("Object.values(painter.results.analysis.hexes)"))
    assert page.locator("#heat-legend-max").inner_text() == str(most)
    colours = page.evaluate("""() => { const c = document.querySelector('#heat-legend-bar'), g = c.getContext('2d');
        return [g.getImageData(0, 5, 1, 1).data.slice(0, 3), g.getImageData(c.width - 1, 5, 1, 1).data.slice(0, 3)]
            .map((d) => Array.from(d)); }""")
    assert near(colours[0], (68, 1, 84), 6) and near(colours[1], (253, 231, 37), 12)  # dark purple to yellow
    legend.scroll_into_view_if_needed()
    page.screenshot(path=f"{ARTIFACTS}/heat-legend.png")
    page.select_option("#analysis-show", "off")
    assert legend.is_hidden()


def test_an_ost_map_s_overlay_panel_says_why_it_has_no_templates_until_one_is_made(live_server, page, designer):
    sign_in(page, live_server, designer)
    map = blank_map(designer, name="No overlays in OST")
    open_editor(page, live_server, map.pk)
    choose_tool(page, "o")
    note = page.locator("#overlay-note")
    assert note.is_visible() and "Old School Tactical prints no overlays" in note.inner_text()
    assert page.locator("#opt-template option").all_inner_texts() == ["none yet: make one from a selection"]
    page.screenshot(path=f"{ARTIFACTS}/overlays-ost-none.png")
    page.select_option("[data-option=overlayMode]", "select")
    drag(page, [point(page, "C3"), point(page, "D4")])
    assert not note.is_visible() and page.locator("#opt-template option").count() == 2
