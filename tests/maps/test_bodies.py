"""A map's API answer kept as a gzip file per content and served with an ETag (maps/bodies.py): the same answer
as the serializer's, 304 for a current copy, a new answer after every change, nothing for a reader who may not
read the map, and one kept file per map."""

import gzip
import json

import pytest

from maps import bodies
from maps.dependents import delete_map
from maps.models import Map
from maps.serializers import MapDetailSerializer

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def read(client, map, **headers):
    return client.get(f"/api/maps/{map.pk}/", **headers)


def kept(map):
    return sorted(bodies.folder().glob(f"map-{map.pk}-*.json.gz"))


def test_the_answer_is_the_serializers_and_the_document_is_the_map_file(user_client, user_map):
    response = read(user_client, user_map)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    map = Map.objects.get(pk=user_map.pk)
    expected = json.loads(json.dumps(MapDetailSerializer(map).data, default=str))
    answer = response.json()
    assert list(answer) == list(expected)
    assert answer == expected
    assert answer["document"] == json.loads(map.export())


def test_a_client_taking_gzip_gets_the_stored_file(user_client, user_map):
    plain = read(user_client, user_map)
    packed = read(user_client, user_map, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(b"".join(packed.streaming_content)) == plain.content
    assert packed["ETag"] == plain["ETag"]


def test_a_current_copy_is_not_sent_again(user_client, user_map):
    first = read(user_client, user_map)
    again = read(user_client, user_map, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]


@pytest.mark.parametrize("change", ["edit", "rename", "publish"])
def test_every_change_makes_a_new_answer(user_client, user_map, change):
    first = read(user_client, user_map)
    if change == "edit":
        body = {"revision": user_map.revision, "operations": [{"op": "set_level", "hexes": ["B2"], "level": 2}]}
        assert user_client.post(f"/api/maps/{user_map.pk}/edits/", body, format="json").status_code == 200
    elif change == "rename":
        assert user_client.patch(f"/api/maps/{user_map.pk}/", {"name": "Renamed"}, format="json").status_code == 200
    else:
        assert user_client.patch(f"/api/maps/{user_map.pk}/", {"published": True}, format="json").status_code == 200
    after = read(user_client, user_map, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != first["ETag"]
    map = Map.objects.get(pk=user_map.pk)
    assert after.json()["revision"] == map.revision
    assert after.json()["document"] == json.loads(map.export())
    assert len(kept(map)) == 1  # the answer before the change is not kept beside it


def test_a_reader_who_may_not_read_the_map_gets_404_whatever_etag_they_send(other_client, api_client, user_client,
                                                                             user_map):
    etag = read(user_client, user_map)["ETag"]
    for client in (other_client, api_client):
        response = read(client, user_map, HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 404
        assert user_map.name not in response.content.decode()


def test_deleting_a_map_removes_its_kept_answer(user_client, user_map, django_capture_on_commit_callbacks):
    read(user_client, user_map)
    assert kept(user_map)
    with django_capture_on_commit_callbacks(execute=True):
        delete_map(user_map)
    assert not kept(user_map)


def test_the_browsable_api_still_renders(user_client, user_map):
    response = user_client.get(f"/api/maps/{user_map.pk}/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert b"<html" in response.content.lower()
