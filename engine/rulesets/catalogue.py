"""The terrain catalogues: each built-in game's as JSON data (engine/games/<id>/catalogue.json), plus custom
profiles.

A custom profile is a JSON file of the same shape that names a built-in ``base`` whose LOS rules it reuses.
This module holds the format's vocabulary and :class:`Ruleset`, a checked catalogue. Every file is checked
before use, every problem reported at once with its JSON path (reading.py, docs/rulesets/catalogues.md). No
Django here: the web side tells ``registry.set_loader`` where its profiles come from (the database and
HEXSIDE_RULESETS_DIR), and ``registry.get`` asks it whenever a custom id is looked up, so every entry point (API,
pages, workers, commands) resolves custom rulesets the same way. ``registry.register`` adds a profile by hand.
"""

import copy
import math
import re
from collections.abc import Collection, Iterable
from typing import TypeGuard

from engine.rulesets import games

BUILTIN_IDS = games.SHIPPED  # the games that ship; games.ids() adds any registered since
LAYERS = ("hex", "hexside", "marker")
LOS_CLASSES = ("clear", "hindering", "blocking", "special")
OBSTACLES = ("none", "low", "storeys", "all")
TERM_KEYS = ("clear", "hindered", "blocked")
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

# Top-level keys, in the order as_dict() writes them. A custom profile needs only the first four; the
# others fall back to its base. A built-in file carries all of them and a scenario section; notes, blind_hex_table
# and table_scale only where its game has them.
TOP_REQUIRED = ("id", "name", "base", "terrain")
TOP_INHERITED = ("source", "level_units", "level_min", "level_max", "level_step", "hex_metres", "terms",
                 "unit_classes")
# Optional sections a profile inherits from its base when it leaves them out (docs/rulesets/catalogues.md).
TOP_OPTIONAL_INHERITED = ("open_terrain", "blind_hex_table", "table_scale", "scenario", "unit_types")
TOP_ORDER = ("id", "name", "base") + TOP_INHERITED + ("notes",) + TOP_OPTIONAL_INHERITED + ("terrain",)
TOP_KEYS = set(TOP_ORDER) | {"extends_base", "styles"}

ENTRY_REQUIRED = ("id", "name", "layer", "los", "height", "movement", "cover", "rule")
# What an entry means for a scenario's set-up, read by its game's scenario checks (docs/rulesets/catalogues.md,
# "Set-up data"): the column shifts an LOS into it gets (hidden set-up), the unit kinds that may not hide in it
# even so, whether units in it may hide in any terrain, a hard stacking limit, the rule by which the location it
# is in may never be overstacked. Where a marker may be placed is its ``placing`` (below).
SETUP_KEYS = ("column_shift", "hidden_barred", "hidden_anywhere", "stacking_limit", "never_overstacked")
STACKING_LIMIT_KEYS = ("points", "or_one", "rule")
# movement_rule: the rule a refusal by the movement table cites, where it is not the entry's own rule.
ENTRY_OPTIONAL = ("linear", "kinds", "los_term", "los_rule", "movement_rule", "obstacle", "notes", "decided",
                  "style", "placing") + SETUP_KEYS
ENTRY_KEYS = ENTRY_REQUIRED + ENTRY_OPTIONAL
# Where a marker may be placed in a scenario (docs/rulesets/catalogues.md, "Placing a marker"): the terrain ids it
# may not be placed in, whether it faces a hexside or a vertex, and the rule that says so.
# barred_off_road: terrain a marker may be placed in only where a road runs too (ATS 9.8.2: a roadblock in a
# building hex only on a building + road); by_ssr: the rule that says the marker is in use only by special rule
# (ATS 9.3.1: blockhouses); facing_rule: the rule for its facing, where the placement rule is another.
PLACING_KEYS = ("barred", "barred_off_road", "facing", "facing_rule", "by_ssr", "rule")
PLACING_FACINGS = ("hexside", "vertex")

# How the painter, the map image and printed cards draw a terrain (docs/rulesets/catalogues.md). A resolved
# entry always carries all six keys, null where unused; stroke_width is a fraction of the hex's flat-to-flat width.
STYLE_KEYS = ("fill", "pattern", "pattern_colour", "stroke", "stroke_width", "marker")
PATTERNS = ("dots", "hatch", "crosshatch", "trees", "bricks", "waves", "marsh", "rubble", "grass")
MARKERS = ("circle", "square", "triangle", "cross", "star")
STYLE_REQUIRED = {"hex": ("fill",), "hexside": ("stroke", "stroke_width"), "marker": ("marker",)}
# Movement that depends on how a unit enters: a cost may be a list of cases, the first whose condition holds
# giving the cost, a last case without "when" giving it otherwise (docs/rulesets/catalogues.md, "Conditions").
CONDITIONS = {
    "along-road": "the unit moves along a road that runs into the hex (or across the hexside)",
    "along-railroad": "the unit moves along a railroad that runs into the hex (or across the hexside)",
    "across-front-face": "the unit crosses the hexside the fortification's front face lies on, either way",
    "upper-location": "the unit enters a location above the hex's ground level (a storey, a steeple)",
}
CASE_KEYS = ("when", "cost")
# What runs through a hex (or along a hexside) for movement: the entry's "linear". Where it is a road, the
# "along-road" cases hold for a unit set up or moving there; a railroad, the "along-railroad" ones.
LINEAR = {"road": "along-road", "railroad": "along-railroad"}

# The table scale of a game measured in inches (the miniatures QRS): a hex's metres over metres_per_inch,
# floored to a multiple of inch_step and at least one step (docs/rulesets/catalogues.md, "Table scale").
TABLE_SCALE_KEYS = ("metres_per_inch", "inch_step", "rule")

# What a game's scenario adds to the scenario format (docs/scenario-format.md): its OOB keys, side fields and
# scenario rules, each a field spec, plus its unit qualities, which way its turn track counts, what its rules say
# of who sets up and who moves first when a scenario names no side (play_order: a sentence per key), and what of a
# scenario is one side's own, kept from the other (hidden: engine/scenarios/visibility.py, docs/scenarios.md);
# and what the scenario editor offers (capabilities.py): whether counters face a hexside or a vertex, whether the
# sides hold a perimeter, whether each side has a secret brief.
SCENARIO_KEYS = ("turn_track", "qualities", "oob", "side", "rules", "play_order", "hidden", "statuses", "modules",
                 "markers", "facing", "perimeter", "side_briefs", "dice")
# The game's dice (a VASSAL module's dice buttons): each a die roll by its rulebook's name, how many dice of how
# many sides, and the rule that uses it.
DIE_KEYS = ("name", "count", "sides", "rule")
SCENARIO_FLAGS = ("perimeter", "side_briefs")
# A unit status a placement may start in (Assault's action markers, TOCS's degraded states) and a rule module a
# scenario may name as in play (Assault's infantry, vehicle and optional rules): an id with its name and rule.
NAMED_KEYS = ("name", "rule", "notes")
# A status that takes a unit out of some of its hex's terrain where a road runs through it: OST's On Road unit is on
# the street, not in the structure (16.6.1-16.6.2); terrain ids.
STATUS_TERRAIN = "not_in_with_road"
# What a scenario's marker of a kind holds besides its hex (scenario.markers: kind -> {name, rule, details}):
# ``details`` are field specs, as an OOB line's are; a kind that is not a terrain marker (TOCS's Extended
# Deployment, a unit's marker) is declared here with its name.
# on: the unit kinds of its side a marker is placed on, {"kinds", "rule"} (TOCS 10.15: Extended Deployment on a
# Company).
MARKER_SPEC_KEYS = ("name", "rule", "details", "on")
PLAY_ORDER_KEYS = ("sets_up_first", "moves_first")
HIDDEN_KEYS = ("double_blind", "victory", "markers", "oob", "forces_public", "rule")
SCENARIO_PARTS = ("oob", "side", "rules")
TURN_TRACKS = ("up", "down")
FIELD_TYPES = {
    "integer": "a whole number, from min to max where they are given",
    "number": "a positive number",
    "boolean": "true or false",
    "text": "a string",
    "choice": "one of the strings in values",
    "edge": "a map edge: N, E, S or W",
    "dice": "a dice formula such as 2D6+3 (written upper-case)",
    "counts": "an object of whole numbers from min to max, by the names in keys (any names without keys)",
    "overlays": "a list of overlays placed on the map: {id, x: hex, y: hex}",
    "side-ids": "a list of side ids",
    "hex": "a hex of the scenario's maps (written as its label)",
    "unit": "the OOB id of another unit of the same side",
}
FIELD_KEYS = ("type", "min", "max", "values", "keys", "default", "means", "rule", "code")
FIELD_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
# What a custom entry with a new id and no style of its own is drawn with, by layer and LOS class.
DEFAULT_FILL = {"clear": "#e9e4c9", "hindering": "#bcd98c", "blocking": "#8a8a8a", "special": "#d8c8a8"}

# The unit types (docs/rulesets/catalogues.md, "Unit types"): the game's own words for what a unit is (kinds),
# its HQ echelons lowest first, and the types an OOB line names with its ``type``. The scenario checks read these,
# never a unit's name. A scenario may declare types of its own with the same entry keys.
UNIT_TYPES_KEYS = ("kinds", "echelons", "types")
UNIT_TYPE_KEYS = ("id", "name", "kind", "class", "stacking", "steps", "hidden", "echelon", "barred", "carries",
                  "barred_entering", "attaches_to", "crewed_by", "faces", "casualty_points", "setup", "symbol",
                  "rule", "notes")
# A weapon that sets up with the crew that mans it: {"kinds": [unit kinds], "rule"} (ATS 3.6.4: M and H weapons on
# top of their crew). What a counter's facing points to where its rules say: {"to": "hexside" or "vertex", "rule"}
# (OST 9.0.5: a vehicle faces a hexside, not a vertex).
RELATION_KEYS = ("kinds", "rule")
FACES_KEYS = ("to", "rule")
UNIT_TYPE_REQUIRED = ("id", "name", "kind")

CELL_KEYS = ("diff", "range_min", "range_max", "blind_hexes", "proven")
BAND_WIDTH = 6  # ranges 1-6, 7-12, 13-18 ... (ATS 6.2.63; only the 13-18 label is printed in the rulebook)


class RulesetError(ValueError):
    """A ruleset file that cannot be used; ``errors`` lists every problem, each starting with where it is."""

    def __init__(self, errors):
        self.errors = list(errors)
        super().__init__("\n".join(self.errors))


class UnknownRuleset(KeyError):
    def __str__(self):
        return self.args[0]


class UnknownTerrain(KeyError):
    def __str__(self):
        return self.args[0]


class Ruleset:
    """One checked catalogue. Build it with :func:`from_dict` or :func:`load_file`, never by hand.

    Rulesets are shared and cached: treat ``terrain`` and the entries ``get()`` returns as read-only, and take
    ``as_dict()`` for a copy to change.
    """

    def __init__(self, data: dict) -> None:
        self._data = data
        self.id = data["id"]
        self.name = data["name"]
        self.base = data["base"]
        self.builtin = games.is_game(self.id)
        self.source = data["source"]
        self.level_units = data["level_units"]
        self.level_min = data["level_min"]
        self.level_max = data["level_max"]
        self.level_step = data["level_step"]
        self.hex_metres = data["hex_metres"]
        self.terms = dict(data["terms"])
        self.unit_classes = tuple(data["unit_classes"])
        self.notes = data.get("notes")
        self.blind_hex_table = data.get("blind_hex_table")
        self.table_scale = data.get("table_scale")
        self.scenario = data.get("scenario") or {}
        self.open_terrain = data.get("open_terrain")
        types = data.get("unit_types") or {}
        self.unit_kinds = tuple(types.get("kinds") or ())
        self.echelons = tuple(types.get("echelons") or ())
        self.unit_types = {entry["id"]: entry for entry in types.get("types") or ()}
        self.terrain = {entry["id"]: entry for entry in data["terrain"]}
        self._cells: dict[tuple[int, int], dict] = {}
        for cell in (self.blind_hex_table or {}).get("cells", ()):
            for distance in range(cell["range_min"], cell["range_max"] + 1):
                self._cells[cell["diff"], distance] = cell

    def __repr__(self):
        return f"<Ruleset {self.id} ({len(self.terrain)} terrain)>"

    def __contains__(self, terrain_id):
        return terrain_id in self.terrain

    def standing_levels(self, storeys: int) -> tuple[int, int]:
        """(lowest, highest) level a unit can stand at: the ruleset's ground levels, and above its highest ground
        up to the top of a building of ``storeys`` storeys (the map format's most, MAX_STOREYS). An LOS question
        at a level outside them asks about a place the map cannot have."""
        return self.level_min, self.level_max + (storeys - 1) * self.level_step

    def check_level(self, level: int | None, storeys: int, what: str = "level") -> None:
        """ValueError in a designer's words when ``level`` is outside :meth:`standing_levels`."""
        low, high = self.standing_levels(storeys)
        if level is not None and not low <= level <= high:
            raise ValueError(f"{what} {level} is outside what a unit can stand at in {self.name}: from "
                             f"{low} (its lowest ground) to {high} (its highest ground, {self.level_max}, plus "
                             f"the upper storeys of a {storeys}-storey building)")

    def open_hex(self) -> str:
        """The terrain of a hex that holds nothing else: the catalogue's open_terrain, where this ruleset has it,
        else an entry called open or clear, else its first hex terrain by id."""
        hexes = self.terrain_ids("hex")
        for candidate in (self.open_terrain, "open", "clear"):
            if candidate and candidate in hexes:
                return candidate
        return sorted(hexes)[0]

    def terrain_ids(self, layer: str | None = None) -> list[str]:
        """The terrain ids of one layer ("hex", "hexside" or "marker"), or of all, in catalogue order."""
        if layer is not None and layer not in LAYERS:
            raise ValueError(f"layer {layer!r} is not one of {', '.join(LAYERS)}")
        return [tid for tid, entry in self.terrain.items() if layer is None or entry["layer"] == layer]

    def los_rule(self, terrain_id: str) -> str:
        """The rule an LOS answer cites for this terrain: the paragraph on its LOS, else the entry's rule."""
        entry = self.get(terrain_id)
        return entry.get("los_rule") or entry.get("rule") or ""

    def get(self, terrain_id: str) -> dict:
        try:
            return self.terrain[terrain_id]
        except KeyError:
            raise UnknownTerrain(f"ruleset {self.id!r} has no terrain {terrain_id!r}") from None

    def movement_cost(self, terrain_id: str, unit_class: str,
                      conditions: Collection[str] = ()) -> int | float | str | None:
        """The cost for a unit class to enter (or cross) a terrain, given the conditions that hold (CONDITIONS).

        A plain value is returned as it is; for a list of cases, the first whose condition holds, else the
        case without one, else None (the rulebook gives no cost). None also when the class is not listed.
        """
        cost = self.get(terrain_id)["movement"].get(unit_class)
        if not isinstance(cost, list):
            return cost
        unknown = set(conditions) - set(CONDITIONS)
        if unknown:
            raise ValueError(f"unknown conditions {', '.join(sorted(unknown))}; known: {', '.join(CONDITIONS)}")
        for case in cost:
            if "when" not in case or case["when"] in conditions:
                return case["cost"]
        return None

    def refuses(self, terrain_ids: Iterable[str], unit_class: str) -> str | None:
        """The terrain id among ``terrain_ids`` (a hex's, with its markers) that a unit of ``unit_class`` may not
        enter, or None: a movement cost "X", or "... road only" where the hex has no road (nor a railroad, for
        "road or railroad only"). The conditions are what the hex itself gives (movement_conditions)."""
        ids = list(terrain_ids)
        conditions = self.movement_conditions(ids)
        has_road, has_rail = "along-road" in conditions, "along-railroad" in conditions
        for tid in ids:
            entry = self.terrain.get(tid)
            if entry is None:
                continue
            cost = case_cost((entry.get("movement") or {}).get(unit_class), conditions)
            if not isinstance(cost, str):
                continue
            text = cost.strip().lower()
            if text == "x":
                return tid
            if text.endswith("only") and "road" in text and not (has_road or ("railroad" in text and has_rail)):
                return tid
        return None

    def linear(self, terrain_id: str) -> str | None:
        """What runs through this terrain for movement ("road", "railroad") or None; None for an unknown id."""
        entry = self.terrain.get(terrain_id)
        return entry.get("linear") if entry is not None else None

    def kinds(self, terrain_id: str) -> tuple[str, ...]:
        """What this terrain or marker is in its game's words (its entry's ``kinds``: "building",
        "fortification", "minefield", ...), which the scenario checks read instead of ids; () for an unknown id."""
        entry = self.terrain.get(terrain_id)
        return tuple(entry.get("kinds") or ()) if entry is not None else ()

    def movement_conditions(self, terrain_ids: Iterable[str]) -> tuple[str, ...]:
        """The movement conditions a unit standing in a hex with these terrain ids may claim: along-road where
        one of them is a road, along-railroad where one is a railroad (the entries' ``linear``)."""
        kinds = {self.linear(tid) for tid in terrain_ids}
        return tuple(condition for kind, condition in LINEAR.items() if kind in kinds)

    def scenario_fields(self, part: str) -> dict:
        """{key: field spec} of what this game's scenario takes in one part: "oob", "side" or "rules"."""
        if part not in SCENARIO_PARTS:
            raise ValueError(f"part {part!r} is not one of {', '.join(SCENARIO_PARTS)}")
        return self.scenario.get(part) or {}

    @property
    def qualities(self):
        return tuple(self.scenario.get("qualities") or ())

    @property
    def turn_track(self):
        """Which way the game's turn record track counts by default: "up" or "down"."""
        return self.scenario.get("turn_track") or "up"

    def play_order(self, key: str) -> str | None:
        """What the rules say of ``key`` ("sets_up_first" or "moves_first") when a scenario names no side: the
        catalogue's sentence, as the rulebook puts it, or None where the catalogue gives none."""
        if key not in PLAY_ORDER_KEYS:
            raise ValueError(f"{key!r} is not one of {', '.join(PLAY_ORDER_KEYS)}")
        return (self.scenario.get("play_order") or {}).get(key)

    @property
    def statuses(self):
        """status id -> {name, rule}: what a placed unit may start as (a placement's ``status``)."""
        return dict(self.scenario.get("statuses") or {})

    @property
    def modules(self):
        """module id -> {name, rule}: the rule modules a scenario may name as in play (its ``modules``)."""
        return dict(self.scenario.get("modules") or {})

    def marker_kinds(self) -> set[str]:
        """What a scenario may place as a marker: the marker layer's terrain, the kinds the scenario section
        declares of its own, and control markers."""
        return set(self.terrain_ids("marker")) | set(self.scenario.get("markers") or {}) | {"control"}

    def marker_details(self, kind: str) -> dict:
        """{field: spec} of what a marker of this kind holds besides its hex (its ``details``)."""
        return dict(((self.scenario.get("markers") or {}).get(kind) or {}).get("details") or {})

    def marker_on(self, kind: str) -> dict | None:
        """{kinds, rule}: the unit kinds of its side a marker of this kind is placed on, or None."""
        return ((self.scenario.get("markers") or {}).get(kind) or {}).get("on")

    def marker_name(self, kind: str) -> str:
        """A marker kind as the card names it: its declared name, its terrain entry's, else its id."""
        declared = ((self.scenario.get("markers") or {}).get(kind) or {}).get("name")
        if declared:
            return declared
        entry = self.terrain.get(kind)
        return entry["name"] if entry is not None else kind

    def inches_per_hex(self, hex_metres: float | None = None,
                       given: object = None) -> tuple[float, str] | None:
        """(inches of table per hex, where that came from), or None for a game with no table scale.

        ``given`` is a value the map or scenario sets, taken as it is; otherwise the hex's metres (the
        catalogue's own by default) at the table scale, floored to the scale's step and at least one step.
        The one place Hexside turns hexes into inches: the LOS, the scenario checks, cards and editor read it.
        """
        if _is_number(given) and given > 0:
            return float(given), "given"
        scale = self.table_scale
        if scale is None:
            return None
        metres = self.hex_metres if hex_metres is None else hex_metres
        if not _is_number(metres) or metres <= 0:
            return None
        step = scale.get("inch_step", 1)
        per_inch = scale["metres_per_inch"]
        inches = max(step, math.floor(metres / per_inch / step + 1e-9) * step)
        return float(inches), f"{metres:g} m per hex / {per_inch:g} m per inch, floored"

    def as_dict(self) -> dict:
        """The whole profile as JSON data, inherited values filled in; from_dict() reads it back unchanged."""
        return copy.deepcopy(self._data)

    def blind_hexes(self, diff: int, range_hexes: int) -> tuple[int, bool] | None:
        """(blind hex count, proven) from the Blind Hex Creation Table (ATS 6.2.63).

        ``diff`` is the higher unit's level minus the obstacle's top, ``range_hexes`` the range from the higher
        unit to the obstacle. Below +10 the table has no column (there is no LOS over the obstacle, 6.2.63):
        None. Outside the table's cells the provisional formula applies (docs/rulesets/catalogues.md).
        """
        if self.blind_hex_table is None:
            raise LookupError(f"ruleset {self.id!r} has no blind hex table")
        if diff < 10 or range_hexes < 1:
            return None
        cell = self._cells.get((diff, range_hexes))
        if cell is not None:
            return cell["blind_hexes"], cell["proven"]
        return provisional_blind_hexes(diff, range_hexes), False


def provisional_blind_hexes(diff: int, range_hexes: int) -> int:
    """n = max(1, round(band x 10 / diff)), halves rounded up, band 1 for ranges 1-6 (docs/rulesets)."""
    band = (range_hexes - 1) // BAND_WIDTH + 1
    return max(1, (band * 20 + diff) // (2 * diff))

def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)

def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)

def _is_text(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and value.strip() != ""


def case_cost(cost, conditions):
    """A movement cost as the catalogue gives it: a value, or a list of cases {"when": condition, "cost"} read in
    order, the first whose condition holds (or that has none) giving the cost; None when none applies."""
    if not isinstance(cost, list):
        return cost
    for case in cost:
        if isinstance(case, dict) and ("when" not in case or case["when"] in conditions):
            return case.get("cost")
    return None
