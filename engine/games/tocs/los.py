"""Observation for TOCS (the rulebook never expands the acronym; WWII time-period rules). Not tactical line of
sight.

TOCS hexes are 1,200 m across and units never fire across hexsides, so the question a map answers is whether
a unit on a hill can observe a hex: a Forward Observer directing artillery (L719) or a unit's free
observation check (L721), out to the day visibility range of 4 hexes. The observer must stand at least one
level above an intervening obstruction to see over it (L719, L721); otherwise the obstruction, level 1 (town,
village, woods, bocage, orchard) or level 2 (city, suburb, forest, jungle), stops observation. There is no
hindered result: a hex is observed or not.

Beware the acronym: in TOCS, LOS means Line Of Supply. Nothing here is about supply, and nothing here is
named after "line of sight": it is all observation. Decisions: engine/games/tocs/rules.md.
"""

import numpy as np
from numba import njit, prange

from engine.los.answer import Answer, Reason
from engine.los.base import RulesBase, by_owner, hex_label, hexside_label
from engine.los.tables import (
    ALONG_CODE,
    CORNER_CODE,
    HEX_CODE,
    axial_of,
    hex_lookup,
    shape_id,
)
from engine.los.trace import ALONG, CORNER, HEX

VISIBILITY_HEXES = 4  # "The standard visibility range is 4 hexes during day" (L719, L721)
FLAT_OBSERVATION_HEXES = 1  # off a hill: reconnaissance and probes reach adjacent hexes (L417, L435)
BLOCK = 1000

# Whether a hex holds an obstruction. The catalogue says which terrain is one (`los` blocking, or hindering in
# a custom profile, since TOCS has no hindered state) and its level (`height`); the obstruction stands that many
# levels above its hex's contour level.
NONE, OBSTRUCTS = 0, 1
FOREST_WOODS = ("woods", "forest")  # a woods hex surrounded by these on all six sides is forest (L762)




def _option(options, name, default):
    value = options.get(name)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return default


class Rules(RulesBase):
    id = "tocs"
    terms = {"clear": "Observed", "hindered": "Observed", "blocked": "Not observed"}  # never hindered

    def __init__(self, cmap):
        super().__init__(cmap)
        self.lookup, self.q0, self.r0 = hex_lookup(cmap.grid)
        n = cmap.n
        self.ground = np.asarray(cmap.level, dtype=np.int32)
        self.effect = np.zeros(n, dtype=np.int8)
        self.top = self.ground.copy()  # an obstruction's top: contour level plus obstruction level (Q6)
        self.level = np.zeros(n, dtype=np.int32)  # the obstruction level, 0 where there is none
        self.defining = []
        self.rules = []
        self.notes = []
        for i, ids in enumerate(cmap.terrain):
            best, key, rule, notes = None, (NONE, 0), "", []
            for tid in ids:
                if tid == "woods" and self._is_forest(i):
                    tid = "forest"
                elif tid == "woods" and self._is_forest(i, edge=True):
                    notes.append(f"{cmap.label(i)}: woods at the map edge, all of whose neighbours on the map are "
                                 f"woods, is taken as woods, not forest (hexes off the map are open)")
                effect, height, trule, note = self._terrain(tid)
                if note:
                    notes.append(note)
                if (effect, height) > key:
                    best, key, rule = tid, (effect, height), trule
            self.effect[i] = key[0]
            self.level[i] = key[1]
            self.top[i] += key[1]
            self.defining.append(best)
            self.rules.append(rule)
            self.notes.append(notes)
        self.visibility = _option(cmap.options, "visibility_hexes", VISIBILITY_HEXES)
        self.flat_range = _option(cmap.options, "flat_observation_hexes", FLAT_OBSERVATION_HEXES)

    # Units stand on their hex's contour level; the +1 for a city or suburb is for radio only (L306).

    def _terrain(self, tid):
        """(effect, obstruction level, rule, note or None) of one terrain id, as the catalogue rates it."""
        catalogue = self.catalogue
        if tid not in catalogue:
            return NONE, 0, "", f"{tid}: not in the {catalogue.id} catalogue; taken as no obstruction"
        entry = catalogue.get(tid)
        if entry["los"] not in ("hindering", "blocking"):
            return NONE, 0, catalogue.los_rule(tid), None
        height = entry.get("height")
        level = max(1, int(height)) if height is not None else 1
        notes = []
        if entry["los"] == "hindering":
            notes.append(f"{tid}: rated hindering by the {catalogue.id} catalogue; TOCS has no hindered "
                         f"observation, so it is a level-{level} obstruction")
        decided = [key for key in ("los", "height") if key in (entry.get("decided") or ())]
        if decided:
            notes.append(f"{tid}: the rulebook does not give its {' or '.join(decided)}; the {catalogue.id} "
                         f"catalogue's decision is {entry['los']}, level {level}")
        return OBSTRUCTS, level, catalogue.los_rule(tid), "; ".join(notes) or None

    def _is_forest(self, index, edge=False):
        """Is this woods hex surrounded by woods: on all six sides (L762), or, with ``edge``, on the map only?"""
        grid = self.cmap.grid
        col, row = grid.from_index(index)
        around = [grid.step(col, row, side) for side in range(6)]
        on_map = [h for h in around if grid.contains(*h)]
        if not edge and len(on_map) < 6:
            return False
        return all(any(t in FOREST_WOODS for t in self.cmap.terrain[grid.index(*h)]) for h in on_map)

    # -- the reference ---------------------------------------------------------------------------------
    def _weight(self, h, hi, lo):
        """What hex h does to observation: (weight 0 or BLOCK, [(terrain, effect, rule)], notes)."""
        grid = self.cmap.grid
        if grid.contains(*h):
            i = grid.index(*h)
            ground, effect, top, level = (int(self.ground[i]), int(self.effect[i]), int(self.top[i]),
                                          int(self.level[i]))
            tid, rule, notes = self.defining[i], self.rules[i], list(self.notes[i])
        else:
            ground, effect, top, level, tid, rule, notes = 0, NONE, 0, 0, None, "", []
        if ground >= hi and ground > lo:
            return BLOCK, [(f"hill (level {ground})", "blocking", "TOCS L306, L719 (a hill in between)")], notes
        if effect == NONE:
            return 0, [], notes
        notes.append("an obstruction reaches its hex's contour level plus its obstruction level")
        if hi >= top + 1:
            return 0, [(tid, "ignored", "TOCS L719, L721 (seen over from 1 level higher)")], notes
        return BLOCK, [(tid, "blocking", f"{rule}: level-{level} obstruction, not seen over (L719, L721)")], notes

    def evaluate(self, trace, from_level, to_level):
        grid = self.cmap.grid
        answer = Answer(from_hex=hex_label(grid, trace.a), to_hex=hex_label(grid, trace.b),
                        from_level=int(from_level), to_level=int(to_level))
        hi, lo = max(from_level, to_level), min(from_level, to_level)
        distance = grid.distance(trace.a, trace.b)
        if distance > self.visibility:
            answer.result, answer.term = "blocked", self.terms["blocked"]
            answer.reasons.append(Reason(None, None, f"range {distance} hexes", "blocking",
                                         f"TOCS L719 (visibility range {self.visibility} hexes by day)"))
            return answer
        if distance > self.flat_range and hi < 1:
            answer.result, answer.term = "blocked", self.terms["blocked"]
            answer.reasons.append(Reason(None, None, "neither unit on a hill", "blocking",
                                         f"TOCS L719, L721 (observing beyond {self.flat_range} hex needs a hill)"))
            answer.assumptions.append(f"off a hill a unit observes only what reconnaissance and probes reach: "
                                      f"{self.flat_range} hex (L417, L435)")
            return answer
        blocked, assumptions = False, []
        for step in trace.steps:
            if step.kind in (HEX, CORNER):
                # A hex the line touches at a corner stands in the way like one it crosses.
                h = step.hexes[0]
                weight, effects, notes = self._weight(h, hi, lo)
                for terrain, effect, rule in effects:
                    answer.reasons.append(Reason(hex_label(grid, h), None, terrain, effect, rule))
            elif step.kind == ALONG:
                # Along a hexside the heavier side counts, once.
                sides = [self._weight(h, hi, lo) for h in step.hexes]
                weight = max(s[0] for s in sides)
                notes = sides[0][2] + sides[1][2]
                if sides[0][1] or sides[1][1]:
                    names = " | ".join(
                        f"{hex_label(grid, h)} " + (", ".join(f"{t} ({e})" for t, e, _ in s[1]) or "open")
                        for h, s in by_owner(step, sides))
                    effect = "blocking" if weight >= BLOCK else "ignored"
                    answer.reasons.append(Reason(None, hexside_label(self.cmap, step.hexside), names, effect,
                                                 "along a hexside: the heavier side counts once"))
            else:
                continue  # SIDE: streams, rivers and cliffs do not stand in the way of observation
            for note in notes:
                if note not in assumptions:
                    assumptions.append(note)
            if weight >= BLOCK:
                blocked = True
        answer.result = "blocked" if blocked else "clear"  # TOCS has no hindered observation
        answer.hindrances = 0
        answer.term = self.describe(answer.result, answer.hindrances, answer.blind)
        answer.assumptions = assumptions
        return answer

    # -- the fast path ---------------------------------------------------------------------------------
    def batch(self, a, b, level_a, level_b):
        return _batch(np.asarray(a, np.int32), np.asarray(b, np.int32), np.asarray(level_a, np.int32),
                      np.asarray(level_b, np.int32), self.cmap.grid.rows, *self.tables.walk_args(),
                      self.lookup, self.q0, self.r0, self.ground, self.effect, self.top, self.visibility,
                      self.flat_range)


@njit(cache=True)
def _weight(i, hi, lo, ground, effect, top):
    if i < 0:
        return BLOCK if (hi <= 0 and lo < 0) else 0
    g = ground[i]
    if g >= hi and g > lo:
        return BLOCK
    if effect[i] == NONE or hi >= top[i] + 1:
        return 0
    return BLOCK


@njit(cache=True, parallel=True)
def _batch(a, b, level_a, level_b, rows, orient, stagger, dq_min, dr_min, dr_span, shape_start,
           step_kind, step_q1, step_r1, step_q2, step_r2, lookup, q0, r0, ground, effect, top, visibility,
           flat_range):
    n = a.shape[0]
    result = np.zeros(n, np.int8)
    hindrances = np.zeros(n, np.int16)
    blind = np.zeros(n, np.bool_)
    for p in prange(n):
        qa, ra = axial_of(a[p] // rows, a[p] % rows, orient, stagger)
        qb, rb = axial_of(b[p] // rows, b[p] % rows, orient, stagger)
        dq, dr = qb - qa, rb - ra
        hi = max(level_a[p], level_b[p])
        lo = min(level_a[p], level_b[p])
        distance = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        if distance > visibility or (distance > flat_range and hi < 1):
            result[p] = 2
            continue
        oq, orr = qa - q0, ra - r0  # the start hex in the lookup table
        s = shape_id(dq, dr, dq_min, dr_min, dr_span)
        for k in range(shape_start[s], shape_start[s + 1]):
            kind = step_kind[k]
            if kind in (HEX_CODE, CORNER_CODE):
                w = _weight(lookup[oq + step_q1[k], orr + step_r1[k]], hi, lo, ground, effect, top)
            elif kind == ALONG_CODE:
                w = max(_weight(lookup[oq + step_q1[k], orr + step_r1[k]], hi, lo, ground, effect, top),
                        _weight(lookup[oq + step_q2[k], orr + step_r2[k]], hi, lo, ground, effect, top))
            else:
                continue
            if w >= BLOCK:
                result[p] = 2  # observed or not: there is no hindered result
                break
    return result, hindrances, blind
