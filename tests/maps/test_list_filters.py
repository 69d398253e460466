"""The lists of maps and scenarios searched and filtered by the query string, a page at a time, the filter kept
from page to page; and a map's page opening the new-scenario form with that map chosen."""

import pytest

from authoring.models import Scenario, ScenarioEditor
from maps.models import Map
from web import lists

pytestmark = pytest.mark.django_db


def names(response, key="items"):
    return [getattr(item, "name", None) or item.title for item in response.context[key]]


def new_scenario(client, title, map):
    answer = client.post("/api/scenarios/", {"title": title, "map": map.pk}, content_type="application/json")
    assert answer.status_code == 201, answer.content
    return Scenario.objects.get(pk=answer.json()["id"])


def test_published_maps_by_words_and_game(client, make_map, user):
    make_map(user, published=True, name="Hill 112")
    Map.objects.filter(pk=make_map(user, published=True, name="Hill 314").pk).update(ruleset="ats")  # the listed field
    make_map(user, published=True, name="Carentan")
    make_map(user, published=False, name="Hill 60")
    assert sorted(names(client.get("/?q=hill"))) == ["Hill 112", "Hill 314"]
    assert names(client.get("/?q=hill&game=ats")) == ["Hill 314"]
    page = client.get("/?q=nothing-like-it")
    assert names(page) == [] and "No map matches" in page.content.decode()


def test_my_maps_published_or_private(client, make_map, user):
    make_map(user, published=True, name="Shown")
    make_map(user, published=False, name="Kept")
    client.force_login(user)
    assert names(client.get("/maps/mine/?show=private")) == ["Kept"]
    assert names(client.get("/maps/mine/?show=published")) == ["Shown"]
    assert sorted(names(client.get("/maps/mine/"))) == ["Kept", "Shown"]


def test_a_filter_pages_and_keeps_itself(client, make_map, user, monkeypatch):
    monkeypatch.setattr(lists, "PER_PAGE", 2)
    for i in range(5):
        make_map(user, published=True, name=f"Bocage {i}")
    make_map(user, published=True, name="Dunes")
    first = client.get("/?q=bocage")
    assert len(first.context["items"]) == 2 and first.context["page"].paginator.count == 5
    assert 'href="?q=bocage&amp;page=2"' in first.content.decode()
    last = client.get("/?q=bocage&page=3")
    assert names(last) == ["Bocage 0"]


def test_a_bad_filter_is_said_not_a_500(client, make_map, user):
    make_map(user, published=True, name="Hill 112")
    page = client.get("/?game=chess&q=hill")
    assert page.status_code == 200 and names(page) == ["Hill 112"]
    assert "Game: Select a valid choice" in page.content.decode()


def test_scenarios_mine_shared_published(client, user, other_user, make_map):
    mine_map, theirs_map = make_map(user, name="Mine"), make_map(other_user, published=True, name="Theirs")
    client.force_login(other_user)
    shared = new_scenario(client, "Shared with me", theirs_map)
    ScenarioEditor.objects.create(scenario=shared, user=user)
    public = new_scenario(client, "Public", theirs_map)
    Scenario.objects.filter(pk=public.pk).update(published=True)
    new_scenario(client, "Their secret", theirs_map)
    client.force_login(user)
    new_scenario(client, "My own", mine_map)
    assert sorted(names(client.get("/scenarios/"))) == ["My own", "Public", "Shared with me"]
    assert names(client.get("/scenarios/?show=mine")) == ["My own"]
    assert names(client.get("/scenarios/?show=shared")) == ["Shared with me"]
    assert names(client.get("/scenarios/?show=published")) == ["Public"]
    assert names(client.get("/scenarios/?q=PUB")) == ["Public"]
    assert names(client.get("/scenarios/?game=ats")) == []


def test_new_scenario_on_this_map(client, user, make_map, other_private_map):
    board = make_map(user, name="Bocage")
    client.force_login(user)
    page = client.get(f"/maps/{board.pk}/").content.decode()
    assert f'href="/scenarios/?map={board.pk}#new-scenario"' in page and "New scenario on this map" in page
    form = client.get(f"/scenarios/?map={board.pk}").content.decode()
    assert f'<option value="{board.pk}" selected>Bocage (ost)</option>' in form
    # another's private map is not offered, nor named
    refused = client.get(f"/scenarios/?map={other_private_map.pk}").content.decode()
    assert "Rival" not in refused and refused.count(" selected>") == 2  # the filter's two drop-downs only
