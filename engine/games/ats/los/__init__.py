"""Line of sight for the Advanced Tobruk System (ATS rulebook v2.09), by layer:

- tables.py: what the rules know besides the catalogue (classes, landforms, hexside kinds, the compiled data's
  columns, assumptions) and the Blind Hex Creation Table (6.2.63) as arrays;
- reference.py: ``Rules``, the reference evaluator, one line at a time with every reason;
- kernel.py: the compiled fast path, many pairs at once, kept equal to the reference by the differential tests.

The catalogue (engine/games/ats/catalogue.json or a custom profile) rates every terrain; engine/games/ats/rules.md.
"""

from engine.games.ats.los.reference import Rules
from engine.games.ats.los.tables import (
    ASSUME_CREST,
    ASSUME_DEIR,
    ASSUME_EQUAL_TOP,
    ASSUME_FIVE,
    ASSUME_HILLOCK_ZONE,
    ASSUME_UP,
    BLIND,
    BLOCKING,
    C_ART,
    C_BLOCK,
    C_DEIR,
    C_DEPRESSION,
    C_FLAGS,
    C_GROUND,
    C_HILL,
    C_HILLOCK,
    C_LEVEL,
    C_OBSCURE,
    C_RUBBLE,
    C_SMOKE,
    C_VEHICLE,
    C_WRECK,
    CLASSES,
    CLEAR,
    DEIR,
    DEPRESSION_DEPTH,
    DEPRESSIONS,
    EFFECT_NAMES,
    HEXSIDE_KINDS,
    HILLOCK,
    HINDERING,
    IGNORED,
    LANDFORMS,
    N_COLUMNS,
    NONE,
    OBSCURING,
    ROOFLESS_AS,
    SIDE_CLIFF,
    SIDE_CONTOUR,
    SIDE_INTERIOR,
    SIDE_PLAIN,
    SMOKE_HEIGHT,
    SMOKE_HINDRANCE,
    SMOKE_KINDS,
    TABLE_DIFF_MAX,
    UNHANDLED,
    VEHICLE_HEIGHT,
    WALL,
    blind_hex_table,
    components,
    provisional_blind_hexes,
)

__all__ = [
    "Rules", "ASSUME_CREST", "ASSUME_DEIR", "ASSUME_EQUAL_TOP", "ASSUME_FIVE", "ASSUME_HILLOCK_ZONE", "ASSUME_UP",
    "BLIND", "BLOCKING", "CLASSES", "CLEAR", "C_ART", "C_BLOCK", "C_DEIR", "C_DEPRESSION", "C_FLAGS", "C_GROUND",
    "C_HILL", "C_HILLOCK", "C_LEVEL", "C_OBSCURE", "C_RUBBLE", "C_SMOKE", "C_VEHICLE", "C_WRECK", "DEIR",
    "DEPRESSIONS", "DEPRESSION_DEPTH", "EFFECT_NAMES", "HEXSIDE_KINDS", "HILLOCK", "HINDERING", "IGNORED",
    "LANDFORMS", "NONE", "N_COLUMNS", "OBSCURING", "ROOFLESS_AS", "SIDE_CLIFF", "SIDE_CONTOUR", "SIDE_INTERIOR",
    "SIDE_PLAIN", "SMOKE_HEIGHT", "SMOKE_HINDRANCE", "SMOKE_KINDS", "TABLE_DIFF_MAX", "UNHANDLED",
    "VEHICLE_HEIGHT", "WALL", "blind_hex_table", "components", "provisional_blind_hexes",
]
