"""Edit operations on a map: what the painter sends, checked and applied all or nothing. No Django.

The painter sends small operations (paint these hexes, set this hexside) rather than whole documents, so a
request stays small and two designers can tell which change came first. :func:`apply` checks every operation
before anything counts: one bad operation rejects the whole request, and every problem found is reported, each
naming the operation by its index. The operations are listed in docs/api.md.

Values (terrain ids, levels, storeys, art, overlays) are checked by the map format's own reader on a one-entry
document, so an edit accepts exactly what an imported file would, with the same messages. The map that comes
in is never changed: the edited map is a new :class:`~engine.mapfile.MapDoc` sharing the untouched cells.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from engine import mapfile
from engine.hexgrid import Grid, Hex
from engine.mapfile import Cell, MapDoc, MapFormatError, Overlay, examples

if TYPE_CHECKING:  # for the type checker only, as in engine.mapfile.reading
    from engine.rulesets import Ruleset

MAX_OPERATIONS = 10_000
NAME_LENGTH = 200
SUMMARY_LENGTH = 300


@dataclass(frozen=True)
class Problem:
    """What is wrong with one operation: its index, where in the request, the hex and what was expected."""

    operation: int | None
    path: str
    message: str
    hex: str | None = None

    def as_dict(self) -> dict[str, object]:
        return {"operation": self.operation, "path": self.path, "hex": self.hex, "message": self.message}

    def __str__(self):
        where = f"{self.path} ({self.hex})" if self.hex else self.path
        return f"{where}: {self.message}"


class EditError(ValueError):
    def __init__(self, problems: Iterable[Problem]) -> None:
        self.errors = list(problems)
        count = len(self.errors)
        super().__init__(f"{count} problem{'s' if count != 1 else ''} in the operations: "
                         + "; ".join(str(p) for p in self.errors))


def apply(doc: MapDoc, operations: object, rulesets: Callable[[str], "Ruleset"] | None = None,
          touched: set[Hex] | None = None) -> tuple[MapDoc, str]:
    """The edited map and a one-line summary of what changed; EditError listing every problem otherwise.

    ``rulesets`` looks a ruleset up by id, as for :func:`engine.mapfile.parse`. ``touched``, a set, is given the
    hexes whose entries the operations set or removed (so that a large map's store need not look at every hex).
    """
    if not isinstance(operations, list) or not operations:
        raise EditError([Problem(None, "operations", "expected a non-empty list of operations")])
    if len(operations) > MAX_OPERATIONS:
        raise EditError([Problem(None, "operations", f"at most {MAX_OPERATIONS} operations in one request, "
                                                     f"got {len(operations)}")])
    editor = _Editor(doc, rulesets)
    if touched is not None:
        editor.touched = touched
    notes = []
    for index, op in enumerate(operations):
        note = editor.run(index, op)
        if note:
            notes.append(note)
    if editor.problems:
        raise EditError(editor.problems)
    return editor.doc, summarise(notes)


def load(document: dict) -> MapDoc:
    """The MapDoc of a document that mapfile.to_dict wrote, read back without checking it again.

    Checking a whole map (mapfile.parse) takes longer than an edit may; a stored document was checked before
    it was stored, and only the operations' values need checking now.
    """
    grid = Grid(**document["grid"])
    at = _label_index(grid).__getitem__
    hexes = {}
    for entry in document["hexes"]:
        hexes[at(entry["hex"])] = cell_of(entry)
    hexsides = {grid.hexside(*at(entry["hex"]), entry["side"]): entry["terrain"] for entry in document["hexsides"]}
    overlays = [Overlay(id=o["id"], anchor=at(o["anchor"]), rotation=o["rotation"],
                        hexes=[_entry(e, mapfile.OVERLAY_HEX_KEYS) for e in o["hexes"]],
                        hexsides=[_entry(e, mapfile.HEXSIDE_KEYS) for e in o["hexsides"]])
                for o in document["overlays"]]
    defaults = document["defaults"]
    return MapDoc(name=document["name"], ruleset=document["ruleset"], grid=grid,
                  default_terrain=tuple(defaults["terrain"]), default_level=defaults["level"], hexes=hexes,
                  hexsides=hexsides, overlays=overlays, extensions=document["extensions"],
                  background=document.get("background"))


def cell_of(entry: dict) -> Cell:
    """The Cell of a hex's entry as mapfile.to_dict writes it."""
    art = entry.get("art")
    return Cell(terrain=tuple(entry["terrain"]), level=entry["level"], storeys=entry.get("storeys", 1),
                art=tuple(tuple((x, y) for x, y in polygon) for polygon in art) if art else None,
                label_note=entry.get("label_note"))


def label_index(grid: Grid) -> dict[str, Hex]:
    """Every hex of a grid by its label."""
    return _label_index(grid)


def _entry(stored, keys):
    """An overlay's entry with its keys in the order the reader writes them (a database may reorder them)."""
    return {key: list(stored[key]) if key == "hex" else stored[key] for key in keys if key in stored}


@lru_cache(maxsize=32)
def _label_index(grid: Grid) -> dict[str, Hex]:
    """Every hex of a grid by its label: looking labels up beats reading them, for a whole map."""
    return {grid.label(col, row): (col, row) for col, row in grid.hexes()}


def summarise(notes: list[str]) -> str:
    text = "; ".join(notes)
    return text if len(text) <= SUMMARY_LENGTH else text[:SUMMARY_LENGTH - 1] + "…"


class _Editor:
    """Runs operations one by one on a copy of the map, collecting problems instead of stopping at the first."""

    def __init__(self, doc, rulesets):
        self.doc = replace(doc, hexes=dict(doc.hexes), hexsides=dict(doc.hexsides), overlays=list(doc.overlays))
        self.grid = doc.grid
        self.rulesets = rulesets
        self.problems = []
        self.default = doc.default_cell()
        self.touched = set()

    def problem(self, index, path, message, hex=None):
        self.problems.append(Problem(index, path, message, hex))

    def run(self, index, op):
        path = f"operations[{index}]"
        if not isinstance(op, dict):
            self.problem(index, path, "expected an object such as {\"op\": \"set_terrain\", ...}")
            return None
        name = op.get("op")
        spec = OPERATIONS.get(name) if isinstance(name, str) else None
        if spec is None:
            self.problem(index, f"{path}.op", f"unknown operation {name!r}; expected one of: "
                                              f"{', '.join(OPERATIONS)}")
            return None
        method, required, optional = spec
        before = len(self.problems)
        for key in op:
            if key != "op" and key not in required and key not in optional:
                self.problem(index, f"{path}.{key}", f"unknown key {key!r} for {name}; expected "
                                                     f"{', '.join(required + optional) or 'no other key'}")
        for key in required:
            if key not in op:
                self.problem(index, f"{path}.{key}", f"{name} needs {key!r}")
        if len(self.problems) > before:
            return None
        return method(self, index, path, op)

    # -- reading the parts of an operation -----------------------------------------------------------
    def hex_list(self, index, path, value):
        if not isinstance(value, list) or not value:
            self.problem(index, path, "expected a non-empty list of hexes (labels or [column, row] pairs)")
            return None
        out = []
        ok = True
        parse_hex = self.grid.parse_hex
        for j, item in enumerate(value):
            try:
                out.append(parse_hex(item))
            except ValueError as exc:
                self.problem(index, f"{path}[{j}]", str(exc), item if isinstance(item, str) else None)
                ok = False
        return out if ok else None

    def one_hex(self, index, path, value):
        try:
            return self.grid.parse_hex(value)
        except ValueError as exc:
            self.problem(index, path, str(exc), value if isinstance(value, str) else None)
            return None

    def side(self, index, path, value, label):
        try:
            return self.grid.side_index(value)
        except ValueError as exc:
            self.problem(index, path, str(exc), label)
            return None

    def check(self, index, section, entry, prefix, label=None):
        """Check one entry with the map format's reader; its findings become this operation's problems."""
        doc = self.doc
        data = {"format": mapfile.FORMAT, "version": mapfile.VERSION, "name": doc.name or "-",
                "ruleset": doc.ruleset, "grid": self.grid.as_dict(),
                "defaults": {"terrain": list(doc.default_terrain), "level": doc.default_level},
                section: [entry]}
        try:
            checked = mapfile.parse(data, self.rulesets)
        except MapFormatError as exc:
            head = f"{section}[0]"
            for finding in exc.errors:
                path = finding.path
                if path == head or path.startswith(head + ".") or path.startswith(head + "["):
                    path = prefix + path[len(head):]
                else:
                    path = f"{prefix} ({path})"
                self.problem(index, path, finding.message, finding.hex or label)
            return None
        return checked

    def overlay_index(self, index, path, oid):
        for i, overlay in enumerate(self.doc.overlays):
            if overlay.id == oid:
                return i
        known = ", ".join(o.id for o in self.doc.overlays) or "none"
        self.problem(index, path, f"no overlay {oid!r} on this map (overlays: {known})")
        return None

    # -- the operations ------------------------------------------------------------------------------
    def paint(self, index, path, op, key, change):
        """Shared by the hex operations: check the value once, then change every hex listed."""
        hexes = self.hex_list(index, f"{path}.hexes", op["hexes"])
        if hexes is None:
            return None
        label = self.grid.label(*hexes[0])
        checked = self.check(index, "hexes", {"hex": label, key: op[key]}, path, label)
        if checked is None:
            return None
        value = getattr(checked.hexes[hexes[0]], key)
        cells = self.doc.hexes
        default = self.default
        for pos in hexes:
            self.put(pos, change(cells.get(pos, default), value))
        return PAINTED[op["op"]].format(hexes=_count(hexes, self.grid), value=_show(value))

    def put(self, pos, cell):
        """Store a cell; a hex back to exactly the defaults is no longer listed."""
        self.touched.add(pos)
        if cell == self.default:
            self.doc.hexes.pop(pos, None)
        else:
            self.doc.hexes[pos] = cell

    def set_terrain(self, index, path, op):
        return self.paint(index, path, op, "terrain",
                          lambda c, terrain: Cell(terrain, c.level, c.storeys, c.art, c.label_note))

    def set_level(self, index, path, op):
        return self.paint(index, path, op, "level",
                          lambda c, level: Cell(c.terrain, level, c.storeys, c.art, c.label_note))

    def set_storeys(self, index, path, op):
        return self.paint(index, path, op, "storeys",
                          lambda c, storeys: Cell(c.terrain, c.level, storeys, c.art, c.label_note))

    def set_label_note(self, index, path, op):
        """A note printed beside the hex's label (null: none), so that undoing an erase can bring it back."""
        return self.paint(index, path, op, "label_note",
                          lambda c, note: Cell(c.terrain, c.level, c.storeys, c.art, note))

    def clear_hexes(self, index, path, op):
        hexes = self.hex_list(index, f"{path}.hexes", op["hexes"])
        if hexes is None:
            return None
        for pos in hexes:
            self.doc.hexes.pop(pos, None)
        self.touched.update(hexes)
        return f"erase {_count(hexes, self.grid)}"

    def set_art(self, index, path, op):
        pos = self.one_hex(index, f"{path}.hex", op["hex"])
        if pos is None:
            return None
        label = self.grid.label(*pos)
        checked = self.check(index, "hexes", {"hex": label, "art": op["art"]}, path, label)
        if checked is None:
            return None
        cell = self.doc.hexes.get(pos, self.default)
        self.put(pos, replace(cell, art=checked.hexes[pos].art))
        return f"art in {label}"

    def clear_art(self, index, path, op):
        pos = self.one_hex(index, f"{path}.hex", op["hex"])
        if pos is None:
            return None
        cell = self.doc.hexes.get(pos)
        if cell is not None:
            self.put(pos, replace(cell, art=None))
        return f"remove the art of {self.grid.label(*pos)}"

    def set_hexside(self, index, path, op):
        pos = self.one_hex(index, f"{path}.hex", op["hex"])
        if pos is None:
            return None
        label = self.grid.label(*pos)
        side = self.side(index, f"{path}.side", op["side"], label)
        if side is None:
            return None
        entry = {"hex": label, "side": self.grid.sides[side], "terrain": op["terrain"]}
        if self.check(index, "hexsides", entry, path, label) is None:
            return None
        self.doc.hexsides[self.grid.hexside(*pos, side)] = op["terrain"]
        return f"{_show(op['terrain'])} on hexside {label}/{self.grid.sides[side]}"

    def clear_hexside(self, index, path, op):
        pos = self.one_hex(index, f"{path}.hex", op["hex"])
        if pos is None:
            return None
        label = self.grid.label(*pos)
        side = self.side(index, f"{path}.side", op["side"], label)
        if side is None:
            return None
        self.doc.hexsides.pop(self.grid.hexside(*pos, side), None)
        return f"clear hexside {label}/{self.grid.sides[side]}"

    def place_overlay(self, index, path, op):
        entry = op["overlay"]
        if not isinstance(entry, dict):
            self.problem(index, f"{path}.overlay", "expected an overlay object {\"id\", \"anchor\", \"rotation\", "
                                                  "\"hexes\", \"hexsides\"}")
            return None
        oid = entry.get("id")
        if isinstance(oid, str) and any(o.id == oid for o in self.doc.overlays):
            self.problem(index, f"{path}.overlay.id", f"overlay {oid!r} is already on this map; move or remove "
                                                      "it, or give the new one another id")
            return None
        checked = self.check(index, "overlays", entry, f"{path}.overlay")
        if checked is None:
            return None
        overlay = checked.overlays[0]
        at = op.get("index", len(self.doc.overlays))  # where it goes among the overlays (an undo puts one back)
        if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= len(self.doc.overlays):
            self.problem(index, f"{path}.index", f"expected the overlay's place, a whole number from 0 to "
                                                 f"{len(self.doc.overlays)}, got {at!r}")
            return None
        if "name" in op and not self.set_overlay_name(index, f"{path}.name", overlay.id, op["name"]):
            return None
        self.doc.overlays.insert(at, overlay)
        return f"stamp {self.overlay_word(overlay.id)} at {self.grid.label(*overlay.anchor)}"

    def move_overlay(self, index, path, op):
        if "anchor" not in op and "rotation" not in op:
            self.problem(index, path, "move_overlay needs a new 'anchor', a new 'rotation' or both")
            return None
        at = self.overlay_index(index, f"{path}.id", op["id"])
        if at is None:
            return None
        old = self.doc.overlays[at]
        entry = {"id": old.id, "anchor": op.get("anchor", list(old.anchor)),
                 "rotation": op.get("rotation", old.rotation), "hexes": old.hexes, "hexsides": old.hexsides}
        checked = self.check(index, "overlays", entry, path)
        if checked is None:
            return None
        moved = checked.overlays[0]
        self.doc.overlays[at] = Overlay(id=old.id, anchor=moved.anchor, rotation=moved.rotation,
                                        hexes=moved.hexes, hexsides=moved.hexsides)
        return f"move {self.overlay_word(old.id)} to {self.grid.label(*moved.anchor)}, rotation {moved.rotation}"

    def remove_overlay(self, index, path, op):
        at = self.overlay_index(index, f"{path}.id", op["id"])
        if at is None:
            return None
        word = self.overlay_word(op["id"])
        del self.doc.overlays[at]
        self.set_overlay_name(index, path, op["id"], "")
        return f"remove {word}"

    def name_overlay(self, index, path, op):
        """Name an overlay (an empty name takes it away). Names are kept in extensions, not in the overlay entry,
        whose keys the map format fixes (mapfile.OVERLAY_NAMES)."""
        at = self.overlay_index(index, f"{path}.id", op["id"])
        if at is None or not self.set_overlay_name(index, f"{path}.name", op["id"], op["name"]):
            return None
        return f"name an overlay {' '.join(op['name'].split())!r}" if op["name"].strip() else "unname an overlay"

    def overlay_word(self, oid):
        """How the revision's summary (shown in the history) names an overlay: its name, its printed ID, or
        "an overlay"; never Hexside's own id ("sel-1")."""
        title = mapfile.overlay_title(self.doc, Overlay(id=oid, anchor=(0, 0)))
        return repr(title) if title and title != oid else (title or "an overlay")

    def set_overlay_name(self, index, path, oid, name):
        if not isinstance(name, str):
            self.problem(index, path, f"expected the overlay's name as text, got {name!r}")
            return False
        name = " ".join(name.split())
        if len(name) > mapfile.OVERLAY_NAME_LENGTH:
            self.problem(index, path, f"an overlay's name has at most {mapfile.OVERLAY_NAME_LENGTH} characters, "
                                      f"got {len(name)}")
            return False
        names = dict((self.doc.extensions or {}).get(mapfile.OVERLAY_NAMES) or {})
        if name:
            names[oid] = name
        elif oid not in names:
            return True
        else:
            del names[oid]
        extensions = {key: value for key, value in (self.doc.extensions or {}).items() if key != mapfile.OVERLAY_NAMES}
        if names:
            extensions[mapfile.OVERLAY_NAMES] = names
        self.doc.extensions = extensions
        return True

    def set_background(self, index, path, op):
        """Align, fade or remove the board scan (null removes the entry; the image file is kept)."""
        entry = op["background"]
        if entry is None:
            self.doc.background = None
            return "remove the board scan"
        data = {"format": mapfile.FORMAT, "version": mapfile.VERSION, "name": self.doc.name or "-",
                "ruleset": self.doc.ruleset, "grid": self.grid.as_dict(), "background": entry}
        try:
            checked = mapfile.parse(data, self.rulesets)
        except MapFormatError as exc:
            for finding in exc.errors:
                self.problem(index, f"{path}.{finding.path}", finding.message)
            return None
        self.doc.background = checked.background
        return "place the board scan"

    def rename(self, index, path, op):
        name = op["name"]
        if not isinstance(name, str) or not name.strip():
            self.problem(index, f"{path}.name", "expected a non-empty name")
            return None
        if len(name) > NAME_LENGTH:
            self.problem(index, f"{path}.name", f"at most {NAME_LENGTH} characters, got {len(name)}")
            return None
        self.doc.name = name
        return f"rename to {name!r}"

    def set_los_examples(self, index, path, op):
        """Keep the map's LOS examples (engine.mapfile.examples): the whole list, checked as the reader checks it;
        an empty list takes the section away."""
        cases = op["examples"]
        if not isinstance(cases, list):
            self.problem(index, f"{path}.examples", "expected the list of LOS examples (an empty list removes them)")
            return None
        problems = examples.problems(examples.section(cases), self.doc.grid)
        for _where, message, _hex in problems:
            self.problem(index, f"{path}.examples", message)
        if problems:
            return None
        extensions = dict(self.doc.extensions or {})
        if cases:
            extensions[examples.EXAMPLES] = examples.section(cases)
        else:
            extensions.pop(examples.EXAMPLES, None)
        self.doc.extensions = extensions
        return f"keep {len(cases)} LOS example{'s' if len(cases) != 1 else ''}" if cases else "remove the LOS examples"


# name -> (method, required keys, optional keys)
OPERATIONS = {
    "set_terrain": (_Editor.set_terrain, ("hexes", "terrain"), ()),
    "set_level": (_Editor.set_level, ("hexes", "level"), ()),
    "set_storeys": (_Editor.set_storeys, ("hexes", "storeys"), ()),
    "set_label_note": (_Editor.set_label_note, ("hexes", "label_note"), ()),
    "clear_hexes": (_Editor.clear_hexes, ("hexes",), ()),
    "set_art": (_Editor.set_art, ("hex", "art"), ()),
    "clear_art": (_Editor.clear_art, ("hex",), ()),
    "set_hexside": (_Editor.set_hexside, ("hex", "side", "terrain"), ()),
    "clear_hexside": (_Editor.clear_hexside, ("hex", "side"), ()),
    "place_overlay": (_Editor.place_overlay, ("overlay",), ("name", "index")),
    "move_overlay": (_Editor.move_overlay, ("id",), ("anchor", "rotation")),
    "remove_overlay": (_Editor.remove_overlay, ("id",), ()),
    "name_overlay": (_Editor.name_overlay, ("id", "name"), ()),
    "set_background": (_Editor.set_background, ("background",), ()),
    "rename": (_Editor.rename, ("name",), ()),
    "set_los_examples": (_Editor.set_los_examples, ("examples",), ()),
}


def _count(hexes, grid):
    if len(hexes) == 1:
        return grid.label(*hexes[0])
    return f"{len(hexes)} hexes"


def _show(value):
    """A value in a revision's summary: terrain ids as words ("light structure and brush")."""
    if isinstance(value, tuple):
        return " and ".join(_show(v) for v in value)
    return str(value).replace("-", " ") if isinstance(value, str) else str(value)


# A hex operation's summary (the history and the Undo button show it), in the painter's words.
PAINTED = {"set_terrain": "paint {hexes} {value}", "set_level": "level {value} on {hexes}",
           "set_storeys": "{value} storeys on {hexes}", "set_label_note": "label note {value} on {hexes}"}
