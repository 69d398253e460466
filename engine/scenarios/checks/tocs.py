"""TOCS's scenario checks (tocs.md section 12)."""

from engine import rulesets
from engine.scenarios.checks.common import _line, _unit_name, error, kind_of, stacks, utype, warning

TOCS_COMBAT = ("company", "vehicle-platoon", "battery")  # four of these, and four assets, per hex (TOCS L169)


def check_tocs(doc, board):
    found = []
    data = doc.data
    perimeter = data["perimeter"]
    owner = {}
    if perimeter is None:
        found.append(error("perimeter", "the initial perimeter is missing: give the owner of every hex (TOCS L31)",
                           code="tocs-perimeter"))
    else:
        for sid, hexes in perimeter.items():
            for ref in hexes:
                owner[ref] = sid
        unowned = [ref for ref in sorted(board.play) if ref not in owner]
        if unowned:
            found.append(warning("perimeter", f"{len(unowned)} hexes belong to nobody (e.g. {', '.join(unowned[:5])}): "
                                              "only a meeting engagement has a no man's land (TOCS L35)", unowned[0],
                                 code="tocs-no-mans-land"))
    for s, side in enumerate(data["sides"]):
        where = f"sides[{s}]"
        units = doc.units(side)
        for p, placement in enumerate(side["placements"]):
            unit = units[placement["unit"]]
            ref = placement["hex"]
            if perimeter is not None and owner.get(ref) != side["id"]:
                held = owner.get(ref)
                kind = kind_of(doc, unit)
                severity = error if held is not None else warning
                what = f"owned by {held}" if held else "in no man's land"
                found.append(severity(f"{where}.placements[{p}].hex", f"{_unit_name(unit)} sets up in {ref}, {what}, "
                                      f"outside {side['name']}'s perimeter (TOCS L31)"
                                      + ("; batteries never enter the enemy perimeter" if kind == "battery" else ""),
                                      ref, code="tocs-outside-perimeter"))
        for ref, stack in stacks(side, units).items():
            big = [u for _, u in stack if kind_of(doc, u) in TOCS_COMBAT]
            assets = [u for _, u in stack if kind_of(doc, u) == "asset"]
            if len(big) > 4 or len(assets) > 4:
                found.append(error(f"{where}.placements[{stack[-1][0]}].hex", f"{len(big)} companies, platoons and "
                                   f"batteries and {len(assets)} assets in {ref}: at most 4 of each (TOCS L169)", ref,
                                   code="stacking"))
        ids = {u["id"]: u for u in side["oob"]}
        for u, unit in enumerate(side["oob"]):
            kind = utype(doc, unit)
            most = kind.get("steps") if kind is not None else None
            if unit.get("steps") is not None and most is not None and unit["steps"] > most:
                found.append(error(f"{where}.oob[{u}].steps", f"{_line(side, u)} has {unit['steps']} steps; a "
                                   f"{kind['name']} takes at most {most} ({kind.get('rule') or 'its unit type'})",
                                   code="tocs-steps"))
            said = unit.get("echelon")
            if kind is not None and kind.get("echelon") and said and said != kind["echelon"]:
                found.append(warning(f"{where}.oob[{u}].echelon", f"{_line(side, u)} is a {kind['name']}, of echelon "
                                     f"{kind['echelon']}, but its line says {said}: the type's echelon is used "
                                     "(TOCS L187)", code="tocs-echelon"))
            parent = unit.get("parent")
            if parent is None:
                continue
            if parent not in ids or kind_of(doc, ids[parent]) != "hq":
                found.append(error(f"{where}.oob[{u}].parent", f"{_line(side, u)} reports to {parent!r}, which "
                                   f"is not an HQ of {side['name']} (TOCS L187)", code="tocs-hq-tree"))
                continue
            low, high = tocs_echelon(doc, unit), tocs_echelon(doc, ids[parent])
            if kind is not None and kind["kind"] == "hq" and low is not None and high is not None and low >= high:
                found.append(error(f"{where}.oob[{u}].parent", f"{_line(side, u)} reports to "
                                   f"{_unit_name(ids[parent])}, which is not of a higher echelon: the chain of "
                                   "command runs Army Group, Army, Corps, Division, Brigade/Regiment, Battalion "
                                   "(TOCS L187)", code="tocs-hq-tree"))
            seen, at = {unit["id"]}, parent
            while at is not None and at in ids:
                if at in seen:
                    found.append(error(f"{where}.oob[{u}].parent", f"the HQ chain of {_line(side, u)} "
                                       "loops back on itself (TOCS L187)", code="tocs-hq-tree"))
                    break
                seen.add(at)
                at = ids[at].get("parent")
        if side["fields"].get("op_minimum") is None:
            found.append(warning(f"{where}.fields.op_minimum", f"{side['name']} needs a minimum OP value (TOCS L85)",
                                 code="tocs-side"))
        if not side["brief"]["mission"] or not side["brief"]["intelligence"]:
            found.append(warning(f"{where}.brief", f"{side['name']}'s secret brief needs its mission and intelligence "
                                                   "report (TOCS L57)", code="tocs-brief"))
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
