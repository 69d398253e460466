"""TOCS's scenario checks, by the TOCS rules text: its section where the text numbers one ("TOCS 10.9"), else the
line of the rules text ("TOCS L362" is line 362 of the rulebook seed 004), as docs/scenarios.md lists them.

The perimeter (who owns each hex), the units inside their own perimeter, stacking, steps and the chain of
command by the units' types (engine/games/tocs/catalogue.json, ``unit_types``), improved positions and minefields
in their side's own perimeter, objectives first owned by their hex's owner, and each side's secret brief."""

from engine import rulesets
from engine.scenarios.checks.common import _unit_name, error, kind_of, utype, warning

TOCS_COMBAT = ("company", "vehicle-platoon", "battery")  # four of these, and four assets, per hex (TOCS L169)

# Markers a side has only inside its own perimeter, with the rule that says so: an improved position exists only
# while its hex is friendly (TOCS 10.9, L463; a module declares them at setup, L465) and a minefield is laid
# within the friendly perimeter (TOCS 10.11, L475, removed from there, L481). A roadblock is created in a hex
# within the friendly perimeter (L467), but nothing removes it when the hex changes hands: one set up in the enemy's
# perimeter is a warning. A fort is the map's (L862) and is not checked.
IMPROVED = "an improved position exists only while its hex is friendly (TOCS 10.9, L463, L465)"
OWN_GROUND = {
    "entrenched": (IMPROVED, error), "strongpoint": (IMPROVED, error), "fortified-area": (IMPROVED, error),
    "minefield": ("a side lays its minefields within its own perimeter (TOCS 10.11, L475, L481)", error),
    "roadblock": ("a roadblock is created in a hex within the friendly perimeter (TOCS L467); check that the "
                  "scenario means it", warning),
}

CHAIN = ("the chain of command runs, in decreasing order, Army Group, Army, Corps, Division, Brigade/Regiment, "
         "Battalion (TOCS L187)")


def check(doc, board):
    data = doc.data
    owner = perimeter_owners(data)
    found = _perimeter(doc, board, owner)
    for s, side in enumerate(data["sides"]):
        found += _placements(doc, s, side, owner)
        found += _stacking(doc, s, side)
        found += _steps(doc, s, side)
        found += _chain_of_command(doc, s, side, doc.data["sides"])
        if not side["brief"]["mission"] or not side["brief"]["intelligence"]:
            found.append(warning(f"sides[{s}].brief", f"{side['name']}'s secret Mission Brief needs its mission and "
                                                      "its Intelligence Report (TOCS L149, L155)", code="tocs-brief"))
    found += _own_ground(doc, board, owner)
    found += _objective_owners(doc, owner)
    return found


def perimeter_owners(data):
    """hex -> the id of the side that owns it at the start; None when the scenario has no perimeter."""
    if data["perimeter"] is None:
        return None
    return {ref: sid for sid, hexes in data["perimeter"].items() for ref in hexes}


def meeting_engagement(data):
    return bool((data.get("rules") or {}).get("meeting_engagement"))


def side_name(data, sid):
    return next((s["name"] for s in data["sides"] if s["id"] == sid), sid)


def label(side, index):
    """How a message names an OOB line: "A/1/505 (Company, Allied OOB line 2)", or "Company (Allied OOB line 2)"
    for a line without a name of its own."""
    unit = side["oob"][index]
    where = f"{side['name']} OOB line {index + 1}"
    return f"{unit['name']} ({unit['unit']}, {where})" if unit["name"] else f"{unit['unit']} ({where})"


def _perimeter(doc, board, owner):
    """Every hex owned by one side (TOCS L29, L362); hexes owned by nobody only in a meeting engagement (L11, L35)."""
    if owner is None:
        return [error("perimeter", "the initial perimeter is missing: every hex is owned by one side at the start "
                                   "(TOCS L362)", code="tocs-perimeter")]
    unowned = sorted(ref for ref in board.play if ref not in owner)
    if not unowned or meeting_engagement(doc.data):
        return []
    shown = ", ".join(unowned[:5]) + (", ..." if len(unowned) > 5 else "")
    return [warning("perimeter", f"{len(unowned)} hexes belong to no side ({shown}): every hex must be owned by one "
                                 "of the players (TOCS L362); only a meeting engagement has a no man's land "
                                 "(TOCS L35): give these hexes an owner, or mark the scenario a meeting engagement "
                                 "(rules.meeting_engagement)", unowned[0], code="tocs-no-mans-land")]


def _placements(doc, s, side, owner):
    """A side's units set up inside its own perimeter (TOCS L360); batteries never enter the enemy's (L374)."""
    if owner is None:
        return []
    found = []
    index = {u["id"]: n for n, u in enumerate(side["oob"])}
    for p, placement in enumerate(side["placements"]):
        ref = placement["hex"]
        if placement.get("off_map") or owner.get(ref) == side["id"]:
            continue
        n = index[placement["unit"]]
        held = owner.get(ref)
        where = f"in {side_name(doc.data, held)}'s perimeter" if held else "in a hex no side owns"
        battery = kind_of(doc, side["oob"][n]) == "battery" and held
        found.append(error(f"sides[{s}].placements[{p}].hex", f"{label(side, n)} sets up in {ref}, {where}, outside "
                           f"{side['name']}'s perimeter: all friendly units are within their friendly perimeter "
                           "(TOCS L360)" + ("; batteries never enter the enemy perimeter (TOCS L374)" if battery
                                            else ""), ref, code="tocs-outside-perimeter"))
    return found


def _stacking(doc, s, side):
    """At most four companies, vehicle platoons or batteries and four assets per hex; HQs are free (TOCS L169)."""
    found = []
    units = doc.units(side)
    here = {}
    for p, placement in enumerate(side["placements"]):
        if not placement.get("off_map"):
            here.setdefault(placement["hex"], []).append((p, units[placement["unit"]]))
    for ref, stack in here.items():
        big = [u for _, u in stack if kind_of(doc, u) in TOCS_COMBAT]
        assets = [u for _, u in stack if kind_of(doc, u) == "asset"]
        if len(big) > 4 or len(assets) > 4:
            over = big if len(big) > 4 else assets
            names = ", ".join(_unit_name(u) for u in over[:6]) + (", ..." if len(over) > 6 else "")
            counted = (f"{len(big)} companies, vehicle platoons and batteries" if len(big) > 4
                       else f"{len(assets)} assets")
            found.append(error(f"sides[{s}].placements[{stack[-1][0]}].hex",
                               f"{side['name']} stacks {counted} in {ref} ({names}): at most four companies, "
                               "vehicle platoons or batteries and four assets per hex, HQs aside (TOCS L169)", ref,
                               code="stacking"))
    return found


def _steps(doc, s, side):
    """A line's steps are its type's (companies 4, vehicle platoons 2, batteries 2, HQs by echelon: TOCS L207,
    L211, L213, L189-193); a placement's steps lost leave it at least one (a unit at its maximum is dead, L179)."""
    found = []
    index = {u["id"]: n for n, u in enumerate(side["oob"])}
    for u, unit in enumerate(side["oob"]):
        kind = utype(doc, unit)
        most = kind.get("steps") if kind is not None else None
        said = unit.get("steps")
        if said is None or most is None or said == most:
            continue
        rule = kind.get("rule") or "its unit type"
        if said > most:
            found.append(error(f"sides[{s}].oob[{u}].steps", f"{label(side, u)} has {said} steps; "
                               f"{article(kind['name'])} takes at most {most} ({rule})", code="tocs-steps"))
        else:
            found.append(warning(f"sides[{s}].oob[{u}].steps", f"{label(side, u)} has {said} steps; "
                                 f"{article(kind['name'])} has {most} ({rule}): a unit that starts with losses gives "
                                 "its placement's steps_lost, and a smaller unit (a half-company, TOCS L521) a unit "
                                 "type of its own", code="tocs-steps"))
    for p, placement in enumerate(side["placements"]):
        lost = placement.get("steps_lost")
        if not isinstance(lost, int) or not lost:
            continue
        n = index[placement["unit"]]
        unit = side["oob"][n]
        kind = utype(doc, unit)
        steps = unit.get("steps") if unit.get("steps") is not None else (kind or {}).get("steps")
        if steps is not None and lost >= steps:
            found.append(error(f"sides[{s}].placements[{p}].steps_lost", f"{label(side, n)} sets up in "
                               f"{placement['hex']} with {lost} of its {steps} steps lost: a unit that has taken its "
                               "maximum is destroyed and goes to the dead pile (TOCS L179)", placement["hex"],
                               code="tocs-steps"))
    return found


def article(name):
    """"an Asset", "a Company": the article a name takes."""
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _chain_of_command(doc, s, side, sides):
    """Units report to an HQ of their side (TOCS L203); an HQ to one of a higher echelon (L187); no loops."""
    found = []
    echelons = rulesets.get(doc.ruleset).echelons
    index = {u["id"]: n for n, u in enumerate(side["oob"])}
    for u, unit in enumerate(side["oob"]):
        kind = utype(doc, unit)
        said = unit.get("echelon")
        if kind is not None and kind.get("echelon") and said and said != kind["echelon"]:
            found.append(warning(f"sides[{s}].oob[{u}].echelon", f"{label(side, u)} is a {kind['name']}, of echelon "
                                 f"{kind['echelon']}, but its line says {said}: the type's echelon is used "
                                 "(TOCS L187)", code="tocs-echelon"))
        elif kind is not None and kind["kind"] == "hq" and tocs_echelon(doc, unit) is None:
            found.append(warning(f"sides[{s}].oob[{u}].echelon", f"{label(side, u)} is an HQ of no echelon TOCS names "
                                 f"({', '.join(echelons)}): its place in the chain of command is not checked "
                                 "(TOCS L187)", code="tocs-echelon"))
        parent = unit.get("parent")
        if parent is None or parent == unit["id"]:
            continue
        path = f"sides[{s}].oob[{u}].parent"
        if parent not in index:
            other = next((o for o in sides if o is not side and any(x["id"] == parent for x in o["oob"])), None)
            what = f"a unit of {other['name']}" if other else f"not in {side['name']}'s OOB"
            found.append(error(path, f"{label(side, u)} reports to {parent!r}, {what}: a unit reports to its parent "
                                     f"HQ in its own side's OOB (TOCS L203)", code="tocs-hq-tree"))
            continue
        p = index[parent]
        above = side["oob"][p]
        if kind_of(doc, above) not in ("hq", None):
            found.append(error(path, f"{label(side, u)} reports to {label(side, p)}, which is not an HQ: units "
                                     "report to their parent HQ (TOCS L187, L203)", code="tocs-hq-tree"))
            continue
        low, high = tocs_echelon(doc, unit), tocs_echelon(doc, above)
        if kind is not None and kind["kind"] == "hq" and low is not None and high is not None and low >= high:
            found.append(error(path, f"{label(side, u)}, {_echelon_name(doc, unit)}, reports to {label(side, p)}, "
                                     f"{_echelon_name(doc, above)}, which is not of a higher echelon: {CHAIN}",
                               code="tocs-hq-tree"))
    found += _loops(s, side, index)
    return found


def _loops(s, side, index):
    """Each loop in a side's chain of command once, named by its units, at the first of its lines."""
    found, done = [], set()
    for u in range(len(side["oob"])):
        walk, on_walk, at = [], set(), u
        while at is not None and at not in on_walk and at not in done:
            walk.append(at)
            on_walk.add(at)
            parent = side["oob"][at].get("parent")
            at = index.get(parent) if parent is not None else None
        done |= on_walk
        if at is None or at not in on_walk:
            continue
        loop = walk[walk.index(at):]
        first = min(loop)
        start = loop.index(first)
        loop = loop[start:] + loop[:start]
        if len(loop) == 1:
            message = f"{label(side, first)} reports to itself: {CHAIN}"
        else:
            chain = " → ".join(side["oob"][n]["name"] or side["oob"][n]["unit"] for n in loop + [first])
            message = f"the chain of command of {side['name']} loops back on itself ({chain}): {CHAIN}"
        found.append(error(f"sides[{s}].oob[{first}].parent", message, code="tocs-hq-tree"))
    return found


def _echelon_name(doc, unit):
    entry = utype(doc, unit)
    name = (entry or {}).get("echelon") or unit.get("echelon")
    return f"a {name.replace('-', ' ')} HQ" if name else "an HQ of no echelon"


def _own_ground(doc, board, owner):
    """A side's improved positions and minefields lie inside its own perimeter (OWN_GROUND). A marker of no side
    is whoever holds the hex's, and is not checked."""
    if owner is None:
        return []
    found = []
    for m, marker in enumerate(doc.data["markers"]):
        sid, ref, (why, finding) = marker.get("side"), marker["hex"], OWN_GROUND.get(marker["kind"], (None, None))
        if why is None or sid is None or owner.get(ref) == sid:
            continue
        entry = board.catalogue.terrain.get(marker["kind"]) or {}
        held = owner.get(ref)
        where = f"in {side_name(doc.data, held)}'s perimeter" if held else "in a hex no side owns"
        found.append(finding(f"markers[{m}].hex", f"{side_name(doc.data, sid)}'s {entry.get('name') or marker['kind']} "
                                                  f"marker in {ref} lies {where}, outside its own: {why}", ref,
                             code="tocs-own-ground"))
    return found


def _objective_owners(doc, owner):
    """An objective's first owner is its hex's owner: the perimeter says who owns each hex (TOCS L29, L362). An
    objective of no owner takes its hex's and is not checked."""
    if owner is None:
        return []
    found = []
    for o, objective in enumerate(doc.data["objectives"]):
        first, ref = objective.get("owner"), objective["hex"]
        if first is None or owner.get(ref) == first:
            continue
        held = owner.get(ref)
        where = f"in {side_name(doc.data, held)}'s perimeter" if held else "in a hex no side owns"
        found.append(error(f"objectives[{o}].owner", f"objective {objective['name'] or objective['id']} in {ref} is "
                                                     f"first owned by {side_name(doc.data, first)}, but its hex is "
                                                     f"{where}: the perimeter says who owns each hex (TOCS L29, L362)",
                           ref, code="tocs-objective-owner"))
    return found


def tocs_echelon(doc, unit):
    """An HQ's place in the chain of command (0 for the lowest echelon), from its type's echelon, else the OOB
    line's own ``echelon``; None when neither names one of the game's echelons. Brigade and regiment stand level
    (TOCS L187: "Brigade/Regiment")."""
    echelons = rulesets.get(doc.ruleset).echelons
    entry = utype(doc, unit)
    name = (entry or {}).get("echelon") or unit.get("echelon")
    if name not in echelons:
        return None
    rank = echelons.index(name)
    if name == "brigade" and "regiment" in echelons:
        rank = echelons.index("regiment")
    return rank
