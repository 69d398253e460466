"""The board scan: the map format's `background` entry, its upload endpoint and its edit operation."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from engine import edits, mapfile
from maps.models import Map, copy_scan

pytestmark = pytest.mark.django_db

ENTRY = {"image": "scan-abc.png", "origin": [12.5, 30.0], "hex_px": 40.0, "rotation": 1.5, "opacity": 0.4}


def png(size=(300, 200), kind="PNG"):
    out = io.BytesIO()
    Image.new("RGB", size, (200, 180, 120)).save(out, format=kind)
    return out.getvalue()


def test_background_round_trips_and_bad_entries_name_their_path(map_document):
    map_document["background"] = ENTRY
    doc = mapfile.parse(map_document)
    assert doc.background == ENTRY
    again = mapfile.parse(mapfile.dumps(doc))
    assert again.background == ENTRY and mapfile.dumps(again) == mapfile.dumps(doc)
    map_document["background"] = {"image": "../etc/passwd", "origin": [1], "hex_px": 0, "opacity": 2, "extra": 1}
    with pytest.raises(mapfile.MapFormatError) as caught:
        mapfile.parse(map_document)
    assert {e.path for e in caught.value.errors} == {"background.image", "background.origin", "background.hex_px",
                                                     "background.opacity", "background.extra"}
    del map_document["background"]
    assert "background" not in mapfile.to_dict(mapfile.parse(map_document))


def test_set_background_operation_checks_and_clears(map_document):
    doc = mapfile.parse(map_document)
    changed, summary = edits.apply(doc, [{"op": "set_background", "background": ENTRY}])
    assert changed.background == ENTRY and doc.background is None and summary == "place the board scan"
    with pytest.raises(edits.EditError) as caught:
        edits.apply(doc, [{"op": "set_background", "background": {**ENTRY, "hex_px": -1}}])
    assert caught.value.errors[0].path == "operations[0].background.hex_px"
    cleared, _ = edits.apply(changed, [{"op": "set_background", "background": None}])
    assert cleared.background is None


def test_upload_fits_the_scan_and_serves_it(user_client, user, map_document, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    map = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    url = f"/api/maps/{map.pk}/background/"
    data = png()
    answer = user_client.post(url, {"image": SimpleUploadedFile("board.png", data), "revision": 1})
    assert answer.status_code == 200, answer.content
    entry = answer.json()["background"]
    assert answer.json()["revision"] == 2 and answer.json()["size"] == [300, 200]
    stored = Map.objects.get(pk=map.pk).document["background"]
    assert stored == {**entry, "origin": [float(v) for v in entry["origin"]], "rotation": 0.0}
    # The grid fits inside the image: every corner of the map lies on it.
    grid = map.hex_grid()
    x0, y0, x1, y1 = grid.extent()
    cx, cy = grid.centre(0, 0)
    for x, y in ((x0, y0), (x1, y1)):
        px = entry["origin"][0] + entry["hex_px"] * (x - cx)
        py = entry["origin"][1] + entry["hex_px"] * (y - cy)
        assert -0.5 <= px <= 300.5 and -0.5 <= py <= 200.5
    served = user_client.get(url)
    assert served.status_code == 200 and b"".join(served.streaming_content) == data
    assert served["Content-Type"] == "image/png"


@pytest.mark.parametrize("content, limit, message", [
    (b"not an image", None, "not a PNG or JPEG"),
    ("gif", None, "upload a PNG or JPEG"),
    ("big", ("HEXSIDE_SCAN_MAX_PIXELS", 1000), "at most 1,000 pixels"),
    ("big", ("HEXSIDE_SCAN_MAX_BYTES", 100), "MB"),
])
def test_bad_scans_are_refused_and_change_nothing(user_client, user, map_document, settings, tmp_path, content,
                                                  limit, message):
    settings.MEDIA_ROOT = str(tmp_path)
    if limit:
        setattr(settings, *limit)
    if content == "gif":
        content = png(kind="GIF")
    elif content == "big":
        content = png((100, 100))
    map = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    answer = user_client.post(f"/api/maps/{map.pk}/background/", {"image": SimpleUploadedFile("x.png", content)})
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["path"] == "image" and message in answer.json()["errors"][0]["message"]
    assert Map.objects.get(pk=map.pk).revision == 1 and not list(tmp_path.rglob("scan-*"))


def test_others_cannot_upload_and_current_is_cheap(api_client, other_user, user, map_document):
    map = Map.objects.create_from_doc(user, mapfile.parse(map_document), published=True)
    api_client.force_login(other_user)
    answer = api_client.post(f"/api/maps/{map.pk}/background/", {"image": SimpleUploadedFile("x.png", png())})
    assert answer.status_code == 403
    assert api_client.get(f"/api/maps/{map.pk}/background/").status_code == 404
    assert api_client.get(f"/api/maps/{map.pk}/current/").json() == {"revision": 1, "content_hash": map.content_hash}


def test_set_label_note_brings_a_note_back(map_document):
    """What undoing an erase needs: clear_hexes drops a hex's note, set_label_note puts it back."""
    doc = mapfile.parse(map_document)
    erased, _ = edits.apply(doc, [{"op": "clear_hexes", "hexes": ["F2"]}])
    assert (5, 1) not in erased.hexes
    back, _ = edits.apply(erased, [{"op": "set_terrain", "hexes": ["F2"], "terrain": ["stream", "brush"]},
                                   {"op": "set_level", "hexes": ["F2"], "level": -1},
                                   {"op": "set_label_note", "hexes": ["F2"], "label_note": "ford"}])
    assert back.hexes[(5, 1)] == doc.hexes[(5, 1)]
    with pytest.raises(edits.EditError) as caught:
        edits.apply(doc, [{"op": "set_label_note", "hexes": ["F2"], "label_note": 3}])
    assert caught.value.errors[0].path == "operations[0].label_note"


def test_scans_are_copied_for_a_duplicate_and_go_with_a_deleted_map(user_client, user, map_document, settings,
                                                                     tmp_path, django_capture_on_commit_callbacks):
    from maps import scans

    settings.MEDIA_ROOT = str(tmp_path)
    map = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    answer = user_client.post(f"/api/maps/{map.pk}/background/", {"image": SimpleUploadedFile("b.png", png())})
    name = answer.json()["background"]["image"]
    copy = Map.objects.create_from_doc(user, mapfile.parse(Map.objects.get(pk=map.pk).document))
    copy_scan(map.pk, copy.pk)
    assert scans.path_of(copy.pk, name).read_bytes() == png()
    with django_capture_on_commit_callbacks(execute=True):
        assert user_client.delete(f"/api/maps/{map.pk}/").status_code == 204
    assert scans.path_of(map.pk, name) is None and not (tmp_path / "maps" / str(map.pk)).exists()
    assert scans.path_of(copy.pk, name) is not None
