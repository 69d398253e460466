"""Errors logged with the id of the request they happened in, so that a designer's report ("request 3f2a…") and
the log line meet. The id is made here, never taken from the client, and sent back as X-Request-ID."""

import contextvars
import logging
import uuid

_request_id = contextvars.ContextVar("request_id", default="-")


def current_request_id():
    return _request_id.get()


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.id = uuid.uuid4().hex[:16]
        token = _request_id.set(request.id)
        try:
            response = self.get_response(request)
        finally:
            _request_id.reset(token)
        response["X-Request-ID"] = request.id
        return response


class RequestIdFilter(logging.Filter):
    """Gives every record a request_id: the request's, or "-" outside one (a worker, a command)."""

    def filter(self, record):
        if not hasattr(record, "request_id"):
            record.request_id = _request_id.get()
        return True
