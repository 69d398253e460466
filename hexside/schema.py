"""The API schema's error answers, written once (settings: REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]).

A view documents what it answers when all goes well, and the errors that are its own business (a 409 on a stale
revision, a 503 when the queue is down). The errors every operation shares are added here, each with the body it
has (the ``RequestError`` component): 400 when there is a body or a query to get wrong, 403 (a wrong token, or not
allowed), 404 when the path names something, 413 and 415 when there is a body, 429 when the view is
rate-limited. So a
client, and schemathesis (tests/test_schemathesis.py), can hold the API to its schema. A request serializer that
refuses unknown keys (``refuses_unknown_keys``) says so: ``additionalProperties: false``.
"""

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import ResolvedComponent

PROBLEM = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "Where in the request, e.g. hexes[3].terrain[0]."},
        "hex": {"type": "string", "nullable": True, "description": "The hex's label, when it is about one."},
        "message": {"type": "string"},
        "operation": {"type": "integer", "nullable": True, "description": "The edit operation's index."},
    },
    "required": ["path", "message"],
}
ERROR = {
    "type": "object",
    "description": "What is wrong: problems with their paths in `errors` (a document, an edit, a sign-in), a "
                   "sentence in `detail` (not found, not allowed, throttled, not JSON), or the request's fields "
                   "each with a list of what is wrong with it (e.g. {\"from\": [\"hex Z99 is off the map\"]}).",
    "properties": {"detail": {"type": "string"}, "errors": {"type": "array", "items": PROBLEM}},
    "additionalProperties": True,
}
WHY = {
    "400": "The request is wrong: what and where.",
    "403": "Not allowed: not signed in (or a wrong token), or not yours to change.",
    "404": "Nothing there, or nothing you may see.",
    "413": "The request body is larger than the limit (HEXSIDE_MAX_UPLOAD_BYTES).",
    "415": "The body is not of a media type this operation reads (see its request body).",
    "429": "Too many requests: the detail (and the Retry-After header) says when to try again.",
}
WRITES = ("POST", "PUT", "PATCH")


class AutoSchema(SpectacularAutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        error = ResolvedComponent(name="RequestError", type=ResolvedComponent.SCHEMA, object="RequestError",
                                  schema=ERROR)
        self.registry.register_on_missing(error)
        for code in self.error_codes():
            responses.setdefault(code, {"description": WHY[code]})
        for code, response in responses.items():
            if code[0] == "4" and "content" not in response:
                response["content"] = {"application/json": {"schema": error.ref}}
        return responses

    def _map_basic_serializer(self, serializer, direction):
        """A request serializer that refuses keys it does not know (refuses_unknown_keys) says so in the schema."""
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and getattr(serializer, "refuses_unknown_keys", False):
            schema["additionalProperties"] = False
        return schema

    def error_codes(self):
        codes = ["403"]
        queried = any(p.get("in") == "query" for p in self._get_parameters())
        if self.method in WRITES or queried:
            codes.append("400")
        if self.method in WRITES:
            codes += ["413", "415"]
        if "{" in self.path:
            codes.append("404")
        if self.view.get_throttles():
            codes.append("429")
        return codes
