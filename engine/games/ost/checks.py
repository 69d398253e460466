"""Old School Tactical's scenario checks, each citing the rulebook's own section (``000 Lnn`` is a line of its text).

What a unit is comes from its type (the catalogue's ``unit_types``: kind, stacking, casualty points, the kinds a
weapon may be used by); where a marker may be placed and which way it faces from its catalogue entry's
``placing``. A FlaK 36 kept out of structures, pillboxes and bunkers (8.0.8) is its type's ``barred`` list, which
the common checks read."""

from engine.scenarios import unittypes
from engine.scenarios.checks import placing
from engine.scenarios.checks.common import _line, _points, error, kind_of, stacks, utype, warning

AIRCRAFT = ("transport-aircraft", "glider")  # the kinds 26.0 calls aircraft
AIRCRAFT_GAP = 4  # hexes between two aircraft, not counting their own (26.2.3)
# what an aircraft holds besides its support weapons and Leaders (26.1.1: a transport 3 Squads or crewed machine
# guns; 26.1.2: a glider 2, an AT gun or Jeep in place of a Squad), by kind
LOADOUT = {"transport-aircraft": (3, "3 Squads or crewed machine guns plus any support weapons and Leaders",
                                  "OST 26.1.1"),
           "glider": (2, "2 Squads or crewed machine guns (an AT gun or Jeep in place of a Squad) plus any support "
                         "weapons and Leaders", "OST 26.1.2")}


def check(doc, board):
    found = []
    counts_casualties = any(_casualty_condition(side["victory"]) for side in doc.data["sides"])
    for s, side in enumerate(doc.data["sides"]):
        where = f"sides[{s}]"
        fields = side["fields"]
        if "gut_check" not in fields or "impulse" not in fields:
            found.append(warning(f"{where}.fields", f"{side['name']} needs a gut check number and an impulse formula "
                                                    "such as GUT CHECK 7, IMPULSE PTS 2D6+3 (OST 3.1.6)",
                                 code="ost-side-numbers"))
        units = doc.units(side)
        for ref, stack in stacks(side, units).items():
            found.extend(_stacking(doc, side, where, ref, stack))
            found.extend(_weapon_users(doc, side, where, ref, stack))
        found.extend(_aircraft(doc, side, where, units))
        found.extend(_reinforcement_users(doc, side, where))
        for u, unit in enumerate(side["oob"]):
            if kind_of(doc, unit) == "sniper" and not unit["hidden"]:
                found.append(warning(f"{where}.oob[{u}].hidden", f"{_line(side, u)}: snipers start hidden unless the "
                                     "scenario says otherwise (OST 21.0)", code="ost-hidden"))
            found.extend(_casualty_points(doc, side, where, u, unit, counts_casualties))
            found.extend(_weapons_list(doc, side, where, u, unit))
    found.extend(_markers(doc, board))
    return found


def _stacking(doc, side, where, ref, stack):
    """At most 2 units and 2 leaders of a side per hex (20.0.1); a vehicle transporting a unit counts as 1 (20.0.3).
    The units on an aircraft are its loadout (26.1.3), not a stack: a hex with an aircraft is counted against that."""
    typed = [t for t in (utype(doc, u) for _, u in stack) if t is not None]
    if any(t["kind"] in AIRCRAFT for t in typed):
        return _loadout(doc, side, where, ref, stack)
    leaders = sum(_points(t) for t in typed if t["kind"] == "leader")
    others = sum(_points(t) for t in typed if t["kind"] != "leader")
    # one unit of a kind a vehicle carries may ride in each vehicle there
    riders = min(sum(1 for t in typed if t.get("carries")),
                 sum(1 for t in typed if any(t["kind"] in c.get("carries", ()) for c in typed)))
    p = stack[-1][0]
    here = ", ".join(_named(side, u) for _, u in stack)
    if others - riders > 2 or leaders > 2:
        return [error(f"{where}.placements[{p}].hex", f"{_count(others, 'unit')} and {_count(leaders, 'leader')} of "
                      f"{side['name']} in {ref} ({here}): at most 2 units and 2 leaders per hex (OST 20.0.1)", ref,
                      code="stacking")]
    if others > 2:
        return [warning(f"{where}.placements[{p}].hex", f"{_count(others, 'unit')} of {side['name']} in {ref} "
                        f"({here}): at most 2 per hex, unless {others - 2} of them ride in the vehicles there (a "
                        "vehicle transporting a unit counts as 1 unit, OST 20.0.3)", ref, code="stacking")]
    return []


def _count(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def _loadout(doc, side, where, ref, stack):
    """The units stacked on an aircraft are its loadout (26.1.3): of kinds it carries, and no more Squads or crewed
    weapons than it holds (26.1.1, 26.1.2); support weapons and Leaders ride free."""
    out = []
    planes = [(p, u, utype(doc, u)) for p, u in stack if kind_of(doc, u) in AIRCRAFT]
    aboard = [(p, u, utype(doc, u)) for p, u in stack if kind_of(doc, u) not in AIRCRAFT]
    p, plane, entry = planes[0]
    carries = set(entry.get("carries", ()))
    for q, unit, kind in aboard:
        if kind is not None and kind["kind"] not in carries:
            out.append(error(f"{where}.placements[{q}].hex", f"{_named(side, unit)} is loaded on {_named(side, plane)} "
                             f"in {ref}, but a {entry['name']} holds {LOADOUT[entry['kind']][1]} "
                             f"({LOADOUT[entry['kind']][2]})", ref, code="ost-loadout"))
    most, holds, rule = LOADOUT[entry["kind"]]
    most *= len(planes)
    loaded = sum(_points(k) for _, _, k in aboard if k is not None and k["kind"] != "leader")
    if loaded > most:
        out.append(error(f"{where}.placements[{aboard[-1][0]}].hex", f"{loaded} units are loaded on "
                         f"{_named(side, plane)} in {ref}: a {entry['name']} holds {holds} ({rule})", ref,
                         code="ost-loadout"))
    return out


def _users(entry):
    """The kinds that alone may use a weapon type (its ``attaches_to``: the flamethrower's engineers, 6.1.4)."""
    return set(entry.get("attaches_to", ())) if entry is not None and entry["kind"] == "support-weapon" else set()


def _weapon_users(doc, side, where, ref, stack):
    """A support weapon only some kinds may use (a flamethrower: engineers, 6.1.4) sets up beneath one of them
    (10.0.3, 000 L676): in its hex, a unit of its side of such a kind."""
    out = []
    kinds = {kind_of(doc, u) for _, u in stack}
    if None in kinds:  # a unit without a type may be the engineer: not checked
        return []
    for p, unit in stack:
        entry = utype(doc, unit)
        users = _users(entry)
        if users and not users & kinds:
            out.append(error(f"{where}.placements[{p}].hex", f"{_named(side, unit)} sets up in {ref} "
                             f"with no {' or '.join(sorted(users))} unit of {side['name']} to use it "
                             f"({entry.get('rule') or 'its unit type'})", ref, code="ost-weapon-user"))
    return out


def _reinforcement_users(doc, side, where):
    """A reinforcement bringing such a weapon brings a unit that may use it."""
    out = []
    by_id = {u["id"]: u for u in side["oob"]}
    for r, reinforcement in enumerate(side["reinforcements"]):
        arriving = [by_id[g["unit"]] for g in reinforcement["units"] if g["unit"] in by_id]
        kinds = {kind_of(doc, u) for u in arriving}
        if None in kinds:
            continue
        for unit in arriving:
            entry = utype(doc, unit)
            users = _users(entry)
            if users and not users & kinds:
                out.append(error(f"{where}.reinforcements[{r}].units", f"{_named(side, unit)} arrives on turn "
                                 f"{reinforcement['turn']} with no {' or '.join(sorted(users))} unit of "
                                 f"{side['name']} to use it ({entry.get('rule') or 'its unit type'})",
                                 code="ost-weapon-user"))
    return out


def _weapons_list(doc, side, where, u, unit):
    """A weapon named in an OOB line's ``weapons`` by its catalogue type's id or name (a flamethrower) is the
    line's own: the line's type must be one that may use it (6.1.4)."""
    names = {w.strip().lower() for w in unit.get("weapons") or ()}
    if not names:
        return []
    kind = kind_of(doc, unit)
    if kind is None:  # a line without a type is not checked
        return []
    out = []
    for entry in _restricted_weapons(doc):
        if (entry["id"] in names or entry["name"].lower() in names) and kind not in _users(entry):
            out.append(error(f"{where}.oob[{u}].weapons", f"{_line(side, u)} carries a {entry['name']}, which only "
                             f"{' or '.join(sorted(_users(entry)))} units may use "
                             f"({entry.get('rule') or 'its unit type'})", code="ost-weapon-user"))
    return out


def _restricted_weapons(doc):
    return [e for e in unittypes.table(doc).values() if _users(e)]


def _named(side, unit):
    """A unit by its OOB line: "Flamethrower (German OOB line 3)"."""
    return _line(side, next(n for n, u in enumerate(side["oob"]) if u is unit))


def _aircraft(doc, side, where, units):
    """Aircraft set up at least 4 hexes apart, not counting their own hexes (26.2.3), flying towards a hexside
    (26.2.4), every transport aircraft the same way (26.2.5; a glider's direction does not matter)."""
    out = []
    planes = [(p, placement, units[placement["unit"]]) for p, placement in enumerate(side["placements"])
              if not placement.get("off_map") and kind_of(doc, units[placement["unit"]]) in AIRCRAFT]
    for n, (p, placement, unit) in enumerate(planes):
        key, col, row = doc.resolve(placement["hex"])
        grid = doc.maps[key].grid
        for _q, other, other_unit in planes[:n]:
            okey, ocol, orow = doc.resolve(other["hex"])
            if okey != key:
                continue
            gap = grid.distance((col, row), (ocol, orow)) - 1
            if gap < AIRCRAFT_GAP:
                out.append(error(f"{where}.placements[{p}].hex", f"{_named(side, unit)} in {placement['hex']} is "
                                 f"{max(gap, 0)} hexes from {_named(side, other_unit)} in {other['hex']}: aircraft "
                                 "are spaced at least 4 hexes apart, not counting their own hexes (OST 26.2.3)",
                                 placement["hex"], code="ost-aircraft-spacing"))
        if kind_of(doc, unit) == "transport-aircraft" and not isinstance(placement["facing"], str):
            out.append(error(f"{where}.placements[{p}].facing", f"{_named(side, unit)} in {placement['hex']} needs "
                             "its direction of flight, a hexside (OST 26.2.4)", placement["hex"],
                             code="ost-aircraft-facing"))
    transports = [(p, pl, u) for p, pl, u in planes if kind_of(doc, u) == "transport-aircraft"
                  and isinstance(pl["facing"], str)]
    for p, placement, unit in transports[1:]:
        first = transports[0]
        if placement["facing"] != first[1]["facing"]:
            out.append(error(f"{where}.placements[{p}].facing", f"{_named(side, unit)} in {placement['hex']} flies "
                             f"{placement['facing']}, {_named(side, first[2])} in {first[1]['hex']} "
                             f"{first[1]['facing']}: all transport aircraft in the operation fly the same direction "
                             "(OST 26.2.5)", placement["hex"], code="ost-aircraft-facing"))
    return out


def _casualty_points(doc, side, where, u, unit, counts_casualties):
    """An OOB line's casualty points are its type's value (1.6, 000 L202-214): full strength, or reduced where the
    type has a reduced value."""
    entry = utype(doc, unit)
    if entry is None or "casualty_points" not in entry:
        return []
    values = entry["casualty_points"] if isinstance(entry["casualty_points"], list) else [entry["casualty_points"]]
    worth = f"{values[0]}" + (f" ({', '.join(str(v) for v in values[1:])} reduced)" if len(values) > 1 else "")
    given = unit.get("casualty_points")
    if given is None:
        if not counts_casualties:
            return []
        return [warning(f"{where}.oob[{u}].casualty_points", f"{_line(side, u)} gives no casualty points, and a "
                        f"victory condition counts them: a {entry['name']} is worth {worth} (OST 1.6)",
                        code="ost-casualty-points")]
    if given in values:
        return []
    return [error(f"{where}.oob[{u}].casualty_points", f"{_line(side, u)} is worth {given} casualty points, but a "
                  f"{entry['name']} is worth {worth} (OST 1.6)", code="ost-casualty-points")]


def _casualty_condition(condition):
    if not condition:
        return False
    if condition["kind"] in ("and", "or"):
        return any(_casualty_condition(c) for c in condition["conditions"])
    return condition["kind"] == "casualties"


def _markers(doc, board):
    found = []
    counts = {}
    catalogue = board.catalogue
    for m, marker in enumerate(doc.data["markers"]):
        ref, kind = marker["hex"], marker["kind"]
        entry = catalogue.terrain.get(kind) or {}
        name = entry.get("name", kind)
        if kind not in ("smoke", "smoke2", "wreck", "control"):
            counts.setdefault(ref, []).append(name)
            if len(counts[ref]) == 2:
                found.append(error(f"markers[{m}]", f"{' and '.join(counts[ref])} markers in {ref}: at most 1 "
                                   "battlefield marker per hex, smoke aside (OST 13.0)", ref,
                                   code="ost-markers-per-hex"))
        if kind in ("mines",) and marker["side"] is None:
            found.append(warning(f"markers[{m}].side", f"say which side the {name} in {ref} belong to: a side "
                                 "records its hidden mines on paper (OST 21.0.1)", ref, code="ost-mines-owner"))
    return found + placing.markers(doc, board, "ost-fortification-terrain", "ost-pillbox-facing")


def summary(doc, out):
    """OST's numbers in the summary: each side's casualty points in its OOB."""
    for side in doc.data["sides"]:
        out["sides"][side["id"]]["casualty_points"] = casualty_points(side)


def casualty_points(side):
    """The casualty points of a side's OOB (the summary and the card show them)."""
    return sum(u["count"] * (u.get("casualty_points") or 0) for u in side["oob"])
