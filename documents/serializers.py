"""Request and answer shapes every document (map, scenario) shares.

Problems in a request come back in one shape, ``{"errors": [{"path", "hex", "message"}, ...]}`` (edits add each
problem's ``operation`` and a ``detail``): the serializers raise Problems, a ValidationError carrying the findings,
and the exception handler (hexside.errors) answers it in that shape.
"""

from rest_framework import serializers
from rest_framework.exceptions import ParseError

from engine import edits, mapfile
from web.responses import errors_payload


class Problems(serializers.ValidationError):
    """A ValidationError holding the map or scenario format's findings, with their paths."""

    def __init__(self, findings):
        self.findings = list(findings)
        super().__init__([f.message for f in self.findings])

    def payload(self):
        return errors_payload(self.findings)


class EditProblems(Problems):
    """Problems of an edits request: each names its operation, and nothing was changed."""

    def payload(self):
        count = len(self.findings)
        return {"detail": f"{count} problem{'s' if count != 1 else ''} in the edits; nothing was changed",
                "errors": [p.as_dict() for p in self.findings]}


class ProblemsSerializer(serializers.Serializer):
    """A serializer whose problems are Problems (findings with their paths), raised as they are."""

    def is_valid(self, *, raise_exception=False):
        try:
            self._validated_data = self.validate(self.to_internal_value(self.initial_data))
        except Problems as exc:
            self._validated_data, self._errors = {}, exc.payload()
            if raise_exception:
                raise
            return False
        self._errors = {}
        return True


def problem(path, message):
    return mapfile.Finding(path, message)


def request_data(request):
    """The request's body; a body that does not parse is a problem at "$", in the same shape as the others."""
    try:
        return request.data
    except ParseError as exc:
        raise Problems([problem("$", str(exc.detail))]) from None


def uploaded(request, what):
    """(content, published) of an import request: the file as multipart ``file`` or the JSON body itself."""
    data = request_data(request)
    if request.content_type.startswith("application/json"):
        return data, published_flag(request.query_params.get("published"))
    upload = request.FILES.get("file")
    if upload is None:
        raise Problems([problem("file", f"upload the {what} file in the field 'file'")])
    return upload.read(), published_flag(data.get("published", request.query_params.get("published")))


def with_prefix(findings, prefix):
    """Findings about a document given inside a request (``document``), their paths from the request's root."""
    return [mapfile.Finding(prefix + f.path if f.path != "$" else (prefix[:-1] or "$"), f.message, f.hex)
            for f in findings]


class CreateSerializer(ProblemsSerializer):
    """A create request: a whole file in ``document``, or the parts of a blank document (``blank_keys``).

    Every problem is reported at once, by path; ``validated_data`` is ``{"doc", "published", "summary"}``.
    """

    blank_keys = ()
    kind = "document"
    refuses_unknown_keys = True  # the schema says so (hexside.schema)

    def keys(self):
        return ("document", *self.blank_keys, "published")

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise Problems([problem("$", "expected an object")])
        keys = self.keys()
        found = [problem(key, f"unknown key {key!r}; expected one of: {', '.join(keys)}")
                 for key in data if key not in keys]
        if "published" in data and not isinstance(data["published"], bool):
            found.append(problem("published", "expected true or false"))
        if "document" in data:
            found.extend(problem(key, self.both_message) for key in self.blank_keys if key in data)
            doc = self.read_file(data["document"], "document.", found)
        else:
            doc = self.read_blank(data, found)
        if doc is not None:
            try:
                self.check(doc)
            except mapfile.FormatError as exc:
                found.extend(exc.errors)
        if found:
            raise Problems(found)
        return {"doc": doc, "published": data.get("published", False),
                "summary": f"created from a {self.kind} file" if "document" in data else "created"}

    def check(self, doc):
        """Checks of the document read beyond its format's (FormatError)."""

    def read_file(self, source, prefix, found):
        try:
            return self.parse(source)
        except mapfile.FormatError as exc:
            found.extend(with_prefix(exc.errors, prefix))
            return None


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


class EditRequestSerializer(ProblemsSerializer):
    """The frame of an edits request, ``{"revision": N, "operations": [...]}``; the operations themselves are
    checked by the engine when they are applied (edits.EditError, answered in the same shape)."""

    refuses_unknown_keys = True
    revision = serializers.IntegerField(min_value=1, help_text="The revision the edits were made on.")
    operations = serializers.ListField(help_text="Applied in order; see docs/api.md.")
    undoes = serializers.IntegerField(required=False, min_value=1,
                                      help_text="The revision these operations undo (the Undo button's edits), "
                                                "kept in the summary so the undo history can be rebuilt.")

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise EditProblems([edits.Problem(None, "$", "expected {\"revision\": N, \"operations\": [...]}")])
        found = []
        revision = data.get("revision")
        if not isinstance(revision, int) or isinstance(revision, bool) or revision < 1:
            found.append(edits.Problem(None, "revision", "expected the revision the edits were made on, a whole "
                                                         f"number from 1; got {revision!r}"))
        undoes = data.get("undoes")
        if undoes is not None and (not isinstance(undoes, int) or isinstance(undoes, bool) or undoes < 1):
            found.append(edits.Problem(None, "undoes", "expected the number of the revision these edits undo, a "
                                                       f"whole number from 1; got {undoes!r}"))
        found.extend(edits.Problem(None, key, f"unknown key {key!r}; expected revision, operations and undoes")
                     for key in data if key not in ("revision", "operations", "undoes"))
        if found:
            raise EditProblems(found)
        return {"revision": revision, "operations": data.get("operations"), "undoes": undoes}


class RevisionSerializer(serializers.ModelSerializer):
    """A revision in a document's history; each app names its revision model in a Meta of its own."""

    author = serializers.CharField(source="author.username", allow_null=True, read_only=True)

    class Meta:
        fields = ["number", "content_hash", "author", "created", "summary"]
        read_only_fields = fields


DETAIL_FIELDS = RevisionSerializer.Meta.fields + ["document"]  # one revision, with its document


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
