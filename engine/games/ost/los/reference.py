"""OST LOS, the reference (OST Vol 1): rules 12.1-12.7, 13.7-13.10, 14.0-14.14, 15.0-15.3, 16.1-16.6.

The line runs from centre dot to centre dot (12.1). Every hex it passes through, every hexside it crosses or
runs along and every corner it touches is one *element*: clear, degrading or blocking. Any blocking element
blocks; otherwise each degrading element costs 1 FP and a third one blocks (12.3.2, 14.0.6).

Heights (12.4-12.6) decide whether an element counts. Smoke stands at every level (13.9.7). Ground-level
terrain (brush, woods, a 1-storey structure, wrecks, rubble..) is seen over by a unit above it, except for the
one blind hex directly behind it (12.4.7). A hill hex blocks a line whose higher end is not above it and casts
a blind hex behind it otherwise, except down a slope (12.5.2-12.5.11). A structure of 2 or more storeys always
blocks (12.6.2). The decisions taken where the rules are silent are in engine/games/ost/rules.md.
"""

import weakref
from dataclasses import dataclass

import numpy as np
from shapely.geometry import LineString, Point

from engine.games.ost.los.kernel import PARALLEL_FROM, _batch_parallel, _batch_serial, through_hexes
from engine.games.ost.los.tables import (
    ALL,
    ART_HILL,
    ART_NONE,
    ART_STRUCTURE,
    ART_TERRAIN,
    ASSUME_BOCAGE_LEVELS,
    ASSUME_BUILDING,
    ASSUME_CORNER,
    ASSUME_FOOT,
    ASSUME_GULLY,
    ASSUME_ROW_HOUSE,
    ASSUME_SLOPE,
    ASSUME_STOREYS_ON_HILL,
    ASSUMPTION_ORDER,
    BARRIER,
    BLIND_WORDS,
    BLOCK,
    BOCAGE,
    CLASSES,
    CLEAR,
    DEGRADE,
    LOW,
    MARKER_KINDS,
    MULTI,
    NO_FEATURE,
    NONE,
    ROW_HOUSE,
    SINGLE,
    SPECIAL_HEXSIDES,
    THIRD_DEGRADING_BLOCKS,
    WALL,
    WORDS,
)
from engine.los.answer import Answer, Reason
from engine.los.base import RulesBase, hex_label, hexside_label
from engine.los.tables import ART_TOLERANCE
from engine.los.trace import ALONG, CORNER, HEX


@dataclass(frozen=True)
class HexFacts:
    """What one hex holds, as far as OST LOS is concerned."""

    level: int
    structure: str | None = None  # light-structure, heavy-structure or ruins
    storeys: int = 1
    art: object = None  # shapely geometry the line must meet (None: the terrain fills the hex)
    art_owner: int = ART_NONE
    everywhere: tuple = ()  # (id, class, rule) standing at every level: smoke
    low: tuple = ()  # (id, class, rule) ground-level obstacles filling the hex
    low_on_art: tuple = ()  # (id, class, rule) ground-level obstacles drawn by the art
    notes: tuple = ()  # assumptions an answer touching this hex relies on

    @property
    def multi(self):
        return self.structure is not None and self.storeys >= 2


OFF_MAP = HexFacts(level=0)


@dataclass(frozen=True)
class Effect:
    """One thing an element does to the line. ``blind``: it counts only because of the blind hex."""

    strength: int
    blind: bool
    terrain: str
    rule: str

    @property
    def rank(self):
        return (self.strength, not self.blind)

    @property
    def word(self):
        return BLIND_WORDS[self.strength] if self.blind else WORDS[self.strength]


@dataclass
class Sight:
    """The two ends of one line and what follows from their levels."""

    a: tuple
    b: tuple
    la: int
    lb: int
    units: tuple  # ("foot" or "vehicle") at a and at b
    lower: str | None  # "a", "b", or None at the same level
    first: int  # index of the first and last HEX or ALONG step, -1 when there is none
    last: int
    slope: bool = False

    @property
    def lo(self):
        return min(self.la, self.lb)

    @property
    def hi(self):
        return max(self.la, self.lb)

    def behind(self, k):
        """Is the lower unit's hex the next hex after step k along the line (its one blind hex)?"""
        if self.lower is None:
            return False
        if self.first < 0:
            return True
        return k >= self.last if self.lower == "b" else k <= self.first



class Rules(RulesBase):
    id = "ost"
    terms = {"clear": "Clear", "hindered": "Degraded", "blocked": "Blocked"}
    fire_group = {"most": THIRD_DEGRADING_BLOCKS - 1,
                  "rule": "OST 27.8.7-27.8.8, 12.3.6: a degrading hex both lines cross counts once, the group's "
                          "lines together cross at most 2, and each costs the group 1 FP"}

    def __init__(self, cmap):
        super().__init__(cmap)
        self.heavy_urban = bool(cmap.options.get("heavy_urban"))  # Map 3: structures used in whole (12.7.3)
        self.facts = self._all_facts()
        self.building = self._buildings()
        self._compile()

    # -- what each hex holds -------------------------------------------------------------------------
    def _classify(self, tid):
        """(class, height, rule, note) of a terrain id, as the catalogue rates it."""
        catalogue = self.catalogue
        if tid not in catalogue:
            return CLEAR, NONE, "OST 14.0", f"{tid}: not in the {catalogue.id} catalogue; taken as clear."
        entry = catalogue.get(tid)
        rule = catalogue.los_rule(tid) or "OST 14.0"
        if entry.get("obstacle") == "storeys":
            return BLOCK, "storeys", rule, None  # a structure: its art blocks, the rest degrades (12.2.3)
        cls = CLASSES.get(entry["los"], CLEAR)
        height = ALL if entry.get("obstacle") == ALL else LOW
        note = None
        decided = [key for key in ("los", "obstacle") if key in (entry.get("decided") or ())]
        if decided and cls:
            note = (f"{tid}: the rulebook does not give its {' or '.join(decided)}; the catalogue's "
                    f"{entry['los']} ({entry.get('obstacle', 'low')}) is used ({rule}).")
        return cls, height if cls else NONE, rule, note

    def _all_facts(self):
        """HexFacts per hex, shared by hexes holding the same things: a large map has only a few hundred kinds of
        hex, and 250,000 separate ones would take more memory than the rest of the compiled map."""
        cmap, shared, facts = self.cmap, {}, []
        for i in range(cmap.n):
            if cmap.art[i] is not None:
                facts.append(self._hex_facts(i))
                continue
            key = (tuple(cmap.terrain[i]), int(cmap.level[i]), int(cmap.storeys[i]), tuple(cmap.markers.get(i, ())))
            if key not in shared:
                shared[key] = self._hex_facts(i)
            facts.append(shared[key])
        return facts

    def _hex_facts(self, i):
        cmap = self.cmap
        structure, everywhere, low, notes = None, [], [], []
        for tid in cmap.terrain[i]:
            cls, height, rule, note = self._classify(tid)
            if note:
                notes.append(note)
            if height == "storeys":
                structure = structure or tid
            elif height == ALL and cls:
                everywhere.append((tid, cls, rule))
            elif height == LOW and cls:
                low.append((tid, cls, rule))
        level = int(cmap.level[i])
        storeys = int(cmap.storeys[i])
        art, owner = cmap.art[i], ART_NONE
        if art is not None:
            if structure:
                owner = ART_NONE if self.heavy_urban else ART_STRUCTURE
            elif level >= 1:
                owner = ART_HILL
            else:
                owner = ART_TERRAIN
        if owner == ART_NONE:
            art = None
        low_on_art = ()
        if owner == ART_TERRAIN:
            low_on_art, low = tuple(low), []
        for kind in cmap.markers.get(i, ()):
            if kind in MARKER_KINDS:
                cls, height, rule, _ = self._classify(kind)
                if not cls or height not in (LOW, ALL):
                    continue
                entry = (kind, cls, rule)
                target = everywhere if height == ALL else low
                if entry not in target:
                    target.append(entry)
        return HexFacts(level=level, structure=structure, storeys=storeys, art=art,
                        art_owner=owner, everywhere=tuple(everywhere), low=tuple(low), low_on_art=low_on_art,
                        notes=tuple(notes))

    def _buildings(self):
        """Building id per hex (-1 none): structure hexes joined where their art meets across the hexside."""
        grid, facts = self.cmap.grid, self.facts
        parent = list(range(self.cmap.n))

        def find(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for col, row in grid.hexes():
            i = grid.index(col, row)
            if facts[i].structure is None:
                continue
            for side in range(3):
                other = grid.neighbour(col, row, side)
                if other is None:
                    continue
                j = grid.index(*other)
                if facts[j].structure is None:
                    continue
                edge = LineString(grid.side_endpoints(col, row, side))
                shapes = [f.art if f.art is not None else edge for f in (facts[i], facts[j])]
                if all(f.art is None for f in (facts[i], facts[j])) or (
                        shapes[0].distance(shapes[1]) <= 1e-6 and all(s.distance(edge) <= 1e-6 for s in shapes)):
                    parent[find(i)] = find(j)
        return [find(i) if facts[i].structure else -1 for i in range(self.cmap.n)]

    def _rule_of(self, tid):
        return (self.catalogue.los_rule(tid) if tid in self.catalogue else "") or "OST 16.0"

    def _hexside_kind(self, tid):
        """(feature kind, rule) of a hexside terrain id, as the catalogue rates it."""
        catalogue = self.catalogue
        if tid not in catalogue:
            return NO_FEATURE, "OST 15.0"
        los = catalogue.get(tid)["los"]
        feature = {"hindering": WALL, "blocking": BARRIER}.get(los, NO_FEATURE)
        if feature == BARRIER:
            feature = SPECIAL_HEXSIDES.get(tid, BARRIER)
        return feature, catalogue.los_rule(tid) or "OST 15.0"

    def unit_level(self, index):
        """The hill level, raised to the top storey in a multi-storey structure (12.6.1, 16.3.4, Q6)."""
        f = self.facts[index]
        return f.level + (f.storeys - 1 if f.structure else 0)

    def describe(self, result, hindrances, blind=False):
        """The ruleset's wording of a result: "Degraded (-2 FP)" and the like (12.3.3)."""
        if result == "hindered":
            return f"Degraded (-{min(hindrances, 2)} FP)"
        return self.terms[result]

    # -- the reference ---------------------------------------------------------------------------------
    def _facts_of(self, h):
        grid = self.cmap.grid
        return self.facts[grid.index(*h)] if grid.contains(*h) else OFF_MAP

    def _building_of(self, h):
        grid = self.cmap.grid
        return self.building[grid.index(*h)] if grid.contains(*h) else -1

    def _meets_art(self, facts, trace, step):
        """Does the stretch of the line in this step meet the hex's art (always, for a hex without art)?"""
        if facts.art is None:
            return True
        grid = self.cmap.grid
        (ax, ay), (bx, by) = grid.centre(*trace.a), grid.centre(*trace.b)
        x0, y0 = ax + step.t0 * (bx - ax), ay + step.t0 * (by - ay)
        x1, y1 = ax + step.t1 * (bx - ax), ay + step.t1 * (by - ay)
        piece = Point(x0, y0) if (x0, y0) == (x1, y1) else LineString([(x0, y0), (x1, y1)])
        return piece.distance(facts.art) <= ART_TOLERANCE

    @staticmethod
    def _low(level, cls, terrain, rule, sight, behind):
        """A ground-level obstacle standing at ``level`` (12.4.7, 12.5.4, 12.5.14, 12.6.1, 12.6.3)."""
        above = (sight.la > level) + (sight.lb > level)
        if above == 0:
            return Effect(cls, False, terrain, rule)
        if above == 1 and behind:
            return Effect(cls, True, terrain, f"{rule}, 12.4.7")
        return Effect(CLEAR, False, terrain, "OST 12.4.7" if above == 1 else "OST 12.4.7, 12.5.14, 12.6.3")

    def _hex_effects(self, facts, hit, sight, behind):
        """Everything one hex does to the line: smoke, its structure, its low terrain, its hill."""
        effects = []
        for tid, cls, rule in facts.everywhere:
            effects.append(Effect(cls, False, tid, rule))
        if facts.structure:
            on = facts.art_owner != ART_STRUCTURE or hit
            if facts.multi and on:
                effects.append(Effect(BLOCK, False, facts.structure, "OST 12.6.2"))
            elif on:
                effects.append(self._low(facts.level, BLOCK, facts.structure, self._rule_of(facts.structure),
                                         sight, behind))
            else:
                effects.append(self._low(facts.level, DEGRADE, facts.structure, "OST 12.2.3", sight, behind))
        obstacles = list(facts.low)
        if hit:
            obstacles += facts.low_on_art
        for tid, cls, rule in obstacles:
            effects.append(self._low(facts.level, cls, tid, rule, sight, behind))
        level = facts.level
        if level > sight.lo and (level >= 1 or level > sight.hi):
            name = f"hill (level {level})" if level >= 1 else f"ground (level {level}) above the gully"
            strength = BLOCK if (facts.art_owner != ART_HILL or hit) else DEGRADE
            rule = "OST 12.5.2" if strength == BLOCK else "OST 12.2.4"
            if level >= 1 and level == sight.hi:
                rule += ", 12.5.7"  # the plateau
            if level < 1:
                rule = "OST 12.5.9"
            if level >= sight.hi:
                effects.append(Effect(strength, False, name, rule))
            elif behind and not sight.slope:
                effects.append(Effect(strength, True, name, "OST 12.5.5"))
            elif behind:
                effects.append(Effect(CLEAR, False, name, "OST 12.5.11"))
            else:
                effects.append(Effect(CLEAR, False, name, "OST 12.5.5"))
        return effects

    @staticmethod
    def _strongest(effects):
        best = None
        for effect in effects:
            if best is None or effect.rank > best.rank:
                best = effect
        return best

    def _feature(self, step, sight, behind, at_end):
        """What the hexside feature of a SIDE or ALONG step does: (Effect or None, assumptions)."""
        tid = self.cmap.hexsides.get(step.hexside)
        if tid is None:
            return None, ()
        kind, rule = self._hexside_kind(tid)
        if kind == NO_FEATURE:
            return None, ()
        beside = [self._facts_of(h) for h in step.hexes]
        level = max(f.level for f in beside)
        if at_end:
            return self._feature_at_end(kind, tid, rule, step, sight)
        if kind == WALL:
            if sight.la == sight.lb and sight.la <= level:
                return Effect(DEGRADE, False, tid, rule + (", 15.0.11" if step.kind == ALONG else "")), ()
            return Effect(CLEAR, False, tid, "OST 12.4.9" if sight.la != sight.lb else "OST 12.5.14"), ()
        if kind == ROW_HOUSE and any(f.multi for f in beside):
            return Effect(BLOCK, False, tid, rule + ", 12.6.2"), (ASSUME_ROW_HOUSE,)
        notes = (ASSUME_ROW_HOUSE,) if kind == ROW_HOUSE else ()
        if kind == BOCAGE and sight.la != sight.lb:
            notes = (ASSUME_BOCAGE_LEVELS,)
        return self._low(level, BLOCK, tid, rule, sight, behind), notes

    def _feature_at_end(self, kind, tid, rule, step, sight):
        """A hexside feature of the firer's or the target's own hex (15.0.10, 15.3.4-15.3.7, 16.4.3)."""
        if kind == ROW_HOUSE:
            return Effect(BLOCK, False, tid, rule), ()
        if kind != BOCAGE:
            return Effect(CLEAR, False, tid, "OST 15.0.10"), ()
        ends = (sight.a, sight.b)
        adjacent = self.cmap.grid.distance(*ends) == 1
        for h in step.hexes:
            if h not in ends:
                continue
            unit, other = sight.units if h == sight.a else sight.units[::-1]
            if unit == "vehicle" and not (adjacent and other == "foot"):
                return Effect(BLOCK, False, tid, "OST 15.3.7"), ()
            if self._facts_of(h).structure and not adjacent:
                return Effect(BLOCK, False, tid, "OST 15.3.6"), ()
        return Effect(CLEAR, False, tid, "OST 15.3.4"), (ASSUME_FOOT,)

    def _sight(self, trace, la, lb, units):
        ha = [k for k, step in enumerate(trace.steps) if step.kind in (HEX, ALONG)]
        lower = None if la == lb else ("a" if la < lb else "b")
        sight = Sight(trace.a, trace.b, la, lb, units, lower, ha[0] if ha else -1, ha[-1] if ha else -1)
        if lower is not None and ha:
            # 12.5.11 (Q3): from the higher unit, every hex one level lower than the one before, down to the
            # lower unit.
            level = sight.hi
            ok = True
            for k in (ha if lower == "b" else ha[::-1]):
                level -= 1
                if any(self._facts_of(h).level != level for h in trace.steps[k].hexes):
                    ok = False
                    break
            sight.slope = ok and sight.lo == level - 1
        return sight, ha

    def evaluate(self, trace, from_level, to_level, from_unit="foot", to_unit="foot"):
        """The reference answer. ``from_unit``/``to_unit``: "foot" or "vehicle" (only bocage tells them apart)."""
        grid = self.cmap.grid
        la, lb = int(from_level), int(to_level)
        answer = Answer(from_hex=hex_label(grid, trace.a), to_hex=hex_label(grid, trace.b),
                        from_level=la, to_level=lb)
        steps = trace.steps
        sight, ha = self._sight(trace, la, lb, (from_unit, to_unit))
        used = set()
        notes = []
        for h, level in ((trace.a, la), (trace.b, lb)):
            facts = self._facts_of(h)
            if facts.multi and facts.level >= 1 and level == self.unit_level(grid.index(*h)):
                used.add(ASSUME_STOREYS_ON_HILL)
        head, tail, reasons = [], [], []
        hard = blind_block = False
        n_full = n_plain = 0

        def count(effects):
            nonlocal hard, blind_block, n_full, n_plain
            full = max((e.strength for e in effects), default=CLEAR)
            plain = max((e.strength for e in effects if not e.blind), default=CLEAR)
            hard |= plain == BLOCK
            blind_block |= full == BLOCK and plain != BLOCK
            n_full += full == DEGRADE
            n_plain += plain == DEGRADE

        # Conditions on the ends of the line: reasons about a go first, about b last (so B to A reverses them).
        if sight.lower is not None and sight.lo < 0 and ha:
            end = trace.a if sight.lower == "a" else trace.b
            first = steps[ha[0] if sight.lower == "a" else ha[-1]]
            if any(self._facts_of(h).level < 0 for h in first.hexes):
                count([Effect(BLOCK, False, "gully", "OST 12.5.9")])
                reason = Reason(hex_label(grid, end), None, "gully (not on its edge toward the line)",
                                "blocking", "OST 12.5.9")
                (head if sight.lower == "a" else tail).append(reason)
                used.add(ASSUME_GULLY)
        building = self._building_of(trace.a)
        if (building >= 0 and building == self._building_of(trace.b) and grid.distance(trace.a, trace.b) >= 2
                and all(self._building_of(h) == building for k in ha for h in steps[k].hexes)):
            count([Effect(BLOCK, False, "structure", "OST 16.3.6")])
            for end, where in ((trace.a, head), (trace.b, tail)):
                where.append(Reason(hex_label(grid, end), None, "inside one multi-hex structure", "blocking",
                                    "OST 16.3.6"))
            used.add(ASSUME_BUILDING)

        for k, step in enumerate(steps):
            behind = sight.behind(k)
            if step.kind in (HEX, CORNER):
                h = step.hexes[0]
                facts = self._facts_of(h)
                effects = self._hex_effects(facts, self._meets_art(facts, trace, step), sight, behind)
                count(effects)
                best = self._strongest(effects)
                if best is not None:
                    reasons.append(Reason(hex_label(grid, h), None, best.terrain, best.word, best.rule))
                    if step.kind == CORNER and best.strength:
                        used.add(ASSUME_CORNER)
                    self._note_slope(best, used)
                notes.extend(facts.notes)
            elif step.kind == ALONG:
                # 14.0.8: along a hexside the heavier of the two hexes counts, once.
                sides = []
                for h in step.hexes:
                    facts = self._facts_of(h)
                    sides.append(self._hex_effects(facts, self._meets_art(facts, trace, step), sight, behind))
                    notes.extend(facts.notes)
                count(sides[0] + sides[1])
                picks = [self._strongest(effects) for effects in sides]
                ranked = [(p.rank if p else (-1, False), tuple(-c for c in h))
                          for p, h in zip(picks, step.hexes, strict=False)]
                pick = 0 if ranked[0] >= ranked[1] else 1
                label = hexside_label(self.cmap, step.hexside)
                pair = None
                if picks[pick] is not None:
                    best = picks[pick]
                    pair = Reason(hex_label(grid, step.hexes[pick]), label, best.terrain, best.word,
                                  f"{best.rule}, 14.0.8")
                    self._note_slope(best, used)
                feature, assumed = self._feature(step, sight, behind, at_end=False)
                if feature is not None:
                    count([feature])
                    used.update(assumed)
                # Reasons in left-to-right order across the line, so that B to A gives them reversed.
                if pair is not None and pick == 0:
                    reasons.append(pair)
                if feature is not None:
                    reasons.append(Reason(None, label, feature.terrain, feature.word, feature.rule))
                if pair is not None and pick == 1:
                    reasons.append(pair)
            else:  # SIDE
                at_end = step.hexes[0] == trace.a or step.hexes[1] == trace.b
                feature, assumed = self._feature(step, sight, behind, at_end)
                if feature is not None:
                    count([feature])
                    used.update(assumed)
                    reasons.append(Reason(None, hexside_label(self.cmap, step.hexside), feature.terrain, feature.word,
                                          feature.rule))

        blocked = hard or blind_block or n_full >= THIRD_DEGRADING_BLOCKS
        blocked_anyway = hard or n_plain >= THIRD_DEGRADING_BLOCKS
        answer.result = "blocked" if blocked else ("hindered" if n_full else "clear")
        answer.hindrances = n_full
        answer.blind = blocked and not blocked_anyway
        answer.term = self.describe(answer.result, n_full, answer.blind)
        answer.reasons = head + reasons + tail[::-1]
        answer.assumptions = [a for a in ASSUMPTION_ORDER if a in used or a in notes]
        answer.assumptions += sorted({n for n in notes if n not in ASSUMPTION_ORDER})
        return answer

    @staticmethod
    def _note_slope(effect, used):
        if effect.rule == "OST 12.5.11":
            used.add(ASSUME_SLOPE)


    # -- the fast path ---------------------------------------------------------------------------------
    def _compile(self):
        """The per-hex arrays the kernel reads, from the same facts the reference reads."""
        self.level = np.array([f.level for f in self.facts], dtype=np.int32)
        self.everywhere = np.array([max((c for _, c, _ in f.everywhere), default=0) for f in self.facts], np.int8)
        self.low = np.array([max((c for _, c, _ in f.low), default=0) for f in self.facts], np.int8)
        self.low_on_art = np.array([max((c for _, c, _ in f.low_on_art), default=0) for f in self.facts], np.int8)
        self.structure = np.array([0 if f.structure is None else (MULTI if f.multi else SINGLE)
                                   for f in self.facts], np.int8)
        self.art_owner = np.array([f.art_owner for f in self.facts], np.int8)
        self.building_id = np.array(self.building, dtype=np.int32)
        kinds = [NO_FEATURE if tid is None else self._hexside_kind(tid)[0] for tid in self.cmap.side_ids]
        self.feature_kind = np.array(kinds, dtype=np.int8)
        self.side_code = np.ascontiguousarray(self.cmap.side_code, dtype=np.int16)
        self.centres = np.ascontiguousarray(self.cmap.centres, dtype=np.float64)
        # Fast paths: a hex with nothing on it at level 0, and a hex with no hexside feature around it.
        self.quiet = ((self.level == 0) & (self.everywhere == 0) & (self.low == 0) & (self.low_on_art == 0)
                      & (self.structure == 0) & (self.art_owner == ART_NONE))
        self.sided = (self.feature_kind[self.side_code] != NO_FEATURE).any(axis=1)

    def batch(self, a, b, level_a, level_b):
        cmap = self.cmap
        t = self.tables
        lookup, q0, r0, hq, hr = self.hex_axial()
        first, last = _shape_ends(t)
        lines = (lookup, q0, r0, hq, hr, t.dq_min, t.dr_min, t.dr_span, t.shape_start, first, last, t.step_kind,
                 t.step_q1, t.step_r1, t.step_q2, t.step_r2, t.step_side, t.step_t0, t.step_t1)
        hexes = (self.centres, self.level, self.everywhere, self.low, self.low_on_art, self.structure,
                 self.art_owner, self.building_id, self.side_code, self.feature_kind, self.quiet, self.sided,
                 cmap.art_hex_start, cmap.art_ring_start, cmap.art_x, cmap.art_y)
        kernel = _batch_parallel if len(a) >= PARALLEL_FROM else _batch_serial
        return kernel(np.asarray(a, np.int32), np.asarray(b, np.int32), np.asarray(level_a, np.int32),
                      np.asarray(level_b, np.int32), lines, hexes)


# Each tables' first and last steps through a hex per shape, kept while the tables live (a grid's whole tables
# live for the process, engine.los.tables.trace_tables; a slice's for its batch).
_SHAPE_ENDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _shape_ends(tables):
    ends = _SHAPE_ENDS.get(tables)
    if ends is None:
        ends = _SHAPE_ENDS[tables] = through_hexes(tables.shape_start, tables.step_kind)
    return ends
