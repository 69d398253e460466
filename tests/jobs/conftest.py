"""Every job test has its broker folder, media folder and heartbeats set apart (tests/jobs/fixtures.py)."""

import pytest


@pytest.fixture(autouse=True)
def every_job_test_isolated(jobs_isolated):
    return jobs_isolated
