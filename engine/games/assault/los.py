"""Line of sight for the Assault system (Assault: Sicily '43), rules 7.2, 9.4.3-9.4.4, 9.5.3-9.5.4, 10.2-10.4.

Hindering hexes and smoke markers add up and three of them block; blocking terrain blocks; a line along a
hexside takes the weaker of its two hexes (10.3). A unit one level or more above an obstacle's top sees over
it, and a hill hex at or above the higher unit and above the lower one blocks (10.4, docs/los.md). Adjacent
hexes always see each other (10.2). There are no blind hexes. Decisions: engine/games/assault/rules.md.
"""

import numpy as np
from numba import njit, prange

from engine.los.answer import Answer, Reason
from engine.los.base import RulesBase, by_owner, hex_label, hexside_label
from engine.los.tables import (
    ALONG_CODE,
    HEX_CODE,
    axial_of,
    hex_lookup,
    shape_id,
)
from engine.los.trace import ALONG, HEX

CLEAR, HINDERING, BLOCKING = 0, 1, 2
EFFECTS = ("ignored", "hindering", "blocking")

# A hex weight along the line: 0 clear, k hindrances, or BLOCK. Along a hexside the smaller one counts.
BLOCK = 1000
HINDRANCES_TO_BLOCK = 3  # 9.4.4, 10.3
SMOKE_TO_BLOCK = 3  # 7.2
SMOKE_HEIGHT = 2  # 7.2: smoke "impacts the LOS up to two elevation levels" above its hex
SMOKE_KINDS = ("smoke", "smoke2")

# What each terrain does comes from the map's catalogue (engine/games/assault/catalogue.json or a custom profile):
# `los` and `height`. The game code only knows what data cannot say: alleys are clear along their road and their
# underlying terrain across it (9.5.4, 9.5.5), rated hindering here; see ALLEYS.
CLASSES = {"clear": CLEAR, "hindering": HINDERING, "blocking": BLOCKING}
ALLEYS = ("tree-alley", "urban-alley")
UPPER_FLOOR_TERRAIN = "large-multi-storey-building"  # 10.4 ex. 5: a unit inside stands at level 1





def effect_of(weight):
    """The word for what a hex did in the end: its heaviest effect, or "ignored" when it was seen over."""
    if weight >= BLOCK:
        return "blocking"
    if weight:
        return "hindering"
    return "ignored"


class Rules(RulesBase):
    id = "assault"
    terms = {"clear": "Clear", "hindered": "Hindered", "blocked": "Blocked"}

    def __init__(self, cmap):
        super().__init__(cmap)
        self.lookup, self.q0, self.r0 = hex_lookup(cmap.grid)
        n = cmap.n
        self.ground = np.asarray(cmap.level, dtype=np.int32)
        self.los_class = np.zeros(n, dtype=np.int8)
        self.top = self.ground.copy()  # where the hex's terrain reaches: ground + height (9.4.4)
        self.smoke = np.zeros(n, dtype=np.int16)
        for kind in SMOKE_KINDS:
            self.smoke += cmap.marker_count(kind)
        self.defining = []  # the terrain id that gives the hex its LOS class (10.3: one terrain per hex)
        self.notes = []  # per hex: the assumptions an answer touching it relies on
        self.rules = []  # the rule that rates it
        for i, ids in enumerate(cmap.terrain):
            tid, cls, height, rule, notes = self._classify_terrain(ids, cmap.label(i))
            self.defining.append(tid)
            self.rules.append(rule)
            self.los_class[i] = cls
            self.top[i] = self.ground[i] + height
            self.notes.append(notes)

    def _terrain(self, tid):
        """(class, height, rule, note or None) of one terrain id, as the catalogue rates it."""
        catalogue = self.catalogue
        if tid not in catalogue:
            return HINDERING, 0, "Assault 9.4.4", (f"{tid}: not in the {catalogue.id} catalogue; taken as "
                                                   f"hindering (Assault 9.4.4: neither clear nor blocking)")
        entry = catalogue.get(tid)
        rule = catalogue.los_rule(tid) or "Assault 9.4.4"
        if tid in ALLEYS and entry["los"] == "special":
            return HINDERING, 0, rule, None  # across the alley: its trees or buildings (9.5.4, 9.5.5)
        if entry["los"] not in CLASSES:
            return HINDERING, 0, rule, (f"{tid}: the {catalogue.id} catalogue rates its LOS {entry['los']}; "
                                        f"taken as hindering (Assault 9.4.4)")
        decided = [key for key in ("los", "height") if key in (entry.get("decided") or ())]
        note = None
        if decided:
            note = (f"{tid}: the rulebook does not give its {' or '.join(decided)}; the {catalogue.id} "
                    f"catalogue's decision is {entry['los']}")
        return CLASSES[entry["los"]], entry.get("height") or 0, rule, note

    def _classify_terrain(self, ids, label):
        """The terrain that defines a hex's LOS (10.3: one per hex, the heaviest), its class and height."""
        best, best_key, rule, notes = "clear", (CLEAR, 0), "Assault 10.3", []
        for tid in ids:
            cls, height, trule, note = self._terrain(tid)
            if note:
                notes.append(note)
            if (cls, height) > best_key:
                best, best_key, rule = tid, (cls, height), trule
        roads = any(self.catalogue.linear(tid) == "road" for tid in ids)  # the catalogue's linear, not names
        if best_key[0] != CLEAR and (best in ALLEYS or roads):
            notes.append(f"{label}: the map does not say which hexsides its road crosses, so a line through this "
                         f"alley hex is taken as crossing it, not following the road (Assault 9.5.4)")
        return best, best_key[0], best_key[1], rule, notes

    def unit_level(self, index):
        level = int(self.cmap.level[index])
        if UPPER_FLOOR_TERRAIN in self.cmap.terrain[index]:
            level += 1
        return level

    # -- the reference ---------------------------------------------------------------------------------
    def _hex_weight(self, h, hi, lo):
        """What hex h does to a line between levels hi and lo: (weight, [(terrain, effect, rule)], notes)."""
        grid = self.cmap.grid
        if not grid.contains(*h):
            ground, cls, top, smoke, tid, rule, notes = 0, CLEAR, 0, 0, "clear", "", []
        else:
            i = grid.index(*h)
            ground, cls, top = int(self.ground[i]), int(self.los_class[i]), int(self.top[i])
            smoke, tid, rule, notes = int(self.smoke[i]), self.defining[i], self.rules[i], self.notes[i]
        if ground >= hi and ground > lo:
            return BLOCK, [(f"hill (level {ground})", "blocking", "Assault 10.4")], []
        weight, effects, used = 0, [], []
        if cls != CLEAR:
            used = list(notes)
            if hi >= top + 1:
                effects.append((tid, "ignored", "Assault 10.4 (seen over)"))
            elif cls == BLOCKING:
                weight = BLOCK
                effects.append((tid, "blocking", rule))
            else:
                weight += 1
                effects.append((tid, "hindering", rule))
        if smoke:
            used.append(f"smoke reaches {SMOKE_HEIGHT} levels above its hex's ground and each smoke marker counts "
                        f"as one hindrance (Assault 7.2, 10.3)")
            name = f"smoke x{smoke}"
            if hi >= ground + SMOKE_HEIGHT + 1:
                effects.append((name, "ignored", "Assault 10.4 (seen over)"))
            elif smoke >= SMOKE_TO_BLOCK:
                weight = BLOCK
                effects.append((name, "blocking", "Assault 7.2"))
            else:
                weight = min(weight + smoke, BLOCK)
                effects.append((name, "hindering", "Assault 7.2"))
        return weight, effects, used

    def evaluate(self, trace, from_level, to_level):
        grid = self.cmap.grid
        answer = Answer(from_hex=hex_label(grid, trace.a), to_hex=hex_label(grid, trace.b),
                        from_level=int(from_level), to_level=int(to_level))
        if grid.distance(trace.a, trace.b) <= 1:
            answer.term = self.terms["clear"]  # 10.2: LOS to adjacent hexes is always clear
            return answer
        hi, lo = max(from_level, to_level), min(from_level, to_level)
        blocked, hindrances = False, 0
        assumptions = []
        for step in trace.steps:
            if step.kind == HEX:
                h = step.hexes[0]
                weight, effects, used = self._hex_weight(h, hi, lo)
                if effects:
                    # One reason per hex (terrain and smoke together), so that it reads the same both ways.
                    answer.reasons.append(Reason(hex_label(grid, h), None, ", ".join(e[0] for e in effects),
                                                 effect_of(weight), "; ".join(e[2] for e in effects)))
            elif step.kind == ALONG:
                # 10.3: along a hexside, the weaker of the two hexes counts (hinder + hinder: once).
                left, right = (self._hex_weight(h, hi, lo) for h in step.hexes)
                weight = min(left[0], right[0])
                used = left[2] + right[2]
                if left[1] or right[1]:
                    names = " | ".join(self._side_words(h, w) for h, w in by_owner(step, (left, right)))
                    answer.reasons.append(Reason(None, hexside_label(self.cmap, step.hexside), names, effect_of(weight),
                                                 "Assault 10.3 (along a hexside: the weaker effect)"))
            else:
                # SIDE: no hexside of this ruleset changes LOS (a steep slope only forbids the attack,
                # 9.5.8.2). CORNER: the weaker effect pairs the corner hex with the hexes the line passes
                # through there, which count on their own, so it adds nothing (10.3).
                continue
            for note in used:
                if note not in assumptions:
                    assumptions.append(note)
            if weight >= BLOCK:
                blocked = True
            else:
                hindrances += weight
        if blocked or hindrances >= HINDRANCES_TO_BLOCK:
            answer.result = "blocked"
        elif hindrances:
            answer.result = "hindered"
        answer.hindrances = hindrances
        answer.term = self.describe(answer.result, answer.hindrances, answer.blind)
        answer.assumptions = assumptions
        return answer

    def _side_words(self, h, weighed):
        _, effects, _ = weighed
        if not effects:
            return f"{hex_label(self.cmap.grid, h)} clear"
        return f"{hex_label(self.cmap.grid, h)} " + ", ".join(f"{t} ({e})" for t, e, _ in effects)

    # -- the fast path ---------------------------------------------------------------------------------
    def batch(self, a, b, level_a, level_b):
        return _batch(np.asarray(a, np.int32), np.asarray(b, np.int32), np.asarray(level_a, np.int32),
                      np.asarray(level_b, np.int32), self.cmap.grid.rows, *self.tables.walk_args(),
                      self.lookup, self.q0, self.r0, self.ground, self.los_class, self.top, self.smoke)


@njit(cache=True)
def _weight(i, hi, lo, ground, los_class, top, smoke):
    if i < 0:  # off the map: open ground at level 0
        return BLOCK if (hi <= 0 and lo < 0) else 0
    g = ground[i]
    if g >= hi and g > lo:
        return BLOCK
    weight = 0
    cls = los_class[i]
    if cls != CLEAR and hi < top[i] + 1:
        weight = BLOCK if cls == BLOCKING else 1
    s = smoke[i]
    if s > 0 and hi < g + SMOKE_HEIGHT + 1:
        weight = BLOCK if s >= SMOKE_TO_BLOCK else min(weight + s, BLOCK)
    return weight


@njit(cache=True, parallel=True)
def _batch(a, b, level_a, level_b, rows, orient, stagger, dq_min, dr_min, dr_span, shape_start,
           step_kind, step_q1, step_r1, step_q2, step_r2, lookup, q0, r0, ground, los_class, top, smoke):
    n = a.shape[0]
    result = np.zeros(n, np.int8)
    hindrances = np.zeros(n, np.int16)
    blind = np.zeros(n, np.bool_)
    for p in prange(n):
        qa, ra = axial_of(a[p] // rows, a[p] % rows, orient, stagger)
        qb, rb = axial_of(b[p] // rows, b[p] % rows, orient, stagger)
        dq, dr = qb - qa, rb - ra
        if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= 1:
            continue
        hi = max(level_a[p], level_b[p])
        lo = min(level_a[p], level_b[p])
        oq, orr = qa - q0, ra - r0  # the start hex in the lookup table
        s = shape_id(dq, dr, dq_min, dr_min, dr_span)
        blocked = False
        total = 0
        for k in range(shape_start[s], shape_start[s + 1]):
            kind = step_kind[k]
            if kind == HEX_CODE:
                w = _weight(lookup[oq + step_q1[k], orr + step_r1[k]], hi, lo, ground, los_class, top, smoke)
            elif kind == ALONG_CODE:
                w = min(_weight(lookup[oq + step_q1[k], orr + step_r1[k]], hi, lo, ground, los_class, top, smoke),
                        _weight(lookup[oq + step_q2[k], orr + step_r2[k]], hi, lo, ground, los_class, top, smoke))
            else:
                continue
            if w >= BLOCK:
                blocked = True
            else:
                total += w
        hindrances[p] = min(total, 32767)
        if blocked or total >= HINDRANCES_TO_BLOCK:
            result[p] = 2
        elif total > 0:
            result[p] = 1
    return result, hindrances, blind

