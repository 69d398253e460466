"""The documents base as maps and scenarios use it: jobs answer about the content they were asked, revisions are
stored as changes with snapshots and read back whole, and downloads carry the document's own name."""

import pytest

from authoring import models as scenarios
from authoring.tasks import answer_checks, checks_result
from documents import models as documents
from engine import edits, mapfile
from engine.los import engine
from jobs import runner
from jobs.models import Job
from maps.models import Map, MapRevision, apply_edits, restore_revision
from maps.tasks import answer_los

pytestmark = pytest.mark.django_db


def woods(*hexes):
    return [{"op": "set_terrain", "hexes": list(hexes), "terrain": ["woods"]}]


def test_a_los_job_queued_before_an_edit_answers_about_the_map_it_was_asked(user, user_map):
    asked = mapfile.parse(user_map.document)
    job = Job.objects.create(kind="los", subject_type="map", subject_id=user_map.pk,
                             content_hash=user_map.content_hash,
                             request_key="asked", parameters={"from": "A1", "to": "J8"})
    apply_edits(user_map.pk, user, None, woods(*[[c, r] for c in range(1, 9) for r in range(8)]))
    edited = Map.objects.get(pk=user_map.pk)
    expected = engine.line_of_sight(engine.compile_map(asked), "A1", "J8").as_dict()
    assert engine.line_of_sight(engine.compile_map(edited.mapdoc()), "A1", "J8").as_dict() != expected

    documents.forget_states()  # as a worker process would: nothing in memory
    runner.run(None, job.pk, answer_los)
    job.refresh_from_db()
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert job.result == expected


def test_a_scenario_checks_job_queued_before_an_edit_answers_about_the_scenario_it_was_asked(user, user_client,
                                                                                              user_map):
    created = user_client.post("/api/scenarios/", {"title": "Asked", "map": user_map.pk}, format="json").json()
    scenario = scenarios.Scenario.objects.get(pk=created["id"])
    asked = checks_result(scenario.scenariodoc())
    job = Job.objects.create(kind="scenario-checks", subject_type="scenario", subject_id=scenario.pk,
                             content_hash=scenario.content_hash, request_key="asked", requested_by=user,
                             parameters={"scenario": scenario.pk, "content_hash": scenario.content_hash,
                                         "maps": [["main", user_map.pk, user_map.content_hash]]})
    scenarios.apply_edits(scenario.pk, user, None, [
        {"op": "insert", "path": "sides", "value": {"id": "blue", "name": "Blue", "oob": [
            {"id": "sq", "unit": "Rifle Squad", "count": 3}]}},
        {"op": "insert", "path": "sides", "value": {"id": "red", "name": "Red", "oob": [
            {"id": "sq", "unit": "Rifle Squad", "count": 2}]}}])
    scenario.refresh_from_db()
    assert checks_result(scenario.scenariodoc()) != asked

    documents.forget_states()
    runner.run(None, job.pk, answer_checks)
    job.refresh_from_db()
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert job.result == asked


def test_a_scenario_with_a_non_latin_title_downloads_under_its_own_name(user_client, user_map):
    created = user_client.post("/api/scenarios/", {"title": "Штурм высоты 112", "map": user_map.pk},
                               format="json").json()
    response = user_client.get(created["links"]["export"])
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        "attachment; filename=\"112.json\"; "
        "filename*=utf-8''%D1%88%D1%82%D1%83%D1%80%D0%BC-%D0%B2%D1%8B%D1%81%D0%BE%D1%82%D1%8B-112.json")


def test_a_latin_map_name_downloads_with_a_plain_filename(user_client, user_map):
    response = user_client.get(f"/api/maps/{user_map.pk}/export/")
    assert response["Content-Disposition"] == 'attachment; filename="designer-s-own.json"'


def test_revisions_are_stored_as_changes_with_a_snapshot_every_so_often_and_each_reads_back_whole(user, user_map):
    expected = {1: user_map.document}
    for n in range(2, documents.SNAPSHOT_EVERY + 5):
        revision = apply_edits(user_map.pk, user, None, woods([n % 10, n % 8]) if n % 3 else
                               [{"op": "clear_hexes", "hexes": [[n % 10, (n + 1) % 8]]},
                                {"op": "set_hexside", "hex": [n % 10, 2], "side": "N", "terrain": "hedge"}])
        expected[n] = mapfile.to_dict(revision.map.mapdoc())
    stored = dict(MapRevision.objects.filter(map=user_map).values_list("number", "snapshot"))
    snapshots = sorted(number for number, snapshot in stored.items() if snapshot is not None)
    assert snapshots == [1, 1 + documents.SNAPSHOT_EVERY]  # reading any revision replays at most 49 changes
    documents.forget_states()
    map = Map.objects.get(pk=user_map.pk)
    for number, document in expected.items():
        assert map.document_at(number) == document
        assert map.revisions.get(number=number).content_hash == mapfile.content_hash(edits.load(document))
    assert map.export() == mapfile.dumps(edits.load(expected[max(expected)]))


def test_a_restored_revision_is_a_snapshot_with_the_old_content(user, user_map):
    first = user_map.content_hash
    apply_edits(user_map.pk, user, None, woods("A1", "B2"))
    restored = restore_revision(user_map.pk, user, 1)
    assert restored.snapshot is not None and restored.content_hash == first
    map = Map.objects.get(pk=user_map.pk)
    assert map.content_at(first) == map.document_at(1) == map.document


def test_an_edit_on_a_stale_revision_is_refused_with_the_current_one(user_client, user_map):
    for revision, status in ((1, 200), (1, 409)):
        response = user_client.post(f"/api/maps/{user_map.pk}/edits/",
                                    {"revision": revision, "operations": woods("C3")}, format="json")
        assert response.status_code == status
    assert response.json()["revision"] == 2
