"""The map page's findings in a real browser (issue 17, point 3): the first 50 listed, "Show more" pages in the
rest from the API under a Content-Security-Policy that allows no inline script, and a large map's page waits for
its map-findings job on a real worker, then shows them."""

import re

import pytest
from playwright.sync_api import expect

from engine import mapfile
from maps.models import Map
from tests.maps.test_findings_page import many_findings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:"


def under_csp(page):
    """Serve every page with a CSP allowing scripts from files only: an inline script or handler would not run."""
    def add_csp(route):
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": CSP})

    page.route(re.compile(r".*/maps/\d+/$"), add_csp)


def test_the_first_findings_are_listed_and_more_paged_in_from_the_api(live_server, page, django_user_model,
                                                                      settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    owner = django_user_model.objects.create_user("sloppy", password="x")
    map = Map.objects.create_from_doc(owner, mapfile.parse(many_findings(14)), published=True)
    under_csp(page)
    page.goto(f"{live_server.url}/maps/{map.pk}/")
    count = int(page.locator("#findings-count").inner_text())
    assert count > 120
    items = page.locator("#findings-list li")
    assert items.count() == 50
    assert "redundant-hex" in page.locator("table.findings-kinds").inner_text()
    # The module runs under the CSP: pointing at a finding picks its hex out on the map.
    items.first.hover()
    assert "picked" in (page.locator('svg.findings-overlay g[data-finding="0"]').get_attribute("class") or "")
    more = page.locator("#findings-more")
    more.click()
    expect(items).to_have_count(100)  # (a locator: page.wait_for_function would need eval, which the CSP forbids)
    assert page.locator("#findings-shown").inner_text() == f"100 of {count} shown"
    while more.is_visible():
        shown = items.count()
        more.click()
        expect(items).not_to_have_count(shown)
    assert items.count() == count
    texts = items.all_inner_texts()
    assert len(set(texts)) == count and all(("warning" in t or "error" in t) for t in texts)


@pytest.mark.worker
def test_a_large_map_s_page_says_it_is_being_checked_then_shows_the_findings(
        live_server, page, worker, django_user_model, settings):
    settings.HEXSIDE_FINDINGS_WAIT_HEXES = 10
    owner = django_user_model.objects.create_user("large", password="x")
    map = Map.objects.create_from_doc(owner, mapfile.parse(many_findings(12)), published=True)
    under_csp(page)
    # The page as served says so; a warm worker may answer, and the page reload itself, before the DOM is read.
    served = page.goto(f"{live_server.url}/maps/{map.pk}/")
    assert 'id="findings-checking"' in served.text() and "being checked" in served.text()
    page.wait_for_selector("#findings-list li", timeout=60000)  # the page asked, then reloaded itself
    assert page.locator("#findings-list li").count() == 50
