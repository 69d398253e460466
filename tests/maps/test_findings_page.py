"""The map page and the findings API on a map with a huge number of findings (issue 17, point 3): the page is
bounded whatever the map (counts by kind, the first few), and the API pages through every finding."""

import os
import re

import pytest

from engine import mapfile
from engine.hexgrid import Grid
from maps import findings
from maps.models import Map

PAGE_LIMIT = 1024 * 1024


def many_findings(size):
    """A size x size OST map where every hex is listed: a road alone in every other hex of every other column
    (road-isolated), the odd columns listed with only the defaults (redundant-hex), woods between."""
    grid = Grid("flat", size, size, "even", "letter-number")

    def terrain(col, row):
        if col % 2:
            return ["open"]
        return ["road"] if row % 2 == 0 else ["woods"]

    return {"format": "hexside-map", "version": 1, "name": "Everything wrong", "ruleset": "ost",
            "grid": grid.as_dict(),
            "hexes": [{"hex": grid.label(c, r), "terrain": terrain(c, r)} for c, r in grid.hexes()]}


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


@pytest.fixture
def largest(user, media):
    return Map.objects.create_from_doc(user, mapfile.parse(many_findings(500)), published=True)


@pytest.mark.django_db
def test_the_page_of_the_largest_map_with_every_hex_wrong_is_bounded_and_the_api_pages_through_all(
        largest, api_client, settings):
    settings.HEXSIDE_FINDINGS_WAIT_HEXES = 500 * 500  # checked on this request, not by a job (tested elsewhere)
    settings.HEXSIDE_THROTTLE_RATES = {**settings.HEXSIDE_THROTTLE_RATES, "findings": "1000/minute",
                                       "findings-address": "1000/minute"}  # 188 pages in a row
    response = api_client.get(f"/maps/{largest.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert len(response.content) < PAGE_LIMIT, len(response.content)
    listed = re.findall(r'<li data-finding="\d+"', page)
    outlined = re.findall(r'<g data-finding="\d+"', page)
    assert len(listed) == len(outlined) == findings.FIRST_SHOWN
    summary = findings.stored(findings.key_of(largest.ruleset, largest.content_hash)).summary
    count = summary["count"]
    assert count > 180_000
    assert f'<strong id="findings-count">{count}</strong>' in page
    kinds = {kind["code"]: kind["count"] for kind in summary["kinds"]}
    assert kinds["redundant-hex"] == 250 * 500 and kinds["road-isolated"] > 60_000
    for code, n in kinds.items():
        assert f"<td><code>{code}</code></td>" in page and f"<td>{n}</td>" in page
    assert "250000 hexes listed" in page
    assert 'id="findings-more"' in page and "<script>" not in page and "onclick" not in page

    # The API: every finding once, a page at a time, each page with the counts.
    seen, url, pages = [], f"/api/maps/{largest.pk}/findings/?page_size=1000", 0
    while url:
        body = api_client.get(url).json()
        assert body["count"] == count and len(body["findings"]) <= 1000
        assert {kind["code"]: kind["count"] for kind in body["kinds"]} == kinds
        seen.extend((f["path"], f["code"]) for f in body["findings"])
        url, pages = body["next"], pages + 1
    assert len(seen) == len(set(seen)) == count and pages == -(-count // 1000)
    first = api_client.get(f"/api/maps/{largest.pk}/findings/?page_size=50").json()["findings"]
    assert first == summary["first"]
    middle = api_client.get(f"/api/maps/{largest.pk}/findings/?page=3&page_size=700").json()["findings"]
    assert [(f["path"], f["code"]) for f in middle] == seen[1400:2100]  # across the stored parts


@pytest.mark.django_db
def test_a_page_of_findings_that_is_not_there_is_a_400_naming_it(user, user_client, media):
    map = Map.objects.create_from_doc(user, mapfile.parse(many_findings(8)))
    count = user_client.get(f"/api/maps/{map.pk}/findings/").json()["count"]
    assert count > 10
    for page, says in (("0", "there is no page 0"), ("abc", "whole number"), ("99", "from 1 to 1"),
                       ("-1", "no page -1"), ("9" * 30, "there is no page")):
        response = user_client.get(f"/api/maps/{map.pk}/findings/?page={page}")
        assert response.status_code == 400, (page, response.content)
        error = response.json()["errors"][0]
        assert error["path"] == "page" and says in error["message"], error
    last = user_client.get(f"/api/maps/{map.pk}/findings/?page=2&page_size={count - 5}").json()
    assert len(last["findings"]) == 5 and last["next"] is None and last["previous"]


@pytest.mark.django_db
def test_a_map_without_findings_has_one_empty_page(user, user_client, media, map_document):
    doc = {"format": "hexside-map", "version": 1, "name": "Clean", "ruleset": "ost",
           "grid": {"orientation": "flat", "columns": 4, "rows": 4, "stagger": "even", "labels": "letter-number"}}
    map = Map.objects.create_from_doc(user, mapfile.parse(doc))
    body = user_client.get(f"/api/maps/{map.pk}/findings/").json()
    assert body["count"] == 0 and body["findings"] == [] and body["next"] is None
    assert "No findings" in user_client.get(f"/maps/{map.pk}/").content.decode()


@pytest.mark.django_db
def test_findings_are_kept_per_content_and_ruleset_data(user, media):
    map = Map.objects.create_from_doc(user, mapfile.parse(many_findings(6)))
    key = findings.key_of(map.ruleset, map.content_hash)
    assert findings.stored(key) is None
    found = findings.map_findings(map)
    assert findings.stored(key).summary == found.summary
    assert len(found[0:len(found)]) == len(found) == found.summary["count"]
    assert key != findings.key_of("ats", map.content_hash) != findings.key_of(map.ruleset, "0" * 64)


@pytest.mark.django_db
def test_only_the_latest_contents_findings_are_kept(user, media, settings):
    settings.HEXSIDE_FINDINGS_KEPT = 2
    maps = [Map.objects.create_from_doc(user, mapfile.parse({**many_findings(4 + k), "name": f"Map {k}"}))
            for k in range(4)]
    keys = [findings.key_of(map.ruleset, map.content_hash) for map in maps]
    for k, map in enumerate(maps):
        findings.map_findings(map)
        os.utime(media / "findings" / keys[k], (1000 + k, 1000 + k))  # made in this order, a second apart
    assert [findings.stored(key) is not None for key in keys] == [False, False, True, True]
    assert findings.map_findings(maps[0]).summary["count"] > 0  # checked again when asked for


@pytest.mark.django_db
def test_findings_removed_while_read_are_a_503_to_ask_again(user, user_client, media):
    map = Map.objects.create_from_doc(user, mapfile.parse(many_findings(6)))
    found = findings.map_findings(map)
    for part in found.path.glob("part-*"):
        part.unlink()  # as if pruned between the summary and the page
    response = user_client.get(f"/api/maps/{map.pk}/findings/")
    assert response.status_code == 503 and "ask again" in response.json()["detail"]


@pytest.mark.django_db
def test_checks_that_failed_lately_are_not_started_again_by_each_visitor(user, api_client, media, settings):
    from django.utils import timezone

    from jobs import dispatch
    from jobs.models import Job

    settings.HEXSIDE_FINDINGS_WAIT_HEXES = 10
    map = Map.objects.create_from_doc(user, mapfile.parse(many_findings(12)), published=True)
    parameters = {"checks": findings.key_of(map.ruleset, map.content_hash)}
    Job.objects.create(kind="map-findings", parameters=parameters,
                       request_key=dispatch.request_key("map-findings", parameters), subject_type="map",
                       subject_id=map.pk, content_hash=map.content_hash, status=Job.Status.FAILED,
                       finished=timezone.now(), error="MemoryError: out of memory")
    page = api_client.get(f"/maps/{map.pk}/")
    assert page.status_code == 200 and "checks failed (MemoryError: out of memory)" in page.content.decode()
    response = api_client.get(f"/api/maps/{map.pk}/findings/")
    assert response.status_code == 503 and "tried again 60 minutes after" in response.json()["detail"]
    assert Job.objects.count() == 1  # nothing started again
