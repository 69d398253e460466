"""Issue 17, point 9: a batch's upload and the maps converted from its files count towards its owner's storage
quota, and the next upload past it is refused."""

import pytest

from jobs.models import Job
from maps import quotas
from tests.jobs.test_batch_validation import community_zip, run_parts_here, upload
from validations.models import BatchFile, BatchValidation


@pytest.mark.django_db
def test_a_batch_and_its_converted_maps_count_towards_the_quota(user, user_client, jobs_isolated, settings):
    data = community_zip()
    body = upload(user_client, "community.zip", data).json()
    assert run_parts_here(Job.objects.get(pk=body["job"])).status == "succeeded"
    converted = [row.document_bytes for row in BatchFile.objects.filter(batch_id=body["validation"])
                 if row.document is not None]
    assert converted and all(size > 100 for size in converted)
    assert quotas.used(user.pk) == len(data) + sum(converted)

    settings.HEXSIDE_STORAGE_QUOTA_MB = (len(data) + sum(converted) + 100) / quotas.MB
    refused = upload(user_client, "again.zip", data)
    assert refused.status_code == 400 and "this upload needs" in refused.json()["file"][0]
    assert BatchValidation.objects.count() == 1
