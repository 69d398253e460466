"""Every write of a document (a map, a scenario), read top to bottom: the one service a view calls.

A kind of document names its adapter on its model (``Map.writes``, ``Scenario.writes``: a ``Kind``), and this
module calls it at named steps, in this order::

    edit(model, pk, author, revision, operations)       restore(model, pk, author, number, revision)
      1. read     the row as it is now; StaleRevision (409) when the client saw another revision
      2. apply    kind.apply(document, operations, author)  kind.restored(document, number, author)
                  the next revision's content (a documents.models.Written), worked out outside any transaction
      3. store    store(document, written, author, summary):
                    check      kind.check(owner, document, written)  what the kind weighs before writing
                    move on    the row, only if it is still at the revision read (StaleRevision otherwise)
                    record     the revision row: its delta, or a snapshot (documents.models)
                    stored     kind.stored(document, written, revision, checked), in the same transaction
      4. remember the state, in this process (documents.models.remember)

An edit "on whatever is current" (``revision`` None: a rename, an upload) is worked out again when another write
came first, up to ATTEMPTS times. ``create`` and ``replace`` take the same steps from a whole document. Nothing is
written when any step raises.
"""

import zlib

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from documents.models import SNAPSHOT_EVERY, StaleRevision, remember, summary_of
from documents.undo import undo_summary

ATTEMPTS = 3  # an edit "on whatever is current" worked out again when another write came first


class Kind:
    """What a kind of document does at each step of a write. Subclasses implement ``written``, ``apply`` and
    ``restored``; ``check`` and ``stored`` do nothing unless the kind weighs or counts something."""

    def written(self, doc, document=None):
        """The content of a whole document (a MapDoc, a ScenarioDoc) as the next revision of ``document`` (None:
        the first revision of a new one)."""
        raise NotImplementedError

    def apply(self, document, operations, author):
        """(the content after the edit operations, their summary); the kind's EditError when one is bad. What
        the operations may name is checked by ``author``'s rights."""
        raise NotImplementedError

    def restored(self, document, number, author):
        """The content of revision ``number`` brought back; the revision model's DoesNotExist if there is none."""
        raise NotImplementedError

    def columns(self, state):
        """Columns kept on the row beside the revision (name, ruleset ...), for lists that never read documents."""
        return {}

    def check(self, owner_id, document, written, **extra):
        """Before the write transaction (``document`` None: being created); what it gives is passed to stored."""
        return None

    def stored(self, document, written, revision, checked):
        """Inside the write transaction, once the row and the revision are written; raising undoes the write."""

    def inverse(self, before, after, changes):
        """The edit operations that undo a revision (documents.undo), or None when none can."""
        return None


def edit(model, pk, author, revision, operations, undoes=None):
    """Apply edit operations to a document; the new revision row.

    ``revision`` is the revision the client saw (None: whatever is current). ``undoes``: the revision these
    operations undo (the Undo button's), kept in the summary for documents.undo.
    """
    for document in current(model, pk, revision):
        written, summary = document.writes.apply(document, operations, author)
        try:
            return store(document, written, author, undo_summary(undoes, summary))
        except StaleRevision:
            if revision is not None:
                raise


def restore(model, pk, author, number, revision=None):
    """Bring back revision ``number`` as a new revision (a snapshot)."""
    for document in current(model, pk, revision):
        written = document.writes.restored(document, number, author)
        try:
            return store(document, written, author, f"restored revision {number}", snapshot=True)
        except StaleRevision:
            if revision is not None:
                raise


def replace(document, doc, author, summary):
    """Make a whole document (a sample file loaded again) the next revision of ``document``."""
    return store(document, document.writes.written(doc, document), author, summary)


def create(model, owner, doc, summary, published=False, **extra):
    """A new document at revision 1 from a whole document, with its first revision written. ``extra`` is for the
    kind's check (a map: the bytes of the board scan that comes with it)."""
    kind = model.writes
    written = kind.written(doc)
    checked = kind.check(owner.pk, None, written, **extra)
    with transaction.atomic():
        document = model.objects.create(owner=owner, content_hash=written.content_hash, published=published,
                                        revision=1, **kind.columns(written.state))
        revision = record(document, written, owner, summary)
        kind.stored(document, written, revision, checked)
    return document


def current(model, pk, revision):
    """The document as it is now, read once when the client saw ``revision`` (StaleRevision if it moved on), or up
    to ATTEMPTS times for an edit on whatever is current; StaleRevision when it kept moving meanwhile."""
    for _ in range(ATTEMPTS):
        document = model.objects.get(pk=pk)
        if revision is not None and revision != document.revision:
            raise StaleRevision(document.revision, revision)
        yield document
    raise StaleRevision(model.objects.get(pk=pk).revision, revision)


def store(document, written, author, summary, snapshot=False):
    """Make ``written`` the next revision, if the row is still at the revision it was read at.

    Everything is worked out before; the transaction only moves the row on, writes the revision and lets the kind
    count what it stored. Raises StaleRevision, and writes nothing, when the document has moved on since it was
    read.
    """
    kind = document.writes
    checked = kind.check(document.owner_id, document, written)
    with transaction.atomic():
        move_on(document, written, kind.columns(written.state))
        revision = record(document, written, author, summary, snapshot=snapshot)
        kind.stored(document, written, revision, checked)
    return revision


def move_on(document, written, columns):
    """Move the row to the next revision on ``WHERE revision = seen`` (the optimistic lock)."""
    model, seen = type(document), document.revision
    moved = model.objects.filter(pk=document.pk, revision=seen).update(
        content_hash=written.content_hash, revision=F("revision") + 1, updated=timezone.now(), **columns)
    if not moved:
        raise StaleRevision(model.objects.filter(pk=document.pk).values_list("revision", flat=True).first(), seen)
    for name, value in columns.items():
        setattr(document, name, value)
    document.content_hash, document.revision = written.content_hash, seen + 1


def record(document, written, author, summary, snapshot=False):
    """Write revision document.revision down: the delta, or a snapshot when asked, when there is no delta, or when
    the last snapshot is SNAPSHOT_EVERY - 1 revisions back; and keep the state in this process."""
    number = document.revision
    if not snapshot and written.changes is not None and number > 1:
        snapshot = not document.revisions.filter(number__gt=number - SNAPSHOT_EVERY, number__lt=number,
                                                 snapshot__isnull=False).exists()
    else:
        snapshot = True
    revision = document.revisions.create(
        number=number, content_hash=written.content_hash,
        snapshot=zlib.compress(written.data, 6) if snapshot else None,
        changes=None if snapshot else written.changes,
        author=author if author is not None and author.is_authenticated else None,
        summary=summary_of(summary))
    remember(document, number, written.content_hash, written.state, written.weight)
    return revision
