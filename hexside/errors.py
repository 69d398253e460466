"""Every error under /api/ is JSON with a reason: DRF's exception handler; the documents' errors (problems with
their paths, edits that do not apply, a revision that moved on) in the API's shapes; and the few errors from below
DRF (an oversize body, a number the database cannot hold, a SQLite database locked past its timeout) answered as
what they are rather than as a 500.

Every error body is bounded (:func:`bounded`, applied by the exception handler and, for a 4xx answered without
an exception, by hexside.renderers): a bad 13 MB map has half a million problems, and listing each, echoing each
value, would answer 25 MB. The first MAX_LISTED of any list are listed and the rest counted in a last item, and
no string is longer than MAX_ECHOED characters."""

import logging
import re

from django.conf import settings
from django.core.exceptions import BadRequest, RequestDataTooBig, SuspiciousOperation
from django.db import DataError, OperationalError
from rest_framework import status
from rest_framework.exceptions import ParseError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from documents.models import StaleRevision
from documents.serializers import EditProblems, Problems
from engine import edits, mapfile

logger = logging.getLogger(__name__)

MAX_LISTED = 100  # items of any list (or keys of any object) in an error body; the rest are counted
MAX_ECHOED = 300  # characters of any string in an error body (a message may echo a value of any size)
MAX_NESTING = 8  # levels of an error body walked; deeper ones are summarised


def bounded(data, depth=0):
    """An error body cut to size: lists and objects to their first MAX_LISTED items, the rest counted in a last
    item of the same shape ("and 12,345 more like these"), strings to MAX_ECHOED characters. An ``errors`` list
    cut short also gives ``errors_total``. Idempotent, so it can be applied more than once."""
    if isinstance(data, str):
        return mapfile.shorten(data, MAX_ECHOED)
    if depth >= MAX_NESTING and isinstance(data, (dict, list, tuple)):
        return mapfile.shorten(str(data), MAX_ECHOED)
    if isinstance(data, dict):
        out, keys = {}, list(data)
        for key in keys[:MAX_LISTED] if len(keys) > MAX_LISTED + 1 else keys:
            out[mapfile.shorten(key, MAX_ECHOED) if isinstance(key, str) else key] = bounded(data[key], depth + 1)
        if len(keys) > MAX_LISTED + 1:  # the one more may be the count of a body already cut
            out["more"] = f"and {len(keys) - MAX_LISTED:,} more like these"
        errors = data.get("errors")
        if isinstance(errors, list) and len(errors) > MAX_LISTED + 1:
            out["errors_total"] = data.get("errors_total", _total(errors))
        return out
    if isinstance(data, (list, tuple)):
        if len(data) <= MAX_LISTED + 1:
            return [bounded(item, depth + 1) for item in data]
        items = [bounded(item, depth + 1) for item in data[:MAX_LISTED]]
        items.append(_more(data, _total(data) - MAX_LISTED))
        return items
    return data


MORE = re.compile(r"^and ([\d,]+) more ")


def _total(items):
    """How many items a list stands for: a reader that kept its first findings counted the rest in its last."""
    last = items[-1]
    message = last.get("message") if isinstance(last, dict) else last
    found = MORE.match(message) if isinstance(message, str) else None
    return len(items) - 1 + int(found.group(1).replace(",", "")) if found else len(items)


def _more(items, count):
    """The last item of a list cut short, in the shape of its items: a finding's or a message's."""
    message = f"and {count:,} more like these (the first {MAX_LISTED} are listed)"
    first = items[0]
    if isinstance(first, dict):
        return {**{key: None for key in first}, **({"path": "$"} if "path" in first else {}),
                **({"code": "more-errors"} if "code" in first else {}),
                **({"severity": first.get("severity")} if "severity" in first else {}),
                "message": message}
    return message


def too_large_detail():
    limit = settings.HEXSIDE_MAX_UPLOAD_BYTES
    return (f"the request body is larger than the limit of {limit} bytes ({limit / 1048576:.1f} MB, "
            "HEXSIDE_MAX_UPLOAD_BYTES)")


def client_error(exc):
    """(status, detail) for an exception that is the request's fault rather than the server's; else None."""
    if isinstance(exc, RequestDataTooBig):
        return status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, too_large_detail()
    if isinstance(exc, OverflowError) or (isinstance(exc, DataError) and "out of range" in str(exc)):
        # A number past what the database holds (SQLite: OverflowError, PostgreSQL: DataError): nothing has
        # that id, and nothing can be stored with it.
        return status.HTTP_400_BAD_REQUEST, "a number in the request is too large (at most 9223372036854775807)"
    if isinstance(exc, OperationalError) and "database is locked" in str(exc):
        # SQLite: another process held the write lock past the timeout. Nothing was written; it is worth retrying.
        return status.HTTP_503_SERVICE_UNAVAILABLE, "the database is busy with other writes; nothing was changed, " \
                                                    "try again in a moment"
    return None


def client_error_body(code, detail):
    """The body of a client_error answer; a 400 also lists it as a problem at "$", in the documents' shape (an
    edit's problems name their operation: none here)."""
    if code == status.HTTP_400_BAD_REQUEST:
        return {"detail": detail, "errors": [{"operation": None, "path": "$", "hex": None, "message": detail}]}
    return {"detail": detail}


def document_error(exc):
    """The answer to a document's error: 400 with each problem and its path, or 409 with the current revision."""
    if isinstance(exc, edits.EditError):
        exc = EditProblems(exc.errors)
    elif isinstance(exc, mapfile.FormatError):
        exc = Problems(exc.errors)
    if isinstance(exc, Problems):
        return Response(bounded(exc.payload()), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, StaleRevision):
        return Response({"detail": f"the edits were made on revision {exc.seen} but the map is at revision "
                                   f"{exc.current}; reload it and apply them again", "revision": exc.current},
                        status=status.HTTP_409_CONFLICT)
    return None


def exception_handler(exc, context):
    response = document_error(exc)
    if response is not None:
        return response
    if isinstance(exc, ParseError):
        # A body that is not JSON (or not a form): a problem at "$", in the same shape as every other 400
        return Response(client_error_body(status.HTTP_400_BAD_REQUEST, str(exc.detail)), status=exc.status_code)
    response = drf_exception_handler(exc, context)
    if response is not None:
        response.data = bounded(response.data)
        return response
    known = client_error(exc)
    if known is None and isinstance(exc, (BadRequest, SuspiciousOperation)):
        # Django refusing a body DRF was parsing (more than DATA_UPLOAD_MAX_NUMBER_FIELDS form fields, too many
        # files...): the request's fault, and Django's message says which. (Outside DRF Django answers it 400.)
        known = status.HTTP_400_BAD_REQUEST, str(exc) or "the request is malformed"
    if known is not None:
        return Response(client_error_body(*known), status=known[0])
    return None
