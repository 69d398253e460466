"""Issue 17, point 6: a print is bounded by its pixels (render.MAX_PIXELS, an A0 sheet at 300 dpi). A map print
or a scenario's map PNG past it is refused with its size and the limit before any job is queued; the renderer
refuses it too (a job asked some other way)."""

import copy

import pytest

from engine import mapfile, render
from engine.los.engine import compile_map
from jobs.models import Job
from tests.scenarios.conftest import SMALL

pytestmark = pytest.mark.django_db

# 90 x 70 hexes of 19 mm at 300 dpi: 17,674 x 15,939 pixels, 282 million (the old limit let it through).
BIG = {"columns": 90, "rows": 70}
LIMIT = f"at most {render.MAX_PIXELS:,} pixels"


@pytest.fixture
def big_document(map_document):
    map_document["grid"].update(BIG)
    return map_document


def test_the_renderer_refuses_a_print_past_the_limit_before_drawing(big_document):
    cmap = compile_map(mapfile.parse(big_document))
    with pytest.raises(render.PrintTooLarge, match=LIMIT):
        render.render_print(cmap, dpi=300, hex_mm=19)
    assert render.too_large(*render.printed_size(cmap.grid, 100, 19)) is None  # the same map at 100 dpi prints


def test_a_map_print_past_the_limit_is_refused_and_not_queued(user_client, make_map, user, big_document):
    map = make_map(user, grid=big_document["grid"])
    response = user_client.post(f"/api/maps/{map.pk}/print/", {"dpi": 300, "hex_mm": 19}, format="json")
    assert response.status_code == 400 and "dpi" in response.json()  # (the field's error, in the API's shape)
    assert LIMIT in response.content.decode() and "17," in response.content.decode()  # its width, and the limit
    assert not Job.objects.exists()


def test_a_scenario_map_png_past_the_limit_is_refused_unless_its_play_area_is_small(user_client, big_document):
    data = copy.deepcopy(SMALL)
    data["maps"][0]["document"] = big_document
    created = user_client.post("/api/scenarios/", {"document": data}, format="json")
    assert created.status_code == 201, created.json()
    url = f"/api/scenarios/{created.json()['id']}/print/"
    response = user_client.post(url, {"format": "png", "dpi": 300, "hex_mm": 19}, format="json")
    assert response.status_code == 400 and LIMIT in response.content.decode()
    assert not Job.objects.exists()
    assert user_client.post(url, {"format": "pdf"}, format="json").status_code != 400  # the card is not a print
    data["play_area"] = {"corners": ["A1", "J8"]}
    data["title"] = "Small play area"
    cropped = user_client.post("/api/scenarios/", {"document": data}, format="json").json()["id"]
    asked = user_client.post(f"/api/scenarios/{cropped}/print/", {"format": "png", "dpi": 300, "hex_mm": 19},
                             format="json")
    assert asked.status_code in (200, 202), asked.content
