"""How the scenario format says where a problem is, in a designer's words (docs/scenario-format.md, "Errors").

A finding keeps its JSON path for tools ("sides[1].oob[2].count"); its message names the part as a designer
does: sides by their names, OOB lines by their unit and line ("Rifle Squad (German OOB line 3)"), placements
by their side and unit, markers and objectives by what and where they are. ``describe(path, data)`` gives the
words; ``Naming`` is the reader's part that puts them before a message that does not name its part already.
"""

import re

from engine.mapfile import Finding

# A name longer than the format allows (limits.SIDE_NAME, limits.UNIT: 100; limits.OBJECTIVE_NAME: 200) is refused,
# and not used to name its part: the part is named by its number instead. (limits.py imports this module.)
NAME = 100
OBJECTIVE_NAME = 200

# What a list's entries are called, for "German has 600 OOB lines".
ENTRY_NOUNS = {"maps": ("map", "maps"), "sides": ("side", "sides"), "oob": ("OOB line", "OOB lines"),
               "placements": ("placement", "placements"), "reinforcements": ("reinforcement", "reinforcements"),
               "units": ("unit", "units"), "markers": ("marker", "markers"),
               "objectives": ("objective", "objectives"), "special_rules": ("special rule", "special rules"),
               "weapons": ("weapon", "weapons"), "conditions": ("condition", "conditions"),
               "overlays": ("overlay", "overlays"), "status": ("status", "statuses"),
               "modules": ("module", "modules"), "corners": ("corner", "corners"),
               "unit_types": ("unit type", "unit types"), "terrain": ("terrain change", "terrain changes")}
ITEM_NOUNS = {"setup_zone": "hex", "hexes": "hex"}
FIELD_NAMES = {"title": "the title", "subtitle": "the subtitle", "date": "the date", "place": "the place",
               "introduction": "the introduction", "designer": "the designer's name", "weather": "the weather",
               "name": "the name", "nationality": "the nationality", "mission": "the mission",
               "intelligence": "the intelligence", "unit": "the unit type", "notes": "the notes",
               "note": "the note", "formation": "the formation", "text": "the text",
               "victory": "the victory condition", "sets_up_first": "who sets up first",
               "moves_first": "who moves first", "dummy": "the dummy flag", "leader": "the leader flag",
               "hidden": "the hidden flag", "publish_maps": "publishing its maps too",
               "setup_zone": "the setup zone", "hexes": "the hex list", "extensions": "the extensions",
               "perimeter": "the perimeter", "rules": "the rules", "fields": "the side values",
               "count": "the count", "strength": "the strength",
               "steps_lost": "the steps lost", "status": "the status", "off_map": "the off-map flag",
               "details": "the details", "modules": "the modules", "hex": "the hex", "facing": "the facing",
               "turns": "the turns", "oob": "the OOB", "placements": "the placements", "turn": "the turn",
               "reinforcements": "the reinforcements", "markers": "the markers", "objectives": "the objectives",
               "special_rules": "the special rules", "kind": "the kind", "colour": "the colour", "id": "the id",
               "edge": "the edge", "vp": "the VP", "owner": "the owner", "class": "the class",
               "quality": "the quality", "type": "the type", "play_area": "the play area", "maps": "the maps",
               "replace": "the replacement", "remove": "the terrain removed", "add": "the terrain added",
               "level": "the level", "levels": "the levels", "having": "the terrain it looks for",
               "los": "the LOS class", "region": "the region", "map": "the map"}
PATH_NAMES = {"turns.count": "the turn count", "turns.end": "when the game ends",
              "turns.counts": "which way the turn track counts", "turns.first": "the first turn's number"}
SKIPPED = {"brief", "environment"}
_STEP = re.compile(r"([A-Za-z0-9_-]+)(?:\[(\d+)\])?")


def _text(value, limit):
    return value.strip() if isinstance(value, str) and value.strip() and len(value) <= limit else None


def possessive(name):
    """ "German's", "Allies'": the English possessive of a side's name."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _phrase(owner, named_side, fields):
    """ "German's setup zone", "the notes of Rifle Squad (German OOB line 4)", "the title"."""
    words = [FIELD_NAMES.get(k) or f"the {k.replace('_', ' ')}" for k in reversed(fields)]
    if owner is None:
        return " of ".join(words)
    if not words:
        return owner
    if named_side:  # a side said by its name: "German's setup zone", "the kind of German's victory"
        first = words.pop().removeprefix("the ")
        return " of ".join(words + [f"{possessive(owner)} {first}"])
    return " of ".join(words + [owner])


def _entry(key, n, entry, owner, side, base):
    """How a designer names the n-th entry of a list (``entry`` as given, else None): "German", "Rifle Squad
    (German OOB line 3)", "German's placement 4 (Rifle Squad)", "objective 2 (Grave bridge)", "condition 2 of
    German's victory"."""
    entry = entry if isinstance(entry, dict) else {}
    named = side is not None and owner is not None and not owner.startswith("side ")
    whose = (f"{possessive(owner)} " if named else f"{owner} ") if side is not None and owner else ""
    if key == "sides":
        return _text(entry.get("name"), NAME) or f"side {n}"
    if key == "oob" and side is not None:
        unit = _text(entry.get("unit"), NAME)
        if unit:
            return f"{unit} ({owner} OOB line {n})" if named else f"{unit} (OOB line {n} of {owner})"
        return f"{possessive(owner)} OOB line {n}" if named else f"OOB line {n} of {owner}"
    if key == "placements" and side is not None:
        oob = side.get("oob") if isinstance(side.get("oob"), list) else []
        unit = next((u.get("unit") for u in oob if isinstance(u, dict) and u.get("id") == entry.get("unit")), None)
        unit = _text(unit, NAME)
        return f"{whose}placement {n}" + (f" ({unit})" if unit else "")
    if key == "reinforcements" and side is not None:
        turn = entry.get("turn")
        return f"{whose}reinforcement {n}" + (f" (turn {turn})" if type(turn) is int else "")
    if key == "markers" and owner is None:
        kind, hex = _text(entry.get("kind"), 64), _text(entry.get("hex"), 64)
        return f"marker {n}" + (f" ({kind}{' in ' + hex if hex else ''})" if kind else "")
    if key == "objectives" and owner is None:
        name = _text(entry.get("name"), OBJECTIVE_NAME) or _text(entry.get("id"), 64)
        return f"objective {n}" + (f" ({name})" if name else "")
    noun = ITEM_NOUNS.get(key) or ENTRY_NOUNS.get(key, (key,))[0]
    return f"{noun} {n}" + (f" of {base}" if base else "")


def describe(path, data=None):
    """A JSON path in a designer's words, naming sides by their names and OOB lines by their unit and line
    where ``data`` (the document as given) holds them: "sides[0].oob[3].notes" -> "the notes of Rifle Squad
    (German OOB line 4)", "sides[1].setup_zone" -> "German's setup zone"; else by number ("side 1")."""
    if path in ("", "$"):
        return "the scenario"
    if path in PATH_NAMES:
        return PATH_NAMES[path]
    owner, side, fields, node = None, None, [], data
    for key, index in _STEP.findall(path):
        node = node.get(key) if isinstance(node, dict) else None
        if not index:
            if key not in SKIPPED:
                fields.append(key)
            continue
        n = int(index)
        node = node[n] if isinstance(node, list) and n < len(node) else None
        if key in ITEM_NOUNS:  # "hex 4 of German's setup zone": the list's name says what it is
            fields.append(key)
        named = side is not None and owner is not None and not owner.startswith("side ")
        base = _phrase(owner, named, fields) if fields or owner else ""
        owner = _entry(key, n + 1, node, owner if not fields else base, side if not fields else None, base)
        side = (node if isinstance(node, dict) else {}) if key == "sides" else None
        fields = []
    named = side is not None and not owner.startswith("side ") if owner else False
    return _phrase(owner, named, fields) or "the scenario"




def too_long(path, length, limit, data=None):
    """The message of a text past its limit (engine/scenarios/limits.py)."""
    return f"{describe(path, data)} is {length:,} characters; at most {limit:,}"


def too_many(path, count, limit, noun=None, data=None):
    """The message of a list past its limit: "German has 600 OOB lines; at most 500", "German's setup zone has
    6,000 hexes; at most 5,000" (side 1 where the side has no name)."""
    head, _, key = path.rpartition(".")
    if key in ENTRY_NOUNS:
        return f"{describe(head, data)} has {count:,} {ENTRY_NOUNS[key][1]}; at most {limit:,}"
    return f"{describe(path, data)} has {count:,} {noun or 'entries'}; at most {limit:,}"


class Naming:
    """The scenario reader's errors, each message led by the part it is about in a designer's words (unless it
    names it already): "the count of Rifle Squad (German OOB line 3): expected a whole number from 1 to 500,
    got 0". An embedded map file's problems keep the map format's own words. Needs ``self.data``."""

    def error(self, path, message, hex=None, code="invalid", named=False):
        """``named``: the message names its part itself ("Rifle Squad (German OOB line 3) is placed ...")."""
        super().error(path, message if named else self.named(path, message), hex, code)

    def named(self, path, message):
        if ".document" in path or path == "$":
            return message
        said = [describe(path, self.data)]
        head = path
        while head:  # a message may start with the name of a part that holds this one ("German has ...")
            head = head.rpartition(".")[0] if "." in head else ""
            said.append(describe(head, self.data) if head else "the scenario")
        if any(message.startswith(s) for s in said):
            return message
        return f"{said[0]}: {message}"

    def named_findings(self, findings):
        """Findings made elsewhere (victory.check, limits) with their messages named as the reader's are."""
        return [Finding(f.path, self.named(f.path, f.message), f.hex, f.code, f.severity) for f in findings]

    def too_long(self, path, length, limit):
        return too_long(path, length, limit, self.data)

    def too_many(self, path, count, limit, noun=None):
        return too_many(path, count, limit, noun, self.data)
