"""Each game's own numbers on the card (OST's gut checks and impulses, the miniatures deck and scale, Assault's
formations and points, ATS's overlays and edges, TOCS's operations points): the block its folder's card module
makes (engine/games/<id>/card.py, ``block(doc, side_ids)``), found through the game registry."""

from engine import rulesets


def game_block(doc, side_ids):
    """The game's own numbers, as a small table or a few lines: none for a custom profile or a game without any."""
    if not rulesets.games.is_game(doc.ruleset):
        return []
    card = rulesets.games.get(doc.ruleset).card
    return card.block(doc, side_ids) if card is not None else []
