"""The operations that undo a scenario revision: from the scenario file before and after it, a set, insert or
remove at each JSON path it changed, as deep as the two files still have the same shape (documents.undo builds
the history), so that the session can tell which paths another designer changed meanwhile."""

import re

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
FIXED = ("format", "version")


def inverse(before, after, changes=None):
    """Edit operations turning the scenario file ``after`` back into ``before``; None when a fixed key differs.
    (The delta, ``changes``, names only top-level keys: the files themselves are compared.)"""
    if any(before.get(key) != after.get(key) for key in FIXED):
        return None
    ops = []
    _diff("", before, after, ops)
    return ops


def _diff(path, old, new, ops):
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict) and all(NAME.match(k) for k in old.keys() | new.keys()):
        for key, value in old.items():
            here = f"{path}.{key}" if path else key
            if key in new:
                _diff(here, value, new[key], ops)
            else:
                ops.append({"op": "set", "path": here, "value": value})
        ops.extend({"op": "remove", "path": f"{path}.{key}" if path else key} for key in new if key not in old)
    elif isinstance(old, list) and isinstance(new, list) and path and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=False)):
            _diff(f"{path}[{i}]", a, b, ops)
    elif isinstance(old, list) and isinstance(new, list) and path and len(new) == len(old) + 1 and _one_added(old, new):
        ops.append({"op": "remove", "path": f"{path}[{_one_added(old, new) - 1}]"})
    elif isinstance(old, list) and isinstance(new, list) and path and len(old) == len(new) + 1 and _one_added(new, old):
        at = _one_added(new, old) - 1
        ops.append({"op": "insert", "path": path, "index": at, "value": old[at]})
    else:
        ops.append({"op": "set", "path": path, "value": old})


def _one_added(short, long):
    """1 + the index at which ``long`` is ``short`` with one item inserted; 0 when it is not."""
    for i in range(len(long)):
        if long[:i] + long[i + 1:] == short:
            return i + 1
    return 0
