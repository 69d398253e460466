"""Answers under /api/ are JSON, errors included, and bodies past the upload limit are refused unread."""

import logging

from django.conf import settings
from django.http import HttpResponse, JsonResponse

from hexside.errors import client_error, client_error_body, too_large_detail

logger = logging.getLogger("django.request")


def is_api(request):
    return request.path.startswith("/api/")


class ApiErrorsMiddleware:
    """Three things, so that no view need remember them:

    - a body whose Content-Length passes HEXSIDE_MAX_UPLOAD_BYTES is refused (413) before anything reads it;
    - under /api/, an error page Django draws itself (404 for an unknown path, 403 for a failed CSRF check, 400
      for a bad host) becomes {"detail": ...};
    - under /api/, an exception no view handled becomes a JSON 4xx when it is the request's fault (see
      hexside.errors.client_error) and a JSON 500 without a traceback otherwise.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.HEXSIDE_MAX_UPLOAD_BYTES:
            return self.answer(request, 413, too_large_detail())
        response = self.get_response(request)
        if (is_api(request) and response.status_code >= 400 and not hasattr(response, "accepted_renderer")
                and not response.get("Content-Type", "").startswith("application/json")):
            return self.answer(request, response.status_code, getattr(response, "reason_phrase", "error").lower())
        return response

    def process_exception(self, request, exception):
        known = client_error(exception)
        if known is not None:
            return self.answer(request, *known)
        if is_api(request) and not settings.DEBUG:
            logger.error("Internal Server Error: %s", request.path, exc_info=exception,
                         extra={"status_code": 500, "request": request})
            request_id = getattr(request, "id", "-")
            return JsonResponse({"detail": f"internal error: the server failed to answer; it has been logged as "
                                           f"request {request_id}", "request": request_id}, status=500)
        return None

    def answer(self, request, status, detail):
        if is_api(request) or request.content_type == "application/json":
            response = JsonResponse(client_error_body(status, detail), status=status)
        else:
            response = HttpResponse(detail, status=status, content_type="text/plain; charset=utf-8")
        if status == 413:
            response["Connection"] = "close"  # the body was not read
        return response
