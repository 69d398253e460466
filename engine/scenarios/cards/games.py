"""Each game's own numbers on the card: OST's gut checks and impulses, the miniatures deck and scale, Assault's
formations and points, ATS's overlays and edges, TOCS's operations points."""


from reportlab.platypus import CondPageBreak

from engine import mapfile
from engine.scenarios import checks as scenario_checks
from engine.scenarios import victory
from engine.scenarios.cards.layout import TABLE_START, p, small_table
from engine.scenarios.cards.mapimage import overlay_id
from engine.scenarios.scenariofile import inches_per_hex


def game_block(doc, side_ids):
    """Each game's own numbers, as a small table or a few lines."""
    data, game = doc.data, doc.ruleset
    rules = data.get("rules") or {}
    shown = [s for s in data["sides"] if s["id"] in side_ids]
    out = []
    if game == "ost":
        rows = [["Side", "Gut check", "Impulse points", "Casualty points in the OOB"]]
        for side in shown:
            f = side["fields"]
            rows.append([side["name"], f.get("gut_check", "—"), f.get("impulse", "—"),
                         sum(u["count"] * (u.get("casualty_points") or 0) for u in side["oob"])])
        out += [CondPageBreak(TABLE_START), p("Gut check and impulse points", "h3"), small_table(rows)]
        extras = []
        if rules.get("luck_cards") is not None:
            luck = rules["luck_cards"]
            extras.append(f"Each player draws {luck} luck card{'s' if luck != 1 else ''}.")
        if "extended_play" in rules:
            extras.append("Extended play is " + ("in use." if rules["extended_play"] else "not used."))
        out += [p(" ".join(extras))] if extras else []
    elif game == "miniatures":
        rows = [["Side", "Platoons", "Local FOOs", "Elite commanders", "Company commanders", "Deck"]]
        for side in shown:
            d = scenario_checks.deck_cards(side)
            given = side["fields"].get("deck")
            rows.append([side["name"], d["platoons"], d["foos"], d["elite_commanders"], d["company_commanders"],
                         given if given is not None else d["total"]])
        inches = inches_per_hex(doc)
        metres = doc.maps[doc.main_key].grid.hex_metres
        out += [CondPageBreak(TABLE_START), p("Activation deck", "h3"), small_table(rows)]
        if inches is not None:
            out.append(p(f"Scale: one hex is {metres:g} m of ground, {inches:g} inches on the table "
                         f"(1 inch = 25 yards); measure ranges in hexes × {inches:g}."
                         + (" Distances in inches are rounded down." if rules.get("rounding") == "floor" else "")))
    elif game == "assault":
        rows = [["Side", "Formations", "Selection", "Command cards", "TA/OAs", "Smoke", "Points"]]
        for side in shown:
            f = side["fields"]
            formations = ", ".join(f"{n} {deck}" for deck, n in (f.get("formations") or {}).items()) or "—"
            rows.append([side["name"], formations, f.get("selection", "—"), f.get("command_cards", "—"),
                         f.get("ta_oas", "—"), f.get("smoke", "—"),
                         sum(u["count"] * (u.get("points") or 0) for u in side["oob"])])
        groups = []
        for side in shown:
            names = list(dict.fromkeys(u["formation"] for u in side["oob"] if u.get("formation")))
            if names:
                groups.append(f"{side['name']}: {', '.join(names)}.")
        out += [CondPageBreak(TABLE_START), p("Formations and points", "h3"), small_table(rows)]
        out += [p(g) for g in groups]
        extras = [f"Hand limit {rules['hand_limit']} cards." if rules.get("hand_limit") else "",
                  "Early victory is in use." if rules.get("early_victory") else "",
                  "Minefields are in use." if rules.get("minefields") else ""]
        out += [p(" ".join(e for e in extras if e))] if any(extras) else []
    elif game == "ats":
        overlays = rules.get("overlays") or []
        out.append(p("Overlays", "h3"))
        if overlays:
            rows = [["Overlay", "X hex", "Y hex"]] + [[overlay_id(o.get("id")) or "—", o.get("x", "—"),
                                                       o.get("y", "—")] for o in overlays]
            out.append(small_table(rows))
        else:
            out.append(p("The scenario's rules place no overlays."))
        main = doc.maps[doc.main_key]
        on_map = [i for i in dict.fromkeys(mapfile.overlay_title(main, o) for o in main.overlays) if i]
        if on_map:
            out.append(p(f"Drawn on the map already: overlay{'s' if len(on_map) > 1 else ''} {', '.join(on_map)}."))
        lines = []
        if rules.get("setup_order"):
            names = {s["id"]: s["name"] for s in data["sides"]}
            lines.append("Setup order: " + ", then ".join(names.get(s, s) for s in rules["setup_order"]) + ".")
        edges = [f"{s['name']} {victory.EDGE_NAMES.get(s['fields']['friendly_edge'], '?')}" for s in shown
                 if s["fields"].get("friendly_edge")]
        if edges:
            lines.append("Friendly edges: " + ", ".join(edges) + ".")
        if rules.get("vp_values"):
            lines.append("VP for eliminated units: " + ", ".join(f"{k} {v}" for k, v in rules["vp_values"].items())
                         + ".")
        if rules.get("conditions"):
            lines.append(f"Conditions: {rules['conditions']}.")
        out += [p(line) for line in lines]
    elif game == "tocs":
        rows = [["Side", "OP minimum", "OP reserve"]]
        for side in shown:
            rows.append([side["name"], side["fields"].get("op_minimum", "—"), side["fields"].get("op_reserve", "—")])
        lines = [f"Module: {rules['module']}." if rules.get("module") else "",
                 f"Each turn is {rules['turn_hours']} hours." if rules.get("turn_hours") else ""]
        out += [CondPageBreak(TABLE_START), p("Operations points", "h3"), small_table(rows)] if shown else []
        out += [p(" ".join(x for x in lines if x))] if any(lines) else []
    return out
