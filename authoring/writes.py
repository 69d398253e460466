"""A scenario's steps of a write (documents.writing calls them, in order): its document after the edit
operations, read against the owner's library maps; a scenario created published is published with its maps."""

from authoring import scenario_maps, undo
from documents import deltas
from documents.models import Written
from documents.writing import Kind
from engine.scenarios import edits, scenariofile
from maps import quotas
from maps.writes import count_stored


def written(doc, old=None):
    """The next revision's content from a ScenarioDoc: its canonical document, the hash of its file, and what
    changed since ``old`` (the document edited; None: a snapshot), as deep as it changed (documents.deltas)."""
    document = doc.data
    changes = None if old is None else deltas.delta(old, document)
    return Written(document, scenariofile.dumps(doc), changes)


class ScenarioWrites(Kind):
    def written(self, doc, document=None):
        return written(doc, None if document is None else document.document)

    def apply(self, scenario, operations, author):
        """The maps the edit names are checked by the author's rights (scenario_maps.EditResolver)."""
        old = scenario.document
        doc, summary = edits.apply(old, operations, scenario_maps.edit_maps(scenario, author, old))
        return written(doc, old), summary

    def restored(self, scenario, number, author):
        """The old document read again (its maps may have changed or gone): ScenarioFormatError if it no longer
        reads, or names a map the author may not have it name (scenario_maps.EditResolver)."""
        maps = scenario_maps.edit_maps(scenario, author, scenario.document, by_name=True)
        return written(scenariofile.parse(scenario.document_at(number), maps))

    def columns(self, document):
        return {"title": document.get("title", ""), "ruleset": document.get("ruleset", "")}

    def check(self, owner_id, scenario, written, **extra):
        """What the owner's storage takes, read before the write transaction."""
        return {"taken": quotas.used(owner_id)}

    def stored(self, scenario, written, revision, checked):
        """Count the revision's bytes on the row (the maps it embeds are in them) and refuse what takes the owner
        past their storage quota; a scenario is created published only with its maps (docs/scenarios.md)."""
        size = count_stored(scenario, revision)
        if size > 0:
            quotas.check(scenario.owner_id, size, "this scenario" if revision.number == 1 else "this change",
                         taken=checked["taken"])
        if revision.number == 1 and scenario.published:
            problems = scenario_maps.publish_problems(scenario)
            if problems:
                raise scenario_maps.MapsUnreadable(problems)

    def inverse(self, before, after, changes):
        return undo.inverse(before, after, changes)
