"""TOCS's numbers on the card: each side's operations points, the module and the turn's hours."""

from reportlab.platypus import CondPageBreak

from engine.scenarios.cards.layout import TABLE_START, p, small_table


def block(doc, side_ids):
    """The game's own part of the card, for the sides shown."""
    rules = doc.data.get("rules") or {}
    shown = [s for s in doc.data["sides"] if s["id"] in side_ids]
    out = []
    rows = [["Side", "OP minimum", "OP reserve"]]
    for side in shown:
        rows.append([side["name"], side["fields"].get("op_minimum", "—"), side["fields"].get("op_reserve", "—")])
    lines = [f"Module: {rules['module']}." if rules.get("module") else "",
             f"Each turn is {rules['turn_hours']} hours." if rules.get("turn_hours") else ""]
    out += [CondPageBreak(TABLE_START), p("Operations points", "h3"), small_table(rows)] if shown else []
    out += [p(" ".join(x for x in lines if x))] if any(lines) else []
    return out
