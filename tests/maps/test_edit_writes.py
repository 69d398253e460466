"""Issue 7, points 3 and 6: an edit is worked out before its write transaction, which only checks the revision and
writes; revisions are stored compressed; and maps are held to the size limits at create, import and edit."""

import copy
import json

import pytest
from django.db import connection
from django.test import override_settings

from engine import edits
from maps.models import Map, MapRevision, apply_edits

SET_A1 = [{"op": "set_level", "hexes": ["A1"], "level": 2}]


@pytest.fixture
def watch_edits(monkeypatch):
    """Calls of engine.edits.apply, each noting whether a transaction was open while the edit was worked out;
    ``meanwhile`` (a function) runs once in the middle of the next one, as another request would."""
    seen = {"in_transaction": [], "meanwhile": None}
    real = edits.apply

    def watched(doc, operations, rulesets=None, **kwargs):
        seen["in_transaction"].append(connection.in_atomic_block)
        result = real(doc, operations, rulesets, **kwargs)
        meanwhile, seen["meanwhile"] = seen["meanwhile"], None
        if meanwhile is not None:
            meanwhile()
        return result

    monkeypatch.setattr(edits, "apply", watched)
    return seen


@pytest.mark.django_db(transaction=True)
def test_an_edit_is_worked_out_outside_any_transaction(user_client, user_map, watch_edits):
    """On SQLite a transaction holds the database's one write lock: it must not last the whole edit."""
    response = user_client.post(f"/api/maps/{user_map.pk}/edits/", {"revision": 1, "operations": SET_A1},
                                format="json")
    assert response.status_code == 200, response.json()
    assert watch_edits["in_transaction"] == [False]


@pytest.mark.django_db(transaction=True)
def test_an_edit_overtaken_while_worked_out_answers_409_and_writes_nothing(user, user_client, user_map,
                                                                           watch_edits):
    watch_edits["meanwhile"] = lambda: apply_edits(user_map.pk, user, 1, [{"op": "rename", "name": "First"}])
    response = user_client.post(f"/api/maps/{user_map.pk}/edits/", {"revision": 1, "operations": SET_A1},
                                format="json")
    assert response.status_code == 409, response.json()
    assert response.json()["revision"] == 2
    map = Map.objects.get(pk=user_map.pk)
    assert (map.revision, map.name, map.revisions.count()) == (2, "First", 2)
    assert map.mapdoc().cell(0, 0).level == 0


@pytest.mark.django_db(transaction=True)
def test_a_rename_overtaken_while_worked_out_is_worked_out_again_on_the_new_revision(user, user_client, user_map,
                                                                                    watch_edits):
    """A rename (PATCH) is made on whatever is current: overtaken, it is done again, not refused."""
    watch_edits["meanwhile"] = lambda: apply_edits(user_map.pk, user, 1, SET_A1)
    response = user_client.patch(f"/api/maps/{user_map.pk}/", {"name": "Renamed"}, format="json")
    assert response.status_code == 200, response.json()
    map = Map.objects.get(pk=user_map.pk)
    assert (map.revision, map.name) == (3, "Renamed") and map.mapdoc().cell(0, 0).level == 2


# -- revisions stored compressed -----------------------------------------------------------------------------

def full_map(columns, rows):
    from engine.hexgrid import Grid

    grid = Grid("flat", columns, rows, "even", "letter-number")
    terrain = ["woods", "brush", "orchard", "open"]
    return {"format": "hexside-map", "version": 1, "name": "Big", "ruleset": "ost", "grid": grid.as_dict(),
            "hexes": [{"hex": grid.label(c, r), "terrain": [terrain[(c * 7 + r * 3) % 4]], "level": (c + r) % 3}
                      for c, r in grid.hexes()]}


@pytest.mark.django_db
def test_a_one_hex_edit_of_a_large_map_stores_a_small_revision_and_restores_whole(user, user_client):
    map = user_client.post("/api/maps/import/", full_map(120, 100), format="json").json()
    document_bytes = len(json.dumps(map["document"]).encode("utf-8"))
    edited = user_client.post(f"/api/maps/{map['id']}/edits/", {"revision": 1, "operations": SET_A1}, format="json")
    assert edited.status_code == 200
    stored = MapRevision.objects.get(map_id=map["id"], number=2)
    assert stored.snapshot is None  # the revision holds the change, not the map
    assert len(json.dumps(stored.changes).encode("utf-8")) * 1000 < document_bytes
    assert stored.document == Map.objects.get(pk=map["id"]).document

    restored = user_client.post(f"/api/maps/{map['id']}/revisions/1/restore/", {"revision": 2}, format="json")
    assert restored.status_code == 200
    assert user_client.get(f"/api/maps/{map['id']}/").json()["document"] == map["document"]
    assert user_client.get(f"/api/maps/{map['id']}/revisions/1/").json()["document"] == map["document"]


# -- size limits ---------------------------------------------------------------------------------------------

@pytest.mark.django_db
@override_settings(HEXSIDE_MAX_HEXES=60)
def test_a_map_past_the_hex_limit_is_refused_at_create_and_import_naming_the_limit(user_client, map_document):
    blank = {"name": "Wide", "ruleset": "ost",
             "grid": {"orientation": "flat", "columns": 10, "rows": 8, "stagger": "even", "labels": "xxyy"}}
    for response in (user_client.post("/api/maps/", blank, format="json"),
                     user_client.post("/api/maps/", {"document": map_document}, format="json"),
                     user_client.post("/api/maps/import/", map_document, format="json")):
        assert response.status_code == 400, response.json()
        (error,) = response.json()["errors"]
        assert "80 hexes" in error["message"] and "limit of 60 hexes (HEXSIDE_MAX_HEXES)" in error["message"]
    assert not Map.objects.exists()


@pytest.mark.django_db
def test_an_edit_that_grows_the_map_past_the_byte_limit_is_refused(user_client, user_map):
    size = len(user_map.export().encode("utf-8"))
    art = [[[0.08 * k - 0.4, 0.8], [0.08 * k - 0.35, 0.9], [0.08 * k - 0.4, 1.0]] for k in range(10)]  # around A1
    with override_settings(HEXSIDE_MAX_MAP_BYTES=size + 100):
        before = copy.deepcopy(Map.objects.get(pk=user_map.pk).document)
        response = user_client.post(f"/api/maps/{user_map.pk}/edits/",
                                    {"revision": 1, "operations": [{"op": "set_art", "hex": "A1", "art": art}]},
                                    format="json")
        assert response.status_code == 400, response.json()
        assert "HEXSIDE_MAX_MAP_BYTES" in response.json()["errors"][0]["message"]
        assert Map.objects.get(pk=user_map.pk).document == before and user_map.revisions.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_sqlite_database_locked_past_its_timeout_answers_503_not_500(user_client, user_map):
    """Another process holding SQLite's write lock past the wait: the edit is refused as busy, nothing written."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's single write lock; PostgreSQL locks rows")
    import sqlite3

    other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
    connection.ensure_connection()
    connection.connection.execute("PRAGMA busy_timeout = 200")
    other.execute("BEGIN IMMEDIATE")
    try:
        response = user_client.post(f"/api/maps/{user_map.pk}/edits/", {"revision": 1, "operations": SET_A1},
                                    format="json")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert response.status_code == 503, response.content[:300]
    assert "busy" in response.json()["detail"]
    assert Map.objects.get(pk=user_map.pk).revision == 1
