"""Maps and their revisions, custom rulesets, load_samples and the admin."""

import copy
import json
import threading
from io import StringIO

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import override_settings

from documents.models import unpack
from engine import edits, mapfile, rulesets
from jobs import runner
from jobs.models import Job
from maps.custom_rulesets import forget_custom_rulesets
from maps.models import (
    CustomRuleset,
    Map,
    MapRevision,
    StaleRevision,
    apply_edits,
    restore_revision,
)
from maps.state import written
from maps.tasks import draw_map_image

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_custom_rulesets_afterwards():
    """Custom rulesets registered by a test must not outlive it: other tests count the rulesets."""
    yield
    forget_custom_rulesets()


# -- maps and revisions ----------------------------------------------------------------------------------

def test_a_new_map_is_revision_one(make_map, user, map_document):
    map = make_map(user)
    doc = mapfile.parse(map_document)
    assert map.revision == 1 and map.owner == user and map.published is False
    assert map.document == mapfile.to_dict(doc) and map.grid == doc.grid.as_dict()
    assert map.content_hash == mapfile.content_hash(doc)
    (first,) = map.revisions.all()
    assert (first.number, first.author, first.summary, first.content_hash) == (1, user, "created", map.content_hash)
    assert map.export() == mapfile.dumps(doc)


def test_written_is_the_canonical_document_its_hash_and_its_compressed_form(map_document):
    doc = mapfile.parse(map_document)
    document, content_hash, packed = written(doc)
    assert (document, content_hash) == (mapfile.to_dict(doc), mapfile.content_hash(doc))
    assert unpack(packed) == document


def test_edits_make_a_revision_and_keep_the_old_one(make_map, user):
    map = make_map(user)
    revision = apply_edits(map.pk, user, 1, [{"op": "set_level", "hexes": ["A1"], "level": 3}])
    map.refresh_from_db()
    assert revision.number == map.revision == 2 and revision.map == map
    assert map.revisions.get(number=1).document != map.document
    assert mapfile.parse(map.document).hexes[(0, 0)].level == 3


def test_refused_edits_write_nothing(make_map, user):
    map = make_map(user)
    with pytest.raises(StaleRevision) as stale:
        apply_edits(map.pk, user, 5, [{"op": "set_level", "hexes": ["A1"], "level": 3}])
    assert stale.value.current == 1
    with pytest.raises(edits.EditError):
        apply_edits(map.pk, user, 1, [{"op": "set_level", "hexes": ["A1"], "level": 3},
                                      {"op": "set_level", "hexes": ["A1"], "level": 30}])
    map.refresh_from_db()
    assert map.revision == 1 and MapRevision.objects.filter(map=map).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_edits_of_the_same_revision_at_once_one_wins(make_map, user):
    if connection.vendor != "postgresql":
        pytest.skip("needs row locks: run with DATABASE_URL=postgres://...")
    map = make_map(user)
    start = threading.Barrier(2)
    outcomes = []

    def edit(level):
        try:
            start.wait()
            apply_edits(map.pk, user, 1, [{"op": "set_level", "hexes": ["A1"], "level": level}])
            outcomes.append("applied")
        except StaleRevision as exc:
            outcomes.append(f"stale at {exc.current}")
        finally:
            connection.close()

    threads = [threading.Thread(target=edit, args=(level,)) for level in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["applied", "stale at 2"]
    map.refresh_from_db()
    assert map.revision == 2 and map.revisions.count() == 2


def test_restore_is_a_new_revision(make_map, user):
    map = make_map(user)
    apply_edits(map.pk, user, 1, [{"op": "rename", "name": "Second"}])
    restored = restore_revision(map.pk, user, 1)
    map.refresh_from_db()
    assert restored.number == 3 and map.name == "Hill 112" and map.document["name"] == "Hill 112"
    assert [r.summary for r in map.revisions.all()] == ["restored revision 1", "rename to 'Second'", "created"]


def test_visible_to(make_map, user, other_user):
    own = make_map(user, name="own")
    published = make_map(other_user, published=True, name="published")
    make_map(other_user, name="private")
    assert set(Map.objects.visible_to(user)) == {own, published}
    assert set(Map.objects.visible_to(AnonymousUser())) == {published}


def test_export_file_name(make_map, user):
    assert make_map(user, name="Hill 112 / Cote 112").filename() == "hill-112---cote-112.json"
    assert make_map(user, name="???").filename() == "map.json"


# -- custom rulesets -------------------------------------------------------------------------------------

def custom_data(**changes):
    data = {
        "id": "ost-desert",
        "name": "Old School Tactical, desert",
        "base": "ost",
        "extends_base": True,
        "terrain": [
            {"id": "dunes", "name": "Dunes", "layer": "hex", "los": "hindering", "height": 0, "obstacle": "low",
             "movement": {"foot": 2, "wheeled": 3, "tracked": 2}, "cover": 1, "rule": "house rule 1"},
        ],
    }
    data.update(changes)
    return data


def test_a_good_custom_ruleset_is_registered_and_usable(user, user_client):
    custom = CustomRuleset(owner=user, data=custom_data())
    custom.full_clean()
    assert custom.slug == "ost-desert"  # taken from the data
    custom.save()
    assert "dunes" in rulesets.get("ost-desert").terrain_ids("hex")

    listed = {r["id"]: r for r in user_client.get("/api/rulesets/").json()}
    assert listed["ost-desert"]["custom"] is True and listed["ost"]["custom"] is False
    assert user_client.get("/api/rulesets/ost-desert/").json()["ruleset"]["name"] == "Old School Tactical, desert"

    document = {"format": "hexside-map", "version": 1, "name": "Desert", "ruleset": "ost-desert",
                "grid": {"orientation": "flat", "columns": 5, "rows": 5, "stagger": "even", "labels": "xxyy"},
                "hexes": [{"hex": "0101", "terrain": ["dunes"]}]}
    assert user_client.post("/api/maps/import/", document, format="json").status_code == 201

    custom.delete()
    with pytest.raises(KeyError):
        rulesets.get("ost-desert")


def test_a_bad_custom_ruleset_is_refused_naming_the_paths():
    bad = custom_data(terrain=[{"id": "Dunes!", "name": "Dunes", "layer": "sky", "los": "clear", "height": 0,
                                "movement": {}, "cover": 0, "rule": "x"}], level_min="low")
    custom = CustomRuleset(data=bad)
    with pytest.raises(ValidationError) as caught:
        custom.full_clean()
    messages = caught.value.message_dict["data"]
    assert len(messages) >= 3
    assert any("terrain[0].id" in m for m in messages)
    assert any("terrain[0].layer" in m for m in messages)
    assert any("level_min" in m for m in messages)


def test_a_custom_ruleset_cannot_take_a_built_in_id_or_another_id_than_its_data():
    with pytest.raises(ValidationError) as caught:
        CustomRuleset(slug="ost", data=custom_data(id="ost")).full_clean()
    assert "built-in" in str(caught.value)
    with pytest.raises(ValidationError) as caught:
        CustomRuleset(slug="something-else", data=custom_data()).full_clean()
    assert "slug" in caught.value.message_dict


def test_ruleset_files_in_the_rulesets_folder_are_registered(settings, tmp_path, caplog):
    settings.HEXSIDE_RULESETS_DIR = tmp_path
    (tmp_path / "ost-winter.json").write_text(json.dumps(custom_data(id="ost-winter")))
    (tmp_path / "broken.json").write_text(json.dumps(custom_data(id="broken", base="chess")))
    assert rulesets.get("ost-winter").base == "ost"  # found at its first lookup: nothing to call first
    with pytest.raises(KeyError):
        rulesets.get("broken")
    assert "broken.json" in caplog.text

    (tmp_path / "ost-winter.json").unlink()
    with pytest.raises(KeyError):
        rulesets.get("ost-winter")


def test_a_saved_ruleset_wins_over_a_file_of_the_same_id(settings, tmp_path):
    settings.HEXSIDE_RULESETS_DIR = tmp_path
    (tmp_path / "ost-desert.json").write_text(json.dumps(custom_data(name="From the file")))
    assert rulesets.get("ost-desert").name == "From the file"
    CustomRuleset.objects.create(slug="ost-desert", data=custom_data(name="From the admin"))
    assert rulesets.get("ost-desert").name == "From the admin"


# -- load_samples ----------------------------------------------------------------------------------------

def run_load_samples(**options):
    out, err = StringIO(), StringIO()
    try:
        call_command("load_samples", stdout=out, stderr=err, **options)
    except CommandError as exc:
        return out.getvalue(), err.getvalue(), exc
    return out.getvalue(), err.getvalue(), None


def test_load_samples_creates_then_leaves_alone_then_updates(settings, tmp_path, map_document):
    settings.SAMPLES_DIR = tmp_path
    (tmp_path / "hill.json").write_text(json.dumps(map_document))
    other = copy.deepcopy(map_document)
    other["name"] = "Second sample"
    (tmp_path / "second.json").write_text(json.dumps(other))

    out, _, error = run_load_samples()
    assert error is None and "created 'Hill 112'" in out and "2 created" in out
    maps = Map.objects.filter(owner__username="samples")
    assert maps.count() == 2 and all(m.published for m in maps)
    assert not maps[0].owner.has_usable_password()

    out, _, error = run_load_samples()
    assert error is None and "2 unchanged" in out
    assert set(maps.values_list("revision", flat=True)) == {1}

    map_document["hexes"].append({"hex": "A1", "terrain": ["woods"]})
    (tmp_path / "hill.json").write_text(json.dumps(map_document))
    out, _, error = run_load_samples()
    assert error is None and "updated 'Hill 112' (revision 2)" in out and "1 unchanged" in out
    hill = maps.get(name="Hill 112")
    assert hill.content_hash == mapfile.content_hash(mapfile.parse(map_document))
    assert hill.revisions.get(number=2).summary == "updated from hill.json"


def test_load_samples_reports_a_bad_file_and_loads_the_others(settings, tmp_path, map_document):
    settings.SAMPLES_DIR = tmp_path
    (tmp_path / "good.json").write_text(json.dumps(map_document))
    bad = copy.deepcopy(map_document)
    bad["hexes"][0]["terrain"] = ["lava"]
    bad["hexes"][1]["hex"] = "Z99"
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    out, err, error = run_load_samples()
    assert error is not None and "bad.json" in str(error)
    assert "bad.json: 2 problems" in err and "hexes[0].terrain[0] (C4)" in err and "hexes[1].hex (Z99)" in err
    assert "Traceback" not in err
    assert list(Map.objects.values_list("name", flat=True)) == ["Hill 112"]


def test_the_shipped_samples_load(settings):
    files = sorted(settings.SAMPLES_DIR.glob("*.json"))
    out, err, error = run_load_samples()
    assert error is None, err
    assert f"{len(files)} created" in out
    assert Map.objects.filter(owner__username="samples", published=True).count() == len(files)


# -- admin -----------------------------------------------------------------------------------------------

def test_admin_pages(admin_client, make_map, user):
    map = make_map(user)
    custom = CustomRuleset.objects.create(slug="ost-desert", data=custom_data())
    for url in ("/admin/maps/map/", f"/admin/maps/map/{map.pk}/change/", "/admin/maps/maprevision/",
                f"/admin/maps/maprevision/{map.revisions.get().pk}/change/", "/admin/maps/customruleset/",
                f"/admin/maps/customruleset/{custom.pk}/change/", "/admin/maps/customruleset/add/"):
        assert admin_client.get(url).status_code == 200, url
    assert admin_client.get("/admin/maps/map/add/").status_code == 403


def test_admin_refuses_a_bad_ruleset_and_saves_a_good_one(admin_client):
    bad = custom_data(terrain=[{"id": "dunes", "name": "Dunes", "layer": "sky", "los": "clear", "height": 0,
                                "movement": {}, "cover": 0, "rule": "x"}])
    response = admin_client.post("/admin/maps/customruleset/add/", {"slug": "", "data": json.dumps(bad)})
    assert response.status_code == 200
    assert "terrain[0].layer" in response.content.decode()
    assert not CustomRuleset.objects.exists()

    response = admin_client.post("/admin/maps/customruleset/add/", {"slug": "", "data": json.dumps(custom_data())})
    assert response.status_code == 302
    assert CustomRuleset.objects.get().slug == "ost-desert"
    assert rulesets.get("ost-desert").name == "Old School Tactical, desert"


def test_every_entry_point_finds_a_custom_ruleset_in_a_fresh_process(client, user, make_map, tmp_path):
    """Issue 7 point 9: nothing has to be called first. forget_custom_rulesets() leaves this process as a fresh
    one finds it: no custom ruleset read; the row was saved by another process (a queryset create runs no hook)."""
    CustomRuleset.objects.create(slug="ost-desert", owner=user, data=custom_data())
    desert = make_map(user, ruleset="ost-desert", hexes=[{"hex": "C4", "terrain": ["dunes"]}],
                      overlays=[], hexsides=[])
    forget_custom_rulesets()

    client.force_login(user)
    # A media folder of its own: a picture of the same content drawn by an earlier run would be served at once.
    with override_settings(HEXSIDE_MAP_IMAGE_WAIT_SECONDS=0, MEDIA_ROOT=str(tmp_path / "media")):
        image = client.get(f"/maps/{desert.pk}/map.png")  # the page that answered 500 in a fresh process
        assert image.status_code == 202  # queued: the web process draws no map (issue 7 point 2)
        job = Job.objects.get(kind="map-image", subject_type="map", subject_id=desert.pk)
        forget_custom_rulesets()  # the worker that draws it is a fresh process too
        taken = runner.take(job.pk, "test pid 0")
        assert runner.finish(taken, runner.Outcome(draw_map_image(taken)))
        image = client.get(f"/maps/{desert.pk}/map.png")
        assert image.status_code == 200 and b"".join(image.streaming_content).startswith(b"\x89PNG")

    forget_custom_rulesets()
    path = tmp_path / "desert.json"
    path.write_text(mapfile.dumps(desert.mapdoc()))
    out = StringIO()
    call_command("los", str(path), "B4", "D4", "--json", stdout=out)  # a management command
    assert json.loads(out.getvalue())["reasons"][0]["terrain"] == "dunes"

    forget_custom_rulesets()
    listed = client.get("/api/rulesets/ost-desert/")  # the API
    assert listed.status_code == 200 and listed.json()["custom"] is True


def test_a_worker_recompiles_a_map_whose_custom_ruleset_changed(user, make_map):
    from jobs.models import Job
    from maps.tasks import compiled_for

    custom = CustomRuleset.objects.create(slug="ost-desert", owner=user, data=custom_data())
    desert = make_map(user, ruleset="ost-desert", hexes=[{"hex": "C4", "terrain": ["dunes"]}], overlays=[],
                      hexsides=[])
    job = Job.objects.create(kind="los", subject_type="map", subject_id=desert.pk, content_hash=desert.content_hash,
                             request_key="k", parameters={})
    first = compiled_for(job)
    assert compiled_for(job) is first  # unchanged: the cached one
    data = custom_data()
    data["terrain"][0]["los"] = "blocking"
    custom.data = data
    custom.save()
    again = compiled_for(job)
    assert again is not first and again.catalogue.get("dunes")["los"] == "blocking"
