"""Assault's numbers on the card: each side's formations, selection, cards and points."""

from reportlab.platypus import CondPageBreak

from engine.scenarios.cards.layout import TABLE_START, p, small_table


def block(doc, side_ids):
    """The game's own part of the card, for the sides shown."""
    rules = doc.data.get("rules") or {}
    shown = [s for s in doc.data["sides"] if s["id"] in side_ids]
    out = []
    rows = [["Side", "Formations", "Selection", "Command cards", "TA/OAS", "Smoke", "Points"]]
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
    return out
