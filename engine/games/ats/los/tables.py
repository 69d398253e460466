"""What ATS LOS knows besides the catalogue: classes, landforms, hexside kinds, markers, the compiled data's
columns, the assumptions an answer may rely on, and the Blind Hex Creation Table (6.2.63) as arrays. Shared by
the reference and the kernel."""

from collections import deque

import numpy as np

from engine import rulesets

# -- the terrain: LOS classes ---------------------------------------------------------------------------------
CLEAR, OBSCURING, BLOCKING = 0, 1, 2

# What each terrain does comes from the map's catalogue (engine/games/ats/catalogue.json or a custom profile): `los`
# blocking or hindering (Obscuring) with its `height` above the hex's ground (6.2.4), `los_rule` the paragraph
# an answer cites. Obscuring terrain of +10 (orchard, palm grove) also casts blind hexes (8.16.2, 8.17.2). The
# game code below only knows what data cannot say: storeys, the steeple, roofless hexes, landforms, SSR options.
CLASSES = {"blocking": BLOCKING, "hindering": OBSCURING}
ROOFLESS_AS = "debris"  # 8.3.144: "treat these hexes according to the other terrain in the hex, usually Debris"

# Landforms: a deir hex's level is its floor (-5 below the desert around it, 8.6.2); a linear depression's
# level is its UP location, its DOWN location 10 lower (7.3). A hillock is a hex 5 above a neighbour it meets
# across a hillock-contour hexside (or holding the id "hillock"), and every hex of that level joined to it.
DEIR = "deir"
DEPRESSIONS = ("wadi", "ravine", "creek", "sunken-road", "sunken-lane", "sunken-railroad", "linear-depression")
HILLOCK = "hillock"
DEPRESSION_DEPTH = 10
LANDFORMS = (DEIR, HILLOCK) + DEPRESSIONS

# Hexside terrain: the catalogue's blocking hexsides, their height above the higher of their two hexes (7.2).
# Kinds with rules of their own, whatever the catalogue's rating:
SIDE_PLAIN, SIDE_INTERIOR, SIDE_CLIFF, SIDE_CONTOUR = 0, 1, 2, 3
HEXSIDE_KINDS = {"interior-wall": SIDE_INTERIOR, "cliff": SIDE_CLIFF, "hillock-contour": SIDE_CONTOUR}

SMOKE_KINDS = ("smoke", "smoke2", "dust", "flame")  # each counter +4 (6.4.5, 6.5.25, 8.8.2)
SMOKE_HEIGHT = 30  # 6.2.81
SMOKE_HINDRANCE = 4
VEHICLE_HEIGHT = 5  # 6.2.71

# Special rules this evaluator does not apply yet; an answer touching them says so.
UNHANDLED = {
    "roofless": "roofless hex: LOS 'as across a contour hexside' (ATS 8.3.144) is not applied; taken as Debris",
    "factory": "factory: LOS inside the factory (ATS 8.3.145) is not applied; taken as a building",
    "fort": "fort: the courtyard's LOS (ATS 8.3.152) is not applied; taken as a +10 building",
    "bridge": "bridge: LOS to units under a bridge (ATS 8.31.52) is not applied",
}

# Effects, lightest to heaviest: what one element along the line does.
NONE, IGNORED, HINDERING, BLIND, WALL = 0, 1, 2, 3, 4
EFFECT_NAMES = {IGNORED: "ignored", HINDERING: "hindering", BLIND: "blind", WALL: "blocking"}

# Per-hex columns of the compiled data.
(C_LEVEL, C_GROUND, C_BLOCK, C_OBSCURE, C_ART, C_RUBBLE, C_SMOKE, C_VEHICLE, C_WRECK, C_HILL, C_HILLOCK,
 C_DEIR, C_DEPRESSION, C_FLAGS) = range(14)
N_COLUMNS = 14  # C_FLAGS: anything beyond bare ground (terrain, markers, hillock, deir, depression)

TABLE_DIFF_MAX = 200  # table rows kept in memory; beyond, the provisional formula (never reached on real maps)

ASSUME_EQUAL_TOP = ("an obstacle whose top equals the higher unit's level blocks (docs/los.md; the rulebook "
                    "does not say)")
ASSUME_FIVE = ("an obstacle only +5 above its base casts no blind hexes when the higher unit is above it "
               "(docs/los.md; 6.2.63 read as applying to +10 terrain)")
ASSUME_DEIR = ("the unit in the deir is taken as Stationary or Crawling Personnel (ATS 8.6.2); a vehicle or "
               "a moving unit there would be seen")
ASSUME_HILLOCK_ZONE = ("hillock blind zone (ATS 8.12.24) read as: range to the last hillock hex, less the "
                       "hexes of the viewer's own hillock, quartered; the first hex behind it stays visible")
ASSUME_CREST = ("a higher unit sighting into and along a depression across a crestline (ATS 7.3.3) is not "
                "handled yet: the unit DOWN in it is taken as out of LOS")
ASSUME_UP = ("a unit UP in a linear depression may fire only across the hexsides its LOS +10 marker points "
             "to (ATS 7.3.4); not applied: the map does not say which")


def provisional_blind_hexes(diff, range_hexes):
    """n = max(1, round(band x 10 / diff)), halves up; band 1 for ranges 1-6, 2 for 7-12 .. (docs/los.md)."""
    band = (max(range_hexes, 1) - 1) // 6 + 1
    return max(1, (band * 20 + diff) // (2 * diff))


def blind_hex_table(catalogue, max_range):
    """The Blind Hex Creation Table (6.2.63) as arrays indexed [diff, range]: counts and which are provisional.

    The catalogue's cells when it has them (engine/games/ats/catalogue.json, or a custom profile's), else the
    provisional formula; the one cell the rulebook proves, (+10, 13-18) = 3 (8.13.21), is always proven.
    """
    counts = np.zeros((TABLE_DIFF_MAX + 1, max_range + 1), dtype=np.int16)
    provisional = np.zeros((TABLE_DIFF_MAX + 1, max_range + 1), dtype=bool)
    if catalogue is None:
        catalogue = rulesets.get("ats")
    lookup = getattr(catalogue, "blind_hexes", None)
    for diff in range(10, TABLE_DIFF_MAX + 1):
        for rng in range(max_range + 1):
            found = None
            if lookup is not None:
                try:
                    found = lookup(diff, max(rng, 1))
                except LookupError:
                    lookup = None
            if found is None:
                n, proven = provisional_blind_hexes(diff, rng), False
            else:
                n, proven = int(found[0]), bool(found[1])
            if diff == 10 and 13 <= rng <= 18:
                n, proven = 3, True
            counts[diff, rng] = n
            provisional[diff, rng] = not proven
    return counts, provisional




def components(n, neighbours, member):
    """Connected groups of the hexes where ``member`` is true: int32[n], -1 outside any group."""
    ids = np.full(n, -1, dtype=np.int32)
    count = 0
    for start in range(n):
        if not member[start] or ids[start] >= 0:
            continue
        ids[start] = count
        queue = deque([start])
        while queue:
            i = queue.popleft()
            for j in neighbours[i]:
                if j >= 0 and member[j] and ids[j] < 0:
                    ids[j] = count
                    queue.append(j)
        count += 1
    return ids
