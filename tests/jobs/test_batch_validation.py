"""Batch validation: uploading a file or a zip of community maps, the job's parts checking each file, the report
(JSON and page), opening a file as a map of one's own, who may see what; and the findings of a stored map."""

import io
import time
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from jobs import runner
from jobs.models import Job
from maps.models import Map
from tests.data import COMMUNITY
from tests.data.megamek import BOARDS
from validations.models import BatchFile, BatchValidation
from validations.tasks import check_batch_part, summarise_batch

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "maps" / "samples"


def community_zip():
    """A zip as a designer would make it: maps of several formats with their tilesets, a sample, some junk."""
    picks = {
        "cherry/hex-final.tmx": COMMUNITY / "Yanrishatum+cherry-jam" / "hex-final.tmx",
        "cherry/hex-tileset.tsx": COMMUNITY / "Yanrishatum+cherry-jam" / "hex-tileset.tsx",
        "cherry/hex-tileset.png": COMMUNITY / "Yanrishatum+cherry-jam" / "hex-tileset.png",
        "bevy/maps/hexagonal/finite_flat_top_odd.tmx":
            COMMUNITY / "adrien-bon+bevy_ecs_tiled" / "maps" / "hexagonal" / "finite_flat_top_odd.tmx",
        "bevy/tiles/simple hex flat top.tsx":
            COMMUNITY / "adrien-bon+bevy_ecs_tiled" / "tiles" / "simple hex flat top.tsx",
        "wesnoth/2p_Hamlets.map": COMMUNITY / "cjhopman+Battle-for-Wesnoth-on-Android" / "wesnoth-1.8.5" / "data"
                                  / "multiplayer" / "maps" / "2p_Hamlets.map",
        "hexside/hill-112.json": SAMPLES / "hill-112.json",
        "hexside/oosterbeek-crossroads.json": SAMPLES / "oosterbeek-crossroads.json",
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in picks.items():
            archive.writestr(name, path.read_bytes())
        archive.writestr("megamek/14x14 Ravine.board", BOARDS["14x14 Ravine.board"])
        archive.writestr("hexside/broken.json", b'{"format": "hexside-map", "version": 1, "name": "x"')
    return out.getvalue()


def upload(client, name, data):
    return client.post("/api/validations/", {"file": SimpleUploadedFile(name, data)}, format="multipart")


def run_parts_here(job):
    """Do what the workers would: run each part, then the assembly."""
    for index in range(job.parts_total):
        runner.run_part(None, job.pk, index, check_batch_part)
    runner.run(None, job.pk, summarise_batch)
    job.refresh_from_db()
    return job


# -- without workers -------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_zip_is_checked_file_by_file_and_reported(user, user_client, jobs_isolated, settings):
    settings.HEXSIDE_BATCH_PARTS = 3
    response = upload(user_client, "community.zip", community_zip())
    assert response.status_code == 202, response.content
    body = response.json()
    batch = BatchValidation.objects.get(pk=body["validation"])
    job = Job.objects.get(pk=body["job"])
    assert batch.owner == user and job.kind == "batch-validation" and job.parts_total == 3
    assert body["url"] == f"/api/validations/{batch.pk}/" and body["job_url"] == f"/api/jobs/{job.pk}/"

    assert run_parts_here(job).status == "succeeded", job.error
    report = user_client.get(body["url"]).json()
    files = {f["name"].split("!", 1)[1]: f for f in report["files"]}
    assert report["status"] == "succeeded" and report["progress"] == 100
    assert report["files_total"] == len(report["files"]) == len(files) == 7
    assert files["hexside/hill-112.json"]["verdict"] == "ok" and files["hexside/hill-112.json"]["findings"] == []
    broken = files["hexside/broken.json"]
    assert broken["verdict"] == "invalid" and not broken["can_open"]
    assert broken["findings"][0]["code"] == "bad-json" and "line 1" in broken["findings"][0]["message"]
    tiled = files["cherry/hex-final.tmx"]
    assert tiled["source_format"] == "tiled" and tiled["can_open"]
    # a community map's terrain is checked in the mapping step even when the default mapping fits; a Hexside
    # map opens at once
    assert tiled["mapping_step"] and files["hexside/hill-112.json"]["mapping_step"] is None
    step = user_client.get(tiled["mapping_step"]).content.decode()
    assert 'class="tile-picture"' in step and "data:image/png;base64," in step  # each code with its tile
    for entry in report["files"]:
        assert entry["verdict"] in ("ok", "warnings", "invalid")
        assert (entry["verdict"] == "ok") == (entry["findings"] == [])
        for finding in entry["findings"]:
            assert {"severity", "code", "where", "message", "hex", "side"} <= set(finding)
    assert report["counts"] == {v: sum(f["verdict"] == v for f in report["files"]) for v in ("ok", "warnings",
                                                                                              "invalid")}
    assert job.result == {"validation": batch.pk, "files": 7, **report["counts"]}

    # The download is the same report, as a file.
    download = user_client.get(f"/validations/{batch.pk}/report.json")
    assert download["Content-Disposition"] == f'attachment; filename="validation-{batch.pk}.json"'
    assert download.json()["files"] == report["files"]

    # Opening a file makes a private map of one's own, once.
    index = tiled["index"]
    opened = user_client.post(f"/api/validations/{batch.pk}/files/{index}/open/")
    assert opened.status_code == 201, opened.content
    map = Map.objects.get(pk=opened.json()["map"])
    assert map.owner == user and not map.published and map.grid["orientation"] == "pointy"
    again = user_client.post(f"/api/validations/{batch.pk}/files/{index}/open/")
    assert again.json()["map"] == map.pk and Map.objects.filter(owner=user).count() == 1
    assert user_client.get(opened.json()["findings"]).status_code == 200
    refused = user_client.post(f"/api/validations/{batch.pk}/files/{broken['index']}/open/")
    assert refused.status_code == 400 and refused.json()["errors"][0]["code"] == "no-map"


@pytest.mark.django_db
def test_uploads_are_for_signed_in_users_and_reports_for_their_owner(user, user_client, other_client, api_client,
                                                                     jobs_isolated, settings):
    assert upload(api_client, "m.json", (SAMPLES / "hill-112.json").read_bytes()).status_code in (401, 403)
    response = upload(user_client, "hill-112.json", (SAMPLES / "hill-112.json").read_bytes())
    batch = BatchValidation.objects.get(pk=response.json()["validation"])
    assert other_client.get(f"/api/validations/{batch.pk}/").status_code == 404
    assert other_client.post(f"/api/validations/{batch.pk}/files/0/open/").status_code == 404
    assert api_client.get(f"/api/validations/{batch.pk}/").status_code in (401, 403)
    assert [v["validation"] for v in other_client.get("/api/validations/").json()["validations"]] == []
    assert [v["validation"] for v in user_client.get("/api/validations/").json()["validations"]] == [batch.pk]
    # The job of the upload is the uploader's, on no map: others do not see it either.
    assert other_client.get(f"/api/jobs/{batch.job_id}/").status_code == 404
    # The uploaded file is kept beside the batch, and goes with it.
    storage, stored = batch.upload.storage, batch.upload.name
    assert storage.exists(stored)
    batch.delete()
    assert not storage.exists(stored)


@pytest.mark.django_db
def test_a_missing_empty_or_too_large_upload_is_refused_and_nothing_is_kept(user_client, jobs_isolated, settings):
    settings.HEXSIDE_IMPORT_MAX_BYTES = 1000
    missing = user_client.post("/api/validations/", {}, format="multipart")
    empty = upload(user_client, "e.json", b"")
    large = upload(user_client, "big.zip", b"x" * 1001)
    assert [r.status_code for r in (missing, empty, large)] == [400, 400, 400]
    assert "field 'file'" in missing.json()["file"][0] and "empty" in empty.json()["file"][0]
    assert "at most 1,000 bytes" in large.json()["file"][0]
    assert not BatchValidation.objects.exists() and not Job.objects.exists()


@pytest.mark.django_db
def test_a_zip_bomb_and_an_escaping_path_give_findings_not_crashes(user_client, jobs_isolated, settings):
    settings.HEXSIDE_IMPORT_MAX_ZIP_RATIO = 50
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bomb.json", b" " * 2_000_000)
        archive.writestr("../../escape.json", (SAMPLES / "hill-112.json").read_bytes())
        archive.writestr("good.json", (SAMPLES / "hill-112.json").read_bytes())
    response = upload(user_client, "hostile.zip", out.getvalue())
    job = run_parts_here(Job.objects.get(pk=response.json()["job"]))
    assert job.status == "succeeded", job.error
    rows = list(BatchFile.objects.filter(batch_id=response.json()["validation"]))
    verdicts = {row.name.split("!", 1)[-1]: row.verdict for row in rows}
    assert verdicts.get("good.json") == "ok"
    assert all(v == "invalid" for name, v in verdicts.items() if name != "good.json") and len(verdicts) >= 2
    assert all(row.findings for row in rows if row.verdict == "invalid")


# -- the findings of a stored map -------------------------------------------------------------------------

BROKEN_OST = {"format": "hexside-map", "version": 1, "name": "Broken", "ruleset": "ost",
              "grid": {"orientation": "flat", "columns": 8, "rows": 6, "stagger": "even", "labels": "letter-number"},
              "hexes": [{"hex": "C3", "level": 3}, {"hex": "E4", "terrain": ["road"]}],
              "hexsides": [{"hex": "D3", "side": "N", "terrain": "steep-slope"}]}


@pytest.mark.django_db
def test_findings_of_a_map_name_hex_and_side_and_follow_the_maps_permissions(user, user_client, other_client,
                                                                             api_client):
    from engine import mapfile

    map = Map.objects.create_from_doc(user, mapfile.parse(BROKEN_OST))
    response = user_client.get(f"/api/maps/{map.pk}/findings/")
    assert response.status_code == 200
    found = response.json()["findings"]
    codes = {(f["code"], f["hex"], f["side"]) for f in found}
    assert ("road-isolated", "E4", None) in codes
    assert any(code == "level-step" and hex in ("C3", "C2", "C4", "B3", "D3", "B4", "D4") for code, hex, _ in codes)
    slope = next(f for f in found if f["code"] == "step-hexside")
    assert (slope["hex"], slope["side"]) in (("D2", "S"), ("D3", "N")) and slope["severity"] == "error"
    assert set(slope) >= {"severity", "code", "where", "message", "path"}
    assert other_client.get(f"/api/maps/{map.pk}/findings/").status_code == 404
    assert api_client.get(f"/api/maps/{map.pk}/findings/").status_code == 404
    map.published = True
    map.save()
    assert api_client.get(f"/api/maps/{map.pk}/findings/").json()["findings"] == found

    page = user_client.get(f"/maps/{map.pk}/").content.decode()
    assert 'class="findings-overlay"' in page and 'data-hex="E4"' in page
    assert f'data-hex="{slope["hex"]}" data-side="{slope["side"]}"' in page
    assert "this road hex has no road beside it" in page


# -- with a real worker -----------------------------------------------------------------------------------

@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_two_workers_check_a_batch_in_parts(start_worker, user_client, settings):
    settings.HEXSIDE_BATCH_PARTS = 4
    start_worker("batch-a")
    start_worker("batch-b")
    response = upload(user_client, "community.zip", community_zip())
    assert response.status_code == 202
    url = response.json()["url"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        report = user_client.get(url).json()
        if report["status"] not in ("queued", "running"):
            break
        time.sleep(0.2)
    assert report["status"] == "succeeded", report["message"]
    assert len(report["files"]) == report["files_total"] == 7
    workers = set(Job.objects.get(pk=response.json()["job"]).worker.split("@")[:1])
    assert workers


@pytest.mark.django_db
def test_the_upload_page_says_what_is_wrong_and_is_for_signed_in_users(client, user, jobs_isolated, settings):
    assert client.get("/validations/").status_code == 302  # to sign in
    client.force_login(user)
    settings.HEXSIDE_IMPORT_MAX_BYTES = 10
    page = client.post("/validations/", {"file": SimpleUploadedFile("big.json", b"x" * 11)})
    assert page.status_code == 200 and "at most 10 bytes" in page.content.decode()
    assert not BatchValidation.objects.exists()
    settings.HEXSIDE_IMPORT_MAX_BYTES = 10_000_000
    done = client.post("/validations/", {"file": SimpleUploadedFile("hill.json", (SAMPLES / "hill-112.json")
                                                                    .read_bytes())})
    batch = BatchValidation.objects.get()
    assert done.status_code == 302 and done["Location"] == f"/validations/{batch.pk}/"
    report = client.get(done["Location"]).content.decode()
    assert "Validation of hill.json" in report and "queued" in report
    assert batch.name in client.get("/validations/").content.decode()


# -- a ruleset chosen, findings grouped, a proposed mapping where the default does not fit --------------------

ELEVATION = (COMMUNITY / "wesnoth+wesnoth" / "data" / "multiplayer" / "maps" / "3p_Elevation_Example.map")


@pytest.mark.django_db
def test_a_batch_is_converted_to_the_ruleset_chosen_with_findings_grouped_and_a_proposed_mapping(
        user, user_client, jobs_isolated, client):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("3p_Elevation_Example.map", ELEVATION.read_bytes())
        archive.writestr("14x14 Ravine.board", BOARDS["14x14 Ravine.board"])
    response = user_client.post("/api/validations/", {"file": SimpleUploadedFile("two.zip", out.getvalue()),
                                                      "ruleset": "tocs"}, format="multipart")
    assert response.status_code == 202, response.content
    batch = BatchValidation.objects.get(pk=response.json()["validation"])
    assert batch.ruleset == "tocs"
    assert run_parts_here(Job.objects.get(pk=response.json()["job"])).status == "succeeded"
    report = user_client.get(response.json()["url"]).json()
    assert report["ruleset"] == "tocs"
    files = {f["name"].split("!", 1)[1]: f for f in report["files"]}
    wesnoth, ravine = files["3p_Elevation_Example.map"], files["14x14 Ravine.board"]
    for entry in (wesnoth, ravine):
        # the default mapping does not fit (codes it lacks, levels out of range): converted with a proposal
        assert entry["can_open"] and entry["verdict"] != "invalid", entry["groups"]
        codes = [g["code"] for g in entry["groups"]]
        assert "proposed-mapping" in codes and len(codes) == len(set(codes))  # one line per kind
        assert sum(g["count"] for g in entry["groups"]) == entry["errors"] + entry["warnings"]
        proposal = user_client.get(entry["mapping"])
        assert proposal.status_code == 200 and proposal.json()["ruleset"] == "tocs"
        assert "attachment" in proposal["Content-Disposition"]
    left_open = next(g for g in wesnoth["groups"] if g["code"] == "terrain-left-open")
    assert left_open["count"] >= 1 and left_open["hexes"]
    assert client.get(wesnoth["mapping"]).status_code == 302  # another visitor: to the sign-in page

    page = user_client.get(f"/validations/{batch.pk}/").content.decode()
    assert "Download the proposed mapping" in page and "Converted to tocs" in page
    # Opening it says which codes were left open rather than silently making them open ground.
    opened = user_client.post(f"/validations/{batch.pk}/files/{wesnoth['index']}/open/", follow=True)
    map = Map.objects.get(owner=user)
    assert map.ruleset == "tocs"
    assert "left open" in opened.content.decode()


@pytest.mark.django_db
def test_an_unknown_ruleset_is_refused_by_its_field(user_client, jobs_isolated):
    response = user_client.post("/api/validations/", {"file": SimpleUploadedFile("a.board", BOARDS[
        "14x14 Ravine.board"]), "ruleset": "chess"}, format="multipart")
    assert response.status_code == 400 and "ruleset" in response.json()
    assert not BatchValidation.objects.exists()


@pytest.mark.django_db
def test_a_vassal_board_opened_from_a_batch_keeps_its_board_image(user, user_client, jobs_isolated):
    from maps import scans

    template = COMMUNITY / "jzedwards+vassal-hex-n-counters-template" / "template"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("module/buildFile.xml", (template / "buildFile.xml").read_bytes())
        archive.writestr("module/images/map.jpg", (template / "images" / "map.jpg").read_bytes())
    response = upload(user_client, "module.zip", out.getvalue())
    assert response.status_code == 202, response.content
    assert run_parts_here(Job.objects.get(pk=response.json()["job"])).status == "succeeded"
    row = BatchFile.objects.get(batch_id=response.json()["validation"])
    assert row.board and row.document["background"]["image"] == row.board.name.rsplit("/", 1)[-1]
    opened = user_client.post(f"/api/validations/{row.batch_id}/files/{row.index}/open/")
    assert opened.status_code == 201, opened.content
    map = Map.objects.get(pk=opened.json()["map"])
    name = map.mapdoc().background["image"]
    path = scans.path_of(map.pk, name)
    assert path is not None and path.read_bytes()[:2] == b"\xff\xd8"  # the board, a JPEG, beside the map
    assert map.scan_bytes == path.stat().st_size
    assert user_client.get(f"/api/maps/{map.pk}/background/").status_code == 200
