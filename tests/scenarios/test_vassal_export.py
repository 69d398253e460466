"""A scenario's VASSAL module as an export job: the public module for anyone who may read the scenario, a side's
module (its hidden units) only for a reader holding that side; bad options refused by field."""

import io
import zipfile

import pytest
from rest_framework.test import APIClient

from authoring.models import SideLink
from tests.scenarios.test_hidden import job_result

pytestmark = pytest.mark.usefixtures("jobs_isolated")  # what these tests send goes to their own broker folder

HIDDEN_UNIT = "PaK 40"  # hidden in the Hill 112 sample's German OOB (docs/scenario-format.md, "hidden")


def module_build(client, job):
    file = client.get(f"/api/jobs/{job['id']}/file/")
    assert file.status_code == 200
    content = b"".join(file.streaming_content)
    with zipfile.ZipFile(io.BytesIO(content)) as z:
        return z.read("buildFile.xml").decode()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_owner_exports_the_public_module_and_a_sides_module(samples, jobs):
    scenario = samples["ost"]
    owner = APIClient()
    owner.force_login(scenario.owner)
    url = f"/api/scenarios/{scenario.pk}/print/"
    public, _ = job_result(owner, url, {"format": "vassal", "hex_mm": 12})
    assert public["parameters"]["side"] is None and public["parameters"]["dpi"] == 100
    assert public["result"]["filename"].endswith(".vmod")
    build = module_build(owner, public)
    assert "VASSAL.build.GameModule" in build and HIDDEN_UNIT not in build
    german, _ = job_result(owner, url, {"format": "vassal", "side": "german", "hex_mm": 12})
    assert german["id"] != public["id"] and HIDDEN_UNIT in module_build(owner, german)


@pytest.mark.django_db
def test_a_side_is_only_for_its_holder_and_bad_options_are_refused_by_field(samples, other_user):
    scenario = samples["ost"]
    link = SideLink.objects.create(scenario=scenario, side="british")
    holder = APIClient()
    holder.force_login(other_user)
    url = f"/api/scenarios/{scenario.pk}/print/?link={link.token}"
    refused = holder.post(url, {"format": "vassal", "side": "german"}, format="json")
    assert refused.status_code == 400 and "not yours" in str(refused.json()["side"])
    unknown = holder.post(url, {"format": "vassal", "side": "french"}, format="json")
    assert unknown.status_code == 400 and "no side 'french'" in str(unknown.json()["side"])
    card = holder.post(url, {"format": "pdf", "side": "british"}, format="json")
    assert card.status_code == 400 and "side" in card.json()
    small = holder.post(url, {"format": "vassal", "hex_mm": 1}, format="json")
    assert small.status_code == 400 and "hex_mm" in small.json()
    blurred = holder.post(url, {"format": "vassal", "hex_mm": 4, "dpi": 10}, format="json")
    assert blurred.status_code == 400 and "pixels across" in str(blurred.json()["dpi"])
