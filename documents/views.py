"""The API of a document with revisions, the same for maps and scenarios: edits, the history, one revision,
restoring one, the current revision, and the download.

The viewsets keep their URLs and their schema (each action's decorator names its own serializers); the work is
here. Problems, stale revisions and engine errors are raised, and the exception handler (hexside.errors) answers
them in the API's shapes.
"""

import unicodedata

from django.http import Http404, HttpResponse
from django.utils.http import content_disposition_header
from rest_framework.response import Response

from documents import undo, writing
from documents.serializers import EditRequestSerializer, RestoreRequestSerializer, edit_result
from web import throttles


def content_disposition(filename, fallback="download.json"):
    """An attachment header by RFC 6266: ``filename="..."`` in ASCII for old clients, and, for a name that is not
    ASCII, ``filename*=utf-8''...`` (RFC 5987) with the real name, which browsers prefer."""
    header = content_disposition_header(True, filename)
    if filename.isascii():
        return header
    ascii_name = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode("ascii")
    stem, dot, extension = ascii_name.rpartition(".")
    stem = "-".join(part for part in "".join(c if c.isalnum() or c in "-_" else "-" for c in stem).split("-")
                    if part)
    ascii_name = f"{stem}{dot}{extension}" if stem else fallback
    return f'attachment; filename="{ascii_name}"; {header.removeprefix("attachment; ")}'


def download(document, text, fallback):
    """The document's file as a download, named after it, its content hash as the ETag."""
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition(document.filename(), fallback)
    response["ETag"] = f'"{document.content_hash}"'
    return response


def edit(view, request):
    """POST <document>/edits/: the operations checked by their serializer, then the one write service
    (documents.writing.edit), which calls the document's kind at each step; the new revision's answer."""
    document = view.get_object()
    serializer = EditRequestSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    data = serializer.validated_data
    new = writing.edit(type(document), document.pk, request.user, data["revision"], data["operations"],
                       undoes=data.get("undoes"))
    return Response(edit_result(new))


class DocumentViewSetMixin:
    """A ModelViewSet's document actions: each write is documents.writing's, which calls the steps the model
    names (``writes``)."""

    revision_serializer = None
    revision_detail_serializer = None

    def get_throttles(self):
        if self.action in ("edits", "restore"):  # each stores a revision, counted against the owner's quota
            return [throttle() for throttle in throttles.EDITS]
        return super().get_throttles()


    def undo_history(self, request):
        """The requester's undo and redo stacks on this document, rebuilt from its revisions (documents.undo);
        empty for whoever may not edit it."""
        document = self.get_object()
        if not self.may_edit(request, document):
            return Response({"revision": document.revision, "undo": [], "redo": []})
        return Response(undo.history(document, request.user))

    def may_edit(self, request, document):
        return request.user.is_authenticated and document.owner_id == request.user.pk

    def history(self):
        revisions = self.get_object().revisions.select_related("author").defer("snapshot", "changes")
        page = self.paginate_queryset(revisions)
        if page is not None:
            return self.get_paginated_response(self.revision_serializer(page, many=True).data)
        return Response(self.revision_serializer(revisions, many=True).data)

    def one_revision(self, number):
        document = self.get_object()
        revision = document.revisions.select_related("author").filter(number=number).first()
        if revision is None:
            raise Http404(f"{document._meta.verbose_name} {document.pk} has no revision {number}")
        return Response(self.revision_detail_serializer(revision, context={"request": self.request}).data)

    def restore_to(self, request, number):
        document = self.get_object()
        serializer = RestoreRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        revision = serializer.validated_data.get("revision")
        try:
            new = writing.restore(type(document), document.pk, request.user, int(number), revision)
        except document.revisions.model.DoesNotExist:
            raise Http404(f"{document._meta.verbose_name} {document.pk} has no revision {number}") from None
        return Response(edit_result(new))

    def current_revision(self):
        document = self.get_object()
        return Response({"revision": document.revision, "content_hash": document.content_hash})
