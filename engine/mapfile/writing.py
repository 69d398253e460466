"""Writing a map file deterministically: an unchanged map exports byte for byte the same."""

import hashlib
import json

from engine.mapfile.document import FORMAT, VERSION


def to_dict(doc):
    """The canonical document: keys in the spec's order, hexes and hexsides sorted by column then row."""
    grid = doc.grid
    hexes = []
    for (col, row) in sorted(doc.hexes):
        cell = doc.hexes[(col, row)]
        entry = {"hex": grid.label(col, row), "terrain": list(cell.terrain), "level": cell.level}
        if cell.storeys != 1:
            entry["storeys"] = cell.storeys
        if cell.art:
            entry["art"] = [[[x, y] for x, y in poly] for poly in cell.art]
        if cell.label_note is not None:
            entry["label_note"] = cell.label_note
        hexes.append(entry)
    hexsides = []
    for key in sorted(doc.hexsides, key=lambda k: grid.hexside_name(k)[:2] + (k[2],)):
        col, row, side = grid.hexside_name(key)
        hexsides.append({"hex": grid.label(col, row), "side": side, "terrain": doc.hexsides[key]})
    overlays = []
    for overlay in doc.overlays:
        overlays.append({"id": overlay.id, "anchor": grid.label(*overlay.anchor), "rotation": overlay.rotation,
                         "hexes": sorted(overlay.hexes, key=lambda e: tuple(e["hex"])),
                         "hexsides": sorted(overlay.hexsides, key=lambda e: (tuple(e["hex"]), e["side"]))})
    out = {
        "format": FORMAT,
        "version": VERSION,
        "name": doc.name,
        "ruleset": doc.ruleset,
        "grid": grid.as_dict(),
        "defaults": {"terrain": list(doc.default_terrain), "level": doc.default_level},
        "hexes": hexes,
        "hexsides": hexsides,
        "overlays": overlays,
    }
    if doc.background is not None:
        out["background"] = dict(doc.background)
    out["extensions"] = json.loads(json.dumps(doc.extensions, sort_keys=True))
    return out


def dumps(doc):
    """Deterministic JSON text: one hex, hexside or overlay per line, everything sorted."""
    data = to_dict(doc)
    lines = ["{"]
    keys = list(data)
    for n, key in enumerate(keys):
        value = data[key]
        comma = "," if n < len(keys) - 1 else ""
        if isinstance(value, list) and value:
            lines.append(f"  {json.dumps(key)}: [")
            lines.extend(f"    {_compact(item)}{',' if k < len(value) - 1 else ''}" for k, item in enumerate(value))
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {_compact(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def content_hash(doc):
    return hashlib.sha256(dumps(doc).encode("utf-8")).hexdigest()


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


def _compact(value):
    # Entries are built in a fixed key order; free data (extensions) is sorted so that it is stable too.
    return _ENCODER.encode(value)
