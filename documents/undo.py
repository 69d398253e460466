"""A designer's undo history on one document, rebuilt from its revisions, so that it survives a reload and is the
same in every tab.

Every stroke is a revision with its author; an undo is a new revision too, whose summary says which revision it
undoes ("undo of revision 12: ..."), and a redo is the undo of that undo. Walking the designer's recent
revisions in order rebuilds the two stacks the edit session keeps (static/js/session.js): a stroke goes on the
undo stack and empties the redo stack; the undo of the stroke on top of the undo stack moves it to the redo
stack; the undo of the revision on top of the redo stack (a redo) moves it back; a restore starts afresh.

What undoing a revision sends is worked out from the document's state (the kind's state in memory: a map's
MapState, a scenario's document) before and after it, by its kind's writes (maps.undo, authoring.undo):
the operations that put back what the revision changed. A revision whose change no operation can put back (a
new grid, a changed ruleset) ends the history there.
"""

import re

from documents.models import unpack

UNDO_SUMMARY = re.compile(r"^undo of revision (\d+)\b")
RESTORE_SUMMARY = re.compile(r"^restored revision \d+")
WINDOW = 200  # the revisions looked at, newest first: "recent" strokes
DEPTH = 50    # entries kept on each stack


def undo_summary(undoes, summary):
    """The summary of an edit that undoes revision ``undoes`` (None: an ordinary edit)."""
    return summary if undoes is None else f"undo of revision {undoes}: {summary}"


def undoes(summary):
    """The revision an edit undid, from its summary; None for an ordinary edit."""
    found = UNDO_SUMMARY.match(summary or "")
    return int(found.group(1)) if found else None


def stacks(rows):
    """The (undo, redo) stacks of revision numbers, top last, from one designer's revisions in order:
    ``rows`` are (number, summary)."""
    undo, redo = [], []
    for number, summary in rows:
        target = undoes(summary)
        if RESTORE_SUMMARY.match(summary or ""):
            undo, redo = [], []
        elif target is not None and undo and undo[-1] == target:
            undo.pop()
            redo.append(number)
        elif target is not None and redo and redo[-1] == target:
            redo.pop()
            undo.append(number)
        else:
            undo.append(number)
            redo = []
    return undo[-DEPTH:], redo[-DEPTH:]


def history(document, user):
    """``{"revision", "undo": [...], "redo": [...]}`` for ``user`` on ``document``, each stack's top last; an
    entry is ``{"revision", "label", "operations"}``, the operations undoing that revision on the current
    document. The kind's ``inverse(before, after, changes)`` (``document.writes``) gives the operations that turn
    the state ``after`` back into ``before`` where they differ (``changes``: the revision's delta, None for a
    snapshot), or None when they cannot."""
    current = document.revision
    answer = {"revision": current, "undo": [], "redo": []}
    if not user.is_authenticated:
        return answer
    recent = list(document.revisions.filter(number__gt=max(0, current - WINDOW))
                  .order_by("number").values_list("number", "author_id", "summary"))
    mine = [(number, summary) for number, author, summary in recent if author == user.pk]
    undo, redo = stacks(mine)
    wanted = set(undo) | set(redo)
    if not wanted:
        return answer
    summaries = {number: summary for number, _, summary in recent}
    entries = {}
    for number, before, after, changes in _pairs(document, sorted(wanted)):
        operations = document.writes.inverse(before, after, changes)
        if operations is not None:
            entries[number] = {"revision": number, "label": _label(number, summaries), "operations": operations}
    # A revision that cannot be undone ends each stack below it: nothing under it can be reached.
    for name, numbers in (("undo", undo), ("redo", redo)):
        kept = []
        for number in reversed(numbers):
            if number not in entries:
                break
            kept.append(entries[number])
        answer[name] = kept[::-1]
    return answer


def _label(number, summaries):
    """What the Undo and Redo buttons name: the stroke's own summary; for an undo (on the redo stack), the summary
    of the stroke it undid, which a redo does again."""
    seen = set()
    while number not in seen and undoes(summaries.get(number)) in summaries:
        seen.add(number)
        number = undoes(summaries[number])
    return UNDO_SUMMARY.sub("", summaries.get(number) or "").lstrip(": ") or "edit"


def _pairs(document, numbers):
    """(n, state at n - 1, state at n, the delta of n or None) for each wanted n, in one walk through the
    revisions from the snapshot before the first of them (not one replay from a snapshot each); states, not
    documents, so that a big map is not written out twice a revision."""
    first = numbers[0] - 1
    if first < 1:
        numbers = [n for n in numbers if n > 1]  # the creation has nothing before it to go back to
        if not numbers:
            return
        first = numbers[0] - 1
    wanted = set(numbers)
    state = document.state_at(first)
    rows = (document.revisions.filter(number__gt=first, number__lte=numbers[-1]).order_by("number")
            .values_list("number", "snapshot", "changes"))
    for number, snapshot, changes in rows.iterator():
        before = state
        state = document.read_state(unpack(snapshot)) if snapshot is not None else document.patched(state, changes)
        if number in wanted:
            yield number, before, state, changes
