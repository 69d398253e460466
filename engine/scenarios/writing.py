"""Writing the scenario format (docs/scenario-format.md): the canonical text, deterministic, so that reading an
export and writing it again gives the same bytes. ``engine.scenarios.scenariofile`` names these too."""

import hashlib
import json

from engine import mapfile


def to_dict(doc):
    """The canonical document (what parse() made)."""
    return doc.data


def dumps(doc):
    """Deterministic JSON text: keys in the format's order, one list entry per line."""
    return _write(to_dict(doc), 0) + "\n"


def content_hash(doc):
    return hashlib.sha256(dumps(doc).encode("utf-8")).hexdigest()


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))
_WIDTH = 116


def _write(value, depth, lead=0):
    """Short values on one line; longer objects and lists one member per line, two spaces deeper.

    ``lead`` is how many characters stand before the value on its line."""
    flat = _ENCODER.encode(value)
    if not isinstance(value, (dict, list)) or not value or 2 * depth + lead + len(flat) <= _WIDTH:
        return flat
    pad, close = "  " * (depth + 1), "  " * depth
    if isinstance(value, dict):
        if "format" in value and value.get("format") == mapfile.FORMAT:
            # An embedded map file keeps the map format's own layout, indented to its place.
            return mapfile.dumps(mapfile.parse(value)).rstrip("\n").replace("\n", "\n" + close)
        items = []
        for k, v in value.items():
            key = json.dumps(k, ensure_ascii=False) + ": "
            items.append(pad + key + _write(v, depth + 1, len(key)))
        return "{\n" + ",\n".join(items) + "\n" + close + "}"
    if all(not isinstance(v, (dict, list)) for v in value):
        # Hex lists and the like: several to a line.
        lines, line = [], ""
        for v in value:
            part = _ENCODER.encode(v)
            if line and len(pad) + len(line) + len(part) + 3 > _WIDTH:
                lines.append(line + ",")
                line = part
            else:
                line = f"{line}, {part}" if line else part
        lines.append(line)
        return "[\n" + "\n".join(pad + x for x in lines) + "\n" + close + "]"
    # A list of entries (units, placements, markers...): one entry to a line, as the map format does, unless an
    # entry holds entries of its own (a side).
    return "[\n" + ",\n".join(pad + (_ENCODER.encode(v) if _shallow(v) else _write(v, depth + 1))
                               for v in value) + "\n" + close + "]"


def _shallow(value):
    """An entry written on one line: it holds no entries of its own (a marker's flat ``details`` are its own
    fields, and stay on its line)."""
    items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
    return not any((isinstance(v, dict) and not (k == "details" and _flat(v)))
                   or (isinstance(v, list) and any(isinstance(x, dict) for x in v)) for k, v in items)


def _flat(value):
    return all(not isinstance(v, (dict, list)) for v in value.values())
