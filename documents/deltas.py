"""A revision's delta between two JSON documents, as deep as they keep their shape, and the document it makes.

A scenario may embed a map of 250,000 hexes: a delta of its changed top-level parts stored the whole map again for
a one-hex edit (15.8 MB). Here a delta names each change where it is: ``["set", path, value]``, ``["drop", path]``
(a key gone) and ``["splice", path, start, end, items]`` (a list's items start to end replaced by items: one
inserted, one removed or a run rewritten). A path is the keys and indexes from the top. Patching copies only the
containers on a changed path, so the document it started from (kept in memory, shared) is never changed.
"""

import copy
import difflib
import json

# A list this long is matched run by run (difflib); a shorter one item by item, or set whole when it grew or
# shrank.
SAME_SHAPE_LIST = 64


def delta(old, new):
    """The operations that turn ``old`` into ``new`` (both JSON values with a dict at the top)."""
    ops = []
    _diff([], old, new, ops)
    return ops


def _diff(path, old, new, ops):
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in new.items():
            if key not in old:
                ops.append(["set", path + [key], value])
            else:
                _diff(path + [key], old[key], value, ops)
        ops.extend(["drop", path + [key]] for key in old if key not in new)
    elif isinstance(old, list) and isinstance(new, list) and path and max(len(old), len(new)) >= SAME_SHAPE_LIST:
        _diff_list(path, old, new, ops)
    elif isinstance(old, list) and isinstance(new, list) and path and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            _diff(path + [i], a, b, ops)
    else:
        ops.append(["set", path, new])


def _diff_list(path, old, new, ops):
    """The same items at each end kept; between them, runs matched (difflib), each run that differs compared item
    by item where it kept its length and spliced where it did not. The runs go last first, so that a splice
    never moves the index of an operation still to come."""
    start, stop = 0, min(len(old), len(new))
    while start < stop and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old, end_new = end_old - 1, end_new - 1
    if end_old - start == end_new - start <= 2:
        runs = [("replace", start, end_old, start, end_new)]
    else:
        matcher = difflib.SequenceMatcher(None, _keys(old[start:end_old]), _keys(new[start:end_new]),
                                          autojunk=False)
        runs = [(tag, start + i1, start + i2, start + j1, start + j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes()]
    for tag, i1, i2, j1, j2 in reversed(runs):
        if tag == "equal":
            continue
        if i2 - i1 == j2 - j1:
            for i, j in zip(range(i2 - 1, i1 - 1, -1), range(j2 - 1, j1 - 1, -1), strict=True):
                _diff(path + [i], old[i], new[j], ops)
        else:
            ops.append(["splice", path, i1, i2, new[j1:j2]])


def _keys(items):
    return [json.dumps(item, sort_keys=True, separators=(",", ":")) for item in items]


def patch(document, ops):
    """The document ``ops`` make of ``document``, which is left as it was."""
    root = {"": document}
    copied = {id(root)}
    for op in ops:
        kind, path = op[0], [""] + list(op[1])
        parent = _writable(root, path[:-1], copied)
        last = path[-1]
        if kind == "set":
            parent[last] = op[2]
        elif kind == "drop":
            del parent[last]
        elif kind == "splice":
            target = _writable(root, path, copied)
            target[op[2]:op[3]] = op[4]
        else:
            raise ValueError(f"unknown delta operation {kind!r}")
    return root[""]


def _writable(root, path, copied):
    """The container at ``path``, and each one above it, copied once per patch."""
    here = root
    for key in path:
        child = here[key]
        if id(child) not in copied:
            child = copy.copy(child)
            here[key] = child
            copied.add(id(child))
        here = child
    return here
