"""Old School Tactical's scenario checks (its digest, section 9)."""

from engine.scenarios.checks.common import _line, _points, error, kind_of, stacks, utype, warning


def check_ost(doc, board):
    found = []
    for s, side in enumerate(doc.data["sides"]):
        where = f"sides[{s}]"
        fields = side["fields"]
        if "gut_check" not in fields or "impulse" not in fields:
            found.append(warning(f"{where}.fields", f"{side['name']} needs a gut check number and an impulse formula "
                                                    "such as GUT CHECK 7, IMPULSE PTS 2D6+3 (OST 3.1.6)",
                                 code="ost-side-numbers"))
        units = doc.units(side)
        for ref, stack in stacks(side, units).items():
            typed = [t for t in (utype(doc, u) for _, u in stack) if t is not None]
            leaders = sum(_points(t) for t in typed if t["kind"] == "leader")
            others = sum(_points(t) for t in typed if t["kind"] != "leader")
            # a vehicle transporting another unit counts as 1 unit (20.0.3): one unit of a kind it carries may ride
            riders = min(sum(1 for t in typed if t.get("carries")),
                         sum(1 for t in typed if any(t["kind"] in c.get("carries", ()) for c in typed)))
            p = stack[-1][0]
            if others - riders > 2 or leaders > 2:
                found.append(error(f"{where}.placements[{p}].hex", f"{others} units and {leaders} leaders "
                                   f"of {side['name']} in {ref}: at most 2 units and 2 leaders per hex (OST 20.0)",
                                   ref, code="stacking"))
            elif others > 2:
                found.append(warning(f"{where}.placements[{p}].hex", f"{others} units of {side['name']} in {ref}: "
                                     f"at most 2 per hex, unless {others - 2} of them ride in the vehicles there (a "
                                     "vehicle transporting a unit counts as 1 unit, OST 20.0.3)", ref,
                                     code="stacking"))
        for u, unit in enumerate(side["oob"]):
            if kind_of(doc, unit) == "sniper" and not unit["hidden"]:
                found.append(warning(f"{where}.oob[{u}].hidden", f"{_line(side, u)}: snipers start hidden unless the "
                                     "scenario says otherwise (OST 21.0)", code="ost-hidden"))
    counts = {}
    for m, marker in enumerate(doc.data["markers"]):
        ref, kind = marker["hex"], marker["kind"]
        if kind not in ("smoke", "smoke2", "wreck", "control"):
            counts[ref] = counts.get(ref, 0) + 1
            if counts[ref] == 2:
                found.append(error(f"markers[{m}]", f"more than one battlefield marker in {ref} (OST 13.0)", ref,
                                   code="ost-markers-per-hex"))
        if kind in ("bunker", "pillbox"):
            terrain = board.terrain(ref)
            bad = [t for t in terrain if "structure" in t or t in ("ruins", "stream")]
            if bad:
                found.append(error(f"markers[{m}]", f"a {kind} may not be placed in {bad[0]} ({ref}; 13.4.3, 13.5.3)",
                                   ref, code="ost-fortification-terrain"))
        if kind == "pillbox" and marker["facing"] is None:
            found.append(error(f"markers[{m}].facing", f"the pillbox in {ref} needs a facing hexside (13.5.8)", ref,
                               code="ost-pillbox-facing"))
        if kind in ("mines",) and marker["side"] is None:
            found.append(warning(f"markers[{m}].side", f"say which side the mines in {ref} belong to", ref,
                                 code="ost-mines-owner"))
    return found
