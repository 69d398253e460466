"""Observation for TOCS (The Operational Combat Series, WWII time-period rules). Not tactical line of sight.

TOCS hexes are 1,200 m across and units never fire across hexsides, so the question a map answers is whether
a unit on a hill can observe a hex: a Forward Observer directing artillery (L719) or a unit's free
observation check (L721), out to the day visibility range of 4 hexes. The observer must stand at least one
level above an intervening obstruction to see over it; otherwise a level-2 obstruction (city, suburb, forest,
jungle) stops observation and a level-1 obstruction (town, village, woods, bocage, orchard) hinders it.

Beware the acronym: in TOCS, LOS means Line Of Supply. Nothing here is about supply, and nothing here is
named after "line of sight": it is all observation. Decisions: docs/rulesets/tocs.md.
"""

import numpy as np
from numba import njit, prange

from maps.los.answer import Answer, Reason
from maps.los.base import RulesBase
from maps.los.tables import ALONG_CODE, CORNER_CODE, HEX_CODE, axial_of, index_of_axial, shape_id, trace_tables
from maps.los.trace import ALONG, CORNER, HEX

VISIBILITY_HEXES = 4  # "The standard visibility range is 4 hexes during day" (L719, L721)
FLAT_OBSERVATION_HEXES = 1  # off a hill: reconnaissance and probes reach adjacent hexes (L417, L435)
BLOCK = 1000

# Obstruction level of each terrain id and the line of the rulebook that gives it.
OBSTRUCTION = {
    "town": (1, "TOCS L700"),
    "village": (1, "TOCS L704"),
    "woods": (1, "TOCS L757"),
    "bocage": (1, "TOCS L738"),
    "orchard": (1, "TOCS L752"),
    "grove": (1, "TOCS L752"),
    "orchard-grove": (1, "TOCS L752"),
    "city": (2, "TOCS L693"),
    "suburb": (2, "TOCS L695"),
    "forest": (2, "TOCS L762"),
    "jungle": (2, "TOCS L768"),
}
NO_OBSTRUCTION = ("open", "farmland", "desert", "swamp", "marsh", "flooded", "polder", "pond", "lake", "beach",
                  "rocky-coast", "ocean", "deep-ocean", "shallow-ocean", "road", "railroad", "hill", "mountain")
FOREST_WOODS = ("woods", "forest")  # a woods hex surrounded by these on all six sides is forest (L762)


def hex_label(grid, h):
    if grid.contains(*h):
        return grid.label(*h)
    return f"off-map [{h[0]}, {h[1]}]"


def _option(options, name, default):
    value = options.get(name)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return default


class Rules(RulesBase):
    id = "tocs"
    terms = {"clear": "Observed", "hindered": "Observed (hindered)", "blocked": "Not observed"}

    def __init__(self, cmap):
        super().__init__(cmap)
        grid = cmap.grid
        n = cmap.n
        self.ground = np.asarray(cmap.level, dtype=np.int32)
        self.obstruction = np.zeros(n, dtype=np.int8)
        self.defining = []
        self.rules = []
        self.notes = []
        for i, ids in enumerate(cmap.terrain):
            col, row = grid.from_index(i)
            best, level, rule = None, 0, ""
            notes = [f"{tid}: not in the TOCS observation table; taken as no obstruction"
                     for tid in ids if tid not in OBSTRUCTION and tid not in NO_OBSTRUCTION]
            for tid in ids:
                if tid not in OBSTRUCTION:
                    continue
                tlevel, trule = OBSTRUCTION[tid]
                if tid == "woods":
                    around = [grid.step(col, row, side) for side in range(6)]
                    on_map = [h for h in around if grid.contains(*h)]
                    all_woods = all(any(t in FOREST_WOODS for t in cmap.terrain[grid.index(*h)]) for h in on_map)
                    if all_woods and len(on_map) == 6:
                        tid, tlevel, trule = "forest", 2, "TOCS L762 (woods surrounded by woods)"
                    elif all_woods:
                        notes.append(f"{cmap.label(i)}: woods at the map edge, all of whose neighbours on the "
                                     f"map are woods, is taken as woods, not forest (off-map hexes are open)")
                if tlevel > level:
                    best, level, rule = tid, tlevel, trule
            self.obstruction[i] = level
            self.defining.append(best)
            self.rules.append(rule)
            self.notes.append(notes)
        self.visibility = _option(cmap.options, "visibility_hexes", VISIBILITY_HEXES)
        self.flat_range = _option(cmap.options, "flat_observation_hexes", FLAT_OBSERVATION_HEXES)

    # Units stand on their hex's contour level; the +1 for a city or suburb is for radio only (L306).

    # -- the reference ---------------------------------------------------------------------------------
    def _weight(self, h, hi, lo):
        """What hex h does to observation: (weight 0 / 1 hindrance / BLOCK, [(terrain, effect, rule)], notes)."""
        grid = self.cmap.grid
        if grid.contains(*h):
            i = grid.index(*h)
            ground, level = int(self.ground[i]), int(self.obstruction[i])
            tid, rule, notes = self.defining[i], self.rules[i], list(self.notes[i])
        else:
            ground, level, tid, rule, notes = 0, 0, None, "", []
        if ground >= hi and ground > lo:
            return BLOCK, [(f"hill (level {ground})", "blocking", "TOCS L306, L719 (a hill in between)")], notes
        if not level:
            return 0, [], notes
        top = ground + level
        notes.append("an obstruction reaches its hex's contour level plus its obstruction level")
        if hi >= top + 1:
            return 0, [(tid, "ignored", "TOCS L719 (seen over from 1 level higher)")], notes
        if level >= 2:
            return BLOCK, [(tid, "blocking", f"{rule}: level-2 obstruction")], notes
        notes.append("each level-1 obstruction in the way hinders observation; they never add up to a block")
        return 1, [(tid, "hindering", f"{rule}: level-1 obstruction")], notes

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
        blocked, hindrances, assumptions = False, 0, []
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
                        for h, s in zip(step.hexes, sides))
                    effect = "blocking" if weight >= BLOCK else ("hindering" if weight else "ignored")
                    answer.reasons.append(Reason(None, self._hexside_label(step.hexside), names, effect,
                                                 "along a hexside: the heavier side counts once"))
            else:
                continue  # SIDE: streams, rivers and cliffs do not stand in the way of observation
            for note in notes:
                if note not in assumptions:
                    assumptions.append(note)
            if weight >= BLOCK:
                blocked = True
            else:
                hindrances += weight
        answer.result = "blocked" if blocked else ("hindered" if hindrances else "clear")
        answer.hindrances = hindrances
        answer.term = self.terms[answer.result]
        answer.assumptions = assumptions
        return answer

    def _hexside_label(self, key):
        try:
            return self.cmap.hexside_label(*key)
        except ValueError:
            return f"off-map [{key[0]}, {key[1]}]/{key[2]}"

    # -- the fast path ---------------------------------------------------------------------------------
    def batch(self, a, b, level_a, level_b):
        grid = self.cmap.grid
        tables = trace_tables(grid.orientation, grid.columns, grid.rows, grid.stagger)
        return _batch(np.asarray(a, np.int32), np.asarray(b, np.int32), np.asarray(level_a, np.int32),
                      np.asarray(level_b, np.int32), grid.columns, grid.rows, tables.orient, tables.stagger_code,
                      tables.dq_min, tables.dr_min, tables.dr_span, tables.shape_start, tables.step_kind,
                      tables.step_q1, tables.step_r1, tables.step_q2, tables.step_r2,
                      self.ground, self.obstruction, self.visibility, self.flat_range)


@njit(cache=True)
def _weight(i, hi, lo, ground, obstruction):
    if i < 0:
        return BLOCK if (0 >= hi and 0 > lo) else 0
    g = ground[i]
    if g >= hi and g > lo:
        return BLOCK
    level = obstruction[i]
    if level == 0 or hi >= g + level + 1:
        return 0
    if level >= 2:
        return BLOCK
    return 1


@njit(cache=True, parallel=True)
def _batch(a, b, level_a, level_b, columns, rows, orient, stagger, dq_min, dr_min, dr_span, shape_start,
           step_kind, step_q1, step_r1, step_q2, step_r2, ground, obstruction, visibility, flat_range):
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
        s = shape_id(dq, dr, dq_min, dr_min, dr_span)
        blocked = False
        total = 0
        for k in range(shape_start[s], shape_start[s + 1]):
            kind = step_kind[k]
            if kind == HEX_CODE or kind == CORNER_CODE:
                w = _weight(index_of_axial(qa + step_q1[k], ra + step_r1[k], orient, stagger, columns, rows),
                            hi, lo, ground, obstruction)
            elif kind == ALONG_CODE:
                w = max(_weight(index_of_axial(qa + step_q1[k], ra + step_r1[k], orient, stagger, columns, rows),
                                hi, lo, ground, obstruction),
                        _weight(index_of_axial(qa + step_q2[k], ra + step_r2[k], orient, stagger, columns, rows),
                                hi, lo, ground, obstruction))
            else:
                continue
            if w >= BLOCK:
                blocked = True
            else:
                total += w
        hindrances[p] = total
        if blocked:
            result[p] = 2
        elif total > 0:
            result[p] = 1
    return result, hindrances, blind
