"""A large map's findings are checked by a map-findings job on a real worker, once per content (issue 17,
point 3): the page and the API say so meanwhile, then show them."""

import pytest

from engine import mapfile
from jobs.models import Job
from maps import findings
from maps.models import Map, apply_edits
from tests.jobs.test_workers import follow
from tests.maps.test_findings_page import many_findings


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_large_map_is_checked_by_a_job_once_and_its_findings_then_shown(worker, user, user_client, api_client,
                                                                          settings):
    settings.HEXSIDE_FINDINGS_WAIT_HEXES = 10  # "large": anything past 10 hexes
    map = Map.objects.create_from_doc(user, mapfile.parse(many_findings(12)), published=True)
    page = api_client.get(f"/maps/{map.pk}/").content.decode()
    assert 'id="findings-checking"' in page and "being checked" in page and "<li data-finding" not in page
    asked = api_client.get(f"/api/maps/{map.pk}/findings/")
    assert asked.status_code == 202 and asked["Retry-After"]
    job = asked.json()
    assert Job.objects.get(pk=job["job"]).kind == "map-findings"
    again = user_client.get(f"/api/maps/{map.pk}/findings/")
    # the same content is checked once, whoever asks: the same job while it runs, its findings once it has run
    # (the worker may already have finished it)
    assert again.json()["job"] == job["job"] if again.status_code == 202 else again.status_code == 200
    assert Job.objects.filter(kind="map-findings").count() == 1

    done = follow(user_client, job["url"])
    assert done["status"] == "succeeded", done
    expected = findings.check(mapfile.parse(map.document))
    body = api_client.get(f"/api/maps/{map.pk}/findings/?page_size=1000").json()
    assert body["count"] == done["result"]["count"] == len(expected) > findings.FIRST_SHOWN
    assert body["findings"] == expected
    page = api_client.get(f"/maps/{map.pk}/").content.decode()
    assert page.count("<li data-finding") == findings.FIRST_SHOWN and 'id="findings-more"' in page

    # An edit is new content: checked again, by a new job.
    apply_edits(map.pk, user, None, [{"op": "set_terrain", "hexes": ["A1"], "terrain": ["woods"]}])
    moved = api_client.get(f"/api/maps/{map.pk}/findings/")
    assert moved.status_code == 202 and moved.json()["job"] != job["job"]
