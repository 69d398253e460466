"""Maps as stored documents, their history, and the rulesets designers add.

A map is a document with revisions (documents.models): each revision stores what it changed (the hexes and
hexsides painted, the parts of the map file set), with the whole map file as a snapshot every so often, so a
stroke on a large map stores the stroke, and any earlier state can be brought back; bringing one back is itself
a new revision, and nothing is ever lost. The engine reads the map as a MapDoc without knowing the database, and
an export is the map file written out.

Every write goes through documents.writing, which calls the map's steps (maps.writes.MapWrites) in order; the
state a process keeps of a map is a maps.state.MapState. The functions at the end are the writes the pages, the
API and the other apps ask for.
"""

import json

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from documents import writing
from documents.models import Document, Revision, StaleRevision
from engine import edits, rulesets
from engine.hexgrid import Grid
from maps import scans
from maps.state import map_state, patched_state
from maps.writes import MapWrites

NAME_LENGTH = edits.NAME_LENGTH

__all__ = ["Map", "MapRevision", "StaleRevision", "apply_edits", "restore_revision"]


class MapQuerySet(models.QuerySet):
    def visible_to(self, user):
        """The maps a user may read: their own and the published ones (anonymous: published only)."""
        if user is None or not user.is_authenticated:
            return self.filter(published=True)
        return self.filter(Q(published=True) | Q(owner=user))

    def create_from_doc(self, owner, doc, published=False, summary="created", extra_bytes=0):
        """A new map at revision 1 from a MapDoc, with its first revision written. Refused (QuotaExceeded) past
        the owner's storage quota, counting ``extra_bytes`` that will come with it (its board scan)."""
        return writing.create(self.model, owner, doc, summary, published=published, extra_bytes=extra_bytes)


class Map(Document):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="maps")
    name = models.CharField(max_length=NAME_LENGTH)
    ruleset = models.CharField(max_length=64, help_text="The id of the ruleset the map is made for.")
    grid = models.JSONField(help_text="The document's grid, kept beside it so that lists need not load maps whole.")
    stored_bytes = models.PositiveBigIntegerField(default=0, help_text="Bytes its revisions take (snapshots and "
                                                                       "deltas), for its owner's storage quota.")
    scan_bytes = models.PositiveBigIntegerField(default=0, help_text="Bytes of the board scan its current revision "
                                                                     "names, for its owner's storage quota.")

    objects = MapQuerySet.as_manager()
    writes = MapWrites()

    class Meta(Document.Meta):
        indexes = [models.Index(fields=["published", "-updated"])]

    def __str__(self):
        return self.name

    # the document base's hooks for reading
    def read_state(self, document):
        return map_state(edits.load(document))

    def document_of(self, state):
        return json.loads(state.text())  # the same as mapfile.to_dict(state.doc), in a fraction of the time

    def patched(self, state, changes):
        return patched_state(state, changes)

    def weight_of(self, state):
        return len(state.doc.hexes) + 1

    # maps
    def hex_grid(self):
        return Grid(**self.grid)

    def mapdoc(self):
        """The current revision as a MapDoc; it was checked before it was stored."""
        return self.state().doc

    def export(self):
        """The map file as a designer downloads it: deterministic, byte for byte the same while unchanged."""
        return self.state().text()

    def filename(self):
        safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in self.name.lower()).strip("-")
        return f"{safe or 'map'}.json"

    def rename(self, name, author):
        """A new name is a change of the map file, so it is a revision too."""
        if name == self.name:
            return self
        return apply_edits(self.pk, author, None, [{"op": "rename", "name": name}]).map


class MapRevision(Revision):
    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="revisions")

    document_field = "map"

    class Meta:
        ordering = ["map", "-number"]
        constraints = [models.UniqueConstraint(fields=["map", "number"], name="unique_map_revision_number")]


# -- the writes asked for ----------------------------------------------------------------------------------

def apply_edits(map_id, author, revision, operations, undoes=None):
    """Apply edit operations to a map; the new MapRevision (documents.writing.edit).

    ``revision`` is the revision the client saw (None: whatever is current). The edit is worked out outside any
    transaction, on the map as read; only the write is in one, and it writes only if the map has not moved on
    meanwhile. Raises StaleRevision, or edits.EditError listing every bad operation (a map grown past the size
    limits included); in every case nothing is written.
    """
    return writing.edit(Map, map_id, author, revision, operations, undoes=undoes)


def restore_revision(map_id, author, number, revision=None):
    """Bring back revision ``number`` as a new MapRevision (a snapshot); MapRevision.DoesNotExist if there is none."""
    return writing.restore(Map, map_id, author, number, revision)


def attach_scan(map, data, extension, size, author, revision=None):
    """Store a checked board scan beside the map and name it in the map's background entry, fitted to the whole
    grid: (the new MapRevision, the entry). Refused (QuotaExceeded) before anything is stored when the scan would
    take the owner past their storage quota (the scan it replaces counted as freed). Raises StaleRevision when
    ``revision`` is not the current one; then the file stored for it goes again."""
    name, entry = scans.stage(map.owner_id, map.pk, map.hex_grid(), data, extension, size, freed=map.scan_bytes)
    try:
        return apply_edits(map.pk, author, revision, [{"op": "set_background", "background": entry}]), entry
    except Exception:
        if scans.image_of(Map.objects.get(pk=map.pk).mapdoc()) != name:
            scans.discard(map.pk, name)
        raise


def copy_scan(from_map_id, to_map_id):
    """Give a copy of a map (a duplicate) its own copy of the scan its background entry names, counted on it."""
    size = scans.copy(from_map_id, to_map_id, scans.image_of(Map.objects.get(pk=to_map_id).mapdoc()))
    if size is not None:
        Map.objects.filter(pk=to_map_id).update(scan_bytes=size)


# -- rulesets designers add ------------------------------------------------------------------------------

class CustomRuleset(models.Model):
    """A ruleset given as data (the shape of engine/games/*/catalogue.json), checked and registered when saved."""

    slug = models.SlugField(max_length=64, unique=True, blank=True, verbose_name="id",
                            help_text="The id maps name in their 'ruleset'; taken from the data when left empty.")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="rulesets")
    data = models.JSONField(help_text="The ruleset as JSON, in the shape of the built-in rulesets' data files.")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["slug"]
        verbose_name = "custom ruleset"

    def __str__(self):
        return self.slug

    def clean(self):
        ruleset = check_ruleset_data(self.data)
        if not self.slug:
            self.slug = ruleset.id
        elif ruleset.id != self.slug:
            raise ValidationError({"slug": f"the data says its id is {ruleset.id!r}; the id must be the same"})
        if self.slug in rulesets.builtin_ids():
            raise ValidationError({"slug": f"{self.slug!r} is a built-in ruleset; choose another id"})


    def maps_using(self):
        return Map.objects.filter(ruleset=self.slug)


def check_ruleset_data(data):
    """The Ruleset the data describes, or ValidationError naming each path that is wrong."""
    try:
        return rulesets.from_dict(data, where="data")
    except rulesets.RulesetError as exc:
        raise ValidationError({"data": exc.errors}) from None


