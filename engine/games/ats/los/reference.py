"""ATS LOS, the reference (ATS rulebook v2.09): rules 6.2, 7.2-7.4 and the terrain of 8.

The pancake model: a hex presents its ground level, plus the height of its terrain where the line touches the
art (6.2.3, 6.2.4). Between units on the same level, blocking terrain at least +5 above them blocks (6.2.61).
Between different levels an obstacle at or above the higher unit blocks; one between the two levels at least
+10 below the higher unit casts blind hexes behind it, as many as the Blind Hex Creation Table gives for the
height difference and the range (6.2.62, 6.2.63), one fewer behind a crest of the firer's own hill (8.13.21).
Obscuring terrain, vehicles, wrecks and smoke only add to the tally "Obscured (+n)" (6.2.71, 6.4.5, 7.4).
Hillocks, deirs and linear depressions have their own rules (8.12.2x, 8.6.2, 7.3.3).

Every decision the rulebook leaves open is in engine/games/ats/rules.md; an answer that relied on one names it in
``assumptions``. ``evaluate`` is the reference (one line's reasoning is engine.games.ats.los.line); ``batch`` runs
the same rules compiled, and a differential test keeps the two equal.
"""

from collections import deque

import numpy as np

from engine.games.ats.los.kernel import _batch
from engine.games.ats.los.line import Line
from engine.games.ats.los.tables import (
    BLOCKING,
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
    CLASSES,
    CLEAR,
    DEIR,
    DEPRESSIONS,
    HEXSIDE_KINDS,
    HILLOCK,
    LANDFORMS,
    N_COLUMNS,
    OBSCURING,
    ROOFLESS_AS,
    SIDE_CONTOUR,
    SIDE_PLAIN,
    SMOKE_KINDS,
    UNHANDLED,
    blind_hex_table,
    components,
)
from engine.los.answer import Answer
from engine.los.base import RulesBase, hex_label


class Rules(RulesBase):
    id = "ats"
    terms = {"clear": "Clear", "hindered": "Obscured", "blocked": "Blind"}

    def __init__(self, cmap):
        super().__init__(cmap)
        grid = cmap.grid
        n = cmap.n
        options = cmap.options
        self.terraced = bool(options.get("terraced_hills", False))
        self.forest = bool(options.get("forest", False))  # 8.32.21: SSR makes woods forest
        self.harvested = bool(options.get("harvested_crops", False))  # 8.4.2
        self.dune_height = int(options.get("sand_dune_height", 5))  # 8.23.2: +5 unless SSR says +10

        self.neighbours = np.full((n, 6), -1, dtype=np.int32)
        self.q = np.zeros(n, dtype=np.int32)
        self.r = np.zeros(n, dtype=np.int32)
        for col, row in grid.hexes():
            i = grid.index(col, row)
            self.q[i], self.r[i] = grid.to_axial(col, row)
            for s in range(6):
                nb = grid.neighbour(col, row, s)
                if nb is not None:
                    self.neighbours[i, s] = grid.index(*nb)

        level = np.asarray(cmap.level, dtype=np.int32)
        data = np.zeros((n, N_COLUMNS), dtype=np.int32)
        data[:, C_LEVEL] = level
        self.names = [{} for _ in range(n)]  # per hex: element -> (terrain name, rule)
        self.notes = [[] for _ in range(n)]  # per hex: assumptions an answer touching it relies on
        for i, ids in enumerate(cmap.terrain):
            self._classify(i, ids, data)
        data[:, C_ART] = [geom is not None for geom in cmap.art]
        # A rubble marker is rated like rubble terrain (8.22.2; +5 blocking in the built-in catalogue).
        rubble = self._catalogue_entry("rubble") or {}
        rubble_height = int(rubble.get("height") or 0) if rubble.get("los") == "blocking" else 0
        self.rubble_rule = (self.catalogue.los_rule("rubble") if rubble else "") or "ATS 8.22.2"
        data[:, C_RUBBLE] = np.where(cmap.marker_count("rubble") > 0, rubble_height, 0)
        for kind in SMOKE_KINDS:
            data[:, C_SMOKE] += cmap.marker_count(kind)
        data[:, C_VEHICLE] = cmap.marker_count("vehicle") > 0
        data[:, C_WRECK] = cmap.marker_count("wreck") > 0

        # Hexsides: height and kind on each side of each hex (an edge is stored from both of its hexes).
        self.side_height = np.zeros((n, 6), dtype=np.int32)
        self.side_kind = np.zeros((n, 6), dtype=np.int8)
        self.side_names = {}
        for key, tid in cmap.hexsides.items():
            height, kind, rule = self._hexside_class(tid)
            self.side_names[key] = (tid, rule)
            for col, row, s in ((key[0], key[1], key[2]), (*grid.step(key[0], key[1], key[2]), key[2] + 3)):
                if grid.contains(col, row):
                    i = grid.index(col, row)
                    self.side_height[i, s] = height
                    self.side_kind[i, s] = kind

        # Hillocks: the top of a hillock contour and every hex of its level joined to it (8.12.2).
        hillock_top = np.array([HILLOCK in ids for ids in cmap.terrain], dtype=bool)
        for i in range(n):
            for s in range(6):
                j = self.neighbours[i, s]
                if j >= 0 and self.side_kind[i, s] == SIDE_CONTOUR and level[j] == level[i] - 5:
                    hillock_top[i] = True
        grown = hillock_top.copy()
        queue = deque(np.flatnonzero(hillock_top).tolist())
        while queue:
            i = queue.popleft()
            for j in self.neighbours[i]:
                if j >= 0 and not grown[j] and level[j] == level[i]:
                    grown[j] = True
                    queue.append(j)
        on_hill = grown & (level - 5 > 0)  # 8.13.21: a hillock on a hill does not affect LOS
        data[:, C_GROUND] = np.where(on_hill, level - 5, level)
        data[:, C_HILLOCK] = components(n, self.neighbours, grown & ~on_hill)
        data[:, C_HILL] = components(n, self.neighbours, level > 0)  # 8.13.21: connected hexes above 0
        deir = np.array([DEIR in ids for ids in cmap.terrain], dtype=bool)
        data[:, C_DEIR] = deir
        depression = np.array([any(t in DEPRESSIONS for t in ids) for ids in cmap.terrain], dtype=bool)
        data[:, C_DEPRESSION] = components(n, self.neighbours, depression)
        data[:, C_FLAGS] = ((data[:, C_BLOCK] > 0) | (data[:, C_OBSCURE] > 0) | (data[:, C_RUBBLE] > 0)
                            | (data[:, C_SMOKE] > 0) | (data[:, C_VEHICLE] > 0) | (data[:, C_WRECK] > 0)
                            | (data[:, C_HILLOCK] >= 0) | (data[:, C_DEIR] > 0) | (data[:, C_DEPRESSION] >= 0))
        self.data = data
        self.side_any = (self.side_height > 0).any(axis=1) | (self.side_kind != SIDE_PLAIN).any(axis=1)
        # axial (q, r) -> hex index, -1 off the map, with a margin for lines along the border
        margin = 2
        self.q0, self.r0 = int(self.q.min()) - margin, int(self.r.min()) - margin
        self.lookup = np.full((int(self.q.max()) - self.q0 + margin + 1, int(self.r.max()) - self.r0 + margin + 1),
                              -1, dtype=np.int32)
        self.lookup[self.q - self.q0, self.r - self.r0] = np.arange(n, dtype=np.int32)
        self.any_vehicle = bool((data[:, C_VEHICLE] | data[:, C_WRECK]).any())

        max_range = grid.columns + grid.rows + 2
        self.table, self.table_provisional = blind_hex_table(self.catalogue, max_range)

    def _classify(self, i, ids, data):
        """Fill the terrain columns of hex i from its terrain ids."""
        block, obscure, names, notes = 0, 0, self.names[i], self.notes[i]
        storeys = int(self.cmap.storeys[i])
        steeple = False
        for tid in ids:
            if tid in LANDFORMS:
                continue
            if tid in UNHANDLED:
                notes.append(UNHANDLED[tid])
            if tid == "steeple":
                steeple = True
                continue
            cls, height, rule = self._terrain_class(tid, i)
            if tid == "building":
                height *= max(storeys, 1)  # the catalogue's height is one storey's (8.3.12)
            if cls == BLOCKING and height > block:
                block = height
                names["block"] = (tid, rule)
            elif cls == OBSCURING and height > obscure:
                obscure = height
                names["obscure"] = (tid, rule)
        if steeple:
            # 8.3.13: a steeple adds its height to the building in its hex (a house, +10, when there is none)
            cls, height, rule = self._terrain_class("steeple", i)
            if cls == BLOCKING:
                block = max(block, height) + height
                names["block"] = ("steeple", rule)
        data[i, C_BLOCK] = block
        data[i, C_OBSCURE] = obscure

    def _terrain_class(self, tid, i):
        """(class, height, rule) of a hex terrain id, as the catalogue rates it (SSR options swap the entry)."""
        cited = tid
        if tid == "woods" and self.forest and "forest" in self.catalogue:
            tid = cited = "forest"  # 8.32.21: an SSR makes woods forest
        elif tid == "crops" and self.harvested and "harvested-crops" in self.catalogue:
            tid = cited = "harvested-crops"  # 8.4.2
        elif tid == "roofless" and ROOFLESS_AS in self.catalogue:
            tid = ROOFLESS_AS  # rated as debris, citing the roofless rule
        entry = self._catalogue_entry(tid)
        if entry is None:
            self.notes[i].append(f"{tid}: not in the {self.catalogue.id} catalogue; taken as clear")
            return CLEAR, 0, "ATS 7.1"
        height = int(entry.get("height") or 0)
        cls = CLASSES.get(entry["los"])
        rule = (self.catalogue.los_rule(cited) if cited in self.catalogue else "") or "ATS 7.1"
        if cls is not None and height > 0:
            return cls, height, rule
        if entry["los"] != "clear":
            self.notes[i].append(f"{tid}: the {self.catalogue.id} catalogue rates it {entry['los']} with no "
                                 f"height above its ground; taken as clear")
        return CLEAR, 0, rule

    def _hexside_class(self, tid):
        """(height, kind, rule) of a hexside terrain id, as the catalogue rates it."""
        rule = (self.catalogue.los_rule(tid) if tid in self.catalogue else "") or "ATS 7.2"
        if tid in HEXSIDE_KINDS:
            return 0, HEXSIDE_KINDS[tid], rule
        entry = self._catalogue_entry(tid)
        if entry is None or entry["los"] != "blocking" or not (entry.get("height") or 0) > 0:
            return 0, SIDE_PLAIN, rule
        if tid == "sand-dune":
            return self.dune_height, SIDE_PLAIN, rule  # 8.23.2: +5 unless an SSR says +10
        return int(entry["height"]), SIDE_PLAIN, rule

    def _catalogue_entry(self, tid):
        return self.catalogue.get(tid) if tid in self.catalogue else None

    def describe(self, result, hindrances, blind=False):
        """Clear, Obscured (+n) with the obscuring tally (7.4), or Blind."""
        if result == "hindered":
            return f"Obscured (+{hindrances})"
        return self.terms[result]

    def unit_level(self, index):
        return int(self.cmap.level[index])

    # -- the reference -----------------------------------------------------------------------------------
    def evaluate(self, trace, from_level, to_level):
        grid = self.cmap.grid
        la, lb = int(from_level), int(to_level)
        answer = Answer(from_hex=hex_label(grid, trace.a), to_hex=hex_label(grid, trace.b),
                        from_level=la, to_level=lb)
        if trace.a == trace.b:
            answer.term = self.describe("clear", 0)
            return answer
        line = Line(self, trace, la, lb)
        line.run()
        answer.result = "blocked" if line.blocked else ("hindered" if line.hindrances else "clear")
        answer.hindrances = line.hindrances
        answer.blind = line.blocked and not line.wall
        answer.term = self.describe(answer.result, answer.hindrances, answer.blind)
        answer.reasons = line.reasons
        answer.assumptions = line.assumptions
        return answer

    # -- the fast path -----------------------------------------------------------------------------------
    def batch(self, a, b, level_a, level_b):
        t = self.tables
        a = np.ascontiguousarray(a, dtype=np.int32)
        b = np.ascontiguousarray(b, dtype=np.int32)
        level_a = np.ascontiguousarray(level_a, dtype=np.int32)
        level_b = np.ascontiguousarray(level_b, dtype=np.int32)
        count = a.shape[0]
        result = np.zeros(count, dtype=np.int8)
        hindrances = np.zeros(count, dtype=np.int16)
        blind = np.zeros(count, dtype=np.bool_)
        cmap = self.cmap
        _batch(a, b, level_a, level_b, self.data, self.side_height, self.side_kind, self.side_any,
               self.neighbours, self.q, self.r, cmap.centres, cmap.art_hex_start, cmap.art_ring_start, cmap.art_x,
               cmap.art_y, self.table, self.terraced, self.any_vehicle, self.lookup, self.q0, self.r0,
               t.dq_min, t.dr_min, t.dr_span, t.shape_start, t.step_kind, t.step_q1, t.step_r1, t.step_q2,
               t.step_r2, t.step_side, result, hindrances, blind)
        return result, hindrances, blind
