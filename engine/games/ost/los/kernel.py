"""The compiled kernel of Old School Tactical LOS: the reference's decisions on arrays, many pairs at once.
tests/engine/los/test_ost.py keeps it equal to the reference (engine/games/ost/los/reference.py) on every pair."""

import numpy as np
from numba import njit, prange

from engine.games.ost.los.tables import (
    ART_HILL,
    ART_NONE,
    ART_STRUCTURE,
    ART_TERRAIN,
    BARRIER,
    BLOCK,
    BOCAGE,
    CLEAR,
    DEGRADE,
    MULTI,
    NO_FEATURE,
    ROW_HOUSE,
    THIRD_DEGRADING_BLOCKS,
    WALL,
)
from engine.los.tables import (
    ALONG_CODE,
    CORNER_CODE,
    HEX_CODE,
    SIDE_CODE,
    segment_touches_art,
    shape_id,
)

# -- compiled kernel ---------------------------------------------------------------------------------------
# The same decisions as the reference, on arrays. Each returns (full, plain): the element's effect, and its
# effect leaving out the blind hex (to tell "blocked only because the target is in a blind hex").

@njit(cache=True)
def _low_effect(level, cls, la, lb, behind):
    """A ground-level obstacle standing at ``level``: counts, blinds the hex behind it, or is seen over."""
    above = (la > level) + (lb > level)
    if above == 0:
        return cls, cls
    if above == 1 and behind:
        return cls, 0
    return 0, 0


@njit(cache=True)
def _hex_effect(i, hit, la, lb, lo, hi, behind, slope, level, everywhere, low, low_on_art, structure, art_owner):
    """Hex i on the map (not a quiet one): smoke, its structure, its low terrain, its hill."""
    g = level[i]
    full = 0
    plain = everywhere[i]
    obstacle = low[i]
    owner = art_owner[i]
    if owner == ART_TERRAIN and hit:
        obstacle = max(obstacle, low_on_art[i])
    s = structure[i]
    if s != 0:
        on = owner != ART_STRUCTURE or hit
        if s == MULTI and on:
            plain = BLOCK
        elif on:
            obstacle = BLOCK
        else:
            obstacle = max(obstacle, DEGRADE)
    if obstacle > 0:
        f, p = _low_effect(g, obstacle, la, lb, behind)
        full = max(full, f)
        plain = max(plain, p)
    if g > lo and (g >= 1 or g > hi):
        e = BLOCK if (owner != ART_HILL or hit) else DEGRADE
        if g >= hi:
            plain = max(plain, e)
        elif behind and not slope:
            full = max(full, e)
    return max(full, plain), plain


@njit(cache=True)
def _behind(k, lower, first, last):
    """Is the lower unit's hex the next hex after step k (lower: 0 same level, 1 a, 2 b)?"""
    if lower == 0:
        return False
    if first < 0:
        return True
    return k >= last if lower == 2 else k <= first


@njit(cache=True)
def _feature_step(kind, at_end, from_a, to_b, i1, i2, ia, ib, distance, la, lb, behind, level, structure):
    """A hexside feature crossed or run along; at the ends, the rules of 15.0.10, 15.3.6 and 16.4.3."""
    if at_end:
        if kind == ROW_HOUSE:
            return BLOCK, BLOCK
        if kind == BOCAGE and distance >= 2 and ((from_a and structure[ia] != 0) or (to_b and structure[ib] != 0)):
            return BLOCK, BLOCK
        return 0, 0
    g1 = level[i1] if i1 >= 0 else 0
    g2 = level[i2] if i2 >= 0 else 0
    multi = (i1 >= 0 and structure[i1] == MULTI) or (i2 >= 0 and structure[i2] == MULTI)
    return _feature_effect(kind, max(g1, g2), la, lb, behind, multi)


@njit(cache=True)
def _feature_effect(kind, g, la, lb, behind, multi_beside):
    """A hexside feature between two hexes on the line, standing at ground level g."""
    if kind == WALL:
        if la == lb and la <= g:
            return DEGRADE, DEGRADE
        return 0, 0
    if kind == ROW_HOUSE and multi_beside:
        return BLOCK, BLOCK
    if kind in (BOCAGE, ROW_HOUSE, BARRIER):
        return _low_effect(g, BLOCK, la, lb, behind)
    return 0, 0


@njit(cache=True)
def _hits(i, k, ax, ay, bx, by, step_t0, step_t1, art_hex_start, art_ring_start, art_x, art_y):
    """Does step k's stretch of the line touch hex i's art?"""
    t0, t1 = step_t0[k], step_t1[k]
    x0, y0 = ax + t0 * (bx - ax), ay + t0 * (by - ay)
    x1, y1 = ax + t1 * (bx - ax), ay + t1 * (by - ay)
    return segment_touches_art(x0, y0, x1, y1, i, art_hex_start, art_ring_start, art_x, art_y)


# lines: (lookup, q0, r0, hq, hr, dq_min, dr_min, dr_span, shape_start, shape_first, shape_last, step_kind, step_q1,
#        step_r1, step_q2, step_r2, step_side, step_t0, step_t1): hexes by axial coordinates, each hex's own, and
#        the line tables with each shape's first and last step through a hex (through_hexes);
# hexes: (centres, level, everywhere, low, low_on_art, structure, art_owner, building, side_code, feature_kind,
#         quiet, sided, art_hex_start, art_ring_start, art_x, art_y): Rules._compile's arrays.
# numba counts references to arrays: taking an array out of a tuple costs two atomic operations, so the kernel
# unpacks its two tuples once per pair (in _one_pair) and hands its helpers the arrays they read.


@njit(cache=True)
def _hex_of(lookup, oq, orr, q, r):
    """The index of the hex at axial offset (q, r) from the line's first hex (at (oq, orr) in lookup), -1 off the
    map (engine.los.tables.hex_lookup)."""
    return lookup[oq + q, orr + r]


@njit(cache=True)
def _through_hexes(k0, k1, step_kind):
    """The first and last steps through a hex (not a bare hexside), -1 for a line of hexsides alone."""
    first, last = -1, -1
    for k in range(k0, k1):
        if step_kind[k] == HEX_CODE or step_kind[k] == ALONG_CODE:
            if first < 0:
                first = k
            last = k
    return first, last


@njit(cache=True)
def through_hexes(shape_start, step_kind):
    """_through_hexes of every shape of the tables, worked out once per tables (Rules.batch keeps them):
    (first, last) int32 arrays indexed by shape."""
    n = shape_start.shape[0] - 1
    first, last = np.full(n, -1, np.int32), np.full(n, -1, np.int32)
    for s in range(n):
        first[s], last[s] = _through_hexes(shape_start[s], shape_start[s + 1], step_kind)
    return first, last


@njit(cache=True)
def _gully_edge(k, lookup, oq, orr, step_q1, step_r1, step_q2, step_r2, level):
    """12.5.9: the line must leave the lower unit's gully at once (k: its first step through a hex); True when
    it does not."""
    for i in (_hex_of(lookup, oq, orr, step_q1[k], step_r1[k]), _hex_of(lookup, oq, orr, step_q2[k], step_r2[k])):
        if i >= 0 and level[i] < 0:
            return True
    return False


@njit(cache=True)
def _inside_structure(bid, k0, k1, lookup, oq, orr, step_kind, step_q1, step_r1, step_q2, step_r2, building):
    """16.3.6: does the line stay inside structure ``bid`` (then only adjacent hexes see each other)?"""
    for k in range(k0, k1):
        if step_kind[k] == HEX_CODE or step_kind[k] == ALONG_CODE:
            for i in (_hex_of(lookup, oq, orr, step_q1[k], step_r1[k]),
                      _hex_of(lookup, oq, orr, step_q2[k], step_r2[k])):
                if i < 0 or building[i] != bid:
                    return False
    return True


@njit(cache=True)
def _slope(lower, lo, hi, k0, k1, lookup, oq, orr, step_kind, step_q1, step_r1, step_q2, step_r2, level):
    """12.5.11: from the higher unit, one level lower each hex, down to the lower unit (lower: 1 a, 2 b)."""
    expect = hi
    for j in range(k1 - k0):
        k = k0 + j if lower == 2 else k1 - 1 - j
        if step_kind[k] != HEX_CODE and step_kind[k] != ALONG_CODE:
            continue
        expect -= 1
        for i in (_hex_of(lookup, oq, orr, step_q1[k], step_r1[k]), _hex_of(lookup, oq, orr, step_q2[k], step_r2[k])):
            g = level[i] if i >= 0 else 0
            if g != expect:
                return False
    return lo == expect - 1


@njit(cache=True)
def _feature_code(i1, i2, side, sided, side_code):
    """The hexside code on side ``side`` of hex i1 (toward i2), read from i2 when i1 is off the map."""
    if i1 >= 0:
        return side_code[i1, side] if sided[i1] else 0
    if i2 >= 0:
        return side_code[i2, (side + 3) % 6]
    return 0


@njit(cache=True)
def _count(full, plain, hard, blind_block, n_full, n_plain):
    """One element's (full, plain) added to the line's tally."""
    if plain == BLOCK:
        hard = True
    elif full == BLOCK:
        blind_block = True
    return hard, blind_block, n_full + (full == DEGRADE), n_plain + (plain == DEGRADE)


@njit(cache=True)
def _one_pair(ia, ib, la, lb, lines, hexes):
    """(result, hindrances, blind) of the line from hex ia at level la to hex ib at level lb."""
    (lookup, q0, r0, hq, hr, dq_min, dr_min, dr_span, shape_start, shape_first, shape_last, step_kind, step_q1,
     step_r1, step_q2, step_r2, step_side, step_t0, step_t1) = lines
    (centres, level, everywhere, low, low_on_art, structure, art_owner, building, side_code, feature_kind, quiet,
     sided, art_hex_start, art_ring_start, art_x, art_y) = hexes
    lo, hi = min(la, lb), max(la, lb)
    lower = 0 if la == lb else (1 if la < lb else 2)  # 1: a is lower, 2: b is lower
    oq, orr = hq[ia] - q0, hr[ia] - r0  # the first hex in the lookup table
    dq, dr = hq[ib] - hq[ia], hr[ib] - hr[ia]
    distance = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    s = shape_id(dq, dr, dq_min, dr_min, dr_span)
    k0, k1 = shape_start[s], shape_start[s + 1]
    ax, ay, bx, by = centres[ia, 0], centres[ia, 1], centres[ib, 0], centres[ib, 1]
    first, last = shape_first[s], shape_last[s]

    hard = lower != 0 and lo < 0 and first >= 0 and _gully_edge(
        first if lower == 1 else last, lookup, oq, orr, step_q1, step_r1, step_q2, step_r2, level)
    if building[ia] >= 0 and building[ib] == building[ia] and distance >= 2:
        hard = hard or _inside_structure(building[ia], k0, k1, lookup, oq, orr, step_kind, step_q1, step_r1,
                                         step_q2, step_r2, building)
    slope = lower != 0 and first >= 0 and _slope(lower, lo, hi, k0, k1, lookup, oq, orr, step_kind, step_q1,
                                                  step_r1, step_q2, step_r2, level)
    blind_block, n_full, n_plain = False, 0, 0
    sunk = hi < 0  # both units in gullies: the open ground between them rises above them
    for k in range(k0, k1):
        kind = step_kind[k]
        i1, i2 = _hex_of(lookup, oq, orr, step_q1[k], step_r1[k]), _hex_of(lookup, oq, orr, step_q2[k], step_r2[k])
        behind = _behind(k, lower, first, last)
        full, plain = 0, 0
        # The hexes the step goes through: one, both along a hexside (14.0.8: the heavier counts), none across.
        for w in range(1 if kind in (HEX_CODE, CORNER_CODE) else (2 if kind == ALONG_CODE else 0)):
            i = i1 if w == 0 else i2
            if i < 0 or quiet[i]:
                f, p = (BLOCK, BLOCK) if sunk else (0, 0)
            else:
                hit = art_owner[i] == ART_NONE or _hits(i, k, ax, ay, bx, by, step_t0, step_t1, art_hex_start,
                                                        art_ring_start, art_x, art_y)
                f, p = _hex_effect(i, hit, la, lb, lo, hi, behind, slope, level, everywhere, low, low_on_art,
                                   structure, art_owner)
            full, plain = max(full, f), max(plain, p)
        # The hexside feature, crossed or run along: an element of its own.
        code = 0 if kind in (HEX_CODE, CORNER_CODE) else _feature_code(i1, i2, step_side[k], sided, side_code)
        if code != 0 and feature_kind[code] != NO_FEATURE:
            from_a = step_q1[k] == 0 and step_r1[k] == 0
            to_b = step_q2[k] == dq and step_r2[k] == dr
            ff, fp = _feature_step(feature_kind[code], kind == SIDE_CODE and (from_a or to_b), from_a, to_b, i1, i2,
                                   ia, ib, distance, la, lb, behind, level, structure)
            hard, blind_block, n_full, n_plain = _count(ff, fp, hard, blind_block, n_full, n_plain)
        hard, blind_block, n_full, n_plain = _count(full, plain, hard, blind_block, n_full, n_plain)

    blocked = hard or blind_block or n_full >= THIRD_DEGRADING_BLOCKS
    blocked_anyway = hard or n_plain >= THIRD_DEGRADING_BLOCKS
    if blocked:
        return BLOCK, min(n_full, 32767), not blocked_anyway
    return (DEGRADE if n_full > 0 else CLEAR), min(n_full, 32767), False


# The same kernel with and without threads: threads pay off for a whole-map analysis, not for a viewshed.
PARALLEL_FROM = 20000


@njit(cache=True)
def _batch_serial(a, b, level_a, level_b, lines, hexes):
    n = a.shape[0]
    result, hindrances, blind = np.zeros(n, np.int8), np.zeros(n, np.int16), np.zeros(n, np.bool_)
    for p in range(n):
        result[p], hindrances[p], blind[p] = _one_pair(a[p], b[p], level_a[p], level_b[p], lines, hexes)
    return result, hindrances, blind


@njit(cache=True, parallel=True)
def _batch_parallel(a, b, level_a, level_b, lines, hexes):
    n = a.shape[0]
    result, hindrances, blind = np.zeros(n, np.int8), np.zeros(n, np.int16), np.zeros(n, np.bool_)
    for p in prange(n):
        result[p], hindrances[p], blind[p] = _one_pair(a[p], b[p], level_a[p], level_b[p], lines, hexes)
    return result, hindrances, blind
