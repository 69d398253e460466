"""Batch validation in a real browser with a real worker: upload a zip of community maps, watch the progress,
read the report, open one map as one's own and see its findings highlighted on the map."""

import json
import zipfile
from io import BytesIO
from pathlib import Path

import pytest
from django.test import Client

from maps.models import Map
from tests.jobs.test_batch_validation import BROKEN_OST, community_zip
from validations.models import BatchValidation

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def sign_in(page, live_server, user):
    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                               "url": live_server.url}])


def test_upload_a_zip_watch_it_checked_and_open_a_map_with_its_findings(
        live_server, page, worker, django_user_model):
    user = django_user_model.objects.create_user("checker", password="x")
    data = BytesIO(community_zip())
    with zipfile.ZipFile(data, "a") as archive:
        archive.writestr("hexside/broken-rules.json", json.dumps(BROKEN_OST))
    sign_in(page, live_server, user)

    page.goto(live_server.url + "/validations/")
    page.set_input_files("#validation-file", files=[{"name": "community.zip", "mimeType": "application/zip",
                                                     "buffer": data.getvalue()}])
    page.get_by_role("button", name="Upload and check").click()
    page.wait_for_url("**/validations/*/")
    batch = BatchValidation.objects.get(owner=user)
    assert page.locator("h1").inner_text() == "Validation of community.zip"

    # The progress bar follows the job, then the page shows the whole report.
    seen = set()
    page.wait_for_function("() => document.getElementById('status-text').textContent === 'succeeded' "
                           "&& document.querySelectorAll('#files tbody tr').length > 0", timeout=120000)
    seen.add(page.locator("#status progress").get_attribute("value"))
    assert "100" in seen
    rows = page.locator("#files tbody tr")
    assert rows.count() == batch.files.count() == 8
    text = page.locator("#files").inner_text()
    assert "hexside/broken.json" in text and "invalid" in text and "tiled" in text
    page.screenshot(path=str(ARTIFACTS / "validation-report.png"), full_page=True)

    # The report downloads as JSON.
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the report (JSON)").click()
    report = json.loads(Path(download.value.path()).read_text())
    assert len(report["files"]) == 8 and report["status"] == "succeeded"

    # Open the map that breaks rules as a map of one's own: its findings are listed and its hexes highlighted.
    row = page.locator("#files tbody tr", has_text="broken-rules.json")
    assert "warnings" in row.inner_text() or "invalid" in row.inner_text()
    row.get_by_role("button", name="Open as my map").click()
    page.wait_for_load_state("networkidle")
    map = Map.objects.get(owner=user)
    assert not map.published
    # It opens in the painter: the findings are listed in its panel and outlined on the canvas; a click on one
    # picks out its hex.
    assert page.url.endswith(f"/maps/{map.pk}/edit/")
    page.locator("#findings-panel summary").click()
    page.wait_for_function("() => document.querySelectorAll('#findings-list li').length >= 3")
    assert "this road hex has no road beside it" in page.locator("#findings-list").inner_text()
    outlined = page.evaluate("window.painter.findings.filter((f) => f.at).map((f) => f.hex)")
    assert "E4" in outlined
    page.locator("#findings-list li", has_text="this road hex").get_by_role("button").click()
    assert page.evaluate("window.painter.highlight.hexes.map((h) => window.painter.grid.label(...h))") == ["E4"]
    page.screenshot(path=str(ARTIFACTS / "validation-painter-findings.png"))
    # The map page shows them too, over the map's image.
    page.goto(f"{live_server.url}/maps/{map.pk}/")
    assert page.url.endswith(f"/maps/{map.pk}/")
    items = page.locator(".findings-list li")
    assert items.count() >= 3
    assert "this road hex has no road beside it" in page.locator(".findings-list").inner_text()
    shapes = page.locator("svg.findings-overlay g")
    assert shapes.count() >= 3
    e4 = page.locator('svg.findings-overlay g[data-hex="E4"] polygon')
    box, image = e4.bounding_box(), page.locator("img.map-image").bounding_box()
    # The highlight lies on the image, where E4 is drawn (the 5th column, towards the middle).
    assert image["x"] < box["x"] < image["x"] + image["width"] and image["y"] < box["y"] < image["y"] + image["height"]
    assert box["x"] > image["x"] + image["width"] * 0.35
    # Pointing at the finding in the list picks its hex out on the map.
    page.locator(".findings-list li", has_text="this road hex").hover()
    assert "picked" in page.locator('svg.findings-overlay g[data-hex="E4"]').get_attribute("class")
    page.screenshot(path=str(ARTIFACTS / "validation-map-findings.png"), full_page=True)
