"""What a view answers besides its serializers' data: problems in the API's one shape, and JSON already written.

Problems come back as ``{"errors": [{"path", "hex", "message"}, ...]}`` (documents.serializers.Problems raises
them; a view that finds them itself answers errors_response).

A 500 x 500 viewshed is about 40 MB of JSON; read back into Python objects to be written out again it would take
several hundred MB of the web process per request. A StoredJSON is copied as bytes (hexside.renderers).
"""

from rest_framework import status
from rest_framework.response import Response


def errors_payload(findings):
    """The API's shape of problems: each finding's path, hex and message."""
    return {"errors": [{"path": f.path, "hex": f.hex, "message": f.message} for f in findings]}


def errors_response(findings, status_code=status.HTTP_400_BAD_REQUEST):
    return Response(errors_payload(findings), status=status_code)


class StoredJSON:
    """A response value that is a stored file of JSON text (a FieldFile), copied into the response unparsed."""

    __slots__ = ("file",)

    def __init__(self, file):
        self.file = file

    def read(self):
        with self.file.open("rb") as f:
            return f.read()
