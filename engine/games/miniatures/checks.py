"""The miniatures quick reference's scenario checks, each citing the sheet's line (``QRS Lnn``: it numbers no
paragraphs). What an element is comes from its type's kind (truck, half-track, armoured car...), never its name."""

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


def check(doc, board):
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
        found.extend(_platoons(doc, side, where))
        found.extend(_snipers(doc, side, where, ipx))
    return found


# What an infantry platoon may have attached, by kind (QRS L388: "up to 3 H/Track, 2 Trucks, 1 Mortar, 1 ATG, 1 AFV"),
# its own elements and those attached alike; an infantry platoon is one of rifle squads or of weapon teams (HMGs move
# as infantry, L29)
ATTACHED_AT_MOST = ((("half-track",), "half-track", "half-tracks", 3), (("truck",), "truck", "trucks", 2),
                    (("mortar",), "mortar", "mortars", 1), (("gun",), "gun", "guns", 1),
                    (("tank", "armoured-car"), "AFV", "AFVs", 1))
INFANTRY = ("infantry", "weapon-team")


def _platoons(doc, side, where):
    """Per platoon (an OOB ``formation``, its own elements and those attached to it alike): an officer (QRS
    L383-387), trucks and half-tracks never together (L388), no more attached than L388 allows an infantry platoon;
    and each truck or half-track attached to a platoon of the kinds its type names (L389)."""
    found = []
    by_formation = {}
    for u, unit in enumerate(side["oob"]):
        if unit["formation"]:
            by_formation.setdefault(unit["formation"], []).append((u, unit))
    for name, members in by_formation.items():
        kinds = {}
        for u, unit in members:
            kinds.setdefault(kind_of(doc, unit), []).append((u, unit))
        platoon = [unit for _, unit in members if unit.get("element") == "platoon"]
        if any(u["class"] == "infantry" for u in platoon) and not any(u["leader"] for u in platoon):
            found.append(warning(f"{where}.oob", f"{name} has no officer element; every platoon template has one "
                                                 "(QRS L383-387)", code="miniatures-officer"))
        if "truck" in kinds and "half-track" in kinds:
            u = kinds["half-track"][0][0]
            found.append(error(f"{where}.oob[{u}].formation", f"{_line(side, u)} is a half-track in {name}, which also "
                               f"has trucks ({_line(side, kinds['truck'][0][0])}): a platoon can't have trucks and "
                               "half-tracks (QRS L388)", code="miniatures-attachments"))
        if not any(k in kinds for k in INFANTRY):
            continue
        for own, one, many, most in ATTACHED_AT_MOST:
            lines = [(u, unit) for k in own for u, unit in kinds.get(k, ())]
            count = sum(unit["count"] for _, unit in lines)
            if count > most:
                u = lines[-1][0]
                found.append(error(f"{where}.oob[{u}].count", f"{name} is an infantry platoon with {count} {many} "
                                   f"({', '.join(_line(side, n) for n, _ in lines)}): it may have up to {most} "
                                   f"{one if most == 1 else many} attached (QRS L388)", code="miniatures-attachments"))
    for u, unit in enumerate(side["oob"]):
        kind = utype(doc, unit)
        hosts = list((kind or {}).get("attaches_to", ()))
        if not hosts:
            continue
        mates = [m for m in side["oob"] if m is not unit and unit["formation"] and m["formation"] == unit["formation"]]
        if not any(kind_of(doc, m) in hosts for m in mates):
            found.append(error(f"{where}.oob[{u}].formation", f"{_line(side, u)} is a {kind['name']}, which must be "
                               f"attached to {'an' if hosts[0][0] in 'aeiou' else 'a'} {_either(hosts)} platoon; "
                               + (f"{unit['formation']} has none" if unit["formation"] else "it names no platoon")
                               + f" ({kind.get('rule') or 'its unit type'})", code="miniatures-attachments"))
    return found


def _either(kinds):
    words = [k.replace("-", " ") for k in kinds]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _snipers(doc, side, where, ipx):
    """A sniper is placed further than 8" from the nearest enemy (QRS L333): the enemy's units where they set up,
    not the empty hexes of its setup zone (a sniper may be placed at any point in the game)."""
    found = []
    enemies = [(p["hex"], other) for other in doc.data["sides"] if other is not side for p in other["placements"]
               if not p.get("off_map")]
    units = doc.units(side)
    if ipx is None:
        return found
    for p, placement in enumerate(side["placements"]):
        unit = units[placement["unit"]]
        if placement.get("off_map"):
            continue
        if unit.get("element") != "sniper" and kind_of(doc, unit) != "sniper":
            continue
        key, col, row = doc.resolve(placement["hex"])
        grid = doc.maps[key].grid
        near = [(grid.distance((col, row), doc.resolve(ref)[1:]), ref, other) for ref, other in enemies
                if doc.resolve(ref)[0] == key]
        if near and min(n[0] for n in near) * ipx <= 8:
            hexes, ref, other = min(near, key=lambda n: n[:2])
            line = next(n for n, u in enumerate(side["oob"]) if u is unit)
            found.append(error(f"{where}.placements[{p}].hex", f"{_line(side, line)} sets up in {placement['hex']}, "
                               f"{hexes * ipx:g}\" ({hexes} hexes of {ipx:g}\") from the {other['name']} unit in "
                               f"{ref}: a sniper is placed further than 8\" from the nearest enemy (QRS L333)",
                               placement["hex"], code="miniatures-sniper"))
    return found


def summary(doc, out):
    """The miniatures numbers in the summary: each side's activation deck, the inches per hex, the deck's size."""
    for side in doc.data["sides"]:
        out["sides"][side["id"]]["deck"] = deck_cards(side)
    out["inches_per_hex"] = scenariofile.inches_per_hex(doc)
    out["deck_size"] = sum(s["deck"]["total"] for s in out["sides"].values())
