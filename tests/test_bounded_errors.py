"""Issue 17, point 12 (errors): no error answer is larger than a bound, however many problems the request has.
A 13.7 MB bad map used to be answered with 24.7 MB of errors; now the first errors are listed, the rest counted."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.response import Response

from engine import importers, mapfile
from engine.importers.batch import LISTED_FINDINGS, check_upload
from hexside.errors import MAX_LISTED, bounded
from hexside.renderers import JSONRenderer

BOUND = 64 * 1024


def bad_map(columns=500, rows=500):
    """A map file of columns x rows hexes, each with a terrain no ruleset has: one error a hex."""
    hexes = ",".join(f'{{"hex": "{c + 1:03d}{r + 1:03d}", "terrain": ["no-such-terrain-here"]}}'
                     for c in range(columns) for r in range(rows))
    return ('{"format": "%s", "version": %d, "name": "bad", "ruleset": "ost", "grid": {"orientation": "flat", '
            '"columns": %d, "rows": %d, "stagger": "odd", "labels": "xxyy"}, "hexes": [%s]}'
            % (mapfile.FORMAT, mapfile.VERSION, columns, rows, hexes)).encode()


@pytest.mark.django_db
def test_a_13_mb_bad_map_is_answered_in_under_64_kb_naming_the_first_errors_and_counting_the_rest(user_client):
    data = bad_map()
    assert len(data) > 13_000_000
    upload = SimpleUploadedFile("bad.json", data, content_type="application/json")
    response = user_client.post("/api/maps/import/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert len(response.content) < BOUND, len(response.content)
    body = response.json()
    errors = body["errors"]
    assert len(errors) == MAX_LISTED + 1
    assert errors[0]["path"] == "hexes[0].terrain[0]" and "no-such-terrain-here" in errors[0]["message"]
    assert "more" in errors[-1]["message"] and errors[-1]["path"] == "$"
    assert body["errors_total"] == 250_000 and "249,900 more" in errors[-1]["message"]


@pytest.mark.django_db
def test_a_scenario_whose_errors_echo_huge_values_is_answered_within_the_bound(user_client):
    scenario = {"format": "hexside-scenario", "version": 1, "title": "t", "ruleset": "r" * 5_000_000,
                "maps": [{"id": "m" * 1_000_000}] * 5, "sides": [{"name": 5}] * 100_000}
    response = user_client.post("/api/scenarios/import/", scenario, format="json")
    assert response.status_code == 400
    assert len(response.content) < BOUND, len(response.content)
    errors = response.json()["errors"]
    assert errors[0]["path"] == "ruleset" and "characters in all" in errors[0]["message"]


def test_any_4xx_answered_without_an_exception_is_bounded_by_the_renderer():
    data = {"errors": [{"path": f"hexes[{i}]", "hex": None, "message": "bad " * 1000} for i in range(50_000)],
            "file": ["z" * 1_000_000]}
    body = JSONRenderer().render(data, renderer_context={"response": Response(status=400)})
    assert len(body) < BOUND, len(body)
    out = json.loads(body)
    assert out["errors"][0]["path"] == "hexes[0]" and out["errors_total"] == 50_000
    assert "49,900 more" in out["errors"][-1]["message"] and "characters in all" in out["file"][0]
    ok = JSONRenderer().render({"items": list(range(500))}, renderer_context={"response": Response(status=200)})
    assert len(json.loads(ok)["items"]) == 500  # only errors are cut


def test_bounded_is_idempotent_and_keeps_small_bodies_as_they_are():
    small = {"errors": [{"path": "name", "hex": None, "message": "expected a non-empty string"}]}
    assert bounded(small) == small
    big = {"detail": "d" * 10_000, "hexes": {str(i): ["bad"] for i in range(1000)}}
    assert bounded(bounded(big)) == bounded(big) and len(bounded(big)["hexes"]) == MAX_LISTED + 1


def test_a_batch_file_report_lists_the_first_findings_and_counts_them_all():
    rows = [", ".join(f"Zz{x:03d}{y:03d}" for x in range(60)) for y in range(60)]  # 3,364 unmapped codes
    upload = importers.Upload("codes.map", "\n".join(rows).encode())
    checked = check_upload(upload)
    # nothing fits a made-up code: the proposed mapping leaves each open, and says so for each of them
    assert checked["verdict"] == "warnings" and checked["warnings"] > LISTED_FINDINGS
    assert len(checked["findings"]) == LISTED_FINDINGS + 1
    assert checked["findings"][-1]["code"] == "more-findings"
    assert len(json.dumps(checked["findings"])) < BOUND
    left_open = [g for g in checked["groups"] if g["code"] == "terrain-left-open"]  # one line for all of them
    assert len(left_open) == 1 and left_open[0]["count"] > LISTED_FINDINGS and len(left_open[0]["hexes"]) == 12
    assert len(json.dumps(checked["groups"])) < BOUND
    plain = importers.convert("codes.map", upload.data)  # without a proposal, they are errors
    assert sum(f.code == "unmapped-terrain" for f in plain.findings) > LISTED_FINDINGS


@pytest.mark.django_db
def test_a_json_body_of_a_million_objects_is_refused_before_it_is_decoded(user_client):
    import tracemalloc

    body = b'{"name": "x", "defaults": [' + b'{"a":1},' * 900_000 + b'{}]}'  # 7 MB: 250 MB once decoded
    tracemalloc.start()
    try:
        response = user_client.post("/api/maps/", data=body, content_type="application/json")
        used = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert response.status_code == 400 and "objects and arrays" in json.dumps(response.json())
    assert used < 60 * 1024 * 1024, used


def test_a_map_file_of_a_million_objects_is_a_format_error():
    with pytest.raises(mapfile.MapFormatError) as caught:
        mapfile.parse(b"[" + b"[]," * 900_000 + b"[]]")
    assert [e.code for e in caught.value.errors] == ["json-too-large"]
