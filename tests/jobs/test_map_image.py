"""/maps/<id>/map.png is never drawn in the web process (issue 7, point 2): a map-image job draws it once per
content, and the page serves the stored file; a large map gets a placeholder and Retry-After meanwhile."""

import io

import pytest
from PIL import Image

from engine import render
from jobs.models import Job
from maps.models import apply_edits
from tests.jobs.test_workers import wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def no_drawing_here(monkeypatch):
    """The web process (this one) must not draw: if it tried, the request would fail."""
    def refuse(*args, **kwargs):
        raise AssertionError("the map was drawn in the web process")
    monkeypatch.setattr(render, "render_map", refuse)
    monkeypatch.setattr(render, "render_page", refuse)


def test_the_map_image_is_drawn_once_by_a_worker_and_served_from_storage(worker, user_client, user_map,
                                                                         no_drawing_here, settings):
    settings.HEXSIDE_MAP_IMAGE_WAIT_SECONDS = 60  # a busy CI machine's worker may take longer than a page waits
    response = user_client.get(f"/maps/{user_map.pk}/map.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(b"".join(response.streaming_content)))
    assert image.width > 100 and image.height > 100
    job = Job.objects.get(kind="map-image")
    assert job.status == "succeeded" and job.worker.startswith(worker.name)
    assert job.content_hash == user_map.content_hash

    again = user_client.get(f"/maps/{user_map.pk}/map.png")
    assert again.status_code == 200 and Job.objects.filter(kind="map-image").count() == 1  # not drawn again
    cached = user_client.get(f"/maps/{user_map.pk}/map.png", HTTP_IF_NONE_MATCH=again["ETag"])
    assert cached.status_code == 304


def test_a_large_map_gets_a_placeholder_with_retry_after_until_its_job_has_drawn_it(worker, user_client, user_map,
                                                                                    user, settings,
                                                                                    no_drawing_here):
    settings.HEXSIDE_MAP_IMAGE_WAIT_HEXES = 0  # every map counts as large
    apply_edits(user_map.pk, user, None, [{"op": "set_terrain", "hexes": ["B2"], "terrain": ["woods"]}])
    first = user_client.get(f"/maps/{user_map.pk}/map.png")
    assert first.status_code == 202 and int(first["Retry-After"]) > 0
    assert first["Cache-Control"] == "no-store" and "ETag" not in first
    wait_until(lambda: Job.objects.filter(kind="map-image", status="succeeded").exists())
    later = user_client.get(f"/maps/{user_map.pk}/map.png")
    assert later.status_code == 200 and later["ETag"] != ""


def test_an_edited_map_keeps_one_picture_not_one_per_edit(worker, user_client, user_map, user, no_drawing_here):
    from maps import images
    from maps.tasks import MAP_IMAGE

    drawn = []
    for hex in ("H7", "H6", "H5"):  # contents no other test makes
        apply_edits(user_map.pk, user, None, [{"op": "set_terrain", "hexes": [hex], "terrain": ["woods"]}])
        user_map.refresh_from_db()
        assert user_client.get(f"/maps/{user_map.pk}/map.png").status_code == 200
        drawn.append(images.path_of(MAP_IMAGE, user_map))
    assert [path.exists() for path in drawn] == [False, False, True]  # the earlier contents' pictures are gone
