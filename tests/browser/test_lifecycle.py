"""The life of a map and a scenario in real Chromium at 1280x800, as the issue's walk-through (issue 20, points 1
and 2): publish a map from its page; publish, duplicate, export, import and delete a scenario from its pages;
delete a map with the scenarios on it after the page lists them; another designer's scenario whose map is gone
says so and is pointed at another map of the same grid from its page."""

import copy
from pathlib import Path

import pytest

from authoring.models import Scenario
from engine import mapfile
from engine.scenarios import scenariofile
from maps.models import Map
from tests.browser.painting import sign_in
from tests.conftest import MAP_DOCUMENT
from tests.scenarios.conftest import SMALL

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path("tests/browser/artifacts")


def shot(page, name, full=False):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lifecycle-{name}.png"), full_page=full)


def board(owner, name, published=False):
    return Map.objects.create_from_doc(owner, mapfile.parse({**copy.deepcopy(MAP_DOCUMENT), "name": name}),
                                       published=published)


def scenario_on(owner, map, title):
    data = copy.deepcopy(SMALL)
    data["title"] = title
    data["maps"] = [{"key": "main", "id": map.pk}]
    data["sides"][1]["oob"].append({"id": "ambush", "unit": "Rifle Squad", "name": "Crossroads ambush",
                                    "hidden": True})
    data["sides"][1]["placements"].append({"unit": "ambush", "hex": "J7"})
    return Scenario.objects.create_from_doc(owner, scenariofile.parse(data, lambda entry: map.mapdoc()))


def ready(page):
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=20000)


def test_publish_duplicate_export_import_delete_and_a_map_gone(live_server, page, django_user_model, tmp_path):
    page.set_viewport_size({"width": 1280, "height": 800})
    designer = django_user_model.objects.create_user("designer", password="designer-password")
    rival = django_user_model.objects.create_user("rival", password="rival-password")
    hill = board(designer, "Hill 112")
    scenario = scenario_on(designer, hill, "Hill 112 attack")
    sign_in(page, live_server, designer)

    # The map's page publishes it, saying first what a publish shows.
    page.goto(f"{live_server.url}/maps/{hill.pk}/")
    assert "Publishing shows everyone the whole map" in page.locator("#map-publish").inner_text()
    shot(page, "map-private")
    page.click("#map-publish #publish")
    page.wait_for_selector("#map-publish #unpublish")
    assert "Published Hill 112" in page.locator(".messages").inner_text() and Map.objects.get(pk=hill.pk).published
    shot(page, "map-published")

    # The scenario's page: what a publish exposes, then publish, duplicate, export.
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    ready(page)
    assert "public part only" in page.locator("#scenario-publish").inner_text()
    page.click("#publish")
    page.wait_for_selector("#unpublish")
    assert Scenario.objects.get(pk=scenario.pk).published
    assert "hidden part" in page.locator("#scenario-publish").inner_text()
    shot(page, "scenario-published")
    with page.expect_download() as download:
        page.click("#export-file")
    exported = tmp_path / "exported.json"
    download.value.save_as(exported)
    assert '"Crossroads ambush"' in exported.read_text()  # the owner's file: every side's part
    page.click("#duplicate")
    page.wait_for_url(f"{live_server.url}/scenarios/*/")
    ready(page)
    copy_of = Scenario.objects.get(title="Hill 112 attack (copy)")
    assert page.url.endswith(f"/scenarios/{copy_of.pk}/") and not copy_of.published
    assert "Duplicated Hill 112 attack" in page.locator(".messages").inner_text()

    # Delete the copy: a confirmation page first.
    page.click("#delete")
    page.wait_for_selector("#confirm-delete")
    assert "cannot be undone" in page.locator(".panel").inner_text()
    shot(page, "scenario-delete")
    page.click("#confirm-delete")
    page.wait_for_selector("#import-scenario")
    assert "Deleted Hill 112 attack (copy)" in page.locator(".messages").inner_text()
    assert not Scenario.objects.filter(pk=copy_of.pk).exists()

    # Import the exported file from the list page, first a broken one (said on the page, nothing made).
    broken = tmp_path / "broken.json"
    broken.write_text(exported.read_text().replace('"hex": "J7"', '"hex": "Z99"'))
    page.set_input_files("#import-scenario input[type=file]", str(broken))
    page.click("#import-submit")
    page.wait_for_selector("#import-errors")
    assert "Z99" in page.locator("#import-errors").inner_text() and Scenario.objects.count() == 1
    shot(page, "import-refused")
    page.set_input_files("#import-scenario input[type=file]", str(exported))
    page.click("#import-submit")
    ready(page)
    assert "Imported Hill 112 attack" in page.locator(".messages").inner_text() and Scenario.objects.count() == 2

    # Another designer builds on the published map.
    theirs = scenario_on(rival, hill, "Rival raid")
    spare = board(rival, "Rival's copy of the board")

    # Deleting the map lists the scenarios on it; without the box ticked nothing goes.
    page.goto(f"{live_server.url}/maps/{hill.pk}/")
    page.click("#map-delete")
    page.wait_for_selector("#own-scenarios")
    mine_listed = page.locator("#own-scenarios li").all_inner_texts()
    assert mine_listed == ["Hill 112 attack", "Hill 112 attack"]  # the original and the imported one
    assert "Rival raid" in page.locator("#their-scenarios").inner_text()
    shot(page, "map-delete", full=True)
    assert page.locator("#keep-scenarios").is_checked()  # keeping them, the map embedded, is the default
    page.check("#with-scenarios")
    page.click("#confirm-delete")
    page.wait_for_selector("h1:has-text('My maps')")
    assert "Deleted Hill 112 and 2 scenarios on it" in page.locator(".messages").inner_text()
    assert not Map.objects.filter(pk=hill.pk).exists() and list(Scenario.objects.all()) == [theirs]

    # The rival's scenario says its map is gone and is pointed at their own map of the same grid.
    page.context.clear_cookies()
    sign_in(page, live_server, rival)
    page.goto(f"{live_server.url}/scenarios/{theirs.pk}/")
    page.wait_for_selector("#point-at-submit")
    page.wait_for_selector("body[data-failed='1']", state="attached", timeout=15000)  # the editor gave up the map
    gone = page.locator("#map-gone").inner_text()
    assert "This scenario's map was deleted" in gone and f"map {hill.pk}" not in gone  # no internal id
    assert page.locator("#banner").is_hidden()  # the page says it in #map-gone: no banner over its controls
    uncovered = page.evaluate("""() => { const b = document.getElementById('point-at-submit').getBoundingClientRect();
        return document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2).id; }""")
    assert uncovered == "point-at-submit"
    assert page.locator("#scenario-export").count() == 0  # no card or print without a map
    shot(page, "map-gone")
    page.select_option("#point-at-map", str(spare.pk))
    page.click("#point-at-submit")
    ready(page)
    assert "Rival raid is on Rival's copy of the board now" in page.locator(".messages").inner_text()
    assert page.locator("#map-gone").count() == 0
    assert Scenario.objects.get(pk=theirs.pk).document["maps"][0]["id"] == spare.pk
    shot(page, "map-repointed")
