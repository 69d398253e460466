"""The compiled kernel of ATS LOS: the reference's decisions on arrays, many pairs at once.
tests/engine/los/test_ats.py keeps it equal to the reference (engine/games/ats/los/reference.py) on every pair."""

from numba import njit, prange

from engine.games.ats.los.tables import (
    BLIND,
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
    DEPRESSION_DEPTH,
    IGNORED,
    NONE,
    SIDE_CLIFF,
    SIDE_INTERIOR,
    SIDE_PLAIN,
    SMOKE_HEIGHT,
    SMOKE_HINDRANCE,
    TABLE_DIFF_MAX,
    VEHICLE_HEIGHT,
    WALL,
)
from engine.los.tables import ALONG_CODE, HEX_CODE, SIDE_CODE, segment_touches_art, shape_id

# -- the compiled kernel -----------------------------------------------------------------------------------
# The same rules as line.Line, step by step, without the reasons. Effects: NONE 0, IGNORED 1, HINDERING 2,
# BLIND 3, WALL 4.

@njit(cache=True)
def _dist(q1, r1, q2, r2):
    dq, dr = q2 - q1, r2 - r1
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@njit(cache=True)
def _table(table, diff, rng):
    rng = min(max(rng, 0), table.shape[1] - 1)
    if diff <= TABLE_DIFF_MAX:
        return table[diff, rng]
    band = (max(rng, 1) - 1) // 6 + 1
    return max(1, (band * 20 + diff) // (2 * diff))


@njit(cache=True)
def _obstacle(top, five, rng, zone_start, crest, same, lo, hi, hk_level, distance, table):
    if top <= lo:
        return NONE
    if same:
        return WALL
    if five and top <= hk_level:
        return IGNORED
    if top >= hi:
        return WALL
    if five:
        return IGNORED
    diff = hi - top
    if diff < 10:
        return WALL
    n = _table(table, diff, rng)
    if crest:
        n -= 1
    if n > 0 and zone_start <= distance <= zone_start + n - 1:
        return BLIND
    return IGNORED


@njit(cache=True)
def _col(data, i, column):
    if i < 0:
        if column in (C_HILL, C_HILLOCK, C_DEPRESSION):
            return -1
        return 0
    return data[i, column]


@njit(cache=True)
def _adjacent_to(data, neighbours, i, group):
    for s in range(6):
        j = neighbours[i, s]
        if j >= 0 and data[j, C_HILLOCK] == group:
            return True
    return False


@njit(cache=True)
def _hexside(side_height, side_kind, i1, i2, side):
    """(kind, height) of the hexside between i1 and i2 (side ``side`` of i1), read from whichever is on the map."""
    if i1 >= 0:
        return side_kind[i1, side], side_height[i1, side]
    if i2 >= 0:
        return side_kind[i2, (side + 3) % 6], side_height[i2, (side + 3) % 6]
    return SIDE_PLAIN, 0


@njit(cache=True)
def _ground(data, i, floor):
    """The level hex i presents as an obstacle (its floor when the line runs down depression ``floor``)."""
    g = _col(data, i, C_GROUND)
    if floor >= 0 and _col(data, i, C_DEPRESSION) == floor:
        g -= DEPRESSION_DEPTH
    return g


@njit(cache=True)
def _base(data, i, floor):
    """The level hex i's terrain stands on."""
    g = _col(data, i, C_LEVEL)
    if floor >= 0 and _col(data, i, C_DEPRESSION) == floor:
        g -= DEPRESSION_DEPTH
    return g


@njit(cache=True)
def _pair(ia, ib, la, lb, data, side_height, side_kind, side_any, neighbours, hq, hr, centres,
          art_hex_start, art_ring_start, art_x, art_y, table, terraced, any_vehicle,
          lookup, q0, r0, dq_min, dr_min, dr_span, shape_start, step_kind, step_q1, step_r1, step_q2, step_r2,
          step_side):
    """(result, hindrances, blind) of one line: the rules of line.Line."""
    if ia == ib:
        return 0, 0, False
    qa, ra, qb, rb = hq[ia], hr[ia], hq[ib], hr[ib]
    s = shape_id(qb - qa, rb - ra, dq_min, dr_min, dr_span)
    k0, k1 = shape_start[s], shape_start[s + 1]
    distance = _dist(qa, ra, qb, rb)
    oq, orr = qa - q0, ra - r0  # the start hex in the lookup table

    deir_a = data[ia, C_DEIR] != 0 and la == data[ia, C_LEVEL]
    deir_b = data[ib, C_DEIR] != 0 and lb == data[ib, C_LEVEL]
    deir_end = -1  # 0: a, 1: b
    ea, eb = la, lb
    if deir_a and not deir_b:
        deir_end, ea = 0, la + 5
    elif deir_b and not deir_a:
        deir_end, eb = 1, lb + 5
    same = ea == eb
    hi, lo = max(ea, eb), min(ea, eb)
    hi_is_a = ea > eb
    if hi_is_a:
        hq_, hr_, hi_index = qa, ra, ia
    else:
        hq_, hr_, hi_index = qb, rb, ib
    on_a = data[ia, C_HILLOCK] >= 0 and la == data[ia, C_LEVEL]
    on_b = data[ib, C_HILLOCK] >= 0 and lb == data[ib, C_LEVEL]
    hk_level = -1000000
    if on_a:
        hk_level = ea
    if on_b and eb > hk_level:
        hk_level = eb
    hi_on_hillock = (on_a if hi_is_a else on_b) and not same
    hi_hill = data[hi_index, C_HILL] if not same else -1
    x0, y0, x1, y1 = centres[ia, 0], centres[ia, 1], centres[ib, 0], centres[ib, 1]

    # 7.3.3: DOWN in a linear depression
    down_a = data[ia, C_DEPRESSION] >= 0 and la < data[ia, C_LEVEL]
    down_b = data[ib, C_DEPRESSION] >= 0 and lb < data[ib, C_LEVEL]
    floor = -1
    dead = False
    if (down_a or down_b) and distance > 1:
        group = data[ia, C_DEPRESSION] if down_a else data[ib, C_DEPRESSION]
        inside = data[ia, C_DEPRESSION] == group and data[ib, C_DEPRESSION] == group
        if inside:
            for k in range(k0, k1):
                kind = step_kind[k]
                if kind == SIDE_CODE:
                    continue
                if _col(data, lookup[oq + step_q1[k], orr + step_r1[k]], C_DEPRESSION) != group:
                    inside = False
                    break
                if kind == ALONG_CODE and _col(data, lookup[oq + step_q2[k], orr + step_r2[k]],
                                               C_DEPRESSION) != group:
                    inside = False
                    break
        if inside:
            floor = group
        else:
            dead = True

    # 6.2.71: a continuous slope from the lower unit up to the higher one
    slope = False
    if not same and any_vehicle and la == data[ia, C_LEVEL] and lb == data[ib, C_LEVEL]:
        slope = True
        prev = _ground(data, ib if hi_is_a else ia, floor)
        count = k1 - k0
        for m in range(count + 1):
            if m == count:
                g = _ground(data, ia if hi_is_a else ib, floor)
            else:
                k = k0 + m if not hi_is_a else k1 - 1 - m
                kind = step_kind[k]
                if kind == SIDE_CODE:
                    continue
                g = _ground(data, lookup[oq + step_q1[k], orr + step_r1[k]], floor)
                if kind == ALONG_CODE:
                    g = max(g, _ground(data, lookup[oq + step_q2[k], orr + step_r2[k]], floor))
            if g < prev or g - prev > 10:
                slope = False
                break
            prev = g

    wall = False
    blinded = dead
    hind = 0
    zone_d = -1  # hillock zone (8.12.24): range of the last other hillock hex
    own_hexes = 0
    own_hillock = data[hi_index, C_HILLOCK] if hi_on_hillock else -1
    crossed = False  # deir (8.6.2)
    first_deir = distance
    if deir_end == 0:
        yq, yr = qb, rb
    else:
        yq, yr = qa, ra

    # the ends: smoke counts in the firing and target hexes (6.4.5)
    for i in (ia, ib):
        smoke = data[i, C_SMOKE]
        if smoke > 0 and _base(data, i, floor) + SMOKE_HEIGHT > lo:
            hind += SMOKE_HINDRANCE * smoke

    for k in range(k0, k1):
        kind = step_kind[k]
        if kind == SIDE_CODE:
            i1 = lookup[oq + step_q1[k], orr + step_r1[k]]
            if i1 >= 0 and deir_end < 0 and not side_any[i1]:
                continue  # a bare hexside (the common case)
            i2 = lookup[oq + step_q2[k], orr + step_r2[k]]
            at_end = i2 in (ia, ib) or i1 in (ia, ib)
            if deir_end >= 0 and not at_end and _col(data, i1, C_DEIR) != _col(data, i2, C_DEIR):
                crossed = True
            if (i1 >= 0 and not side_any[i1]) or (i1 < 0 and (i2 < 0 or not side_any[i2])):
                continue
            sk, sh = _hexside(side_height, side_kind, i1, i2, step_side[k])
            if sk == SIDE_INTERIOR:
                wall = True
            elif sh > 0:
                top = max(_ground(data, i1, floor), _ground(data, i2, floor)) + sh
                hi_here = i1 == ia or i2 == ia if hi_is_a else i1 == ib or i2 == ib
                effect = NONE
                if not (at_end and (same or hi_here)):
                    q1, r1 = qa + step_q1[k], ra + step_r1[k]
                    q2, r2 = qa + step_q2[k], ra + step_r2[k]
                    if hi_is_a:
                        dn, df = _dist(hq_, hr_, q1, r1), _dist(hq_, hr_, q2, r2)
                    else:
                        dn, df = _dist(hq_, hr_, q2, r2), _dist(hq_, hr_, q1, r1)
                    effect = _obstacle(top, sh == 5, dn, df, False, same, lo, hi, hk_level, distance, table)
                    if at_end and effect == WALL:
                        effect = NONE
                if effect == WALL:
                    wall = True
                elif effect == BLIND:
                    blinded = True
            continue

        nhex = 1
        if kind == ALONG_CODE:
            nhex = 2
            iL = lookup[oq + step_q1[k], orr + step_r1[k]]
            iR = lookup[oq + step_q2[k], orr + step_r2[k]]
            if (iL >= 0 and side_any[iL]) or (iL < 0 and iR >= 0 and side_any[iR]):
                sk, sh = _hexside(side_height, side_kind, iL, iR, step_side[k])
                if sk == SIDE_INTERIOR:
                    wall = True
                elif sh >= 10:
                    rng = 0
                    if not same:
                        rng = max(_dist(hq_, hr_, qa + step_q1[k], ra + step_r1[k]),
                                  _dist(hq_, hr_, qa + step_q2[k], ra + step_r2[k]))
                    top = max(_ground(data, iL, floor), _ground(data, iR, floor)) + sh
                    effect = _obstacle(top, False, rng, rng + 1, False, same, lo, hi, hk_level, distance, table)
                    if effect == WALL:
                        wall = True
                    elif effect == BLIND:
                        blinded = True

        best_hind = 0
        for which in range(nhex):
            if which == 0:
                q, r = qa + step_q1[k], ra + step_r1[k]
            else:
                q, r = qa + step_q2[k], ra + step_r2[k]
            i = lookup[q - q0, r - r0]
            if floor < 0:
                if i >= 0:
                    if data[i, C_FLAGS] == 0 and data[i, C_GROUND] <= lo:
                        continue  # bare ground below the line (the common case)
                elif lo >= 0:
                    continue
            ground = _ground(data, i, floor)
            if ground <= lo and (i < 0 or data[i, C_FLAGS] == 0):
                continue
            rng = 0 if same else _dist(hq_, hr_, q, r)
            if deir_end >= 0 and _col(data, i, C_DEIR) != 0:
                first_deir = min(first_deir, _dist(yq, yr, q, r))
            hillock = _col(data, i, C_HILLOCK)
            if hillock >= 0 and hillock == own_hillock:
                own_hexes += 1
            effect = NONE
            # the ground
            if ground > lo:
                if hillock >= 0:
                    hb = ground - 5
                    seen_over = not same and hi > ground  # the +5 rule
                    beside = ((ea == hb and _adjacent_to(data, neighbours, ia, hillock))  # 8.12.22
                              or (eb == hb and _adjacent_to(data, neighbours, ib, hillock)))
                    on_it = ((on_a and data[ia, C_HILLOCK] == hillock)  # 8.12.23
                             or (on_b and data[ib, C_HILLOCK] == hillock))
                    if seen_over or beside or on_it:
                        effect = IGNORED
                    elif hi_on_hillock and lo == hb and data[hi_index, C_HILLOCK] != hillock:
                        zone_d = max(zone_d, rng)
                        effect = IGNORED
                    else:
                        effect = WALL
                else:
                    crest = False
                    hill = _col(data, i, C_HILL)
                    if not terraced and hill >= 0 and hill == hi_hill and kind == HEX_CODE:
                        crest = not _cliff_exit(k, k0, k1, q, r, hi_is_a, qa, ra, oq, orr, lookup, step_kind,
                                                step_q1, step_r1, step_q2, step_r2, step_side, side_kind)
                    effect = _obstacle(ground, False, rng, rng + 1, crest, same, lo, hi, hk_level, distance, table)
            if effect == WALL:
                wall = True
            elif effect == BLIND:
                blinded = True
            if i < 0:
                continue
            base = _base(data, i, floor)
            # terrain in the hex, where the line touches its art (6.2.3)
            touched = -1
            block = data[i, C_BLOCK]
            if block > 0:
                touched = 1 if (data[i, C_ART] == 0 or segment_touches_art(
                    x0, y0, x1, y1, i, art_hex_start, art_ring_start, art_x, art_y)) else 0
                if touched == 1:
                    effect = _obstacle(base + block, block == 5, rng, rng + 1, False, same, lo, hi, hk_level,
                                       distance, table)
                    if effect == WALL:
                        wall = True
                    elif effect == BLIND:
                        blinded = True
            rubble = data[i, C_RUBBLE]
            if rubble > 0:
                effect = _obstacle(base + rubble, rubble == 5, rng, rng + 1, False, same, lo, hi, hk_level, distance,
                                   table)
                if effect == WALL:
                    wall = True
                elif effect == BLIND:
                    blinded = True
            obscured = False
            obscure = data[i, C_OBSCURE]
            if obscure > 0:
                if touched < 0:
                    touched = 1 if (data[i, C_ART] == 0 or segment_touches_art(
                        x0, y0, x1, y1, i, art_hex_start, art_ring_start, art_x, art_y)) else 0
                if touched == 1:
                    top = base + obscure
                    if obscure >= 10 and not same and hi > top:
                        effect = _obstacle(top, False, rng, rng + 1, False, same, lo, hi, hk_level, distance, table)
                        if effect == WALL:
                            wall = True
                        elif effect == BLIND:
                            blinded = True
                    if top > lo and not (obscure == 5 and top <= hk_level):
                        obscured = True
            vehicle = False
            if data[i, C_VEHICLE] != 0 or data[i, C_WRECK] != 0:
                has = data[i, C_VEHICLE] != 0
                if data[i, C_WRECK] != 0:
                    deir_higher = False  # 8.6.2: a wreck in a deir, between a deir hex and a higher hex
                    if deir_end >= 0 and data[i, C_DEIR] != 0:
                        deir_higher = (lb > la) if deir_end == 0 else (la > lb)
                    if not deir_higher:
                        has = True
                top = base + VEHICLE_HEIGHT
                if has and top > lo and top > hk_level and ((same and base <= lo) or slope):
                    vehicle = True
            h = 0
            smoke = data[i, C_SMOKE]
            if smoke > 0 and base + SMOKE_HEIGHT > lo:
                h = SMOKE_HINDRANCE * smoke
            elif obscured or vehicle:
                h = 1
            best_hind = max(best_hind, h)
        hind += best_hind

    if zone_d >= 0:
        n = max(zone_d - own_hexes, 0) // 4
        if zone_d + 2 <= distance <= zone_d + 1 + n:
            blinded = True
    if deir_end >= 0 and crossed:
        rel = (eb - ea) if deir_end == 0 else (ea - eb)
        if not (rel >= 5 and first_deir <= rel):
            blinded = True
    if wall or blinded:
        return 2, hind, not wall
    if hind > 0:
        return 1, hind, False
    return 0, 0, False


@njit(cache=True)
def _cliff_exit(k, k0, k1, q, r, hi_is_a, qa, ra, oq, orr, lookup, step_kind, step_q1, step_r1, step_q2, step_r2,
                step_side, side_kind):
    """Does the line leave hex (q, r) toward the lower unit across a cliff hexside (8.13.5)?"""
    if hi_is_a:
        j, stop, inc = k + 1, min(k + 3, k1), 1
    else:
        j, stop, inc = k - 1, max(k - 3, k0 - 1), -1
    while j != stop:
        if step_kind[j] == SIDE_CODE:
            sq1, sr1 = qa + step_q1[j], ra + step_r1[j]
            sq2, sr2 = qa + step_q2[j], ra + step_r2[j]
            if (sq1 == q and sr1 == r) or (sq2 == q and sr2 == r):
                j1 = lookup[oq + step_q1[j], orr + step_r1[j]]
                if j1 >= 0:
                    return side_kind[j1, step_side[j]] == SIDE_CLIFF
                j2 = lookup[oq + step_q2[j], orr + step_r2[j]]
                return j2 >= 0 and side_kind[j2, (step_side[j] + 3) % 6] == SIDE_CLIFF
        j += inc
    return False


@njit(cache=True, parallel=True)
def _batch(a, b, la, lb, data, side_height, side_kind, side_any, neighbours, hq, hr, centres,
           art_hex_start, art_ring_start, art_x, art_y, table, terraced, any_vehicle,
           lookup, q0, r0, dq_min, dr_min, dr_span, shape_start, step_kind, step_q1, step_r1, step_q2, step_r2,
           step_side, result, hindrances, blind):
    for p in prange(a.shape[0]):
        res, hind, bl = _pair(a[p], b[p], la[p], lb[p], data, side_height, side_kind, side_any, neighbours, hq,
                              hr, centres, art_hex_start, art_ring_start, art_x, art_y, table, terraced,
                              any_vehicle, lookup, q0, r0, dq_min, dr_min, dr_span, shape_start, step_kind,
                              step_q1, step_r1, step_q2, step_r2, step_side)
        result[p] = res
        hindrances[p] = min(hind, 32767)
        blind[p] = bl
