"""The web server as `make run` starts it stays responsive while visitors wait for jobs and slow clients dribble:
a long poll holds no thread that serves pages, a client sending a byte a second holds none either (and is cut
off past its deadline, hexside/webserver.py), and waits past the caps answer at once (jobs.waiting). Files
stream in chunks under ASGI (hexside/asgi.py)."""

import json
import time
import warnings

import pytest
from asgiref.sync import async_to_sync
from django.core.files.base import ContentFile
from django.http import FileResponse

from jobs.models import Job
from tests import webload
from tests.jobs.workers import database_url

LONG_POLLS = 24
SLOW_CLIENTS = 20
DEADLINE = 5  # seconds: a functional bound (the page takes milliseconds; before, 36 s or never)


@pytest.fixture
def start_server(tmp_path):
    from django.db import connection

    servers = []

    def start(**env):
        port = webload.free_port()
        server = webload.start_web_server(
            port, {**webload.server_env(database_url(connection.settings_dict), tmp_path), **env},
            tmp_path / f"web-{port}.log")
        servers.append(server)
        webload.wait_until_it_answers(server, f"http://127.0.0.1:{port}/accounts/login/")
        return port

    yield start
    for server in servers:
        webload.stop_web_server(server)


@pytest.fixture
def queued_job(other_published_map):
    """A job on a published map (anyone may follow it) that no worker will take."""
    return Job.objects.create(kind="los", parameters={"from": "C4", "to": "H6"}, request_key="x" * 64,
                              subject_type="map", subject_id=other_published_map.pk)


@pytest.mark.django_db(transaction=True)
def test_a_page_answers_while_24_visitors_wait_for_a_job_and_20_clients_dribble(start_server, queued_job):
    port = start_server()
    polls = webload.long_polls(port, f"/api/jobs/{queued_job.pk}/", LONG_POLLS)
    slow = webload.SlowClients(port, SLOW_CLIENTS)
    try:
        seconds, status = webload.timed_get(f"http://127.0.0.1:{port}/accounts/login/", timeout=DEADLINE * 2)
        assert status == 200
        assert seconds < DEADLINE
        assert sum(not webload.answered_yet(sock) for sock in polls) >= 8  # the waits are real

        Job.objects.filter(pk=queued_job.pk).update(status=Job.Status.SUCCEEDED, result={"clear": True})
        waited = 0
        for sock in polls:  # each answers soon: past the per-client cap at once, the others once the job is done
            status, headers, body = webload.answer(sock, DEADLINE)
            if "Retry-After" in headers:
                assert (status, json.loads(body)["status"]) == (200, "queued")
            else:
                assert (status, json.loads(body)["status"]) == (200, "succeeded")
                waited += 1
        assert waited >= 8  # the per-client cap, in at least one of the server's processes
    finally:
        slow.stop()
        webload.close(polls)


@pytest.mark.django_db(transaction=True)
def test_waits_past_a_clients_cap_answer_at_once_with_the_job_as_it_is(start_server, queued_job):
    port = start_server(HEXSIDE_JOBS_WAITS_PER_CLIENT="2")  # per web server process (make run has 2)
    polls = webload.long_polls(port, f"/api/jobs/{queued_job.pk}/", 10)
    try:
        started = time.monotonic()
        deadline = started + DEADLINE
        while time.monotonic() < deadline and sum(map(webload.answered_yet, polls)) < 6:
            time.sleep(0.05)
        answered = [sock for sock in polls if webload.answered_yet(sock)]
        assert len(answered) >= 6, f"{len(answered)} of 10 answered in {DEADLINE} s (a wait is 30 s)"
        for sock in answered:
            status, headers, body = webload.answer(sock, 1)
            assert (status, json.loads(body)["status"], headers["Retry-After"]) == (200, "queued", "1")
    finally:
        webload.close(polls)


@pytest.mark.django_db(transaction=True)
def test_a_client_too_slow_with_its_headers_or_its_body_is_cut_off(start_server):
    port = start_server(HEXSIDE_HEADER_SECONDS="1", HEXSIDE_BODY_SECONDS="2")
    slow = webload.SlowClients(port, 2, every=0.2)  # one dribbles its headers, one its body
    try:
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline and not all(map(webload.closed_by_server, slow.sockets)):
            time.sleep(0.05)
        assert [webload.closed_by_server(sock) for sock in slow.sockets] == [True, True]
    finally:
        slow.stop()


def test_a_result_file_streams_in_chunks_under_asgi_not_read_whole_into_memory(queued_job, settings, tmp_path):
    from hexside.asgi import Handler

    settings.MEDIA_ROOT = tmp_path
    data = bytes(range(256)) * 2048  # 512 KiB: several chunks
    queued_job.result_file.save("matrix.npz", ContentFile(data))
    response = FileResponse(queued_job.result_file.open("rb"))
    sent = []

    async def send(message):
        sent.append(message)

    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="StreamingHttpResponse must consume")  # Django's, when it reads all
        async_to_sync(Handler().send_response)(response, send)
    assert response.is_async
    assert b"".join(message.get("body", b"") for message in sent) == data
