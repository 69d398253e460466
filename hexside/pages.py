"""The site's own 404 and 500 pages, in its layout; the 500 names the request id its log line carries."""

import logging

from django.http import HttpResponseNotFound, HttpResponseServerError
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)


def not_found(request, exception=None):
    return HttpResponseNotFound(render_to_string("404.html", {"path": request.path}, request=request))


def server_error(request):
    request_id = getattr(request, "id", "-")
    try:
        return HttpResponseServerError(render_to_string("500.html", {"request_id": request_id}, request=request))
    except Exception:  # the layout itself failed (the database is down, say): a plain page still answers
        logger.exception("the 500 page could not be drawn")
        return HttpResponseServerError(f"The server failed to answer; it has been logged as request {request_id}.",
                                       content_type="text/plain; charset=utf-8")
