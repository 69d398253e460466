"""The Hexside scenario format, version 1 (docs/scenario-format.md): read, check and write. No Django.

A scenario names its maps (by database id, by name, or with the map file embedded), lays out its sides with
their order of battle, setup zones, placements and reinforcements, the markers and objectives on the map, each
side's victory conditions and the special rules. ``parse(data, maps=...)`` gives a :class:`ScenarioDoc` or raises
:class:`ScenarioFormatError` listing every problem with its JSON path, in the map format's shape
(:class:`engine.mapfile.Finding`). ``dumps(doc)`` writes the canonical text: reading an export and writing it
again gives the same bytes.

Parsing checks the shape (keys, types, hexes on the map, references between parts). Whether the scenario is
playable by its game's rules (stacking, zones, terrain, deck size...) is engine.scenarios.checks' business.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path

from engine import mapfile, rulesets
from engine.mapfile import _is_int, _kind
from engine.scenarios import limits, terrain_rules, unittypes
from engine.scenarios.naming import Naming
from engine.scenarios.reading_sides import (  # noqa: F401 (the sides' keys, named here with the others)
    BRIEF_KEYS,
    COLOUR,
    MARKER_KEYS,
    OOB_COMMON,
    PLACEMENT_KEYS,
    REINFORCEMENT_KEYS,
    REINFORCEMENT_UNIT_KEYS,
    SIDE_KEYS,
    SidesReader,
)
from engine.scenarios.reading_values import EDGES, ID, IMPULSE, ValuesReader  # noqa: F401 (named here too)
from engine.scenarios.types import kind_of
from engine.scenarios.writing import content_hash, dumps, to_dict  # noqa: F401 (the format's writer, named here)

FORMAT = "hexside-scenario"
VERSION = 1
RULESETS = rulesets.builtin_ids()  # the games that ship; read() asks the registry, which may hold more

TOP_KEYS = ("format", "version", "title", "ruleset", "subtitle", "date", "place", "introduction", "designer",
            "maps", "play_area", "turns", "sets_up_first", "moves_first", "environment", "rules", "modules",
            "unit_types", "sides", "markers", "objectives", "special_rules", "perimeter", "extensions")
MAP_KEYS = ("key", "id", "name", "document", "placement", "rotation")
TURN_KEYS = ("count", "counts", "first", "end")
ENVIRONMENT_KEYS = ("weather", "night", "visibility")
OBJECTIVE_KEYS = ("id", "hex", "name", "kind", "owner", "vp")
OBJECTIVE_KINDS = ("objective", "control")
TURN_COUNTS = ("up", "down")


@dataclass
class ScenarioDoc:
    """A checked scenario: ``data`` is the canonical document (hexes as labels, defaults filled in); ``maps``
    holds each map's MapDoc by its key, in the document's order (the first is the main map)."""

    data: dict
    maps: dict = field(default_factory=dict)

    @property
    def ruleset(self):
        return self.data["ruleset"]

    @property
    def title(self):
        return self.data["title"]

    @property
    def main_key(self):
        return next(iter(self.maps))

    def resolve(self, ref):
        """(map key, column, row) of a canonical hex reference: "C4" on the main map, "key:C4" on another."""
        key, _, label = ref.rpartition(":")
        key = key or self.main_key
        return (key,) + self.maps[key].grid.parse_label(label)

    def ref(self, key, col, row):
        label = self.maps[key].grid.label(col, row)
        return label if key == self.main_key else f"{key}:{label}"

    def side(self, side_id):
        return next((s for s in self.data["sides"] if s["id"] == side_id), None)

    def units(self, side):
        return {u["id"]: u for u in side["oob"]}


class ScenarioFormatError(mapfile.FormatError):
    what = "the scenario file"


class MapLookupError(LookupError):
    """A map named by id or name that cannot be had; the message says why."""


def no_maps(entry):
    raise MapLookupError("maps can only be named by id or name where there is a map library; embed the map "
                         "file in 'document'")


def parse(data, maps=None, rulesets=None):
    """A ScenarioDoc from JSON text, bytes or the decoded object; ScenarioFormatError listing every problem.

    ``maps(entry)`` gives the MapDoc for a map entry naming a map by ``id`` or ``name`` (or raises
    MapLookupError); embedded map files are read here. ``rulesets`` looks a ruleset up by id.
    """
    return _Reader(mapfile.decode(data, ScenarioFormatError), maps or no_maps, rulesets).read()


class _Reader(Naming, SidesReader, ValuesReader, mapfile.Reader):
    def __init__(self, data, maps, rulesets):
        super().__init__()
        self.data = data
        self.lookup_map = maps
        self.rulesets = rulesets
        self.maps = {}
        self.main = None
        self.ruleset = None
        self.catalogue = None
        self.hexes_listed = 0
        self.unit_types = {}  # type id -> entry: the catalogue's and the scenario's own (engine/scenarios/unittypes.py)
        self.side_name = ""

    # -- the document --------------------------------------------------------------------------------
    def read(self):
        data = self.data
        if not self.keys(data, "$", TOP_KEYS, ("format", "version", "title", "ruleset")):
            raise ScenarioFormatError(self.errors)
        if "format" in data and data["format"] != FORMAT:
            self.error("format", f"expected {FORMAT!r}, got {data['format']!r}", code="bad-format")
        if "version" in data and data["version"] != VERSION:
            self.error("version", f"expected {VERSION}, got {data['version']!r}", code="bad-version")
        out = {"format": FORMAT, "version": VERSION}
        out["title"] = self.text(data, "title", "title", required=True, limit=limits.TITLE)
        ruleset = data.get("ruleset")
        games = rulesets.builtin_ids()
        if ruleset not in games:
            custom = None
            if isinstance(ruleset, str) and self.rulesets is not None:
                try:
                    custom = self.rulesets(ruleset)
                except KeyError:
                    custom = None
            if custom is None:
                self.error("ruleset", f"expected one of {', '.join(games)} (or a custom profile's id), got "
                                      f"{ruleset!r}", code="unknown-ruleset")
                ruleset = None
        self.ruleset = ruleset
        self.catalogue = self.catalogue_of(ruleset)
        out["ruleset"] = ruleset or ""
        for key, limit in (("subtitle", limits.SUBTITLE), ("date", limits.DATE), ("place", limits.PLACE),
                           ("introduction", limits.INTRODUCTION), ("designer", limits.DESIGNER)):
            out[key] = self.text(data, key, key, limit=limit)
        out["maps"] = self.read_maps(data.get("maps"))
        if self.main is None:
            # Without a map no hex can be read; what was found so far is all there is to say.
            raise ScenarioFormatError(self.errors)
        out["play_area"] = self.read_play_area(data.get("play_area"))
        out["turns"] = self.read_turns(data.get("turns", {}))
        out["environment"] = self.read_environment(data.get("environment", {}))
        out["rules"] = self.game_fields(data.get("rules", {}), "rules", "rules")
        modules = self.read_modules(data.get("modules", []))
        if modules:
            out["modules"] = modules
        own_types = unittypes.read(data.get("unit_types", []), self.catalogue, self.error)
        self.unit_types = unittypes.known(self.catalogue, own_types)
        if own_types:
            out["unit_types"] = own_types
        objectives, self.objective_ids = self.read_objectives(data.get("objectives", []))
        sides, side_ids = self.read_sides(data.get("sides", []), objectives)
        self.side_ids = side_ids
        for key in ("sets_up_first", "moves_first"):
            value = data.get(key)
            if value is not None and value not in side_ids:
                self.error(key, f"expected a side's id ({', '.join(side_ids) or 'no sides yet'}) or null, got "
                                f"{value!r}", code="unknown-side")
                value = None
            out[key] = value
        for i, objective in enumerate(objectives):
            if objective["owner"] is not None and objective["owner"] not in side_ids:
                self.error(f"objectives[{i}].owner", f"expected a side's id or null (neutral), got "
                                                     f"{objective['owner']!r}", objective["hex"], code="unknown-side")
        out["sides"] = sides
        out["markers"] = self.read_markers(data.get("markers", []), side_ids)
        out["objectives"] = objectives
        out["special_rules"] = self.read_special_rules(data.get("special_rules", []))
        out["perimeter"] = self.read_perimeter(data.get("perimeter"), side_ids)
        extensions = data.get("extensions", {})
        if not isinstance(extensions, dict):
            self.error("extensions", f"expected an object, got {_kind(extensions)}", code="bad-type")
            extensions = {}
        written = json.dumps(extensions, sort_keys=True)
        if len(written) > limits.EXTENSIONS:
            self.error("extensions", self.too_long("extensions", len(written), limits.EXTENSIONS), code="too-long")
        out["extensions"] = json.loads(written)
        prose = limits.prose_length(out)
        if prose > limits.TEXTS and not any(f.code == "too-long" for f in self.errors):  # (one text says enough)
            self.error("$", f"the scenario's texts come to {prose:,} characters; at most {limits.TEXTS:,} together",
                       code="too-long")
        if self.errors:
            raise ScenarioFormatError(self.errors)
        doc = ScenarioDoc(data={key: out[key] for key in TOP_KEYS if key in out}, maps=self.maps)
        terrain_rules.apply(doc, self.catalogue, out["special_rules"])
        return doc

    def catalogue_of(self, ruleset):
        """The ruleset's catalogue (a Ruleset), whose scenario section says what the game's scenario takes."""
        if not ruleset:
            return None
        try:
            return (self.rulesets or rulesets.get)(ruleset)
        except KeyError:
            return None

    def read_maps(self, items):
        out = []
        if items is None:
            self.error("maps", "is required: name at least one map", code="missing")
            return out
        if isinstance(items, list) and not items:
            self.error("maps", "name at least one map", code="missing")
        keys = set()
        if not self.within(items, "maps", limits.MAPS):
            return out
        for path, entry in self.entries(items, "maps", MAP_KEYS, ("key",)):
            key = self.ident(entry["key"], f"{path}.key", keys, "map")
            given = [k for k in ("id", "name", "document") if k in entry]
            if len(given) != 1:
                self.error(path, "name the map in exactly one way: 'id', 'name' or the map file in 'document'",
                           code="bad-map")
                continue
            clean = {"key": key}
            how = given[0]
            value = entry[how]
            doc = None
            if how == "document":
                try:
                    doc = mapfile.parse(value, self.rulesets)
                except mapfile.MapFormatError as exc:
                    for f in exc.errors:
                        self.error(f"{path}.document" + ("" if f.path == "$" else f".{f.path}"), f.message, f.hex,
                                   code=f.code)
                clean["document"] = mapfile.to_dict(doc) if doc is not None else None
            elif how == "id" and (not _is_int(value) or value < 1):
                self.error(f"{path}.id", f"expected a map id (a whole number from 1), got {value!r}", code="bad-map")
                continue
            elif how == "name" and (not isinstance(value, str) or not value.strip()):
                self.error(f"{path}.name", f"expected a map's name, got {value!r}", code="bad-map")
                continue
            else:
                clean[how] = value
                try:
                    doc = self.lookup_map({"key": key, how: value})
                except MapLookupError as exc:
                    self.error(f"{path}.{how}", str(exc), code="unknown-map")
            placement = entry.get("placement", [0, 0])
            if not (isinstance(placement, list) and len(placement) == 2 and all(_is_int(v) for v in placement)):
                self.error(f"{path}.placement", f"expected [column, row] of its top-left hex in the layout, got "
                                                f"{placement!r}", code="bad-placement")
                placement = [0, 0]
            rotation = entry.get("rotation", 0)
            if rotation not in (0, 60, 120, 180, 240, 300):
                self.error(f"{path}.rotation", f"expected degrees clockwise, a multiple of 60 from 0 to 300, got "
                                               f"{rotation!r}", code="bad-rotation")
                rotation = 0
            clean["placement"] = placement
            clean["rotation"] = rotation
            out.append(clean)
            if doc is not None and key is not None:
                if self.ruleset and doc.ruleset != self.ruleset:
                    self.error(path, f"the map {doc.name!r} is made for ruleset {doc.ruleset!r}, the scenario for "
                                     f"{self.ruleset!r}", code="ruleset-mismatch")
                self.maps[key] = doc
                if self.main is None:
                    self.main = key
        return out

    def read_play_area(self, value):
        if value is None:
            return None
        if not self.keys(value, "play_area", ("corners",), ("corners",)) or "corners" not in value:
            return None
        corners = value["corners"]
        if not isinstance(corners, list) or len(corners) != 2:
            self.error("play_area.corners", "expected two opposite corner hexes, e.g. [\"B2\", \"S11\"]",
                       code="bad-play-area")
            return None
        refs = [self.hex(c, f"play_area.corners[{i}]") for i, c in enumerate(corners)]
        if None in refs:
            return None
        if refs[0].rpartition(":")[0] != refs[1].rpartition(":")[0]:
            self.error("play_area.corners", "both corners must be on the same map", code="bad-play-area")
            return None
        return {"corners": refs}

    def read_turns(self, value):
        """The turn record track. ``count`` null: the game has no fixed number of turns, and ``end`` says when
        it ends ("the game ends when ..."); such a track counts up, as a count-down track starts at its count."""
        out = {"count": 1, "counts": "up", "first": 1}
        if not self.keys(value, "turns", TURN_KEYS, ()):
            return out
        if value.get("count", 1) is None:
            out["count"] = None
        elif "count" in value:
            if not _is_int(value["count"]) or not 1 <= value["count"] <= 1000:
                self.error("turns.count", f"expected a whole number of turns from 1 to 1000, or null where the game "
                                          f"has no fixed number of turns (say when it ends in turns.end), got "
                                          f"{value['count']!r}", code="bad-number")
            else:
                out["count"] = value["count"]
        default_counts = self.catalogue.turn_track if self.catalogue is not None else "up"
        if out["count"] is None:
            default_counts = "up"
        counts = value.get("counts", default_counts)
        if counts not in TURN_COUNTS:
            self.error("turns.counts", f"expected 'up' or 'down', got {counts!r}", code="bad-turns")
            counts = default_counts
        elif counts == "down" and out["count"] is None:
            self.error("turns.counts", "a track that counts down starts at the turn count; with no fixed number of "
                                       "turns it counts up", code="bad-turns")
            counts = "up"
        out["counts"] = counts
        if "first" in value:
            out["first"] = self.integer(value["first"], "turns.first", 0, 1000) or 1
        end = self.text(value, "end", "turns.end", limit=limits.TURNS_END)
        if end.strip():
            out["end"] = end.strip()
        return out

    def read_modules(self, items):
        """The rule modules in play: ids of the game's catalogue (scenario.modules), each once."""
        known = self.catalogue.modules if self.catalogue is not None else {}
        if not isinstance(items, list):
            self.error("modules", f"expected a list of rule module ids, got {kind_of(items)}", code="bad-type")
            return []
        if not self.within(items, "modules", limits.MODULES):
            return []
        out = []
        for i, item in enumerate(items):
            if item in out:
                self.error(f"modules[{i}]", f"{item!r} is named twice", code="duplicate-id")
            elif not isinstance(item, str) or item not in known:
                game = self.catalogue.name if self.catalogue is not None else "this ruleset"
                self.error(f"modules[{i}]", f"expected one of {game}'s rule modules ("
                                            f"{', '.join(known) or 'it has none'}), got {item!r}",
                           code="unknown-module")
            else:
                out.append(item)
        return out

    def read_environment(self, value):
        out = {"weather": "", "night": False, "visibility": None}
        if not self.keys(value, "environment", ENVIRONMENT_KEYS):
            return out
        out["weather"] = self.text(value, "weather", "environment.weather", limit=limits.WEATHER)
        if "night" in value:
            out["night"] = self.flag(value["night"], "environment.night")
        if value.get("visibility") is not None:
            out["visibility"] = self.integer(value["visibility"], "environment.visibility", 1, 1000)
        return out

    def read_objectives(self, items):
        out, seen = [], set()
        if not self.within(items, "objectives", limits.OBJECTIVES):
            return out, seen
        for path, entry in self.entries(items, "objectives", OBJECTIVE_KEYS, ("id", "hex")):
            oid = self.ident(entry["id"], f"{path}.id", seen, "objective")
            ref = self.hex(entry["hex"], f"{path}.hex")
            kind = entry.get("kind", "objective")
            if kind not in OBJECTIVE_KINDS:
                self.error(f"{path}.kind", f"expected 'objective' or 'control', got {kind!r}", ref, code="bad-kind")
            vp = entry.get("vp")
            if vp is not None:
                vp = self.integer(vp, f"{path}.vp", 0, 1000, ref)
            if oid is None or ref is None:
                continue
            out.append({"id": oid, "hex": ref, "name": self.text(entry, "name", f"{path}.name",
                                                                 limit=limits.OBJECTIVE_NAME),
                        "kind": kind, "owner": entry.get("owner"), "vp": vp})
        return out, seen

    def read_special_rules(self, items):
        out = []
        if not isinstance(items, list):
            self.error("special_rules", f"expected a list of rules (text), got {_kind(items)}", code="bad-type")
            return out
        if not self.within(items, "special_rules", limits.SPECIAL_RULES):
            return out
        changes = 0
        for i, rule in enumerate(items):
            path = f"special_rules[{i}]"
            if isinstance(rule, dict):  # {text, terrain}: a rule that changes the terrain (terrain_rules.py)
                if not self.keys(rule, path, terrain_rules.RULE_KEYS, ("text",)):
                    continue
                text = rule.get("text")
                found = terrain_rules.read_changes(self, rule.get("terrain", []), f"{path}.terrain")
                changes += len(found)
            else:
                text, found = rule, []
            if not isinstance(text, str) or not text.strip():
                self.error(path + (".text" if isinstance(rule, dict) else ""), "expected the rule's text",
                           code="bad-type")
                continue
            if len(text) > limits.SPECIAL_RULE:
                self.error(path, self.too_long(path, len(text), limits.SPECIAL_RULE), code="too-long")
            out.append({"text": text, "terrain": found} if found else text)
        if changes > terrain_rules.MAX_CHANGES_ALL:
            self.error("special_rules", f"the special rules make {changes} terrain changes; at most "
                                        f"{terrain_rules.MAX_CHANGES_ALL} together", code="too-many")
        return out


# -- writing: engine/scenarios/writing.py ---------------------------------------------------------------

def inches_per_hex(doc):
    """Inches of table per hex, for a game measured in inches (else None): the scenario's rules, else the main
    map's rules option, else the main map's hex at the catalogue's table scale (Ruleset.inches_per_hex)."""
    try:
        catalogue = rulesets.get(doc.ruleset)
    except KeyError:
        return None
    main = doc.maps[doc.main_key]
    given = doc.data["rules"].get("inches_per_hex")
    if given is None:
        given = ((main.extensions or {}).get("rules") or {}).get("inches_per_hex")
    found = catalogue.inches_per_hex(main.grid.hex_metres, given)
    return found[0] if found else None


def folder_maps(folder, rulesets=None):
    """A map lookup for parse(): the map files in a folder, found by their name (or by file name without .json).

    This is how a scenario file names a sample map without a database (validate_scenario, the samples)."""
    cache = {}

    def lookup(entry):
        if "name" not in entry:
            raise MapLookupError(f"map id {entry.get('id')} cannot be looked up here (no map library); name the "
                                 "map or embed it")
        if not cache:
            for path in sorted(Path(folder).glob("*.json")):
                try:
                    doc = mapfile.parse(path.read_bytes(), rulesets)
                except (mapfile.MapFormatError, OSError):
                    continue
                cache.setdefault(doc.name, doc)
                cache.setdefault(path.stem, doc)
        try:
            return cache[entry["name"]]
        except KeyError:
            raise MapLookupError(f"no map named {entry['name']!r}") from None

    return lookup
