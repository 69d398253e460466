"""A map's exports other than the PNG, as jobs run by a real worker: the vector print (SVG, PDF) at true size,
the Tiled map (a zip the project's importer reads back to the same map), each downloaded with its file name and
type; the same request on the same content is the stored file; bad options are refused by field."""

import io
import json
import xml.etree.ElementTree as ET
import zipfile

import pytest
from django.core.management import call_command
from pypdf import PdfReader
from rest_framework.test import APIClient

from engine import mapfile
from engine.exports import mapfiles
from engine.importers import convert_upload, expand
from jobs.models import Job
from maps.models import Map
from tests.jobs.test_export_jobs import download
from tests.jobs.test_workers import follow

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_vector_prints_and_tiled_maps_through_a_worker(worker, django_user_model):
    Job.objects.bulk_create(Job(kind="los", status=Job.Status.CANCELLED, request_key=f"stale-{k}")
                            for k in range(100))  # messages an earlier module left for reused ids (as test_export_jobs)
    call_command("load_samples", stdout=io.StringIO())
    client = APIClient()
    client.force_login(django_user_model.objects.create_user("exporter", password="x"))
    map = Map.objects.get(name="Hill 112 (Old School Tactical)")
    url = f"/api/maps/{map.pk}/print/"

    asked = client.post(url, {"format": "svg", "hex_mm": 16}, format="json")
    assert asked.status_code == 202, asked.json()
    job = follow(client, asked.json()["url"])
    assert job["status"] == "succeeded", job["error"]
    assert job["result"]["format"] == "svg" and job["result"]["filename"].endswith(".svg")
    response, svg = download(client, job)
    assert response["Content-Type"] == "image/svg+xml"
    assert response["Content-Disposition"].startswith("attachment") and ".svg" in response["Content-Disposition"]
    root = ET.fromstring(svg)
    assert root.get("width").endswith("mm") and root.get("viewBox").startswith("0 0 ")
    assert client.post(url, {"hex_mm": 16, "format": "svg"}, format="json").json()["id"] == job["id"]  # stored

    asked = client.post(url, {"format": "pdf", "hex_mm": 16}, format="json")
    job = follow(client, asked.json()["url"])
    assert job["status"] == "succeeded", job["error"]
    response, pdf = download(client, job)
    assert response["Content-Type"] == "application/pdf"
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    assert float(page.mediabox.width) == pytest.approx(float(root.get("width")[:-2]) * 72 / 25.4, abs=0.01)
    assert "C4" in page.extract_text()

    asked = client.post(url, {"format": "tiled"}, format="json")
    job = follow(client, asked.json()["url"])
    assert job["status"] == "succeeded", job["error"]
    response, archive = download(client, job)
    assert response["Content-Type"] == "application/zip" and job["result"]["filename"].endswith(".zip")
    assert any(name.endswith(".tmx") for name in zipfile.ZipFile(io.BytesIO(archive)).namelist())
    result = convert_upload(expand("map.zip", archive)[0])
    assert result.ok, [str(f) for f in result.findings]
    back, source = mapfile.parse(result.doc), map.mapdoc()
    assert back.resolved()[1] == source.resolved()[1]  # the hexsides
    assert {h: (c.terrain, c.level, c.storeys) for h, c in back.hexes.items()} == \
        {h: (c.terrain, c.level, c.storeys) for h, c in source.hexes.items()
         if (c.terrain, c.level, c.storeys) != (source.default_cell().terrain, 0, 1)}

    # A VASSAL module of the map: its board and grid, read back by the VASSAL importer as the map's grid.
    asked = client.post(url, {"format": "vassal", "hex_mm": 16}, format="json")
    job = follow(client, asked.json()["url"])
    assert job["status"] == "succeeded", job["error"]
    response, module = download(client, job)
    assert job["result"]["filename"].endswith(".vmod")
    assert "buildFile.xml" in zipfile.ZipFile(io.BytesIO(module)).namelist()
    result = convert_upload(expand("map.vmod", module)[0])
    assert result.ok, [str(f) for f in result.findings]
    back = mapfile.parse(result.doc).grid
    assert (back.columns, back.rows, back.orientation, back.labels) == (source.grid.columns, source.grid.rows,
                                                                         source.grid.orientation, source.grid.labels)

    # The PNG is asked as before, with or without its format.
    png = client.post(url, {"dpi": 50, "hex_mm": 10}, format="json")
    assert png.status_code == 202 and png.json()["job"] == client.post(
        url, {"format": "png", "dpi": 50, "hex_mm": 10}, format="json").json()["job"]
    follow(client, png.json()["url"])


@pytest.mark.django_db
def test_bad_export_options_are_refused_by_field(django_user_model):
    call_command("load_samples", stdout=io.StringIO())
    client = APIClient()
    client.force_login(django_user_model.objects.create_user("asker", password="x"))
    map = Map.objects.get(name="Hill 112 (Old School Tactical)")
    url = f"/api/maps/{map.pk}/print/"
    for bad, field, words in (({"format": "gif"}, "format", "not a valid choice"),
                              ({"format": "svg", "dpi": 150}, "dpi", "PNG print's"),
                              ({"format": "pdf", "hex_mm": 80}, "hex_mm", "less than or equal to 60"),
                              ({"format": "tiled", "colour": "red"}, "colour", "")):
        response = client.post(url, bad, format="json")
        assert response.status_code == 400 and field in response.json(), (bad, response.json())
        assert words in json.dumps(response.json()), response.json()

    # A map past the vector print's bounds: refused by format (too many hexes) or by hex size (the PDF's page).
    huge = client.post("/api/maps/", {"document": {
        "format": "hexside-map", "version": 1, "name": "Huge", "ruleset": "ost",
        "grid": {"orientation": "flat", "columns": 250, "rows": 200, "stagger": "even", "labels": "xxyy"},
        "hexes": [], "hexsides": [], "overlays": [], "extensions": {}}}, format="json")
    assert huge.status_code == 201, huge.json()
    response = client.post(f"/api/maps/{huge.json()['id']}/print/", {"format": "svg"}, format="json")
    assert response.status_code == 400 and f"at most {mapfiles.MAX_VECTOR_HEXES:,}" in response.json()["format"][0]
    wide = client.post("/api/maps/", {"document": {
        "format": "hexside-map", "version": 1, "name": "Wide", "ruleset": "ost",
        "grid": {"orientation": "flat", "columns": 400, "rows": 5, "stagger": "even", "labels": "xxyy"},
        "hexes": [], "hexsides": [], "overlays": [], "extensions": {}}}, format="json")
    response = client.post(f"/api/maps/{wide.json()['id']}/print/", {"format": "pdf", "hex_mm": 19}, format="json")
    assert response.status_code == 400 and "200 inches" in response.json()["hex_mm"][0]
    assert client.post(f"/api/maps/{wide.json()['id']}/print/", {"format": "svg", "hex_mm": 19},
                       format="json").status_code == 202  # the SVG has no page limit


@pytest.mark.django_db
def test_a_vassal_board_past_the_print_bound_is_refused_at_request_time(django_user_model):
    """Issue 27, point 8: at the default hex size a big map's VASSAL board was accepted, then failed in the
    worker; it is refused by hex size, naming the largest that fits, and that one is queued."""
    import re

    client = APIClient()
    client.force_login(django_user_model.objects.create_user("moduler", password="x"))
    big = client.post("/api/maps/", {"document": {
        "format": "hexside-map", "version": 1, "name": "Big", "ruleset": "ost",
        "grid": {"orientation": "flat", "columns": 250, "rows": 200, "stagger": "even", "labels": "xxyy"},
        "hexes": [], "hexsides": [], "overlays": [], "extensions": {}}}, format="json")
    assert big.status_code == 201, big.json()
    url = f"/api/maps/{big.json()['id']}/print/"
    refused = client.post(url, {"format": "vassal"}, format="json")
    assert refused.status_code == 400, refused.json()
    message = refused.json()["hex_mm"][0]
    assert "VASSAL board at 19 mm" in message and "140,000,000 pixels" in message
    fits = float(re.search(r"at most ([\d.]+) mm", message).group(1))
    assert not Job.objects.filter(kind="map-export").exists()
    assert client.post(url, {"format": "vassal", "hex_mm": fits}, format="json").status_code == 202
    assert client.post(url, {"format": "vassal", "hex_mm": fits + 0.5}, format="json").status_code == 400
