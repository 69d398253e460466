"""The miniatures numbers on the card: each side's activation deck and the table scale."""

from reportlab.platypus import CondPageBreak

from engine.games.miniatures.checks import deck_cards
from engine.scenarios.cards.layout import TABLE_START, p, small_table
from engine.scenarios.scenariofile import inches_per_hex


def block(doc, side_ids):
    """The game's own part of the card, for the sides shown."""
    rules = doc.data.get("rules") or {}
    shown = [s for s in doc.data["sides"] if s["id"] in side_ids]
    out = []
    rows = [["Side", "Platoons", "Local FOOs", "Elite commanders", "Company commanders", "Deck"]]
    for side in shown:
        d = deck_cards(side)
        given = side["fields"].get("deck")
        rows.append([side["name"], d["platoons"], d["foos"], d["elite_commanders"], d["company_commanders"],
                     given if given is not None else d["total"]])
    inches = inches_per_hex(doc)
    metres = doc.maps[doc.main_key].grid.hex_metres
    out += [CondPageBreak(TABLE_START), p("Activation deck", "h3"), small_table(rows)]
    for side in shown:
        # QRS L317: an elite platoon commander's extra card is used on his own platoon, so the card names it.
        elite = [u.get("formation") or u["unit"] for u in side["oob"]
                 if u.get("leader") and u.get("commander") == "elite"]
        if elite:
            out.append(p(f"{side['name']}: the elite platoon commander{'s' if len(elite) > 1 else ''} of "
                         f"{', '.join(elite)} get{'' if len(elite) > 1 else 's'} one extra activation card, "
                         "used on his own platoon (QRS L317)."))
    if inches is not None:
        out.append(p(f"Scale: one hex is {metres:g} m of ground, {inches:g} inches on the table "
                     f"(1 inch = 25 yards); measure ranges in hexes × {inches:g}."
                     + (" Distances in inches are rounded down." if rules.get("rounding") == "floor" else "")))
    return out
