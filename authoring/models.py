"""Scenarios as stored documents, with their history, in the manner of maps.Map.

A scenario is kept whole as the scenario format's canonical document (engine/scenarios/scenariofile.py): sides, OOB,
setup zones, placements, reinforcements, markers, objectives, victory conditions and special rules are its
structured parts, read by the checks, the API and the card from the one document. It is a document with
revisions (documents.models): each revision stores the top-level parts it changed, with a snapshot every so often;
bringing one back is itself a new revision.
"""

import copy
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from authoring import scenario_maps
from authoring.scenario_maps import library_maps
from authoring.writes import ScenarioWrites
from documents import deltas, writing
from documents.models import Document, Revision, StaleRevision
from engine.scenarios import edits, scenariofile, visibility
from jobs.models import Job
from maps.dependents import Dependent, NotKept

__all__ = ["Scenario", "ScenarioEditor", "ScenarioRevision", "SideLink", "StaleRevision", "apply_edits",
           "restore_revision", "library_maps", "map_dependents", "point_at"]

TITLE_LENGTH = 200


class ScenarioQuerySet(models.QuerySet):
    def visible_to(self, user):
        """The published scenarios, the user's own and those they are an editor of."""
        if user is None or not user.is_authenticated:
            return self.filter(published=True)
        edited = ScenarioEditor.objects.filter(user=user).values("scenario")
        return self.filter(Q(published=True) | Q(owner=user) | Q(pk__in=edited))

    def create_from_doc(self, owner, doc, published=False, summary="created"):
        """A new scenario at revision 1 from a ScenarioDoc; refused (MapsUnreadable) when it is published with
        maps that are not (documents.writing.create)."""
        return writing.create(self.model, owner, doc, summary, published=published)


class Scenario(Document):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="scenarios")
    title = models.CharField(max_length=TITLE_LENGTH)
    ruleset = models.CharField(max_length=64)
    stored_bytes = models.PositiveBigIntegerField(default=0, help_text="Bytes its revisions take (snapshots and "
                                                                       "deltas), for its owner's storage quota.")

    objects = ScenarioQuerySet.as_manager()
    writes = ScenarioWrites()

    class Meta(Document.Meta):
        indexes = [models.Index(fields=["published", "-updated"])]

    def __str__(self):
        return self.title

    # the document base's hooks for reading: a scenario is kept as its canonical document
    def read_state(self, document):
        return document

    def document_of(self, state):
        return copy.deepcopy(state)  # the kept state is shared: a caller may change what it is given

    def patched(self, state, changes):
        if isinstance(changes, list):
            return deltas.patch(state, changes)
        # A revision written before deltas went deep: the top-level parts that changed.
        document = {key: value for key, value in state.items() if key not in changes["drop"]}
        document.update(changes["set"])
        return document

    def scenariodoc(self, document=None):
        """The stored document read back with its maps' documents, as the owner sees them: for tools and tests.
        A request reads outline() (the maps' rows only); a job reads the maps it was asked about (tasks.doc_for)."""
        resolver = scenario_maps.Resolver(self.owner)
        return scenariofile.parse(document or self.document, lambda entry: resolver.find(entry).map.mapdoc())

    def outline(self, reader, document=None):
        """The document read back as ``reader`` may have it, its maps as their rows (scenario_maps.outline_doc)."""
        return scenario_maps.outline_doc(self, reader, document)

    def export(self, reader, sides):
        """The scenario file as ``reader`` holding ``sides`` downloads it (authoring.readers.sides_for): what
        visibility.view lets them see. MapsUnreadable when a map is not theirs to read."""
        doc = self.outline(reader)
        return scenariofile.dumps(scenariofile.ScenarioDoc(data=visibility.view(doc.data, sides), maps=doc.maps))

    def filename(self):
        safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in self.title.lower()).strip("-")
        return f"{safe or 'scenario'}.json"

    def main_map(self, reader):
        """(the main map's row, None) when it is in the library and ``reader`` may have the scenario's maps;
        (None, None) when it is embedded; (None, why) when a map is not theirs to read through it."""
        try:
            pin = scenario_maps.main_pin(scenario_maps.maps_for(self, reader), self.document)
        except scenario_maps.MapsUnreadable as exc:
            return None, scenario_maps.unreadable_words(self.document, exc.errors)
        return (pin.map if pin is not None else None), None


class ScenarioRevision(Revision):
    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="revisions")

    document_field = "scenario"

    class Meta:
        ordering = ["scenario", "-number"]
        constraints = [models.UniqueConstraint(fields=["scenario", "number"], name="unique_scenario_revision_number")]


def apply_edits(scenario_id, author, revision, operations, undoes=None):
    """Apply edit operations; the new ScenarioRevision (documents.writing.edit). Worked out on the scenario as read,
    written only if it has not moved on meanwhile (as for maps); the maps it names are checked by the author's
    rights (scenario_maps.EditResolver). Raises StaleRevision, or edits.EditError listing
    every problem; in both cases nothing is written."""
    return writing.edit(Scenario, scenario_id, author, revision, operations, undoes=undoes)


def restore_revision(scenario_id, author, number, revision=None):
    """Bring back revision ``number`` as a new revision; ScenarioRevision.DoesNotExist if there is none, and
    ScenarioFormatError if the old document no longer reads against its maps (nothing is written)."""
    return writing.restore(Scenario, scenario_id, author, number, revision)


def unpublish_with(map):
    """A map made private takes its owner's published scenarios that name it with it (a published scenario names
    only published maps); the ids of those unpublished. Another user's scenario naming it stays published, and
    every read through it refuses the map to anyone but its owner (scenario_maps.maps_for); the stored jobs of
    such scenarios that drew or traced the map are deleted, so that no one reads the map in them by job id."""
    unpublished = [scenario.pk for scenario in Scenario.objects.filter(owner_id=map.owner_id, published=True)
                   if scenario_maps.names_map(scenario.document, map)]
    Scenario.objects.filter(pk__in=unpublished).update(published=False, updated=timezone.now())
    theirs = Job.objects.filter(subject_type="scenario").exclude(
        subject_id__in=Scenario.objects.filter(owner_id=map.owner_id).values("pk"))
    pinned = [job.pk for job in theirs.only("pk", "parameters").iterator()
              if any(pin[1] == map.pk for pin in (job.parameters or {}).get("maps") or ())]
    Job.objects.filter(pk__in=pinned).delete()
    return unpublished


def scenarios_on(map):
    """The scenarios that name a map, the map's owner's own first: every scenario is read (a map deleted is rare,
    and any scenario made while the map was published may name it)."""
    found = [scenario for scenario in Scenario.objects.select_related("owner").order_by("pk").iterator()
             if scenario_maps.uses_map(scenario.owner_id, scenario.document, map)]
    return sorted(found, key=lambda scenario: scenario.owner_id != map.owner_id)


def map_dependents(map):
    """What a map's delete page lists (maps.dependents): each scenario on the map; its owner's own go with it, or
    stay with the map embedded in them (keep)."""
    return [Dependent("scenario", scenario.title, reverse("scenario-page", args=[scenario.pk]),
                      scenario.owner.get_username(), scenario.owner_id == map.owner_id, scenario.delete,
                      keep=lambda scenario=scenario: embed_map(scenario, map))
            for scenario in scenarios_on(map)]


def embed_map(scenario, map):
    """Put the map's file into each of the scenario's entries naming it (their key, placement and rotation kept),
    as a new revision by the map's owner, so that the scenario keeps its map when the map is deleted
    (docs/scenario-format.md, "A map entry"). NotKept, naming the scenario, when the scenario refuses it."""
    indexes = scenario_maps.entries_naming(scenario.owner_id, scenario.document, map)
    document = map.document
    operations = [{"op": "set", "path": f"maps[{index}]", "value": {
        **{k: v for k, v in scenario.document["maps"][index].items() if k not in ("id", "name")},
        "document": document}} for index in indexes]
    if not operations:
        return
    try:
        apply_edits(scenario.pk, map.owner, scenario.revision, operations)
    except (edits.EditError, StaleRevision) as exc:
        why = exc.errors[0].message if isinstance(exc, edits.EditError) else "it changed meanwhile; try again"
        raise NotKept(f"“{scenario.title}” cannot keep the map embedded: {why}") from None


def point_at(scenario, index, map, author, revision):
    """Point the scenario's map entry ``index`` at another library map (its key, placement and rotation kept), as
    a new revision: the edit reads the whole scenario against the new map, so a hex it does not have is refused by
    name (edits.EditError)."""
    entry = {key: value for key, value in scenario.document["maps"][index].items() if key not in ("id", "name")}
    operation = {"op": "set", "path": f"maps[{index}]", "value": {**entry, "id": map.pk}}
    return apply_edits(scenario.pk, author, revision, [operation])


def map_saved(sender, instance, update_fields=None, **kwargs):
    """post_save of a Map (maps imports no scenarios): unpublishing it unpublishes its owner's scenarios on it."""
    if not instance.published and update_fields is not None and "published" in update_fields:
        unpublish_with(instance)


def new_token():
    return secrets.token_urlsafe(32)


class SideLinkQuerySet(models.QuerySet):
    def live(self):
        return self.filter(revoked__isnull=True)


class SideLink(models.Model):
    """One side's link to a scenario: whoever holds its token reads that side's private part (its brief, its
    hidden units, its secret victory conditions: engine.scenarios.visibility) besides the public one. Made and
    revoked by the owner on the scenario's page; a revoked link opens nothing."""

    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="side_links")
    side = models.CharField(max_length=64, help_text="The side's id in the scenario file.")
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    created = models.DateTimeField(default=timezone.now)
    revoked = models.DateTimeField(null=True, blank=True)

    objects = SideLinkQuerySet.as_manager()

    class Meta:
        ordering = ["scenario", "side", "-created"]

    def __str__(self):
        return f"{self.scenario_id}:{self.side}{' (revoked)' if self.revoked else ''}"

    def revoke(self):
        if self.revoked is None:
            self.revoked = timezone.now()
            self.save(update_fields=["revoked"])


class ScenarioEditor(models.Model):
    """A user the owner made an editor of their scenario: an editor reads everything of it, as the owner does
    (every side's private part: authoring.readers.sides_for), and may change its document (edits, restore, its
    title), but not delete, publish or unpublish it, make or revoke its side links, or name its editors."""

    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="editors")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="scenarios_edited")
    added = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["scenario", "user__username"]
        constraints = [models.UniqueConstraint(fields=["scenario", "user"], name="unique_scenario_editor")]

    def __str__(self):
        return f"{self.scenario_id}:{self.user_id}"
