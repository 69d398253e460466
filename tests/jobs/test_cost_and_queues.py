"""Issue 7 with real workers: job cost bounded before queueing (point 1), an analysis past the matrix budget run
in counts-only parts, no job failed for good by a database lock (point 3), LOS never waiting behind analyses."""

import threading
import time

import pytest

from engine import mapfile
from engine.los import engine
from jobs.models import Job
from maps.models import apply_edits
from tests.jobs.fixtures import interactive
from tests.jobs.test_workers import follow, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_jobs_past_the_cost_limits_are_refused_naming_the_limit_and_nothing_is_queued(user_client, user_map,
                                                                                      settings):
    hexes = user_map.hex_grid().size
    settings.HEXSIDE_MAX_ANALYSIS_PAIRS = hexes * (hexes - 1) // 2 - 1
    settings.HEXSIDE_MAX_VIEWSHED_HEXES = hexes - 1
    for path, data, limit in (("analysis", {}, "HEXSIDE_MAX_ANALYSIS_PAIRS"),
                              ("viewshed", {"from": "C4"}, "HEXSIDE_MAX_VIEWSHED_HEXES")):
        response = user_client.post(f"/api/maps/{user_map.pk}/{path}/", data, format="json")
        assert response.status_code == 400, response.content
        assert response.json()["limit"] == limit and limit in response.json()["detail"]
    assert not Job.objects.exists()
    settings.HEXSIDE_MAX_ANALYSIS_PAIRS += 1
    assert user_client.post(f"/api/maps/{user_map.pk}/analysis/", {}, format="json").status_code == 202


def test_an_analysis_past_the_matrix_budget_keeps_per_hex_counts_computed_in_parts(start_worker, user_client,
                                                                                    user_map, queue_name, settings):
    # The worker's own settings decide: no matrix past 10 pairs, and line tables so small that every part is
    # answered slice by slice (the path of a map too large for its whole grid's tables).
    settings.JOBS_QUEUE = queue = f"{queue_name}-counts"
    settings.JOBS_INTERACTIVE_QUEUE = ""
    start_worker("counts", queue=queue, env={"HEXSIDE_ANALYSIS_MATRIX_PAIRS": 10, "HEXSIDE_LOS_TABLE_MB": 0.05})
    url = user_client.post(f"/api/maps/{user_map.pk}/analysis/", {"height": 1}, format="json").json()["url"]
    body = follow(user_client, url)
    assert body["status"] == "succeeded", body
    assert body["result"]["mode"] == "counts" and body["result_file"] is None
    assert body["parts_done"] == body["parts_total"] > 1
    expected = engine.analyze(engine.compile_map(mapfile.parse(user_map.document)), height=1)
    assert body["result"]["hexes"] == expected.as_dict()["hexes"]
    assert body["result"]["pairs"] == expected.pairs


def test_no_job_fails_for_a_locked_database_while_a_user_edits_and_asks_los(start_worker, user_client, user_map,
                                                                           make_map, user, settings):
    """The issue's scene (42 of 60 analyses failed with "database is locked" on SQLite): analyses assembling
    while another process writes all the time. On PostgreSQL the same test shows nothing fails either."""
    settings.JOBS_LIVE_HEAVY = 10  # six analyses of one user at once: past the default cap of live jobs
    busy = start_worker("busy", concurrency=2, env={"HEXSIDE_TEST_PART_DELAY": 0.05})
    edited = make_map(user, name="Edited meanwhile")
    urls = [user_client.post(f"/api/maps/{user_map.pk}/analysis/", {"height": h}, format="json").json()["url"]
            for h in range(6)]
    stop = threading.Event()
    los = []

    def write_all_the_time():
        from django.db import connection
        n = 0
        while not stop.is_set():
            apply_edits(edited.pk, user, None, [{"op": "set_terrain", "hexes": ["B2"],
                                                 "terrain": ["woods" if n % 2 else "open"]}])
            n += 1
        connection.close()

    writer = threading.Thread(target=write_all_the_time)
    writer.start()
    try:
        for k in range(10):
            los.append(user_client.post(f"/api/maps/{user_map.pk}/los/", {"from": "A1", "to": [k, 5]},
                                        format="json").json()["url"])
            time.sleep(0.1)
        bodies = [follow(user_client, url, seconds=120) for url in urls + los]
    finally:
        stop.set()
        writer.join()
    failed = [(b["kind"], b["error"]) for b in bodies if b["status"] != "succeeded"]
    assert not failed
    busy.stop()  # it takes both queues: the next test's LOS must find only its own workers


def test_los_runs_on_its_own_queue_while_the_analysis_workers_are_busy(start_worker, user_client, user_map,
                                                                       queue_name):
    heavy = start_worker("heavy", queue=queue_name, env={"HEXSIDE_TEST_PART_DELAY": 3})
    quick = start_worker("quick", queue=interactive(queue_name))
    analysis = user_client.post(f"/api/maps/{user_map.pk}/analysis/", {"height": 2}, format="json").json()["url"]
    wait_until(lambda: user_client.get(analysis).json()["status"] == "running")
    body = follow(user_client, user_client.post(f"/api/maps/{user_map.pk}/los/", {"from": "A1", "to": "J8"},
                                                format="json").json()["url"])
    assert body["status"] == "succeeded" and body["worker"].startswith(quick.name)
    assert Job.objects.get(pk=body["id"]).queue == interactive(queue_name)
    assert user_client.get(analysis).json()["status"] == "running"  # still: the LOS answer did not wait for it
    heavy.stop()
    quick.stop()


def test_mapping_step_previews_run_on_the_heavy_workers_never_the_los_ones(start_worker, user_client, user_map,
                                                                           queue_name):
    """Issue 27, point 2: six previews by one designer took the LOS workers to 2.5 GB each, and another's LOS
    waited 61.5 s; a preview is a heavy job now, which the LOS worker never takes."""
    from tests.jobs.test_mapping_step import checked_file, choices

    quick = start_worker("quick", queue=interactive(queue_name))
    row = checked_file(user_client)
    preview = user_client.post(f"/api/validations/{row.batch_id}/files/{row.index}/preview/", choices(row),
                               format="json").json()["job_url"]
    los = follow(user_client, user_client.post(f"/api/maps/{user_map.pk}/los/", {"from": "A1", "to": "J8"},
                                               format="json").json()["url"])
    assert los["status"] == "succeeded" and los["worker"].startswith(quick.name)
    assert user_client.get(preview).json()["status"] == "queued"  # the LOS worker did not take it
    heavy = start_worker("heavy", queue=queue_name)
    body = follow(user_client, preview)
    assert body["status"] == "succeeded" and body["worker"].startswith(heavy.name) and body["result"]["image"]
    heavy.stop()
    quick.stop()
