"""The print-and-play kit as an export job: its sides are its requester's (the designer's every side, a link
holder's theirs), the one a link holder asks for is queued as theirs, and bad options are refused by field
before anything is queued. What each reader's kit holds is read PDF by PDF in tests/scenarios/test_hidden.py."""

import pytest
from rest_framework.test import APIClient

from authoring.models import SideLink
from jobs.models import Job

pytestmark = pytest.mark.usefixtures("jobs_isolated")  # what these tests send goes to their own broker folder


@pytest.mark.django_db
@pytest.mark.parametrize(("body", "field", "words"), [
    ({"counter_size": "3in"}, "counter_size", "counter size must be one of 1/2in"),
    ({"counter_size": "90"}, "counter_size", "from 8 to 40 mm"),
    ({"offset_x": 12}, "offset_x", "10"),
    ({"dpi": 150}, "dpi", "a kit has no dpi"),
    ({"sheet": "public"}, "sheet", "a kit has no sheet"),
    ({"hex_mm": 2}, "hex_mm", "4"),
])
def test_bad_kit_options_are_refused_by_field(samples, body, field, words):
    scenario = samples["ost"]
    owner = APIClient()
    owner.force_login(scenario.owner)
    before = Job.objects.count()
    answer = owner.post(f"/api/scenarios/{scenario.pk}/print/", {"format": "kit", **body}, format="json")
    assert answer.status_code == 400 and field in answer.json(), answer.json()
    assert words in str(answer.json()[field])
    assert Job.objects.count() == before  # nothing queued


@pytest.mark.django_db
def test_a_kits_sides_are_its_requesters(samples, other_user):
    scenario = samples["ost"]
    owner = APIClient()
    owner.force_login(scenario.owner)
    link = SideLink.objects.create(scenario=scenario, side="british")
    holder = APIClient()
    holder.force_login(other_user)
    mine = owner.post(f"/api/scenarios/{scenario.pk}/print/", {"format": "kit", "hex_mm": 10}, format="json")
    theirs = holder.post(f"/api/scenarios/{scenario.pk}/print/?link={link.token}", {"format": "kit", "hex_mm": 10},
                         format="json")
    assert mine.status_code in (200, 202) and theirs.status_code in (200, 202)
    designer, british = Job.objects.get(pk=mine.json()["job"]), Job.objects.get(pk=theirs.json()["job"])
    assert designer.parameters["sides"] == "all" and british.parameters["sides"] == ["british"]
    assert designer.parameters["counter_size"] == 15.875 and designer.parameters["offset"] == [0.0, 0.0]
    assert holder.get(f"/api/jobs/{designer.pk}/?link={link.token}").status_code == 404
