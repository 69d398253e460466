"""Unit types in a scenario (docs/scenario-format.md, "Unit types"): an OOB line names its ``type``, one of its
game's catalogue (engine/games/<game>/catalogue.json, ``unit_types``) or one the scenario declares with its values in
a top-level ``unit_types`` list. The checks read a unit's type, never its name. No Django."""

from engine import rulesets
from engine.rulesets.catalogue import UNIT_TYPE_KEYS
from engine.rulesets.unittypes import unit_type_problems
from engine.scenarios import limits


def read(items, catalogue, error):
    """The scenario's own unit types, checked as the catalogue's are; each problem reported with its path."""
    if items is None or items == []:
        return []
    if not isinstance(items, list):
        error("unit_types", "expected a list of unit types, each {id, name, kind, ...}", code="bad-type")
        return []
    if len(items) > limits.OOB_LINES:
        error("unit_types", limits.too_many("unit_types", len(items), limits.OOB_LINES, "unit types"),
              code="too-many")
        return []
    kinds = catalogue.unit_kinds if catalogue is not None else None
    echelons = catalogue.echelons if catalogue is not None else None
    classes = set(catalogue.unit_classes) if catalogue is not None else None
    terrain = set(catalogue.terrain) if catalogue is not None else None
    builtin = catalogue.unit_types if catalogue is not None else {}
    out, seen = [], set()
    for n, entry in enumerate(items):
        where = f"unit_types[{n}]"
        problems = unit_type_problems(entry, where, kinds or None, echelons, classes, terrain)
        problems += _too_long(entry, where)
        for path, message in problems:
            error(path, message, code="bad-unit-type")
        if problems:
            continue
        tid = entry["id"]
        if tid in builtin:
            error(f"{where}.id", f"{tid!r} is already a unit type of the {catalogue.id} catalogue; give yours an id "
                                 "of its own", code="bad-unit-type")
        elif tid in seen:
            error(f"{where}.id", f"unit type {tid!r} is declared twice", code="bad-unit-type")
        else:
            seen.add(tid)
            out.append({key: entry[key] for key in UNIT_TYPE_KEYS if key in entry})
    return out


def _too_long(entry, where):
    """The scenario's limits on a declared type's texts and lists (limits.py): a type is a line of the OOB's size."""
    if not isinstance(entry, dict):
        return []
    out = []
    for key, limit in (("id", 64), ("name", limits.UNIT), ("rule", limits.UNIT_NOTES), ("notes", limits.UNIT_NOTES)):
        value = entry.get(key)
        if isinstance(value, str) and len(value) > limit:
            out.append((f"{where}.{key}", limits.too_long(f"{where}.{key}", len(value), limit)))
    for key in ("barred", "barred_entering", "carries", "attaches_to"):
        value = entry.get(key)
        if isinstance(value, list) and len(value) > limits.WEAPONS:
            out.append((f"{where}.{key}", limits.too_many(f"{where}.{key}", len(value), limits.WEAPONS)))
    return out


def known(catalogue, own):
    """type id -> entry: the catalogue's types, then the scenario's own."""
    types = dict(catalogue.unit_types) if catalogue is not None else {}
    types.update((entry["id"], entry) for entry in own)
    return types


def line_label(unit, side_name, index):
    """How a designer names an OOB line: "Rifle Squad (German OOB line 3)"."""
    return f"{unit or 'unit'} ({side_name + ' ' if side_name else ''}OOB line {index + 1})"


def reference(value, types, path, label, error):
    """An OOB line's ``type``: the id of a known type, else reported (naming the line) and None."""
    if value is None:
        return None
    if not isinstance(value, str) or value not in types:
        names = ", ".join(sorted(types)) or "none"
        error(path, f"{label} names unit type {value!r}, which is neither a type of its game's catalogue nor one "
                    f"the scenario declares in unit_types (known: {names})", code="unknown-unit-type")
        return None
    return value


def of(doc, unit):
    """The unit type entry of an OOB line, or None when the line names none."""
    tid = unit.get("type")
    if tid is None:
        return None
    return table(doc).get(tid)


def table(doc):
    """type id -> entry for a parsed scenario (its catalogue's and its own), worked out once per document: the
    checks look a type up for every placement, and a custom ruleset's lookup asks its loader."""
    cached = doc.__dict__.get("_unit_types")
    if cached is None:
        cached = known(rulesets.get(doc.ruleset), doc.data.get("unit_types") or [])
        doc.__dict__["_unit_types"] = cached
    return cached
