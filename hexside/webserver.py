"""`make run`'s gunicorn worker: gunicorn's asyncio ASGI worker, with deadlines for slow clients.

gunicorn's ASGI worker waits for ever for a new connection's first request headers and for a request's body: a
client sending a byte a second holds its socket as long as it likes, and enough of them use up the process's
file descriptors. Here a connection has HEXSIDE_HEADER_SECONDS (10) to send its first request's headers (the
next ones have gunicorn's keep-alive, 2 s) and a request HEXSIDE_BODY_SECONDS (120) to send its body, or the
connection is closed. Behind nginx (docs/scale.md) requests arrive whole and these never fire.

    gunicorn hexside.asgi --worker-class hexside.webserver.Worker
"""

import os

from gunicorn.asgi.protocol import ASGIProtocol
from gunicorn.workers import gasgi


def seconds(name, default):
    return float(os.environ.get(name) or default)


class Protocol(ASGIProtocol):
    """One connection (gunicorn 27's, pinned): its deadlines armed and cleared around the parser's callbacks."""

    def connection_made(self, transport):
        super().connection_made(transport)
        self._deadline = None
        self._arm(seconds("HEXSIDE_HEADER_SECONDS", 10))

    def _on_headers_complete(self):
        self._arm(seconds("HEXSIDE_BODY_SECONDS", 120))  # until the body is in (at once for a GET)
        return super()._on_headers_complete()

    def _on_message_complete(self):
        self._clear()
        return super()._on_message_complete()

    def connection_lost(self, exc):
        self._clear()
        super().connection_lost(exc)

    def _arm(self, delay):
        self._clear()
        self._deadline = self.worker.loop.call_later(delay, self._too_slow)

    def _clear(self):
        if getattr(self, "_deadline", None) is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self):
        self._deadline = None
        self._keepalive_timeout()  # gunicorn's own way to close an idle connection and wake its loop


class Worker(gasgi.ASGIWorker):
    def init_process(self):
        gasgi.ASGIProtocol = Protocol  # the one name the worker makes its connections with (this process only)
        super().init_process()
