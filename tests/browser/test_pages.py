"""The pages a newcomer sees first, in a real browser: the list of maps, one map with its image, the API docs."""

import pytest
from django.core.management import call_command

from maps.models import Map

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def samples():
    call_command("load_samples", verbosity=0)
    return Map.objects.order_by("name")


def test_home_lists_the_samples_and_opens_a_map_with_its_image(live_server, page, samples):
    page.goto(live_server.url + "/")
    # The stylesheet arrived (static/hexside.css paints the page's paper colour).
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(250, 248, 242)"
    rows = page.locator("tbody tr")
    assert rows.count() == samples.count() >= 5
    names = page.locator("tbody tr a.map-name").all_inner_texts()
    assert set(names) == {m.name for m in samples}

    hill = samples.get(ruleset="ost")
    page.get_by_role("link", name=hill.name).click()
    page.wait_for_load_state("networkidle")
    assert page.locator("h1").inner_text().startswith(hill.name)
    assert "ost" in page.locator("dl").inner_text()
    image = page.locator("img.map-image")
    image.wait_for()
    width = page.evaluate("() => document.querySelector('img.map-image').naturalWidth")
    assert width > 300  # the PNG arrived and decoded


def test_private_map_of_another_is_not_shown(live_server, page, samples, django_user_model):
    owner = django_user_model.objects.create_user("secretive", password="x")
    private = samples.first()
    private.owner, private.published = owner, False
    private.save()
    page.goto(live_server.url + "/")
    assert private.name not in page.locator("tbody").inner_text()
    response = page.goto(f"{live_server.url}/maps/{private.pk}/")
    assert response.status == 404


def test_api_docs_page_renders_offline(live_server, page):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(live_server.url + "/api/docs/")
    page.locator(".swagger-ui .opblock").first.wait_for(timeout=15000)
    text = page.locator(".swagger-ui").inner_text()
    assert "/api/maps/" in text and "/api/rulesets/" in text
    assert all(url.startswith(live_server.url) for url in requests), [u for u in requests
                                                                      if not u.startswith(live_server.url)]
