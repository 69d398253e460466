"""The site's chrome in real Chromium at 1280x800, measured: the header nav on one line (1280 and 1366 px), the
validation report inside the page, banners that overlay the page without moving the map, the 404 and 500 pages
in the site's layout, and the errors a page shows in a designer's words (units and sides by name, the JSON path
kept only as a field for tools)."""

import io
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from engine import importers
from engine.importers.batch import check_upload
from maps import importing
from tests.browser.painting import ARTIFACTS, blank_map, open_editor, point, sign_in
from tests.browser.test_scenario_editor import new_scenario
from tests.jobs.test_batch_validation import community_zip
from validations.models import BatchFile, BatchValidation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDE, HIGH = 1280, 800


@pytest.fixture
def screen(browser):
    """A page at 1280x800 (the walk-through's size), failing on JavaScript errors as the shared page does."""
    context = browser.new_context(viewport={"width": WIDE, "height": HIGH})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


@pytest.fixture
def designer(django_user_model):
    # staff, so that the nav holds every link it can hold; a long name, as the header shows it
    return django_user_model.objects.create_user("kampfgruppe_peiper_1944", password="x", is_staff=True)


def shot(page, name):
    Path(ARTIFACTS).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=f"{ARTIFACTS}/chrome-{name}.png")


def overflow(page):
    """How far the page is wider than the window (0: no sideways scrolling)."""
    return page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


def header_rows(page):
    """The distinct tops of the header's words (the brand, each nav link, the sign-in line): 1 when it fits."""
    return page.evaluate("""() => {
        const items = [...document.querySelectorAll('header .brand, header nav a, header .who > *')];
        const boxes = items.map((e) => e.getBoundingClientRect());
        // one line: every word's box overlaps every other's vertically, and none is cut at the header's edge
        const top = Math.max(...boxes.map((b) => b.top)), bottom = Math.min(...boxes.map((b) => b.bottom));
        const header = document.querySelector('header').getBoundingClientRect();
        return {rows: top < bottom ? 1 : 2, height: header.height,
                links: document.querySelectorAll('header nav a').length,
                inside: boxes.every((b) => b.right <= header.right + 0.5)};
    }""")


def canvas_box(page):
    return page.evaluate("() => { const b = document.getElementById('map-canvas').getBoundingClientRect();"
                         " return [b.x, b.y, b.width, b.height]; }")


@pytest.mark.parametrize("width", [1280, 1366])
def test_the_header_nav_fits_on_one_line(live_server, screen, designer, width):
    screen.set_viewport_size({"width": width, "height": HIGH})
    screen.goto(live_server.url + "/")
    anonymous = header_rows(screen)
    assert anonymous["rows"] == 1, anonymous
    sign_in(screen, live_server, designer)
    for address in ("/", "/maps/mine/", "/maps/new/", "/maps/import/", "/validations/", "/scenarios/"):
        screen.goto(live_server.url + address)
        signed_in = header_rows(screen)
        assert signed_in["links"] == 8   # every link a staff designer has, Admin included
        assert signed_in["rows"] == 1 and signed_in["inside"], signed_in
        assert signed_in["height"] < 60, signed_in
        assert overflow(screen) == 0
    shot(screen, f"nav-{width}")


def deep_zip():
    """The community zip as a designer's archive holds it: every file some folders down, paths with no spaces."""
    source, out = zipfile.ZipFile(io.BytesIO(community_zip())), io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in source.namelist():
            archive.writestr(f"normandy_campaign_2026-11-30/community_boards_to_check/{name}", source.read(name))
    return out.getvalue()


def test_the_validation_report_fits_the_page(live_server, screen, designer):
    """A real report (the community zip checked by the engine as the job checks it) has no sideways scrolling."""
    batch = BatchValidation.objects.create(owner=designer, name="community.zip", size=1)
    for index, upload in enumerate(importers.expand("community.zip", deep_zip(), importing.limits())):
        checked = check_upload(upload, importing.limits())
        BatchFile.objects.create(batch=batch, index=index, name=checked["name"], verdict=checked["verdict"],
                                 source_format=checked["source_format"], errors=checked["errors"],
                                 warnings=checked["warnings"], findings=checked["findings"],
                                 groups=checked["groups"], mapping=checked["mapping"], document=checked["document"])
    BatchValidation.objects.filter(pk=batch.pk).update(files_total=batch.files.count())
    sign_in(screen, live_server, designer)
    screen.goto(f"{live_server.url}/validations/{batch.pk}/")
    assert screen.locator("#files tbody tr").count() == batch.files.count() > 3
    assert overflow(screen) == 0
    table, main = (screen.locator(s).bounding_box() for s in ("#files", "main"))
    assert table["x"] >= main["x"] and table["x"] + table["width"] <= main["x"] + main["width"] + 0.5
    screen.screenshot(path=f"{ARTIFACTS}/chrome-validation-report.png", full_page=True)


COVERED = """() => {
    // The controls, headings and links a message lies over: none may be, on any page (issue 32).
    const boxes = [...document.querySelectorAll('.messages li')].map((li) => li.getBoundingClientRect());
    const under = [...document.querySelectorAll('h1, a, button, input, select, textarea, label')]
        .filter((e) => !e.closest('.messages') && e.getClientRects().length);
    return under.filter((e) => { const r = e.getBoundingClientRect();
        return boxes.some((b) => r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom); })
        .map((e) => e.outerHTML.slice(0, 80));
}"""


def test_a_django_message_covers_nothing_and_over_the_painter_moves_nothing(live_server, screen, designer):
    """"Created ..." (a new map) and "Duplicated ..." answer on the map's page at its top, in the page's flow: the
    message lies over no heading or control; over the painter it lies over the map's stage only, and the canvas
    does not move."""
    call_command("load_samples", stdout=io.StringIO())
    sign_in(screen, live_server, designer)
    screen.goto(live_server.url + "/maps/new/")
    screen.fill("input[name=name]", "A long name for a new map, as designers give them")
    screen.get_by_role("button", name="Create the map").click()
    screen.wait_for_url("**/maps/*/")
    assert "Created" in screen.locator(".messages li").inner_text()
    assert screen.evaluate(COVERED) == []
    shot(screen, "message-created")
    screen.goto(live_server.url + "/")
    screen.locator("a.map-name").first.click()
    screen.get_by_role("button", name="Duplicate").click()
    message = screen.locator(".messages li")
    assert "Duplicated" in message.inner_text()
    assert screen.evaluate(COVERED) == []
    shot(screen, "message-map-page")
    screen.get_by_role("button", name="Dismiss").click()
    expect(message).to_have_count(0)

    # The same message over the painter (a page opened while one waits, as opening a validated file leaves a
    # warning there): the canvas is where it is without it.
    painter = screen.get_by_role("link", name="Edit in the painter").get_attribute("href")
    duplicate = screen.locator("form[action$='/duplicate/']").get_attribute("action")
    screen.evaluate("""async (url) => {
        const token = document.querySelector('input[name=csrfmiddlewaretoken]').value;
        await fetch(url, {method: 'POST', headers: {'X-CSRFToken': token}, redirect: 'manual'});
    }""", duplicate)
    screen.goto(live_server.url + painter)
    screen.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    assert "Duplicated" in screen.locator(".messages li").inner_text()
    assert screen.evaluate(COVERED) == []
    with_message = canvas_box(screen)
    shot(screen, "message-painter")
    screen.reload()
    screen.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    assert screen.locator(".messages").count() == 0
    assert canvas_box(screen) == with_message


def test_a_banner_overlays_the_painter_without_moving_the_map(live_server, screen, designer):
    """The painter's "Not saved yet" banner (the connection lost while painting) leaves the canvas where it was,
    so the next click lands on the hex under the pointer."""
    map = blank_map(designer)
    sign_in(screen, live_server, designer)
    open_editor(screen, live_server, map.pk)
    before = canvas_box(screen)
    screen.context.set_offline(True)
    screen.keyboard.press("b")
    screen.mouse.click(*point(screen, "C3"))
    banner = screen.locator("#banner")
    banner.wait_for(state="visible")
    assert "Not saved yet" in banner.inner_text()
    assert canvas_box(screen) == before
    shot(screen, "banner-painter")
    screen.context.set_offline(False)
    screen.wait_for_function("() => !window.painter.editor.busy", timeout=15000)


def test_a_refused_edit_names_the_unit_and_side_and_keeps_the_path_for_tools(live_server, screen, designer):
    """The scenario editor refuses an OOB count of 0: the banner says which unit of which side, in words, not
    "sides[0].oob[0].count"; the path is on the item for tools; the map stays put."""
    call_command("load_samples", stdout=io.StringIO())
    sign_in(screen, live_server, designer)
    new_scenario(screen, live_server, "Words at Hill 112", "Hill 112 (Old School Tactical) (ost)")
    screen.click("#tabs [role=tab]:text('Side 1')")
    count = "#oob tr[data-unit='unit-1'] input[aria-label=count]"
    screen.locator(count).wait_for()
    before = canvas_box(screen)
    screen.fill(count, "0")
    screen.locator(count).dispatch_event("change")
    banner = screen.locator("#banner")
    banner.wait_for(state="visible")
    text = banner.inner_text()
    assert "refused" in text
    assert "OOB line 1" in text and "Side 1" in text, text
    assert "sides[" not in text and "oob[" not in text and "unit-1" not in text, text
    assert "refused “the count of Infantry squad (Side 1 OOB line 1)”" in text   # the change, named in words
    assert banner.locator("li[data-path='sides[0].oob[0].count']").count() == 1
    assert canvas_box(screen) == before
    shot(screen, "refused-in-words")


def test_a_visitor_is_told_to_sign_in_not_about_tokens(live_server, screen):
    """A visitor asking a published map's painter for a line of sight nobody has worked out is asked to sign in."""
    call_command("load_samples", stdout=io.StringIO())
    screen.goto(live_server.url + "/")
    screen.locator("a.map-name").first.click()
    screen.get_by_role("link", name="Open in the painter").click()
    screen.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    screen.keyboard.press("l")
    screen.mouse.click(*point(screen, "B2"))
    screen.mouse.click(*point(screen, "E6"))
    answer = screen.locator("#los-answer")
    screen.wait_for_function("() => /Sign in|No answer/.test(document.getElementById('los-answer').textContent)")
    text = answer.inner_text()
    assert "Sign in" in text, text
    assert "token" not in screen.inner_text("body").lower()
    shot(screen, "visitor-sign-in")


def test_the_404_and_500_pages_are_in_the_site_layout(live_server, screen, settings):
    response = screen.goto(live_server.url + "/no/such/page/")
    assert response.status == 404
    assert screen.locator("h1").inner_text() == "Nothing here"
    assert screen.locator("header .brand").inner_text() == "Hexside"
    assert screen.locator("header nav a").count() >= 3 and screen.locator("footer").count() == 1
    # the site's stylesheet is applied: the header is laid out as a row, not Django's bare page
    assert screen.evaluate("() => getComputedStyle(document.querySelector('header')).display") == "flex"
    assert "/no/such/page/" in screen.inner_text("main")
    shot(screen, "404")

    settings.ROOT_URLCONF = "tests.browser.failing_urls"
    response = screen.goto(live_server.url + "/test-failure/")
    assert response.status == 500
    assert screen.locator("h1").inner_text() == "Something went wrong on our side"
    assert screen.locator("header .brand").inner_text() == "Hexside"
    assert screen.evaluate("() => getComputedStyle(document.querySelector('header')).display") == "flex"
    assert "RuntimeError" not in screen.content()
    shot(screen, "500")
