"""The editor's view of a map its special rules change: GET /api/scenarios/<id>/maps/<key>/ gives the changed map
file, to whoever may read the scenario and its maps, and the same refusals as the scenario's other reads."""

import copy

import pytest

from tests.scenarios.test_scenario_maps import on_maps, stored

pytestmark = pytest.mark.django_db

WOODS_TO_BRUSH = {"text": "The woods were cut down: treat them as brush.", "terrain": [{"replace": {"woods": "brush"}}]}


def with_rule(data):
    data = copy.deepcopy(data)
    data["special_rules"] = ["Night: visibility 2 hexes.", WOODS_TO_BRUSH]
    return data


def cell(document, label):
    return next((h for h in document["hexes"] if h["hex"] == label), None)


def test_the_changed_map_is_the_map_with_the_rule_made(user_client, user, user_map):
    scenario = stored(user, with_rule(on_maps(("main", user_map))))
    answer = user_client.get(f"/api/scenarios/{scenario.pk}/maps/main/")
    assert answer.status_code == 200, answer.content
    assert cell(answer.json()["document"], "C4")["terrain"] == ["brush"]  # woods in C4 on the small map
    plain = user_client.get(f"/api/maps/{user_map.pk}/").json()["document"]
    assert cell(plain, "C4")["terrain"] == ["woods"]


def test_an_embedded_map_is_changed_too(user_client, user, small):
    scenario = stored(user, with_rule(small))
    answer = user_client.get(f"/api/scenarios/{scenario.pk}/maps/{small['maps'][0]['key']}/")
    assert answer.status_code == 200 and cell(answer.json()["document"], "C4")["terrain"] == ["brush"]


def test_no_such_map_and_another_users_private_scenario_are_404(user_client, other_client, user, user_map):
    scenario = stored(user, with_rule(on_maps(("main", user_map))))
    assert user_client.get(f"/api/scenarios/{scenario.pk}/maps/elsewhere/").status_code == 404
    assert other_client.get(f"/api/scenarios/{scenario.pk}/maps/main/").status_code == 404


def test_a_private_map_is_refused_through_a_published_scenario(other_client, user, user_map):
    scenario = stored(user, with_rule(on_maps(("main", user_map))), published=True)
    answer = other_client.get(f"/api/scenarios/{scenario.pk}/maps/main/")
    assert answer.status_code == 403
    assert "woods" not in answer.content.decode() and "brush" not in answer.content.decode()


def test_a_rule_with_a_change_is_edited_and_undone_like_any_other(user_client, user, user_map):
    scenario = stored(user, {**on_maps(("main", user_map)), "special_rules": []})
    base = user_client.get(f"/api/scenarios/{scenario.pk}/").json()
    answer = user_client.post(f"/api/scenarios/{scenario.pk}/edits/", {"revision": base["revision"], "operations": [
        {"op": "insert", "path": "special_rules", "value": WOODS_TO_BRUSH}]}, format="json")
    assert answer.status_code == 200, answer.json()
    bad = user_client.post(f"/api/scenarios/{scenario.pk}/edits/", {"revision": answer.json()["revision"],
                                                                   "operations": [
        {"op": "set", "path": "special_rules[0].terrain[0].replace", "value": {"woods": "nowhere"}}]}, format="json")
    assert bad.status_code == 400
    message = bad.json()["errors"][0]["message"]
    assert "'nowhere' is not a terrain of" in message
    undo = user_client.get(f"/api/scenarios/{scenario.pk}/undo/").json()["undo"]
    assert {"op": "remove", "path": "special_rules[0]"} in undo[0]["operations"]
