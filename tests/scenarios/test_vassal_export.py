"""A scenario's VASSAL module as an export job: the module both sides play (every side's hidden units, masked) only
for a reader holding every side, a print of a side's view only for a reader holding that side; bad options refused
by field."""

import io
import re
import zipfile

import pytest
from rest_framework.test import APIClient

from authoring.models import SideLink
from tests.engine.exports import vassal_decode
from tests.scenarios.test_hidden import job_result

pytestmark = pytest.mark.usefixtures("jobs_isolated")  # what these tests send goes to their own broker folder

HIDDEN_UNIT = "PaK 40"  # hidden in the Hill 112 sample's German OOB (docs/scenario-format.md, "hidden")


def module_texts(client, job):
    """The module's buildFile and its predefined setup's commands, as VASSAL reads them."""
    file = client.get(f"/api/jobs/{job['id']}/file/")
    assert file.status_code == 200
    content = b"".join(file.streaming_content)
    with zipfile.ZipFile(io.BytesIO(content)) as z:
        build = z.read("buildFile.xml").decode()
        setup = re.search(r'file="([^"]+\.vsav)"', build).group(1)
        return build, "\x1b".join(vassal_decode.saved_game(z.read(setup)))


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_owner_exports_the_module_both_sides_play_and_a_sides_view(samples, jobs):
    scenario = samples["ost"]
    owner = APIClient()
    owner.force_login(scenario.owner)
    url = f"/api/scenarios/{scenario.pk}/print/"
    play, _ = job_result(owner, url, {"format": "vassal", "hex_mm": 12})
    assert play["parameters"]["side"] is None and play["parameters"]["dpi"] == 100
    assert play["parameters"]["sides"] == "all"  # it holds every side's secrets: only for who holds them all
    assert play["result"]["filename"].endswith(".vmod")
    build, setup = module_texts(owner, play)
    assert "VASSAL.build.GameModule" in build and HIDDEN_UNIT in setup and HIDDEN_UNIT not in build
    british, _ = job_result(owner, url, {"format": "vassal", "side": "british", "hex_mm": 12})
    assert british["id"] != play["id"] and HIDDEN_UNIT not in module_texts(owner, british)[1]


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
    small = holder.post(url, {"format": "vassal", "side": "british", "hex_mm": 1}, format="json")
    assert small.status_code == 400 and "hex_mm" in small.json()
    play = holder.post(url, {"format": "vassal"}, format="json")
    assert play.status_code == 400 and "only the scenario's owner" in str(play.json()["side"])
    blurred = holder.post(url, {"format": "vassal", "side": "british", "hex_mm": 4, "dpi": 10}, format="json")
    assert blurred.status_code == 400 and "pixels across" in str(blurred.json()["dpi"])
