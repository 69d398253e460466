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
    axial_of,
    index_of_axial,
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


@njit(cache=True)
def _one_pair(ia, ib, la, lb, lines, hexes):
    """(result, hindrances, blind) of the line from hex ia at level la to hex ib at level lb."""
    (columns, rows, orient, stagger, dq_min, dr_min, dr_span, shape_start, step_kind, step_q1, step_r1, step_q2,
     step_r2, step_side, step_t0, step_t1) = lines
    (centres, level, everywhere, low, low_on_art, structure, art_owner, building, side_code, feature_kind, quiet,
     sided, art_hex_start, art_ring_start, art_x, art_y) = hexes
    lo, hi = min(la, lb), max(la, lb)
    lower = 0 if la == lb else (1 if la < lb else 2)  # 1: a is lower, 2: b is lower
    qa, ra = axial_of(ia // rows, ia % rows, orient, stagger)
    qb, rb = axial_of(ib // rows, ib % rows, orient, stagger)
    dq, dr = qb - qa, rb - ra
    distance = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    s = shape_id(dq, dr, dq_min, dr_min, dr_span)
    k0, k1 = shape_start[s], shape_start[s + 1]
    ax, ay, bx, by = centres[ia, 0], centres[ia, 1], centres[ib, 0], centres[ib, 1]

    first, last = -1, -1
    for k in range(k0, k1):
        if step_kind[k] == HEX_CODE or step_kind[k] == ALONG_CODE:
            if first < 0:
                first = k
            last = k
    hard = False
    blind_block = False
    n_full = 0
    n_plain = 0

    # The gully edge (12.5.9): the line must leave the lower unit's gully at once.
    if lower != 0 and lo < 0 and first >= 0:
        k = first if lower == 1 else last
        for q, r in ((step_q1[k], step_r1[k]), (step_q2[k], step_r2[k])):
            i = index_of_axial(qa + q, ra + r, orient, stagger, columns, rows)
            if i >= 0 and level[i] < 0:
                hard = True
    # Inside one multi-hex structure, only adjacent hexes (16.3.6).
    bid = building[ia]
    if bid >= 0 and building[ib] == bid and distance >= 2:
        inside = True
        for k in range(k0, k1):
            if step_kind[k] == HEX_CODE or step_kind[k] == ALONG_CODE:
                for q, r in ((step_q1[k], step_r1[k]), (step_q2[k], step_r2[k])):
                    i = index_of_axial(qa + q, ra + r, orient, stagger, columns, rows)
                    if i < 0 or building[i] != bid:
                        inside = False
        if inside:
            hard = True
    # The slope (12.5.11): from the higher unit, one level lower each hex, down to the lower unit.
    slope = False
    if lower != 0 and first >= 0:
        expect = hi
        ok = True
        for j in range(k1 - k0):
            k = k0 + j if lower == 2 else k1 - 1 - j
            if step_kind[k] != HEX_CODE and step_kind[k] != ALONG_CODE:
                continue
            expect -= 1
            for q, r in ((step_q1[k], step_r1[k]), (step_q2[k], step_r2[k])):
                i = index_of_axial(qa + q, ra + r, orient, stagger, columns, rows)
                g = level[i] if i >= 0 else 0
                if g != expect:
                    ok = False
            if not ok:
                break
        slope = ok and lo == expect - 1

    sunk = hi < 0  # both units in gullies: the open ground between them rises above them
    for k in range(k0, k1):
        kind = step_kind[k]
        i1 = index_of_axial(qa + step_q1[k], ra + step_r1[k], orient, stagger, columns, rows)
        behind = _behind(k, lower, first, last)
        full, plain = 0, 0
        if kind in (HEX_CODE, CORNER_CODE):
            if i1 < 0 or quiet[i1]:
                if not sunk:
                    continue
                full, plain = BLOCK, BLOCK
            else:
                hit = art_owner[i1] == ART_NONE or _hits(i1, k, ax, ay, bx, by, step_t0, step_t1,
                                                         art_hex_start, art_ring_start, art_x, art_y)
                full, plain = _hex_effect(i1, hit, la, lb, lo, hi, behind, slope, level, everywhere, low,
                                          low_on_art, structure, art_owner)
        else:
            i2 = -1
            if kind == ALONG_CODE or i1 < 0:
                i2 = index_of_axial(qa + step_q2[k], ra + step_r2[k], orient, stagger, columns, rows)
            if kind == ALONG_CODE:
                for i in (i1, i2):
                    if i < 0 or quiet[i]:
                        f, pl = (BLOCK, BLOCK) if sunk else (0, 0)
                    else:
                        hit = art_owner[i] == ART_NONE or _hits(i, k, ax, ay, bx, by, step_t0, step_t1,
                                                                art_hex_start, art_ring_start, art_x, art_y)
                        f, pl = _hex_effect(i, hit, la, lb, lo, hi, behind, slope, level, everywhere, low,
                                            low_on_art, structure, art_owner)
                    full, plain = max(full, f), max(plain, pl)
            # The hexside feature, crossed or run along: an element of its own.
            code = 0
            if i1 >= 0:
                if sided[i1]:
                    code = side_code[i1, step_side[k]]
            elif i2 >= 0:
                code = side_code[i2, (step_side[k] + 3) % 6]
            if code != 0 and feature_kind[code] != NO_FEATURE:
                if i2 < 0:
                    i2 = index_of_axial(qa + step_q2[k], ra + step_r2[k], orient, stagger, columns, rows)
                from_a = step_q1[k] == 0 and step_r1[k] == 0
                to_b = step_q2[k] == dq and step_r2[k] == dr
                at_end = kind == SIDE_CODE and (from_a or to_b)
                ff, fp = _feature_step(feature_kind[code], at_end, from_a, to_b, i1, i2, ia, ib, distance,
                                       la, lb, behind, level, structure)
                if fp == BLOCK:
                    hard = True
                elif ff == BLOCK:
                    blind_block = True
                n_full += ff == DEGRADE
                n_plain += fp == DEGRADE
            if kind == SIDE_CODE:
                continue
        if plain == BLOCK:
            hard = True
        elif full == BLOCK:
            blind_block = True
        n_full += full == DEGRADE
        n_plain += plain == DEGRADE

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
