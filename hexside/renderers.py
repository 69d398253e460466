"""DRF's JSON renderer, able to put JSON already written (a job's result file, web.responses.StoredJSON)
into a response as it is, and keeping every error body within bounds."""

import uuid

from rest_framework import renderers

from hexside.errors import bounded
from web.responses import StoredJSON


class JSONRenderer(renderers.JSONRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None):
        response = (renderer_context or {}).get("response")
        if response is not None and response.status_code >= 400 and isinstance(data, (dict, list)):
            data = bounded(data)  # every error body within bounds, however a view answered it
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
