"""Edit operations on a scenario: what the editor sends, applied all or nothing. No Django.

A scenario is small next to a map, so an edit names a place in the document by its JSON path and says what to
put there; the edited document is then read again whole by the scenario format, so an edit accepts exactly what
an imported file would, and every problem comes back with its path. One bad operation rejects the request.

    {"op": "set", "path": "sides[0].oob[2].count", "value": 3}
    {"op": "insert", "path": "sides[0].oob", "value": {...}, "index": 1}      index: default the end
    {"op": "remove", "path": "sides[0].placements[4]"}
    {"op": "move", "path": "sides[0].oob", "from": 3, "to": 0}                reorder a list
"""

import copy
import re

from engine.edits import MAX_OPERATIONS, EditError, Problem, summarise
from engine.scenarios import naming, scenariofile

__all__ = ["apply", "EditError", "Problem", "OPERATIONS"]

OPERATIONS = {
    # name -> (required keys, optional keys)
    "set": (("path", "value"), ()),
    "insert": (("path", "value"), ("index",)),
    "remove": (("path",), ()),
    "move": (("path", "from", "to"), ()),
}
STEP = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")
FIXED = ("format", "version")


def parse_path(path):
    """["sides", 0, "oob"] from "sides[0].oob"; ValueError when it is not a path."""
    if not isinstance(path, str) or not path:
        raise ValueError("expected a JSON path such as \"sides[0].oob[2].count\"")
    steps, at = [], 0
    while at < len(path):
        m = STEP.match(path, at)
        if m is None or (at == 0 and path[0] == "."):
            raise ValueError(f"cannot read the path {path!r} at character {at + 1}")
        steps.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        at = m.end()
    return steps


def _walk(document, steps):
    """The container holding the last step, and that step; KeyError/IndexError/TypeError when there is none."""
    here = document
    for step in steps[:-1]:
        here = here[step]
    last = steps[-1]
    if isinstance(here, list) and not isinstance(last, int) or isinstance(here, dict) and not isinstance(last, str):
        raise TypeError("wrong kind of step")
    return here, last


def apply(document, operations, maps=None, rulesets=None):
    """(ScenarioDoc, summary) of the document with the operations applied; EditError listing every problem."""
    if not isinstance(operations, list) or not operations:
        raise EditError([Problem(None, "operations", "expected a non-empty list of operations")])
    if len(operations) > MAX_OPERATIONS:
        raise EditError([Problem(None, "operations", f"at most {MAX_OPERATIONS} operations in one request, "
                                                     f"got {len(operations)}")])
    data = copy.deepcopy(document)
    problems, notes = [], []
    for index, op in enumerate(operations):
        where = f"operations[{index}]"
        if not isinstance(op, dict) or not isinstance(op.get("op"), str) or op["op"] not in OPERATIONS:
            problems.append(Problem(index, f"{where}.op", f"expected an operation, one of {', '.join(OPERATIONS)}"))
            continue
        required, optional = OPERATIONS[op["op"]]
        bad = [k for k in op if k != "op" and k not in required + optional]
        missing = [k for k in required if k not in op]
        for k in bad:
            problems.append(Problem(index, f"{where}.{k}", f"unknown key {k!r} for {op['op']}; expected "
                                                          f"{', '.join(required + optional)}"))
        for k in missing:
            problems.append(Problem(index, f"{where}.{k}", f"{op['op']} needs {k!r}"))
        if bad or missing:
            continue
        try:
            steps = parse_path(op["path"])
        except ValueError as exc:
            problems.append(Problem(index, f"{where}.path", str(exc)))
            continue
        if not isinstance(steps[0], str):
            problems.append(Problem(index, f"{where}.path", f"{op['path']}: a path starts with a key of the "
                                                           "document, e.g. \"sides[0].oob\""))
            continue
        if steps[0] in FIXED:
            problems.append(Problem(index, f"{where}.path", f"{steps[0]!r} cannot be changed"))
            continue
        try:
            note = _run(data, op, steps)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            # in a designer's words ("side 8", "the notes of Rifle Squad (German OOB line 3)"): the path is the field
            said = naming.describe(op["path"], data)
            message = f"{said}: {exc.args[0]}" if isinstance(exc, ValueError) and exc.args else (
                f"{said} is not in the scenario (it may have been removed meanwhile)")
            problems.append(Problem(index, f"{where}.path", message))
            continue
        notes.append(note)
    if problems:
        raise EditError(problems)
    try:
        doc = scenariofile.parse(data, maps, rulesets)
    except scenariofile.ScenarioFormatError as exc:
        raise EditError([Problem(None, f.path, f.message, f.hex) for f in exc.errors]) from None
    return doc, summarise(notes)


def _run(data, op, steps):
    """Apply one operation; its note for the revision's summary, in the designer's words (engine.scenarios.naming:
    "change Allies' victory condition"), since the history and the Undo button show it."""
    name = op["op"]
    said = naming.describe(op["path"], data)  # before the change: what is removed is still there to be named
    if name == "set":
        if len(steps) == 1:
            data[steps[0]] = copy.deepcopy(op["value"])
        else:
            here, last = _walk(data, steps)
            if isinstance(here, list):
                here[last]  # noqa: B018 - an index must exist to be set
            here[last] = copy.deepcopy(op["value"])
        return f"change {said}"
    target = _get(data, steps)
    if name == "insert":
        if not isinstance(target, list):
            raise ValueError("insert needs a list")
        index = op.get("index", len(target))
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= len(target):
            raise ValueError(f"index must be from 0 to {len(target)}")
        target.insert(index, copy.deepcopy(op["value"]))
        return f"add to {said}"
    if name == "remove":
        here, last = _walk(data, steps)
        del here[last]
        return f"remove {said}"
    if not isinstance(target, list):
        raise ValueError("move needs a list")
    a, b = op["from"], op["to"]
    if not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(target) for i in (a, b)):
        raise ValueError(f"from and to must be from 0 to {len(target) - 1}")
    target.insert(b, target.pop(a))
    return f"reorder {said} ({a + 1} to {b + 1})"


def _get(data, steps):
    here = data
    for step in steps:
        here = here[step]
    return here
