"""The map page's export buttons in real Chromium with a real worker: the SVG at the hex size typed in, and the
Tiled zip, each downloaded when its job is done."""

import io
import xml.etree.ElementTree as ET
import zipfile

import pytest
from django.core.management import call_command

from maps.models import Map
from tests.browser.painting import ARTIFACTS, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_svg_and_tiled_from_the_map_page(live_server, page, django_user_model, jobs):
    call_command("load_samples", stdout=io.StringIO())
    sign_in(page, live_server, django_user_model.objects.create_user("mapper", password="mapper-password"))
    map = Map.objects.get(name="Hill 112 (Old School Tactical)")
    page.goto(f"{live_server.url}/maps/{map.pk}/")
    assert page.locator("#map-export button").all_inner_texts() == ["Print PNG", "SVG", "PDF", "Tiled", "VASSAL"]
    page.fill("#map-export [name=hex_mm]", "12")
    with page.expect_download(timeout=60000) as info:
        page.click("#export-svg")
    assert info.value.suggested_filename.endswith(".svg")
    root = ET.parse(info.value.path()).getroot()
    hexes = root.find("{http://www.w3.org/2000/svg}path").get("d").split("Z")[0]
    ys = [float(p.split()[1]) for p in hexes[1:].split("L")]
    assert max(ys) - min(ys) == pytest.approx(12, abs=0.002)  # the hex size typed in, across the flats
    assert "ready:" in page.inner_text("#map-export [data-export-status]")
    with page.expect_download(timeout=60000) as info:
        page.click("#export-tiled")
    assert info.value.suggested_filename.endswith(".zip")
    names = zipfile.ZipFile(info.value.path()).namelist()
    assert any(n.endswith(".tmx") for n in names) and any(n.endswith("-terrain.png") for n in names)
    page.screenshot(path=f"{ARTIFACTS}/export-map-formats.png")
