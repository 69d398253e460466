"""What an edit changed for LOS: the pairs that gained or lost sight between two revisions of a map, the blind
hexes made or removed, and a sentence saying it (docs/los.md, "What an edit changed").

Only the lines that could have changed are traced again: a line's answer depends on its two end hexes and the
hexes its trace touches (crossed, run along or passed at a corner; docs/los-geometry.md), so a pair is traced
again when an end or a touched hex is a changed hex or a hex beside a changed hexside. A trace depends only on the
axial difference of its ends (engine.los.tables), so the lines through a hex are found from the shapes' steps
translated to it, without tracing the map. Pairs are unordered and answered from the lower index at where a unit
stands, as the whole-map analysis (engine.los.engine.analyze) answers them.
"""

import functools
from dataclasses import dataclass

import numpy as np
from numba import njit

from engine.los import engine
from engine.los import tables as line_tables
from engine.los.sight import PAIRS_PER_CHUNK, seen_of


class NotComparable(ValueError):
    """Two revisions whose grids or rules differ: no pair of one is a pair of the other."""


def changed_hexes(old, new):
    """Indices of the hexes whose LOS facts differ (terrain, level, storeys, art) and of the hexes beside a
    hexside whose terrain differs, between two compiled maps of one grid; and the changed hexsides."""
    og, ng = old.grid, new.grid
    if (og.orientation, og.columns, og.rows, og.stagger) != (ng.orientation, ng.columns, ng.rows, ng.stagger):
        raise NotComparable(f"the grids differ ({og.columns} x {og.rows} and {ng.columns} x {ng.rows}): compare "
                            "two revisions of the same grid")
    if old.ruleset != new.ruleset or old.options != new.options:
        raise NotComparable("the two revisions use different rules (ruleset or rules options): every pair may "
                            "differ, so run a whole-map analysis of each instead")
    hexes = set()
    for i in range(new.n):
        if (old.terrain[i] != new.terrain[i] or old.level[i] != new.level[i] or old.storeys[i] != new.storeys[i]
                or not _same_art(old.art[i], new.art[i])):
            hexes.add(i)
    sides = {key for key in set(old.hexsides) | set(new.hexsides) if old.hexsides.get(key) != new.hexsides.get(key)}
    near = set(hexes)
    for col, row, side in sides:
        for h in ((col, row), ng.step(col, row, side)):
            if ng.contains(*h):
                near.add(ng.index(*h))
    return sorted(hexes), sorted(sides), np.array(sorted(near), dtype=np.int64)


def _same_art(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a.equals_exact(b, 1e-9)


@functools.lru_cache(maxsize=4)
def _step_shapes(orientation, columns, rows, stagger):
    """The axial difference (dq, dr) of the shape each step of the grid's tables belongs to."""
    t = line_tables.trace_tables(orientation, columns, rows, stagger)
    shape = np.repeat(np.arange(t.n_shapes, dtype=np.int64), np.diff(t.shape_start.astype(np.int64)))
    dq = (shape // t.dr_span + t.dq_min).astype(np.int32)
    dr = (shape % t.dr_span + t.dr_min).astype(np.int32)
    dq.flags.writeable = False
    dr.flags.writeable = False
    return t, dq, dr


def pairs_near(grid, near):
    """Every unordered pair (a < b) whose line has an end in ``near`` (indices) or touches a hex of it."""
    n = grid.size
    near = np.asarray(near, np.int64)
    if not len(near):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    key = (grid.orientation, grid.columns, grid.rows, grid.stagger)
    if not line_tables.full_tables_fit(*key) or n * n > MARK_LIMIT:
        # a grid too large for its tables or the mark: every pair (answered in slices, the same answers)
        a, b = np.triu_indices(n, 1)
        return a.astype(np.int64), b.astype(np.int64)
    orient, stagger = line_tables.ORIENTATION_CODES[grid.orientation], line_tables.STAGGER_CODES[grid.stagger]
    qs, rs = line_tables._axial_array(np.arange(n, dtype=np.int64), grid.rows, orient, stagger)
    mark = np.zeros((n, n), dtype=np.bool_)
    mark[near, :] = True
    mark[:, near] = True
    t, dq, dr = _step_shapes(*key)
    _mark_lines(mark, qs[near], rs[near], dq, dr, t.step_q1, t.step_r1, t.step_q2, t.step_r2, grid.columns,
                grid.rows, orient, stagger)
    a, b = np.nonzero(np.triu(mark, 1))
    return a.astype(np.int64), b.astype(np.int64)


MARK_LIMIT = 1 << 26  # at most 64 MB of pair marks (a 90 x 90 map); past it, every pair is traced


@njit(cache=True)
def _mark_lines(mark, hq, hr, dq, dr, q1, r1, q2, r2, columns, rows, orient, stagger):
    """Mark both ways every pair whose line has a step touching one of the hexes (hq, hr): its start is the hex
    less the step's offset, its end the start plus the shape's difference."""
    for h in range(len(hq)):
        for k in range(len(dq)):
            for side in range(2):
                if side == 0:
                    aq, ar = hq[h] - q1[k], hr[h] - r1[k]
                elif q2[k] != q1[k] or r2[k] != r1[k]:
                    aq, ar = hq[h] - q2[k], hr[h] - r2[k]
                else:
                    continue
                a = line_tables.index_of_axial(aq, ar, orient, stagger, columns, rows)
                if a < 0:
                    continue
                b = line_tables.index_of_axial(aq + dq[k], ar + dr[k], orient, stagger, columns, rows)
                if b >= 0:
                    mark[a, b] = True
                    mark[b, a] = True


def answer(cmap, a, b):
    """(result, hindrances, blind) of unordered pairs at where a unit stands, a bounded chunk at a time."""
    rules = engine.rules_for(cmap)
    levels = rules.unit_levels().astype(np.int32)
    out = [np.zeros(len(a), np.int8), np.zeros(len(a), np.int16), np.zeros(len(a), bool)]
    for start in range(0, len(a), PAIRS_PER_CHUNK):
        part = slice(start, start + PAIRS_PER_CHUNK)
        pa, pb = a[part].astype(np.int32), b[part].astype(np.int32)
        for k, values in enumerate(rules.answer_pairs(pa, pb, levels[pa], levels[pb])):
            out[k][part] = values
    return out


@dataclass
class Diff:
    cmap: object
    changed: list
    sides: list
    traced: int
    gained: tuple  # (a, b) index arrays
    lost: tuple
    blind_made: tuple
    blind_removed: tuple
    sentence: str = ""

    def as_dict(self, limit=1000):
        label = self.cmap.label

        def pairs(ab):
            a, b = ab
            return {"count": len(a), "pairs": [[label(int(x)), label(int(y))] for x, y in zip(a[:limit], b[:limit],
                                                                                              strict=True)]}

        return {"changed_hexes": [label(i) for i in self.changed],
                "changed_hexsides": [self.cmap.hexside_label(*key) for key in self.sides],
                "traced_pairs": self.traced, "gained": pairs(self.gained), "lost": pairs(self.lost),
                "blind_made": pairs(self.blind_made), "blind_removed": pairs(self.blind_removed),
                "blind_hexes": self.blind_hexes(), "sentence": self.sentence}

    def blind_hexes(self):
        """Per hex, how many more (or fewer) lines end in it as a blind hex: {label: change}."""
        out = {}
        for sign, (a, b) in ((1, self.blind_made), (-1, self.blind_removed)):
            for i in np.concatenate([a, b]).tolist():
                out[i] = out.get(i, 0) + sign
        return {self.cmap.label(i): c for i, c in sorted(out.items()) if c}


def diff(old, new, zones=None):
    """The LOS changes from compiled map ``old`` to ``new``; ``zones`` ({name: [indices]}, two of them) adds how
    many of the changed pairs run between the two setup zones."""
    hexes, sides, near = changed_hexes(old, new)
    a, b = pairs_near(new.grid, near)
    ro, _ho, bo = answer(old, a, b)
    rn, _hn, bn = answer(new, a, b)
    so, sn = seen_of(ro, bo), seen_of(rn, bn)
    gained, lost = sn & ~so, so & ~sn
    made, removed = bn & ~bo, bo & ~bn
    out = Diff(new, hexes, sides, len(a), (a[gained], b[gained]), (a[lost], b[lost]), (a[made], b[made]),
               (a[removed], b[removed]))
    out.sentence = sentence(old, new, out, zones)
    return out


def _span(cmap, indices):
    labels = [cmap.label(i) for i in sorted(indices)]
    if len(labels) <= 3:
        return ", ".join(labels)
    return f"{labels[0]}–{labels[-1]}"


def _what(old, new, hexes, sides):
    """The terrain the edit put in (or took out), in the catalogue's names."""
    added, removed = set(), set()
    for i in hexes:
        added.update(set(new.terrain[i]) - set(old.terrain[i]))
        removed.update(set(old.terrain[i]) - set(new.terrain[i]))
    for key in sides:
        if new.hexsides.get(key):
            added.add(new.hexsides[key])
        if old.hexsides.get(key):
            removed.add(old.hexsides[key])
    names = new.catalogue.terrain

    def words(ids):
        return " and ".join(sorted(names.get(t, {}).get("name", t).lower() for t in ids))

    put, taken = added - removed - {new.catalogue.open_hex()}, removed - added
    if put:
        return f"the {words(put)}"
    if taken:
        return f"removing the {words(taken)}"
    return "the edit"


def sentence(old, new, d, zones=None):
    """"The hedge at F4–F7 blocks 312 pairs and opens 3, 41 of them between the two setup zones."."""
    if not d.changed and not d.sides:
        return "Nothing that LOS reads changed: every pair sees as before."
    where = set(d.changed)
    grid = new.grid
    where.update(grid.index(col, row) for col, row, _side in d.sides if grid.contains(col, row))
    what = _what(old, new, d.changed, d.sides)
    lost, gained = len(d.lost[0]), len(d.gained[0])
    text = f"{what[0].upper()}{what[1:]} at {_span(new, where)} blocks {lost} pair{'s' if lost != 1 else ''}"
    text += f" and opens {gained}"
    if zones and len(zones) == 2:
        first, second = (set(z) for z in zones.values())
        between = 0
        for a, b in (d.lost, d.gained):
            for x, y in zip(a.tolist(), b.tolist(), strict=True):
                between += (x in first and y in second) or (x in second and y in first)
        text += f", {between} of them between the two setup zones"
    made, removed = len(d.blind_made[0]), len(d.blind_removed[0])
    if made or removed:
        text += f"; {made} line{'s' if made != 1 else ''} newly end in a blind hex, {removed} no longer"
    return text + "."
