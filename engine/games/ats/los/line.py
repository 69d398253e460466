"""ATS LOS, the reference, one line at a time: what a line of sight passes over, hex by hex and hexside by
hexside, and the answer the rules give it (6.2, 7.2-7.4, 8). engine.games.ats.los.reference compiles the map's
terrain into the classes read here."""

from itertools import pairwise

from shapely.geometry import LineString

from engine.games.ats.los.tables import (
    ASSUME_CREST,
    ASSUME_DEIR,
    ASSUME_EQUAL_TOP,
    ASSUME_FIVE,
    ASSUME_HILLOCK_ZONE,
    ASSUME_UP,
    BLIND,
    C_ART,
    C_BLOCK,
    C_DEIR,
    C_DEPRESSION,
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
    DEPRESSIONS,
    EFFECT_NAMES,
    HINDERING,
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
    provisional_blind_hexes,
)
from engine.los.answer import Reason
from engine.los.base import hex_label, hexside_label
from engine.los.tables import ART_TOLERANCE
from engine.los.trace import ALONG, CORNER, HEX, SIDE


class Line:
    """One line of sight worked out the plain way, element by element, with its reasons."""

    def __init__(self, rules, trace, la, lb):
        self.rules = rules
        self.cmap = cmap = rules.cmap
        self.grid = grid = cmap.grid
        self.data = rules.data
        self.trace = trace
        self.steps = trace.steps
        self.a, self.b = trace.a, trace.b
        self.ia, self.ib = grid.index(*trace.a), grid.index(*trace.b)
        self.la, self.lb = la, lb
        self.reasons, self.assumptions = [], []
        self.wall = self.blinded = False
        self.hindrances = 0
        self.segment = LineString([tuple(cmap.centres[self.ia]), tuple(cmap.centres[self.ib])])

        # A unit on a deir's floor is taken at the rim's level, the deir's contour deciding instead (8.6.2).
        deir_a = self.col(self.ia, C_DEIR) and la == self.col(self.ia, C_LEVEL)
        deir_b = self.col(self.ib, C_DEIR) and lb == self.col(self.ib, C_LEVEL)
        self.deir_end = None
        ea, eb = la, lb
        if deir_a and not deir_b:
            self.deir_end, ea = self.a, la + 5
        elif deir_b and not deir_a:
            self.deir_end, eb = self.b, lb + 5
        self.ea, self.eb = ea, eb
        self.same = ea == eb
        self.hi, self.lo = max(ea, eb), min(ea, eb)
        self.hi_end = None if self.same else (self.a if ea > eb else self.b)
        self.distance = grid.distance(self.a, self.b)
        # A unit on top of a hillock (8.12.21); the level of the highest one sets what it sees over.
        self.on_hillock = {}
        for h, i, level, eff in ((self.a, self.ia, la, ea), (self.b, self.ib, lb, eb)):
            if self.col(i, C_HILLOCK) >= 0 and level == self.col(i, C_LEVEL):
                self.on_hillock[h] = eff
        self.hillock_level = max(self.on_hillock.values(), default=None)
        self.floor = -1  # the depression whose floor the line runs along
        self.dead_ends = []  # DOWN ends out of LOS (7.3.3)
        self._depressions()
        self.slope = self._slope()

    # small helpers
    def index(self, h):
        return self.grid.index(*h) if self.grid.contains(*h) else -1

    def col(self, i, column):
        if i < 0:
            return -1 if column in (C_HILL, C_HILLOCK, C_DEPRESSION) else 0
        return int(self.data[i, column])

    def ground(self, i):
        """The level the hex presents as an obstacle (its floor, when the line runs down a depression)."""
        g = self.col(i, C_GROUND)
        if self.floor >= 0 and self.col(i, C_DEPRESSION) == self.floor:
            g -= DEPRESSION_DEPTH
        return g

    def base(self, i):
        """The level its terrain stands on."""
        g = self.col(i, C_LEVEL)
        if self.floor >= 0 and self.col(i, C_DEPRESSION) == self.floor:
            g -= DEPRESSION_DEPTH
        return g

    def range_from_hi(self, h):
        return self.grid.distance(self.hi_end, h) if self.hi_end is not None else 0

    def touches_art(self, i):
        return not self.col(i, C_ART) or self.segment.distance(self.cmap.art[i]) <= ART_TOLERANCE

    def assume(self, note):
        if note not in self.assumptions:
            self.assumptions.append(note)

    def touched(self):
        """(step number, hex) for every intervening hex the line touches, in order."""
        for k, step in enumerate(self.steps):
            if step.kind in (HEX, CORNER, ALONG):
                for h in step.hexes:
                    yield k, h

    # the two specials that change the line before it is walked
    def _depressions(self):
        """7.3.3: a unit DOWN in a linear depression sees adjacent hexes and along its own depression only."""
        down = [(h, i) for h, i, level in ((self.a, self.ia, self.la), (self.b, self.ib, self.lb))
                if self.col(i, C_DEPRESSION) >= 0 and level < self.col(i, C_LEVEL)]
        if not down or self.distance <= 1:
            return
        group = self.col(down[0][1], C_DEPRESSION)
        inside = (self.col(self.ia, C_DEPRESSION) == group and self.col(self.ib, C_DEPRESSION) == group
                  and all(self.col(self.index(h), C_DEPRESSION) == group for _, h in self.touched()))
        if inside:
            self.floor = group
        else:
            self.dead_ends = [h for h, _ in down]

    def _slope(self):
        """6.2.71: the line runs along a continuous slope: both units on the ground, and from the lower one to
        the higher the ground never falls and rises by one contour (+10) at most from hex to hex."""
        if self.same or self.la != self.col(self.ia, C_LEVEL) or self.lb != self.col(self.ib, C_LEVEL):
            return False
        levels = [self.ground(self.ia)]
        for step in self.steps:
            if step.kind != SIDE:
                levels.append(max(self.ground(self.index(h)) for h in step.hexes))
        levels.append(self.ground(self.ib))
        if self.hi_end == self.a:
            levels.reverse()
        return all(0 <= y - x <= 10 for x, y in pairwise(levels))

    # one obstacle
    def obstacle(self, top, five, rng, zone_start, crest=False):
        """What an obstacle with this top does: (effect, the provisional table cell it used or None).

        ``five``: it stands only +5 above its base; ``rng``: range from the higher unit for the table;
        ``zone_start``: range of the first hex directly behind it; ``crest``: a non-cliff crest of the higher
        unit's own hill (8.13.21).
        """
        if top <= self.lo:
            return NONE, None
        if self.same:
            return WALL, None  # 6.2.61
        if five and self.hillock_level is not None and top <= self.hillock_level:
            return IGNORED, None  # 8.12.21
        if top >= self.hi:
            if top == self.hi:
                self.assume(ASSUME_EQUAL_TOP)
            return WALL, None
        if five:
            self.assume(ASSUME_FIVE)
            return IGNORED, None
        diff = self.hi - top
        if diff < 10:
            return WALL, None  # 6.2.63: at least +10 to see over
        n, provisional = self.table(diff, rng)
        cell = (diff, rng) if provisional else None
        if crest:
            n -= 1  # 8.13.21
        if n > 0 and zone_start <= self.distance <= zone_start + n - 1:
            return BLIND, cell
        return IGNORED, cell

    def table(self, diff, rng):
        counts, provisional = self.rules.table, self.rules.table_provisional
        rng = min(max(rng, 0), counts.shape[1] - 1)
        if diff > TABLE_DIFF_MAX:
            return provisional_blind_hexes(diff, rng), True
        return int(counts[diff, rng]), bool(provisional[diff, rng])

    def note_cell(self, cell):
        if cell is not None:
            diff, rng = cell
            lo = (max(rng, 1) - 1) // 6 * 6 + 1
            n = self.table(diff, rng)[0]
            self.assume(f"Blind Hex Creation Table cell (+{diff}, range {lo}-{lo + 5}) = {n} is provisional "
                        f"(ATS 6.2.63: the play aid's values are not in the rulebook)")

    # the walk
    def run(self):
        # 8.12.24: blind zone behind the last other hillock, seen from a hillock (found before the walk).
        self.zone_range = None
        candidates = [self.range_from_hi(h) for _, h in self.touched() if self._hillock_candidate(h)]
        if candidates:
            d_last = self.zone_range = max(candidates)
            own = self.col(self.index(self.hi_end), C_HILLOCK)
            own_hexes = sum(1 for _, h in self.touched() if self.col(self.index(h), C_HILLOCK) == own)
            n = max(d_last - own_hexes, 0) // 4
            self.zone = (d_last + 2, d_last + 1 + n)
            self.assume(ASSUME_HILLOCK_ZONE)
        self.crossed_contour = []  # deir contours crossed away from both ends (8.6.2)
        self.first_deir = None

        self.end_reason(self.a, self.ia)
        for k, step in enumerate(self.steps):
            if step.kind in (HEX, CORNER):
                effect, hind, reason = self.hex_effect(k, step.hexes[0])
                self.add(effect, hind, reason)
            elif step.kind == ALONG:
                left = self.hex_effect(k, step.hexes[0])
                side = self.along_effect(step)
                right = self.hex_effect(k, step.hexes[1])
                for effect, _, reason in (left, side, right):
                    self.add(effect, 0, reason)
                self.hindrances += max(left[1], right[1])  # H8: along two obscuring hexes, one
            else:
                effect, reason = self.side_effect(k, step)
                self.add(effect, 0, reason)
        self.end_reason(self.b, self.ib)
        self._deir()
        self.blocked = self.wall or self.blinded
        for h in (self.a, self.b):
            for note in self.rules.notes[self.index(h)]:
                self.assume(note)
            i = self.index(h)
            if self.col(i, C_DEPRESSION) >= 0 and (self.la if h == self.a else self.lb) >= self.col(i, C_LEVEL):
                self.assume(ASSUME_UP)

    def add(self, effect, hind, reason):
        if effect == WALL:
            self.wall = True
        elif effect == BLIND:
            self.blinded = True
        self.hindrances += hind
        if reason is not None:
            self.reasons.append(reason)

    def end_reason(self, h, i):
        """Smoke in the firing and target hexes counts (6.4.5); a DOWN end out of LOS is dead ground (7.3.3)."""
        parts = []
        smoke = self.col(i, C_SMOKE)
        if smoke and self.base(i) + SMOKE_HEIGHT > self.lo:
            self.hindrances += SMOKE_HINDRANCE * smoke
            parts.append((HINDERING, f"smoke x{smoke}", "ATS 6.4.5"))
        if h in self.dead_ends:
            self.blinded = True
            other_level = self.lb if h == self.a else self.la
            if other_level > (self.la if h == self.a else self.lb):
                self.assume(ASSUME_CREST)
            tid = next(t for t in self.cmap.terrain[i] if t in DEPRESSIONS)
            parts.append((BLIND, f"{tid} (DOWN)", "ATS 7.3.3"))
        if parts:
            self.reasons.append(self.reason(h, None, parts))

    def reason(self, h, hexside, parts):
        """One reason for a hex or hexside: its heaviest effect, naming every element that counted."""
        effect = max(p[0] for p in parts)
        terrain = ", ".join(p[1] for p in parts)
        rules = []
        for p in parts:
            if p[2] not in rules:
                rules.append(p[2])
        hex_name = hex_label(self.grid, h) if h is not None else None
        side_name = hexside_label(self.cmap, hexside) if hexside is not None else None
        return Reason(hex_name, side_name, terrain, EFFECT_NAMES[effect], "; ".join(rules))

    def _hillock_candidate(self, h):
        i = self.index(h)
        k = self.col(i, C_HILLOCK)
        return k >= 0 and self._hillock_effect(i, k) == "zone"

    def _hillock_effect(self, i, k):
        """A +5 hillock hex as an obstacle (8.12.21-24): "none", "ignored", "ignored-adjacent", "ignored-on",
        "five", "zone" or "wall"."""
        top = self.ground(i)
        base = top - 5
        if top <= self.lo:
            return "none"
        if not self.same and self.hi > top:
            return "five"
        for h, eff in ((self.a, self.ea), (self.b, self.eb)):
            j = self.index(h)
            if eff == base and k in [self.col(int(x), C_HILLOCK) for x in self.rules.neighbours[j] if x >= 0]:
                return "ignored-adjacent"  # 8.12.22
        for h in (self.a, self.b):
            if h in self.on_hillock and self.col(self.index(h), C_HILLOCK) == k:
                return "ignored-on"  # 8.12.23
        if (not self.same and self.hi_end in self.on_hillock and self.lo == base
                and self.col(self.index(self.hi_end), C_HILLOCK) != k):
            return "zone"  # 8.12.24
        return "wall"

    def crest_is_cliff(self, k, h):
        """Does the line leave hex h toward the lower unit across a cliff hexside (8.13.5)?"""
        order = range(k + 1, min(k + 3, len(self.steps))) if self.hi_end == self.a else range(k - 1, max(k - 3, -1), -1)
        for j in order:
            step = self.steps[j]
            if step.kind == SIDE and h in step.hexes:
                i = self.index(step.hexes[0])
                s = step.side
                if i < 0:
                    i, s = self.index(step.hexes[1]), (step.side + 3) % 6
                return i >= 0 and self.rules.side_kind[i, s] == SIDE_CLIFF
        return False

    def _ground_effect(self, k, h, i, ground, rng, parts):
        """The ground of an intervening hex above the lower end: a hillock (6.2.61, 8.12.2x) or a hill and its
        crest (6.2.62, 8.13.2), added to ``parts``."""
        hillock = self.col(i, C_HILLOCK)
        name = "hillock" if hillock >= 0 else (f"hill {ground:+d}" if ground > 0 else f"ground {ground:+d}")
        if hillock >= 0:
            kind = self._hillock_effect(i, hillock)
            if kind == "five":
                self.assume(ASSUME_FIVE)
                parts.append((IGNORED, name, "ATS 6.2.63"))
            elif kind == "ignored-adjacent":
                parts.append((IGNORED, name, "ATS 8.12.22"))
            elif kind == "ignored-on":
                parts.append((IGNORED, name, "ATS 8.12.23"))
            elif kind == "zone":
                effect = IGNORED
                if rng == self.zone_range and self.zone[0] <= self.distance <= self.zone[1]:
                    effect = BLIND
                parts.append((effect, name, "ATS 8.12.24"))
            elif kind == "wall":
                parts.append((WALL, name, "ATS 8.12.23" if self.lo == ground - 5 else "ATS 6.2.61"))
        else:
            same_hill = self.col(i, C_HILL)
            crest = (not self.rules.terraced and same_hill >= 0 and self.hi_end is not None
                     and same_hill == self.col(self.index(self.hi_end), C_HILL)
                     and self.steps[k].kind == HEX and not self.crest_is_cliff(k, h))
            effect, cell = self.obstacle(ground, False, rng, rng + 1, crest)
            self.note_cell(cell)
            if effect != NONE:
                rule = "ATS 8.13.2" if effect == WALL else "ATS 6.2.62, 6.2.63"
                if crest and effect != WALL:
                    rule += ", 8.13.21"
                parts.append((effect, name, rule))

    def _note_deir(self, h, i):
        """The deir hex nearest the far end that the line crosses, for the deir rules (8.6.2)."""
        if self.col(i, C_DEIR):
            d = self.grid.distance(self.other_end(), h) if self.deir_end is not None else 0
            self.first_deir = d if self.first_deir is None else min(self.first_deir, d)

    def hex_effect(self, k, h):
        """(effect, hindrance, reason) of one intervening hex the line touches."""
        i = self.index(h)
        parts = []
        rng = self.range_from_hi(h)
        ground = self.ground(i)
        base = self.base(i)

        self._note_deir(h, i)

        # the ground: a hill crest, or a hillock (6.2.61, 8.13.2, 8.12.2x)
        if ground > self.lo:
            self._ground_effect(k, h, i, ground, rng, parts)

        touched = None  # the art is tested only when it matters
        block = self.col(i, C_BLOCK)
        if block:
            touched = self.touches_art(i)
            if touched:
                tid, rule = self.rules.names[i]["block"]
                effect, cell = self.obstacle(base + block, block == 5, rng, rng + 1)
                self.note_cell(cell)
                if effect != NONE:
                    parts.append((effect, tid, rule if effect == WALL else f"ATS 6.2.63; {rule}"))
        rubble = self.col(i, C_RUBBLE)
        if rubble:
            effect, cell = self.obstacle(base + rubble, rubble == 5, rng, rng + 1)
            if effect != NONE:
                parts.append((effect, "rubble", self.rules.rubble_rule))

        hind = 0
        obscure = self.col(i, C_OBSCURE)
        obscured = False
        if obscure:
            if touched is None:
                touched = self.touches_art(i)
            if touched:
                tid, rule = self.rules.names[i]["obscure"]
                top = base + obscure
                if obscure >= 10 and not self.same and self.hi > top:
                    effect, cell = self.obstacle(top, False, rng, rng + 1)  # 8.16.2, 8.17.2
                    self.note_cell(cell)
                    if effect in (WALL, BLIND):
                        parts.append((effect, tid, f"ATS 6.2.63; {rule}"))
                if top > self.lo:
                    if obscure == 5 and self.hillock_level is not None and top <= self.hillock_level:
                        parts.append((IGNORED, tid, "ATS 8.12.21"))
                    else:
                        obscured = True
        vehicle = self.vehicle_counts(i, base)
        smoke = self.col(i, C_SMOKE)
        if smoke and base + SMOKE_HEIGHT > self.lo:
            hind = SMOKE_HINDRANCE * smoke  # 7.4: smoke replaces the obscuring terrain of its hex
            parts.append((HINDERING, f"smoke x{smoke}", "ATS 6.4.5, 7.4"))
        elif obscured or vehicle:
            hind = 1
            if obscured:
                tid, rule = self.rules.names[i]["obscure"]
                parts.append((HINDERING, tid, "ATS 7.4"))
            if vehicle:
                parts.append((HINDERING, vehicle, "ATS 6.2.71"))
        if i >= 0:
            for note in self.rules.notes[i]:
                self.assume(note)
        effect = max((p[0] for p in parts), default=NONE)
        return effect, hind, (self.reason(h, None, parts) if parts else None)

    def other_end(self):
        return self.b if self.deir_end == self.a else self.a

    def vehicle_counts(self, i, base):
        """6.2.71: AFVs, APCs and wrecks (+5) obscure a same-level line or one along a continuous slope."""
        names = []
        if self.col(i, C_VEHICLE):
            names.append("vehicle")
        if self.col(i, C_WRECK):
            # 8.6.2: a wreck in a deir is ignored between another deir hex and a higher hex
            deir_level, other_level = (self.la, self.lb) if self.deir_end == self.a else (self.lb, self.la)
            if not (self.deir_end is not None and self.col(i, C_DEIR) and other_level > deir_level):
                names.append("wreck")
        if not names:
            return None
        top = base + VEHICLE_HEIGHT
        if top <= self.lo:
            return None
        if self.hillock_level is not None and top <= self.hillock_level:
            return None  # 8.12.21
        if (self.same and base <= self.lo) or self.slope:
            return " and ".join(names)
        return None

    def side_effect(self, k, step):
        """(effect, reason) of a hexside the line crosses."""
        frm, to = step.hexes
        i, s = self.index(frm), step.side
        if i < 0:
            i, s = self.index(to), (step.side + 3) % 6
        kind = self.rules.side_kind[i, s] if i >= 0 else SIDE_PLAIN
        height = int(self.rules.side_height[i, s]) if i >= 0 else 0
        parts = []
        ends = (self.a, self.b)
        # deir contour (8.6.2), counted only away from both ends' own hexsides
        deir_from, deir_to = self.col(self.index(frm), C_DEIR), self.col(self.index(to), C_DEIR)
        if self.deir_end is not None and deir_from != deir_to and frm not in ends and to not in ends:
            self.crossed_contour.append((len(self.reasons), step.hexside))
        if kind == SIDE_INTERIOR:
            parts.append((WALL, "interior-wall", "ATS 8.3.11"))
        elif height:
            tid, rule = self.rules.side_names[step.hexside]
            top = max(self.ground(self.index(frm)), self.ground(self.index(to))) + height
            at_end = frm in ends or to in ends
            if at_end and (self.same or self.hi_end in (frm, to)):
                effect = NONE  # 7.2: LOS reaches the hex the hexside borders; the unit there gets cover
            else:
                near, far = (frm, to) if self.hi_end == self.a else (to, frm)
                effect, cell = self.obstacle(top, height == 5, self.range_from_hi(near), self.range_from_hi(far))
                self.note_cell(cell)
                if at_end and effect == WALL:
                    effect = NONE  # 7.2
            if effect != NONE:
                parts.append((effect, tid, rule if effect == WALL else f"ATS 6.2.63, 7.2; {rule}"))
        if not parts:
            return NONE, None
        effect = max(p[0] for p in parts)
        return effect, self.reason(None, step.hexside, parts)

    def along_effect(self, step):
        """(effect, hindrance, reason) of the hexside the line runs along: +10 hexside terrain blocks (7.2)."""
        left, right = (self.index(h) for h in step.hexes)
        i, s = (left, step.side) if left >= 0 else (right, (step.side + 3) % 6)
        kind = self.rules.side_kind[i, s] if i >= 0 else SIDE_PLAIN
        height = int(self.rules.side_height[i, s]) if i >= 0 else 0
        parts = []
        if kind == SIDE_INTERIOR:
            parts.append((WALL, "interior-wall", "ATS 8.3.11"))
        elif height >= 10:
            tid, _ = self.rules.side_names[step.hexside]
            top = max(self.ground(left), self.ground(right)) + height
            rng = max(self.range_from_hi(h) for h in step.hexes)
            effect, cell = self.obstacle(top, False, rng, rng + 1)
            self.note_cell(cell)
            if effect != NONE:
                parts.append((effect, tid, "ATS 7.2" if effect == WALL else "ATS 6.2.63, 7.2"))
        if not parts:
            return NONE, 0, None
        return max(p[0] for p in parts), 0, self.reason(None, step.hexside, parts)

    def _deir(self):
        """8.6.2: across a deir contour, a deir unit and a Level 0 or +5 unit do not see each other; a higher
        unit sees into the deir when its range to the first deir hex is no more than its height."""
        if self.deir_end is None or not self.crossed_contour:
            return
        d_end = self.deir_end
        other = self.other_end()
        rel = (self.eb - self.ea) if other == self.b else (self.ea - self.eb)
        first = self.grid.distance(other, d_end)
        if self.first_deir is not None:
            first = min(first, self.first_deir)
        if rel >= 5 and first <= rel:
            return
        self.blinded = True
        self.assume(ASSUME_DEIR)
        # The reason sits where the line crosses the contour (merged with any hexside reason there).
        for position, hexside in reversed(self.crossed_contour):
            label = hexside_label(self.cmap, hexside)
            existing = [r for r in self.reasons[position:position + 1] if r.hexside == label and r.hex is None]
            if existing:
                r = existing[0]
                r.terrain += ", deir contour"
                r.rule += "; ATS 8.6.2"
                if r.effect != "blocking":
                    r.effect = "blind"
            else:
                self.reasons.insert(position, Reason(None, label, "deir contour", "blind", "ATS 8.6.2"))
