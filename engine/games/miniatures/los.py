"""Line of sight for the inch-measured WWII miniatures QRS, played on a hex map.

The sheet's terrain chart says which terrain blocks LOS through it (woods, buildings, rough scrub; smoke), and
that a unit sees about 3" into or out of such terrain: one hex (docs/los.md). Looking down from higher
ground, an obstacle lower than the firer but higher than the target leaves dead ground behind it, half the
firer-to-obstacle distance deep (the "simplified dead zone", L312, L445). Everything else (walls,
hedges, bunkers, trenches, rivers, roads) is spotting cover, not an LOS obstacle. Ranges are inches on the
table: ``inches_per_hex`` turns hexes into inches. Decisions: engine/games/miniatures/rules.md.
"""

import numpy as np
from numba import njit, prange

from engine import rulesets
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

SMOKE_KINDS = ("smoke", "smoke2")

# What a terrain id does to a line passing through it comes from the map's catalogue (engine/rulesets/data/
# miniatures.json or a custom profile): `los` blocking blocks, `height` how far it stands above its ground
# (docs/los.md). The one special entry, the built-up area, does not block (its 5" spotting limit is not applied).
BUILT_UP_NOTE = "built-up-area: its 5\" spotting limit is not applied; taken as not blocking LOS"

NONE, DEAD, BLOCKED = 0, 1, 2


def inches_per_hex(cmap, catalogue):
    """(inches per hex, how it was found): the map's option, else the hex's metres at the catalogue's table scale
    (Ruleset.inches_per_hex, the one reckoning the scenario checks and cards use too)."""
    value = cmap.options.get("inches_per_hex")
    found = catalogue.inches_per_hex(cmap.grid.hex_metres, value)
    if found is None:  # a profile that sets no table scale: its base game's
        found = rulesets.get(catalogue.base).inches_per_hex(cmap.grid.hex_metres, value)
    inches, how = found
    return inches, ("the map's inches_per_hex" if how == "given" else how)


def inches(value):
    return f'{value:g}"'




class Rules(RulesBase):
    id = "miniatures"
    terms = {"clear": "Clear", "hindered": "Hindered", "blocked": "Blocked"}
    dead_zone_term = "Blocked (dead zone)"

    def __init__(self, cmap):
        super().__init__(cmap)
        self.lookup, self.q0, self.r0 = hex_lookup(cmap.grid)
        n = cmap.n
        self.ground = np.asarray(cmap.level, dtype=np.int32)
        self.obstacle = np.zeros(n, dtype=np.int8)
        self.top = self.ground.copy()  # an obstacle's top: its ground plus its height
        self.smoke = np.zeros(n, dtype=np.int16)
        for kind in SMOKE_KINDS:
            self.smoke += cmap.marker_count(kind)
        self.defining = []  # the terrain id that blocks, or the hex's first id
        self.rules = []
        self.notes = []
        for i, ids in enumerate(cmap.terrain):
            defining, rule, height, notes = (ids[0] if ids else "open"), "", -1, []
            for tid in ids:
                blocks, theight, trule, note = self._terrain(tid)
                if note:
                    notes.append(note)
                if blocks and theight > height:
                    defining, rule, height = tid, trule, theight
            if height >= 0:
                self.obstacle[i] = 1
                self.top[i] += height
            self.defining.append(defining)
            self.rules.append(rule)
            self.notes.append(notes)
        self.inches_per_hex, self.scale_source = inches_per_hex(cmap, self.catalogue)

    def _terrain(self, tid):
        """(blocks LOS through it, height, rule, note or None), as the catalogue rates it."""
        catalogue = self.catalogue
        if tid in catalogue and catalogue.get(tid)["los"] == "special":
            note = BUILT_UP_NOTE if tid == "built-up-area" else (
                f"{tid}: the {catalogue.id} catalogue rates its LOS special; taken as not blocking LOS")
            return False, 0, catalogue.los_rule(tid), note
        if tid in catalogue:
            entry = catalogue.get(tid)
            blocks = entry["los"] == "blocking"
            height = entry.get("height")
            note = None
            decided = [key for key in ("los", "height") if key in (entry.get("decided") or ())]
            if decided:
                note = (f"{tid}: the QRS does not give its {' or '.join(decided)}; the {catalogue.id} catalogue's "
                        f"decision is {entry['los']}" + (f", {height} level high" if blocks else ""))
            if entry["los"] == "hindering":
                note = f"{tid}: the QRS has no hindered LOS; taken as not blocking"
            return blocks, (1 if height is None else height) if blocks else 0, catalogue.los_rule(tid), note
        return False, 0, "", f"{tid}: not in the {catalogue.id} catalogue; taken as not blocking LOS"

    def describe(self, result, hindrances, blind):
        """The answer's wording; dead ground says so ("Blocked (dead zone)")."""
        return self.dead_zone_term if blind else self.terms[result]

    def unit_level(self, index):
        level = int(self.cmap.level[index])
        if "building" in self.cmap.terrain[index] and self.cmap.storeys[index] >= 2:
            level += 1  # an upper floor: the building's one level (docs/los.md)
        return level

    # -- the reference ---------------------------------------------------------------------------------
    def _outcome(self, h, hi, lo, high_end, low_end):
        """What hex h does to the line: (NONE/DEAD/BLOCKED, [(terrain, effect, rule)], [notes])."""
        grid = self.cmap.grid
        if grid.contains(*h):
            i = grid.index(*h)
            ground, obstacle, top = int(self.ground[i]), int(self.obstacle[i]), int(self.top[i])
            smoke, tid, rule, notes = int(self.smoke[i]), self.defining[i], self.rules[i], list(self.notes[i])
        else:
            ground, obstacle, top, smoke, tid, rule, notes = 0, 0, 0, 0, "open", "", []
        if smoke:
            notes.append("smoke blocks LOS through it at every height (the QRS gives it none)")
            return BLOCKED, [("smoke", "blocking", "QRS L313 (cannot see through smoke)")], notes
        if obstacle:
            name = tid
            if top >= hi:
                return BLOCKED, [(tid, "blocking", f"{rule} (blocks LOS through it)")], notes
            if top <= lo:
                return NONE, [(tid, "ignored", f"{rule} (seen over)")], notes
        else:
            name, top = f"hill (level {ground})", ground
            if ground >= hi and ground > lo:
                return BLOCKED, [(name, "blocking", "QRS L312 (higher ground in between)")], notes
            if ground <= lo:
                return NONE, [], notes
        # lo < top < hi: the firer looks down over it; is the lower unit in its dead ground?
        ipx = self.inches_per_hex
        near, behind = grid.distance(high_end, h), grid.distance(h, low_end)
        depth = near // 2
        if behind <= depth:
            notes.append(f"dead zone behind {name} at {hex_label(grid, h)}: {near} hexes "
                         f"({inches(near * ipx)}) from the higher unit, so floor({near}/2) = {depth} hexes "
                         f"({inches(depth * ipx)}) deep; the lower unit is {behind} hexes behind it")
            return DEAD, [(name, "blind", "QRS L312 (dead zone)")], notes
        if obstacle:
            return NONE, [(name, "ignored", "QRS L312 (seen over, beyond its dead zone)")], notes
        return NONE, [], notes

    def evaluate(self, trace, from_level, to_level):
        grid = self.cmap.grid
        a, b = trace.a, trace.b
        answer = Answer(from_hex=hex_label(grid, a), to_hex=hex_label(grid, b),
                        from_level=int(from_level), to_level=int(to_level))
        hi, lo = max(from_level, to_level), min(from_level, to_level)
        high_end, low_end = (a, b) if from_level >= to_level else (b, a)
        distance = grid.distance(a, b)
        assumptions = [f"range {distance} hexes = {inches(distance * self.inches_per_hex)} at "
                       f"{inches(self.inches_per_hex)} per hex ({self.scale_source})"]
        worst = NONE
        for step in trace.steps:
            if step.kind == HEX:
                h = step.hexes[0]
                outcome, effects, notes = self._outcome(h, hi, lo, high_end, low_end)
                for terrain, effect, rule in effects:
                    answer.reasons.append(Reason(hex_label(grid, h), None, terrain, effect, rule))
            elif step.kind == ALONG:
                # A line along a hexside runs along the edge of what is on either side: it is blocked only
                # when both sides block (the weaker counts), as a unit sees into such terrain (L461).
                sides = [self._outcome(h, hi, lo, high_end, low_end) for h in step.hexes]
                outcome = min(s[0] for s in sides)
                notes = sides[0][2] + sides[1][2]
                if sides[0][1] or sides[1][1]:
                    names = " | ".join(
                        f"{hex_label(grid, h)} " + (", ".join(f"{t} ({e})" for t, e, _ in s[1]) or "open")
                        for h, s in by_owner(step, sides))
                    effect = ("ignored", "blind", "blocking")[outcome]
                    answer.reasons.append(Reason(None, hexside_label(self.cmap, step.hexside), names, effect,
                                                 "along a hexside: blocked only when both sides block"))
            else:
                # SIDE: walls and hedges give spotting cover, not an LOS obstacle (terrain chart).
                # CORNER: a hex touched at one point is not seen through (weaker effect, as along a hexside).
                continue
            for note in notes:
                if note not in assumptions:
                    assumptions.append(note)
            worst = max(worst, outcome)
        if worst != NONE:
            answer.result, answer.blind = "blocked", worst == DEAD
        answer.term = self.describe(answer.result, 0, answer.blind)
        answer.assumptions = assumptions
        return answer

    # -- the fast path ---------------------------------------------------------------------------------
    def batch(self, a, b, level_a, level_b):
        return _batch(np.asarray(a, np.int32), np.asarray(b, np.int32), np.asarray(level_a, np.int32),
                      np.asarray(level_b, np.int32), self.cmap.grid.rows, *self.tables.walk_args(),
                      self.lookup, self.q0, self.r0, self.ground, self.obstacle, self.top, self.smoke)


@njit(cache=True)
def _distance(dq, dr):
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@njit(cache=True)
def _outcome(i, hi, lo, near, behind, ground, obstacle, top, smoke):
    if i < 0:
        g, t, obs = 0, 0, 0
    else:
        if smoke[i] > 0:
            return BLOCKED
        g, t, obs = ground[i], top[i], obstacle[i]
    if obs:
        if t >= hi:
            return BLOCKED
        if t <= lo:
            return NONE
    else:
        if g >= hi and g > lo:
            return BLOCKED
        if g <= lo:
            return NONE
    if behind <= near // 2:
        return DEAD
    return NONE


@njit(cache=True, parallel=True)
def _batch(a, b, level_a, level_b, rows, orient, stagger, dq_min, dr_min, dr_span, shape_start,
           step_kind, step_q1, step_r1, step_q2, step_r2, lookup, q0, r0, ground, obstacle, top, smoke):
    n = a.shape[0]
    result = np.zeros(n, np.int8)
    hindrances = np.zeros(n, np.int16)
    blind = np.zeros(n, np.bool_)
    for p in prange(n):
        qa, ra = axial_of(a[p] // rows, a[p] % rows, orient, stagger)
        qb, rb = axial_of(b[p] // rows, b[p] % rows, orient, stagger)
        dq, dr = qb - qa, rb - ra
        la, lb = level_a[p], level_b[p]
        hi, lo = max(la, lb), min(la, lb)
        from_a = la >= lb  # the higher unit, from which the dead zone is measured
        oq, orr = qa - q0, ra - r0  # the start hex in the lookup table
        s = shape_id(dq, dr, dq_min, dr_min, dr_span)
        worst = NONE
        for k in range(shape_start[s], shape_start[s + 1]):
            kind = step_kind[k]
            if kind != HEX_CODE and kind != ALONG_CODE:
                continue
            q1, r1 = step_q1[k], step_r1[k]
            d_a, d_b = _distance(q1, r1), _distance(q1 - dq, r1 - dr)
            near, behind = (d_a, d_b) if from_a else (d_b, d_a)
            out = _outcome(lookup[oq + q1, orr + r1], hi, lo, near, behind, ground, obstacle, top, smoke)
            if kind == ALONG_CODE and out != NONE:
                q2, r2 = step_q2[k], step_r2[k]
                d_a, d_b = _distance(q2, r2), _distance(q2 - dq, r2 - dr)
                near, behind = (d_a, d_b) if from_a else (d_b, d_a)
                out = min(out, _outcome(lookup[oq + q2, orr + r2], hi, lo, near, behind, ground, obstacle, top, smoke))
            if out > worst:
                worst = out
                if worst == BLOCKED:
                    break
        if worst == BLOCKED:
            result[p] = 2
        elif worst == DEAD:
            result[p] = 2
            blind[p] = True
    return result, hindrances, blind
