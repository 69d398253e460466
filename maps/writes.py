"""A map's steps of a write (documents.writing calls them, in order): the edit worked out on the map's state,
what the owner's storage quota allows, and, once stored, the bytes counted and the board scan it names.

A revision that names another board scan than the one before counts the new scan's bytes instead of the old
one's, whose file goes once the write is committed (maps.scans.replaced). A write is refused (QuotaExceeded,
nothing written) when what it adds takes the owner past their storage quota; a change that frees more than it
adds (removing a scan) always goes through.
"""

import json

from django.db.models import F

from documents.writing import Kind
from engine import edits
from maps import quotas, scans
from maps.state import MapTooLarge, check_name, map_written
from maps.undo import inverse_states


class MapWrites(Kind):
    def written(self, doc, document=None):
        check_name(doc.name)
        return map_written(None if document is None else document.state(), doc)

    def apply(self, document, operations, author):
        """The map after the operations: only the hexes they touched are written again. A map grown past the size
        limits is an EditError too."""
        old, touched = document.state(), set()
        doc, summary = edits.apply(old.doc, operations, touched=touched)
        try:
            return map_written(old, doc, touched), summary
        except MapTooLarge as exc:
            raise edits.EditError([edits.Problem(None, f.path, f.message) for f in exc.errors]) from None

    def restored(self, document, number, author):
        return map_written(None, edits.load(document.document_at(number)))

    def columns(self, state):
        doc = state.doc
        return {"name": doc.name, "ruleset": doc.ruleset, "grid": doc.grid.as_dict()}

    def check(self, owner_id, map, written, extra_bytes=0):
        """What the owner's storage takes, read before the write transaction (not while holding it), and the scan
        the map named before."""
        old = None if map is None else scans.image_of(map.state().doc)
        return {"taken": quotas.used(owner_id), "scan": old, "extra_bytes": extra_bytes}

    def stored(self, map, written, revision, checked):
        """Count the revision's bytes on the row (the storage quota reads the row), and the scan's if it changed;
        refuse what takes the owner past their quota."""
        size = count_stored(map, revision)
        if revision.number == 1:  # a new map, with what comes with it (a duplicate's board scan)
            quotas.check(map.owner_id, map.stored_bytes + checked["extra_bytes"], "this map", taken=checked["taken"])
            return
        grown, new = size, scans.image_of(written.state.doc)
        if checked["scan"] != new:
            scan = scans.replaced(map.pk, checked["scan"], new)
            grown += scan - map.scan_bytes
            type(map).objects.filter(pk=map.pk).update(scan_bytes=scan)
            map.scan_bytes = scan
        if grown > 0:
            quotas.check(map.owner_id, grown, "this change", taken=checked["taken"])

    def inverse(self, before, after, changes):
        return inverse_states(before, after, changes)


def count_stored(document, revision):
    """Add a revision's bytes to its document's ``stored_bytes`` (a map's, a scenario's: the storage quota reads
    the row); the bytes added."""
    size = revision_bytes(revision)
    type(document).objects.filter(pk=document.pk).update(stored_bytes=F("stored_bytes") + size)
    document.stored_bytes += size
    return size


def revision_bytes(revision):
    """What a revision takes in the database: its snapshot, or its delta as JSON."""
    if revision.snapshot is not None:
        return len(revision.snapshot)
    return len(json.dumps(revision.changes, separators=(",", ":")).encode("utf-8")) if revision.changes else 0
