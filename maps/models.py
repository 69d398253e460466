"""Maps as stored documents, their history, and the rulesets designers add.

A map is kept whole, as the map format's canonical document (``mapfile.to_dict``): the engine reads it without
knowing about the database, and an export is the document written out. Every change is a numbered revision
holding the whole document, compressed (a one-hex edit of a large map stores a few per cent of the map, not all
of it again), so any earlier state can be brought back; bringing one back is itself a new revision, and nothing
is ever lost.

An edit is worked out before its write transaction, from the map as it was read; the transaction only checks
that the map is still at that revision and writes. On SQLite, where one writer holds the whole database, the
write lock is held for the time of a write, not for the time of an edit.
"""

import hashlib
import json
import logging
import threading
import zlib
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.db.models import F, Q
from django.utils import timezone

from engine import edits, mapfile, rulesets
from engine.hexgrid import Grid

logger = logging.getLogger(__name__)

NAME_LENGTH = edits.NAME_LENGTH


class StaleRevision(Exception):
    """The client edited a revision that is no longer the current one."""

    def __init__(self, current):
        self.current = current
        super().__init__(f"the map is at revision {current}")


class MapQuerySet(models.QuerySet):
    def visible_to(self, user):
        """The maps a user may read: their own and the published ones (anonymous: published only)."""
        if user is None or not user.is_authenticated:
            return self.filter(published=True)
        return self.filter(Q(published=True) | Q(owner=user))

    def create_from_doc(self, owner, doc, published=False, summary="created"):
        """A new map at revision 1 from a MapDoc, with its first revision written."""
        check_name(doc.name)
        document, content_hash, packed = written(doc)
        with transaction.atomic():
            map = self.create(owner=owner, name=doc.name, ruleset=doc.ruleset, grid=document["grid"],
                              document=document, content_hash=content_hash, published=published, revision=1)
            map.record(owner, summary, packed)
        return map


class Map(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="maps")
    name = models.CharField(max_length=NAME_LENGTH)
    ruleset = models.CharField(max_length=64, help_text="The id of the ruleset the map is made for.")
    grid = models.JSONField(help_text="The document's grid, kept beside it so that lists need not load maps whole.")
    document = models.JSONField(help_text="The map file, as the map format's canonical document.")
    revision = models.PositiveIntegerField(default=1)
    content_hash = models.CharField(max_length=64, help_text="sha256 of the exported map file.")
    published = models.BooleanField(default=False, help_text="Published maps can be read by everyone.")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = MapQuerySet.as_manager()

    class Meta:
        ordering = ["-updated", "-id"]
        indexes = [models.Index(fields=["published", "-updated"])]

    def __str__(self):
        return self.name

    def hex_grid(self):
        return Grid(**self.grid)

    def mapdoc(self):
        """The stored document read back as a MapDoc; it was checked before it was stored."""
        return edits.load(self.document)

    def export(self):
        """The map file as a designer downloads it: deterministic, byte for byte the same while unchanged."""
        return mapfile.dumps(self.mapdoc())

    def filename(self):
        safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in self.name.lower()).strip("-")
        return f"{safe or 'map'}.json"

    def record(self, author, summary, packed=None):
        """Write the current state down as a revision (``packed``: the document compressed, if already done)."""
        return self.revisions.create(number=self.revision, packed=packed or pack(self.document),
                                     content_hash=self.content_hash,
                                     author=author if author is not None and author.is_authenticated else None,
                                     summary=edits.summarise([summary]) if summary else "")

    def commit(self, doc, author, summary):
        """Make a MapDoc the map's next revision, if the map is still at the revision it was read at.

        The document is written (and compressed) first; the transaction then only checks the revision and
        writes. Raises StaleRevision, and writes nothing, when the map has moved on since it was read.
        """
        document, content_hash, packed = written(doc)
        seen = self.revision
        with transaction.atomic():
            moved = Map.objects.filter(pk=self.pk, revision=seen).update(
                document=document, content_hash=content_hash, name=doc.name, ruleset=doc.ruleset,
                grid=document["grid"], revision=F("revision") + 1, updated=timezone.now())
            if not moved:
                raise StaleRevision(Map.objects.filter(pk=self.pk).values_list("revision", flat=True).first())
            self.document, self.content_hash, self.name, self.ruleset = document, content_hash, doc.name, doc.ruleset
            self.grid, self.revision = document["grid"], seen + 1
            return self.record(author, summary, packed)

    def rename(self, name, author):
        """A new name is a change of the map file, so it is a revision too."""
        if name == self.name:
            return self
        return apply_edits(self.pk, author, None, [{"op": "rename", "name": name}]).map


class MapRevision(models.Model):
    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    packed = models.BinaryField(help_text="The map file of this revision: canonical JSON, zlib-compressed.")
    content_hash = models.CharField(max_length=64)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    summary = models.CharField(max_length=edits.SUMMARY_LENGTH, blank=True)

    class Meta:
        ordering = ["map", "-number"]
        constraints = [models.UniqueConstraint(fields=["map", "number"], name="unique_map_revision_number")]

    def __str__(self):
        return f"{self.map} r{self.number}"

    @property
    def document(self):
        """The revision's map file, as the canonical document."""
        return unpack(self.packed)

    @document.setter
    def document(self, value):
        self.packed = pack(value)


class MapTooLarge(mapfile.MapFormatError):
    """A map past HEXSIDE_MAX_HEXES hexes or HEXSIDE_MAX_MAP_BYTES bytes of map file."""


def pack(document):
    """A document as a revision stores it: compact JSON, zlib-compressed (a tenth of the size or less)."""
    return zlib.compress(json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 6)


def unpack(packed):
    return json.loads(zlib.decompress(bytes(packed)).decode("utf-8"))


def written(doc):
    """The canonical document, its content hash and its compressed form, from one writing of the map file.

    The same as (mapfile.to_dict(doc), mapfile.content_hash(doc)), in about half the time: writing a
    large map is the larger part of an edit. Raises MapTooLarge past the size limits in settings.
    """
    check_hexes(doc.grid)
    text = mapfile.dumps(doc)
    data = text.encode("utf-8")
    limit = settings.HEXSIDE_MAX_MAP_BYTES
    if len(data) > limit:
        raise MapTooLarge([mapfile.Finding("$", f"the map file would be {len(data)} bytes, more than the limit of "
                                                f"{limit} bytes (HEXSIDE_MAX_MAP_BYTES)", code="too-large")])
    return json.loads(text), hashlib.sha256(data).hexdigest(), zlib.compress(data, 6)


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


def apply_edits(map_id, author, revision, operations):
    """Apply edit operations to a map; the new MapRevision.

    ``revision`` is the revision the client saw (None: whatever is current). The edit is worked out outside any
    transaction, on the map as read; only the write is in one, and it writes only if the map has not moved on
    meanwhile. Raises StaleRevision, or edits.EditError listing every bad operation (a map grown past the size
    limits included); in every case nothing is written.
    """
    for _ in range(ATTEMPTS):
        map = Map.objects.get(pk=map_id)
        if revision is not None and revision != map.revision:
            raise StaleRevision(map.revision)
        doc, summary = edits.apply(map.mapdoc(), operations)
        try:
            return map.commit(doc, author, summary)
        except MapTooLarge as exc:
            raise edits.EditError([edits.Problem(None, f.path, f.message) for f in exc.errors]) from None
        except StaleRevision:
            if revision is not None:
                raise
    raise StaleRevision(Map.objects.get(pk=map_id).revision)  # it kept moving while we worked


def restore_revision(map_id, author, number, revision=None):
    """Bring back revision ``number`` as a new MapRevision; MapRevision.DoesNotExist if there is none."""
    for _ in range(ATTEMPTS):
        map = Map.objects.get(pk=map_id)
        if revision is not None and revision != map.revision:
            raise StaleRevision(map.revision)
        old = map.revisions.get(number=number)
        try:
            return map.commit(edits.load(old.document), author, f"restored revision {number}")
        except StaleRevision:
            if revision is not None:
                raise
    raise StaleRevision(Map.objects.get(pk=map_id).revision)


ATTEMPTS = 3  # an edit "on whatever is current" worked out again when another write came first


# -- rulesets designers add ------------------------------------------------------------------------------

class CustomRuleset(models.Model):
    """A ruleset given as data (the shape of engine/rulesets/data/*.json), checked and registered when saved."""

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
