"""Terrain mappings: which ruleset terrain each source terrain code becomes (docs/importing.md).

A default mapping per source format and game ships as data in the game's folder
(``engine/games/<id>/mappings/<format>-<id>.json``); a designer's mapping (``--mapping FILE``) is laid over it,
its entries winning. A mapping file::

    {"source": "megamek", "ruleset": "ost",
     "levels": {"scale": 1, "offset": 0}, "storeys": {"most": 4},
     "terrain": {"woods:2": "woods", "building:*": {"terrain": "heavy-structure"}, "fluff:*": []}}

Keys are the source's codes; ``*`` and ``?`` match any text (``Gs*``). An exact key wins over a pattern, and
among patterns the first listed wins (a designer's before the defaults). A value is a terrain id, a list of
them, or ``{"terrain": .., "level": N, "storeys": N}``; an empty list means "nothing, deliberately", and with
``"flag": true`` "nothing fits: leave it open and say so" (a warning naming its hexes). A proposed mapping
(engine/importers/suggest.py) adds what it saw and how sure it is (``confidence``, ``count``, ``hexes``,
``reason``), which a mapping may keep and the reader passes over. A code no entry matches that is itself a hex
terrain id of the target ruleset is that terrain. ``storeys.most`` (optional) lowers every taller building to that
many storeys (a warning names the hexes): the source's storeys are kept otherwise.
"""

import json
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from engine import mapfile, rulesets
from engine.importers.errors import Refused, finding

FOLDER = Path(__file__).resolve().parent / "mappings"  # what is not a game's: the word table of suggest.py
DEFAULT_RULESET = "ost"
KEYS = ("source", "ruleset", "note", "levels", "storeys", "terrain")
# read by people (and the mapping step), not by the mapping
INFORMATION = ("confidence", "count", "hexes", "reason", "source_range", "note", "picture", "tallest")


@dataclass(frozen=True)
class Entry:
    terrain: tuple
    level: int | None = None
    storeys: int | None = None
    flag: bool = False  # nothing fits: the hexes keep the default terrain, with a warning


class Mapping:
    def __init__(self, catalogue, source):
        self.catalogue = catalogue
        self.source = source
        self.exact = {}
        self.patterns = []
        self.level_scale = 1
        self.level_offset = 0
        self.storeys_most = None  # the tallest building kept (a designer's mapping), None: as the source says
        self.parts = []
        self.looked_up = {}  # code -> entry or None: a map repeats its few codes over many hexes

    def lookup(self, code):
        if code in self.exact:
            return self.exact[code]
        if code in self.looked_up:
            return self.looked_up[code]
        found = next((entry for pattern, entry in self.patterns if fnmatchcase(code, pattern)), None)
        if found is None and code in self.catalogue.terrain_ids("hex"):
            found = Entry((code,))  # the ruleset's own id is that terrain (a map Hexside exported)
        if len(self.looked_up) < 100_000:
            self.looked_up[code] = found
        return found

    def describe(self):
        return " + ".join(self.parts) or "none"

    def read_storeys(self, storeys, where, findings):
        """``{"most": N}``: the tallest building the map keeps (null or left out: as the source says)."""
        most = storeys.get("most") if isinstance(storeys, dict) else "?"
        if most is None:
            return
        if (isinstance(most, bool) or not isinstance(most, int) or not 1 <= most <= mapfile.MAX_STOREYS
                or set(storeys) - {"most", *INFORMATION}):
            findings.append(finding(f"{where}.storeys", f"expected {{\"most\": a whole number from 1 to "
                                                        f"{mapfile.MAX_STOREYS}}}", code="bad-mapping"))
            return
        self.storeys_most = most

    def add(self, data, where, findings, first):
        """Lay one mapping file's entries in; ``first`` puts them ahead of what is there (a designer's)."""
        self.looked_up = {}
        levels = data.get("levels", {})
        scale = {k: v for k, v in levels.items() if k not in INFORMATION} if isinstance(levels, dict) else None
        if scale is None or set(scale) - {"scale", "offset"} or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in scale.values()):
            findings.append(finding(f"{where}.levels", "expected {\"scale\": number, \"offset\": number}",
                                    code="bad-mapping"))
        else:
            self.level_scale = levels.get("scale", self.level_scale)
            self.level_offset = levels.get("offset", self.level_offset)
        self.read_storeys(data.get("storeys", {}), where, findings)
        terrain = data.get("terrain", {})
        if not isinstance(terrain, dict):
            findings.append(finding(f"{where}.terrain", "expected an object of source code -> terrain",
                                    code="bad-mapping"))
            return
        exact, patterns = {}, []
        for key, value in terrain.items():
            entry = self.entry(value, f"{where}.terrain.{key}", findings)
            if entry is None:
                continue
            if any(ch in key for ch in "*?["):
                patterns.append((key, entry))
            else:
                exact[key] = entry
        if first:
            self.exact = {**self.exact, **exact}
            self.patterns = patterns + [p for p in self.patterns if p[0] not in dict(patterns)]
        else:
            self.exact = {**exact, **self.exact}
            self.patterns = self.patterns + [p for p in patterns if p[0] not in dict(self.patterns)]

    def entry(self, value, where, findings):
        level = storeys = None
        flag = False
        if isinstance(value, dict):
            unknown = set(value) - {"terrain", "level", "storeys", "flag", *INFORMATION}
            if unknown:
                findings.append(finding(where, f"unknown key(s) {', '.join(sorted(unknown))}; expected terrain, "
                                               "level, storeys, flag", code="bad-mapping"))
                return None
            level, storeys, flag = value.get("level"), value.get("storeys"), value.get("flag", False)
            if not isinstance(flag, bool):
                findings.append(finding(f"{where}.flag", f"expected true or false, got {flag!r}", code="bad-mapping"))
                return None
            for name, v in (("level", level), ("storeys", storeys)):
                if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                    findings.append(finding(f"{where}.{name}", f"expected a whole number, got {v!r}",
                                            code="bad-mapping"))
                    return None
            value = value.get("terrain", [])
        ids = [value] if isinstance(value, str) else value
        if not isinstance(ids, list) or not all(isinstance(t, str) for t in ids):
            findings.append(finding(where, f"expected a terrain id or a list of them, got {value!r}",
                                    code="bad-mapping"))
            return None
        known = self.catalogue.terrain_ids("hex")
        bad = [t for t in ids if t not in known]
        if bad:
            findings.append(finding(where, f"{', '.join(map(repr, bad))} is not a hex terrain of "
                                           f"{self.catalogue.id!r}; expected one of: {', '.join(sorted(known))}",
                                    code="bad-mapping"))
            return None
        return Entry(tuple(dict.fromkeys(ids)), level, storeys, flag)


def default_path(source, ruleset_id):
    """The game's default mapping from a source format (a path that may not exist)."""
    return rulesets.games.get(ruleset_id).mapping_path(source)


def shipped():
    """(source, ruleset) pairs that have a default mapping."""
    return sorted((source, game.id) for game in rulesets.games.all_games() for source in game.mappings())


def resolve(context):
    """The mapping for one conversion: the default for its format and ruleset with the designer's laid over."""
    designer = context.mapping
    findings = context.findings
    if designer is not None:
        if not isinstance(designer, dict):
            context.refuse("mapping", "a mapping should be a JSON object (docs/importing.md)", code="bad-mapping")
        unknown = set(designer) - set(KEYS)
        if unknown:
            findings.append(finding("mapping", f"unknown key(s) {', '.join(sorted(unknown))}; expected one of: "
                                               f"{', '.join(KEYS)}", code="bad-mapping"))
        if designer.get("source") not in (None, context.source):
            context.refuse("mapping.source", f"the mapping is for {designer['source']!r} files, not "
                                             f"{context.source!r}", code="bad-mapping")
    wanted = designer.get("ruleset") if designer else None
    if context.ruleset and wanted and wanted != context.ruleset:
        context.refuse("mapping.ruleset", f"the mapping is for ruleset {wanted!r}, but {context.ruleset!r} was "
                                          "asked for", code="bad-mapping")
    ruleset_id = context.ruleset or wanted or DEFAULT_RULESET
    try:
        catalogue = rulesets.get(ruleset_id)
    except KeyError as exc:
        context.refuse("ruleset", exc.args[0] if exc.args else f"unknown ruleset {ruleset_id!r}",
                       code="unknown-ruleset")
    mapping = Mapping(catalogue, context.source)
    path = default_path(context.source, catalogue.id) if rulesets.games.is_game(catalogue.id) else None
    if path is not None and path.is_file():
        mapping.add(json.loads(path.read_text(encoding="utf-8")), f"mappings/{path.name}", findings, first=False)
        mapping.parts.append(f"mappings/{path.name}")
    if designer is not None:
        mapping.add(designer, "mapping", findings, first=True)
        mapping.parts.append("designer's mapping")
    if any(f.code == "bad-mapping" and f.severity == "error" for f in findings):
        raise Refused("bad mapping")
    return mapping
