"""Checking unit types (docs/rulesets/catalogues.md, "Unit types"): a catalogue's ``unit_types`` section and a
scenario's own types, entry by entry, every problem named with its path. reading.py checks a catalogue with it,
engine/scenarios/unittypes.py a scenario's declared types."""

from engine.rulesets.catalogue import (
    FACES_KEYS,
    ID_PATTERN,
    PLACING_FACINGS,
    RELATION_KEYS,
    UNIT_TYPE_KEYS,
    UNIT_TYPE_REQUIRED,
    UNIT_TYPES_KEYS,
    _is_int,
    _is_text,
)


class _Problems(list):
    def add(self, path, message):
        self.append((path, message))


def check_keys(obj, allowed, required, where, problems):
    """Unknown keys and missing required keys of one JSON object, each named with its path (the catalogue's
    reader uses it too)."""
    for key in obj:
        if key not in allowed:
            problems.add(f"{where}.{key}", f"unknown key; expected {', '.join(allowed)}")
    for key in required:
        if key not in obj:
            problems.add(f"{where}.{key}", "is required")


def check_section(section, problems, classes, terrain_ids):
    """The unit_types section: {kinds, echelons, types}, each type an entry of UNIT_TYPE_KEYS."""
    if not isinstance(section, dict):
        problems.add("unit_types", f"must be an object with the keys {', '.join(UNIT_TYPES_KEYS)}")
        return
    check_keys(section, UNIT_TYPES_KEYS, UNIT_TYPES_KEYS, "unit_types", problems)
    words = {}
    for key in ("kinds", "echelons"):
        value = section.get(key)
        if key in section and (not isinstance(value, list) or not all(
                isinstance(v, str) and ID_PATTERN.match(v) for v in value) or len(set(value)) != len(value)):
            problems.add(f"unit_types.{key}", "must be a list of lower-case words joined by '-', each once")
            value = None
        words[key] = value if isinstance(value, list) else None
    types = section.get("types")
    if "types" in section and not isinstance(types, list):
        problems.add("unit_types.types", "must be a list of unit types")
        return
    seen = {}
    for n, entry in enumerate(types or ()):
        where = f"unit_types.types[{n}]"
        for path, message in unit_type_problems(entry, where, words["kinds"], words["echelons"], classes,
                                                terrain_ids):
            problems.add(path, message)
        tid = entry.get("id") if isinstance(entry, dict) else None
        if isinstance(tid, str) and tid in seen:
            problems.add(f"{where}.id", f"duplicate id {tid!r}, first at {seen[tid]}")
        elif isinstance(tid, str):
            seen[tid] = where


def unit_type_problems(entry, where, kinds, echelons, classes, terrain_ids):
    """[(path, message)] of what is wrong with one unit type: the catalogue's and a scenario's own alike.

    ``kinds`` and ``echelons`` are the game's words (None: not checked), ``classes`` its unit classes,
    ``terrain_ids`` the terrain a ``barred`` list may name."""
    problems = _Problems()
    if not isinstance(entry, dict):
        problems.add(where, "must be an object with an id, a name and a kind")
        return problems
    check_keys(entry, UNIT_TYPE_KEYS, UNIT_TYPE_REQUIRED, where, problems)
    if "id" in entry and (not isinstance(entry["id"], str) or not ID_PATTERN.match(entry["id"])):
        problems.add(f"{where}.id", f"{entry['id']!r} is not lower-case words joined by '-'")
    for key in ("name", "rule", "notes", "setup"):
        if key in entry and not _is_text(entry[key]):
            problems.add(f"{where}.{key}", "must be a non-empty string")
    if "symbol" in entry and not (isinstance(entry["symbol"], str) and len(entry["symbol"]) == 20
                                  and entry["symbol"].isdigit()):
        problems.add(f"{where}.symbol", "must be a NATO symbol code of 20 digits (MIL-STD-2525D, APP-6D), "
                                        f"not {entry['symbol']!r}")
    if "kind" in entry and kinds is not None and entry["kind"] not in kinds:
        problems.add(f"{where}.kind", f"{entry['kind']!r} is not one of this game's kinds ({', '.join(kinds)})")
    if "class" in entry and classes is not None and entry["class"] not in classes:
        problems.add(f"{where}.class", f"{entry['class']!r} is not one of the unit classes "
                                       f"({', '.join(sorted(classes))})")
    for key, low in (("stacking", 0), ("steps", 1)):
        if key in entry and entry[key] is not None and (not _is_int(entry[key]) or entry[key] < low):
            problems.add(f"{where}.{key}", f"must be a whole number, {low} or more, or null, not {entry[key]!r}")
    if "casualty_points" in entry:
        value = entry["casualty_points"]
        values = value if isinstance(value, list) else [value]
        if not values or not all(_is_int(v) and v >= 0 for v in values):
            problems.add(f"{where}.casualty_points", "must be a whole number, 0 or more, or a list of them (full "
                                                     f"strength first), not {value!r}")
    if "hidden" in entry and not isinstance(entry["hidden"], bool):
        problems.add(f"{where}.hidden", "must be true or false")
    if "echelon" in entry and entry["echelon"] is not None and (echelons is None or
                                                                entry["echelon"] not in echelons):
        problems.add(f"{where}.echelon", f"{entry['echelon']!r} is not one of this game's echelons "
                                         f"({', '.join(echelons or ()) or 'none'})")
    for key, known, what in (("barred", terrain_ids, "terrain ids"), ("barred_entering", terrain_ids, "terrain ids"),
                             ("carries", kinds, "kinds"),
                             ("attaches_to", kinds, "kinds")):
        if key not in entry:
            continue
        value = entry[key]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            problems.add(f"{where}.{key}", f"must be a list of {what}")
            continue
        for v in value:
            if known is not None and v not in known:
                problems.add(f"{where}.{key}", f"{v!r} is not one of this ruleset's {what}")
    _relations(entry, where, kinds, problems)
    return problems


def _relations(entry, where, kinds, problems):
    """``crewed_by`` {kinds, rule} and ``faces`` {to, rule}: what a unit needs beside it, where it faces."""
    crewed = entry.get("crewed_by")
    if "crewed_by" in entry:
        if not isinstance(crewed, dict) or not isinstance(crewed.get("kinds"), list) or not crewed["kinds"] or any(
                not isinstance(k, str) or (kinds is not None and k not in kinds) for k in crewed["kinds"]):
            problems.add(f"{where}.crewed_by", "must be {\"kinds\": [this game's unit kinds], \"rule\": \"...\"}")
        else:
            check_keys(crewed, RELATION_KEYS, RELATION_KEYS, f"{where}.crewed_by", problems)
    faces = entry.get("faces")
    if "faces" in entry:
        if not isinstance(faces, dict) or faces.get("to") not in PLACING_FACINGS:
            problems.add(f"{where}.faces", f"must be {{\"to\": {' or '.join(PLACING_FACINGS)}, \"rule\": \"...\"}}")
        else:
            check_keys(faces, FACES_KEYS, FACES_KEYS, f"{where}.faces", problems)
    for key in ("crewed_by", "faces"):
        value = entry.get(key)
        if isinstance(value, dict) and "rule" in value and not _is_text(value["rule"]):
            problems.add(f"{where}.{key}.rule", "must be a non-empty string")
