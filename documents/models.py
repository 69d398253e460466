"""A document with revisions: what maps and scenarios share.

A document (a map, a scenario) is numbered revisions. A revision stores the changes it made to the revision
before it, as a delta of the canonical document, or, every SNAPSHOT_EVERY revisions (and whenever the delta
would not be smaller, e.g. a restore), the whole document zlib-packed: saving a stroke writes in proportion to
the stroke, and reading any revision replays fewer than SNAPSHOT_EVERY deltas from the snapshot before it.

The document row holds the current revision's number and content hash, not the document: the current document
is the last revision read back, and each process keeps the last few it read or wrote (keyed by document, revision
and content hash, so a process never serves a revision another process moved on from). Edits are worked out
outside the write transaction, on the revision as read; the transaction only moves the row on if it is still at that
revision (an optimistic lock: StaleRevision otherwise, which the API answers with 409 and the current revision).
This module reads; every write goes through documents.writing, which calls each kind's steps (``Document.writes``).

The content hash is the sha256 of the exported file, as before: a function of content only (two documents with
the same content have the same hash), which jobs store to find the content they were asked about again
(content_at). Subclasses keep what they need to write the export quickly after a small change.
"""

import hashlib
import json
import threading
import zlib
from collections import OrderedDict

from django.conf import settings
from django.db import models

SNAPSHOT_EVERY = 50
CACHED_DOCUMENTS = 16
CACHED_WEIGHT = 1_000_000  # in the subclasses' units (a map: its listed hexes)


class StaleRevision(Exception):
    """The client edited a revision that is no longer the current one."""

    def __init__(self, current, seen=None):
        self.current, self.seen = current, seen
        super().__init__(f"the document is at revision {current}")


def pack(text):
    """A snapshot as a revision stores it: the document's JSON text, zlib-compressed."""
    if not isinstance(text, str):
        text = json.dumps(text, ensure_ascii=False, separators=(",", ":"))
    return zlib.compress(text.encode("utf-8"), 6)


def unpack(packed):
    return json.loads(zlib.decompress(bytes(packed)).decode("utf-8"))


class Written:
    """A revision's content as the base needs it: the state kept in memory, its export text and the delta from
    the revision before (None: store a snapshot)."""

    def __init__(self, state, text, changes=None, weight=1):
        self.state, self.text, self.changes, self.weight = state, text, changes, weight
        self.data = text.encode("utf-8")
        self.content_hash = hashlib.sha256(self.data).hexdigest()


_lock = threading.Lock()
_states = OrderedDict()  # (model label, pk) -> (revision, content hash, state, weight)


def remember(document, number, content_hash, state, weight=1):
    """Keep a document's state in this process. Kept by content hash too: a state is only ever given for the
    content it is (a revision written in a transaction that was rolled back, or a reused id, cannot be served)."""
    key = (document._meta.label, document.pk)
    with _lock:
        _states.pop(key, None)
        _states[key] = (number, content_hash, state, weight)
        while len(_states) > CACHED_DOCUMENTS or (len(_states) > 1 and sum(kept[3] for kept in _states.values())
                                                   > CACHED_WEIGHT):
            _states.popitem(last=False)


def remembered(document, number, content_hash):
    key = (document._meta.label, document.pk)
    with _lock:
        found = _states.get(key)
        if found is None or found[:2] != (number, content_hash):
            return None
        _states.move_to_end(key)
        return found[2]


def forget_states():
    with _lock:
        _states.clear()


class Document(models.Model):
    revision = models.PositiveIntegerField(default=1)
    content_hash = models.CharField(max_length=64, help_text="sha256 of the exported file.")
    published = models.BooleanField(default=False, help_text="Published documents can be read by everyone.")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True
        ordering = ["-updated", "-id"]

    writes = None  # the kind's steps of a write (a documents.writing.Kind): documents.writing calls them

    # -- what a kind of document says: its state in memory, its file, its deltas ---------------------
    def read_state(self, document):
        """The state kept in memory for a canonical document read back (checked when it was stored)."""
        raise NotImplementedError

    def document_of(self, state):
        """The canonical document (JSON) of a state."""
        raise NotImplementedError

    def patched(self, state, changes):
        """The state after a revision's delta."""
        raise NotImplementedError

    # -- reading --------------------------------------------------------------------------------------
    def state(self):
        return self.state_at(self.revision)

    def state_at(self, number):
        """The state of revision ``number``: from this process's memory, or its snapshot and the deltas after
        it (fewer than SNAPSHOT_EVERY); the revision model's DoesNotExist if there is none."""
        current = number == self.revision
        state = remembered(self, number, self.content_hash) if current else None
        if state is not None:
            return state
        revisions = self.revisions
        start = (revisions.filter(number__lte=number, snapshot__isnull=False).order_by("-number")
                 .values_list("number", flat=True).first())
        if start is None or not revisions.filter(number=number).exists():
            raise revisions.model.DoesNotExist(f"{self} has no revision {number}")
        rows = revisions.filter(number__gte=start, number__lte=number).order_by("number")
        state = None
        for snapshot, changes in rows.values_list("snapshot", "changes").iterator():
            state = self.read_state(unpack(snapshot)) if state is None else self.patched(state, changes)
        if current:
            remember(self, number, self.content_hash, state, self.weight_of(state))
        return state

    def weight_of(self, state):
        return 1

    @property
    def document(self):
        """The current revision's canonical document."""
        return self.document_of(self.state())

    def document_at(self, number):
        return self.document_of(self.state_at(number))

    def content_at(self, content_hash):
        """The canonical document with this content hash: the current one, or the latest revision that had it
        (a job asked about content the document has since moved on from); None if no revision had it."""
        if content_hash == self.content_hash:
            return self.document
        number = (self.revisions.filter(content_hash=content_hash).order_by("-number")
                  .values_list("number", flat=True).first())
        return None if number is None else self.document_at(number)


def summary_of(summary, length=300):
    if not summary:
        return ""
    return summary if len(summary) <= length else summary[:length - 1] + "…"


class Revision(models.Model):
    """One revision of a document: a delta from the one before, or a snapshot of the whole document."""

    number = models.PositiveIntegerField()
    content_hash = models.CharField(max_length=64)
    snapshot = models.BinaryField(null=True, blank=True,
                                  help_text="The whole document: its JSON text, zlib-compressed (every so often).")
    changes = models.JSONField(null=True, blank=True, help_text="What changed since the revision before.")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    summary = models.CharField(max_length=300, blank=True)

    document_field = None  # the name of the foreign key to the document

    class Meta:
        abstract = True

    def __str__(self):
        return f"{getattr(self, self.document_field)} r{self.number}"

    @property
    def document(self):
        """The revision's canonical document."""
        return getattr(self, self.document_field).document_at(self.number)
