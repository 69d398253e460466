"""The export buttons in real Chromium with a real worker: a TOCS side's secret brief as a PDF from the scenario
page, by the holder of that side's link, and a print PNG from the map page, each downloaded when its job is done."""

import io

import pytest
from django.core.management import call_command
from PIL import Image
from pypdf import PdfReader

from authoring.models import Scenario, SideLink
from engine import render
from maps.models import Map
from tests.browser.painting import ARTIFACTS, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_card_pdf_and_map_png_from_the_pages(live_server, page, django_user_model, jobs):
    call_command("load_samples", stdout=io.StringIO())
    call_command("load_scenario_samples", stdout=io.StringIO())
    player = django_user_model.objects.create_user("player", password="player-password")
    sign_in(page, live_server, player)
    page.set_viewport_size({"width": 1500, "height": 950})
    scenario = Scenario.objects.get(title="The Groesbeek heights")
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    assert page.locator("#scenario-export [name=sheet]").count() == 0  # the public sheet only: no choice
    assert page.inner_text("#export-card") == "Public sheet PDF"
    link = SideLink.objects.create(scenario=scenario, side="german")  # the owner's, given to this player
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/side/{link.token}/")
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    assert page.locator("#scenario-export [name=sheet] option").all_inner_texts() == [
        "Public sheet", "German: secret brief"]
    page.select_option("#scenario-export [name=sheet]", "german")
    assert page.inner_text("#export-card") == "German: secret brief PDF"  # the button names the sheet it exports
    page.select_option("#scenario-export [name=paper]", "letter")
    with page.expect_download(timeout=60000) as info:
        page.click("#export-card")
    download = info.value
    assert download.suggested_filename == "The-Groesbeek-heights-german.pdf"
    reader = PdfReader(download.path())
    text = " ".join(p.extract_text() for p in reader.pages)
    assert "SECRET" in text and "KG Henke" in text and round(float(reader.pages[0].mediabox[2])) == 612
    assert "A/1/505" not in text  # the Allied forces are not the German holder's
    assert "ready: The-Groesbeek-heights-german.pdf" in page.inner_text("#scenario-export [data-export-status]")
    page.screenshot(path=f"{ARTIFACTS}/export-scenario-page.png")

    map = Map.objects.get(name="Hill 112 (Old School Tactical)")
    page.goto(f"{live_server.url}/maps/{map.pk}/")
    page.fill("#map-export [name=dpi]", "100")
    page.fill("#map-export [name=hex_mm]", "12")
    with page.expect_download(timeout=60000) as info:
        page.click("#map-export button")
    image = Image.open(info.value.path())
    assert image.size[0] == render.printed_size(map.hex_grid(), 100, 12)[0]
    assert info.value.suggested_filename.endswith(".png")
    page.screenshot(path=f"{ARTIFACTS}/export-map-page.png")
