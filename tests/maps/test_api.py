"""The map API: CRUD, import and export, edits, who may do what, history, rulesets, schema and pages."""

import io
import json
import re

import pytest
from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient

from engine import mapfile
from maps.models import Map, MapRevision

pytestmark = pytest.mark.django_db

BLANK = {"name": "Blank", "ruleset": "ost",
         "grid": {"orientation": "pointy", "columns": 12, "rows": 9, "stagger": "odd", "labels": "xxyy"}}


def state(map):
    """Everything about a stored map that a refused request must leave alone."""
    map = Map.objects.get(pk=map.pk)
    return (map.name, map.published, map.revision, map.content_hash, map.document, map.revisions.count())


def edit(client, map, operations, revision=None):
    body = {"revision": map.revision if revision is None else revision, "operations": operations}
    return client.post(f"/api/maps/{map.pk}/edits/", body, format="json")


# -- create, read, update, delete ------------------------------------------------------------------------

def test_create_a_blank_map(user_client, user):
    response = user_client.post("/api/maps/", BLANK, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["name"] == "Blank" and body["ruleset"] == "ost" and body["owner"] == user.username
    assert body["revision"] == 1 and body["published"] is False
    assert body["grid"]["columns"] == 12 and body["grid"]["orientation"] == "pointy"
    assert body["document"]["hexes"] == [] and body["document"]["defaults"]["terrain"] == ["open"]
    map = Map.objects.get(pk=body["id"])
    assert map.owner == user
    assert map.content_hash == mapfile.content_hash(mapfile.parse(map.document)) == body["content_hash"]
    assert list(map.revisions.values_list("number", flat=True)) == [1]


def test_create_from_a_map_file(user_client, map_document):
    response = user_client.post("/api/maps/", {"document": map_document, "published": True}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["published"] is True
    assert body["content_hash"] == mapfile.content_hash(mapfile.parse(map_document))
    assert body["document"] == mapfile.to_dict(mapfile.parse(map_document))


def test_create_reports_every_problem_with_its_path(user_client):
    bad = {"name": "", "ruleset": "no-such-game", "grid": {**BLANK["grid"], "columns": 0}, "colour": "red"}
    response = user_client.post("/api/maps/", bad, format="json")
    assert response.status_code == 400
    paths = {e["path"] for e in response.json()["errors"]}
    assert {"colour", "name", "ruleset", "grid.columns"} <= paths
    assert Map.objects.count() == 0


def test_create_from_a_bad_map_file_prefixes_paths(user_client, map_document):
    map_document["hexes"][0]["terrain"] = ["lava"]
    response = user_client.post("/api/maps/", {"document": map_document}, format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["path"] == "document.hexes[0].terrain[0]" and error["hex"] == "C4"


def test_list_shows_own_maps_and_published_ones(user_client, api_client, user_map, other_private_map,
                                               other_published_map):
    names = {m["name"] for m in user_client.get("/api/maps/").json()["results"]}
    assert names == {user_map.name, other_published_map.name}
    anonymous = {m["name"] for m in api_client.get("/api/maps/").json()["results"]}
    assert anonymous == {other_published_map.name}


def test_list_entries_leave_the_document_out_and_link_onwards(user_client, user_map):
    (entry,) = user_client.get("/api/maps/").json()["results"]
    assert "document" not in entry
    assert entry["links"]["export"] == f"/api/maps/{user_map.pk}/export/"
    assert user_client.get(entry["links"]["api"]).json()["document"] == user_map.document


def test_rename_is_a_revision_and_publishing_is_not(user_client, user_map):
    response = user_client.patch(f"/api/maps/{user_map.pk}/", {"name": "Renamed"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["name"] == "Renamed" and response.json()["revision"] == 2
    user_map.refresh_from_db()
    assert user_map.document["name"] == "Renamed"
    assert user_map.content_hash == mapfile.content_hash(mapfile.parse(user_map.document))

    response = user_client.patch(f"/api/maps/{user_map.pk}/", {"published": True}, format="json")
    assert response.status_code == 200
    user_map.refresh_from_db()
    assert user_map.published is True and user_map.revision == 2


def test_rename_to_nothing_is_refused(user_client, user_map):
    before = state(user_map)
    response = user_client.patch(f"/api/maps/{user_map.pk}/", {"name": "  "}, format="json")
    assert response.status_code == 400 and "name" in response.json()
    assert state(user_map) == before


def test_delete(user_client, user_map):
    assert user_client.delete(f"/api/maps/{user_map.pk}/").status_code == 204
    assert not Map.objects.filter(pk=user_map.pk).exists()
    assert not MapRevision.objects.filter(map_id=user_map.pk).exists()


# -- import and export -----------------------------------------------------------------------------------

def test_import_a_json_body(user_client, map_document):
    response = user_client.post("/api/maps/import/", map_document, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["name"] == "Hill 112" and body["published"] is False
    assert body["content_hash"] == mapfile.content_hash(mapfile.parse(map_document))


def test_import_an_upload_and_publish_it(user_client, map_document):
    upload = io.BytesIO(json.dumps(map_document).encode())
    upload.name = "hill.json"
    response = user_client.post("/api/maps/import/", {"file": upload, "published": "true"}, format="multipart")
    assert response.status_code == 201, response.json()
    assert response.json()["published"] is True
    assert Map.objects.get(pk=response.json()["id"]).revisions.get().summary == "imported from a map file"


def test_import_reports_every_error_with_its_path(user_client, map_document):
    map_document["hexes"][0]["terrain"] = ["lava"]
    map_document["hexes"][1]["hex"] = "Z99"
    map_document["hexes"][3]["level"] = 7
    map_document["hexsides"].append({"hex": "C4", "side": "SE", "terrain": "stone-wall"})
    map_document["colour"] = "green"
    response = user_client.post("/api/maps/import/", map_document, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert all(set(e) == {"path", "hex", "message"} for e in errors)
    by_path = {e["path"]: e for e in errors}
    assert {"colour", "hexes[0].terrain[0]", "hexes[1].hex", "hexes[3].level", "hexsides[2]"} <= set(by_path)
    assert by_path["hexes[0].terrain[0]"]["hex"] == "C4"
    assert by_path["hexes[3].level"]["hex"] == "F2"
    assert Map.objects.count() == 0


def test_import_of_what_is_not_json(user_client):
    upload = io.BytesIO(b"{ not json")
    upload.name = "broken.json"
    response = user_client.post("/api/maps/import/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["path"] == "$" and "JSON" in error["message"]
    response = user_client.post("/api/maps/import/", b"{ not json", content_type="application/json")
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == "$"


def test_import_without_a_file(user_client):
    response = user_client.post("/api/maps/import/", {}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "file"


def test_export_is_the_map_file_and_round_trips_byte_for_byte(user_client, map_document):
    created = user_client.post("/api/maps/import/", map_document, format="json").json()
    response = user_client.get(f"/api/maps/{created['id']}/export/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="hill-112.json"'
    first = response.content
    assert first == mapfile.dumps(mapfile.parse(map_document)).encode()

    upload = io.BytesIO(first)
    upload.name = "hill-112.json"
    again = user_client.post("/api/maps/import/", {"file": upload}, format="multipart").json()
    second = user_client.get(f"/api/maps/{again['id']}/export/").content
    assert second == first
    assert again["content_hash"] == created["content_hash"]


# -- edits -----------------------------------------------------------------------------------------------

def test_edits_of_every_kind(user_client, user_map, user):
    grid = user_map.hex_grid()
    cx, cy = grid.centre(0, 0)
    triangle = [[cx - 0.2, cy], [cx + 0.2, cy], [cx, cy + 0.3]]
    operations = [
        {"op": "set_terrain", "hexes": ["A1", "A2", [1, 1]], "terrain": ["woods"]},
        {"op": "set_level", "hexes": ["A2"], "level": 2},
        {"op": "set_storeys", "hexes": ["E5"], "storeys": 3},
        {"op": "set_hexside", "hex": "A1", "side": "S", "terrain": "hedge"},
        {"op": "clear_hexside", "hex": "C4", "side": "SE"},
        {"op": "set_art", "hex": "A1", "art": triangle},
        {"op": "clear_art", "hex": "E5"},
        {"op": "clear_hexes", "hexes": ["D5"]},
        {"op": "place_overlay", "overlay": {"id": "X", "anchor": "B6", "hexes": [{"hex": [0, 0], "terrain": "brush"}]}},
        {"op": "move_overlay", "id": "H1", "anchor": "H4", "rotation": 0},
        {"op": "remove_overlay", "id": "X"},
        {"op": "rename", "name": "Edited"},
    ]
    response = edit(user_client, user_map, operations)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["revision"] == 2
    user_map.refresh_from_db()
    doc = mapfile.parse(user_map.document)
    assert body["content_hash"] == user_map.content_hash == mapfile.content_hash(doc)
    assert doc.name == user_map.name == "Edited"
    assert doc.hexes[(0, 0)].terrain == ("woods",) and doc.hexes[(0, 0)].art
    assert doc.hexes[(0, 1)].level == 2 and doc.hexes[(1, 1)].terrain == ("woods",)
    assert doc.hexes[(4, 4)].storeys == 3 and doc.hexes[(4, 4)].art is None
    assert (3, 4) not in doc.hexes
    assert grid.hexside(0, 0, "S") in doc.hexsides and grid.hexside(2, 3, "SE") not in doc.hexsides
    assert [(o.id, o.anchor, o.rotation) for o in doc.overlays] == [("H1", (7, 3), 0)]
    revision = user_map.revisions.get(number=2)
    assert revision.author == user and revision.document == user_map.document
    assert revision.summary == body["summary"] and "paint" in revision.summary and "set_terrain" not in revision.summary


def test_one_bad_operation_and_nothing_is_written(user_client, user_map):
    before = state(user_map)
    operations = [
        {"op": "set_terrain", "hexes": ["A1", "A2"], "terrain": "woods"},
        {"op": "set_level", "hexes": ["A1"], "level": 99},
        {"op": "set_hexside", "hex": "A1", "side": "S", "terrain": "hedge"},
    ]
    response = edit(user_client, user_map, operations)
    assert response.status_code == 400
    body = response.json()
    (error,) = body["errors"]
    assert error["operation"] == 1 and error["path"] == "operations[1].level" and error["hex"] == "A1"
    assert "nothing was changed" in body["detail"]
    assert state(user_map) == before


def test_a_stale_revision_is_a_conflict_and_nothing_is_written(user_client, user_map):
    assert edit(user_client, user_map, [{"op": "set_terrain", "hexes": ["A1"], "terrain": "woods"}]).status_code == 200
    user_map.refresh_from_db()
    before = state(user_map)
    response = edit(user_client, user_map, [{"op": "set_terrain", "hexes": ["A1"], "terrain": "brush"}], revision=1)
    assert response.status_code == 409
    assert response.json()["revision"] == 2 and "revision" in response.json()["detail"]
    assert state(user_map) == before


@pytest.mark.parametrize("body", [
    {"operations": [{"op": "rename", "name": "x"}]},
    {"revision": "one", "operations": [{"op": "rename", "name": "x"}]},
    {"revision": 1, "operations": []},
    {"revision": 1, "operations": [{"op": "rename", "name": "x"}], "extra": 1},
])
def test_edit_requests_of_the_wrong_shape(user_client, user_map, body):
    before = state(user_map)
    response = user_client.post(f"/api/maps/{user_map.pk}/edits/", body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] and all("path" in e for e in response.json()["errors"])
    assert state(user_map) == before


def test_a_thousand_hexes_in_one_request(user_client, make_map, user):
    big = make_map(user, grid={"orientation": "flat", "columns": 60, "rows": 40, "stagger": "even",
                               "labels": "letter-number"})
    hexes = [[c, r] for c in range(25) for r in range(40)]
    response = edit(user_client, big, [{"op": "set_terrain", "hexes": hexes, "terrain": "woods"}])
    assert response.status_code == 200, response.json()
    big.refresh_from_db()
    cells = mapfile.parse(big.document).hexes
    assert sum(1 for (c, r) in hexes if cells[(c, r)].terrain == ("woods",)) == 1000


# -- who may do what -------------------------------------------------------------------------------------

def test_a_private_map_of_another_is_not_found_and_stays_unchanged(user_client, other_private_map):
    m = other_private_map
    before = state(m)
    attempts = [
        user_client.get(f"/api/maps/{m.pk}/"),
        user_client.get(f"/api/maps/{m.pk}/export/"),
        user_client.get(f"/api/maps/{m.pk}/revisions/"),
        user_client.get(f"/api/maps/{m.pk}/revisions/1/"),
        edit(user_client, m, [{"op": "set_terrain", "hexes": ["A1"], "terrain": "woods"}]),
        user_client.patch(f"/api/maps/{m.pk}/", {"name": "Mine now", "published": True}, format="json"),
        user_client.put(f"/api/maps/{m.pk}/", {"name": "Mine now", "published": True}, format="json"),
        user_client.post(f"/api/maps/{m.pk}/revisions/1/restore/", {}, format="json"),
        user_client.delete(f"/api/maps/{m.pk}/"),
    ]
    assert [r.status_code for r in attempts] == [404] * len(attempts)
    assert state(m) == before
    assert user_client.get(f"/maps/{m.pk}/").status_code == 404


def test_a_published_map_of_another_can_be_read_not_changed(user_client, other_published_map):
    m = other_published_map
    before = state(m)
    assert user_client.get(f"/api/maps/{m.pk}/").status_code == 200
    assert user_client.get(f"/api/maps/{m.pk}/export/").status_code == 200
    assert user_client.get(f"/api/maps/{m.pk}/revisions/").status_code == 200
    attempts = [
        edit(user_client, m, [{"op": "set_terrain", "hexes": ["A1"], "terrain": "woods"}]),
        user_client.patch(f"/api/maps/{m.pk}/", {"name": "Mine now"}, format="json"),
        user_client.post(f"/api/maps/{m.pk}/revisions/1/restore/", {}, format="json"),
        user_client.delete(f"/api/maps/{m.pk}/"),
    ]
    assert [r.status_code for r in attempts] == [403] * len(attempts)
    assert state(m) == before


def test_anonymous_visitors_read_published_maps_only(api_client, other_published_map, other_private_map):
    assert api_client.get(f"/api/maps/{other_published_map.pk}/").status_code == 200
    assert api_client.get(f"/api/maps/{other_published_map.pk}/export/").status_code == 200
    assert api_client.get(f"/api/maps/{other_private_map.pk}/").status_code == 404
    assert api_client.get(f"/api/maps/{other_private_map.pk}/export/").status_code == 404
    before = state(other_published_map)
    refused = [
        api_client.post("/api/maps/", BLANK, format="json"),
        edit(api_client, other_published_map, [{"op": "rename", "name": "x"}]),
        api_client.patch(f"/api/maps/{other_published_map.pk}/", {"name": "x"}, format="json"),
        api_client.delete(f"/api/maps/{other_published_map.pk}/"),
    ]
    assert all(r.status_code in (401, 403) for r in refused)
    assert state(other_published_map) == before
    assert Map.objects.count() == 2


def test_token_authentication(user, api_client):
    response = api_client.post("/api/token/", {"username": "designer", "password": "designer-password"},
                               format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = client.post("/api/maps/", BLANK, format="json")
    assert created.status_code == 201
    assert Map.objects.get(pk=created.json()["id"]).owner == user

    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    refused = stranger.get("/api/maps/")
    assert refused.status_code in (401, 403) and "token" in refused.json()["detail"].lower()
    assert api_client.post("/api/token/", {"username": "designer", "password": "wrong"}).status_code == 400


# -- history ---------------------------------------------------------------------------------------------

def test_revisions_are_listed_and_an_old_one_restored(user_client, user_map):
    original = user_map.document
    edit(user_client, user_map, [{"op": "set_terrain", "hexes": ["A1"], "terrain": "woods"}])
    user_map.refresh_from_db()
    edit(user_client, user_map, [{"op": "set_level", "hexes": ["A1"], "level": 3}])

    listing = user_client.get(f"/api/maps/{user_map.pk}/revisions/").json()
    assert [r["number"] for r in listing["results"]] == [3, 2, 1]
    assert all("document" not in r for r in listing["results"])
    assert user_client.get(f"/api/maps/{user_map.pk}/revisions/1/").json()["document"] == original

    response = user_client.post(f"/api/maps/{user_map.pk}/revisions/1/restore/", {}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["revision"] == 4 and response.json()["summary"] == "restored revision 1"
    user_map.refresh_from_db()
    assert user_map.document == original and user_map.revision == 4
    assert user_map.content_hash == user_map.revisions.get(number=1).content_hash
    assert list(user_map.revisions.values_list("number", flat=True)) == [4, 3, 2, 1]


def test_restore_checks_the_revision_when_given(user_client, user_map):
    edit(user_client, user_map, [{"op": "set_terrain", "hexes": ["A1"], "terrain": "woods"}])
    user_map.refresh_from_db()
    before = state(user_map)
    response = user_client.post(f"/api/maps/{user_map.pk}/revisions/1/restore/", {"revision": 1}, format="json")
    assert response.status_code == 409 and response.json()["revision"] == 2
    assert user_client.post(f"/api/maps/{user_map.pk}/revisions/9/restore/", {}, format="json").status_code == 404
    assert user_client.get(f"/api/maps/{user_map.pk}/revisions/9/").status_code == 404
    assert state(user_map) == before


# -- rulesets --------------------------------------------------------------------------------------------

def test_rulesets_are_listed_and_read(api_client):
    listing = api_client.get("/api/rulesets/")
    assert listing.status_code == 200
    ids = {r["id"]: r for r in listing.json()}
    assert {"ost", "ats", "assault", "miniatures", "tocs"} <= set(ids)
    assert not any(r["custom"] for r in ids.values())
    ost = api_client.get("/api/rulesets/ost/")
    assert ost.status_code == 200 and ost.json()["id"] == "ost" and ost.json()["ruleset"]
    woods = next(e for e in ost.json()["ruleset"]["terrain"] if e["id"] == "woods")
    assert woods["style"]["pattern"] == "trees" and woods["style"]["fill"].startswith("#")
    assert api_client.get("/api/rulesets/no-such-game/").status_code == 404


def test_a_ruleset_says_what_the_scenario_editor_offers(api_client):
    """The editor's pages name no game: each ruleset's capabilities come from its catalogue's scenario section."""
    answers = {r["id"]: r["capabilities"] for r in api_client.get("/api/rulesets/").json()}
    assert answers["assault"] == {"facing": "vertex", "perimeter": False, "side_briefs": False}
    assert answers["tocs"] == {"facing": "hexside", "perimeter": True, "side_briefs": True}
    assert answers["ost"] == {"facing": "hexside", "perimeter": False, "side_briefs": False}
    assert api_client.get("/api/rulesets/tocs/").json()["capabilities"] == answers["tocs"]


# -- schema, documentation, pages ------------------------------------------------------------------------

def test_the_schema_is_a_valid_openapi_document(api_client):
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    validate_schema(schema)
    paths = schema["paths"]
    for path in ("/api/maps/", "/api/maps/{id}/", "/api/maps/import/", "/api/maps/{id}/export/",
                 "/api/maps/{id}/edits/", "/api/maps/{id}/revisions/", "/api/maps/{id}/revisions/{number}/restore/",
                 "/api/rulesets/", "/api/rulesets/{id}/", "/api/token/"):
        assert path in paths, path
    edits = paths["/api/maps/{id}/edits/"]["post"]["responses"]
    assert {"200", "400", "403", "404", "409"} <= set(edits)
    assert paths["/api/maps/import/"]["post"]["responses"]["400"]["content"]["application/json"]["schema"]


def test_the_api_documentation_page_needs_no_internet(api_client):
    response = api_client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert assets and not [a for a in assets if "//" in a]
    for asset in assets:
        assert api_client.get(asset).status_code == 200, asset
    assert "validator.swagger.io" not in html


def test_home_page_lists_published_maps_and_my_maps_ones_own(client, user, user_map, other_private_map,
                                                              other_published_map):
    client.force_login(user)
    html = client.get("/").content.decode()
    assert other_published_map.name.replace("'", "&#x27;") in html
    assert other_private_map.name.replace("'", "&#x27;") not in html
    assert f"/maps/{other_published_map.pk}/thumbnail.png" in html
    mine = client.get("/maps/mine/").content.decode()
    assert user_map.name.replace("'", "&#x27;") in mine
    assert other_published_map.name.replace("'", "&#x27;") not in mine
    assert f"/api/maps/{user_map.pk}/export/" in mine and f"/maps/{user_map.pk}/" in mine


def test_map_page_shows_the_map(client, other_published_map, other_private_map):
    response = client.get(f"/maps/{other_published_map.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert other_published_map.content_hash in html and "10 columns" in html
    assert client.get(f"/maps/{other_private_map.pk}/").status_code == 404
