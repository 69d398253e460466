"""The toy game's numbers on the card: each side's morale."""

from engine.scenarios.cards.layout import p, small_table


def block(doc, side_ids):
    rows = [["Side", "Toy morale"]] + [[s["name"], s["fields"].get("morale", "—")] for s in doc.data["sides"]
                                       if s["id"] in side_ids]
    return [p("Toy morale", "h3"), small_table(rows)]
