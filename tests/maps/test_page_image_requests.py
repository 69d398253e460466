"""Issue 17, point 6: GET /maps/<id>/map.png starts at most one drawing per content, whoever asks and however
often, and the drawings anybody may start are throttled (web.throttles.MAP_IMAGES): per address for
anonymous visitors, per user when signed in. No worker runs here: the requests are answered 202 with the
placeholder while their jobs wait, which is what is asked of them."""

import pytest
from django.test import Client

from jobs.models import Job
from maps.models import apply_edits

pytestmark = pytest.mark.django_db


@pytest.fixture
def page_settings(settings):
    settings.HEXSIDE_MAP_IMAGE_WAIT_HEXES = 0  # answer at once: no worker draws here
    settings.HEXSIDE_THROTTLE_RATES = {**settings.HEXSIDE_THROTTLE_RATES, "images": "3/minute"}
    return settings


def drawings():
    return Job.objects.filter(kind="map-image").count()


def test_many_requests_for_one_content_share_one_drawing(page_settings, make_map, user):
    map = make_map(user, published=True)
    visitors = [Client(REMOTE_ADDR=f"203.0.113.{k}") for k in range(5)]
    for _ in range(3):
        for visitor in visitors:
            assert visitor.get(f"/maps/{map.pk}/map.png").status_code == 202
    assert drawings() == 1  # fifteen requests, one job (and none of them throttled: none started a drawing)


def test_an_anonymous_visitor_starting_drawings_is_throttled(page_settings, make_map, user):
    maps = [make_map(user, published=True, name=f"Map {k}") for k in range(4)]
    visitor = Client(REMOTE_ADDR="198.51.100.7")
    for map in maps[:3]:
        assert visitor.get(f"/maps/{map.pk}/map.png").status_code == 202
    refused = visitor.get(f"/maps/{maps[3].pk}/map.png")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert refused["Content-Type"] == "image/png" and refused["Cache-Control"] == "no-store"
    assert drawings() == 3
    # Edits make new content; asking for each is a new drawing, and counts.
    apply_edits(maps[0].pk, user, None, [{"op": "set_terrain", "hexes": ["B2"], "terrain": ["woods"]}])
    assert visitor.get(f"/maps/{maps[0].pk}/map.png").status_code == 429
    # Another address is counted apart; a drawing already started is shared without counting.
    other = Client(REMOTE_ADDR="198.51.100.8")
    assert other.get(f"/maps/{maps[1].pk}/map.png").status_code == 202
    assert other.get(f"/maps/{maps[3].pk}/map.png").status_code == 202
    assert drawings() == 4
