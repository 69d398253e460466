"""The miniatures rules' scenario checks (miniatures-qrs.md sections 2 and 11)."""

from engine.scenarios import scenariofile
from engine.scenarios.checks.common import _line, error, kind_of, utype, warning


def deck_cards(side):
    """The side's activation cards by the QRS formula (QRS L7, L317): platoons with their own card (P), local FOOs
    (F), elite platoon commanders (E) and company commanders (C). Attached elements, snipers and divisional
    FOOs get none; a Soviet tank company fielded as a single unit is one platoon, so one card."""
    platoons, foos, elite, company = set(), 0, 0, 0
    for unit in side["oob"]:
        element = unit.get("element") or ("platoon" if unit["formation"] else None)
        if element == "platoon" and unit["formation"] and not unit.get("attached"):
            platoons.add(unit["formation"])
            if unit["leader"] and unit.get("commander") == "elite":
                elite += unit["count"]
        elif element == "local-foo":
            foos += unit["count"]
        elif element == "company-commander":
            company += unit["count"]
    return {"platoons": len(platoons), "foos": foos, "elite_commanders": elite, "company_commanders": company,
            "total": len(platoons) + foos + elite + company}


def check_miniatures(doc, board):
    found = []
    data = doc.data
    ipx = scenariofile.inches_per_hex(doc)
    if ipx is not None and ipx < 1.25:
        found.append(warning("rules.inches_per_hex", f"{ipx}\" per hex is smaller than a 3-figure base (1.25\"); "
                                                     "the map's scale may be wrong (QRS L375)",
                                 code="miniatures-scale"))
    for s, side in enumerate(data["sides"]):
        where = f"sides[{s}]"
        cards = deck_cards(side)
        given = side["fields"].get("deck")
        formula = (f"{cards['platoons']} platoons + {cards['foos']} local FOO + {cards['elite_commanders']} elite "
                   f"platoon commanders + {cards['company_commanders']} company commanders = {cards['total']}")
        if given is None:
            found.append(warning(f"{where}.fields.deck", f"{side['name']}'s activation cards are not given; the "
                                 f"formula gives {formula} (QRS L7)", code="miniatures-deck"))
        elif given != cards["total"]:
            found.append(error(f"{where}.fields.deck", f"{side['name']} has {given} activation cards, but the "
                               f"formula gives {formula} (QRS L7, L317)", code="miniatures-deck"))
        by_formation = {}
        for unit in side["oob"]:
            if unit.get("element") == "platoon" and unit["formation"]:
                by_formation.setdefault(unit["formation"], []).append(unit)
        for name, members in by_formation.items():
            infantry = any(u["class"] == "infantry" for u in members)
            if infantry and not any(u["leader"] for u in members):
                found.append(warning(f"{where}.oob", f"{name} has no officer element; every platoon template has one "
                                                     "(QRS L383-387)", code="miniatures-officer"))
            kinds = {kind_of(doc, u) for u in members}
            if "truck" in kinds and "half-track" in kinds:
                found.append(error(f"{where}.oob", f"{name} mixes trucks and half-tracks (QRS L388)",
                                   code="miniatures-attachments"))
        for u, unit in enumerate(side["oob"]):
            kind = utype(doc, unit)
            hosts = set((kind or {}).get("attaches_to", ()))
            if not hosts:
                continue
            mates = [m for m in side["oob"] if m is not unit and unit["formation"]
                     and m["formation"] == unit["formation"]]
            if not any(kind_of(doc, m) in hosts for m in mates):
                found.append(error(f"{where}.oob[{u}].formation", f"{_line(side, u)} is a {kind['name']}, which is "
                                   f"attached to a platoon of {' or '.join(sorted(hosts))}; "
                                   + (f"{unit['formation']} has none" if unit["formation"] else "it names no platoon")
                                   + f" ({kind.get('rule') or 'its unit type'})", code="miniatures-attachments"))
        enemies = [(e, t) for t, other in enumerate(data["sides"]) if other is not side
                   for e in [p["hex"] for p in other["placements"]] + other["setup_zone"]]
        units = doc.units(side)
        for p, placement in enumerate(side["placements"]):
            unit = units[placement["unit"]]
            if unit.get("element") != "sniper" and kind_of(doc, unit) != "sniper":
                continue
            key, col, row = doc.resolve(placement["hex"])
            grid = doc.maps[key].grid
            for ref, _ in enemies:
                ekey, ecol, erow = doc.resolve(ref)
                if ekey == key and grid.distance((col, row), (ecol, erow)) * ipx <= 8:
                    found.append(error(f"{where}.placements[{p}].hex", f"the sniper in {placement['hex']} is within "
                                       f"8\" of the enemy at {ref} ({grid.distance((col, row), (ecol, erow))} hexes of "
                                       f"{ipx}\"); snipers are placed more than 8\" away (QRS L333)", placement["hex"],
                                       code="miniatures-sniper"))
                    break
    return found
