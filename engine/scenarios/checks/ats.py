"""ATS's scenario checks (ats.md section 9)."""

from engine.scenarios.checks.common import _line, error, stacks, utype, warning

ATS_OVERSTACKING = ("overstacking is allowed, with its penalties: double the usual entry cost for all units in "
                    "the location, and the hex is easier to spot (ATS 5.1.1, 5.4.11, 5.4.12)")


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


def check_ats(doc, board):
    found = []
    data = doc.data
    rules = data["rules"]
    if not rules.get("setup_order") and data["sets_up_first"] is None:
        found.append(warning("rules.setup_order", "no set-up order: the players roll for Initiative and the low "
                                                   "roll chooses (3.5.3)", code="ats-setup-order"))
    for o, overlay in enumerate(rules.get("overlays") or []):
        a, b = doc.resolve(overlay["x"]), doc.resolve(overlay["y"])
        grid = doc.maps[a[0]].grid
        if a[0] != b[0] or grid.distance(a[1:], b[1:]) != 1:
            found.append(error(f"rules.overlays[{o}]", f"overlay {overlay['id']}: X ({overlay['x']}) and Y "
                                                       f"({overlay['y']}) must be adjacent hexes (ATS 3.3.1)",
                               overlay["x"], code="ats-overlay-xy"))
    for s, side in enumerate(data["sides"]):
        where = f"sides[{s}]"
        units = doc.units(side)
        for ref, stack in stacks(side, units).items():
            vehicles, heavy, sp = ats_stack(doc, stack)
            p = stack[-1][0]
            path = f"{where}.placements[{p}].hex"
            for count, what in ((vehicles, "vehicles"), (heavy, "Heavy weapons")):
                if count > 1:
                    found.append(warning(path, f"{count} {what} of {side['name']} in {ref}, over the limit of one "
                                 f"per hex (ATS 5.2.1): {ATS_OVERSTACKING}", ref, code="overstacking"))
            if sp > 12:
                found.append(warning(path, f"{sp} Stacking Points of Personnel of {side['name']} in {ref}, over the "
                                           f"limit of 12 (ATS 5.3.1): {ATS_OVERSTACKING}", ref, code="overstacking"))
        pending = sum(u["count"] for u in side["oob"]) - len(side["placements"]) - sum(
            g["count"] for r in side["reinforcements"] for g in r["units"])
        if pending > 0 and not side["setup_zone"]:
            found.append(error(f"{where}.setup_zone", f"{side['name']} has units to set up but an empty set-up area "
                                                       "(ATS 3.5.4)", code="ats-empty-zone"))
        for u, unit in enumerate(side["oob"]):
            kind = utype(doc, unit)
            if unit["hidden"] and kind is not None and not kind.get("hidden"):
                found.append(warning(f"{where}.oob[{u}].hidden", f"{_line(side, u)} sets up hidden: only Heavy "
                                     "weapons and their manning crews may, unless a special rule allows it (ATS 6.8.1)",
                                     code="ats-hidden"))
    return found
