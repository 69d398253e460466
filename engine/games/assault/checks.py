"""Assault: Sicily '43's scenario checks, each citing the rulebook's section (and, where it helps, the line of its
seed file, 002 Lnnn). docs/scenarios.md ("Checks", Assault) lists them with the decisions taken where the rules
are silent.

What a unit is comes from its OOB line's type (its kind, what it carries, what it may not occupy); a line without
a type is read by its unit class, given what every catalogue type of that class shares. What a marker or a hex is
(a fortification, an obstacle, a minefield, an anti-tank minefield, a building) comes from the catalogue
entries' ``kinds``; a road through a hex from their ``linear``. No id or name is read for what a thing is."""

from engine import rulesets
from engine.scenarios.checks.common import _line, _points, error, utype, warning
from engine.scenarios.victory import KINDS

REGULAR = "regular"  # regular units carry no experience marker (4.2.3): a line with no quality is regular
SMOKE_MARKERS = 30  # the counter mix (1.0, 002 L145)
PER_HEX = {  # markers of a kind one hex may hold
    "smoke": (4, "smoke markers", "a maximum of 4 per hex (Assault 7.2, 002 L659)"),
    "wreck": (1, "wreck markers", "only one wreck marker per hex (Assault 9.5.8.5, 002 L1018)"),
}
TA_OAS_MAX = 5  # 12.2, 002 L2185, L2213


def check(doc, board):
    found = []
    data = doc.data
    found += _objective_owners(data)
    for s, side in enumerate(data["sides"]):
        where = f"sides[{s}]"
        if not side["victory"]:
            found.append(error(f"{where}.victory", f"{side['name']}: no victory condition: the winner is the "
                                                   "player who has fulfilled all of their victory conditions "
                                                   "(Assault 3.1)", code="assault-victory"))
        found += _no_casualty_points(side["victory"], f"{where}.victory", side["name"])
        found += _oob_fields(doc, side, where)
        found += _placements(doc, side, where)
        found += _formations(side, where)
        found += _ta_oas(side, where)
    found += _markers(doc, board)
    return found


# -- what a unit is ----------------------------------------------------------------------------------------------

def what(doc, unit):
    """(kind, carries, barred, may hide) of an OOB line: its type's, or for a line without one what every
    catalogue type of its unit class shares (its kind and barred terrain) and the most any of them carries, so
    that a line left untyped is neither refused a legal transport nor let onto terrain all its class is barred."""
    entry = utype(doc, unit)
    if entry is not None:
        return entry["kind"], set(entry.get("carries", ())), set(entry.get("barred", ())), bool(entry.get("hidden"))
    same = [t for t in rulesets.get(doc.ruleset).unit_types.values() if t.get("class") == unit["class"]]
    if not same:
        return None, set(), set(), False
    kinds = {t["kind"] for t in same}
    barred = set.intersection(*(set(t.get("barred", ())) for t in same))
    return kinds.pop() if len(kinds) == 1 else None, {k for t in same for k in t.get("carries", ())}, barred, False


def _labels(side):
    return {u["id"]: _line(side, i) for i, u in enumerate(side["oob"])}


# -- sides -------------------------------------------------------------------------------------------------------

def _objective_owners(data):
    """An objective in a side's set-up area is that side's from the start (5.5), whatever owner the file gives."""
    found = []
    names = {s["id"]: s["name"] for s in data["sides"]}
    for o, objective in enumerate(data["objectives"]):
        for side in data["sides"]:
            if objective["hex"] in side["setup_zone"] and objective["owner"] != side["id"]:
                given = (f"the scenario gives it to {names.get(objective['owner'], objective['owner'])}"
                         if objective["owner"] else "the scenario gives it to no one")
                found.append(error(f"objectives[{o}].owner", f"{objective['name'] or objective['id']} "
                                   f"({objective['hex']}) lies in the set-up area of {side['name']}, who control it "
                                   f"from the start (Assault 5.5), but {given}: make {side['name']} its first owner",
                                   objective["hex"], code="assault-objective-owner"))
    return found


def _no_casualty_points(condition, path, side_name):
    """Assault scores no casualty points: a side wins by its scenario's victory conditions (3.1), objectives held
    (9.6); a unit's points value is for choosing forces (4.2.1)."""
    if not condition:
        return []
    if condition["kind"] == "casualties":
        return [error(path, f"{side_name}: the victory counts casualty points, which Assault does not have: "
                            "a side wins by the scenario's victory conditions (Assault 3.1), and a unit's points "
                            "value is for choosing forces (Assault 4.2.1); say a casualty rule of the campaign book "
                            "in a text condition", code="assault-no-casualty-points")]
    found = []
    if "conditions" in KINDS[condition["kind"]][0]:
        for i, part in enumerate(condition["conditions"]):
            found += _no_casualty_points(part, f"{path}.conditions[{i}]", side_name)
    return found


def _oob_fields(doc, side, where):
    """OOB fields the format takes that Assault has no use for."""
    found = []
    for u, unit in enumerate(side["oob"]):
        if unit["leader"]:
            found.append(warning(f"{where}.oob[{u}].leader", f"{_line(side, u)} is marked a leader, but Assault "
                                 "has no leaders: units act by activation, or by command points (Assault 4.4, "
                                 "4.9.2); the mark is not used", code="assault-no-leaders"))
        if unit["hidden"] and not what(doc, unit)[3]:
            found.append(warning(f"{where}.oob[{u}].hidden", f"{_line(side, u)} is marked hidden, but Assault "
                                 "units are placed as the scenario shows (Assault 5.8) and hide by a Hide action in "
                                 "play (Assault 9.11); only minefields are placed hidden (Assault 9.5.9.1): keep it "
                                 "only if a special rule of the scenario says so", code="assault-hidden"))
    return found


def _placements(doc, side, where):
    """One unit per hex except transported units (5.8); artillery and vehicles face a vertex (5.8, 9.9); no
    unarmoured vehicle on an objective (4.2.2, 9.6)."""
    found = []
    units = doc.units(side)
    labels = _labels(side)
    objectives = {o["hex"]: o for o in doc.data["objectives"]}
    stacks = {}
    for p, placement in enumerate(side["placements"]):
        if not placement.get("off_map"):
            stacks.setdefault(placement["hex"], []).append((p, units[placement["unit"]]))
    carried_at = set()  # placement indices of transported units
    for ref, stack in stacks.items():
        read = [(p, unit, what(doc, unit)) for p, unit in stack]
        counted = []
        for p, unit, (kind, _, _, _) in read:
            if kind is not None and any(kind in carries for q, _, (_, carries, _, _) in read if q != p):
                carried_at.add(p)
            else:
                counted.append((p, unit))
        points = sum(_points(utype(doc, u) or {}) for _, u in counted)
        if points > 1:
            lines = {}
            for _, u in counted:
                lines[labels[u["id"]]] = lines.get(labels[u["id"]], 0) + 1
            names = _and([f"{n} × {label}" if n > 1 else label for label, n in lines.items()])
            second = counted[min(1, len(counted) - 1)][0]
            found.append(error(f"{where}.placements[{second}].hex", f"{names} set up in {ref}: one unit per hex, "
                               "transported units apart (Assault 5.8, 002 L436)", ref, code="stacking"))
    for p, placement in enumerate(side["placements"]):
        if placement.get("off_map"):
            continue
        unit = units[placement["unit"]]
        ref, facing, label = placement["hex"], placement["facing"], labels[unit["id"]]
        kind, _, barred, _ = what(doc, unit)
        path = f"{where}.placements[{p}]"
        faces = {"vehicle": "vehicles always face a hex vertex, never an edge (Assault 9.9, 002 L1178)",
                 "artillery": "artillery and vehicle units must face a hex vertex (Assault 5.8, 002 L440)"}
        if kind in faces and not (kind == "artillery" and p in carried_at):
            if facing is None:
                found.append(error(f"{path}.facing", f"{label} in {ref} has no facing: give the vertex it faces, "
                                   f"0 to 5; {faces[kind]}", ref, code="assault-facing"))
            elif isinstance(facing, str):
                found.append(error(f"{path}.facing", f"{label} in {ref} faces the {facing} hexside: give the "
                                   f"vertex it faces, 0 to 5; {faces[kind]}", ref, code="assault-facing"))
        elif kind == "infantry" and facing is not None:
            found.append(warning(f"{path}.facing", f"{label} in {ref} is given a facing, but infantry have no "
                                 "facing (Assault 9.7, 002 L1123): it is ignored", ref, code="assault-facing"))
        objective = objectives.get(ref)
        if objective is not None and "objective" in barred:
            found.append(error(f"{path}.hex", f"{label} sets up on the objective "
                               f"{objective['name'] or objective['id']} in {ref}: an unarmoured vehicle cannot "
                               "occupy an objective hex (Assault 4.2.2, 9.6)", ref,
                               code="assault-vehicle-objective"))
    return found


# -- formation cards ---------------------------------------------------------------------------------------------

def _formations(side, where):
    """A formation card gives its units one experience level (4.1); the formations a side starts with are the
    scenario's (5.6), as many as it gives per deck, and a random draw (5.6 method 3) fixes none of them."""
    found = []
    fields = side["fields"]
    labels = [_line(side, i) for i in range(len(side["oob"]))]
    placed = {pl["unit"] for pl in side["placements"]}
    arriving = {g["unit"] for r in side["reinforcements"] for g in r["units"]}
    cards = {}  # formation name -> [OOB index]
    for u, unit in enumerate(side["oob"]):
        if unit["formation"]:
            cards.setdefault(unit["formation"], []).append(u)
    starting = {}  # deck -> [formation name]
    for name, lines in cards.items():
        levels = {}
        for u in lines:
            levels.setdefault(side["oob"][u]["quality"] or REGULAR, []).append(u)
        if len(levels) > 1:
            said = "; ".join(f"{level}: {', '.join(labels[u] for u in us)}" for level, us in levels.items())
            found.append(error(f"{where}.oob[{lines[0]}].quality", f"{side['name']}: formation card {name} gives "
                               f"its units one experience level, but its OOB lines have {len(levels)} ({said}) "
                               "(Assault 4.1, 002 L214); a line with no quality is regular (Assault 4.2.3)",
                               code="assault-formation-level"))
        ids = {side["oob"][u]["id"] for u in lines}
        if ids & placed or not ids & arriving:  # a formation whose units all arrive later is a reinforcement
            deck = next((side["oob"][u].get("deck") for u in lines if side["oob"][u].get("deck")), None)
            starting.setdefault(deck, []).append(name)
    given = fields.get("formations")
    selection = fields.get("selection")
    names = [n for deck in starting.values() for n in deck]
    if selection == "random" and names:
        found.append(error(f"{where}.fields.selection", f"{side['name']}: formations are drawn at random, exactly "
                           "the number listed (Assault 5.6 method 3, 002 L412), so no formation card is known "
                           f"before the game, yet its OOB fixes {_and(names)}: choose free selection (method 1) "
                           "for a fixed force, or leave the formation cards out of the OOB and give their number "
                           "per deck", code="assault-random-draw"))
    elif selection == "draw-and-choose" and names:
        found.append(warning(f"{where}.fields.selection", f"{side['name']}: formations are drawn, twice as "
                             "many as are kept, from the player's own decks (Assault 5.6 method 2), so the "
                             f"formation cards in the OOB ({_and(names)}) are one possible draw, not a fixed force",
                             code="assault-random-draw"))
    if given is not None and selection != "random":
        for deck, listed in starting.items():
            if deck is None:
                continue
            limit = given.get(deck, 0)
            if len(listed) > limit:
                found.append(error(f"{where}.fields.formations.{deck}", f"{side['name']}: the OOB starts with "
                                   f"{_n(len(listed), deck + ' formation card')} ({_and(listed)}), but the scenario "
                                   f"gives {_n(limit, deck + ' formation')}: players take "
                                   "formations up to the scenario's limit (Assault 5.6)",
                                   code="assault-formations"))
    return found


def _n(count, thing):
    return f"{count} {thing}{'s' if count != 1 else ''}"


def _and(names):
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _ta_oas(side, where):
    fields = side["fields"]
    formations = fields.get("formations") or {}
    ta = fields.get("ta_oas")
    if ta is not None and ta > TA_OAS_MAX:
        return [error(f"{where}.fields.ta_oas", f"{side['name']}: {ta} TA/OAS cards; at most {TA_OAS_MAX} per "
                      "player, regardless of formation count (Assault 12.2, 002 L2213)", code="assault-ta-oas")]
    starting = sum(formations.values())
    if ta is not None and formations and ta > starting:
        return [warning(f"{where}.fields.ta_oas", f"{side['name']}: {ta} TA/OAS cards, more than "
                        f"its {_n(starting, 'starting formation card')}: one per starting formation is the "
                        "guideline, more only by the players' agreement (Assault 12.2)", code="assault-ta-oas")]
    return []


# -- markers -----------------------------------------------------------------------------------------------------

def _markers(doc, board):
    """Fortifications and obstacles aligned to a vertex (9.5.7, 9.5.8); minefields only where the scenario
    allows them (4.11), one per hex, none with a fortification or obstacle, no anti-tank mines in a building
    off its road, with as many dummies as real ones (9.5.9.1); at most 4 smoke markers (7.2) and one wreck (9.5.8.5)
    per hex; the smoke counter mix (1.0)."""
    found = []
    data = doc.data
    kinds = board.catalogue.kinds
    name = {tid: board.catalogue.terrain[tid]["name"] for tid in board.catalogue.terrain}
    at = {}  # hex -> [(index, marker, kinds)]
    for m, marker in enumerate(data["markers"]):
        at.setdefault(marker["hex"], []).append((m, marker, set(kinds(marker["kind"]))))
    for m, marker in enumerate(data["markers"]):
        what_it_is = set(kinds(marker["kind"]))
        ref, facing = marker["hex"], marker["facing"]
        rule = ("fortifications are markers aligned to a hex vertex (Assault 9.5.7, 002 L904)"
                if "fortification" in what_it_is else
                "obstacles are markers aligned to a vertex (Assault 9.5.8, 002 L968)"
                if "obstacle" in what_it_is else None)
        if rule and facing is None:
            found.append(error(f"markers[{m}].facing", f"the {name[marker['kind']]} in {ref} has no facing: give "
                               f"the vertex its front faces, 0 to 5; {rule}", ref, code="assault-marker-vertex"))
        elif rule and isinstance(facing, str):
            found.append(error(f"markers[{m}].facing", f"the {name[marker['kind']]} in {ref} faces the {facing} "
                               f"hexside: give the vertex its front faces, 0 to 5; {rule}", ref,
                               code="assault-marker-vertex"))
    mines = [(m, marker) for m, marker in enumerate(data["markers"]) if "minefield" in kinds(marker["kind"])]
    if mines and not data["rules"].get("minefields"):
        found.append(error(f"markers[{mines[0][0]}]", f"a {name[mines[0][1]['kind']]} is placed in "
                           f"{mines[0][1]['hex']}, but the scenario does not allow minefields (Assault 4.11, "
                           "9.5.9)", mines[0][1]["hex"], code="assault-minefields"))
    seen = {}
    for m, marker in mines:
        ref, mine = marker["hex"], name[marker["kind"]]
        seen[ref] = seen.get(ref, 0) + marker["count"]
        if seen[ref] > 1 and seen[ref] - marker["count"] <= 1:
            found.append(error(f"markers[{m}]", f"{seen[ref]} minefield markers in {ref}: only one minefield "
                               "marker per hex, real or dummy (Assault 9.5.9.1, 002 L1051)", ref,
                               code="assault-mines-per-hex"))
        beside = [name[other["kind"]] for _, other, k in at[ref] if k & {"fortification", "obstacle"}]
        beside += [name[t] for t in board.terrain(ref) if set(kinds(t)) & {"fortification", "obstacle"}]
        if beside:
            found.append(error(f"markers[{m}].hex", f"the {mine} in {ref} shares its hex with the {beside[0]}: "
                               "mines may not be placed in hexes with fortifications or obstacles (Assault 9.5.9.1, "
                               "002 L1054)", ref, code="assault-mines-fortification"))
        terrain = board.terrain(ref)
        building = next((t for t in terrain if "building" in kinds(t)), None)
        if "anti-tank" in kinds(marker["kind"]) and building is not None \
                and "along-road" not in board.catalogue.movement_conditions(terrain):
            found.append(error(f"markers[{m}].hex", f"the {mine} in {ref} is in a building ({name[building]}): AT "
                               "mines may not be placed in buildings, only in urban alleys on the road (Assault "
                               "9.5.9.1, 002 L1052)", ref, code="assault-at-mines-building"))
    by_side = {}
    for _, marker in mines:
        real, dummies = by_side.get(marker["side"], (0, 0))
        dummy = "dummy" in kinds(marker["kind"])
        by_side[marker["side"]] = (real + marker["count"] * (not dummy), dummies + marker["count"] * dummy)
    sides = {s["id"]: s["name"] for s in data["sides"]}
    for sid, (real, dummies) in by_side.items():
        if real != dummies:
            whose = f"{sides[sid]}: " if sid in sides else ""
            found.append(warning("markers", f"{whose}{real} real minefield{'s' * (real != 1)} and {dummies} "
                                 f"dumm{'ies' if dummies != 1 else 'y'}: each player takes as many dummy markers as "
                                 "real ones (Assault 9.5.9.1, 002 L1041)", code="assault-mine-dummies"))
    for ref, here in at.items():
        for kind, (most, noun, rule) in PER_HEX.items():
            held = [(m, marker) for m, marker, k in here if kind in k]
            count = sum(marker["count"] for _, marker in held)
            if count > most:
                found.append(error(f"markers[{held[-1][0]}]", f"{count} {noun} in {ref}: {rule}", ref,
                                   code="assault-markers-per-hex"))
    smoke = sum(marker["count"] for marker in data["markers"] if "smoke" in kinds(marker["kind"]))
    if smoke > SMOKE_MARKERS:
        found.append(warning("markers", f"{smoke} smoke markers; the game's counter mix has {SMOKE_MARKERS} "
                                        "(Assault 1.0, 002 L145)", code="assault-pool"))
    return found


def forces_drawn(side):
    """A side whose formation cards are drawn at random before the game (Assault 5.6 method 3, 002 L412): its
    units come from the draw, so an OOB with none is playable when the scenario says how many to draw."""
    fields = side.get("fields") or {}
    return fields.get("selection") == "random" and any((fields.get("formations") or {}).values())


def summary(doc, out):
    """Assault's numbers in the summary: each side's points in its OOB."""
    for side in doc.data["sides"]:
        out["sides"][side["id"]]["points"] = sum(u["count"] * (u.get("points") or 0) for u in side["oob"])
