"""DRF's JSON renderer, able to put JSON already written (a job's result file) into a response as it is.

A 500 x 500 viewshed is about 40 MB of JSON; read back into Python objects to be written out again it would take
several hundred MB of the web process per request. Copied as bytes it takes its own size.
"""

import uuid

from rest_framework import renderers


class StoredJSON:
    """A response value that is a stored file of JSON text (a FieldFile), copied into the response unparsed."""

    __slots__ = ("file",)

    def __init__(self, file):
        self.file = file

    def read(self):
        with self.file.open("rb") as f:
            return f.read()


class JSONRenderer(renderers.JSONRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None):
        response = (renderer_context or {}).get("response")
        if response is not None and response.status_code >= 400 and isinstance(data, (dict, list)):
            from hexside.errors import bounded  # every error body within bounds, however a view answered it

            data = bounded(data)
        stored = {key: value for key, value in data.items() if isinstance(value, StoredJSON)} \
            if isinstance(data, dict) else {}
        if not stored:
            return super().render(data, accepted_media_type, renderer_context)
        data, tokens = dict(data), {}
        for key, value in stored.items():
            token = f"stored-json-{uuid.uuid4().hex}"
            data[key], tokens[token] = token, value
        body = super().render(data, accepted_media_type, renderer_context)
        for token, value in tokens.items():
            body = body.replace(f'"{token}"'.encode(), value.read(), 1)
        return body
