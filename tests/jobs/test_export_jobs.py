"""Exports as jobs, run by a real worker: a scenario's card PDF and map PNG, a map's print PNG, downloaded
through GET /api/jobs/<id>/file/; the same export of the same revision is the stored file."""

import io
import json
from urllib.parse import quote

import pytest
from django.core.management import call_command
from PIL import Image
from pypdf import PdfReader
from rest_framework.test import APIClient

from authoring.models import Scenario
from engine import render
from jobs.models import Job
from maps.models import Map
from tests.jobs.test_workers import follow
from tests.scenarios.conftest import SAMPLES

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

TITLE = "Ste-Mère-Église to Łódź"


def download(client, job):
    response = client.get(job["result_file"])
    assert response.status_code == 200
    return response, b"".join(response.streaming_content)


def test_card_and_map_exports_through_a_worker(worker, django_user_model):
    # The module's worker starts before this test's broker folder is emptied, so it may hold messages an earlier
    # module left for job ids that are reused here: cancelled rows under those ids let it drop them harmlessly.
    Job.objects.bulk_create(Job(kind="los", status=Job.Status.CANCELLED, request_key=f"stale-{k}")
                            for k in range(100))
    call_command("load_samples", stdout=io.StringIO())
    owner = django_user_model.objects.create_user("printer", password="x")
    client = APIClient()
    client.force_login(owner)
    data = json.loads(next(p for p in SAMPLES if p.stem == "groesbeek-heights").read_text())
    data["title"] = TITLE
    created = client.post("/api/scenarios/", {"document": data}, format="json")
    assert created.status_code == 201, created.json()
    scenario = Scenario.objects.get(pk=created.json()["id"])
    url = f"/api/scenarios/{scenario.pk}/print/"

    asked = client.post(url, {"sheet": "german", "paper": "letter"}, format="json")
    assert asked.status_code == 202, asked.json()
    job = follow(client, asked.json()["url"])
    assert job["status"] == "succeeded", job["error"]
    assert job["kind"] == "export" and job["progress"] == 100
    response, pdf = download(client, job)
    assert response["Content-Type"] == "application/pdf"
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment") and quote("Ste-Mère-Église-to-Łódź-german.pdf") in disposition
    reader = PdfReader(io.BytesIO(pdf))
    text = " ".join(page.extract_text() for page in reader.pages)
    assert TITLE in text and "SECRET" in text
    assert round(float(reader.pages[0].mediabox[2])) == 612  # Letter

    again = client.post(url, {"paper": "letter", "sheet": "german"}, format="json")
    assert again.status_code == 200 and again.json()["id"] == job["id"]  # the stored file, not drawn again
    other = client.post(url, {"sheet": "allied"}, format="json")
    assert other.status_code == 202 and other.json()["job"] != job["id"]

    asked = client.post(url, {"format": "png", "dpi": 100, "hex_mm": 12, "sheet": "public"}, format="json")
    job = follow(client, asked.json()["url"])
    assert job["status"] == "succeeded", job["error"]
    response, png = download(client, job)
    assert response["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(png)).width > 0

    # A new revision of the scenario is a new export.
    edited = client.post(f"/api/scenarios/{scenario.pk}/edits/", {"revision": scenario.revision, "operations": [
        {"op": "set", "path": "subtitle", "value": "Market Garden"}]}, format="json")
    assert edited.status_code == 200, edited.json()
    fresh = client.post(url, {"paper": "letter", "sheet": "german"}, format="json")
    assert fresh.status_code == 202 and fresh.json()["job"] != again.json()["id"]

    for bad, field in (({"paper": "a3"}, "paper"), ({"sheet": "russian"}, "sheet"), ({"dpi": 900}, "dpi"),
                       ({"colour": "red"}, "colour")):
        response = client.post(url, bad, format="json")
        assert response.status_code == 400 and field in response.json(), (bad, response.json())

    stranger = APIClient()
    assert stranger.post(url, {}, format="json").status_code == 404  # a private scenario
    assert stranger.get(job["result_file"]).status_code == 404

    # The map page's print PNG: a job on the map, sized by dpi and hex size.
    map = Map.objects.filter(published=True).order_by("pk").first()
    asked = client.post(f"/api/maps/{map.pk}/print/", {"dpi": 120, "hex_mm": 10}, format="json")
    assert asked.status_code == 202, asked.json()
    job = follow(client, asked.json()["url"])
    assert job["status"] == "succeeded", job["error"]
    _, png = download(client, job)
    image = Image.open(io.BytesIO(png))
    assert image.width == render.printed_size(map.hex_grid(), 120, 10)[0]
    # The file says its dpi, so a hex of 10 mm prints 10 mm across the flats (its pixels over the dpi, in mm).
    dpi = image.info["dpi"]
    assert round(dpi[0]) == round(dpi[1]) == 120
    assert render.print_scale(120, 10) * 3 ** 0.5 / dpi[0] * 25.4 == pytest.approx(10, rel=1e-3)
    assert client.post(f"/api/maps/{map.pk}/print/", {"dpi": 120, "hex_mm": 10}, format="json").status_code == 200
    assert client.post(f"/api/maps/{map.pk}/print/", {"dpi": 301}, format="json").status_code == 400
