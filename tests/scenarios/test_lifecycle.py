"""The life of a map and a scenario from their pages (issue 20, points 1 and 2): publish and unpublish, duplicate,
import, export and delete, the owner's alone, with a confirmation where anything goes away; deleting a map lists
the scenarios on it and deletes the owner's own only when asked, in one transaction; a scenario whose map is gone
says so and can be pointed at another map. The browser walk is tests/browser/test_lifecycle.py."""

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DatabaseError
from rest_framework.test import APIClient

from authoring.models import Scenario, SideLink
from maps.models import Map
from tests.scenarios.conftest import SMALL

pytestmark = pytest.mark.django_db


def on(map, hidden=False):
    data = copy.deepcopy(SMALL)
    data["maps"] = [{"key": "main", "id": map.pk}]
    if hidden:
        data["sides"][1]["oob"].append({"id": "ambush", "unit": "Rifle Squad", "name": "Hold the crossroads",
                                        "hidden": True})
        data["sides"][1]["placements"].append({"unit": "ambush", "hex": "J7"})
    return data


def made(client, data, title=None):
    if title:
        data = {**data, "title": title}
    answer = client.post("/api/scenarios/", {"document": data}, format="json")
    assert answer.status_code == 201, answer.content
    return Scenario.objects.get(pk=answer.json()["id"])


# --- maps: publish and unpublish ---------------------------------------------------------------------------------

def test_the_owner_publishes_and_unpublishes_a_map_from_its_page(user_client, user_map):
    page = user_client.get(f"/maps/{user_map.pk}/").content.decode()
    assert 'id="map-publish"' in page and "Publishing shows everyone the whole map" in page
    assert user_client.post(f"/maps/{user_map.pk}/publish/", {"published": "1"}).status_code == 302
    assert Map.objects.get(pk=user_map.pk).published
    scenario = made(user_client, on(user_map))
    Scenario.objects.filter(pk=scenario.pk).update(published=True)
    page = user_client.get(f"/maps/{user_map.pk}/").content.decode()
    assert "makes your published scenarios on it private too" in page
    done = user_client.post(f"/maps/{user_map.pk}/publish/", {"published": "0"}, follow=True)
    assert "Unpublished Designer&#x27;s own" in done.content.decode()
    assert not Map.objects.get(pk=user_map.pk).published and not Scenario.objects.get(pk=scenario.pk).published


def test_only_the_owner_publishes_a_map(other_client, user_map, other_published_map, user_client):
    assert other_client.post(f"/maps/{user_map.pk}/publish/", {"published": "1"}).status_code == 404  # private
    assert user_client.post(f"/maps/{other_published_map.pk}/publish/", {"published": "0"}).status_code == 403
    assert APIClient().post(f"/maps/{other_published_map.pk}/publish/", {"published": "0"}).status_code == 302
    assert user_client.get(f"/maps/{user_map.pk}/publish/").status_code == 405
    assert "map-publish" not in user_client.get(f"/maps/{other_published_map.pk}/").content.decode()
    assert Map.objects.get(pk=other_published_map.pk).published and not Map.objects.get(pk=user_map.pk).published


# --- maps: delete with the scenarios on them -----------------------------------------------------------------------

def test_deleting_a_map_lists_its_scenarios_and_stops_without_the_confirmation(user_client, user_map, user,
                                                                               other_client, other_user):
    Map.objects.filter(pk=user_map.pk).update(published=True)
    mine = made(user_client, on(user_map), "Hill 112 attack")
    theirs = made(other_client, on(user_map), "Their raid")
    page = user_client.get(f"/maps/{user_map.pk}/delete/").content.decode()
    assert 'id="own-scenarios"' in page and "Hill 112 attack" in page and 'name="with_scenarios"' in page
    assert 'id="their-scenarios"' in page and "Their raid" in page and "(rival)" in page
    refused = user_client.post(f"/maps/{user_map.pk}/delete/")
    assert refused.status_code == 400 and "Not deleted" in refused.content.decode()
    assert Map.objects.filter(pk=user_map.pk).exists() and Scenario.objects.filter(pk=mine.pk).exists()
    done = user_client.post(f"/maps/{user_map.pk}/delete/", {"with_scenarios": "1"}, follow=True)
    assert "Deleted Designer&#x27;s own and 1 scenario on it" in done.content.decode()
    assert not Map.objects.filter(pk=user_map.pk).exists() and not Scenario.objects.filter(pk=mine.pk).exists()
    assert Scenario.objects.filter(pk=theirs.pk).exists()  # another's scenario stays and says its map is gone


def test_deleting_a_map_keeps_ones_scenarios_with_the_map_embedded(user_client, user_map, user, other_client,
                                                                    other_user):
    """Issue 32: "keep my scenarios, with the map embedded" (docs/scenario-format.md, "A map entry": a map file
    inside the scenario), the page's default; the scenario then reads and plays without the library map."""
    Map.objects.filter(pk=user_map.pk).update(published=True)
    user_map.refresh_from_db()
    by_id = made(user_client, on(user_map), "Hill 112 attack")
    data = on(user_map)
    data["maps"] = [{"key": "main", "name": user_map.name, "rotation": 0}]
    by_name = made(user_client, data, "By name")
    theirs = made(other_client, on(user_map), "Their raid")
    map_document = user_map.document
    page = user_client.get(f"/maps/{user_map.pk}/delete/").content.decode()
    assert 'id="keep-scenarios" checked' in page and "with the map embedded" in page
    done = user_client.post(f"/maps/{user_map.pk}/delete/", {"with_scenarios": "keep"}, follow=True)
    assert "your 2 scenarios on it keep it embedded" in done.content.decode()
    assert not Map.objects.filter(pk=user_map.pk).exists()
    for scenario in (by_id, by_name):
        scenario.refresh_from_db()
        entry = scenario.document["maps"][0]
        assert entry["key"] == "main" and "id" not in entry and "name" not in entry
        assert entry["document"] == map_document
        assert scenario.revisions.count() == 2  # the embedding is a revision of its own
        page = user_client.get(f"/scenarios/{scenario.pk}/").content.decode()
        assert 'id="map-gone"' not in page
        assert user_client.get(f"/api/scenarios/{scenario.pk}/export/").status_code == 200
    theirs.refresh_from_db()
    assert theirs.document["maps"][0] == {"key": "main", "id": user_map.pk, "placement": [0, 0], "rotation": 0}


def test_the_api_deletes_a_map_keeping_ones_scenarios(user_client, user_map):
    scenario = made(user_client, on(user_map), "Kept")
    assert user_client.delete(f"/api/maps/{user_map.pk}/?keep_scenarios=true").status_code == 204
    scenario.refresh_from_db()
    assert scenario.document["maps"][0]["document"]["name"] == user_map.name


def test_a_map_by_name_counts_as_used(user_client, user_map):
    data = on(user_map)
    data["maps"] = [{"key": "main", "name": user_map.name}]
    made(user_client, data, "By name")
    assert "By name" in user_client.get(f"/maps/{user_map.pk}/delete/").content.decode()


def test_a_failed_delete_deletes_nothing(user_client, user_map, monkeypatch):
    """The map and its scenarios go in one transaction: a failure deleting the map keeps the scenarios."""
    scenario = made(user_client, on(user_map))

    def fails(self, *args, **kwargs):
        raise DatabaseError("disk full")

    monkeypatch.setattr(Map, "delete", fails)
    with pytest.raises(DatabaseError):
        user_client.post(f"/maps/{user_map.pk}/delete/", {"with_scenarios": "1"})
    assert Scenario.objects.filter(pk=scenario.pk).exists()


def test_the_api_refuses_to_delete_a_map_under_ones_scenarios_unless_asked(user_client, user_map, other_client):
    scenario = made(user_client, on(user_map), "Hill 112 attack")
    refused = user_client.delete(f"/api/maps/{user_map.pk}/")
    assert refused.status_code == 409
    error = refused.json()["errors"][0]
    assert error["path"] == "with_scenarios" and "Hill 112 attack" in error["message"]
    assert other_client.delete(f"/api/maps/{user_map.pk}/?with_scenarios=true").status_code == 404
    assert user_client.delete(f"/api/maps/{user_map.pk}/?with_scenarios=true").status_code == 204
    assert not Scenario.objects.filter(pk=scenario.pk).exists()


# --- a scenario whose map is gone --------------------------------------------------------------------------------

def test_a_scenario_whose_map_is_gone_says_so_and_is_pointed_at_another(user_client, user, make_map, other_client,
                                                                         other_user):
    board = make_map(other_user, published=True, name="Their board")
    mine = made(user_client, on(board), "On their board")
    other_client.delete(f"/api/maps/{board.pk}/")
    page = user_client.get(f"/scenarios/{mine.pk}/").content.decode()
    assert 'id="map-gone"' in page and "This scenario&#x27;s map was deleted." in page
    assert f"map {board.pk}" not in page.split('id="map-gone"')[1].split("</section>")[0]  # no internal id
    assert "not found" not in page and 'id="point-at"' in page
    config = json.loads(page.split('id="scenario-config" type="application/json">')[1].split("</script>")[0])
    assert config["mapGone"] and "was deleted" in config["mapProblem"]

    small = make_map(user, name="Too small", grid={**board.grid, "columns": 1, "rows": 1}, hexes=[], hexsides=[],
                     overlays=[])
    same = make_map(user, name="Same grid")
    page = user_client.get(f"/scenarios/{mine.pk}/").content.decode()
    assert f'<option value="{same.pk}">' in page and f'<option value="{small.pk}">' in page
    refused = user_client.post(f"/scenarios/{mine.pk}/map/", {"entry": "0", "map": small.pk,
                                                               "revision": mine.revision}, follow=True)
    said = refused.content.decode()
    assert "Not changed: on Too small, the hex of objective 1 (Hill): hex D5 is off the map (1 columns" in said
    assert said.count("Not changed: on Too small") == 5 and "more things Too small does not have" in said
    assert Scenario.objects.get(pk=mine.pk).revision == mine.revision
    assert other_client.post(f"/scenarios/{mine.pk}/map/", {"entry": "0", "map": same.pk,
                                                            "revision": mine.revision}).status_code == 404
    done = user_client.post(f"/scenarios/{mine.pk}/map/", {"entry": "0", "map": same.pk, "revision": mine.revision},
                            follow=True)
    assert "On their board is on Same grid now" in done.content.decode()
    after = Scenario.objects.get(pk=mine.pk)
    assert [(m["key"], m["id"]) for m in after.document["maps"]] == [("main", same.pk)]
    assert after.revision == mine.revision + 1
    page = user_client.get(f"/scenarios/{mine.pk}/").content.decode()
    assert 'id="map-gone"' not in page
    assert user_client.get(f"/api/scenarios/{mine.pk}/export/").status_code == 200


def test_the_api_deletes_ones_own_scenarios_with_a_map_only_when_asked(user_client, other_client, make_map,
                                                                          other_user):
    board = make_map(other_user, published=True, name="Their board")
    theirs = made(other_client, on(board), "Raid")
    Scenario.objects.filter(pk=theirs.pk).update(published=True)
    other_client.delete(f"/api/maps/{board.pk}/?with_scenarios=false")  # refused: their own scenario is on it
    assert Map.objects.filter(pk=board.pk).exists()
    other_client.delete(f"/api/maps/{board.pk}/?with_scenarios=true")
    assert not Scenario.objects.filter(pk=theirs.pk).exists()


def test_pointing_at_another_map_is_the_owners(user_client, other_client, make_map, user, other_user):
    board = make_map(user, published=True, name="Board")
    scenario = made(user_client, on(board), "Mine")
    Scenario.objects.filter(pk=scenario.pk).update(published=True)
    Map.objects.filter(pk=board.pk).delete()
    spare = make_map(other_user, published=True, name="Spare")
    page = other_client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "Its owner, designer, can point it at another map" in page and 'id="point-at"' not in page
    assert other_client.post(f"/scenarios/{scenario.pk}/map/", {"entry": "0", "map": spare.pk,
                                                                "revision": scenario.revision}).status_code == 403
    assert Scenario.objects.get(pk=scenario.pk).document["maps"][0]["id"] == board.pk


# --- scenarios: duplicate, import, delete ------------------------------------------------------------------------

def test_duplicating_a_scenario_copies_only_what_the_reader_reads(user_client, other_client, make_map, user):
    board = make_map(user, published=True, name="Board")
    scenario = made(user_client, on(board, hidden=True), "Crossroads")
    Scenario.objects.filter(pk=scenario.pk).update(published=True)
    assert "Hold the crossroads" in json.dumps(Scenario.objects.get(pk=scenario.pk).document)
    answer = other_client.post(f"/scenarios/{scenario.pk}/duplicate/")
    copy = Scenario.objects.exclude(pk=scenario.pk).get()
    assert answer.status_code == 302 and answer["Location"] == f"/scenarios/{copy.pk}/"
    assert copy.owner.username == "rival" and not copy.published and copy.title == "Crossroads (copy)"
    assert "Hold the crossroads" not in json.dumps(copy.document)  # the hidden unit stays with its side
    assert copy.document["sides"][0]["placements"] == scenario.document["sides"][0]["placements"]
    own = user_client.post(f"/scenarios/{scenario.pk}/duplicate/")
    assert own.status_code == 302
    assert "Hold the crossroads" in json.dumps(Scenario.objects.filter(owner=user).order_by("-pk").first().document)
    assert other_client.get(f"/scenarios/{scenario.pk}/duplicate/").status_code == 405
    assert APIClient().post(f"/scenarios/{scenario.pk}/duplicate/").status_code == 302  # sign in first


def test_a_private_scenario_is_not_duplicated_by_another(other_client, user_client, user_map):
    scenario = made(user_client, on(user_map))
    assert other_client.post(f"/scenarios/{scenario.pk}/duplicate/").status_code == 404
    assert Scenario.objects.count() == 1


def test_a_scenario_file_is_imported_from_the_list_page(user_client, user_map):
    page = user_client.get("/scenarios/").content.decode()
    assert 'id="import-scenario"' in page and 'enctype="multipart/form-data"' in page
    text = json.dumps(on(user_map)).encode()
    answer = user_client.post("/scenarios/import/", {"file": SimpleUploadedFile("s.json", text)})
    scenario = Scenario.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/scenarios/{scenario.pk}/"
    assert scenario.title == "Small test" and scenario.revisions.get().summary == "imported from a scenario file"
    exported = user_client.get(f"/api/scenarios/{scenario.pk}/export/")
    again = user_client.post("/scenarios/import/", {"file": SimpleUploadedFile("s.json", exported.content)})
    assert again.status_code == 302 and Scenario.objects.count() == 2


def test_an_imported_file_with_problems_says_each_and_saves_nothing(user_client, user_map):
    data = on(user_map)
    data["sides"][0]["placements"][0]["hex"] = "Z99"
    answer = user_client.post("/scenarios/import/", {"file": SimpleUploadedFile("s.json", json.dumps(data).encode())})
    page = answer.content.decode()
    assert answer.status_code == 400 and 'id="import-errors"' in page and "Z99" in page
    private = user_client.post("/scenarios/import/", {"file": SimpleUploadedFile("s.json", json.dumps(
        on(user_map)).encode()), "published": "on"})
    assert private.status_code == 400 and "Not published" in private.content.decode()
    assert not Scenario.objects.exists()
    assert APIClient().post("/scenarios/import/", {}).status_code == 302


def test_deleting_a_scenario_asks_first_and_is_the_owners(user_client, other_client, user_map, user):
    Map.objects.filter(pk=user_map.pk).update(published=True)
    scenario = made(user_client, on(user_map), "Doomed")
    Scenario.objects.filter(pk=scenario.pk).update(published=True)
    SideLink.objects.create(scenario=scenario, side="blue")
    page = user_client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert f'href="/scenarios/{scenario.pk}/delete/"' in page and 'id="duplicate"' in page
    assert f"/scenarios/{scenario.pk}/delete/" not in other_client.get(f"/scenarios/{scenario.pk}/").content.decode()
    asking = user_client.get(f"/scenarios/{scenario.pk}/delete/")
    assert asking.status_code == 200 and "cannot be undone" in asking.content.decode()
    assert "1 side link will open nothing" in asking.content.decode()
    assert Scenario.objects.filter(pk=scenario.pk).exists()  # asking is not deleting
    assert other_client.get(f"/scenarios/{scenario.pk}/delete/").status_code == 403
    assert other_client.post(f"/scenarios/{scenario.pk}/delete/").status_code == 403
    assert Scenario.objects.filter(pk=scenario.pk).exists()
    done = user_client.post(f"/scenarios/{scenario.pk}/delete/", follow=True)
    assert "Deleted Doomed" in done.content.decode() and not Scenario.objects.filter(pk=scenario.pk).exists()
    assert Map.objects.filter(pk=user_map.pk).exists()  # its map stays


def test_the_scenario_page_says_what_a_publish_exposes(user_client, user_map):
    scenario = made(user_client, on(user_map))
    page = user_client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "Publishing shows everyone its public part only" in page
