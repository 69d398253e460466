"""Every page of the site at a phone's, a tablet's and a desktop's size, with real data (the samples, a map and a
scenario with sides of the designer's own, a side link, a Wesnoth import with a long source code at its mapping
step): none is wider than its screen, no control is covered by another element, the header folds behind a menu
button on the narrow screens, and the painter's and the editor's maps get the room to be used. A screenshot of
each page at each size goes to tests/browser/artifacts/walk/."""

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from authoring.models import Scenario, SideLink
from maps.models import Map
from tests.browser.painting import ARTIFACTS, sign_in
from tests.browser.test_mapping_step import import_file
from tests.browser.walk import SIZES, covered_controls, header_folds, wider_than_the_screen
from validations.models import BatchValidation as Batch

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

LONG_CODE = "Gg^Vhhr_burnt_farmhouse_with_orchard"


def wesnoth_map(columns=10, rows=8):
    """Grass with a forest and a patch of a long code nothing fits, a border all round."""
    lines = []
    for y in range(rows + 2):
        cells = [LONG_CODE if 2 <= x <= 4 and 2 <= y <= 4 else "Gs^Fp" if x > 6 and y < 4 else "Gg"
                 for x in range(columns + 2)]
        lines.append(", ".join(cells))
    return ("\n".join(lines) + "\n").encode()


def own_things(user):
    """A map and a scenario of the designer's own (duplicates of the samples) and a side link to its first side."""
    client = Client()
    client.force_login(user)
    sample = Scenario.objects.get(title="Hill 112: the Orne heights")
    client.post(f"/maps/{Map.objects.filter(owner=sample.owner, ruleset=sample.ruleset).first().pk}/duplicate/")
    client.post(f"/scenarios/{sample.pk}/duplicate/")
    scenario = Scenario.objects.filter(owner=user).get()
    client.post(f"/scenarios/{scenario.pk}/links/", {"side": scenario.document["sides"][0]["id"]})
    return Map.objects.filter(owner=user).get(), scenario, SideLink.objects.get(scenario=scenario)


def imported(page, live_server, user):
    """The Wesnoth file through the Import page; the batch's report once its job is done."""
    import_file(page, live_server, "long_codes.map", wesnoth_map())
    return Batch.objects.get(owner=user)


def pages(own_map, scenario, link, batch):
    """(name, path, what shows it is ready) for every page a designer reaches."""
    editor_ready = "body[data-ready='1']"
    return [
        ("home", "/", "main"), ("my-maps", "/maps/mine/", "main"), ("new-map", "/maps/new/", "form"),
        ("import", "/maps/import/", "form"), ("map", f"/maps/{own_map.pk}/", "img.map-image"),
        ("painter", f"/maps/{own_map.pk}/edit/", editor_ready), ("map-delete", f"/maps/{own_map.pk}/delete/", "form"),
        ("scenarios", "/scenarios/", "main"), ("scenarios-filtered", "/scenarios/?q=hill&show=mine&game=ost", "main"),
        ("new-scenario-here", f"/scenarios/?map={own_map.pk}", "#new-scenario"),
        ("scenario", f"/scenarios/{scenario.pk}/", editor_ready),
        ("scenario-delete", f"/scenarios/{scenario.pk}/delete/", "form"),
        ("side-link", f"/scenarios/{scenario.pk}/side/{link.token}/", editor_ready),
        ("validations", "/validations/", "main"), ("validation", f"/validations/{batch.pk}/", "#files tbody tr"),
        ("mapping", f"/validations/{batch.pk}/files/0/mapping/", ".preview img"),
        ("api-docs", "/api/docs/", ".swagger-ui .opblock"),
    ]


SIGNED_OUT = [("sign-in", "/accounts/login/", "form"), ("sign-up", "/accounts/signup/", "form"),
              ("home-out", "/", "main")]


def look(page, folder, name, path, ready, live_server, narrow):
    page.goto(live_server.url + path)
    page.locator(ready).first.wait_for(state="attached", timeout=20000)
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    problems = []
    if wide := wider_than_the_screen(page):
        problems.append(f"{name}: {wide}")
    if covered := covered_controls(page):
        problems.append(f"{name}: covered {covered[:6]}")
    try:
        header_folds(page, narrow)
    except AssertionError as failed:
        problems.append(f"{name}: the header does not fold as it should {failed}")
    if name in ("painter", "scenario", "side-link"):
        problems += map_room(page, name, page.viewport_size)
    if name == "mapping":
        problems += table_fits(page)
    return problems


def map_room(page, name, size):
    """The editor's map canvas takes a narrow screen's width (nearly half a desktop's, beside the panels) and a
    usable height."""
    box, width = page.locator("#map-canvas").bounding_box(), size["width"]
    if box["width"] >= (width - 40 if width < 960 else width * 0.45) and box["height"] >= 300:
        return []
    return [f"{name}: the map is {box['width']:.0f} x {box['height']:.0f} px"]


def table_fits(page):
    """The mapping table within its column, a long source code and all (no column clipped or scrolled)."""
    sizes = page.evaluate("""() => { const t = document.querySelector("table.codes");
        return [t.getBoundingClientRect().right, t.parentElement.getBoundingClientRect().right,
                t.parentElement.scrollWidth, t.parentElement.clientWidth]; }""")
    if sizes[0] <= sizes[1] + 1 and sizes[2] <= sizes[3] + 1:
        return []
    return [f"mapping: the table overflows its column {sizes}"]


def test_every_page_fits_every_screen(live_server, browser, django_user_model, worker):
    user = django_user_model.objects.create_user("walker", password="walker-password")
    call_command("load_samples", stdout=io.StringIO())
    call_command("load_scenario_samples", stdout=io.StringIO())
    own_map, scenario, link = own_things(user)
    problems = []
    for size_name, (width, height) in SIZES.items():
        folder = Path(ARTIFACTS) / "walk" / size_name
        folder.mkdir(parents=True, exist_ok=True)
        context = browser.new_context(viewport={"width": width, "height": height}, has_touch=width < 1280)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        narrow = width < 960
        for name, path, ready in SIGNED_OUT:
            problems += [f"{size_name} {p}" for p in look(page, folder, name, path, ready, live_server, narrow)]
        sign_in(page, live_server, user)
        batch = Batch.objects.filter(owner=user).first() or imported(page, live_server, user)
        for name, path, ready in pages(own_map, scenario, link, batch):
            problems += [f"{size_name} {p}" for p in look(page, folder, name, path, ready, live_server, narrow)]
        page.goto("about:blank")
        context.close()
        assert errors == [], errors
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("width", [961, 1100])
def test_a_staff_designers_long_header_wraps_and_covers_nothing(live_server, browser, django_user_model, width):
    """Just wide enough not to fold: a staff designer's eight links and a long name share the line or wrap,
    never overlapping."""
    staff = django_user_model.objects.create_user("a-designer-with-a-very-long-name-indeed", password="x",
                                                  is_staff=True)
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    sign_in(page, live_server, staff)
    page.goto(live_server.url + "/")
    try:
        assert wider_than_the_screen(page) == ""
        assert covered_controls(page) == []
        header_folds(page, narrow=False)
    finally:
        context.close()
