"""Line of sight for Old School Tactical (OST Vol 1), by layer:

- tables.py: what the rules know besides the catalogue (classes, hexside kinds, an answer's words and assumptions);
- reference.py: ``Rules``, the reference evaluator, one line at a time with every reason;
- kernel.py: the compiled fast path, many pairs at once, kept equal to the reference by the differential tests.

The catalogue (engine/games/ost/catalogue.json or a custom profile) rates every terrain; engine/games/ost/rules.md.
"""

from engine.games.ost.los.reference import OFF_MAP, Effect, HexFacts, Rules, Sight
from engine.games.ost.los.tables import (
    ALL,
    ART_HILL,
    ART_NONE,
    ART_STRUCTURE,
    ART_TERRAIN,
    ASSUME_BOCAGE_LEVELS,
    ASSUME_BUILDING,
    ASSUME_CORNER,
    ASSUME_FOOT,
    ASSUME_GULLY,
    ASSUME_ROW_HOUSE,
    ASSUME_SLOPE,
    ASSUME_STOREYS_ON_HILL,
    ASSUMPTION_ORDER,
    BARRIER,
    BLIND_WORDS,
    BLOCK,
    BOCAGE,
    CLASSES,
    CLEAR,
    DEGRADE,
    LOW,
    MARKER_KINDS,
    MULTI,
    NO_FEATURE,
    NONE,
    ROW_HOUSE,
    SINGLE,
    SPECIAL_HEXSIDES,
    THIRD_DEGRADING_BLOCKS,
    WALL,
    WORDS,
)

__all__ = [
    "OFF_MAP", "Effect", "HexFacts", "Rules", "Sight", "ALL", "ART_HILL", "ART_NONE", "ART_STRUCTURE",
    "ART_TERRAIN", "ASSUME_BOCAGE_LEVELS", "ASSUME_BUILDING", "ASSUME_CORNER", "ASSUME_FOOT", "ASSUME_GULLY",
    "ASSUME_ROW_HOUSE", "ASSUME_SLOPE", "ASSUME_STOREYS_ON_HILL", "ASSUMPTION_ORDER", "BARRIER", "BLIND_WORDS",
    "BLOCK", "BOCAGE", "CLASSES", "CLEAR", "DEGRADE", "LOW", "MARKER_KINDS", "MULTI", "NONE", "NO_FEATURE",
    "ROW_HOUSE", "SINGLE", "SPECIAL_HEXSIDES", "THIRD_DEGRADING_BLOCKS", "WALL", "WORDS",
]
