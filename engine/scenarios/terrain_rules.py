"""Special rules that change the terrain: "all orchards are woods", "the stream is frozen", "bocage on hill hexes
does not exist", "the bridge at 16.05 is blown". A special rule is its text, which the card prints as written, and
may carry ``terrain``: changes Hexside makes to the scenario's maps before anything reads them, so that LOS, the
sight lines, the checks, the card map, the exports and the visibility answers are about the changed map, exactly
as if the change had been painted by hand (docs/scenario-format.md, "Special rules that change the terrain").

A change selects hexes (every hex of its map, or ``hexes``, a ``region`` between two corners, ``levels`` from-to,
hexes ``having`` a terrain, or terrain of an LOS class, ``los``) and does one thing there: ``replace`` terrain
ids (a hexside terrain on the hexsides of the selected hexes), ``remove`` them, ``add`` hex terrain, or set the
``level``. No Django."""

import dataclasses

from engine.mapfile import _is_int, _kind
from engine.scenarios import limits

CHANGE_KEYS = ("map", "hexes", "region", "levels", "having", "los", "replace", "remove", "add", "level")
ACTIONS = ("replace", "remove", "add", "level")
MAX_CHANGES = 20  # per special rule
MAX_CHANGES_ALL = 50  # of every special rule together: each may go over every hex of its map once
MAX_IDS = 40  # terrain ids named by one change
RULE_KEYS = ("text", "terrain")


def read_changes(reader, items, path):
    """The canonical changes of one special rule (reported with their paths where wrong), or []."""
    if not isinstance(items, list):
        reader.error(path, f"expected a list of terrain changes, got {_kind(items)}", code="bad-type")
        return []
    if len(items) > MAX_CHANGES:
        reader.error(path, reader.too_many(path, len(items), MAX_CHANGES, "terrain changes"), code="too-many")
        return []
    out = []
    for n, change in enumerate(items):
        where = f"{path}[{n}]"
        if not isinstance(change, dict):
            reader.error(where, f"expected a terrain change such as {{\"replace\": {{\"orchard\": \"woods\"}}}}, got "
                                f"{_kind(change)}", code="bad-type")
            continue
        before = len(reader.errors)
        clean = _read_change(reader, change, where)
        if len(reader.errors) == before:
            out.append(clean)
    return out


def _read_change(reader, change, where):
    if not reader.keys(change, where, CHANGE_KEYS):
        return None
    actions = [a for a in ACTIONS if a in change]
    if len(actions) != 1:
        reader.error(where, "say one thing the change does: replace, remove, add or level", code="bad-terrain-change")
        return None
    clean = {}
    key = change.get("map")
    if key is not None:
        if key not in reader.maps:
            reader.error(f"{where}.map", f"no map {key!r} in this scenario (maps: {', '.join(reader.maps)})",
                         code="unknown-map")
            return None
        clean["map"] = key
    for name in ("hexes", "region"):
        if name in change:
            clean[name] = _labels(reader, change[name], f"{where}.{name}", key, 2 if name == "region" else None)
    if "levels" in change:
        levels = change["levels"]
        if not (isinstance(levels, list) and len(levels) == 2 and all(_is_int(v) for v in levels)
                and levels[0] <= levels[1]):
            reader.error(f"{where}.levels", f"expected [lowest, highest] levels, got {levels!r}", code="bad-number")
        else:
            clean["levels"] = levels
    catalogue = reader.catalogue
    if "having" in change:
        clean["having"] = _ids(reader, change["having"], f"{where}.having")
    if "los" in change:
        classes = sorted({e["los"] for e in catalogue.terrain.values()}) if catalogue is not None else []
        if change["los"] not in classes:
            reader.error(f"{where}.los", f"expected an LOS class of the game ({', '.join(classes)}), got "
                                         f"{change['los']!r}", code="bad-terrain-change")
        else:
            clean["los"] = change["los"]
    action = actions[0]
    value = change[action]
    if action == "level":
        clean["level"] = _level(reader, value, f"{where}.level")
    elif action == "replace":
        clean["replace"] = _replacements(reader, value, f"{where}.replace")
    else:
        ids = _ids(reader, value, f"{where}.{action}")
        if action == "add" and catalogue is not None:
            for tid in ids:
                if catalogue.terrain[tid]["layer"] == "hexside":
                    reader.error(f"{where}.add", f"{catalogue.terrain[tid]['name']} is a hexside terrain: a change "
                                                 "can add only hex terrain (paint new hexsides on the map)",
                                 code="bad-terrain-change")
        clean[action] = ids
    return clean


def _level(reader, value, path):
    """A level the map format would take: within the game's levels and in its steps (ATS levels go by 5)."""
    cat = reader.catalogue
    low, high, step = (cat.level_min, cat.level_max, cat.level_step or 1) if cat is not None else (-100, 100, 1)
    level = reader.integer(value, path, low, high)
    if level is not None and step > 1 and level % step:
        reader.error(path, f"level {level} is not a multiple of {step} ({cat.name} levels go in steps of {step})",
                     code="bad-level")
    return level


def _labels(reader, value, path, key, exactly):
    if isinstance(value, list) and len(value) > limits.HEXES:
        reader.error(path, reader.too_many(path, len(value), limits.HEXES, "hexes"), code="too-many")
        return []
    if not isinstance(value, list) or not value or (exactly and len(value) != exactly):
        what = "two corner hexes" if exactly else "a list of hexes"
        reader.error(path, f"expected {what}, got {value!r}", code="bad-hex")
        return []
    out = []
    for n, label in enumerate(value):
        ref = reader.hex(f"{key}:{label}" if key and isinstance(label, str) and ":" not in label else label,
                         f"{path}[{n}]")
        if ref is not None:
            out.append(ref)
    return out


def _ids(reader, value, path):
    catalogue = reader.catalogue
    if not isinstance(value, list) or not value or len(value) > MAX_IDS or not all(isinstance(v, str) for v in value):
        reader.error(path, f"expected a list of terrain ids (at most {MAX_IDS}), got {value!r}", code="bad-type")
        return []
    unknown = [v for v in value if catalogue is not None and v not in catalogue.terrain]
    if unknown:
        reader.error(path, f"{', '.join(map(repr, unknown))} is not a terrain of {catalogue.name}",
                     code="unknown-terrain")
        return []
    return list(dict.fromkeys(value))


def _replacements(reader, value, path):
    catalogue = reader.catalogue
    if not isinstance(value, dict) or not value or len(value) > MAX_IDS:
        reader.error(path, f"expected {{old terrain: new terrain}}, got {value!r}", code="bad-type")
        return {}
    ids = _ids(reader, [*value, *value.values()], path) if all(isinstance(v, str) for v in value.values()) else None
    if not ids:
        if ids is None:
            reader.error(path, "expected terrain ids as the new terrain", code="bad-type")
        return {}
    if catalogue is not None:
        for old, new in value.items():
            if catalogue.terrain[old]["layer"] != catalogue.terrain[new]["layer"]:
                reader.error(path, f"{catalogue.terrain[old]['name']} ({catalogue.terrain[old]['layer']}) cannot "
                                   f"become {catalogue.terrain[new]['name']} ({catalogue.terrain[new]['layer']}): "
                                   "a change keeps a terrain's layer", code="bad-terrain-change")
                return {}
    return dict(value)


def rule_text(rule):
    """The words of a special rule, a text or {text, terrain}."""
    return rule["text"] if isinstance(rule, dict) else rule


def changes_of(special_rules):
    """[(rule number from 1, change)] of every terrain change the special rules carry, in order."""
    return [(n, change) for n, rule in enumerate(special_rules, 1) if isinstance(rule, dict)
            for change in rule.get("terrain", ())]


# -- applying ----------------------------------------------------------------------------------------------------

def apply(doc, catalogue, special_rules):
    """Each map of a parsed scenario with the special rules' changes made, in their order; untouched maps stay
    the same objects. ``doc`` is a ScenarioDoc whose ``maps`` are replaced."""
    changes = changes_of(special_rules)
    if not changes:
        return
    for key in list(doc.maps):
        mine = [c for _, c in changes if c.get("map", key) == key]
        if mine:
            doc.maps[key] = changed_map(doc, key, mine, catalogue)


def changed_map(doc, key, changes, catalogue):
    """The map of ``key`` with ``changes`` made: overlays laid first (a change applies to what the players see),
    then each change over the hexes it selects."""
    mdoc = doc.maps[key]
    cells, hexsides = mdoc.resolved()
    default = mdoc.default_cell()
    grid = mdoc.grid
    for change in changes:
        layer = _layer(change, catalogue)
        chosen = [h for h in _candidates(doc, key, change, grid, cells, default, layer, catalogue)
                  if _keeps(cells.get(h, default), change, catalogue)]
        if layer == "hexside":
            _change_hexsides(hexsides, set(chosen), grid, change)
        elif "level" in change:
            for h in chosen:
                cells[h] = dataclasses.replace(cells.get(h, default), level=change["level"])
        else:
            for h in chosen:
                cell = cells.get(h, default)
                terrain = _changed(cell.terrain, change)
                if terrain != cell.terrain:
                    cells[h] = dataclasses.replace(cell, terrain=terrain or tuple(mdoc.default_terrain))
    return dataclasses.replace(mdoc, hexes=cells, hexsides=hexsides, overlays=[])


def _candidates(doc, key, change, grid, cells, default, layer, catalogue):
    """The hexes a change may touch: those it names, else every hex of the map; but only the hexes the map lists
    where a hex of the default terrain would be left alone (orchards replaced on a map of open ground), so that a
    change costs the hexes it can change."""
    if "hexes" in change:
        spots = [doc.resolve(ref) for ref in change["hexes"]]
        return [(c, r) for k, c, r in spots if k == key]
    if "region" in change:
        (k1, c1, r1), (_, c2, r2) = (doc.resolve(ref) for ref in change["region"])
        if k1 != key:
            return []
        return [(c, r) for c in range(min(c1, c2), max(c1, c2) + 1) for r in range(min(r1, r2), max(r1, r2) + 1)
                if grid.contains(c, r)]
    alike = _keeps(default, change, catalogue) and (
        layer == "hexside" or "level" in change or _changed(default.terrain, change) != default.terrain)
    if alike:
        return list(grid.hexes())
    return [h for h in cells if grid.contains(*h)]


def _keeps(cell, change, catalogue):
    """Whether a selected hex meets the change's conditions: its level, a terrain it has, an LOS class."""
    if "levels" in change and not change["levels"][0] <= cell.level <= change["levels"][1]:
        return False
    if "having" in change and not set(change["having"]) & set(cell.terrain):
        return False
    return "los" not in change or any((catalogue.terrain.get(t) or {}).get("los") == change["los"]
                                      for t in cell.terrain)


def _layer(change, catalogue):
    ids = list(change.get("replace") or {}) or change.get("remove") or change.get("add") or []
    layers = {(catalogue.terrain.get(t) or {}).get("layer") for t in ids}
    return "hexside" if layers == {"hexside"} else "hex"


def _changed(terrain, change):
    if "replace" in change:
        return tuple(dict.fromkeys(change["replace"].get(t, t) for t in terrain))
    if "remove" in change:
        return tuple(t for t in terrain if t not in change["remove"])
    return tuple(dict.fromkeys([*terrain, *change["add"]]))


def _change_hexsides(hexsides, chosen, grid, change):
    """A hexside terrain changes where one of the hexside's two hexes is selected ("bocage on hill hexes")."""
    for side_key, terrain in list(hexsides.items()):
        col, row, side = side_key
        if (col, row) not in chosen and grid.step(col, row, side) not in chosen:
            continue
        if "replace" in change and terrain in change["replace"]:
            hexsides[side_key] = change["replace"][terrain]
        elif "remove" in change and terrain in change["remove"]:
            del hexsides[side_key]
