"""The objective and zone questions of a scenario's sight lines: which hexes of each side's setup zone (and of
its placed units) see each objective; for each pair of zones, the pairs that see each other and the hexes that
block most of the others; and each side's exposure map (docs/los.md, "Exposure, routes and observer height").

Seen is what the sight lines mean (engine.los.sight.seen_of). The blocking hexes come from the reference
evaluator's reasons, at most BLOCKER_PAIRS blocked pairs per pair of zones (evenly spread when there are more;
the answer says how many it read).
"""

import numpy as np

from engine.los import engine
from engine.los.sight import exposure, seen_of

BLOCKER_PAIRS = 500  # blocked pairs per pair of zones whose reasons are read (the reference, ~1 ms a pair)
REFERENCE_COST = 50  # one reference answer, in batch pairs (the bound of a job)
TOP_BLOCKERS = 10
LISTED_PAIRS = 1000  # intervisible pairs listed by their hexes (the count is of all)


def _answers(rules, levels, a, b):
    a, b = np.asarray(a, np.int32), np.asarray(b, np.int32)
    if not len(a):
        return np.zeros(0, bool)
    result, _h, blind = rules.answer_pairs(a, b, levels[a], levels[b])
    return seen_of(result, blind) | (a == b)


def unit_hexes(doc, side, index):
    """The main-map hexes where a side's units are placed (off-map units are reckoned from no hex here)."""
    return sorted({i for p in side["placements"] if not p.get("off_map")
                   for i in [index(p["hex"])] if i is not None})


def objective_rows(cmap, rules, levels, objectives, observers):
    """Per objective, the observer hexes that see it, and how many."""
    rows = []
    obs = np.asarray(observers, np.int32)
    for o, i in objectives:
        seen = _answers(rules, levels, obs, np.full(len(obs), i, np.int32))
        hexes = [cmap.label(int(h)) for h in obs[seen]]
        rows.append({"id": o["id"], "name": o["name"], "hex": o["hex"], "count": len(hexes), "hexes": hexes})
    return rows


def zone_pair(cmap, rules, levels, first, second):
    """The pairs of two zones that see each other, and the hexes and hexsides that block most of the others."""
    a = np.repeat(np.asarray(first, np.int32), len(second))
    b = np.tile(np.asarray(second, np.int32), len(first))
    seen = _answers(rules, levels, a, b)
    blocked = np.flatnonzero(~seen)
    picked = blocked if len(blocked) <= BLOCKER_PAIRS else blocked[np.linspace(0, len(blocked) - 1,
                                                                                BLOCKER_PAIRS).astype(int)]
    counts = {}
    for k in picked.tolist():
        answer = engine.line_of_sight(cmap, cmap.label(int(a[k])), cmap.label(int(b[k])))
        for where in {r.hexside or r.hex for r in answer.reasons if r.effect in ("blocking", "blind")}:
            if where:
                counts[where] = counts.get(where, 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_BLOCKERS]
    return {"pairs": len(a), "intervisible": int(seen.sum()),
            "seen_pairs": [[cmap.label(int(x)), cmap.label(int(y))]
                           for x, y in zip(a[seen][:LISTED_PAIRS], b[seen][:LISTED_PAIRS], strict=True)],
            "blocked": len(blocked), "blocked_read": len(picked),
            "blockers": [{"where": where, "pairs": count} for where, count in top]}


def questions(cmap, layout, sides):
    """The questions for every side and pair of sides (a _Layout of engine.scenarios.sightlines)."""
    rules = engine.rules_for(cmap)
    levels = rules.unit_levels().astype(np.int32)
    out = {"objectives": {}, "zones": [], "exposure": {}}
    for side in sides:
        zone = layout.zones[side["id"]]
        units = unit_hexes(None, side, layout.index)
        out["objectives"][side["id"]] = {"setup_zone": objective_rows(cmap, rules, levels, layout.objectives, zone),
                                         "units": objective_rows(cmap, rules, levels, layout.objectives, units)}
        out["exposure"][side["id"]] = {"setup_zone": _exposure_map(cmap, zone),
                                       "units": _exposure_map(cmap, units)}
    for n, first in enumerate(sides):
        for second in sides[n + 1:]:
            row = zone_pair(cmap, rules, levels, layout.zones[first["id"]], layout.zones[second["id"]])
            out["zones"].append({"sides": [first["id"], second["id"]], **row})
    return out


def _exposure_map(cmap, observers):
    """{label: observers seeing it} where a unit stands, hexes seen by none left out; and the highest count."""
    if not observers:
        return {"observers": 0, "highest": 0, "hexes": {}}
    counts = exposure(cmap, observers).seen
    return {"observers": len(observers), "highest": int(counts.max()),
            "hexes": {cmap.label(i): int(c) for i, c in enumerate(counts.tolist()) if c}}


def pairs_bound(data, play):
    """At most how many lines the questions add to the sight lines: each side's zone and units against the map,
    the objectives, and every other zone; and the blocked pairs whose reasons are read."""
    sides = data.get("sides") or []
    zones = [len(s.get("setup_zone") or []) for s in sides]
    units = [len(s.get("placements") or []) for s in sides]
    objectives = len(data.get("objectives") or [])
    total = sum((z + u) * (play + objectives) for z, u in zip(zones, units, strict=True))
    for n, first in enumerate(zones):
        for second in zones[n + 1:]:
            total += first * second + BLOCKER_PAIRS * REFERENCE_COST
    return total
