"""Issue 17, point 6: a scenario past the format's limits (engine/scenarios/limits.py) is a 400 naming the part
and the limit, whether created, uploaded or edited; nothing is stored."""

import copy

import pytest

from authoring.models import Scenario
from tests.scenarios.conftest import SMALL

pytestmark = pytest.mark.django_db


def test_a_megabyte_special_rule_is_a_400_naming_it(user_client, map_document):
    data = copy.deepcopy(SMALL)
    data["maps"][0]["document"] = map_document
    data["special_rules"] = ["Night.", "Smoke.", "x" * 1_048_576]
    response = user_client.post("/api/scenarios/", {"document": data}, format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["message"] == "special rule 3 is 1,048,576 characters; at most 4,000"
    assert error["path"].endswith("special_rules[2]")  # (under the request's "document")
    assert not Scenario.objects.exists()
