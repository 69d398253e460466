"""Request and answer shapes every document (map, scenario) shares.

Problems in a request come back in one shape, ``{"errors": [{"path", "hex", "message"}, ...]}`` (edits add each
problem's ``operation`` and a ``detail``): the serializers raise Problems, a ValidationError carrying the findings,
and the exception handler (hexside.errors) answers it in that shape.
"""

from rest_framework import serializers

from engine import edits, mapfile


class Problems(serializers.ValidationError):
    """A ValidationError holding the map or scenario format's findings, with their paths."""

    def __init__(self, findings):
        self.findings = list(findings)
        super().__init__([f.message for f in self.findings])

    def payload(self):
        return {"errors": [{"path": f.path, "hex": f.hex, "message": f.message} for f in self.findings]}


class EditProblems(Problems):
    """Problems of an edits request: each names its operation, and nothing was changed."""

    def payload(self):
        count = len(self.findings)
        return {"detail": f"{count} problem{'s' if count != 1 else ''} in the edits; nothing was changed",
                "errors": [p.as_dict() for p in self.findings]}


def problem(path, message):
    return mapfile.Finding(path, message)


def published_flag(value):
    """A published flag from a form field or a query parameter."""
    if value is None or isinstance(value, bool):
        return bool(value)
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("", "0", "false", "no", "off"):
        return False
    raise Problems([problem("published", f"expected true or false, got {value!r}")])


class EditRequestSerializer(serializers.Serializer):
    """The frame of an edits request, ``{"revision": N, "operations": [...]}``; the operations themselves are
    checked by the engine when they are applied (edits.EditError, answered in the same shape)."""

    revision = serializers.IntegerField(min_value=1, help_text="The revision the edits were made on.")
    operations = serializers.ListField(help_text="Applied in order; see docs/api.md.")

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise EditProblems([edits.Problem(None, "$", "expected {\"revision\": N, \"operations\": [...]}")])
        found = []
        revision = data.get("revision")
        if not isinstance(revision, int) or isinstance(revision, bool) or revision < 1:
            found.append(edits.Problem(None, "revision", "expected the revision the edits were made on, a whole "
                                                         f"number from 1; got {revision!r}"))
        found.extend(edits.Problem(None, key, f"unknown key {key!r}; expected revision and operations")
                     for key in data if key not in ("revision", "operations"))
        if found:
            raise EditProblems(found)
        return {"revision": revision, "operations": data.get("operations")}


class RestoreRequestSerializer(serializers.Serializer):
    revision = serializers.IntegerField(required=False, min_value=1,
                                        help_text="The current revision as the client knows it; 409 if stale.")


class EditResultSerializer(serializers.Serializer):
    revision = serializers.IntegerField()
    content_hash = serializers.CharField()
    summary = serializers.CharField()
    updated = serializers.DateTimeField()


class ConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    revision = serializers.IntegerField(help_text="The document's current revision.")


def edit_result(revision):
    return {"revision": revision.number, "content_hash": revision.content_hash, "summary": revision.summary,
            "updated": revision.created}
