"""Issue 27, points 2 and 4: an upload is charged, and refused before anything is kept or queued, by the work it
declares (boards x hexes, layers x tiles, image pixels: engine.importers.declared), not by its bytes; and the
mapping step's previews and confirmations run on the heavy queue, never on the LOS workers'."""

import io
import zipfile

import pytest

from engine.importers import ImportLimits, convert, declared
from jobs import conf, kinds
from jobs.models import Job
from tests.data import COMMUNITY
from tests.engine.test_import_declared import module
from tests.engine.test_import_memory import png_of_zeros, tmx
from tests.jobs.test_batch_validation import upload
from tests.jobs.test_mapping_step import checked_file, choices
from validations.models import BatchValidation

pytestmark = pytest.mark.django_db
TEMPLATE = COMMUNITY / "jzedwards+vassal-hex-n-counters-template" / "template"


def refused(client, name, data):
    answer = upload(client, name, data)
    assert answer.status_code == 400, answer.content
    assert not BatchValidation.objects.exists() and not Job.objects.exists()
    return answer.json()["file"][0]


def test_a_4_kb_module_naming_1000_boards_of_500_x_500_hexes_is_refused_naming_both_numbers(user_client,
                                                                                             jobs_isolated):
    data = module(1000)
    assert len(data) < 4000  # charged 4 units before: it would have taken both heavy workers 26 minutes
    message = refused(user_client, "huge.vmod", data)
    assert message == ("huge.vmod: this module declares 1,000 boards of 250,500 hexes (250,500,000 hexes in all); "
                       "an import may hold at most 2,000,000 hexes (HEXSIDE_IMPORT_MAX_HEXES). Upload fewer or "
                       "smaller maps at a time")


def test_a_zip_of_tiled_maps_is_counted_by_layers_times_tiles(user_client, jobs_isolated, settings):
    settings.HEXSIDE_IMPORT_MAX_HEXES = 1_000_000
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for i in range(3):
            archive.writestr(f"m{i}.tmx", tmx(500, 500, 2))  # 2 layers of 250,000 tiles each
    message = refused(user_client, "maps.zip", out.getvalue())
    assert "this zip declares 6 layers of 250,000 tiles (1,500,000 tiles in all)" in message
    assert "at most 1,000,000 tiles (HEXSIDE_IMPORT_MAX_HEXES)" in message


def test_boards_naming_large_images_are_refused_by_their_pixels_read_from_the_headers(user_client, jobs_isolated,
                                                                                      settings):
    settings.HEXSIDE_IMPORT_MAX_PIXELS = 30_000_000
    data = module(8, image=png_of_zeros(2000, 2000))  # each board checks and writes its image again
    message = refused(user_client, "boards.vmod", data)
    assert message == ("boards.vmod: this module names 8 images of 32,000,000 pixels in all; an import may decode "
                       "at most 30,000,000 pixels (HEXSIDE_IMPORT_MAX_PIXELS). Upload fewer boards, or smaller "
                       "images, at a time")


def test_a_sample_module_goes_through_charged_by_its_hexes_and_pixels(user_client, jobs_isolated):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("buildFile.xml", (TEMPLATE / "buildFile.xml").read_bytes())
        archive.writestr("images/map.jpg", (TEMPLATE / "images" / "map.jpg").read_bytes())
    data = out.getvalue()
    work = declared.declared("template.vmod", data, ImportLimits())
    grid = convert("template.vmod", data).doc["grid"]
    assert work.parts["board"] == [1, grid["columns"] * grid["rows"], grid["columns"] * grid["rows"]]
    assert work.pixels == 750 * 750 and work.images == 1  # the board image's header
    answer = upload(user_client, "template.vmod", data)
    assert answer.status_code == 202, answer.content
    job = Job.objects.get(pk=answer.json()["job"])
    assert job.cost == work.units == work.hexes + work.pixels // declared.PIXELS_PER_UNIT


def test_mapping_steps_are_heavy_jobs_on_the_heavy_queue_charged_by_their_file_s_hexes(user_client, jobs_isolated,
                                                                                       queue_name):
    assert not kinds.get("mapping-step").interactive and not conf.is_interactive("mapping-step")
    assert conf.queue_for("mapping-step") == conf.queue_for("batch-validation") == queue_name
    assert conf.queue_for("los") != queue_name  # the LOS workers' queue is another
    row = checked_file(user_client)
    url = f"/api/validations/{row.batch_id}/files/{row.index}/preview/"
    answer = user_client.post(url, choices(row), format="json")
    assert answer.status_code == 202, answer.content
    job = Job.objects.get(pk=answer.json()["job"])
    assert job.queue == queue_name and job.cost == 4 * 3  # the file's map: 4 x 3 hexes (its upload is 0 kB)
