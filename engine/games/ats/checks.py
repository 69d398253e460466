"""ATS's scenario checks, by the Advanced Tobruk System rulebook's own sections (docs/scenarios.md, "Checks").

What a terrain or an emplacement allows at set-up is catalogue data (engine/games/ats/catalogue.json; the keys in
docs/rulesets/catalogues.md, "Set-up data"): its column shift for hidden set-up, a hard stacking limit, where it
may be placed (``placing``) and, by its ``kinds``, whether a hex holds only one."""

from engine.scenarios import terrain_rules
from engine.scenarios.checks import placing
from engine.scenarios.checks.common import _line, error, utype, warning

ATS_OVERSTACKING = ("overstacking is allowed, with its penalties: double the usual entry cost for all units in "
                    "the location, and the hex is easier to spot (ATS 5.1.1, 5.4.11, 5.4.12)")
LOCATION_POINTS = 12  # Stacking Points of Personnel in one location before it is overstacked (5.3.1)
WEAPON_KINDS = ("heavy-weapon", "medium-weapon")
KIND_NAMES = {"heavy-weapon": "Heavy weapon", "medium-weapon": "Medium weapon", "light-weapon": "Light weapon"}


def ats_stack(doc, stack):
    """(vehicles, heavy weapons, personnel stacking points) of one side's stack, by the units' types: vehicles and
    Heavy weapons one of each per hex (5.2.1); Personnel by their Stacking Points (5.3.1), leaving out one crew
    for each Heavy weapon, which mans it (5.3.11); L and M weapons count nothing (5.3.21). Untyped units are left
    out (a finding says so)."""
    types = [t for t in (utype(doc, u) for _, u in stack) if t is not None]
    vehicles = sum(1 for t in types if t["kind"] == "vehicle")
    heavy = sum(1 for t in types if t["kind"] == "heavy-weapon")
    manning = heavy
    points = 0
    for t in types:
        if t["kind"] in ("vehicle", "heavy-weapon"):
            continue
        if t["kind"] == "crew" and manning:
            manning -= 1
            continue
        points += t.get("stacking") or 0
    return vehicles, heavy, points


def check(doc, board):
    data = doc.data
    found = _setup_order(doc)
    for o, overlay in enumerate(data["rules"].get("overlays") or []):
        a, b = doc.resolve(overlay["x"]), doc.resolve(overlay["y"])
        grid = doc.maps[a[0]].grid
        if a[0] != b[0] or grid.distance(a[1:], b[1:]) != 1:
            found.append(error(f"rules.overlays[{o}]", f"overlay {overlay['id']}: X ({overlay['x']}) and Y "
                                                       f"({overlay['y']}) must be adjacent hexes (ATS 3.3.1)",
                               overlay["x"], code="ats-overlay-xy"))
    markers = _markers(doc, board)
    for s, side in enumerate(data["sides"]):
        where = f"sides[{s}]"
        stacks = _stacks(doc, side)
        for ref, stack in stacks.items():
            found.extend(_stacking(doc, board, side, where, ref, stack, markers.get(ref, ())))
            found.extend(_hidden_here(doc, board, side, where, ref, stack, markers.get(ref, ())))
        pending = sum(u["count"] for u in side["oob"]) - len(side["placements"]) - sum(
            g["count"] for r in side["reinforcements"] for g in r["units"])
        if pending > 0 and not side["setup_zone"]:
            found.append(error(f"{where}.setup_zone", f"{side['name']} has units to set up but an empty set-up area "
                                                       "(ATS 3.5.4)", code="ats-empty-zone"))
        for u, unit in enumerate(side["oob"]):
            kind = utype(doc, unit)
            if unit["hidden"] and kind is not None and not kind.get("hidden") and kind["kind"] != "leader":
                found.append(_not_hidden(doc)(f"{where}.oob[{u}].hidden", f"{_line(side, u)} sets up hidden: only "
                                              "Heavy weapons, their manning crews and leaders stacked with them may, "
                                              f"{_unless(doc)} (ATS 6.8.1)", code="ats-hidden"))
    found.extend(_emplacements(doc, board, markers))
    found.extend(placing.markers(doc, board, "ats-emplacement-terrain"))
    found.extend(_control(doc))
    return found


# -- who sets up first (3.5.3) ---------------------------------------------------------------------------------

def _entering(side):
    """A side all of whose units enter play from off map: none set up on the map, every one arriving."""
    total = sum(u["count"] for u in side["oob"])
    on_map = [p for p in side["placements"] if not p.get("off_map")]
    arriving = sum(g["count"] for r in side["reinforcements"] for g in r["units"])
    return total > 0 and not on_map and arriving >= total


def _setup_order(doc):
    data = doc.data
    sides = data["sides"]
    names = {s["id"]: s["name"] for s in sides}
    order = data["rules"].get("setup_order") or []
    first = data["sets_up_first"]
    entering = [s for s in sides if _entering(s)]
    staying = [s for s in sides if not _entering(s)]
    found = []
    if order and first is not None and order[0] != first:
        found.append(warning("rules.setup_order", f"the set-up order starts with {names.get(order[0], order[0])}, "
                                                  f"but {names.get(first, first)} is given as setting up first "
                                                  "(ATS 3.5.3)", code="ats-setup-order"))
    if entering and len(staying) == 1:
        them, us = staying[0], {s["id"] for s in entering}
        for path, sid, said in (("sets_up_first", first, "is given as setting up first"),
                                ("rules.setup_order", order[0] if order else None, "comes first in the set-up order")):
            if sid in us:
                found.append(warning(path, f"{names[sid]} {said}, but all its units enter from off map: "
                                           f"{them['name']}, who does not enter, sets up first (ATS 3.5.3), unless a "
                                           "special rule says otherwise", code="ats-setup-order"))
    elif not order and first is None:
        found.append(warning("rules.setup_order", "no set-up order: the players roll for Initiative and the low "
                                                  "roll chooses (ATS 3.5.3)", code="ats-setup-order"))
    return found


# -- stacking (5, 8.3.131, 9.3.3, 9.4.3, 9.9.3, 9.10.3) --------------------------------------------------------

def _stacks(doc, side):
    """hex -> [(placement index, unit, OOB index)] of one side's units on the map (off-map ones are not stacked)."""
    units = doc.units(side)
    line = {u["id"]: i for i, u in enumerate(side["oob"])}
    out = {}
    for p, placement in enumerate(side["placements"]):
        if placement.get("off_map"):
            continue
        unit = units[placement["unit"]]
        out.setdefault(placement["hex"], []).append((p, unit, line[unit["id"]]))
    return out


def _markers(doc, board):
    """hex -> [(marker index, marker, catalogue entry)] for the markers of the ruleset's catalogue."""
    out = {}
    for m, marker in enumerate(doc.data["markers"]):
        entry = board.catalogue.terrain.get(marker["kind"])
        if entry is not None:
            out.setdefault(marker["hex"], []).append((m, marker, entry))
    return out


def _cell(doc, board, ref):
    key, col, row = doc.resolve(ref)
    return board.cells[key].get((col, row)) or doc.maps[key].default_cell()


def _hex_limits(board, ref):
    """The hard-limited locations of a hex's own terrain (a steeple): [(entry, limit)]."""
    out = []
    for tid in board.terrain(ref):
        entry = board.catalogue.terrain.get(tid)
        if entry is not None and entry.get("stacking_limit"):
            out.append((entry, entry["stacking_limit"]))
    return out


def _stacking(doc, board, side, where, ref, stack, markers):
    found = []
    vehicles, heavy, sp = ats_stack(doc, [(p, u) for p, u, _ in stack])
    path = f"{where}.placements[{stack[-1][0]}].hex"
    never = [e for e in [board.catalogue.terrain.get(t) for t in board.terrain(ref)] + [e for _, _, e in markers]
             if e is not None and e.get("never_overstacked")]
    if never:  # a Pontoon Bridge: the penalties do not apply, it may not be overstacked at all
        finding, penalty = error, f"a {never[0]['name']} may never be overstacked ({never[0]['never_overstacked']})"
    else:
        finding, penalty = warning, ATS_OVERSTACKING
    for count, what, kind in ((vehicles, "vehicles", "vehicle"), (heavy, "Heavy weapons", "heavy-weapon")):
        if count > 1:
            these = _holding([e for e in stack if (utype(doc, e[1]) or {}).get("kind") == kind], doc, side)
            found.append(finding(path, f"{count} {what} of {side['name']} in {ref} ({these}), over the limit of one "
                                       f"per hex (ATS 5.2.1): {penalty}", ref, code="overstacking"))
    storeys = max(1, _cell(doc, board, ref).storeys)
    fixed = _hex_limits(board, ref)
    room = LOCATION_POINTS * storeys + sum(limit["points"] for _, limit in fixed)
    if sp > room:
        limit_text = f"the limit of {LOCATION_POINTS} a location (ATS 5.3.1)"
        if room != LOCATION_POINTS:
            levels = f"each of its {storeys} building levels" if storeys > 1 else "its ground level"
            limit_text = (f"the {room} its locations hold: {LOCATION_POINTS} in {levels} (ATS 5.1.2, 5.3.1)" + "".join(
                              f" and {limit['points']} in its {entry['name']} ({limit['rule']})"
                              for entry, limit in fixed))
        if fixed and not never:  # the steeple itself is never overstacked: only the other locations may be
            names = " and ".join(entry["name"] for entry, _ in fixed)
            penalty = (f"its {names} may not be overstacked, but its other locations may, with the penalties: "
                       + ATS_OVERSTACKING.split(": ", 1)[1])
        found.append(finding(path, f"{sp} Stacking Points of Personnel of {side['name']} in {ref}, over {limit_text}: "
                                   f"{penalty}", ref, code="overstacking"))
    for entry, limit in fixed:  # a steeple: its Personnel beyond its limit are in the building's other levels
        if sp > limit["points"]:
            found.append(warning(path, f"{sp} Stacking Points of Personnel of {side['name']} in {ref} do not all fit "
                                       f"in its {entry['name']}: {_capacity(entry, limit)} ({limit['rule']}); the "
                                       "others set up in the hex's other locations", ref, code="ats-stacking-limit"))
    for _, marker, entry in markers:
        limit = entry.get("stacking_limit")
        if not limit or marker.get("side") not in (None, side["id"]):
            continue
        if not _fits(doc, [u for _, u, _ in stack], limit, marker["count"]):
            found.append(warning(path, f"{_holding(stack, doc, side)} of {side['name']} in {ref} do not all fit in "
                                       f"its {_count(marker['count'], entry['name'])}: {_capacity(entry, limit)} "
                                       f"({limit['rule']}); the others set up on top of it, in the hex's other "
                                       "terrain", ref, code="ats-stacking-limit"))
    return found


def _fits(doc, units, limit, count):
    """Whether the units fit in ``count`` emplacements of this limit: each holds one unit of a kind in ``or_one``
    (a weapon with one crew to man it) or Personnel of at most ``points`` Stacking Points, with their Light and
    Medium weapons, which count nothing (5.3.21)."""
    or_one = limit.get("or_one") or ()
    kinds = [utype(doc, u) or {} for u in units]
    items = [k for k in kinds if k.get("kind") in or_one]
    rest = [k for k in kinds if k.get("kind") not in or_one]
    if any(k.get("kind") in ("vehicle", "heavy-weapon") for k in rest):
        return False  # a vehicle or Heavy weapon this emplacement holds none of
    manned = sum(1 for k in items if k["kind"] in WEAPON_KINDS)
    points = 0
    for k in rest:
        if k.get("kind") == "crew" and manned:
            manned -= 1
            continue
        points += k.get("stacking") or 0
    free = count - len(items)
    return free >= 0 and points <= free * limit["points"]


def _capacity(entry, limit):
    kinds = {"heavy-weapon": "one Heavy weapon with its crew", "medium-weapon": "one Medium weapon with its crew",
             "vehicle": "one vehicle"}
    alternatives = [kinds.get(k, k) for k in limit.get("or_one") or ()]
    if "heavy-weapon" in (limit.get("or_one") or ()) and "medium-weapon" in (limit.get("or_one") or ()):
        alternatives = ["one Heavy or Medium weapon with its crew"]
    alternatives.append(f"Personnel of at most {limit['points']} Stacking Points")
    return f"a {entry['name']} holds {' or '.join(alternatives)}, and may not be overstacked"


def _holding(stack, doc, side):
    """The units of a stack as a designer names them, one OOB line once: "Para squad (British OOB line 1) x2"."""
    counts = {}
    for _, _, i in stack:
        counts[i] = counts.get(i, 0) + 1
    return _words([_line(side, i) + (f" x{n}" if n > 1 else "") for i, n in counts.items()])


def _count(n, name):
    return name if n == 1 else f"{n} {name}s"


# -- hidden set-up (6.8.1, 6.8.11, 9.10.2) ---------------------------------------------------------------------

def _hidden_here(doc, board, side, where, ref, stack, markers):
    """Hidden units placed in one hex: the right units (6.8.1), in terrain that allows it (6.8.11), or in a
    Weapons Pit that lets them hide anywhere (9.10.2), which must then hold them (9.10.3)."""
    hidden = [(p, u, i) for p, u, i in stack if u["hidden"]]
    if not hidden:
        return []
    found = []
    kinds = {u["id"]: (utype(doc, u) or {}).get("kind") for _, u, _ in stack}
    guns = [u for _, u, _ in hidden if kinds[u["id"]] == "heavy-weapon"]
    if not guns:
        for p, unit, i in hidden:
            if kinds[unit["id"]] in ("crew", "leader"):
                found.append(_not_hidden(doc)(f"{where}.placements[{p}].hex", f"{_line(side, i)} sets up hidden in "
                                              f"{ref} with no hidden Heavy weapon: only Heavy weapons, their manning "
                                              "crews and leaders stacked with them may, "
                                              f"{_unless(doc)} (ATS 6.8.1)", ref, code="ats-hidden"))
    elif any(kinds[u["id"]] == "crew" for _, u, _ in stack) and not any(
            kinds[u["id"]] == "crew" for _, u, _ in hidden):
        found.append(warning(f"{where}.placements[{hidden[0][0]}].hex", f"{guns[0]['unit']} of {side['name']} sets "
                             f"up hidden in {ref} but its crew there does not: a hidden weapon's manning crew is "
                             "not set up on the map either (ATS 6.8.1)", ref, code="ats-hidden"))
    pits = [(marker, entry) for _, marker, entry in markers
            if entry.get("hidden_anywhere") and marker.get("side") in (None, side["id"])]
    verdict = _hiding_terrain(doc, board, ref)
    for p, unit, i in hidden:
        kind = (utype(doc, unit) or {}).get("kind")
        barred = [e for e in verdict["entries"] if kind in (e.get("hidden_barred") or {}).get("kinds", ())]
        if verdict["ok"] and not barred:
            continue
        if pits:
            continue  # in the Weapons Pit (9.10.2): its capacity is checked below
        path = f"{where}.placements[{p}].hex"
        if barred:
            rule = barred[0]["hidden_barred"]["rule"]
            found.append(error(path, f"{_line(side, i)} sets up hidden in {ref}, {barred[0]['name']}, where a "
                                     f"{KIND_NAMES.get(kind, kind)} may not set up hidden ({rule})", ref,
                               code="ats-hidden-terrain"))
        else:
            fix = ""
            if kind == "heavy-weapon":
                fix = ("; in a Weapons Pit it could (9.10.2): place one there (a side given none may add one for each "
                       "Heavy weapon in a non-desert scenario, 3.5.2 b)")
            found.append(error(path, f"{_line(side, i)} sets up hidden in {ref}, {verdict['names']}: only terrain "
                                     "that gives at least a one column shift left to an LOS traced into or through "
                                     f"it may be used for hidden set-up (ATS 6.8.11){fix}", ref,
                               code="ats-hidden-terrain"))
    limit = pits[0][1].get("stacking_limit") if pits else None
    if pits and not verdict["ok"] and limit:
        count = sum(m["count"] for m, _ in pits)
        name = pits[0][1]["name"]
        if not _fits(doc, [u for _, u, _ in hidden], limit, count):
            found.append(error(f"{where}.placements[{hidden[0][0]}].hex",
                               f"{_holding(hidden, doc, side)} of {side['name']} set up hidden in {ref}, "
                               f"{verdict['names']}, where only its {_count(count, name)} lets them hide (ATS "
                               f"9.10.2), but {_capacity(pits[0][1], limit)} ({limit['rule']})", ref,
                               code="ats-stacking-limit"))
    return found


def _special_hiding(doc):
    """Whether a special rule speaks of hidden set-up (6.8.1: other units may hide "via SSR"). The rule's text is
    the designer's own, so it only softens the finding: an SSR that names hiding makes it a warning to check."""
    texts = [terrain_rules.rule_text(rule).lower() for rule in doc.data["special_rules"]]
    return any("hidden" in text or "hide" in text for text in texts)


def _not_hidden(doc):
    return warning if _special_hiding(doc) else error


def _unless(doc):
    if _special_hiding(doc):
        return "unless a special rule allows it: check that this scenario's does"
    return "unless a special rule allows it, and this scenario has none that speaks of hidden set-up"


def _hiding_terrain(doc, board, ref):
    """Whether the hex's terrain allows hidden set-up: some terrain of the hex gives at least one column shift left
    (its catalogue ``column_shift``), or one whose shift depends on the unit's position (a Linear Depression:
    hidden if down and out of the enemy's sight, 7.3.3), or a Bocage hexside of the hex (6.8.11's exception; which
    side the enemy is on is not checked). A terrain without the datum is not held against the unit."""
    entries = [board.catalogue.terrain.get(t) for t in board.terrain(ref)]
    entries = [e for e in entries if e is not None]
    shifts = [e.get("column_shift") for e in entries]
    ok = any(s is None or s >= 1 for s in shifts) or not entries or _hiding_hexside(doc, board, ref)
    names = " and ".join(e["name"] for e in entries) or "its terrain"
    return {"ok": ok, "entries": entries, "names": names}


def _hiding_hexside(doc, board, ref):
    key, col, row = doc.resolve(ref)
    mdoc = doc.maps[key]
    hexsides = mdoc.resolved()[1]
    for side in range(6):
        tid = hexsides.get(mdoc.grid.hexside(col, row, side))
        entry = board.catalogue.terrain.get(tid) if tid else None
        if entry is not None and entry.get("hidden_anywhere"):
            return True
    return False


# -- emplacements (9.1.4 and each one's set-up restrictions) ---------------------------------------------------

def _emplacements(doc, board, markers):
    """Where each emplacement may be placed (its catalogue ``placing``: 9.1.4 and each one's own rule), and one
    Hedgehog, Bunker, Blockhouse or Foxhole a hex (9.1.4: the entries of kind ``one-per-hex``)."""
    found = []
    catalogue = board.catalogue
    names = {tid: e["name"] for tid, e in catalogue.terrain.items()}
    for ref, here in markers.items():
        single = [(m, marker) for m, marker, entry in here if "one-per-hex" in catalogue.kinds(marker["kind"])]
        if sum(marker["count"] for _, marker in single) > 1:
            there = _words([(f"{marker['count']} " if marker["count"] > 1 else "") + names[marker["kind"]]
                            for _, marker in single])
            which = _words([e["name"] for e in catalogue.terrain.values() if "one-per-hex" in (e.get("kinds") or ())],
                           "or")
            found.append(error(f"markers[{single[-1][0]}].hex", f"{there} markers in {ref}: only one {which} marker "
                                                                 "may be placed in a hex (ATS 9.1.4)", ref,
                               code="ats-emplacement-terrain"))
    return found


def _words(items, last="and"):
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


# -- control of the set-up area (3.5.63a) ----------------------------------------------------------------------

def _control(doc):
    """An objective in exactly one side's set-up area is that side's at the start (3.5.63a): a first owner given as
    another side, or as no one, is warned of."""
    data = doc.data
    names = {s["id"]: s["name"] for s in data["sides"]}
    found = []
    for o, objective in enumerate(data["objectives"]):
        zones = [s for s in data["sides"] if objective["hex"] in s["setup_zone"]]
        if len(zones) != 1 or objective["owner"] == zones[0]["id"]:
            continue
        side = zones[0]
        owner = names.get(objective["owner"], "no one") if objective["owner"] else "no one"
        name = objective["name"] or objective["id"]
        found.append(warning(f"objectives[{o}].owner", f"{name} ({objective['hex']}) is in {side['name']}'s set-up "
                                                       f"area, so {side['name']} controls it from the start (ATS "
                                                       f"3.5.63a), but its first owner is given as {owner}",
                             objective["hex"], code="ats-control"))
    return found
