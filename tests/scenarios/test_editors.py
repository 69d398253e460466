"""A scenario's editors (docs/scenarios.md, "Who may read what"): the owner names them by username; an editor
reads everything of the scenario, as the owner does, and edits it, but does not delete, publish or unpublish
it, make side links or name editors. Through the API and the page, on the test database."""

import copy

import pytest
from rest_framework.test import APIClient

from authoring.models import Scenario, ScenarioEditor, SideLink
from tests.scenarios.conftest import SMALL

pytestmark = pytest.mark.django_db


def client_of(user=None):
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def people(django_user_model):
    return {name: django_user_model.objects.create_user(name, password=f"{name}-password")
            for name in ("author", "helper", "rival")}


@pytest.fixture
def private(people, map_document):
    """A private scenario of "author" with a hidden unit and a brief: only its owner (and editors) read it."""
    data = copy.deepcopy(SMALL)
    data["maps"][0]["document"] = map_document
    data["sides"][0]["oob"].append({"id": "snipe", "unit": "Sniper", "name": "Hidden Harry", "hidden": True})
    data["sides"][0]["placements"].append({"unit": "snipe", "hex": "A3"})
    data["sides"][0]["brief"] = {"mission": "Hold the bridge at all costs."}
    created = client_of(people["author"]).post("/api/scenarios/", {"document": data}, format="json")
    assert created.status_code == 201, created.json()
    return Scenario.objects.get(pk=created.json()["id"])


def test_the_owner_names_and_removes_editors(people, private):
    owner, helper = client_of(people["author"]), client_of(people["helper"])
    url = f"/api/scenarios/{private.pk}/editors/"
    assert helper.get(f"/api/scenarios/{private.pk}/").status_code == 404  # private: not theirs yet

    made = owner.post(url, {"username": "helper"}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["username"] == "helper"
    assert [e["username"] for e in owner.get(url).json()["results"]] == ["helper"]
    for body, words in (({"username": "helper"}, "already an editor"), ({"username": "nobody"}, "no user 'nobody'"),
                        ({"username": "author"}, "owns this scenario"), ({}, "required")):
        refused = owner.post(url, body, format="json")
        assert refused.status_code == 400, body
        assert words in str(refused.json()), refused.json()
    assert ScenarioEditor.objects.filter(scenario=private).count() == 1

    # an editor sees the private scenario and the list of its editors, but does not name or remove editors
    assert helper.get(f"/api/scenarios/{private.pk}/").status_code == 200
    assert private.pk in [s["id"] for s in helper.get("/api/scenarios/").json()["results"]]
    assert helper.get(url).status_code == 200
    assert helper.post(url, {"username": "rival"}, format="json").status_code == 403
    assert helper.delete(f"{url}helper/").status_code == 403
    rival = client_of(people["rival"])
    assert rival.get(url).status_code == 404  # a private scenario is not there for them
    assert rival.post(url, {"username": "rival"}, format="json").status_code == 404

    assert owner.delete(f"{url}rival/").status_code == 404  # not an editor
    assert owner.delete(f"{url}helper/").status_code == 204
    assert helper.get(f"/api/scenarios/{private.pk}/").status_code == 404
    assert owner.get(url).json()["results"] == []


def test_an_editor_reads_everything_and_edits_but_does_not_publish_or_delete(people, private):
    owner, helper, rival = (client_of(people[n]) for n in ("author", "helper", "rival"))
    ScenarioEditor.objects.create(scenario=private, user=people["helper"])
    document = helper.get(f"/api/scenarios/{private.pk}/").json()["document"]
    assert "withheld" not in document.get("extensions", {})
    assert "Hidden Harry" in str(document) and "Hold the bridge" in str(document)
    assert "Hidden Harry" in helper.get(f"/api/scenarios/{private.pk}/export/").content.decode()

    edit = helper.post(f"/api/scenarios/{private.pk}/edits/",
                       {"revision": private.revision, "operations": [{"op": "set", "path": "turns.count", "value": 7}]},
                       format="json")
    assert edit.status_code == 200, edit.json()
    private.refresh_from_db()
    assert private.document["turns"]["count"] == 7 and private.revision == 2
    assert private.revisions.get(number=2).author == people["helper"]
    assert helper.patch(f"/api/scenarios/{private.pk}/", {"title": "Renamed by the editor"},
                        format="json").status_code == 200
    restored = helper.post(f"/api/scenarios/{private.pk}/revisions/1/restore/", {}, format="json")
    assert restored.status_code == 200, restored.json()
    private.refresh_from_db()
    assert private.document["turns"]["count"] == 6 and private.title == "Small test"

    refused = helper.patch(f"/api/scenarios/{private.pk}/", {"published": True}, format="json")
    assert refused.status_code == 403 and "only the scenario's owner" in str(refused.json())
    assert helper.delete(f"/api/scenarios/{private.pk}/").status_code == 403
    private.refresh_from_db()
    assert not private.published

    # the owner publishes it: anyone reads its public part, and only the owner and the editor all of it
    assert owner.patch(f"/api/scenarios/{private.pk}/", {"published": True}, format="json").status_code == 200
    public = rival.get(f"/api/scenarios/{private.pk}/").json()["document"]
    assert "Hidden Harry" not in str(public) and "Hold the bridge" not in str(public)
    assert rival.post(f"/api/scenarios/{private.pk}/edits/", {"revision": 4, "operations": [
        {"op": "set", "path": "turns.count", "value": 5}]}, format="json").status_code == 403
    assert rival.patch(f"/api/scenarios/{private.pk}/", {"title": "Mine"}, format="json").status_code == 403
    assert rival.post(f"/api/scenarios/{private.pk}/editors/", {"username": "rival"},
                      format="json").status_code == 403
    assert "Hidden Harry" in str(helper.get(f"/api/scenarios/{private.pk}/").json()["document"])
    assert owner.delete(f"/api/scenarios/{private.pk}/").status_code == 204


def test_the_page_shows_the_owner_its_editors_and_the_editor_an_editor(people, private):
    owner, helper, rival = (client_of(people[n]) for n in ("author", "helper", "rival"))
    added = owner.post(f"/scenarios/{private.pk}/editors/", {"username": "helper"})
    assert added.status_code == 302 and ScenarioEditor.objects.filter(scenario=private).count() == 1
    owner.post(f"/scenarios/{private.pk}/editors/", {"username": "nobody"})  # said in a message, nothing made
    assert ScenarioEditor.objects.filter(scenario=private).count() == 1
    page = owner.get(f"/scenarios/{private.pk}/").content.decode()
    assert 'id="scenario-editors"' in page and 'data-username="helper"' in page and 'id="scenario-publish"' in page

    page = helper.get(f"/scenarios/{private.pk}/").content.decode()
    assert '"canEdit": true' in page and 'id="you-edit"' in page
    assert 'id="scenario-publish"' not in page and 'id="side-links"' not in page and 'id="scenario-editors"' not in page
    assert "read-only" not in page
    # every side's sheet is the editor's to export, as the owner's
    assert '<option value="blue">Blue: side sheet (secret)</option>' in page
    assert '<option value="red">Red: side sheet (secret)</option>' in page
    # publishing, side links and editors stay the owner's
    assert helper.post(f"/scenarios/{private.pk}/publish/", {"published": "1"}).status_code == 403
    assert helper.post(f"/scenarios/{private.pk}/links/", {"side": "blue"}).status_code == 403
    assert not SideLink.objects.filter(scenario=private).exists()
    assert helper.post(f"/scenarios/{private.pk}/editors/", {"username": "rival"}).status_code == 403
    editor = ScenarioEditor.objects.get(scenario=private)
    assert helper.post(f"/scenarios/{private.pk}/editors/{editor.pk}/remove/").status_code == 403
    assert rival.get(f"/scenarios/{private.pk}/").status_code == 404

    assert owner.post(f"/scenarios/{private.pk}/editors/{editor.pk}/remove/").status_code == 302
    assert not ScenarioEditor.objects.filter(scenario=private).exists()
    assert helper.get(f"/scenarios/{private.pk}/").status_code == 404


def test_an_editor_does_not_read_the_owners_private_map_through_a_job(people, make_map):
    """A scenario's maps stay each map's own: the owner's job on their private map is not the editor's to read
    (its file would draw the map), until the map is published."""
    from jobs.models import Job
    from tests.jobs.test_scenario_map_jobs import published_on

    board = make_map(people["author"], name="Secret board")
    scenario = published_on(people["author"], board)
    Scenario.objects.filter(pk=scenario.pk).update(published=False)
    ScenarioEditor.objects.create(scenario=scenario, user=people["helper"])
    job = Job.objects.create(kind="scenario-checks", subject_type="scenario", subject_id=scenario.pk,
                             requested_by=people["author"], content_hash=scenario.content_hash, request_key="k",
                             parameters={"scenario": scenario.pk, "content_hash": scenario.content_hash,
                                         "maps": [["main", board.pk, board.content_hash]], "sides": "all"},
                             status="succeeded", result={"ok": True, "findings": []})
    owner, helper = client_of(people["author"]), client_of(people["helper"])
    assert owner.get(f"/api/jobs/{job.pk}/").status_code == 200
    assert helper.get(f"/scenarios/{scenario.pk}/").status_code == 200  # the scenario is theirs to read
    assert helper.get(f"/api/jobs/{job.pk}/").status_code == 404  # the map in the job is not
    board.published = True
    board.save(update_fields=["published"])
    assert helper.get(f"/api/jobs/{job.pk}/").status_code == 200


def test_each_editor_undoes_their_own_changes_and_a_reader_has_no_history(people, private):
    """The undo history (GET .../undo/, documents/undo.py) is the requester's own strokes, for whoever may edit."""
    owner, helper = client_of(people["author"]), client_of(people["helper"])
    assert owner.post(f"/api/scenarios/{private.pk}/editors/", {"username": "helper"},
                      format="json").status_code == 201
    url = f"/api/scenarios/{private.pk}/"
    mine = owner.post(url + "edits/", {"revision": 1, "operations": [
        {"op": "set", "path": "title", "value": "Owner's"}]}, format="json").json()["revision"]
    theirs = helper.post(url + "edits/", {"revision": mine, "operations": [
        {"op": "set", "path": "sides[1].name", "value": "Helper's"}]}, format="json").json()["revision"]
    assert [e["revision"] for e in owner.get(url + "undo/").json()["undo"]] == [mine]
    assert [e["revision"] for e in helper.get(url + "undo/").json()["undo"]] == [theirs]
    # The owner's undo puts back the title only: the helper's change after it stays.
    entry = owner.get(url + "undo/").json()["undo"][-1]
    assert owner.post(url + "edits/", {"revision": theirs, "operations": entry["operations"], "undoes": mine},
                      format="json").status_code == 200
    document = Scenario.objects.get(pk=private.pk).document
    assert document["title"] == "Small test" and document["sides"][1]["name"] == "Helper's"
    Scenario.objects.filter(pk=private.pk).update(published=True)
    reader = client_of(people["rival"]).get(url + "undo/")
    assert reader.status_code == 200 and reader.json()["undo"] == [] and reader.json()["redo"] == []


# -- edits checked by the rights of whoever makes them (issue 27, point 7) ------------------------------------

@pytest.fixture
def on_open_board(people, make_map):
    """A published scenario of "author" on their published map, "helper" its editor; "author" has a private map."""
    from tests.jobs.test_scenario_map_jobs import published_on

    board = make_map(people["author"], published=True, name="Open board")
    secret = make_map(people["author"], name="Secret board")
    scenario = published_on(people["author"], board)
    ScenarioEditor.objects.create(scenario=scenario, user=people["helper"])
    return scenario, board, secret


def repoint(client, scenario, **names):
    """Point the scenario's main map entry at another map (by id= or name=): the response."""
    scenario.refresh_from_db()
    operation = {"op": "set", "path": "maps[0]", "value": {"key": "main", **names}}
    return client.post(f"/api/scenarios/{scenario.pk}/edits/",
                       {"revision": scenario.revision, "operations": [operation]}, format="json")


def refusal(response, named):
    """The refusal's messages, with what the request named left out: equal refusals read the same."""
    assert response.status_code == 400, response.content
    return [error["message"].replace(str(named), "…") for error in response.json()["errors"]]


@pytest.mark.parametrize("published", [True, False])
def test_an_editor_cannot_point_a_scenario_at_its_owners_private_map_nor_tell_it_exists(people, on_open_board,
                                                                                       published):
    scenario, board, secret = on_open_board
    Scenario.objects.filter(pk=scenario.pk).update(published=published)
    helper = client_of(people["helper"])
    by_id = refusal(repoint(helper, scenario, id=secret.pk), secret.pk)
    assert by_id == refusal(repoint(helper, scenario, id=secret.pk + 1000), secret.pk + 1000)
    assert "Secret" not in str(by_id)
    by_name = refusal(repoint(helper, scenario, name="Secret board"), "Secret board")
    assert by_name == refusal(repoint(helper, scenario, name="No such board"), "No such board")
    assert by_name == refusal(repoint(helper, scenario, name="Open board"), "Open board")  # by id, even published
    scenario.refresh_from_db()
    assert scenario.revision == 1 and scenario.published == published
    assert scenario.document["maps"][0]["id"] == board.pk


def test_an_editor_points_a_scenario_at_a_map_they_may_read(people, on_open_board, make_map):
    scenario, board, secret = on_open_board
    theirs = make_map(people["rival"], published=True, name="Rival's open board")
    assert repoint(client_of(people["helper"]), scenario, id=theirs.pk).status_code == 200
    scenario.refresh_from_db()
    assert scenario.document["maps"][0]["id"] == theirs.pk and scenario.published


def test_a_published_scenario_names_only_published_maps_whoever_edits_it(people, on_open_board):
    scenario, board, secret = on_open_board
    owner = client_of(people["author"])
    refused = refusal(repoint(owner, scenario, id=secret.pk), secret.pk)
    assert "a published scenario names only published maps" in refused[0]
    refused = refusal(repoint(owner, scenario, name="Secret board"), "Secret board")
    assert "a published scenario names only published maps" in refused[0]
    Scenario.objects.filter(pk=scenario.pk).update(published=False)
    assert repoint(owner, scenario, id=secret.pk).status_code == 200  # the owner's own, on a private scenario


def test_an_editor_cannot_restore_a_revision_on_the_owners_private_map(people, on_open_board):
    scenario, board, secret = on_open_board
    Scenario.objects.filter(pk=scenario.pk).update(published=False)
    owner, helper = client_of(people["author"]), client_of(people["helper"])
    assert repoint(owner, scenario, id=secret.pk).status_code == 200  # revision 2, on the secret board
    assert repoint(owner, scenario, id=board.pk).status_code == 200  # revision 3, back on the open one
    restore = helper.post(f"/api/scenarios/{scenario.pk}/revisions/2/restore/", {}, format="json")
    assert restore.status_code == 400, restore.content
    assert f"no map {secret.pk} (or a private map of another user)" in str(restore.json())
    assert owner.post(f"/api/scenarios/{scenario.pk}/revisions/2/restore/", {}, format="json").status_code == 200
