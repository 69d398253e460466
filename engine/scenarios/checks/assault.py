"""Assault: Sicily '43's scenario checks (assault-sicily.md section 9)."""

from engine.scenarios.checks.common import _points, _unit_name, error, stacks, utype, warning


def check_assault(doc, board):
    found = []
    data = doc.data
    objectives = {o["hex"]: o for o in data["objectives"]}
    for o, objective in enumerate(data["objectives"]):
        for side in data["sides"]:
            if objective["hex"] in side["setup_zone"] and objective["owner"] != side["id"]:
                found.append(error(f"objectives[{o}].owner", f"{objective['name'] or objective['id']} lies in "
                                   f"{side['name']}'s setup area, so {side['name']} controls it first (Assault 5.5)",
                                   objective["hex"], code="assault-objective-owner"))
    for s, side in enumerate(data["sides"]):
        where = f"sides[{s}]"
        units = doc.units(side)
        if not side["victory"]:
            found.append(error(f"{where}.victory", f"{side['name']} has no victory condition; both factions need "
                                                   "them (Assault 3.1)", code="assault-victory"))
        for ref, stack in stacks(side, units).items():
            types = [t for t in (utype(doc, u) for _, u in stack) if t is not None]
            carried = {k for t in types for k in t.get("carries", ())}
            counted = sum(_points(t) for t in types if not (carried and t["kind"] in carried))
            if counted > 1:
                found.append(error(f"{where}.placements[{stack[1][0]}].hex", f"{counted} units in {ref}: one unit "
                                   "per hex, transported units apart (Assault 5.8)", ref, code="stacking"))
        for p, placement in enumerate(side["placements"]):
            unit = units[placement["unit"]]
            ref = placement["hex"]
            if unit["class"] in ("artillery", "wheeled", "tracked") and placement["facing"] is None:
                found.append(error(f"{where}.placements[{p}].facing", f"{_unit_name(unit)} in {ref} needs a facing "
                                   "vertex, 0 to 5: vehicles always face a hex vertex (Assault 9.9)", ref,
                                   code="assault-facing"))
            if unit["class"] == "infantry" and placement["facing"] is not None:
                found.append(warning(f"{where}.placements[{p}].facing",
                                     f"infantry have no facing ({ref}; Assault 9.9)", ref, code="assault-facing"))
            if unit["class"] == "wheeled" and ref in objectives:
                found.append(error(f"{where}.placements[{p}].hex", f"unarmoured vehicles may not be placed on an "
                                   f"objective ({ref}; Assault 9.6)", ref, code="assault-vehicle-objective"))
        fields = side["fields"]
        formations = fields.get("formations") or {}
        available = {}
        for unit in side["oob"]:
            if unit.get("deck") and unit["formation"]:
                available.setdefault(unit["deck"], set()).add(unit["formation"])
        for deck, n in formations.items():
            have = len(available.get(deck, ()))
            need = 2 * n if fields.get("selection") == "draw-and-choose" else n
            if have < need:
                found.append(warning(f"{where}.fields.formations.{deck}", f"{side['name']} takes {n} {deck} "
                                     f"formation{'s' if n != 1 else ''}{' by draw and choose' * (need > n)}, which "
                                     f"needs {need} formation cards; its OOB has {have} (Assault 5.6)",
                                     code="assault-formations"))
        ta = fields.get("ta_oas")
        if ta is not None and ta > 5:
            found.append(error(f"{where}.fields.ta_oas", f"at most 5 TA/OAS cards per player, not {ta} (Assault 12.2)",
                               code="assault-ta-oas"))
        elif ta is not None and formations and ta > sum(formations.values()):
            found.append(warning(f"{where}.fields.ta_oas", f"{ta} TA/OAS cards is more than the "
                                 f"{sum(formations.values())} starting formations (Assault 4.9.3)",
                                 code="assault-ta-oas"))
    smoke = sum(1 for m in data["markers"] if m["kind"] == "smoke")
    mines = [m for m in data["markers"] if m["kind"].startswith("minefield")]
    if mines and not data["rules"].get("minefields"):
        found.append(error("markers", "minefields are placed but the scenario does not enable them (Assault 9.5.9)",
                           mines[0]["hex"], code="assault-minefields"))
    real = sum(1 for m in mines if m["kind"] != "minefield-dummy")
    dummies = len(mines) - real
    if real != dummies:
        found.append(warning("markers", f"{real} real minefields and {dummies} dummies: they come in equal numbers "
                                        "(Assault 9.5.9.1)", code="assault-mine-dummies"))
    if smoke > 30:
        found.append(warning("markers", f"{smoke} smoke markers; the game's counter mix has 30", code="assault-pool"))
    return found
