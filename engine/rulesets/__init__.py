"""The rulesets: each game's terrain catalogue as data, and the custom profiles designers add.

    from engine import rulesets
    ost = rulesets.get("ost")
    ost.get("woods")["los"]          # 'blocking'
    ost.terrain_ids("hexside")       # ['hedge', 'stone-wall', ...]

The layers, each a module: games (which games there are: the game registry, importing nothing of the engine),
catalogue (the Ruleset and the format's vocabulary), reading (a file or JSON read and checked), unittypes (a
unit_types section or a scenario's own types checked), registry (which rulesets there are). See
docs/rulesets/catalogues.md and docs/rulesets/games.md.
"""

from engine.rulesets import games
from engine.rulesets.catalogue import (
    BUILTIN_IDS,
    CONDITIONS,
    LAYERS,
    LOS_CLASSES,
    OBSTACLES,
    Ruleset,
    RulesetError,
    UnknownRuleset,
    UnknownTerrain,
    provisional_blind_hexes,
)
from engine.rulesets.reading import from_dict, load_file
from engine.rulesets.registry import all_rulesets, builtin_ids, get, register, set_loader, unregister

__all__ = [
    "BUILTIN_IDS", "CONDITIONS", "LAYERS", "LOS_CLASSES", "OBSTACLES", "Ruleset", "RulesetError", "UnknownRuleset",
    "UnknownTerrain", "all_rulesets", "builtin_ids", "from_dict", "games", "get", "load_file",
    "provisional_blind_hexes", "register", "set_loader", "unregister",
]
