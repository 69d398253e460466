"""Hostile load on a real web server, for tests/test_web_tier.py and bench/bench_web_tier.py: long polls that
wait for a job, slow clients that send their headers or their body a byte at a time, and the time a visitor's
plain page takes meanwhile. Every socket goes to the loopback address of the server under test."""

import contextlib
import http.client
import os
import select
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(url, timeout=2):
    try:
        urllib.request.urlopen(url, timeout=timeout).read()
    except urllib.error.HTTPError:
        return True  # an error page is an answer
    except OSError:
        return False
    return True


def make_run_command(port):
    """The web server's command exactly as `make run` builds it (hexside.run.commands())."""
    from argparse import Namespace

    from hexside.run import commands

    options = Namespace(host="127.0.0.1", port=str(port), workers=1, interactive_workers=1, heavy_queue="celery",
                        interactive_queue="interactive")
    return commands(options)["web server"]


def start_web_server(port, env, log_path, command=None):
    """The web server (by default as `make run` starts it), in a process group of its own."""
    command = command or make_run_command(port)
    log = open(log_path, "ab")  # noqa: SIM115 - open as long as the process runs
    process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True)
    process.log = log
    return process


def wait_until_it_answers(process, url, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the web server exited with {process.returncode}")
        if answers(url):
            return
        time.sleep(0.1)
    raise RuntimeError(f"the web server does not answer after {seconds} s")


def stop_web_server(process):
    from hexside.run import group_alive, signal_group

    signal_group(process.pid, signal.SIGTERM)
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        signal_group(process.pid, signal.SIGKILL)
        process.wait()
    deadline = time.monotonic() + 5
    while group_alive(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    signal_group(process.pid, signal.SIGKILL)
    process.log.close()


def connect(port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def long_polls(port, path, count, seconds=30):
    """``count`` requests that each ask to wait ``seconds`` for a job: sent whole, their answers left unread."""
    sockets = []
    for _ in range(count):
        sock = connect(port)
        sock.sendall(f"GET {path}?wait={seconds} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        sockets.append(sock)
    return sockets


def answer(sock, timeout):
    """(status, headers, body) of the answer to the request sent on ``sock``; None if none comes in ``timeout``."""
    sock.settimeout(timeout)
    response = http.client.HTTPResponse(sock)
    try:
        response.begin()
        return response.status, response.headers, response.read()
    except (TimeoutError, OSError):
        return None


def answered_yet(sock):
    """Whether anything of an answer has come on ``sock`` (without waiting for it)."""
    return bool(select.select([sock], [], [], 0)[0])


def closed_by_server(sock):
    """Whether the server has closed ``sock`` (without waiting)."""
    if not select.select([sock], [], [], 0)[0]:
        return False
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


class SlowClients:
    """Clients that send a byte a second: half never finish their headers, half never finish their body (a
    sign-in form, which Django reads). Until stop()."""

    def __init__(self, port, count, body_path="/accounts/login/", every=1.0):
        self.port, self.every = port, every
        self.sockets = []
        for i in range(count):
            sock = connect(self.port)
            if i % 2:
                sock.sendall(f"POST {body_path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                             f"application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\nu".encode())
            else:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            self.sockets.append(sock)
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._dribble, daemon=True)
        self.thread.start()

    def _dribble(self):
        while not self.stopped.wait(self.every):
            for sock in self.sockets:
                try:
                    sock.send(b"x")
                except OSError:
                    pass  # the server gave up on this one: so much the better

    def stop(self):
        self.stopped.set()
        self.thread.join()
        close(self.sockets)


def close(sockets):
    for sock in sockets:
        with contextlib.suppress(OSError):
            sock.close()


def threads_of(pid):
    """Threads of a process and of every process below it (the web server's workers), from /proc."""
    total = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if entry.name == str(pid) or stat[2] == str(pid):  # the process, or one in its group (its workers)
                total += int(stat[17])
    return total


def timed_get(url, timeout=60):
    """Seconds a GET takes to answer in full (``timeout`` when it does not)."""
    start = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    except OSError:
        return timeout, None
    return time.monotonic() - start, status


def server_env(database_url, var_dir):
    return {"DATABASE_URL": database_url, "HEXSIDE_VAR_DIR": str(var_dir), "SECRET_KEY": "a key for this test only",
            "DJANGO_SETTINGS_MODULE": "hexside.settings", "CELERY_BROKER_DIR": str(Path(var_dir) / "broker")}
