"""Issue 7, point 5: no input gets a 500. Each hostile request is answered with a JSON 4xx naming the problem, and
nothing already saved changes. Runs on SQLite and on PostgreSQL (where NUL and huge numbers used to fail)."""

import io
import json

import pytest
from django.test import override_settings

from maps.models import Map

pytestmark = pytest.mark.django_db


def state(map):
    map = Map.objects.get(pk=map.pk)
    return (map.name, map.revision, map.content_hash, map.document, map.revisions.count())


def raw(client, path, text, method="post"):
    """A JSON body sent byte for byte as written (the test client would re-encode a dict)."""
    return getattr(client, method)(path, data=text.encode("utf-8") if isinstance(text, str) else text,
                                   content_type="application/json")


def assert_refused(response, *words, status=400):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    text = json.dumps(response.json())
    for word in words:
        assert word in text, text


def edit_body(map, operations):
    return '{"revision": %d, "operations": %s}' % (map.revision, operations)


# -- the JSON reader --------------------------------------------------------------------------------------

def test_json_nested_100000_deep_is_refused(user_client, user_map):
    before = state(user_map)
    deep = "[" * 100_000 + "]" * 100_000
    assert_refused(raw(user_client, "/api/maps/", '{"name": "x", "defaults": ' + deep + "}"), "nested deeper")
    assert_refused(raw(user_client, f"/api/maps/{user_map.pk}/edits/", deep), "nested deeper")
    assert_refused(raw(user_client, f"/api/maps/{user_map.pk}/los/", '{"from": ' + deep + "}"), "nested deeper")
    assert state(user_map) == before


@pytest.mark.parametrize("where", ["name", "rename", "hex label", "key"])
def test_a_lone_surrogate_is_refused(user_client, user_map, map_document, where):
    before = state(user_map)
    if where == "name":
        response = raw(user_client, "/api/maps/", '{"name": "Hill \\ud800", "ruleset": "ost", "grid": '
                       '{"orientation": "flat", "columns": 4, "rows": 4, "stagger": "odd", "labels": "xxyy"}}')
    elif where == "rename":
        response = raw(user_client, f"/api/maps/{user_map.pk}/", '{"name": "\\ud800"}', method="patch")
    elif where == "hex label":
        response = raw(user_client, f"/api/maps/{user_map.pk}/edits/", edit_body(
            user_map, '[{"op": "set_terrain", "hexes": ["C\\ud8004"], "terrain": ["woods"]}]'))
    else:
        response = raw(user_client, f"/api/maps/{user_map.pk}/edits/", edit_body(
            user_map, '[{"op": "rename", "\\udfff": 1, "name": "x"}]'))
    assert_refused(response, "surrogate")
    assert state(user_map) == before
    assert Map.objects.count() == 1


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_and_infinity_in_an_uploaded_map_are_refused(user_client, map_document, number):
    text = json.dumps(map_document).replace('"hex_metres": 50', f'"hex_metres": {number}')
    assert number in text
    upload = io.BytesIO(text.encode("utf-8"))
    upload.name = "map.json"
    assert_refused(user_client.post("/api/maps/import/", {"file": upload}, format="multipart"), "finite")
    assert_refused(raw(user_client, "/api/maps/import/", text), "finite")
    assert_refused(raw(user_client, "/api/maps/", f'{{"document": {text}}}'), "finite")
    assert not Map.objects.exists()


def test_huge_integers_in_query_parameters_paths_and_bodies(user_client, api_client, user_map):
    huge = "99999999999999999999999"
    assert_refused(user_client.get(f"/api/jobs/?map={huge}"), "map")
    assert_refused(user_client.get("/api/jobs/?status=%00"), "status")
    assert user_client.get(f"/api/maps/{huge}/").status_code in (400, 404)
    assert user_client.get(f"/api/jobs/{huge}/").status_code in (400, 404)
    assert user_client.get(f"/api/maps/{user_map.pk}/revisions/{huge}/").status_code in (400, 404)
    assert api_client.get(f"/maps/{huge}/").status_code in (400, 404)
    for query in (f"limit={huge}", f"offset={huge}", f"limit=1&offset={huge}"):
        response = user_client.get(f"/api/maps/?{query}")
        assert response.status_code in (200, 400) and response["Content-Type"].startswith("application/json")
    before = state(user_map)
    assert_refused(raw(user_client, f"/api/maps/{user_map.pk}/edits/",
                       f'{{"revision": {huge}, "operations": [{{"op": "rename", "name": "x"}}]}}'), "too large")
    assert_refused(raw(user_client, f"/api/maps/{user_map.pk}/edits/", edit_body(
        user_map, f'[{{"op": "set_level", "hexes": [[{huge}, 1]], "level": 1}}]')), "too large")
    assert_refused(raw(user_client, f"/api/maps/{user_map.pk}/los/", f'{{"from": [{huge}, 0], "to": "A1"}}'),
                   "too large")
    assert state(user_map) == before


@pytest.mark.parametrize("where", ["name", "label_note", "extensions key", "extensions value"])
def test_nul_characters_are_refused_at_create_and_in_edits(user_client, user_map, map_document, where):
    before = state(user_map)
    document = json.dumps(map_document)
    if where == "name":
        document = document.replace('"Hill 112"', '"Hill\\u0000112"')
        edit = '[{"op": "rename", "name": "a\\u0000b"}]'
    elif where == "label_note":
        document = document.replace('"ford"', '"fo\\u0000rd"')
        edit = '[{"op": "place_overlay", "overlay": {"id": "X", "anchor": "A1", "rotation": 0, "hexes": ' \
               '[{"hex": [0, 0], "terrain": ["woods"], "label_note": "\\u0000"}], "hexsides": []}}]'
    elif where == "extensions key":
        document = document.replace('"author"', '"au\\u0000thor"')
        edit = '[{"op": "set_terrain\\u0000", "hexes": ["A1"], "terrain": ["woods"]}]'
    else:
        document = document.replace('"designer"', '"\\u0000"')
        edit = '[{"op": "set_terrain", "hexes": ["A1"], "terrain": ["wo\\u0000ods"]}]'
    assert "\\u0000" in document
    assert_refused(raw(user_client, "/api/maps/", f'{{"document": {document}}}'), "NUL")
    assert_refused(raw(user_client, "/api/maps/import/", document), "NUL")
    assert_refused(raw(user_client, f"/api/maps/{user_map.pk}/edits/", edit_body(user_map, edit)), "NUL")
    assert state(user_map) == before and Map.objects.count() == 1


@override_settings(HEXSIDE_MAX_UPLOAD_BYTES=10_000)
def test_a_body_over_the_upload_limit_gets_a_json_413_naming_the_limit(user_client, user_map, map_document):
    big = json.dumps({**map_document, "extensions": {"padding": "x" * 20_000}})
    for path in ("/api/maps/", "/api/maps/import/", f"/api/maps/{user_map.pk}/edits/"):
        assert_refused(raw(user_client, path, big), "10000 bytes", "HEXSIDE_MAX_UPLOAD_BYTES", status=413)
    upload = io.BytesIO(big.encode("utf-8"))
    upload.name = "map.json"
    response = user_client.post("/api/maps/import/", {"file": upload}, format="multipart")
    assert_refused(response, "HEXSIDE_MAX_UPLOAD_BYTES", status=413)
    assert Map.objects.count() == 1


def test_a_non_ascii_map_name_is_given_to_the_export_as_rfc_5987(user_client, make_map, user):
    map = make_map(user, name="Höhe 112 – Caen")
    response = user_client.get(f"/api/maps/{map.pk}/export/")
    assert response.status_code == 200
    header = response["Content-Disposition"]
    assert header.startswith("attachment;") and "filename*=utf-8''h%C3%B6he-112" in header
    assert header.isascii()


def test_errors_django_draws_itself_under_api_are_json(user_client, api_client, user_map):
    assert_refused(user_client.get("/api/no-such-thing/"), "not found", status=404)
    csrf = APIClientWithCsrf()
    csrf.force_login(user_map.owner)
    assert_refused(csrf.post(f"/api/maps/{user_map.pk}/edits/", {}, format="json"), "CSRF", status=403)


class APIClientWithCsrf:
    """A client that enforces CSRF checks, as a browser's session requests are checked."""

    def __new__(cls):
        from rest_framework.test import APIClient

        return APIClient(enforce_csrf_checks=True)
