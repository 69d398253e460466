"""Issue 17, point 9: the site's forms count against the API's import limit, every write is bounded by the
owner's storage quota (maps, scans, batch uploads), and a scan replaced or removed leaves storage."""

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from PIL import Image

from engine import mapfile
from maps import quotas, scans
from maps.models import Map, MapRevision, apply_edits, attach_scan
from maps.writes import revision_bytes
from validations.models import BatchValidation

pytestmark = pytest.mark.django_db

RATES = {"jobs": "100/minute", "jobs-address": "100/minute", "imports": "2/minute", "imports-address": "100/minute",
         "token": "100/minute"}
NEW_MAP = {"name": "Ridge", "ruleset": "ost", "orientation": "flat", "columns": "8", "rows": "6",
           "stagger": "even", "labels": "letter-number"}


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def noise_png(size=(200, 150), seed=1):
    """A PNG that does not compress away, so its size is worth counting."""
    import random

    rng = random.Random(seed)
    image = Image.frombytes("RGB", size, bytes(rng.randrange(256) for _ in range(size[0] * size[1] * 3)))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def map_file(map_document):
    return SimpleUploadedFile("map.json", json.dumps(map_document).encode(), "application/json")


def quota_of(settings, nbytes):
    settings.HEXSIDE_STORAGE_QUOTA_MB = nbytes / quotas.MB


def assert_refused_for_quota(message, what):
    assert message.startswith("you use ") and " of your " in message and f"{what} needs " in message, message
    assert "to free space" in message


# -- (a) the forms take the API's import limit -------------------------------------------------------------------

@override_settings(HEXSIDE_THROTTLE_RATES=RATES)
def test_the_import_form_is_throttled_as_the_api_is(user_client, map_document):
    assert user_client.post("/api/maps/import/", map_document, format="json").status_code == 201
    assert user_client.post("/maps/import/", {"file": map_file(map_document)}).status_code == 302
    refused = user_client.post("/maps/import/", {"file": map_file(map_document)})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert b"too many maps in a short time" in refused.content
    assert user_client.post("/api/maps/import/", map_document, format="json").status_code == 429
    assert Map.objects.count() == 2
    assert user_client.get("/maps/import/").status_code == 200  # only posts count


@override_settings(HEXSIDE_THROTTLE_RATES=RATES)
def test_new_map_and_duplicate_forms_are_throttled(user_client, user, make_map):
    original = make_map(user)
    assert user_client.post("/maps/new/", NEW_MAP).status_code == 302
    assert user_client.post(f"/maps/{original.pk}/duplicate/").status_code == 302
    refused = user_client.post("/maps/new/", NEW_MAP)
    assert refused.status_code == 429 and b"try again in" in refused.content
    refused = user_client.post(f"/maps/{original.pk}/duplicate/")
    assert refused.status_code == 429 and b"try again in" in refused.content and refused.has_header("Retry-After")
    assert user_client.post("/api/maps/", {"document": original.document}, format="json").status_code == 429
    assert Map.objects.count() == 3


@override_settings(HEXSIDE_THROTTLE_RATES=RATES)
def test_scan_uploads_count_against_the_import_limit(user_client, user, make_map):
    map = make_map(user)
    url = f"/api/maps/{map.pk}/background/"
    for seed in (1, 2):
        assert user_client.post(url, {"image": SimpleUploadedFile("b.png", noise_png(seed=seed))}).status_code == 200
    answer = user_client.post(url, {"image": SimpleUploadedFile("b.png", noise_png(seed=3))})
    assert answer.status_code == 429 and answer.has_header("Retry-After")
    assert user_client.get(url).status_code == 200  # downloading it is not an upload


# -- (b) the storage quota ------------------------------------------------------------------------------------------

def test_usage_is_the_sum_of_what_the_rows_hold(user, user_client, map_document):
    map = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    apply_edits(map.pk, user, None, [{"op": "set_terrain", "hexes": ["C4"], "terrain": ["woods"]}])
    answer = user_client.post(f"/api/maps/{map.pk}/background/", {"image": SimpleUploadedFile("b.png", noise_png())})
    assert answer.status_code == 200, answer.content
    map.refresh_from_db()
    revisions = sum(revision_bytes(r) for r in MapRevision.objects.filter(map=map))
    scan = scans.path_of(map.pk, map.document["background"]["image"]).stat().st_size
    assert map.stored_bytes == revisions > 0 and map.scan_bytes == scan > 10_000
    assert quotas.used(user.pk) == revisions + scan


def test_creating_and_importing_past_the_quota_is_refused_on_the_api(user, user_client, map_document, settings):
    first = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    quota_of(settings, first.stored_bytes * 1.5)
    for url, body in (("/api/maps/", {"document": map_document}), ("/api/maps/import/", map_document)):
        answer = user_client.post(url, body, format="json")
        assert answer.status_code == 400, answer.content
        error = answer.json()["errors"][0]
        assert error["path"] == "$"
        assert_refused_for_quota(error["message"], "this map")
    assert Map.objects.count() == 1 and MapRevision.objects.count() == 1


def test_a_scan_past_the_quota_is_refused_and_not_stored(user, user_client, map_document, settings, media):
    map = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    quota_of(settings, map.stored_bytes + 5_000)
    answer = user_client.post(f"/api/maps/{map.pk}/background/", {"image": SimpleUploadedFile("b.png", noise_png())})
    assert answer.status_code == 400, answer.content
    error = answer.json()["errors"][0]
    assert error["path"] == "image"
    assert_refused_for_quota(error["message"], "this scan")
    assert Map.objects.get(pk=map.pk).revision == 1 and not list(media.rglob("scan-*"))


def test_forms_past_the_quota_say_so(user, user_client, map_document, settings, make_map, other_user):
    first = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    quota_of(settings, first.stored_bytes * 1.5)
    page = user_client.post("/maps/import/", {"file": map_file(map_document)})
    assert page.status_code == 400
    assert_refused_for_quota(page.context["form"].errors["file"][0], "this map")
    page = user_client.post("/maps/new/", {**NEW_MAP, "scan": SimpleUploadedFile("b.png", noise_png())})
    assert page.status_code == 400
    assert_refused_for_quota(page.context["form"].errors["scan"][0], "this map")
    theirs = make_map(other_user, published=True)
    page = user_client.post(f"/maps/{theirs.pk}/duplicate/")
    assert page.status_code == 400 and b"Not duplicated: you use" in page.content
    assert Map.objects.filter(owner=user).count() == 1


def test_a_batch_upload_past_the_quota_is_refused(user, user_client, map_document, settings):
    first = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    quota_of(settings, first.stored_bytes + 100)
    answer = user_client.post("/api/validations/", {"file": map_file(map_document)})
    assert answer.status_code == 400
    assert_refused_for_quota(answer.json()["file"][0].split(": ", 1)[1], "this upload")
    page = user_client.post("/validations/", {"file": map_file(map_document)}, follow=True)
    assert b"this upload needs" in page.content
    assert not BatchValidation.objects.exists()


def test_edits_past_the_quota_are_refused_but_removing_a_scan_is_not(user, user_client, map_document, settings):
    map = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    assert user_client.post(f"/api/maps/{map.pk}/background/",
                            {"image": SimpleUploadedFile("b.png", noise_png())}).status_code == 200
    quota_of(settings, quotas.used(user.pk))  # full
    url = f"/api/maps/{map.pk}/edits/"
    answer = user_client.post(url, {"revision": 2, "operations": [{"op": "set_terrain", "hexes": ["C4"],
                                                                   "terrain": ["woods"]}]}, format="json")
    assert answer.status_code == 400
    assert_refused_for_quota(answer.json()["errors"][0]["message"], "this change")
    assert Map.objects.get(pk=map.pk).revision == 2
    answer = user_client.post(url, {"revision": 2, "operations": [{"op": "set_background", "background": None}]},
                              format="json")
    assert answer.status_code == 200, answer.content
    assert Map.objects.get(pk=map.pk).scan_bytes == 0


def test_my_maps_shows_the_storage_used(user, user_client, map_document, settings):
    settings.HEXSIDE_STORAGE_QUOTA_MB = 500
    Map.objects.create_from_doc(user, mapfile.parse(map_document))
    page = user_client.get("/maps/mine/")
    assert page.status_code == 200
    assert page.context["storage"]["used"] == quotas.used(user.pk) > 0
    assert b"of 500.0 MB" in page.content and b"Storage: " in page.content


# -- (c) a replaced or removed scan leaves storage ------------------------------------------------------------------

def test_a_replaced_then_removed_scan_leaves_storage(user, user_client, map_document, media,
                                                     django_capture_on_commit_callbacks):
    map = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    url = f"/api/maps/{map.pk}/background/"
    with django_capture_on_commit_callbacks(execute=True):
        first = user_client.post(url, {"image": SimpleUploadedFile("a.png", noise_png(seed=1))}).json()
        second = user_client.post(url, {"image": SimpleUploadedFile("b.png", noise_png(seed=2))}).json()
    names = [p.name for p in media.rglob("scan-*")]
    assert names == [second["background"]["image"]] != [first["background"]["image"]]
    with django_capture_on_commit_callbacks(execute=True):
        answer = user_client.post(f"/api/maps/{map.pk}/edits/", {
            "revision": 3, "operations": [{"op": "set_background", "background": None}]}, format="json")
    assert answer.status_code == 200 and not list(media.rglob("scan-*"))
    assert Map.objects.get(pk=map.pk).scan_bytes == 0


def test_a_scan_is_kept_when_the_change_is_rolled_back(user, map_document, media, settings,
                                                      django_capture_on_commit_callbacks):
    map = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    with django_capture_on_commit_callbacks(execute=True):
        attach_scan(map, *scans.decode_scan(noise_png(seed=1), 10**6), user)
    kept = list(media.rglob("scan-*"))
    quota_of(settings, quotas.used(user.pk) + 10)
    map.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(quotas.QuotaExceeded):
        attach_scan(map, *scans.decode_scan(noise_png((300, 300), seed=2), 10**6), user)
    assert list(media.rglob("scan-*")) == kept  # the bigger one was never stored, the current one stays


def test_an_upload_on_a_stale_revision_leaves_no_file(user, user_client, map_document, media):
    map = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    apply_edits(map.pk, user, None, [{"op": "set_terrain", "hexes": ["C4"], "terrain": ["woods"]}])
    answer = user_client.post(f"/api/maps/{map.pk}/background/",
                              {"image": SimpleUploadedFile("a.png", noise_png()), "revision": 1})
    assert answer.status_code == 409 and not list(media.rglob("scan-*"))


def test_a_deleted_map_takes_its_scan_and_its_bytes(user, user_client, map_document, media,
                                                    django_capture_on_commit_callbacks):
    map = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    with django_capture_on_commit_callbacks(execute=True):
        user_client.post(f"/api/maps/{map.pk}/background/", {"image": SimpleUploadedFile("a.png", noise_png())})
        assert user_client.post(f"/maps/{map.pk}/delete/").status_code == 302
    assert not list(media.rglob("scan-*")) and quotas.used(user.pk) == 0


def test_prune_scans_removes_what_no_map_names(user, user_client, map_document, media):
    from django.core.management import call_command

    map = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    user_client.post(f"/api/maps/{map.pk}/background/", {"image": SimpleUploadedFile("a.png", noise_png())})
    left_over = scans.folder(map.pk) / "scan-0123456789abcdef0123.png"  # stored before scans were deleted
    left_over.write_bytes(b"old")
    Map.objects.filter(pk=map.pk).update(scan_bytes=0)
    out = io.StringIO()
    call_command("prune_scans", stdout=out)
    assert "removed 1 scan files" in out.getvalue() and not left_over.exists()
    named = scans.path_of(map.pk, Map.objects.get(pk=map.pk).document["background"]["image"])
    assert named is not None and Map.objects.get(pk=map.pk).scan_bytes == named.stat().st_size
