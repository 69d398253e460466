"""A scenario's library maps: at most HEXSIDE_MAX_SCENARIO_MAPS, each once; read on the web process as rows only
(no map document); resolved as the reader may see them; published only with its maps (authoring/scenario_maps.py).
Its jobs are in tests/jobs/test_scenario_map_jobs.py."""

import copy
import json

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from authoring.models import Scenario
from documents.models import forget_states
from engine.scenarios import scenariofile
from maps.models import Map
from tests.scenarios.conftest import SMALL

pytestmark = pytest.mark.django_db


def on_maps(*entries):
    """The small OST scenario on library maps: entries are (key, map) or dicts, the first one the main map."""
    data = copy.deepcopy(SMALL)
    data["maps"] = [entry if isinstance(entry, dict) else {"key": entry[0], "id": entry[1].pk} for entry in entries]
    return data


def stored(owner, data, published=False):
    """A scenario written as it is (as one stored before today's checks would be), then published by its row."""
    scenario = Scenario.objects.create_from_doc(owner, scenariofile.ScenarioDoc(data=data))
    if published:
        Scenario.objects.filter(pk=scenario.pk).update(published=True)
        scenario.refresh_from_db()
    return scenario


def map_reads(queries):
    """The queries that read a map document (its revisions' snapshots and deltas)."""
    return [q["sql"] for q in queries if "maps_maprevision" in q["sql"]]


def test_the_same_map_named_twenty_times_is_refused_by_the_count_before_any_map_is_read(user_client, user_map):
    data = on_maps(*[(f"m{k}", user_map) for k in range(20)])
    answer = user_client.post("/api/scenarios/", {"document": data}, format="json")
    assert answer.status_code == 400, answer.json()
    errors = answer.json()["errors"]
    assert errors[0]["path"] == "document.maps" and "20 maps; at most 8" in errors[0]["message"]
    assert Scenario.objects.count() == 0


def test_the_same_map_named_again_is_refused_naming_the_second_entry(user_client, user_map):
    data = on_maps(*[(f"m{k}", user_map) for k in range(3)])
    answer = user_client.post("/api/scenarios/", {"document": data}, format="json")
    assert answer.status_code == 400, answer.json()
    errors = answer.json()["errors"]
    assert errors[0]["path"] == "document.maps[1].id"
    assert "already this scenario's map 'm0'" in errors[0]["message"] and "'m0:C4'" in errors[0]["message"]
    assert Scenario.objects.count() == 0


def test_the_same_map_by_id_and_by_name_is_the_same_map(user_client, user_map):
    data = on_maps(("main", user_map), {"key": "again", "name": user_map.name})
    answer = user_client.post("/api/scenarios/", {"document": data}, format="json")
    assert answer.status_code == 400
    assert [e["path"] for e in answer.json()["errors"]] == ["document.maps[1].name"]


@override_settings(HEXSIDE_MAX_SCENARIO_MAPS=2)
def test_more_distinct_maps_than_the_limit_are_refused(user, user_client, make_map):
    maps = [make_map(user, name=f"Board {k}") for k in range(3)]
    answer = user_client.post("/api/scenarios/", {"document": on_maps(*[(f"b{k}", m) for k, m in enumerate(maps)])},
                              format="json")
    assert answer.status_code == 400
    error = answer.json()["errors"][0]
    assert error["path"] == "document.maps[2].id" and "at most 2 maps" in error["message"]
    assert "HEXSIDE_MAX_SCENARIO_MAPS" in error["message"]
    two = user_client.post("/api/scenarios/", {"document": on_maps(*[(f"b{k}", m) for k, m in enumerate(maps[:2])])},
                           format="json")
    assert two.status_code == 201, two.json()


def test_an_edit_naming_a_map_again_is_refused(user_client, user_map):
    created = user_client.post("/api/scenarios/", {"document": on_maps(("main", user_map))}, format="json").json()
    answer = user_client.post(f"/api/scenarios/{created['id']}/edits/", {"revision": 1, "operations": [
        {"op": "insert", "path": "maps", "value": {"key": "again", "id": user_map.pk}}]}, format="json")
    assert answer.status_code == 400
    assert "already this scenario's map 'main'" in json.dumps(answer.json())


def test_a_stored_scenario_naming_a_map_twenty_times_is_refused_without_reading_the_map(user, api_client, make_map):
    big = make_map(user, published=True, name="Big")
    scenario = stored(user, on_maps(*[(f"m{k}", big) for k in range(20)]), published=True)
    forget_states()  # a web process that has not read the map
    with CaptureQueriesContext(connection) as queries:
        answer = api_client.get(f"/api/scenarios/{scenario.pk}/export/")
    assert answer.status_code == 403
    assert answer.json()["errors"] == [{"path": "maps", "hex": None, "message": "names 20 maps of the library, "
                                        "more than this server's limit of 8 (HEXSIDE_MAX_SCENARIO_MAPS)"}]
    assert map_reads(queries) == []
    assert len(queries) < 10  # the scenario, not a query per entry


def test_a_stored_scenario_naming_a_map_twice_is_refused_naming_the_entry(user, api_client, make_map):
    board = make_map(user, published=True, name="Board")
    scenario = stored(user, on_maps(("a", board), ("b", board)), published=True)
    answer = api_client.get(f"/api/scenarios/{scenario.pk}/export/")
    assert answer.status_code == 403
    assert [e["path"] for e in answer.json()["errors"]] == ["maps[1].id"]


def test_the_scenario_file_and_page_read_no_map_document(user, api_client, make_map):
    boards = [make_map(user, published=True, name=f"Board {k}") for k in range(3)]
    data = on_maps(*[(f"b{k}", m) for k, m in enumerate(boards)])
    data["objectives"][0]["hex"] = "b1:D5"
    scenario = stored(user, scenariofile.to_dict(scenariofile.parse(data, lambda e: boards[0].mapdoc())),
                      published=True)
    forget_states()
    with CaptureQueriesContext(connection) as queries:
        exported = api_client.get(f"/api/scenarios/{scenario.pk}/export/")
        page = api_client.get(f"/scenarios/{scenario.pk}/")
    assert exported.status_code == 200 and page.status_code == 200
    assert json.loads(exported.content)["objectives"][0]["hex"] == "b1:D5"
    assert page.context["config"]["map"] == boards[0].pk
    assert map_reads(queries) == []


# -- as the reader sees them -------------------------------------------------------------------------------

def test_a_private_map_is_not_readable_through_a_published_scenario(user, user_client, other_client, api_client,
                                                                    user_map):
    """A scenario published before the rule (or whose map went private after): the map stays its owner's."""
    scenario = stored(user, on_maps(("main", user_map)), published=True)
    for client in (api_client, other_client):
        exported = client.get(f"/api/scenarios/{scenario.pk}/export/")
        assert exported.status_code == 403
        assert exported.json()["errors"][0]["path"] == "maps[0].id"
        assert "private" in exported.json()["errors"][0]["message"]
        page = client.get(f"/scenarios/{scenario.pk}/")
        assert page.status_code == 200 and page.context["config"]["map"] is None
        assert page.context["config"]["mapProblem"].startswith("This scenario's map is private")  # no path, no id
        assert "private" in page.context["config"]["mapProblem"]
        assert client.get(f"/api/maps/{user_map.pk}/").status_code == 404
    assert user_client.get(f"/api/scenarios/{scenario.pk}/export/").status_code == 200
    assert user_client.get(f"/scenarios/{scenario.pk}/").context["config"]["map"] == user_map.pk


def test_a_name_means_the_owners_map_for_every_reader(user, other_user, other_client, make_map):
    mine = make_map(user, published=True, name="Ridge")
    make_map(other_user, name="Ridge")  # the reader's own map of that name is not the scenario's
    scenario = stored(user, on_maps({"key": "main", "name": "Ridge"}), published=True)
    page = other_client.get(f"/scenarios/{scenario.pk}/")
    assert page.context["config"]["map"] == mine.pk


# -- publishing ----------------------------------------------------------------------------------------------

def test_publishing_is_refused_while_a_map_is_private_naming_it(user_client, user_map):
    created = user_client.post("/api/scenarios/", {"document": on_maps(("main", user_map))}, format="json").json()
    answer = user_client.patch(f"/api/scenarios/{created['id']}/", {"published": True}, format="json")
    assert answer.status_code == 400
    error = answer.json()["errors"][0]
    assert error["path"] == "published" and repr(user_map.name) in error["message"]
    assert "with its maps too" in error["message"] and "publish_maps" not in error["message"]  # words, not a key
    assert not Scenario.objects.get(pk=created["id"]).published


def test_publish_maps_publishes_the_scenario_and_its_maps(user_client, user_map):
    created = user_client.post("/api/scenarios/", {"document": on_maps(("main", user_map))}, format="json").json()
    answer = user_client.patch(f"/api/scenarios/{created['id']}/", {"published": True, "publish_maps": True},
                               format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["published"] is True
    assert Map.objects.get(pk=user_map.pk).published


def test_creating_or_importing_a_published_scenario_on_a_private_map_is_refused(user_client, user_map):
    data = on_maps(("main", user_map))
    created = user_client.post("/api/scenarios/", {"document": data, "published": True}, format="json")
    assert created.status_code == 400 and created.json()["errors"][0]["path"] == "published"
    imported = user_client.post("/api/scenarios/import/?published=true", data, format="json")
    assert imported.status_code == 400 and imported.json()["errors"][0]["path"] == "published"
    assert Scenario.objects.count() == 0


def test_the_page_publishes_with_its_maps_when_asked(user_client, user_map):
    created = user_client.post("/api/scenarios/", {"document": on_maps(("main", user_map))}, format="json").json()
    page = user_client.get(f"/scenarios/{created['id']}/")
    assert b'id="scenario-publish"' in page.content and b'name="publish_maps"' in page.content
    refused = user_client.post(f"/scenarios/{created['id']}/publish/", {"published": "1"}, follow=True)
    assert "Not published" in refused.content.decode() and not Scenario.objects.get(pk=created["id"]).published
    done = user_client.post(f"/scenarios/{created['id']}/publish/", {"published": "1", "publish_maps": "1"},
                            follow=True)
    assert "and its maps" in done.content.decode()
    assert Scenario.objects.get(pk=created["id"]).published and Map.objects.get(pk=user_map.pk).published


def test_only_the_owner_publishes_from_the_page(user, other_client, user_map):
    Map.objects.filter(pk=user_map.pk).update(published=True)
    scenario = stored(user, on_maps(("main", user_map)), published=True)
    assert other_client.post(f"/scenarios/{scenario.pk}/publish/", {"published": "0"}).status_code == 403
    assert APIClient().post(f"/scenarios/{scenario.pk}/publish/", {"published": "0"}).status_code == 302  # sign in
    assert Scenario.objects.get(pk=scenario.pk).published


def test_unpublishing_a_map_unpublishes_its_owners_scenarios_on_it(user, user_client, other_user, make_map):
    board = make_map(user, published=True, name="Board")
    spare = make_map(user, published=True, name="Spare")
    on_board = stored(user, on_maps(("main", board)), published=True)
    elsewhere = stored(user, on_maps(("main", spare)), published=True)
    theirs = stored(other_user, on_maps(("main", board)), published=True)
    answer = user_client.patch(f"/api/maps/{board.pk}/", {"published": False}, format="json")
    assert answer.status_code == 200
    assert not Scenario.objects.get(pk=on_board.pk).published
    assert Scenario.objects.get(pk=elsewhere.pk).published
    # another user's scenario stays published, and the map is theirs no longer: refused to them and to everyone
    assert Scenario.objects.get(pk=theirs.pk).published
    assert APIClient().get(f"/api/scenarios/{theirs.pk}/export/").status_code == 403
    other = APIClient()
    other.force_login(other_user)
    assert other.get(f"/api/scenarios/{theirs.pk}/export/").status_code == 403


def test_a_scenario_with_its_map_embedded_exports_as_stored(user_client, small):
    created = user_client.post("/api/scenarios/", {"document": small}, format="json")
    assert created.status_code == 201, created.json()
    scenario = Scenario.objects.get(pk=created.json()["id"])
    forget_states()
    exported = user_client.get(f"/api/scenarios/{scenario.pk}/export/")
    assert exported.status_code == 200
    assert exported.content.decode() == scenariofile.dumps(scenariofile.ScenarioDoc(data=scenario.document))
    assert json.loads(exported.content)["maps"][0]["document"]["name"] == "Hill 112"


def test_unpublishing_a_map_deletes_the_stored_jobs_of_others_scenarios_that_drew_it(user, user_client, other_user,
                                                                                     make_map):
    from jobs.models import Job

    board = make_map(user, published=True, name="Board")
    theirs = stored(other_user, on_maps(("main", board)), published=True)
    mine = stored(user, on_maps(("main", board)))

    def job(scenario, pins):
        return Job.objects.create(kind="export", subject_type="scenario", subject_id=scenario.pk,
                                  content_hash=scenario.content_hash, request_key=f"{scenario.pk}-{len(pins)}",
                                  status=Job.Status.SUCCEEDED, requested_by=other_user,
                                  parameters={"scenario": scenario.pk, "maps": pins, "format": "png",
                                              "sides": []})  # made for the public part

    drawn = job(theirs, [["main", board.pk, board.content_hash]])
    unpinned = job(theirs, [])
    own = job(mine, [["main", board.pk, board.content_hash]])
    assert APIClient().get(f"/api/jobs/{drawn.pk}/").status_code == 200
    assert user_client.patch(f"/api/maps/{board.pk}/", {"published": False}, format="json").status_code == 200
    assert APIClient().get(f"/api/jobs/{drawn.pk}/").status_code == 404
    assert set(Job.objects.values_list("pk", flat=True)) == {unpinned.pk, own.pk}
