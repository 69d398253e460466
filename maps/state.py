"""A map as a process keeps it, and the next revision's content worked out from it.

A MapState is the MapDoc and each hex's and hexside's line of the map file, so that after a stroke only the
stroke's lines are written again to hash the file (map_written), and a revision's delta is patched onto the state
before it without reading the map file again (patched_state). The size limits (HEXSIDE_MAX_HEXES,
HEXSIDE_MAX_MAP_BYTES) are checked on the map file each revision writes.
"""

import json
from dataclasses import replace

from django.conf import settings

from documents.models import Written, pack
from engine import edits, mapfile


class MapState:
    """A map as a process keeps it: the MapDoc, and the map file's lines for its hexes and hexsides."""

    __slots__ = ("doc", "head", "hex_lines", "side_lines")

    def __init__(self, doc, head, hex_lines, side_lines):
        self.doc, self.head, self.hex_lines, self.side_lines = doc, head, hex_lines, side_lines

    def text(self):
        """The map file, as mapfile.dumps writes it."""
        grid = self.doc.grid
        sides = self.side_lines
        return mapfile.write(self.head, {
            "hexes": [line for line in self.hex_lines if line is not None],
            "hexsides": [sides[key] for key in sorted(sides, key=lambda k: mapfile.hexside_order(grid, k))]})


def head_of(doc):
    """The canonical document without its hexes and hexsides (the name, grid, defaults, overlays ...)."""
    return mapfile.to_dict(replace(doc, hexes={}, hexsides={}))


def map_state(doc, head=None):
    grid = doc.grid
    rows = grid.rows
    hex_lines = [None] * (grid.columns * rows)
    for pos, cell in doc.hexes.items():
        hex_lines[pos[0] * rows + pos[1]] = mapfile.line(mapfile.hex_entry(grid, pos, cell))
    side_lines = {key: mapfile.line(mapfile.hexside_entry(grid, key, terrain)) for key, terrain in doc.hexsides.items()}
    return MapState(doc, head or head_of(doc), hex_lines, side_lines)


def map_written(old, doc, touched=None):
    """The next revision's content from the MapState it was edited from (None: no delta, a snapshot).

    Only the hexes and hexsides that differ are written again; untouched cells are the same objects (engine.edits
    shares them), so finding what differs costs a pass over the map's dict, not a writing of the map. Raises
    MapTooLarge past the size limits in settings.
    """
    check_hexes(doc.grid)
    head = head_of(doc)
    if old is None or head["grid"] != old.head["grid"]:
        state, changes = map_state(doc, head), None
    else:
        state, changes = changed_state(old, doc, head, touched)
    content = Written(state, state.text(), changes, weight=len(doc.hexes) + 1)
    limit = settings.HEXSIDE_MAX_MAP_BYTES
    if len(content.data) > limit:
        raise MapTooLarge([mapfile.Finding("$", f"the map file would be {len(content.data)} bytes, more than the "
                                                f"limit of {limit} bytes (HEXSIDE_MAX_MAP_BYTES)", code="too-large")])
    return content


def changed_state(old, doc, head, touched=None):
    grid = doc.grid
    rows = grid.rows
    hex_lines = list(old.hex_lines)
    was, now = old.doc.hexes, doc.hexes
    hexes, added = {}, 0
    if touched is not None:
        for pos in touched:
            cell = now.get(pos)
            if cell is None:
                if pos in was:
                    hexes[grid.label(*pos)] = None
                    hex_lines[pos[0] * rows + pos[1]] = None
            elif was.get(pos) != cell:
                entry = mapfile.hex_entry(grid, pos, cell)
                hexes[entry["hex"]] = entry
                hex_lines[pos[0] * rows + pos[1]] = mapfile.line(entry)
    for pos, cell in (now.items() if touched is None else ()):
        before = was.get(pos)
        if before is cell:
            continue
        if before is None:
            added += 1
        elif before == cell:
            continue
        entry = mapfile.hex_entry(grid, pos, cell)
        hexes[entry["hex"]] = entry
        hex_lines[pos[0] * rows + pos[1]] = mapfile.line(entry)
    if touched is None and len(was) + added > len(now):
        for pos in was.keys() - now.keys():
            hexes[grid.label(*pos)] = None
            hex_lines[pos[0] * rows + pos[1]] = None
    side_lines = old.side_lines
    hexsides = []
    if doc.hexsides != old.doc.hexsides:
        side_lines = dict(side_lines)
        for key in doc.hexsides.keys() | old.doc.hexsides.keys():
            terrain = doc.hexsides.get(key)
            if terrain == old.doc.hexsides.get(key):
                continue
            entry = mapfile.hexside_entry(grid, key, terrain)
            hexsides.append([entry["hex"], entry["side"], terrain])
            if terrain is None:
                del side_lines[key]
            else:
                side_lines[key] = mapfile.line(entry)
    top = {key: head.get(key) for key in head.keys() | old.head.keys()
           if key not in ("hexes", "hexsides") and head.get(key) != old.head.get(key)}
    changes = {"hexes": hexes, "hexsides": hexsides, "top": top}
    if len(hexes) + len(hexsides) > max(1000, (len(now) + len(doc.hexsides)) // 2):
        changes = None  # most of the map: a snapshot is no larger
    return MapState(doc, head, hex_lines, side_lines), changes


def patched_state(state, changes):
    """A MapState after a revision's delta, as map_written made it."""
    doc, head = state.doc, state.head
    if changes["top"]:
        head = {**head, **changes["top"]}
        if head.get("background") is None:
            head.pop("background", None)
        else:
            head["background"] = {k: head["background"][k] for k in mapfile.BACKGROUND_KEYS if k in head["background"]}
        doc = edits.load({**head, "hexes": [], "hexsides": []})
    grid = doc.grid
    rows = grid.rows
    at = edits.label_index(grid)
    hexes, hex_lines = dict(state.doc.hexes), list(state.hex_lines)
    for label, entry in changes["hexes"].items():
        pos = at[label]
        if entry is None:
            hexes.pop(pos, None)
            hex_lines[pos[0] * rows + pos[1]] = None
        else:
            cell = hexes[pos] = edits.cell_of(entry)
            hex_lines[pos[0] * rows + pos[1]] = mapfile.line(mapfile.hex_entry(grid, pos, cell))
    hexsides, side_lines = state.doc.hexsides, state.side_lines
    if changes["hexsides"]:
        hexsides, side_lines = dict(hexsides), dict(side_lines)
        for label, side, terrain in changes["hexsides"]:
            key = grid.hexside(*at[label], side)
            if terrain is None:
                hexsides.pop(key, None)
                side_lines.pop(key, None)
            else:
                hexsides[key] = terrain
                side_lines[key] = mapfile.line(mapfile.hexside_entry(grid, key, terrain))
    doc = replace(doc, hexes=hexes, hexsides=hexsides)
    return MapState(doc, head_of(doc) if changes["top"] else head, hex_lines, side_lines)


class MapTooLarge(mapfile.MapFormatError):
    """A map past HEXSIDE_MAX_HEXES hexes or HEXSIDE_MAX_MAP_BYTES bytes of map file."""


def written(doc):
    """The canonical document, its content hash and its snapshot, from one writing of the map file."""
    content = map_written(None, doc)
    return json.loads(content.text), content.content_hash, pack(content.text)


def check_hexes(grid):
    limit = settings.HEXSIDE_MAX_HEXES
    if grid.columns * grid.rows > limit:
        raise MapTooLarge([mapfile.Finding("grid", f"{grid.columns} x {grid.rows} = {grid.columns * grid.rows} "
                                                   f"hexes, more than the limit of {limit} hexes (HEXSIDE_MAX_HEXES)",
                                           code="too-large")])


def check_name(name):
    if len(name) > edits.NAME_LENGTH:
        raise mapfile.MapFormatError([mapfile.Finding(
            "name", f"at most {edits.NAME_LENGTH} characters, got {len(name)}", code="name-too-long")])
