"""Issue 27 point 5: a job's result file counts towards its requester's storage, and expires (JOBS_FILE_DAYS) with
its job, swept by the workers; the quota reads the truth before and after."""

import os
from datetime import timedelta

import pytest
from django.utils import timezone

from jobs import runner
from jobs.models import Job
from jobs.sweep import sweep
from maps import quotas

pytestmark = pytest.mark.django_db

PNG_BYTES = b"\x89PNG\r\n\x1a\n" + b"x" * 50_000


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def finish_with_file(job):
    """What a worker does with a job that made a file."""
    taken = runner.take(job.pk, "test pid 0")
    assert runner.finish(taken, runner.Outcome({"image": "print.png"}, file=("print.png", PNG_BYTES)))
    return Job.objects.get(pk=job.pk)


def test_a_result_file_counts_for_its_requester_until_it_expires(user, user_client, user_map, settings):
    before = quotas.used(user.pk)
    response = user_client.post(f"/api/maps/{user_map.pk}/print/", {"format": "png"}, format="json")
    assert response.status_code == 202, response.json()
    job = finish_with_file(Job.objects.get(pk=response.json()["job"]))
    assert job.result_bytes == len(PNG_BYTES) == job.result_file.size
    assert quotas.used(user.pk) - before == len(PNG_BYTES)
    path = job.result_file.path

    assert sweep() == []  # not old yet
    settings.JOBS_FILE_DAYS = 7
    done = sweep(timezone.now() + timedelta(days=8))
    assert (job.pk, "deleted: its result file expired") in done
    assert not Job.objects.filter(pk=job.pk).exists()
    assert not os.path.exists(path)
    assert quotas.used(user.pk) == before
    assert user_client.get(f"/api/jobs/{job.pk}/").status_code == 404


def test_files_kept_for_ever_when_the_setting_says_zero(user, user_client, user_map, settings):
    response = user_client.post(f"/api/maps/{user_map.pk}/print/", {"format": "png"}, format="json")
    job = finish_with_file(Job.objects.get(pk=response.json()["job"]))
    settings.JOBS_FILE_DAYS = 0
    assert sweep(timezone.now() + timedelta(days=400)) == []
    assert Job.objects.filter(pk=job.pk).exists()
