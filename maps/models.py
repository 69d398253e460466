"""Maps as stored documents, their history, and the rulesets designers add.

A map is a document with revisions (documents.models): each revision stores what it changed (the hexes and
hexsides painted, the parts of the map file set), with the whole map file as a snapshot every so often, so a
stroke on a large map stores the stroke, and any earlier state can be brought back; bringing one back is itself
a new revision, and nothing is ever lost. The engine reads the map as a MapDoc without knowing the database, and
an export is the map file written out.

An edit is worked out before its write transaction, from the map as it was read (kept in memory by the process
that last read or wrote it, with each hex's line of the map file, so that after a stroke only the stroke's lines
are written again to hash the file); the transaction only checks that the map is still at that revision and
writes. On SQLite, where one writer holds the whole database, the write lock is held for the time of a write.
"""

import json
import logging
import threading
from dataclasses import replace
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.db.models import F, Q
from django.dispatch import Signal

from documents.models import Document, Revision, StaleRevision, Written, pack, unpack
from documents.undo import undo_summary
from engine import edits, mapfile, rulesets
from engine.hexgrid import Grid
from maps import quotas

logger = logging.getLogger(__name__)

NAME_LENGTH = edits.NAME_LENGTH

__all__ = ["Map", "MapRevision", "StaleRevision", "apply_edits", "restore_revision", "pack", "unpack", "written"]


class MapQuerySet(models.QuerySet):
    def visible_to(self, user):
        """The maps a user may read: their own and the published ones (anonymous: published only)."""
        if user is None or not user.is_authenticated:
            return self.filter(published=True)
        return self.filter(Q(published=True) | Q(owner=user))

    def create_from_doc(self, owner, doc, published=False, summary="created", extra_bytes=0):
        """A new map at revision 1 from a MapDoc, with its first revision written. Refused (QuotaExceeded) past
        the owner's storage quota, counting ``extra_bytes`` that will come with it (its board scan)."""
        check_name(doc.name)
        content = map_written(None, doc)
        taken = quotas.used(owner.pk)  # read before the write transaction, not while holding it
        with transaction.atomic():
            map = self.create(owner=owner, content_hash=content.content_hash, published=published, revision=1,
                              **map_columns(content.state))
            map.record(content, owner, summary)
            quotas.check(owner.pk, map.stored_bytes + extra_bytes, "this map", taken=taken)
        return map


class MapState:
    """A map as a process keeps it: the MapDoc, and the map file's lines for its hexes and hexsides."""

    __slots__ = ("doc", "head", "hex_lines", "side_lines")

    def __init__(self, doc, head, hex_lines, side_lines):
        self.doc, self.head, self.hex_lines, self.side_lines = doc, head, hex_lines, side_lines

    def text(self):
        """The map file, as mapfile.dumps writes it."""
        grid = self.doc.grid
        sides = self.side_lines
        return mapfile.write(self.head, {
            "hexes": [line for line in self.hex_lines if line is not None],
            "hexsides": [sides[key] for key in sorted(sides, key=lambda k: mapfile.hexside_order(grid, k))]})


def head_of(doc):
    """The canonical document without its hexes and hexsides (the name, grid, defaults, overlays ...)."""
    return mapfile.to_dict(replace(doc, hexes={}, hexsides={}))


def map_state(doc, head=None):
    grid = doc.grid
    rows = grid.rows
    hex_lines = [None] * (grid.columns * rows)
    for pos, cell in doc.hexes.items():
        hex_lines[pos[0] * rows + pos[1]] = mapfile.line(mapfile.hex_entry(grid, pos, cell))
    side_lines = {key: mapfile.line(mapfile.hexside_entry(grid, key, terrain)) for key, terrain in doc.hexsides.items()}
    return MapState(doc, head or head_of(doc), hex_lines, side_lines)


def map_written(old, doc, touched=None):
    """The next revision's content from the MapState it was edited from (None: no delta, a snapshot).

    Only the hexes and hexsides that differ are written again; untouched cells are the same objects (engine.edits
    shares them), so finding what differs costs a pass over the map's dict, not a writing of the map. Raises
    MapTooLarge past the size limits in settings.
    """
    check_hexes(doc.grid)
    head = head_of(doc)
    if old is None or head["grid"] != old.head["grid"]:
        state, changes = map_state(doc, head), None
    else:
        state, changes = changed_state(old, doc, head, touched)
    content = Written(state, state.text(), changes, weight=len(doc.hexes) + 1)
    limit = settings.HEXSIDE_MAX_MAP_BYTES
    if len(content.data) > limit:
        raise MapTooLarge([mapfile.Finding("$", f"the map file would be {len(content.data)} bytes, more than the "
                                                f"limit of {limit} bytes (HEXSIDE_MAX_MAP_BYTES)", code="too-large")])
    return content


def changed_state(old, doc, head, touched=None):
    grid = doc.grid
    rows = grid.rows
    hex_lines = list(old.hex_lines)
    was, now = old.doc.hexes, doc.hexes
    hexes, added = {}, 0
    if touched is not None:
        for pos in touched:
            cell = now.get(pos)
            if cell is None:
                if pos in was:
                    hexes[grid.label(*pos)] = None
                    hex_lines[pos[0] * rows + pos[1]] = None
            elif was.get(pos) != cell:
                entry = mapfile.hex_entry(grid, pos, cell)
                hexes[entry["hex"]] = entry
                hex_lines[pos[0] * rows + pos[1]] = mapfile.line(entry)
    for pos, cell in (now.items() if touched is None else ()):
        before = was.get(pos)
        if before is cell:
            continue
        if before is None:
            added += 1
        elif before == cell:
            continue
        entry = mapfile.hex_entry(grid, pos, cell)
        hexes[entry["hex"]] = entry
        hex_lines[pos[0] * rows + pos[1]] = mapfile.line(entry)
    if touched is None and len(was) + added > len(now):
        for pos in was.keys() - now.keys():
            hexes[grid.label(*pos)] = None
            hex_lines[pos[0] * rows + pos[1]] = None
    side_lines = old.side_lines
    hexsides = []
    if doc.hexsides != old.doc.hexsides:
        side_lines = dict(side_lines)
        for key in doc.hexsides.keys() | old.doc.hexsides.keys():
            terrain = doc.hexsides.get(key)
            if terrain == old.doc.hexsides.get(key):
                continue
            entry = mapfile.hexside_entry(grid, key, terrain)
            hexsides.append([entry["hex"], entry["side"], terrain])
            if terrain is None:
                del side_lines[key]
            else:
                side_lines[key] = mapfile.line(entry)
    top = {key: head.get(key) for key in head.keys() | old.head.keys()
           if key not in ("hexes", "hexsides") and head.get(key) != old.head.get(key)}
    changes = {"hexes": hexes, "hexsides": hexsides, "top": top}
    if len(hexes) + len(hexsides) > max(1000, (len(now) + len(doc.hexsides)) // 2):
        changes = None  # most of the map: a snapshot is no larger
    return MapState(doc, head, hex_lines, side_lines), changes


def patched_state(state, changes):
    """A MapState after a revision's delta, as map_written made it."""
    doc, head = state.doc, state.head
    if changes["top"]:
        head = {**head, **changes["top"]}
        if head.get("background") is None:
            head.pop("background", None)
        else:
            head["background"] = {k: head["background"][k] for k in mapfile.BACKGROUND_KEYS if k in head["background"]}
        doc = edits.load({**head, "hexes": [], "hexsides": []})
    grid = doc.grid
    rows = grid.rows
    at = edits.label_index(grid)
    hexes, hex_lines = dict(state.doc.hexes), list(state.hex_lines)
    for label, entry in changes["hexes"].items():
        pos = at[label]
        if entry is None:
            hexes.pop(pos, None)
            hex_lines[pos[0] * rows + pos[1]] = None
        else:
            cell = hexes[pos] = edits.cell_of(entry)
            hex_lines[pos[0] * rows + pos[1]] = mapfile.line(mapfile.hex_entry(grid, pos, cell))
    hexsides, side_lines = state.doc.hexsides, state.side_lines
    if changes["hexsides"]:
        hexsides, side_lines = dict(hexsides), dict(side_lines)
        for label, side, terrain in changes["hexsides"]:
            key = grid.hexside(*at[label], side)
            if terrain is None:
                hexsides.pop(key, None)
                side_lines.pop(key, None)
            else:
                hexsides[key] = terrain
                side_lines[key] = mapfile.line(mapfile.hexside_entry(grid, key, terrain))
    doc = replace(doc, hexes=hexes, hexsides=hexsides)
    return MapState(doc, head_of(doc) if changes["top"] else head, hex_lines, side_lines)


# Sent inside the write transaction of a revision that names another board scan than the one before (or none):
# maps.scans answers the new scan's size in bytes and deletes the old file once the transaction commits. The
# models do not import the scans; the scans connect here (MapsConfig.ready).
background_changed = Signal()


def image_of(doc):
    return (doc.background or {}).get("image")


def revision_bytes(revision):
    """What a revision takes in the database: its snapshot, or its delta as JSON."""
    if revision.snapshot is not None:
        return len(revision.snapshot)
    return len(json.dumps(revision.changes, separators=(",", ":")).encode("utf-8")) if revision.changes else 0


def map_columns(state):
    doc = state.doc
    return {"name": doc.name, "ruleset": doc.ruleset, "grid": doc.grid.as_dict()}


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

    class Meta(Document.Meta):
        indexes = [models.Index(fields=["published", "-updated"])]

    def __str__(self):
        return self.name

    # the document base's hooks
    def read_state(self, document):
        return map_state(edits.load(document))

    def document_of(self, state):
        return json.loads(state.text())  # the same as mapfile.to_dict(state.doc), in a fraction of the time

    def patched(self, state, changes):
        return patched_state(state, changes)

    def columns_of(self, state):
        return map_columns(state)

    def weight_of(self, state):
        return len(state.doc.hexes) + 1

    def record(self, written, author, summary, snapshot=False):
        """Write the revision down and count its bytes on the row (the storage quota reads the row)."""
        revision = super().record(written, author, summary, snapshot=snapshot)
        size = revision_bytes(revision)
        type(self).objects.filter(pk=self.pk).update(stored_bytes=F("stored_bytes") + size)
        self.stored_bytes += size
        return revision

    def commit(self, content, author, summary, snapshot=False):
        """Make a MapDoc (or content map_written gave) the next revision; see Document.commit. A revision that
        names another board scan counts the new scan's bytes instead of the old one's, whose file goes once the
        write is committed. Refused (QuotaExceeded, nothing written) when what it adds takes the owner past their
        storage quota; a change that frees more than it adds (removing a scan) always goes through."""
        if isinstance(content, mapfile.MapDoc):
            content = map_written(self.state(), content)
        old, new = image_of(self.state().doc), image_of(content.state.doc)
        taken = quotas.used(self.owner_id)
        with transaction.atomic():
            before = self.stored_bytes
            revision = super().commit(content, author, summary, snapshot=snapshot)
            grown = self.stored_bytes - before
            if old != new:
                answers = background_changed.send(sender=Map, map=self, old=old, new=new)
                scan = sum(size for _, size in answers if size)
                grown += scan - self.scan_bytes
                type(self).objects.filter(pk=self.pk).update(scan_bytes=scan)
                self.scan_bytes = scan
            if grown > 0:
                quotas.check(self.owner_id, grown, "this change", taken=taken)
        return revision

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


class MapTooLarge(mapfile.MapFormatError):
    """A map past HEXSIDE_MAX_HEXES hexes or HEXSIDE_MAX_MAP_BYTES bytes of map file."""


def written(doc):
    """The canonical document, its content hash and its snapshot, from one writing of the map file."""
    content = map_written(None, doc)
    return json.loads(content.text), content.content_hash, pack(content.text)


def check_hexes(grid):
    limit = settings.HEXSIDE_MAX_HEXES
    if grid.columns * grid.rows > limit:
        raise MapTooLarge([mapfile.Finding("grid", f"{grid.columns} x {grid.rows} = {grid.columns * grid.rows} "
                                                   f"hexes, more than the limit of {limit} hexes (HEXSIDE_MAX_HEXES)",
                                           code="too-large")])


def check_name(name):
    if len(name) > NAME_LENGTH:
        raise mapfile.MapFormatError([mapfile.Finding("name", f"at most {NAME_LENGTH} characters, got {len(name)}",
                                                      code="name-too-long")])


def apply_edits(map_id, author, revision, operations, undoes=None):
    """Apply edit operations to a map; the new MapRevision.

    ``revision`` is the revision the client saw (None: whatever is current). The edit is worked out outside any
    transaction, on the map as read; only the write is in one, and it writes only if the map has not moved on
    meanwhile. Raises StaleRevision, or edits.EditError listing every bad operation (a map grown past the size
    limits included); in every case nothing is written.
    """
    def change(map):
        old, touched = map.state(), set()
        doc, summary = edits.apply(old.doc, operations, touched=touched)
        try:
            return map_written(old, doc, touched), undo_summary(undoes, summary)
        except MapTooLarge as exc:
            raise edits.EditError([edits.Problem(None, f.path, f.message) for f in exc.errors]) from None

    return Map.edit(map_id, author, revision, change)


def restore_revision(map_id, author, number, revision=None):
    """Bring back revision ``number`` as a new MapRevision (a snapshot); MapRevision.DoesNotExist if there is none."""
    def change(map):
        return map_written(None, edits.load(map.document_at(number))), f"restored revision {number}"

    return Map.edit(map_id, author, revision, change, snapshot=True)


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


_lock = threading.Lock()
_loaded = {}  # ruleset id -> (source, Ruleset) of the custom ones read in this process
_unusable = {}  # id -> source of the ones that could not be read, so that they are not read again until changed


def custom_rulesets():
    """The rulesets designers added, as rows or as files: {id: Ruleset}. The catalogue's loader.

    engine.rulesets.get() calls it whenever a custom id is looked up (MapsConfig.ready registers it), so the API,
    the pages, the workers and the management commands all see the same custom rulesets with nothing to
    remember. Cheap when nothing changed (one small query and a directory listing; a row or file is read again
    only when it changes), and a ruleset saved through another process is seen at its next lookup. A row wins
    over a file of the same id; files are named after their ruleset's id.
    """
    wanted = {}
    for path in _ruleset_files():
        stat = path.stat()
        wanted[path.stem] = ("file", path, (stat.st_mtime_ns, stat.st_size))
    try:
        rows = list(CustomRuleset.objects.values_list("slug", "updated"))
    except DatabaseError as exc:  # e.g. before the first migrate: the files still count
        logger.warning("custom rulesets in the database cannot be read: %s", exc)
        rows = []
    for slug, updated in rows:
        wanted[slug] = ("row", slug, updated)
    builtin = rulesets.builtin_ids()
    with _lock:
        for rid in [rid for rid in _loaded if _loaded[rid][0] != wanted.get(rid)]:
            del _loaded[rid]
        for rid, source in wanted.items():
            if rid in _loaded or _unusable.get(rid) == source:
                continue
            ruleset = _load(*source)
            if ruleset is not None and rid in builtin:
                logger.warning("ruleset %s: %r is a built-in ruleset and is not replaced", source[1], rid)
            elif ruleset is not None and ruleset.id != rid:
                logger.warning("ruleset %s says its id is %r, not %r: not used", source[1], ruleset.id, rid)
            elif ruleset is not None:
                _loaded[rid] = (source, ruleset)
                _unusable.pop(rid, None)
                continue
            _unusable[rid] = source
        return {rid: ruleset for rid, (_, ruleset) in _loaded.items()}


def forget_custom_rulesets():
    """Drop what this process read; the next lookup reads the rows and files again."""
    with _lock:
        _loaded.clear()
        _unusable.clear()


def _ruleset_files():
    folder = getattr(settings, "HEXSIDE_RULESETS_DIR", None)
    if not folder or not Path(folder).is_dir():
        return []
    return sorted(Path(folder).glob("*.json"))


def _load(kind, where, stamp):
    try:
        if kind == "row":
            return rulesets.from_dict(CustomRuleset.objects.get(slug=where).data, where=f"custom ruleset {where}")
        return rulesets.load_file(where)
    except CustomRuleset.DoesNotExist:
        return None
    except rulesets.RulesetError as exc:
        logger.warning("ruleset %s is not usable: %s", where, "; ".join(exc.errors))
        return None
