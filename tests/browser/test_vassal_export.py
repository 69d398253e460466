"""The scenario page's VASSAL module button in real Chromium with a real worker: a reader holding no side has none;
a side link's holder exports a print of their side's view, and the .vmod downloads when its job is done."""

import io
import re
import zipfile

import pytest
from django.core.management import call_command

from authoring.models import Scenario, SideLink
from tests.browser.painting import ARTIFACTS, sign_in
from tests.engine.exports import vassal_decode

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_vassal_module_from_the_scenario_page(live_server, page, django_user_model, jobs):
    call_command("load_samples", stdout=io.StringIO())
    call_command("load_scenario_samples", stdout=io.StringIO())
    player = django_user_model.objects.create_user("player", password="player-password")
    sign_in(page, live_server, player)
    page.set_viewport_size({"width": 1500, "height": 950})
    scenario = Scenario.objects.get(title="Hill 112: the Orne heights")
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    assert page.locator("#export-vassal").count() == 0  # the module both sides play is the owner's to hand out
    link = SideLink.objects.create(scenario=scenario, side="german")
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/side/{link.token}/")
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    assert page.locator("#scenario-export [name=side] option").all_inner_texts() == ["German's view"]
    page.select_option("#scenario-export [name=side]", "german")
    page.fill("#scenario-export [name=hex_mm]", "12")
    with page.expect_download(timeout=90000) as info:
        page.click("#export-vassal")
    download = info.value
    assert download.suggested_filename.endswith("-german.vmod")
    with zipfile.ZipFile(download.path()) as z:
        build = z.read("buildFile.xml").decode()
        setup = re.search(r'file="([^"]+\.vsav)"', build).group(1)
        placed = "\x1b".join(vassal_decode.saved_game(z.read(setup)))
    assert "VASSAL.build.GameModule" in build and "PaK 40" in placed  # the German holder's hidden gun
    assert "ready:" in page.inner_text("#scenario-export [data-export-status]")
    page.screenshot(path=f"{ARTIFACTS}/export-vassal-page.png")
