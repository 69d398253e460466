"""Scenarios as stored documents, with their history, in the manner of maps.Map.

A scenario is kept whole as the scenario format's canonical document (engine/scenarios/scenariofile.py): sides, OOB,
setup zones, placements, reinforcements, markers, objectives, victory conditions and special rules are its
structured parts, read by the checks, the API and the card from the one document. Every change is a numbered
revision holding the whole document; bringing one back is itself a new revision.
"""

import hashlib

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q

from engine.scenarios import edits, scenariofile
from maps.models import Map, StaleRevision

__all__ = ["Scenario", "ScenarioRevision", "StaleRevision", "apply_edits", "restore_revision", "library_maps"]

TITLE_LENGTH = 200


def find_map(user, entry):
    """The Map a scenario's map entry names by id or name, among the maps the user may read (their own first,
    then published ones, the oldest first so that a name keeps meaning the same map); None if there is none."""
    visible = Map.objects.visible_to(user)
    if "id" in entry:
        return visible.filter(pk=entry["id"]).first()
    if "name" not in entry:
        return None
    mine = Q(owner=user) if user is not None and user.is_authenticated else Q(pk__in=[])
    named = visible.filter(name=entry["name"]).order_by("pk")
    return named.filter(mine).first() or named.first()


def library_maps(user):
    """A map lookup for scenariofile.parse: maps the user may read, by id or by name."""

    def lookup(entry):
        map = find_map(user, entry)
        if map is None:
            raise scenariofile.MapLookupError(
                f"no map {entry['id']} (or a private map of another user)" if "id" in entry
                else f"no map named {entry['name']!r} that you may read")
        return map.mapdoc()

    return lookup


def written(doc):
    text = scenariofile.dumps(doc)
    return doc.data, hashlib.sha256(text.encode("utf-8")).hexdigest()


class ScenarioQuerySet(models.QuerySet):
    def visible_to(self, user):
        if user is None or not user.is_authenticated:
            return self.filter(published=True)
        return self.filter(Q(published=True) | Q(owner=user))

    def create_from_doc(self, owner, doc, published=False, summary="created"):
        document, content_hash = written(doc)
        with transaction.atomic():
            scenario = self.create(owner=owner, title=doc.title, ruleset=doc.ruleset, document=document,
                                   content_hash=content_hash, published=published, revision=1)
            scenario.record(owner, summary)
        return scenario


class Scenario(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="scenarios")
    title = models.CharField(max_length=TITLE_LENGTH)
    ruleset = models.CharField(max_length=64)
    document = models.JSONField(help_text="The scenario file, as the scenario format's canonical document.")
    revision = models.PositiveIntegerField(default=1)
    content_hash = models.CharField(max_length=64, help_text="sha256 of the exported scenario file.")
    published = models.BooleanField(default=False, help_text="Published scenarios can be read by everyone.")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = ScenarioQuerySet.as_manager()

    class Meta:
        ordering = ["-updated", "-id"]
        indexes = [models.Index(fields=["published", "-updated"])]

    def __str__(self):
        return self.title

    def scenariodoc(self, document=None):
        """The stored document read back, its maps looked up as the owner sees them."""
        return scenariofile.parse(document or self.document, library_maps(self.owner))

    def export(self):
        return scenariofile.dumps(self.scenariodoc())

    def filename(self):
        safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in self.title.lower()).strip("-")
        return f"{safe or 'scenario'}.json"

    def record(self, author, summary):
        return self.revisions.create(number=self.revision, document=self.document, content_hash=self.content_hash,
                                     author=author if author is not None and author.is_authenticated else None,
                                     summary=edits.summarise([summary]) if summary else "")

    def commit(self, doc, author, summary):
        """Make a ScenarioDoc the next revision. Call inside a transaction holding the row."""
        self.document, self.content_hash = written(doc)
        self.title = doc.title
        self.ruleset = doc.ruleset
        self.revision += 1
        self.save(update_fields=["document", "content_hash", "title", "ruleset", "revision", "updated"])
        return self.record(author, summary)

    def main_map(self):
        """The main map when it is in the library (by id or name), else None (embedded)."""
        entries = self.document.get("maps") or [{}]
        return find_map(self.owner, entries[0])


class ScenarioRevision(models.Model):
    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    document = models.JSONField()
    content_hash = models.CharField(max_length=64)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    summary = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["scenario", "-number"]
        constraints = [models.UniqueConstraint(fields=["scenario", "number"], name="unique_scenario_revision_number")]

    def __str__(self):
        return f"{self.scenario} r{self.number}"


def apply_edits(scenario_id, author, revision, operations):
    """Apply edit operations in one transaction holding the row; the new ScenarioRevision.

    Raises StaleRevision, or edits.EditError listing every problem; in both cases nothing is written.
    """
    with transaction.atomic():
        scenario = Scenario.objects.select_for_update().get(pk=scenario_id)
        if revision is not None and revision != scenario.revision:
            raise StaleRevision(scenario.revision)
        doc, summary = edits.apply(scenario.document, operations, library_maps(scenario.owner))
        return scenario.commit(doc, author, summary)


def restore_revision(scenario_id, author, number, revision=None):
    """Bring back revision ``number`` as a new revision; ScenarioRevision.DoesNotExist if there is none.

    The old document is read again (its maps may have changed or gone): ScenarioFormatError if it no longer
    reads, and nothing is written."""
    with transaction.atomic():
        scenario = Scenario.objects.select_for_update().get(pk=scenario_id)
        if revision is not None and revision != scenario.revision:
            raise StaleRevision(scenario.revision)
        old = scenario.revisions.get(number=number)
        return scenario.commit(scenario.scenariodoc(old.document), author, f"restored revision {number}")
