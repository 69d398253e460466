"""Reading a catalogue and checking it: a built-in data file, a designer's file or a row's JSON, every problem
named with its path; inherited values (terrain, styles, roads) resolved from the base."""

import copy
import json
from functools import cache
from pathlib import Path

from engine.rulesets import games
from engine.rulesets.catalogue import (
    CASE_KEYS,
    CELL_KEYS,
    CONDITIONS,
    DEFAULT_FILL,
    DIE_KEYS,
    ENTRY_KEYS,
    ENTRY_REQUIRED,
    FIELD_KEYS,
    FIELD_NAME,
    FIELD_TYPES,
    HEX_COLOUR,
    HIDDEN_KEYS,
    ID_PATTERN,
    LAYERS,
    LINEAR,
    LOS_CLASSES,
    MARKER_SPEC_KEYS,
    MARKERS,
    NAMED_KEYS,
    OBSTACLES,
    PATTERNS,
    PLACING_FACINGS,
    PLACING_KEYS,
    PLAY_ORDER_KEYS,
    SCENARIO_FLAGS,
    SCENARIO_KEYS,
    SCENARIO_PARTS,
    STACKING_LIMIT_KEYS,
    STATUS_TERRAIN,
    STYLE_KEYS,
    STYLE_REQUIRED,
    TABLE_SCALE_KEYS,
    TERM_KEYS,
    TOP_INHERITED,
    TOP_KEYS,
    TOP_OPTIONAL_INHERITED,
    TOP_ORDER,
    TOP_REQUIRED,
    TURN_TRACKS,
    Ruleset,
    RulesetError,
    _is_int,
    _is_number,
    _is_text,
)
from engine.rulesets.unittypes import check_keys as _check_keys
from engine.rulesets.unittypes import check_section as _check_unit_types

_file_cache: dict[tuple[str, int, int], Ruleset] = {}


def load_file(path: str | Path) -> Ruleset:
    """Read and check a custom profile file; a file unchanged since the last call is not read again."""
    path = Path(path)
    where = str(path)
    try:
        stat = path.stat()
    except OSError as exc:
        raise RulesetError([f"{where}: cannot read the file ({exc.strerror or exc})"]) from None
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _file_cache:
        _file_cache[key] = from_dict(_read_json(path, where), where=where)
    return _file_cache[key]


def from_dict(data: object, where: str = "<ruleset>") -> Ruleset:
    """Check a custom profile (the decoded JSON) and build its Ruleset; RulesetError lists every problem."""
    return _build(data, where=where, builtin_id=None)


def _read_json(path: str | Path, where: str) -> object:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RulesetError([f"{where}: cannot read the file ({exc.strerror or exc})"]) from None
    except UnicodeDecodeError:
        raise RulesetError([f"{where}: the file is not UTF-8 text"]) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RulesetError([f"{where}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"]) \
            from None


def _build(data: object, where: str, builtin_id: str | None) -> Ruleset:
    problems = _Problems()
    base = _check_top(data, problems, builtin_id)
    if problems:
        raise RulesetError(problems.render(where))
    merged = _resolve(data, base)
    _check_resolved_styles(data, merged, problems)
    _check_open_terrain(data, merged, problems, builtin_id)
    if problems:
        raise RulesetError(problems.render(where))
    return Ruleset(merged)


class _Problems(list):
    def add(self, path, message):
        self.append((path, message))

    def render(self, where):
        return [f"{where}: {path}: {message}" if path else f"{where}: {message}" for path, message in self]


def _check_top(data, problems, builtin_id):
    """Check the whole document; returns the base's data (or None) for what the profile inherits."""
    if not isinstance(data, dict):
        problems.add("", "a ruleset must be a JSON object")
        return None
    _check_top_keys(data, problems, builtin_id)
    _check_identity(data, problems, builtin_id)
    base = _check_base(data, problems, builtin_id)
    _check_top_values(data, problems, builtin_id)
    if "terms" in data:
        _check_terms(data["terms"], problems)
    if "unit_classes" in data:
        _check_unit_classes(data["unit_classes"], problems)
    _check_levels(data, base, problems)
    if "blind_hex_table" in data:
        ruleset_base = builtin_id or (data.get("base") if base else None)
        if ruleset_base and ruleset_base != "ats":
            problems.add("blind_hex_table", "only an ATS-based ruleset has a Blind Hex Creation Table")
        _check_blind_table(data["blind_hex_table"], problems)
    if "table_scale" in data:
        _check_table_scale(data["table_scale"], problems)
    if "scenario" in data:
        _check_scenario(data["scenario"], problems)
    classes = _effective(data, base, "unit_classes")
    classes = set(classes) if isinstance(classes, list) and all(isinstance(c, str) for c in classes) else None
    extends = data.get("extends_base") is True
    if "terrain" in data:
        _check_terrain(data["terrain"], problems, classes, extends=extends, builtin=bool(builtin_id))
    _check_top_unit_types(data, base, problems, classes, builtin_id)
    _check_top_styles(data, problems, builtin_id)
    if extends and base is not None and classes is not None and "unit_classes" in data:
        _check_base_movement(data, base, problems, classes)
    return base


def _effective(data, base, key):
    """A top-level value as the profile sees it: its own, else its base's."""
    if key in data:
        return data[key]
    return base.get(key) if base else None


def _check_top_keys(data, problems, builtin_id):
    for key in data:
        if key not in TOP_KEYS:
            problems.add(key, f"unknown key; expected one of {', '.join(TOP_ORDER)}, extends_base")
    required = TOP_REQUIRED + TOP_INHERITED if builtin_id else TOP_REQUIRED
    for key in required:
        if key not in data:
            problems.add(key, "is required")
    if builtin_id and "scenario" not in data:
        problems.add("scenario", "is required in a built-in catalogue")


def _check_identity(data, problems, builtin_id):
    rid = data.get("id")
    if "id" in data:
        if not isinstance(rid, str) or not ID_PATTERN.match(rid):
            problems.add("id", f"{rid!r} is not lower-case words joined by '-'")
        elif builtin_id and rid != builtin_id:
            problems.add("id", f"is {rid!r} but the file is the {builtin_id!r} catalogue")
        elif not builtin_id and games.is_game(rid):
            problems.add("id", f"{rid!r} is a built-in ruleset; a custom profile needs an id of its own")
    if "name" in data and not _is_text(data["name"]):
        problems.add("name", "must be a non-empty string")


def _check_base(data, problems, builtin_id):
    """The base a profile names, checked; returns its data, or None (a built-in catalogue is its own base)."""
    if "base" not in data:
        return None
    base_id = data["base"]
    if builtin_id:
        if base_id != builtin_id:
            problems.add("base", f"a built-in ruleset's base is itself ({builtin_id!r}), not {base_id!r}")
        return None
    if not games.is_game(base_id):
        problems.add("base", f"{base_id!r} is not one of the built-in rulesets {', '.join(games.ids())}")
        return None
    return _builtin(base_id).as_dict()


def _check_top_values(data, problems, builtin_id):
    """The plain values at the top: texts, the level numbers, the hex's size and extends_base."""
    for key in ("source", "level_units", "notes"):
        if key in data and not _is_text(data[key]):
            problems.add(key, "must be a non-empty string")
    for key in ("level_min", "level_max", "level_step"):
        if key in data and not _is_int(data[key]):
            problems.add(key, f"must be an integer, not {data[key]!r}")
    if "level_step" in data and _is_int(data["level_step"]) and data["level_step"] < 1:
        problems.add("level_step", "must be 1 or more")
    hex_metres = data.get("hex_metres")
    if hex_metres is not None and (not _is_number(hex_metres) or hex_metres <= 0):
        problems.add("hex_metres", f"must be a positive number or null, not {hex_metres!r}")
    if "extends_base" in data:
        if not isinstance(data["extends_base"], bool):
            problems.add("extends_base", "must be true or false")
        elif builtin_id and data["extends_base"]:
            problems.add("extends_base", "a built-in ruleset has no other base to extend")


def _check_levels(data, base, problems):
    """The levels a profile ends with (its own or its base's) must be in order and on the step."""
    levels = [_effective(data, base, k) for k in ("level_min", "level_max", "level_step")]
    if not (all(_is_int(v) for v in levels) and levels[2] >= 1):
        return
    low, high, step = levels
    if low > high:
        problems.add("level_min", f"{low} is above level_max {high}")
    for key, value in (("level_min", low), ("level_max", high)):
        if value % step:
            problems.add(key, f"{value} is not a multiple of level_step {step}")


def _check_top_unit_types(data, base, problems, classes, builtin_id):
    if "unit_types" not in data:
        if builtin_id:
            problems.add("unit_types", "is required in a built-in catalogue")
        return
    terrain = data.get("terrain")
    terrain_ids = {e.get("id") for e in (terrain if isinstance(terrain, list) else ()) if isinstance(e, dict)}
    if base is not None:
        terrain_ids |= {e["id"] for e in base["terrain"]}
    _check_unit_types(data["unit_types"], problems, classes, terrain_ids)


def _check_top_styles(data, problems, builtin_id):
    if "styles" not in data:
        return
    if builtin_id:
        problems.add("styles", "a built-in ruleset gives each style in its entry")
    elif not isinstance(data["styles"], dict):
        problems.add("styles", "must be an object of style per terrain id")
    else:
        for tid, style in data["styles"].items():
            _check_style(style, f"styles.{tid}", problems)


def _check_base_movement(data, base, problems, classes):
    """The base's own entries that the profile keeps must still fit the profile's unit classes."""
    own = {e.get("id") for e in data.get("terrain") or () if isinstance(e, dict)}
    for entry in base["terrain"]:
        if entry["id"] not in own:
            _check_movement(entry["movement"], f"terrain {entry['id']!r} (from {data['base']}).movement",
                            problems, classes)


def _check_terms(terms, problems):
    if not isinstance(terms, dict):
        problems.add("terms", f"must be an object with the keys {', '.join(TERM_KEYS)}")
        return
    for key in TERM_KEYS:
        if key not in terms:
            problems.add(f"terms.{key}", "is required")
        elif not _is_text(terms[key]):
            problems.add(f"terms.{key}", "must be a non-empty string")
    for key in terms:
        if key not in TERM_KEYS:
            problems.add(f"terms.{key}", f"unknown key; expected {', '.join(TERM_KEYS)}")


def _check_unit_classes(classes, problems):
    if not isinstance(classes, list) or not classes:
        problems.add("unit_classes", "must be a non-empty list of unit class names")
        return
    seen = set()
    for n, name in enumerate(classes):
        if not isinstance(name, str) or not ID_PATTERN.match(name):
            problems.add(f"unit_classes[{n}]", f"{name!r} is not lower-case words joined by '-'")
        elif name in seen:
            problems.add(f"unit_classes[{n}]", f"{name!r} is listed twice")
        else:
            seen.add(name)


def _check_blind_table(table, problems):
    path = "blind_hex_table"
    if not isinstance(table, dict):
        problems.add(path, "must be an object with a 'cells' list")
        return
    for key, value in table.items():
        if key != "cells" and not isinstance(value, str):
            problems.add(f"{path}.{key}", "must be a string (only 'cells' holds data)")
    cells = table.get("cells")
    if not isinstance(cells, list) or not cells:
        problems.add(f"{path}.cells", "must be a non-empty list")
        return
    seen = {}
    for n, cell in enumerate(cells):
        where = f"{path}.cells[{n}]"
        if not isinstance(cell, dict):
            problems.add(where, "must be an object")
            continue
        _check_keys(cell, CELL_KEYS, CELL_KEYS, where, problems)
        for key in ("diff", "range_min", "range_max"):
            if key in cell and (not _is_int(cell[key]) or cell[key] < 1):
                problems.add(f"{where}.{key}", f"must be a positive integer, not {cell[key]!r}")
        if "blind_hexes" in cell and (not _is_int(cell["blind_hexes"]) or cell["blind_hexes"] < 0):
            problems.add(f"{where}.blind_hexes", f"must be an integer 0 or more, not {cell['blind_hexes']!r}")
        if "proven" in cell and not isinstance(cell["proven"], bool):
            problems.add(f"{where}.proven", "must be true or false")
        if all(_is_int(cell.get(k)) for k in ("diff", "range_min", "range_max")):
            if cell["range_min"] > cell["range_max"]:
                problems.add(f"{where}.range_min", "is above range_max")
            for distance in range(cell["range_min"], cell["range_max"] + 1):
                key = (cell["diff"], distance)
                if key in seen:
                    problems.add(where, f"overlaps {seen[key]} (diff {cell['diff']}, range {distance})")
                    break
                seen[key] = where


def _check_terrain(terrain, problems, classes, extends, builtin=False):
    if not isinstance(terrain, list):
        problems.add("terrain", "must be a list of terrain entries")
        return
    if not terrain and not extends:
        problems.add("terrain", "must list at least one terrain (or set extends_base)")
    first = {}
    for n, entry in enumerate(terrain):
        path = f"terrain[{n}]"
        if not isinstance(entry, dict):
            problems.add(path, "must be an object")
            continue
        _check_entry_identity(entry, path, problems, first)
        _check_entry_values(entry, path, problems)
        _check_entry_parts(entry, path, problems, classes, builtin)
    if not extends:
        _check_barred_ids(terrain, problems)


def _check_entry_identity(entry, path, problems, first):
    """A terrain entry's keys and its id, unique in the catalogue (``first``: id -> where it first is)."""
    for key in entry:
        if key not in ENTRY_KEYS:
            problems.add(f"{path}.{key}", f"unknown key; expected one of {', '.join(ENTRY_KEYS)}")
    for key in ENTRY_REQUIRED:
        if key not in entry:
            problems.add(f"{path}.{key}", "is required")
    tid = entry.get("id")
    if "id" in entry:
        if not isinstance(tid, str) or not ID_PATTERN.match(tid):
            problems.add(f"{path}.id", f"{tid!r} is not lower-case words joined by '-'")
        elif tid in first:
            problems.add(f"{path}.id", f"duplicate id {tid!r}, first at {first[tid]}")
        else:
            first[tid] = path


def _check_entry_values(entry, path, problems):
    """A terrain entry's plain values: its name, linear kind, kinds, layer and LOS class, texts and height."""
    if "name" in entry and not _is_text(entry["name"]):
        problems.add(f"{path}.name", "must be a non-empty string")
    if "linear" in entry and entry["linear"] is not None and entry["linear"] not in LINEAR:
        problems.add(f"{path}.linear", f"{entry['linear']!r} is not null or one of {', '.join(LINEAR)}")
    if "kinds" in entry and (not isinstance(entry["kinds"], list) or not all(
            isinstance(k, str) and ID_PATTERN.match(k) for k in entry["kinds"])
            or len(set(entry["kinds"])) != len(entry["kinds"])):
        problems.add(f"{path}.kinds", "must be a list of lower-case words joined by '-', each once")
    for key, allowed in (("layer", LAYERS), ("los", LOS_CLASSES), ("obstacle", OBSTACLES)):
        if key in entry and entry[key] not in allowed:
            problems.add(f"{path}.{key}", f"{entry[key]!r} is not one of {', '.join(allowed)}")
    for key in ("los_term", "los_rule", "movement_rule", "notes"):
        if key in entry and not _is_text(entry[key]):
            problems.add(f"{path}.{key}", "must be a non-empty string")
    if "rule" in entry and entry["rule"] is not None and not _is_text(entry["rule"]):
        problems.add(f"{path}.rule", "must be a rule reference such as 'OST 14.2', or null")
    if "height" in entry and entry["height"] is not None and not _is_number(entry["height"]):
        problems.add(f"{path}.height", f"must be a number or null, not {entry['height']!r}")


def _check_entry_parts(entry, path, problems, classes, builtin):
    """A terrain entry's parts: movement, cover, style (required in a built-in catalogue), set-up data, what
    Hexside decided and where a marker may be placed."""
    if "movement" in entry:
        _check_movement(entry["movement"], f"{path}.movement", problems, classes)
    if "cover" in entry:
        _check_cover(entry["cover"], f"{path}.cover", problems)
    if "style" in entry:
        _check_style(entry["style"], f"{path}.style", problems)
    elif builtin:
        problems.add(f"{path}.style", "is required in a built-in catalogue")
    _check_setup(entry, path, problems)
    if "decided" in entry:
        decided = entry["decided"]
        if not isinstance(decided, list) or not all(k in ENTRY_KEYS and k != "id" for k in decided):
            problems.add(f"{path}.decided", "must list the names of this entry's fields that Hexside decided")
    if "placing" in entry:
        _check_placing(entry["placing"], f"{path}.placing", problems)


def _check_barred_ids(terrain, problems):
    """The terrain ids a marker's placing bars are this catalogue's (a profile that extends its base may name
    the base's)."""
    ids = {entry.get("id") for entry in terrain if isinstance(entry, dict)}
    for n, entry in enumerate(terrain):
        placing = entry.get("placing") if isinstance(entry, dict) else None
        for key in ("barred", "barred_off_road"):
            barred = placing.get(key) if isinstance(placing, dict) else None
            for tid in barred if isinstance(barred, list) else ():
                if isinstance(tid, str) and tid not in ids:
                    problems.add(f"terrain[{n}].placing.{key}", f"{tid!r} is not a terrain id of this ruleset")


def _check_placing(placing, path, problems):
    """A marker's placing: {barred: [terrain ids], facing: hexside | vertex | null, rule}."""
    if not isinstance(placing, dict):
        problems.add(path, f"must be an object with the keys {', '.join(PLACING_KEYS)}")
        return
    _check_keys(placing, PLACING_KEYS, ("rule",), path, problems)
    for key in ("barred", "barred_off_road"):
        barred = placing.get(key, [])
        if not isinstance(barred, list) or not all(isinstance(t, str) and ID_PATTERN.match(t) for t in barred):
            problems.add(f"{path}.{key}", "must be a list of terrain ids")
    if placing.get("facing") is not None and placing["facing"] not in PLACING_FACINGS:
        problems.add(f"{path}.facing", f"{placing['facing']!r} is not null or one of {', '.join(PLACING_FACINGS)}")
    for key in ("rule", "facing_rule", "by_ssr"):
        if key in placing and not _is_text(placing[key]):
            problems.add(f"{path}.{key}", "must be a non-empty string")


def _check_setup(entry, path, problems):
    """The set-up data of a terrain entry (SETUP_KEYS); which ids and kinds it names is the scenario checks' to read."""
    if "column_shift" in entry and entry["column_shift"] is not None and not (
            _is_int(entry["column_shift"]) and entry["column_shift"] >= 0):
        problems.add(f"{path}.column_shift", "must be a whole number 0 or more, or null where it depends on the "
                                             "unit's position")
    if "never_overstacked" in entry and not _is_text(entry["never_overstacked"]):
        problems.add(f"{path}.never_overstacked", "must be the rule that says so, e.g. 'ATS 8.31.531'")
    if "hidden_anywhere" in entry and not isinstance(entry["hidden_anywhere"], bool):
        problems.add(f"{path}.hidden_anywhere", "must be true or false")
    if "hidden_barred" in entry:
        barred = entry["hidden_barred"]
        if not isinstance(barred, dict):
            problems.add(f"{path}.hidden_barred", "must be an object {kinds, rule}")
        else:
            _check_keys(barred, ("kinds", "rule"), ("kinds", "rule"), f"{path}.hidden_barred", problems)
            if "kinds" in barred and not _is_id_list(barred["kinds"]):
                problems.add(f"{path}.hidden_barred.kinds", "must be a list of unit kinds")
            if "rule" in barred and not _is_text(barred["rule"]):
                problems.add(f"{path}.hidden_barred.rule", "must be a non-empty string")
    if "stacking_limit" in entry:
        limit = entry["stacking_limit"]
        where = f"{path}.stacking_limit"
        if not isinstance(limit, dict):
            problems.add(where, f"must be an object with the keys {', '.join(STACKING_LIMIT_KEYS)}")
        else:
            _check_keys(limit, STACKING_LIMIT_KEYS, ("points", "rule"), where, problems)
            if "points" in limit and not (_is_int(limit["points"]) and limit["points"] >= 0):
                problems.add(f"{where}.points", "must be a whole number 0 or more")
            if "or_one" in limit and not _is_id_list(limit["or_one"]):
                problems.add(f"{where}.or_one", "must be a list of unit kinds")
            if "rule" in limit and not _is_text(limit["rule"]):
                problems.add(f"{where}.rule", "must be a non-empty string")


def _is_id_list(value):
    return isinstance(value, list) and all(isinstance(v, str) and ID_PATTERN.match(v) for v in value)


def _check_table_scale(scale, problems):
    if scale is None:
        return
    if not isinstance(scale, dict):
        problems.add("table_scale", f"must be an object with the keys {', '.join(TABLE_SCALE_KEYS)}, or null")
        return
    _check_keys(scale, TABLE_SCALE_KEYS, ("metres_per_inch",), "table_scale", problems)
    for key in ("metres_per_inch", "inch_step"):
        if key in scale and (not _is_number(scale[key]) or scale[key] <= 0):
            problems.add(f"table_scale.{key}", f"must be a positive number, not {scale[key]!r}")
    if "rule" in scale and not _is_text(scale["rule"]):
        problems.add("table_scale.rule", "must be a non-empty string")


def _check_dice(dice, problems):
    """scenario.dice: a list of die rolls, each {name, count, sides, rule}: 1 to 10 dice of 2 to 100 sides."""
    if not isinstance(dice, list):
        problems.add("scenario.dice", "must be a list of die rolls, each {name, count, sides, rule}")
        return
    for n, die in enumerate(dice):
        where = f"scenario.dice[{n}]"
        if not isinstance(die, dict):
            problems.add(where, "must be an object {name, count, sides, rule}")
            continue
        _check_keys(die, DIE_KEYS, ("name", "count", "sides"), where, problems)
        if not _is_text(die.get("name")):
            problems.add(f"{where}.name", "must be the roll's name, e.g. 2D6")
        for key, low, high in (("count", 1, 10), ("sides", 2, 100)):
            value = die.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                problems.add(f"{where}.{key}", f"must be a whole number from {low} to {high}")


def _check_scenario(scenario, problems):
    """The game's scenario section: which fields its scenarios take, each a field spec (FIELD_TYPES)."""
    if scenario is None:
        return
    if not isinstance(scenario, dict):
        problems.add("scenario", f"must be an object with some of the keys {', '.join(SCENARIO_KEYS)}, or null")
        return
    _check_keys(scenario, SCENARIO_KEYS, (), "scenario", problems)
    if "turn_track" in scenario and scenario["turn_track"] not in TURN_TRACKS:
        problems.add("scenario.turn_track", f"{scenario['turn_track']!r} is not one of {', '.join(TURN_TRACKS)}")
    if "facing" in scenario and scenario["facing"] not in PLACING_FACINGS:
        problems.add("scenario.facing", f"{scenario['facing']!r} is not one of {', '.join(PLACING_FACINGS)}")
    for key in SCENARIO_FLAGS:
        if key in scenario and not isinstance(scenario[key], bool):
            problems.add(f"scenario.{key}", f"must be true or false, not {scenario[key]!r}")
    if "play_order" in scenario:
        _check_play_order(scenario["play_order"], problems)
    if "qualities" in scenario:
        qualities = scenario["qualities"]
        if not isinstance(qualities, list) or not all(_is_text(q) for q in qualities):
            problems.add("scenario.qualities", "must be a list of quality names")
        elif len(set(qualities)) != len(qualities):
            problems.add("scenario.qualities", "lists a quality twice")
    if "hidden" in scenario:
        _check_hidden(scenario["hidden"], scenario.get("oob") or {}, problems)
    for key in ("statuses", "modules"):
        if key in scenario:
            _check_named(scenario[key], f"scenario.{key}", problems)
    if "markers" in scenario:
        _check_marker_specs(scenario["markers"], problems)
    if "dice" in scenario:
        _check_dice(scenario["dice"], problems)
    for part in SCENARIO_PARTS:
        if part in scenario:
            _check_fields(scenario[part], f"scenario.{part}", problems)


def _check_play_order(order, problems):
    """Who sets up and who moves first, as the rules say it."""
    if not isinstance(order, dict):
        problems.add("scenario.play_order", f"must be an object with some of the keys {', '.join(PLAY_ORDER_KEYS)}")
        return
    _check_keys(order, PLAY_ORDER_KEYS, (), "scenario.play_order", problems)
    for key in PLAY_ORDER_KEYS:
        if key in order and not _is_text(order[key]):
            problems.add(f"scenario.play_order.{key}", "must be a non-empty string (what the rules say)")


def _check_fields(fields, where_part, problems):
    """One part of the scenario section (a side's fields, a unit's ...): a field spec per key."""
    if not isinstance(fields, dict):
        problems.add(where_part, "must be an object of field spec per key")
        return
    for name, spec in fields.items():
        where = f"{where_part}.{name}"
        if not isinstance(name, str) or not FIELD_NAME.match(name):
            problems.add(where, f"{name!r} is not a key of lower-case letters, digits and '_'")
        _check_field(spec, where, problems)


def _check_named(entries, where, problems):
    """Statuses and modules: id -> {name, rule, notes}, each id lower-case words joined by '-', each named."""
    if not isinstance(entries, dict):
        problems.add(where, "must be an object of {name, rule} per id")
        return
    for key, entry in entries.items():
        here = f"{where}.{key}"
        if not ID_PATTERN.match(key):
            problems.add(here, f"{key!r} is not an id of lower-case letters and digits joined by '-'")
        if not isinstance(entry, dict):
            problems.add(here, "must be an object with a 'name'")
            continue
        allowed = NAMED_KEYS + (STATUS_TERRAIN,) if where == "scenario.statuses" else NAMED_KEYS
        _check_keys(entry, allowed, ("name",), here, problems)
        for k in NAMED_KEYS:
            if k in entry and not _is_text(entry[k]):
                problems.add(f"{here}.{k}", "must be a non-empty string")
        terrain = entry.get(STATUS_TERRAIN, [])
        if not isinstance(terrain, list) or not all(isinstance(t, str) and ID_PATTERN.match(t) for t in terrain):
            problems.add(f"{here}.{STATUS_TERRAIN}", "must be a list of terrain ids")


def _check_marker_specs(markers, problems):
    """scenario.markers: per marker kind, its name, rule and the details a scenario's marker of it holds."""
    if not isinstance(markers, dict):
        problems.add("scenario.markers", "must be an object of {name, rule, details} per marker kind")
        return
    for kind, entry in markers.items():
        here = f"scenario.markers.{kind}"
        if not ID_PATTERN.match(kind):
            problems.add(here, f"{kind!r} is not an id of lower-case letters and digits joined by '-'")
        if not isinstance(entry, dict):
            problems.add(here, f"must be an object with some of the keys {', '.join(MARKER_SPEC_KEYS)}")
            continue
        _check_keys(entry, MARKER_SPEC_KEYS, (), here, problems)
        for k in ("name", "rule"):
            if k in entry and not _is_text(entry[k]):
                problems.add(f"{here}.{k}", "must be a non-empty string")
        on = entry.get("on", {"kinds": [], "rule": "-"})
        if not isinstance(on, dict) or not isinstance(on.get("kinds"), list) or not _is_text(on.get("rule")):
            problems.add(f"{here}.on", "must be {\"kinds\": [unit kinds], \"rule\": \"...\"}")
        details = entry.get("details", {})
        if not isinstance(details, dict):
            problems.add(f"{here}.details", "must be an object of field spec per key")
            continue
        for name, spec in details.items():
            if not isinstance(name, str) or not FIELD_NAME.match(name):
                problems.add(f"{here}.details.{name}", f"{name!r} is not a key of lower-case letters, digits and '_'")
            _check_field(spec, f"{here}.details.{name}", problems)


def _check_hidden(hidden, oob_fields, problems):
    """What of a scenario is one side's own (engine/scenarios/visibility.py): flags, marker kinds and the OOB's
    true-or-false fields that make a line that side's."""
    if not isinstance(hidden, dict):
        problems.add("scenario.hidden", f"must be an object with some of the keys {', '.join(HIDDEN_KEYS)}")
        return
    _check_keys(hidden, HIDDEN_KEYS, (), "scenario.hidden", problems)
    for key in ("double_blind", "victory", "forces_public"):
        if key in hidden and not isinstance(hidden[key], bool):
            problems.add(f"scenario.hidden.{key}", "must be true or false")
    markers = hidden.get("markers", [])
    if not (isinstance(markers, list) and all(_is_text(m) for m in markers)):
        problems.add("scenario.hidden.markers", "must be a list of marker terrain ids")
    for k, name in enumerate(hidden.get("oob") or []):
        if not isinstance(oob_fields, dict) or (oob_fields.get(name) or {}).get("type") != "boolean":
            problems.add(f"scenario.hidden.oob[{k}]", f"{name!r} is not a boolean field of scenario.oob")
    if "rule" in hidden and not _is_text(hidden["rule"]):
        problems.add("scenario.hidden.rule", "must be a non-empty string")


def _check_field(spec, where, problems):
    if not isinstance(spec, dict):
        problems.add(where, "must be an object with a 'type'")
        return
    _check_keys(spec, FIELD_KEYS, ("type",), where, problems)
    kind = spec.get("type")
    if "type" in spec and kind not in FIELD_TYPES:
        problems.add(f"{where}.type", f"{kind!r} is not one of {', '.join(FIELD_TYPES)}")
        return
    for key in ("means", "rule", "code"):
        if key in spec and not _is_text(spec[key]):
            problems.add(f"{where}.{key}", "must be a non-empty string")
    for key in ("min", "max"):
        if key in spec:
            if kind not in ("integer", "counts"):
                problems.add(f"{where}.{key}", f"only an integer or counts field has a {key}")
            elif not _is_int(spec[key]):
                problems.add(f"{where}.{key}", f"must be a whole number, not {spec[key]!r}")
    if _is_int(spec.get("min")) and _is_int(spec.get("max")) and spec["min"] > spec["max"]:
        problems.add(f"{where}.min", f"{spec['min']} is above max {spec['max']}")
    for key, owner in (("values", "choice"), ("keys", "counts")):
        if key in spec and kind != owner:
            problems.add(f"{where}.{key}", f"only a {owner} field has {key}")
        elif key in spec and (not isinstance(spec[key], list) or not spec[key]
                              or not all(_is_text(v) for v in spec[key])):
            problems.add(f"{where}.{key}", "must be a non-empty list of strings")
    if kind == "choice" and "values" not in spec:
        problems.add(f"{where}.values", "is required for a choice field")
    if "default" in spec:
        problem = field_problem(spec, spec["default"])
        if problem:
            problems.add(f"{where}.default", problem)


def field_problem(spec: dict, value: object) -> str | None:
    """What is wrong with a value of a plain field (integer, number, boolean, text, choice, edge), or None.

    The other kinds need the scenario around them (hexes, sides) and are checked by the scenario format."""
    kind = spec["type"]
    if kind == "integer":
        low, high = spec.get("min"), spec.get("max")
        if not _is_int(value) or (low is not None and value < low) or (high is not None and value > high):
            span = (f" from {low}" if low is not None else "") + (f" to {high}" if high is not None else "")
            return f"expected a whole number{span}, got {value!r}"
    elif kind == "number":
        if not _is_number(value) or value <= 0:
            return f"expected a positive number, got {value!r}"
    elif kind == "boolean":
        if not isinstance(value, bool):
            return f"expected true or false, got {value!r}"
    elif kind in ("text", "unit"):
        if not isinstance(value, str):
            return f"expected text, got {value!r}"
    elif kind == "choice":
        if value not in spec.get("values", ()):
            return f"expected one of {', '.join(spec.get('values', ()))}, got {value!r}"
    elif kind == "edge":
        if value not in ("N", "E", "S", "W"):
            return f"expected a map edge: N (north), E (east), S (south) or W (west), got {value!r}"
    return None


def _check_style(style, path, problems):
    """The shape of a style as given; what each layer needs is checked once inherited values are in."""
    if not isinstance(style, dict):
        problems.add(path, f"must be an object with some of the keys {', '.join(STYLE_KEYS)}")
        return
    for key, value in style.items():
        where = f"{path}.{key}"
        if key not in STYLE_KEYS:
            problems.add(where, f"unknown key; expected one of {', '.join(STYLE_KEYS)}")
        elif value is None:
            continue
        elif key in ("fill", "pattern_colour", "stroke"):
            if not isinstance(value, str) or not HEX_COLOUR.match(value):
                problems.add(where, f"{value!r} is not a colour written #rrggbb")
        elif key == "pattern" and value not in PATTERNS:
            problems.add(where, f"{value!r} is not null or one of {', '.join(PATTERNS)}")
        elif key == "marker" and value not in MARKERS:
            problems.add(where, f"{value!r} is not null or one of {', '.join(MARKERS)}")
        elif key == "stroke_width" and (not _is_number(value) or not 0 < value <= 0.5):
            problems.add(where, f"must be a fraction of the hex's width above 0 and at most 0.5, not {value!r}")


def _default_style(entry):
    """What a custom entry with a new id is drawn with until it gives a style of its own."""
    style = dict.fromkeys(STYLE_KEYS)
    layer = entry.get("layer")
    if layer == "hexside":
        style.update(stroke="#555555", stroke_width=0.06)
    elif layer == "marker":
        style.update(fill="#777777", stroke="#333333", stroke_width=0.02, marker="circle")
    else:
        style["fill"] = DEFAULT_FILL.get(entry.get("los"), DEFAULT_FILL["clear"])
    return style


def _check_resolved_styles(data, merged, problems):
    """Each resolved entry has what its layer needs: fill on a hex, stroke and width on a hexside, a marker."""
    ids = {entry["id"] for entry in merged["terrain"]}
    for tid in (data.get("styles") or {}):
        if tid not in ids:
            problems.add(f"styles.{tid}", f"no terrain {tid!r} in this ruleset")
    for entry in merged["terrain"]:
        style, layer = entry["style"], entry["layer"]
        where = f"terrain {entry['id']!r}.style"
        for key in STYLE_REQUIRED[layer]:
            if style.get(key) is None:
                problems.add(f"{where}.{key}", f"is required on a {layer}-layer entry")
        if style.get("pattern") is not None and style.get("pattern_colour") is None:
            problems.add(f"{where}.pattern_colour", "is required when a pattern is given")


def _check_open_terrain(data, merged, problems, builtin_id):
    """open_terrain, where the profile gives it (a built-in must), names a hex-layer entry of the ruleset; one
    inherited from the base but not among the profile's own terrain is passed over (Ruleset.open_hex)."""
    if "open_terrain" not in data:
        if builtin_id:
            problems.add("open_terrain", "is required in a built-in catalogue")
        return
    open_id = merged["open_terrain"]
    hexes = {entry["id"] for entry in merged["terrain"] if entry["layer"] == "hex"}
    if open_id not in hexes:
        problems.add("open_terrain", f"names no hex-layer terrain of this ruleset: {open_id!r}")


def _is_scalar(value):
    return value is None or _is_number(value) or isinstance(value, str)


def _check_movement(movement, path, problems, classes):
    if not isinstance(movement, dict):
        problems.add(path, "must be an object of cost per unit class")
        return
    for cls, cost in movement.items():
        if classes is not None and cls not in classes:
            problems.add(f"{path}.{cls}", f"unit class {cls!r} is not in unit_classes ({', '.join(sorted(classes))})")
        if isinstance(cost, list):
            _check_cases(cost, f"{path}.{cls}", problems)
        elif not _is_scalar(cost):
            problems.add(f"{path}.{cls}", f"must be a number, a string such as 'X' or '3B', null, or a list of "
                                          f"cases, not {cost!r}")


def _check_cases(cases, path, problems):
    """[{"when": condition, "cost": ..}, .., {"cost": ..}]: the first case whose condition holds applies."""
    if not cases:
        problems.add(path, "a list of cases must not be empty")
    seen = set()
    for n, case in enumerate(cases):
        where = f"{path}[{n}]"
        if not isinstance(case, dict):
            problems.add(where, "must be an object {\"when\": condition, \"cost\": ..}")
            continue
        _check_keys(case, CASE_KEYS, ("cost",), where, problems)
        if "cost" in case and not _is_scalar(case["cost"]):
            problems.add(f"{where}.cost", f"must be a number, a string or null, not {case['cost']!r}")
        if "when" not in case:
            if n != len(cases) - 1:
                problems.add(where, "only the last case may leave out 'when' (it applies otherwise)")
        elif case["when"] not in CONDITIONS:
            problems.add(f"{where}.when", f"{case['when']!r} is not one of {', '.join(CONDITIONS)}")
        elif case["when"] in seen:
            problems.add(f"{where}.when", f"{case['when']!r} is already given by an earlier case")
        else:
            seen.add(case["when"])


def _check_cover(cover, path, problems):
    if isinstance(cover, dict):
        for key, value in cover.items():
            if not _is_scalar(value):
                problems.add(f"{path}.{key}", f"must be a number, a string or null, not {value!r}")
    elif not _is_scalar(cover):
        problems.add(path, f"must be a number, a string, an object or null, not {cover!r}")


def _resolve(data, base):
    """The profile with every inherited value filled in, keys in the usual order."""
    merged = {}
    for key in TOP_ORDER:
        if key in data:
            merged[key] = copy.deepcopy(data[key])
        elif base is not None and key in TOP_INHERITED + TOP_OPTIONAL_INHERITED and key in base:
            merged[key] = copy.deepcopy(base[key])
    terrain = copy.deepcopy(data["terrain"])
    if data.get("extends_base") and base is not None:
        combined = {entry["id"]: entry for entry in copy.deepcopy(base["terrain"])}
        combined.update((entry["id"], entry) for entry in terrain)
        terrain = list(combined.values())
    _resolve_linear(terrain, base)
    _resolve_styles(terrain, base, data.get("styles"))
    merged["terrain"] = terrain
    return merged


def _resolve_linear(terrain, base):
    """An entry that replaces a base entry of the same id keeps its road or railroad unless it says otherwise
    (``"linear": null`` says it carries none), and its kinds (a building, a fortification, a minefield) unless it
    gives its own; an entry of a new id has them only where it says so."""
    for key in ("linear", "kinds"):
        inherited = {e["id"]: e.get(key) for e in base["terrain"]} if base is not None else {}
        for entry in terrain:
            if key not in entry and inherited.get(entry["id"]):
                entry[key] = copy.deepcopy(inherited[entry["id"]])


def _resolve_styles(terrain, base, overrides):
    """Fill in each entry's style: the layer default, then the base entry of the same id, then the entry's own
    style, then the profile's ``styles`` for that id; each layer replaces only the keys it gives."""
    base_styles = {e["id"]: e.get("style") or {} for e in base["terrain"]} if base is not None else {}
    overrides = overrides if isinstance(overrides, dict) else {}
    for entry in terrain:
        # a built-in (no base) states every style in full: no default hides a missing colour
        style = _default_style(entry) if base is not None else dict.fromkeys(STYLE_KEYS)
        style.update(base_styles.get(entry["id"], {}))
        style.update(entry.get("style") or {})
        style.update(overrides.get(entry["id"]) or {})
        entry["style"] = {key: style[key] for key in STYLE_KEYS}

@cache
def _builtin(ruleset_id: str) -> Ruleset:
    path = games.get(ruleset_id).catalogue_path
    where = f"engine/games/{ruleset_id}/catalogue.json"
    return _build(_read_json(path, where=where), where=where, builtin_id=ruleset_id)


games.on_change(_builtin.cache_clear)
