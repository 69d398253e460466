"""Writing a map file deterministically: an unchanged map exports byte for byte the same."""

import hashlib
import json

from engine.hexgrid import Grid, Hex, HexsideKey
from engine.mapfile.document import FORMAT, VERSION, Cell, MapDoc


def to_dict(doc: MapDoc) -> dict:
    """The canonical document: keys in the spec's order, hexes and hexsides sorted by column then row."""
    grid = doc.grid
    hexes = []
    for pos in sorted(doc.hexes):
        hexes.append(hex_entry(grid, pos, doc.hexes[pos]))
    hexsides = [hexside_entry(grid, key, doc.hexsides[key])
                for key in sorted(doc.hexsides, key=lambda k: hexside_order(grid, k))]
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


def hex_entry(grid: Grid, pos: Hex, cell: Cell) -> dict:
    """One hex's entry in the canonical document."""
    entry = {"hex": grid.label(*pos), "terrain": list(cell.terrain), "level": cell.level}
    if cell.storeys != 1:
        entry["storeys"] = cell.storeys
    if cell.art:
        entry["art"] = [[[x, y] for x, y in poly] for poly in cell.art]
    if cell.label_note is not None:
        entry["label_note"] = cell.label_note
    return entry


def hexside_entry(grid: Grid, key: HexsideKey, terrain: str) -> dict:
    col, row, side = grid.hexside_name(key)
    return {"hex": grid.label(col, row), "side": side, "terrain": terrain}


def hexside_order(grid: Grid, key: HexsideKey) -> tuple:
    """Where a canonical hexside comes in the document: by the hex it is named from, then by side."""
    return grid.hexside_name(key)[:2] + (key[2],)


def dumps(doc: MapDoc) -> str:
    """Deterministic JSON text: one hex, hexside or overlay per line, everything sorted."""
    return write(to_dict(doc))


def line(item: object) -> str:
    """An entry of a list as dumps writes it on its own line (without the comma between entries)."""
    return "    " + _compact(item)


def write(data: dict, lines_of: dict[str, list[str]] | None = None) -> str:
    """The text of a canonical document; ``lines_of`` may give a list's entries already written by line(), in
    their order (so that a large map's text can be written again without writing every hex again)."""
    lines_of = lines_of or {}
    out = ["{"]
    keys = list(data)
    for n, key in enumerate(keys):
        value = data[key]
        comma = "," if n < len(keys) - 1 else ""
        items = lines_of.get(key)
        if items is None and isinstance(value, list):
            items = [line(item) for item in value]
        if items:
            out.append(f"  {json.dumps(key)}: [")
            out.append(",\n".join(items))
            out.append(f"  ]{comma}")
        else:
            out.append(f"  {json.dumps(key)}: {_compact([] if items is not None else value)}{comma}")
    out.append("}")
    return "\n".join(out) + "\n"


def content_hash(doc: MapDoc) -> str:
    return hashlib.sha256(dumps(doc).encode("utf-8")).hexdigest()


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


def _compact(value):
    # Entries are built in a fixed key order; free data (extensions) is sorted so that it is stable too.
    return _ENCODER.encode(value)
