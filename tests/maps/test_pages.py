"""The site's pages without a browser: who may do what, nothing half-made on bad input, thumbnails kept once."""

import io

import pytest
from django.test import Client
from PIL import Image

from engine import mapfile, render, rulesets
from maps import images, scans
from maps.models import Map, apply_edits, attach_scan

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def site(user_client):
    return user_client  # Django's test client with DRF's helpers: pages answer it as they answer a browser


@pytest.fixture
def rival_site(other_client):
    return other_client


@pytest.fixture
def owned(user, map_document):
    return Map.objects.create_from_doc(user, mapfile.parse(map_document))


def png_bytes(size=(300, 200)):
    out = io.BytesIO()
    Image.new("RGB", size, (180, 170, 140)).save(out, format="PNG")
    return out.getvalue()


def test_pages_that_change_maps_ask_to_sign_in_on_the_site():
    response = Client().get("/maps/new/")
    assert response.status_code == 302 and response["Location"] == "/accounts/login/?next=/maps/new/"
    assert Client().get("/accounts/login/").status_code == 200


def test_a_bad_new_map_is_refused_on_the_page_and_nothing_is_created(site):
    response = site.post("/maps/new/", {"name": "Bad", "ruleset": "ost", "orientation": "flat", "columns": "20",
                                        "rows": "12", "stagger": "even", "labels": "letter-number",
                                        "hex_metres": "-5"})
    assert response.status_code == 400
    field = response.context["form"].errors
    assert field["hex_metres"] == ["expected a positive number, got -5.0"]
    response = site.post("/maps/new/", {"name": "Bad", "ruleset": "no-such-game", "orientation": "flat",
                                        "columns": "20", "rows": "12", "stagger": "even", "labels": "letter-number"})
    assert response.status_code == 400 and "ruleset" in response.context["form"].errors
    assert not Map.objects.exists()


def test_a_new_map_with_a_scan_names_it_in_its_background(site, media):
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = site.post("/maps/new/", {"name": "Traced", "ruleset": "ats", "orientation": "pointy", "columns": "9",
                                        "rows": "7", "stagger": "odd", "labels": "xxyy",
                                        "scan": SimpleUploadedFile("board.png", png_bytes(), "image/png")})
    map = Map.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/maps/{map.pk}/"
    assert map.revision == 2 and map.document["background"]["image"].startswith("scan-")
    assert scans.path_of(map.pk, map.document["background"]["image"]) is not None


def test_duplicate_carries_the_scan_and_delete_is_the_owners_alone(site, rival_site, owned, user):
    data, extension, size = png_bytes(), "png", (300, 200)
    attach_scan(owned, data, extension, size, user)
    owned.refresh_from_db()
    owned.published = True
    owned.save()
    response = rival_site.post(f"/maps/{owned.pk}/duplicate/")
    copy = Map.objects.exclude(pk=owned.pk).get()
    assert response.status_code == 302 and copy.owner.username == "rival" and not copy.published
    assert scans.path_of(copy.pk, copy.document["background"]["image"]).read_bytes() == data
    assert rival_site.get(f"/maps/{owned.pk}/duplicate/").status_code == 405  # a change is a POST

    assert rival_site.get(f"/maps/{owned.pk}/delete/").status_code == 403
    assert rival_site.post(f"/maps/{owned.pk}/delete/").status_code == 403
    assert Map.objects.filter(pk=owned.pk).exists()
    page = site.get(f"/maps/{owned.pk}/delete/")
    assert page.status_code == 200 and b"cannot be undone" in page.content
    assert Map.objects.filter(pk=owned.pk).exists()  # asking is not deleting
    assert site.post(f"/maps/{owned.pk}/delete/").status_code == 302
    assert not Map.objects.filter(pk=owned.pk).exists()


def test_a_private_map_has_no_thumbnail_for_others(rival_site, owned):
    assert rival_site.get(f"/maps/{owned.pk}/thumbnail.png").status_code == 404


def test_thumbnails_are_drawn_once_per_content(site, owned, user, monkeypatch):
    first = site.get(f"/maps/{owned.pk}/thumbnail.png")
    assert first.status_code == 200 and first["Content-Type"] == "image/png"
    assert max(Image.open(io.BytesIO(first.content)).size) == render.THUMB_PX

    def no_drawing(*args, **kwargs):
        raise AssertionError("drawn again")

    monkeypatch.setattr(render, "thumbnail_of", no_drawing)
    again = site.get(f"/maps/{owned.pk}/thumbnail.png")
    assert again.content == first.content
    assert site.get(f"/maps/{owned.pk}/thumbnail.png", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    apply_edits(owned.pk, user, None, [{"op": "set_terrain", "hexes": ["A1", "B1", "C1"], "terrain": ["woods"]}])
    owned.refresh_from_db()
    assert images.stored("thumb", owned) is None  # new content, new picture
    monkeypatch.undo()
    changed = site.get(f"/maps/{owned.pk}/thumbnail.png")
    assert changed.content != first.content and images.stored("thumb", owned) == changed.content


def test_the_thumbnail_of_a_large_map_is_a_mosaic_of_bounded_size(site, user, map_document):
    map_document["grid"].update(columns=140, rows=90)
    map_document["overlays"] = []
    big = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    assert big.hex_grid().size > render.MOSAIC_ABOVE
    response = site.get(f"/maps/{big.pk}/thumbnail.png")
    image = Image.open(io.BytesIO(response.content)).convert("RGB")
    assert max(image.size) == render.THUMB_PX
    colours = {c for _, c in image.getcolors(10000)}
    assert render.rgb(render.style_of(rulesets.get("ost"), "open")["fill"]) in colours
