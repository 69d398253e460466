"""The operations that undo a map revision: from the map file before and after it, those that put back each hex,
hexside and overlay it changed (with its name), its board scan's placing and its name (documents.undo builds the
history)."""

import json

from engine import edits, mapfile
from engine.mapfile import examples

# The extensions an operation writes: the overlays' names (name_overlay, place_overlay's name) and the LOS examples
# (set_los_examples); the rest of the free data no operation puts back.
PUT_BACK_EXTENSIONS = (mapfile.OVERLAY_NAMES, examples.EXAMPLES)
PUT_BACK = ("name", "background", "hexes", "hexsides", "overlays",
            *(f"extensions.{key}" for key in PUT_BACK_EXTENSIONS))
FIXED = ("format", "version", "ruleset", "grid", "defaults")


def _fixed(before, after):
    """Whether what no operation puts back differs: the grid, the ruleset, the defaults, and the extensions but
    for those an operation writes (PUT_BACK_EXTENSIONS)."""
    if any(before.get(key) != after.get(key) for key in FIXED):
        return True
    return _free(before) != _free(after)


def _free(head):
    return {k: v for k, v in (head.get("extensions") or {}).items() if k not in PUT_BACK_EXTENSIONS}


def _names(head):
    names = (head.get("extensions") or {}).get(mapfile.OVERLAY_NAMES)
    return names if isinstance(names, dict) else {}


def inverse_states(before, after, changes=None):
    """``inverse`` on two MapStates (maps.state), writing out only the hexes and hexsides that differ: those the
    revision's delta names (``changes``), or, for a snapshot, those found by a pass over the map's dict."""
    if _fixed(before.head, after.head):
        return None
    grid = after.doc.grid
    parts = [{**state.head, "hexes": [], "hexsides": []} for state in (before, after)]
    was, now = before.doc.hexes, after.doc.hexes
    if changes is not None:
        at = edits.label_index(grid)
        changed = [at[label] for label in changes["hexes"]]
    else:
        changed = was.keys() | now.keys()
    for pos in changed:
        old, new = was.get(pos), now.get(pos)
        if old is new or old == new:
            continue
        for part, cell in zip(parts, (old, new), strict=False):
            if cell is not None:
                part["hexes"].append(mapfile.hex_entry(grid, pos, cell))
    if before.doc.hexsides != after.doc.hexsides:
        for key in before.doc.hexsides.keys() | after.doc.hexsides.keys():
            old, new = before.doc.hexsides.get(key), after.doc.hexsides.get(key)
            if old == new:
                continue
            for part, terrain in zip(parts, (old, new), strict=False):
                if terrain is not None:
                    part["hexsides"].append(mapfile.hexside_entry(grid, key, terrain))
    return inverse(*parts)


def inverse(before, after, changes=None):
    """Edit operations turning the map file ``after`` back into ``before`` where they differ; None when what
    differs (the grid, the ruleset, the defaults, free extensions) has no operation."""
    if _fixed(before, after):
        return None
    ops = []
    ops.extend(_hexes(before["hexes"], after["hexes"], before["defaults"]))
    ops.extend(_hexsides(before["hexsides"], after["hexsides"]))
    ops.extend(_overlays(before["overlays"], after["overlays"], _names(before), _names(after)))
    if before.get("background") != after.get("background"):
        ops.append({"op": "set_background", "background": before.get("background")})
    if before["name"] != after["name"]:
        ops.append({"op": "rename", "name": before["name"]})
    cases = [((head.get("extensions") or {}).get(examples.EXAMPLES) or {}).get("cases") or []
             for head in (before, after)]
    if cases[0] != cases[1]:
        ops.append({"op": "set_los_examples", "examples": cases[0]})
    return ops


def _grouped(ops, key):
    """Operations that differ only in their hexes, as one operation listing them."""
    groups = {}
    for op in ops:
        groups.setdefault(json.dumps({k: v for k, v in op.items() if k != key}, sort_keys=True), []).append(op)
    return [{**group[0], key: [h for op in group for h in op[key]]} for group in groups.values()]


def _hexes(before, after, defaults):
    was = {entry["hex"]: entry for entry in before}
    now = {entry["hex"]: entry for entry in after}
    cleared, painted, single = [], [], []
    for label in sorted(was.keys() | now.keys()):
        old, new = was.get(label), now.get(label)
        if old == new:
            continue
        if old is None:
            cleared.append(label)
            continue
        new = new or {}
        painted.append({"op": "set_terrain", "hexes": [label], "terrain": old.get("terrain", defaults["terrain"])})
        painted.append({"op": "set_level", "hexes": [label], "level": old.get("level", defaults["level"])})
        if old.get("storeys", 1) != new.get("storeys", 1) or not new:
            painted.append({"op": "set_storeys", "hexes": [label], "storeys": old.get("storeys", 1)})
        if old.get("label_note") != new.get("label_note"):
            painted.append({"op": "set_label_note", "hexes": [label], "label_note": old.get("label_note")})
        if old.get("art") != new.get("art"):
            single.append({"op": "set_art", "hex": label, "art": old["art"]} if old.get("art")
                          else {"op": "clear_art", "hex": label})
    ops = [{"op": "clear_hexes", "hexes": cleared}] if cleared else []
    return ops + _grouped(painted, "hexes") + single


def _hexsides(before, after):
    was = {(e["hex"], e["side"]): e["terrain"] for e in before}
    now = {(e["hex"], e["side"]): e["terrain"] for e in after}
    ops = []
    for (label, side) in sorted(was.keys() | now.keys()):
        old = was.get((label, side))
        if old == now.get((label, side)):
            continue
        ops.append({"op": "set_hexside", "hex": label, "side": side, "terrain": old} if old is not None
                   else {"op": "clear_hexside", "hex": label, "side": side})
    return ops


def _overlays(before, after, was_named, now_named):
    """Removing an overlay takes its name away and placing one back gives it its name again; a name changed on an
    overlay that stays is put back by name_overlay ("" for none)."""
    was = {o["id"]: o for o in before}
    now = {o["id"]: o for o in after}
    place = {o["id"]: i for i, o in enumerate(before)}
    ops = []
    for id in sorted(now.keys() - was.keys()):
        ops.append({"op": "remove_overlay", "id": id})
    for id, old in was.items():
        new = now.get(id)
        if new == old:
            if was_named.get(id) != now_named.get(id):
                ops.append({"op": "name_overlay", "id": id, "name": was_named.get(id, "")})
            continue
        if new is not None and {**new, "anchor": old["anchor"], "rotation": old["rotation"]} == old:
            ops.append({"op": "move_overlay", "id": id, "anchor": old["anchor"], "rotation": old["rotation"]})
            if was_named.get(id) != now_named.get(id):
                ops.append({"op": "name_overlay", "id": id, "name": was_named.get(id, "")})
            continue
        if new is not None:
            ops.append({"op": "remove_overlay", "id": id})
        placed = {"op": "place_overlay", "overlay": old, "index": place[id]}
        if id in was_named:
            placed["name"] = was_named[id]
        ops.append(placed)
    return ops
