"""OST's numbers on the card: each side's gut check and impulse points, luck cards, extended play."""

from reportlab.platypus import CondPageBreak

from engine.games.ost.checks import casualty_points
from engine.scenarios.cards.forces import listed
from engine.scenarios.cards.layout import TABLE_START, p, small_table


def block(doc, side_ids):
    """The game's own part of the card, for the sides shown."""
    rules = doc.data.get("rules") or {}
    shown = [s for s in doc.data["sides"] if s["id"] in side_ids]
    out = []
    rows = [["Side", "Gut check", "Impulse points", "Casualty points in the OOB"]]
    for side in shown:
        f = side["fields"]
        # The hidden lines the public card lists count too (the sniper, a hidden gun: 3.1.4, 21.0.1).
        hidden = sum((u.get("count") or 1) * (u.get("casualty_points") or 0) for u in listed(doc, side))
        rows.append([side["name"], f.get("gut_check", "—"), f.get("impulse", "—"),
                     casualty_points(side) + hidden])
    out += [CondPageBreak(TABLE_START), p("Gut check and impulse points", "h3"), small_table(rows)]
    extras = []
    if rules.get("luck_cards") is not None:
        luck = rules["luck_cards"]
        extras.append(f"Each player draws {luck} luck card{'s' if luck != 1 else ''}.")
    if "extended_play" in rules:
        extras.append("Extended play is " + ("in use." if rules["extended_play"] else "not used."))
    out += [p(" ".join(extras))] if extras else []
    return out
