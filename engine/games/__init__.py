"""The games, one folder each (engine/games/<id>/): everything a game is, found by engine.rulesets.games.

Nothing in the engine imports these folders by name: the registry (engine/rulesets/games.py) imports a game's
modules when first asked, so each folder is the top of the engine and may import any of the machinery below it.
A new game is a new folder here (game.json, catalogue.json, and the modules it needs), nothing else.
"""
