"""The web server as `make run` starts it stays responsive while visitors wait for jobs and slow clients dribble:
a long poll holds no thread that serves pages, and a client sending a byte a second holds none either."""

import pytest

from jobs.models import Job
from tests import webload
from tests.jobs.workers import database_url

pytestmark = pytest.mark.django_db(transaction=True)

LONG_POLLS = 24
SLOW_CLIENTS = 20
DEADLINE = 5  # seconds: a functional bound (the page takes milliseconds; before, 36 s or never)


@pytest.fixture
def web_server(tmp_path, settings):
    from django.db import connection

    port = webload.free_port()
    server = webload.start_web_server(port, webload.server_env(database_url(connection.settings_dict), tmp_path),
                                      tmp_path / "web.log")
    try:
        webload.wait_until_it_answers(server, f"http://127.0.0.1:{port}/accounts/login/")
        yield port
    finally:
        webload.stop_web_server(server)


def test_a_page_answers_while_24_visitors_wait_for_a_job_and_20_clients_dribble(web_server, other_published_map):
    port = web_server
    job = Job.objects.create(kind="los", parameters={"from": "C4", "to": "H6"}, request_key="x" * 64,
                             subject_type="map", subject_id=other_published_map.pk)  # no worker: queued for ever
    polls = webload.long_polls(port, f"/api/jobs/{job.pk}/", LONG_POLLS)
    slow = webload.SlowClients(port, SLOW_CLIENTS)
    try:
        seconds, status = webload.timed_get(f"http://127.0.0.1:{port}/accounts/login/", timeout=DEADLINE * 2)
        assert status == 200
        assert seconds < DEADLINE
        # the waits were real: each long poll is still open, with no answer yet
        for sock in polls:
            sock.setblocking(False)
            with pytest.raises(BlockingIOError):
                sock.recv(1)
    finally:
        slow.stop()
        webload.close(polls)
