"""The scenario page's print-and-play kit button in real Chromium with a real worker: a side link's holder picks
the counter size, and the zip that downloads holds the public card, their own side's sheet and counters, and the
map pages, and nothing of the other side's."""

import io
import zipfile

import pytest
from django.core.management import call_command

from authoring.models import Scenario, SideLink
from tests.browser.painting import ARTIFACTS, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_kit_from_the_scenario_page(live_server, page, django_user_model, jobs):
    call_command("load_samples", stdout=io.StringIO())
    call_command("load_scenario_samples", stdout=io.StringIO())
    player = django_user_model.objects.create_user("player", password="player-password")
    sign_in(page, live_server, player)
    page.set_viewport_size({"width": 1500, "height": 950})
    scenario = Scenario.objects.get(title="Hill 112: the Orne heights")
    link = SideLink.objects.create(scenario=scenario, side="british")
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/side/{link.token}/")
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    page.fill("#scenario-export [name=hex_mm]", "10")
    page.select_option("#scenario-export [name=counter_size]", "1/2in")
    with page.expect_download(timeout=120000) as info:
        page.click("#export-kit")
    download = info.value
    assert download.suggested_filename.endswith("-kit-british.zip")
    with zipfile.ZipFile(download.path()) as z:
        names = z.namelist()
        readme = z.read("README.txt").decode()
    assert {"01-public-card.pdf", "02-sheet-British.pdf", "03-map-pages.pdf", "04-counters-British.pdf"} <= set(names)
    assert not [name for name in names if "German" in name]
    assert "for British only" in readme and "10 mm across the flats" in readme
    assert "ready:" in page.inner_text("#scenario-export [data-export-status]")
    page.screenshot(path=f"{ARTIFACTS}/export-kit-page.png")
