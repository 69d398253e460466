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

@njit(cache=True, inline="always")
def _dist(q1, r1, q2, r2):
    dq, dr = q2 - q1, r2 - r1
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@njit(cache=True, inline="always")
def _table(table, diff, rng):
    rng = min(max(rng, 0), table.shape[1] - 1)
    if diff <= TABLE_DIFF_MAX:
        return table[diff, rng]
    band = (max(rng, 1) - 1) // 6 + 1
    return max(1, (band * 20 + diff) // (2 * diff))


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def _hexside(side_height, side_kind, i1, i2, side):
    """(kind, height) of the hexside between i1 and i2 (side ``side`` of i1), read from whichever is on the map."""
    if i1 >= 0:
        return side_kind[i1, side], side_height[i1, side]
    if i2 >= 0:
        return side_kind[i2, (side + 3) % 6], side_height[i2, (side + 3) % 6]
    return SIDE_PLAIN, 0


@njit(cache=True, inline="always")
def _ground(data, i, floor):
    """The level hex i presents as an obstacle (its floor when the line runs down depression ``floor``)."""
    g = _col(data, i, C_GROUND)
    if floor >= 0 and _col(data, i, C_DEPRESSION) == floor:
        g -= DEPRESSION_DEPTH
    return g


@njit(cache=True, inline="always")
def _base(data, i, floor):
    """The level hex i's terrain stands on."""
    g = _col(data, i, C_LEVEL)
    if floor >= 0 and _col(data, i, C_DEPRESSION) == floor:
        g -= DEPRESSION_DEPTH
    return g


# The pair's facts every step reads, one tuple of numbers (numba passes it for free; arrays go one by one):
#   view: (la, lb, ea, eb, lo, hi, same, hi_is_a, hi_index, hq, hr, hk_level, on_a, on_b, hi_on_hillock,
#          deir_end, floor, distance, slope)
# ea, eb: the ends' levels for the rules (a deir end 5 higher, 8.6.2); hi_index, hq, hr: the higher end's hex;
# hk_level: the level of a hillock an end stands on; deir_end: 0 a, 1 b, -1 none; floor: the depression a line
# runs down (7.3.3), -1 none; slope: a continuous slope between the ends (6.2.71).
# The helpers a line calls at each step (or once) are inline="always": numba puts them into _pair, which then
# runs as fast as one function (docs/los-geometry.md, "Tables for compiled kernels").


@njit(cache=True, inline="always")
def _ends(ia, ib, la, lb, qa, ra, qb, rb, data):
    """(la, lb, ea, eb, lo, hi, same, hi_is_a, hi_index, hq, hr, hk_level, on_a, on_b, hi_on_hillock,
    deir_end): the first fields of the view, from the two ends."""
    deir_a = data[ia, C_DEIR] != 0 and la == data[ia, C_LEVEL]
    deir_b = data[ib, C_DEIR] != 0 and lb == data[ib, C_LEVEL]
    deir_end = -1  # 0: a, 1: b
    ea, eb = la, lb
    if deir_a and not deir_b:
        deir_end, ea = 0, la + 5
    elif deir_b and not deir_a:
        deir_end, eb = 1, lb + 5
    same = ea == eb
    hi_is_a = ea > eb
    hq_, hr_, hi_index = (qa, ra, ia) if hi_is_a else (qb, rb, ib)
    on_a = data[ia, C_HILLOCK] >= 0 and la == data[ia, C_LEVEL]
    on_b = data[ib, C_HILLOCK] >= 0 and lb == data[ib, C_LEVEL]
    hk_level = -1000000
    if on_a:
        hk_level = ea
    if on_b and eb > hk_level:
        hk_level = eb
    hi_on_hillock = (on_a if hi_is_a else on_b) and not same
    return (la, lb, ea, eb, min(ea, eb), max(ea, eb), same, hi_is_a, hi_index, hq_, hr_, hk_level, on_a, on_b,
            hi_on_hillock, deir_end)


@njit(cache=True, inline="always")
def _depression(ia, ib, la, lb, distance, k0, k1, oq, orr, data, lookup, step_kind, step_q1, step_r1, step_q2,
                step_r2):
    """7.3.3: (floor, dead) for a unit DOWN in a linear depression: the line runs down it (floor: its group) or
    leaves it (dead: out of LOS)."""
    down_a = data[ia, C_DEPRESSION] >= 0 and la < data[ia, C_LEVEL]
    down_b = data[ib, C_DEPRESSION] >= 0 and lb < data[ib, C_LEVEL]
    if not (down_a or down_b) or distance <= 1:
        return -1, False
    group = data[ia, C_DEPRESSION] if down_a else data[ib, C_DEPRESSION]
    if data[ia, C_DEPRESSION] != group or data[ib, C_DEPRESSION] != group:
        return -1, True
    for k in range(k0, k1):
        kind = step_kind[k]
        if kind == SIDE_CODE:
            continue
        if _col(data, lookup[oq + step_q1[k], orr + step_r1[k]], C_DEPRESSION) != group:
            return -1, True
        if kind == ALONG_CODE and _col(data, lookup[oq + step_q2[k], orr + step_r2[k]], C_DEPRESSION) != group:
            return -1, True
    return group, False


@njit(cache=True, inline="always")
def _slope(ia, ib, hi_is_a, floor, k0, k1, oq, orr, data, lookup, step_kind, step_q1, step_r1, step_q2, step_r2):
    """6.2.71: a continuous slope from the lower unit up to the higher one (no step down, none over 10)."""
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
            return False
        prev = g
    return True


@njit(cache=True, inline="always")
def _bare(i, lo, floor, data):
    """Is hex i (-1 off the map) bare ground below the line, with nothing to read? The common case, tried first."""
    if floor < 0 and ((data[i, C_FLAGS] == 0 and data[i, C_GROUND] <= lo) if i >= 0 else lo >= 0):
        return True
    return _ground(data, i, floor) <= lo and (i < 0 or data[i, C_FLAGS] == 0)


@njit(cache=True, inline="always")
def _has_side(i1, i2, side_any):
    """Is there a hexside feature around hex i1 (or i2, when i1 is off the map) to read?"""
    return (i1 >= 0 and side_any[i1]) or (i1 < 0 and i2 >= 0 and side_any[i2])


@njit(cache=True, inline="always")
def _crossed_side(view, sk, sh, i1, i2, ia, ib, at_end, qa, ra, q1, r1, q2, r2, data, table):
    """The effect of a hexside of kind sk and height sh the line crosses between i1 (at q1, r1) and i2 (7.2)."""
    la, lb, ea, eb, lo, hi, same, hi_is_a, hi_index, hq_, hr_, hk_level = view[:12]
    floor, distance = view[16], view[17]
    if sk == SIDE_INTERIOR:
        return WALL
    if sh <= 0:
        return NONE
    top = max(_ground(data, i1, floor), _ground(data, i2, floor)) + sh
    hi_here = i1 == ia or i2 == ia if hi_is_a else i1 == ib or i2 == ib
    if at_end and (same or hi_here):
        return NONE
    if hi_is_a:
        dn, df = _dist(hq_, hr_, q1, r1), _dist(hq_, hr_, q2, r2)
    else:
        dn, df = _dist(hq_, hr_, q2, r2), _dist(hq_, hr_, q1, r1)
    effect = _obstacle(top, sh == 5, dn, df, False, same, lo, hi, hk_level, distance, table)
    if at_end and effect == WALL:
        return NONE
    return effect


@njit(cache=True, inline="always")
def _along_side(view, sk, sh, i1, i2, q1, r1, q2, r2, data, table):
    """The effect of a hexside of kind sk and height sh the line runs along, between i1 and i2 (7.2)."""
    lo, hi, same, hq_, hr_, hk_level = view[4], view[5], view[6], view[9], view[10], view[11]
    floor, distance = view[16], view[17]
    if sk == SIDE_INTERIOR:
        return WALL
    if sh < 10:
        return NONE
    rng = 0 if same else max(_dist(hq_, hr_, q1, r1), _dist(hq_, hr_, q2, r2))
    top = max(_ground(data, i1, floor), _ground(data, i2, floor)) + sh
    return _obstacle(top, False, rng, rng + 1, False, same, lo, hi, hk_level, distance, table)


@njit(cache=True, inline="always")
def _hillock_ground(view, ia, ib, hillock, ground, data, neighbours):
    """A hillock hex above the line (8.12.2x): IGNORED, WALL, or -1 when it starts the higher unit's blind zone
    (8.12.24)."""
    la, lb, ea, eb, lo, hi, same, hi_is_a, hi_index, hq_, hr_, hk_level, on_a, on_b, hi_on_hillock = view[:15]
    hb = ground - 5
    seen_over = not same and hi > ground  # the +5 rule
    beside = ((ea == hb and _adjacent_to(data, neighbours, ia, hillock))  # 8.12.22
              or (eb == hb and _adjacent_to(data, neighbours, ib, hillock)))
    on_it = (on_a and data[ia, C_HILLOCK] == hillock) or (on_b and data[ib, C_HILLOCK] == hillock)  # 8.12.23
    if seen_over or beside or on_it:
        return IGNORED
    if hi_on_hillock and lo == hb and data[hi_index, C_HILLOCK] != hillock:
        return -1
    return WALL


@njit(cache=True, inline="always")
def _art_touched(i, x0, y0, x1, y1, data, art_hex_start, art_ring_start, art_x, art_y):
    """Does the line touch hex i's terrain (its art, or the whole hex without art; 6.2.3)?"""
    return data[i, C_ART] == 0 or segment_touches_art(x0, y0, x1, y1, i, art_hex_start, art_ring_start, art_x, art_y)


@njit(cache=True, inline="always")
def _terrain(view, i, rng, touched, data, table):
    """(effect, hindrance) of the terrain in hex i at range rng from the higher unit: obstacles (6.2.4),
    rubble, obscuring terrain, vehicles and wrecks (6.2.71), smoke (6.4.5); touched: the line meets its art."""
    la, lb, ea, eb, lo, hi, same, hi_is_a, hi_index, hq_, hr_, hk_level = view[:12]
    floor, distance = view[16], view[17]
    base = _base(data, i, floor)
    effect = NONE
    block = data[i, C_BLOCK]
    if block > 0 and touched:
        effect = max(effect, _obstacle(base + block, block == 5, rng, rng + 1, False, same, lo, hi, hk_level,
                                       distance, table))
    rubble = data[i, C_RUBBLE]
    if rubble > 0:
        effect = max(effect, _obstacle(base + rubble, rubble == 5, rng, rng + 1, False, same, lo, hi, hk_level,
                                       distance, table))
    obscured = False
    obscure = data[i, C_OBSCURE]
    if obscure > 0 and touched:
        top = base + obscure
        if obscure >= 10 and not same and hi > top:
            effect = max(effect, _obstacle(top, False, rng, rng + 1, False, same, lo, hi, hk_level, distance,
                                           table))
        obscured = top > lo and not (obscure == 5 and top <= hk_level)
    smoke = data[i, C_SMOKE]
    if smoke > 0 and base + SMOKE_HEIGHT > lo:
        return effect, SMOKE_HINDRANCE * smoke
    if obscured or _vehicle(view, i, base, data):
        return effect, 1
    return effect, 0


@njit(cache=True, inline="always")
def _vehicle(view, i, base, data):
    """Does a vehicle or wreck in hex i hinder the line (6.2.71; 8.6.2 for a wreck in a deir)?"""
    la, lb, lo, same, hk_level, deir_end = view[0], view[1], view[4], view[6], view[11], view[15]
    slope = view[18]
    if data[i, C_VEHICLE] == 0 and data[i, C_WRECK] == 0:
        return False
    has = data[i, C_VEHICLE] != 0
    if data[i, C_WRECK] != 0:
        deir_higher = False  # 8.6.2: a wreck in a deir, between a deir hex and a higher hex
        if deir_end >= 0 and data[i, C_DEIR] != 0:
            deir_higher = (lb > la) if deir_end == 0 else (la > lb)
        if not deir_higher:
            has = True
    top = base + VEHICLE_HEIGHT
    return has and top > lo and top > hk_level and ((same and base <= lo) or slope)


@njit(cache=True, inline="always")
def _blinds(effect, wall, blinded):
    """(wall, blinded) after one more element's effect."""
    if effect == WALL:
        return True, blinded
    if effect == BLIND:
        return wall, True
    return wall, blinded


@njit(cache=True, inline="always")
def _end_smoke(i, lo, floor, data):
    """The hindrance of smoke in a firing or target hex (6.4.5)."""
    smoke = data[i, C_SMOKE]
    if smoke > 0 and _base(data, i, floor) + SMOKE_HEIGHT > lo:
        return SMOKE_HINDRANCE * smoke
    return 0


@njit(cache=True, inline="always")
def _verdict(view, wall, blinded, hind, zone_d, own_hexes, crossed, first_deir):
    """(result, hindrances, blind) once every step is read: the hillock zone (8.12.24) and the deir (8.6.2)."""
    ea, eb, deir_end, distance = view[2], view[3], view[15], view[17]
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
    ends = _ends(ia, ib, la, lb, qa, ra, qb, rb, data)
    hi_is_a, hi_index, deir_end = ends[7], ends[8], ends[15]
    floor, dead = _depression(ia, ib, la, lb, distance, k0, k1, oq, orr, data, lookup, step_kind, step_q1,
                              step_r1, step_q2, step_r2)
    slope = (not ends[6] and any_vehicle and la == data[ia, C_LEVEL] and lb == data[ib, C_LEVEL]
             and _slope(ia, ib, hi_is_a, floor, k0, k1, oq, orr, data, lookup, step_kind, step_q1, step_r1,
                        step_q2, step_r2))
    view = ends + (floor, distance, slope)
    lo, same, hq_, hr_ = ends[4], ends[6], ends[9], ends[10]
    x0, y0, x1, y1 = centres[ia, 0], centres[ia, 1], centres[ib, 0], centres[ib, 1]

    wall = False
    blinded = dead
    zone_d = -1  # hillock zone (8.12.24): range of the last other hillock hex
    own_hexes = 0
    own_hillock = data[hi_index, C_HILLOCK] if ends[14] else -1
    crossed = False  # deir (8.6.2)
    first_deir = distance
    yq, yr = (qb, rb) if deir_end == 0 else (qa, ra)

    hind = _end_smoke(ia, lo, floor, data) + _end_smoke(ib, lo, floor, data)

    for k in range(k0, k1):
        kind = step_kind[k]
        i1 = lookup[oq + step_q1[k], orr + step_r1[k]]
        if kind == SIDE_CODE:
            if i1 >= 0 and deir_end < 0 and not side_any[i1]:
                continue  # a bare hexside (the common case)
            i2 = lookup[oq + step_q2[k], orr + step_r2[k]]
            at_end = i2 in (ia, ib) or i1 in (ia, ib)
            if deir_end >= 0 and not at_end and _col(data, i1, C_DEIR) != _col(data, i2, C_DEIR):
                crossed = True
            if _has_side(i1, i2, side_any):
                sk, sh = _hexside(side_height, side_kind, i1, i2, step_side[k])
                wall, blinded = _blinds(_crossed_side(view, sk, sh, i1, i2, ia, ib, at_end, qa, ra,
                                                      qa + step_q1[k], ra + step_r1[k], qa + step_q2[k],
                                                      ra + step_r2[k], data, table), wall, blinded)
            continue

        nhex = 1
        i2 = i1
        if kind == ALONG_CODE:
            nhex = 2
            i2 = lookup[oq + step_q2[k], orr + step_r2[k]]
            if _has_side(i1, i2, side_any):
                sk, sh = _hexside(side_height, side_kind, i1, i2, step_side[k])
                wall, blinded = _blinds(_along_side(view, sk, sh, i1, i2, qa + step_q1[k], ra + step_r1[k],
                                                    qa + step_q2[k], ra + step_r2[k], data, table), wall, blinded)

        best_hind = 0
        for which in range(nhex):
            i = i1 if which == 0 else i2
            if _bare(i, lo, floor, data):
                continue
            ground = _ground(data, i, floor)
            q, r = (qa + step_q1[k], ra + step_r1[k]) if which == 0 else (qa + step_q2[k], ra + step_r2[k])
            rng = 0 if same else _dist(hq_, hr_, q, r)
            if deir_end >= 0 and _col(data, i, C_DEIR) != 0:
                first_deir = min(first_deir, _dist(yq, yr, q, r))
            hillock = _col(data, i, C_HILLOCK)
            if hillock >= 0 and hillock == own_hillock:
                own_hexes += 1
            # the ground
            if ground > lo:
                if hillock >= 0:
                    effect = _hillock_ground(view, ia, ib, hillock, ground, data, neighbours)
                    if effect < 0:
                        zone_d, effect = max(zone_d, rng), IGNORED
                else:
                    crest = (not terraced and kind == HEX_CODE and _col(data, i, C_HILL) >= 0
                             and _col(data, i, C_HILL) == (data[hi_index, C_HILL] if not same else -1)
                             and not _cliff_exit(k, k0, k1, q, r, hi_is_a, qa, ra, oq, orr, lookup, step_kind,
                                                 step_q1, step_r1, step_q2, step_r2, step_side, side_kind))
                    effect = _obstacle(ground, False, rng, rng + 1, crest, same, lo, view[5], view[11], distance,
                                       table)
                wall, blinded = _blinds(effect, wall, blinded)
            if i < 0:
                continue
            touched = ((data[i, C_BLOCK] > 0 or data[i, C_OBSCURE] > 0)
                       and _art_touched(i, x0, y0, x1, y1, data, art_hex_start, art_ring_start, art_x, art_y))
            effect, h = _terrain(view, i, rng, touched, data, table)
            wall, blinded = _blinds(effect, wall, blinded)
            best_hind = max(best_hind, h)
        hind += best_hind

    return _verdict(view, wall, blinded, hind, zone_d, own_hexes, crossed, first_deir)


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
