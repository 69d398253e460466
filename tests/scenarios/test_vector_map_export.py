"""A scenario's map in vectors as an export job: SVG and PDF at true hex size, drawn from the sheet's view (the
public one holds no hidden counter), bad options refused by field."""

import io
import re
import xml.etree.ElementTree as ET

import pytest
from pypdf import PdfReader
from rest_framework.test import APIClient

from tests.scenarios.test_hidden import job_result

pytestmark = pytest.mark.usefixtures("jobs_isolated")  # what these tests send goes to their own broker folder


def content(client, job):
    file = client.get(f"/api/jobs/{job['id']}/file/")
    assert file.status_code == 200
    return file, b"".join(file.streaming_content)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_scenarios_map_as_svg_and_pdf(samples, jobs):
    scenario = samples["ost"]
    owner = APIClient()
    owner.force_login(scenario.owner)
    url = f"/api/scenarios/{scenario.pk}/print/"
    public, _ = job_result(owner, url, {"format": "svg", "hex_mm": 12})
    assert public["result"]["filename"].endswith(".map.svg") and public["parameters"]["sides"] == []
    response, svg = content(owner, public)
    assert response["Content-Type"] == "image/svg+xml"
    root = ET.fromstring(svg)
    assert root.get("width").endswith("mm") and float(root.get("width")[:-2]) > 0
    text = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    assert re.search(r"\b[A-Z]\d+\b", text)  # hex labels as text
    german, _ = job_result(owner, url, {"format": "svg", "hex_mm": 12, "sheet": "german"})
    assert german["id"] != public["id"] and german["parameters"]["sides"] == ["german"]
    pdf_job, _ = job_result(owner, url, {"format": "map-pdf", "hex_mm": 12})
    response, pdf = content(owner, pdf_job)
    assert response["Content-Type"] == "application/pdf"
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    assert float(page.mediabox.width) == pytest.approx(float(root.get("width")[:-2]) * 72 / 25.4, abs=0.5)

    for bad, field in (({"format": "svg", "dpi": 150}, "dpi"), ({"format": "map-pdf", "hex_mm": 90}, "hex_mm")):
        refused = owner.post(url, bad, format="json")
        assert refused.status_code == 400 and field in refused.json(), refused.json()
