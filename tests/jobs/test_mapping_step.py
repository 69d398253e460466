"""The mapping step of a checked batch file: its page lists the source codes with the proposal, a preview job
draws the map a mapping gives (writing nothing), confirming converts the file again with it and opens it as the
designer's map, and the mapping is kept with the account, offered again for the same source and downloadable."""

import base64
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from engine import importers
from jobs import runner
from jobs.models import Job
from maps.models import Map
from tests.jobs.test_batch_validation import run_parts_here
from validations.models import BatchFile, SavedMapping
from validations.tasks import mapping_step_work

pytestmark = pytest.mark.django_db

# A Wesnoth map (a border of one all round): Zz is a code nothing fits, so it is proposed left open and flagged.
WESNOTH = b"""Gg, Gg, Gg, Gg, Gg, Gg
Gg, Gg, Zz, Gs^Fp, Gg, Gg
Gg, Hh, Zz, Ww, Gg, Gg
Gg, Gg, Gg, Gg, Zz, Gg
Gg, Gg, Gg, Gg, Gg, Gg
"""


def checked_file(client, name="rivers.map", data=WESNOTH):
    response = client.post("/api/validations/", {"file": SimpleUploadedFile(name, data), "ruleset": "ost"},
                           format="multipart")
    assert response.status_code == 202, response.content
    assert run_parts_here(Job.objects.get(pk=response.json()["job"])).status == "succeeded"
    return BatchFile.objects.get(batch_id=response.json()["validation"])


def choices(row, **terrain):
    """The page's form as it stands with the proposal, with some codes changed."""
    from validations.mapsteps import choice_of

    chosen = {code: choice_of(entry) for code, entry in row.mapping["terrain"].items()}
    return {"terrain": {**chosen, **terrain}, "scale": 1, "offset": 0}


def run_job(answer):
    job = Job.objects.get(pk=answer.json()["job"])
    runner.run(None, job.pk, mapping_step_work)
    job.refresh_from_db()
    return job


def terrain_of(map, label):
    hexes = {h["hex"]: h for h in json.loads(map.export())["hexes"]}
    return hexes.get(label, {}).get("terrain", ["open"])


def test_the_report_opens_a_proposed_file_through_its_mapping_page(user, user_client, jobs_isolated):
    row = checked_file(user_client)
    assert row.mapping and row.mapping["terrain"]["Zz"]["flag"]
    report = user_client.get(f"/api/validations/{row.batch_id}/").json()["files"][0]
    step = f"/validations/{row.batch_id}/files/{row.index}/mapping/"
    assert report["mapping_step"] == step
    page = user_client.get(f"/validations/{row.batch_id}/").content.decode()
    assert f'href="{step}">Open as my map' in page.replace('class="button" ', "")

    page = user_client.get(step).content.decode()
    assert "<code>Zz</code>" in page and "leave as open, and flag it" in page
    assert 'class="flagged"' in page  # Zz, proposed open and flagged, is marked
    assert 'value="woods"' in page and "0201, 0202" in page  # the ruleset's terrains; Zz's example hexes
    assert "The source's elevations run from 0 to 0" in page  # Wesnoth has none: its hills get a level


def test_a_preview_draws_the_mapping_and_writes_nothing(user, user_client, other_client, jobs_isolated):
    row = checked_file(user_client)
    before = (row.document, row.mapping, row.findings)
    url = f"/api/validations/{row.batch_id}/files/{row.index}/preview/"
    flagged = run_job(user_client.post(url, choices(row), format="json"))
    woods = run_job(user_client.post(url, choices(row, Zz="woods"), format="json"))
    assert flagged.status == woods.status == "succeeded", (flagged.error, woods.error)
    codes = {g["code"] for g in flagged.result["groups"]}
    assert "terrain-left-open" in codes
    assert "terrain-left-open" not in {g["code"] for g in woods.result["groups"]}
    assert woods.result["hexes"] == 4 * 3
    pictures = [Image.open(io.BytesIO(base64.b64decode(j.result["image"].split(",", 1)[1]))) for j in (flagged, woods)]
    assert pictures[0].size == pictures[1].size and pictures[0].tobytes() != pictures[1].tobytes()

    row.refresh_from_db()
    assert (row.document, row.mapping, row.findings) == before
    assert not Map.objects.exists() and not SavedMapping.objects.exists()
    assert other_client.post(url, choices(row), format="json").status_code == 404


def test_bad_choices_are_refused_naming_the_code(user, user_client, jobs_isolated):
    row = checked_file(user_client)
    url = f"/api/validations/{row.batch_id}/files/{row.index}/preview/"
    answer = user_client.post(url, choices(row, Zz="lava"), format="json")
    assert answer.status_code == 400
    error = answer.json()["errors"][0]
    assert error["path"] == "terrain" and "'Zz'" in error["message"] and "'lava'" in error["message"]
    answer = user_client.post(url, {**choices(row), "terrain": {"Qq": "woods"}}, format="json")
    assert answer.status_code == 400 and "Qq" in answer.json()["errors"][0]["message"]
    answer = user_client.post(url, {**choices(row), "scale": "big"}, format="json")
    assert answer.status_code == 400 and answer.json()["errors"][0]["path"] == "scale"
    assert not Job.objects.filter(kind="mapping-step").exists()


def test_confirming_opens_the_map_with_the_chosen_terrain_and_keeps_the_mapping(user, user_client, jobs_isolated):
    row = checked_file(user_client)
    url = f"/api/validations/{row.batch_id}/files/{row.index}/confirm/"
    job = run_job(user_client.post(url, choices(row, Zz="woods"), format="json"))
    assert job.status == "succeeded", job.error
    map = Map.objects.get(owner=user, pk=job.result["map"])
    assert job.result["edit"] in (f"/maps/{map.pk}/edit/", f"/maps/{map.pk}/")
    assert all(terrain_of(map, label) == ["woods"] for label in row.mapping["terrain"]["Zz"]["hexes"])
    row.refresh_from_db()
    assert row.map_id == map.pk and row.mapping["terrain"]["Zz"]["terrain"] == "woods"
    assert "terrain-left-open" not in {g["code"] for g in row.groups}

    # The mapping is kept with the account and offered for a file with the same codes, filled in.
    saved = SavedMapping.objects.get(owner=user)
    assert saved.source == "wesnoth" and "Zz" in saved.keys
    again = checked_file(user_client, "rivers-copy.map")
    page = user_client.get(f"/validations/{again.batch_id}/files/{again.index}/mapping/").content.decode()
    assert "Your mapping saved for rivers.map" in page
    zz = page[page.index('data-code="Zz"'):]
    assert '<option value="woods" selected>' in zz[:zz.index("</select>")]
    assert "Start from the proposal instead" in page
    fresh = user_client.get(f"/validations/{again.batch_id}/files/{again.index}/mapping/?saved=no").content.decode()
    zz = fresh[fresh.index('data-code="Zz"'):]
    assert '<option value="" selected>' in zz[:zz.index("</select>")]

    listed = user_client.get("/validations/").content.decode()
    assert "Your kept mappings" in listed and f'href="/validations/mappings/{saved.pk}.json"' in listed

    # ... and downloads as the mapping file import_map --mapping reads: the same woods.
    download = user_client.get(f"/validations/mappings/{saved.pk}.json")
    assert download.status_code == 200 and "attachment" in download["Content-Disposition"]
    result = importers.convert("rivers.map", WESNOTH, ruleset="ost", mapping=download.json())
    assert result.ok, [f.message for f in result.findings]
    hexes = {h["hex"]: h.get("terrain") for h in result.doc["hexes"]}
    assert hexes["0201"] == ["woods"]


def test_the_mapping_read_from_the_choices_downloads_and_imports(user, user_client, other_client, jobs_isolated):
    row = checked_file(user_client)
    url = f"/api/validations/{row.batch_id}/files/{row.index}/mapping/"
    answer = user_client.post(url, choices(row, Zz="brush", Hh="woods"), format="json")
    assert answer.status_code == 200
    mapping = answer.json()
    assert mapping["terrain"]["Zz"]["reason"] == "chosen by the designer"
    assert mapping["terrain"]["Hh"]["level"] == 1  # the proposal's level stays with the code
    result = importers.convert("rivers.map", WESNOTH, ruleset="ost", mapping=mapping)
    assert result.ok
    hexes = {h["hex"]: h for h in result.doc["hexes"]}
    assert hexes["0201"]["terrain"] == ["brush"] and hexes["0102"] == {"hex": "0102", "terrain": ["woods"],
                                                                       "level": 1}
    assert other_client.post(url, choices(row), format="json").status_code == 404
    assert user_client.get(f"/validations/mappings/{9999}.json").status_code == 404


def test_levels_out_of_range_are_proposed_a_scale_and_an_edited_one_is_previewed(user, user_client, jobs_isolated):
    from tests.data.megamek import BOARDS

    row = checked_file(user_client, "14x14 Ravine.board", BOARDS["14x14 Ravine.board"])
    levels = row.mapping["levels"]
    low, high = levels["source_range"]
    assert low < -1 and levels["confidence"] < 1  # Ravine goes below OST's -1: shifted or compressed
    page = user_client.get(f"/validations/{row.batch_id}/files/{row.index}/mapping/").content.decode()
    assert f"The source's elevations run from {low} to {high}" in page
    assert f'id="level-offset" step="any" value="{levels["offset"]}"' in page

    url = f"/api/validations/{row.batch_id}/files/{row.index}/preview/"
    proposed = run_job(user_client.post(url, {**choices(row), "scale": levels["scale"], "offset": levels["offset"]},
                                        format="json"))
    as_is = run_job(user_client.post(url, {**choices(row), "scale": 1, "offset": 0}, format="json"))
    assert proposed.status == as_is.status == "succeeded"
    assert "level-out-of-range" not in {g["code"] for g in proposed.result["groups"]}
    out = next(g for g in as_is.result["groups"] if g["code"] == "level-out-of-range")
    assert out["severity"] == "error" and out["hexes"]


def test_a_kept_mapping_is_offered_for_the_same_codes_or_the_same_tilesets_and_only_to_its_owner(
        user, other_user):
    mapping = {"source": "tiled", "ruleset": "ost", "terrain": {"hex mini#0": "woods", "hex mini#3": "open"}}
    saved = SavedMapping.keep(user, "forest.tmx", "tiled", "ost", mapping)
    assert saved.tilesets == ["hex mini"]
    assert SavedMapping.offered(user, "tiled", "ost", ["hex mini#3", "hex mini#0"]) == saved  # the same codes
    assert SavedMapping.offered(user, "tiled", "ost", ["hex mini#7", "grass"]) == saved  # the same tileset
    assert SavedMapping.offered(user, "tiled", "ost", ["grass", "water"]) is None
    assert SavedMapping.offered(user, "tiled", "tocs", ["hex mini#0", "hex mini#3"]) is None  # another game
    assert SavedMapping.offered(other_user, "tiled", "ost", ["hex mini#0", "hex mini#3"]) is None
    again = SavedMapping.keep(user, "forest-2.tmx", "tiled", "ost", {**mapping, "levels": {"scale": 2}})
    assert again.pk == saved.pk and SavedMapping.objects.count() == 1  # confirming again replaces it


def megamek_town(columns=6, rows=5):
    """A MegaMek board with a heavy building of 6 storeys in 0303 (bldg_elev:6): legal in the map format, too tall
    for OST (at most 4 storeys, OST 12.6.1)."""
    lines = [f"size {columns} {rows}"]
    for y in range(1, rows + 1):
        for x in range(1, columns + 1):
            terrain = "building:2;bldg_elev:6" if (x, y) == (3, 3) else ("woods:1" if x == 5 else "")
            lines.append(f'hex {x:02d}{y:02d} 0 "{terrain}" ""')
    return ("\n".join(lines) + "\nend\n").encode()


def test_the_preview_finds_what_the_report_finds_and_storeys_are_lowered_by_the_mapping(
        user, user_client, jobs_isolated):
    """Issue 32, bug 9: the preview runs the report's own map checks (a 6-storey Heavy Structure is an error in
    both), and the mapping step's storeys control lowers taller buildings."""
    row = checked_file(user_client, "town.board", megamek_town())
    reported = {f["code"] for f in row.findings if f["severity"] == "error"}
    assert "building-storeys" in reported and row.mapping["storeys"]["tallest"] == 6
    page = user_client.get(f"/validations/{row.batch_id}/files/{row.index}/mapping/").content.decode()
    assert 'id="storeys-most"' in page and "tallest building has 6 storeys" in page

    url = f"/api/validations/{row.batch_id}/files/{row.index}/preview/"
    as_is = run_job(user_client.post(url, choices(row), format="json"))
    assert as_is.status == "succeeded", as_is.error
    errors = {g["code"] for g in as_is.result["groups"] if g["severity"] == "error"}
    assert errors == reported and as_is.result["errors"] >= 1
    assert any("at most 4 storeys; this one has 6" in g["message"] for g in as_is.result["groups"])

    lowered = run_job(user_client.post(url, {**choices(row), "storeys": 4}, format="json"))
    groups = {g["code"]: g for g in lowered.result["groups"]}
    assert "building-storeys" not in groups and lowered.result["errors"] == 0
    assert groups["storeys-lowered"]["hexes"] == ["0303"]
    bad = user_client.post(url, {**choices(row), "storeys": 0}, format="json")
    assert bad.status_code == 400 and "storeys" in json.dumps(bad.json())

    confirmed = run_job(user_client.post(f"/api/validations/{row.batch_id}/files/{row.index}/confirm/",
                                         {**choices(row), "storeys": 4}, format="json"))
    assert confirmed.status == "succeeded", confirmed.error
    hexes = {h["hex"]: h for h in json.loads(Map.objects.get(pk=confirmed.result["map"]).export())["hexes"]}
    assert hexes["0303"]["storeys"] == 4
