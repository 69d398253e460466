"""What Old School Tactical LOS knows besides the catalogue: classes, where terrain stands, hexside kinds,
the words of an answer and the assumptions it may rely on. Shared by the reference and the kernel."""

CLEAR, DEGRADE, BLOCK = 0, 1, 2
THIRD_DEGRADING_BLOCKS = 3  # 12.3.2, 14.0.6

# Where a terrain stands (12.4.7-12.4.10, 12.6.2): "none" has no appreciable height, "low" is a ground-level
# obstacle a higher unit sees over (but for the blind hex), "all" stands at every level (smoke).
NONE, LOW, ALL = "none", "low", "all"

# What each terrain does comes from the map's catalogue (engine/games/ost/catalogue.json or a custom profile):
# `los` gives the class (hindering degrades, blocking blocks), `obstacle` where it stands ("none", "low",
# "storeys" for a structure, "all" for smoke), `los_rule` the paragraph an answer cites. The game code below
# only knows what data cannot say: how structures, bocage and row-house walls behave.
CLASSES = {"hindering": DEGRADE, "blocking": BLOCK}
# Marker kinds (CompiledMap.markers) the catalogue rates; vehicles and other unit counters do not affect LOS
# (12.1.6).
MARKER_KINDS = ("smoke", "smoke2", "wreck", "rubble")

# Hexside features, by the catalogue's class. WALL (hindering): degrades, ignored between different levels
# (hedge, stone wall; 12.4.9). BARRIER (blocking): blocks, no exception at the ends. Two blocking hexsides have
# rules of their own: BOCAGE, with the foot-unit and structure rules at the ends (15.3.4-15.3.7), and ROW_HOUSE,
# no LOS through it, at the ends too (16.4.3).
NO_FEATURE, WALL, BOCAGE, ROW_HOUSE, BARRIER = range(5)
SPECIAL_HEXSIDES = {"bocage": BOCAGE, "row-house-wall": ROW_HOUSE}

# What a hex's art draws: the building if the hex holds one, else the hill if it is one, else its terrain.
ART_NONE, ART_STRUCTURE, ART_HILL, ART_TERRAIN = range(4)
SINGLE, MULTI = 1, 2  # structure codes in the compiled arrays

WORDS = {BLOCK: "blocking", DEGRADE: "hindering", CLEAR: "ignored"}
BLIND_WORDS = {BLOCK: "blind", DEGRADE: "blind-hindering"}

# Assumptions an answer can rely on, in the order an answer lists them (engine/games/ost/rules.md).
ASSUME_FOOT = ("A unit next to bocage is taken to be a foot unit: it fires and is fired at through the bocage "
               "with no FP loss (OST 15.3.4); a vehicle there would be blocked (15.3.7).")
ASSUME_CORNER = ("A line through a hex corner touches that hex: treated as a line along a hexside, the heavier "
                 "effect counted once (OST 14.0.8; digest Q2).")
ASSUME_SLOPE = ("A slope is a run of hexes dropping exactly one level per hex from the higher unit; no blind hex "
                "behind a hill hex on it (OST 12.5.11; digest Q3).")
ASSUME_BOCAGE_LEVELS = ("Bocage between units at different levels is a low blocking obstacle: seen over, with "
                        "the one blind hex behind it (digest Q13).")
ASSUME_BUILDING = ("Structure hexes whose building art meets across their hexside (or without art) are taken "
                   "to be one multi-hex structure (OST 16.3.6).")
ASSUME_STOREYS_ON_HILL = "A structure on a hill adds its storeys to the hill level (digest Q6)."
ASSUME_ROW_HOUSE = ("A row-house wall is as high as its building: it always blocks beside a structure of 2 or "
                    "more storeys, and is a low blocking obstacle between 1-storey hexes (OST 16.4.3).")
ASSUME_GULLY = ("A unit in a gully sees out, and is seen from other levels, only when the line leaves the "
                "gully at once (OST 12.5.9; digest Q18).")
ASSUMPTION_ORDER = (ASSUME_FOOT, ASSUME_CORNER, ASSUME_SLOPE, ASSUME_BOCAGE_LEVELS, ASSUME_BUILDING,
                    ASSUME_STOREYS_ON_HILL, ASSUME_ROW_HOUSE, ASSUME_GULLY)
