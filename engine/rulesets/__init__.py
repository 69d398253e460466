"""The rulesets: each game's terrain catalogue as data, and the custom profiles designers add.

    from engine import rulesets
    ost = rulesets.get("ost")
    ost.get("woods")["los"]          # 'blocking'
    ost.terrain_ids("hexside")       # ['hedge', 'stone-wall', ...]

See catalogue.py and docs/rulesets/catalogues.md.
"""

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
    all_rulesets,
    builtin_ids,
    from_dict,
    get,
    load_file,
    provisional_blind_hexes,
    register,
    set_loader,
    unregister,
)

__all__ = [
    "BUILTIN_IDS", "CONDITIONS", "LAYERS", "LOS_CLASSES", "OBSTACLES", "Ruleset", "RulesetError", "UnknownRuleset",
    "UnknownTerrain", "all_rulesets", "builtin_ids", "from_dict", "get", "load_file", "provisional_blind_hexes",
    "register", "set_loader", "unregister",
]
