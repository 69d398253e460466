"""The Import page takes every format the importers read: a Hexside file is made at once, a community map (one
file, several, or a zip) is converted in the background by a batch validation, with the game chosen."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from jobs.models import Job
from maps.models import Map
from tests.data import COMMUNITY
from tests.jobs.test_batch_validation import run_parts_here
from validations.models import BatchValidation

pytestmark = pytest.mark.django_db
CHERRY = COMMUNITY / "Yanrishatum+cherry-jam"
WESNOTH = (COMMUNITY / "cjhopman+Battle-for-Wesnoth-on-Android" / "wesnoth-1.8.5" / "data" / "multiplayer" / "maps"
           / "2p_Hamlets.map")


def files(*paths):
    return [SimpleUploadedFile(p.name, p.read_bytes()) for p in paths]


def test_a_wesnoth_map_goes_to_a_background_conversion_for_the_game_chosen(user_client, jobs_isolated):
    response = user_client.post("/maps/import/", {"file": files(WESNOTH), "ruleset": "tocs"})
    batch = BatchValidation.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/validations/{batch.pk}/"
    assert batch.ruleset == "tocs" and batch.name == "2p_Hamlets.map"
    assert run_parts_here(Job.objects.get(pk=batch.job_id)).status == "succeeded"
    row = batch.files.get()
    assert row.source_format == "wesnoth" and row.document["ruleset"] == "tocs"
    page = user_client.get(response["Location"]).content.decode()
    assert "Open as my map" in page


def test_a_tiled_map_with_its_tileset_as_several_files_is_one_upload(user_client, jobs_isolated):
    response = user_client.post("/maps/import/", {"file": files(CHERRY / "hex-final.tmx", CHERRY / "hex-tileset.tsx",
                                                                CHERRY / "hex-tileset.png")})
    assert response.status_code == 302
    batch = BatchValidation.objects.get()
    assert batch.name == "hex-final.zip"
    run_parts_here(Job.objects.get(pk=batch.job_id))
    row = batch.files.get()
    assert row.source_format == "tiled" and row.verdict != "invalid", row.findings


def test_a_hexside_map_file_is_still_made_at_once(user_client, map_document):
    import json

    upload = SimpleUploadedFile("mine.json", json.dumps(map_document).encode())
    response = user_client.post("/maps/import/", {"file": [upload]})
    assert response.status_code == 302 and Map.objects.count() == 1 and not BatchValidation.objects.exists()


def test_a_file_of_no_map_format_is_refused_on_the_page(user_client, jobs_isolated):
    response = user_client.post("/maps/import/", {"file": [SimpleUploadedFile("empty.map", b"")]})
    assert response.status_code == 400 and not BatchValidation.objects.exists()
    assert "empty" in response.content.decode()


def test_a_vasl_board_with_its_image_opens_as_a_grid_to_trace(user_client, jobs_isolated):
    import io

    from PIL import Image

    from maps import scans

    picture = io.BytesIO()
    Image.new("RGB", (90, 80), (180, 170, 120)).save(picture, "GIF")
    metadata = SimpleUploadedFile("BoardMetadata.xml", b'<boardMetadata name="T" boardImageFileName="bdT.gif" '
                                  b'hasHills="TRUE" width="4" height="3" hexWidth="22.5" hexHeight="25.98" '
                                  b'A1CenterX="0" A1CenterY="12.99"/>')
    response = user_client.post("/maps/import/", {"file": [metadata, SimpleUploadedFile("bdT.gif",
                                                                                         picture.getvalue())]})
    assert response.status_code == 302
    batch = BatchValidation.objects.get()
    assert run_parts_here(Job.objects.get(pk=batch.job_id)).status == "succeeded"
    row = batch.files.get()
    assert row.source_format == "vasl" and row.verdict != "invalid", row.findings
    assert "los-not-read" in str(row.findings) and row.board
    page = user_client.get(response["Location"]).content.decode()
    assert "LOS data" in page and "is not read" in page
    opened = user_client.post(f"/api/validations/{batch.pk}/files/{row.index}/open/")
    assert opened.status_code == 201, opened.content
    map = Map.objects.get(pk=opened.json()["map"])
    doc = map.mapdoc()
    assert (doc.grid.columns, doc.grid.rows, doc.grid.labels) == (4, 3, "letter-number")
    path = scans.path_of(map.pk, doc.background["image"])
    assert Image.open(path).size == (90, 80)  # VASL's GIF, kept as a PNG beside the map


def test_a_tiled_map_whose_tileset_path_climbs_folders_is_read_from_the_files_chosen_with_it(user_client,
                                                                                              jobs_isolated):
    # The map names "../../tiles/simple hex flat top.tsx", and the tileset its images "simple hex flat top/x.png":
    # chosen together, the browser sends their names only, as a zip of the same folders would not.
    bevy = COMMUNITY / "adrien-bon+bevy_ecs_tiled"
    pictures = sorted((bevy / "tiles" / "simple hex flat top").glob("*.png"))
    chosen = files(bevy / "maps" / "hexagonal" / "finite_flat_top_even.tmx", bevy / "tiles" / "simple hex flat top.tsx",
                   *pictures)
    response = user_client.post("/maps/import/", {"file": chosen})
    assert response.status_code == 302
    batch = BatchValidation.objects.get()
    run_parts_here(Job.objects.get(pk=batch.job_id))
    row = batch.files.get()
    assert row.source_format == "tiled" and not [f for f in row.findings if "missing-tileset" in str(f)], row.findings
    terrain = {code for code in row.mapping["terrain"]}
    assert {"forest", "ocean"} <= terrain  # the tiles' own images named them: the tileset was read


def test_a_community_map_is_named_on_import_on_the_page_and_through_the_api(user_client, jobs_isolated):
    response = user_client.post("/maps/import/", {"file": files(WESNOTH), "name": "Hamlets at dawn"})
    assert response.status_code == 302
    batch = BatchValidation.objects.get()
    run_parts_here(Job.objects.get(pk=batch.job_id))
    assert batch.files.get().document["name"] == "Hamlets at dawn"
    api = user_client.post("/api/validations/", {"file": files(WESNOTH)[0], "name": "Hamlets, API"},
                           format="multipart")
    assert api.status_code == 202
    second = BatchValidation.objects.get(pk=api.json()["validation"])
    run_parts_here(Job.objects.get(pk=second.job_id))
    row = second.files.get()
    assert row.document["name"] == "Hamlets, API"
    opened = user_client.post(f"/api/validations/{second.pk}/files/{row.index}/open/")
    assert opened.status_code in (200, 201) and Map.objects.get().name == "Hamlets, API"


def test_a_name_left_blank_is_the_file_s_own_and_a_hexside_file_takes_the_one_given(user_client, jobs_isolated,
                                                                                   map_document):
    import json

    upload = SimpleUploadedFile("mine.json", json.dumps(map_document).encode())
    response = user_client.post("/maps/import/", {"file": [upload], "name": "Renamed on import"})
    assert response.status_code == 302 and Map.objects.get().name == "Renamed on import"
    user_client.post("/maps/import/", {"file": files(WESNOTH), "name": ""})
    batch = BatchValidation.objects.get()
    run_parts_here(Job.objects.get(pk=batch.job_id))
    assert batch.files.get().document["name"] == "2p_Hamlets"
