"""A designer's sight instruments built on the batch answers: exposure, covered approaches and the lowest level
an observer needs (docs/los.md, "Exposure, routes and observer height").

Seen means what the sight lines mean (engine/scenarios/sightlines.py): the line is not blocked and its target is
not in a blind hex; a hindered line is seen. An observer stands where a unit in its hex stands
(Rules.unit_level). LOS is reciprocal in every ruleset here (docs/los.md), so a pair of two observers at where
a unit stands is answered once and counted for both; the pairs are answered a bounded chunk at a time.
"""

import heapq
from dataclasses import dataclass

import numpy as np

from engine.los import engine
from engine.los.answer import RESULT_CODE

PAIRS_PER_CHUNK = 1 << 18  # about 8 MB of pair arrays and answers at a time
BLOCKED = RESULT_CODE["blocked"]


def seen_of(result, blind):
    """bool per answered pair: seen (not blocked, not blind)."""
    return (result != BLOCKED) & ~blind


def standing_levels(cmap):
    """Per hex, every level a unit may stand on there: where a unit stands (Rules.unit_level) and, in a building
    of several storeys, each storey from the ground up (the catalogue's level_step a storey)."""
    rules = engine.rules_for(cmap)
    base = rules.unit_levels()
    step = (cmap.catalogue.level_step if cmap.catalogue is not None else 1) or 1
    out = []
    for i in range(cmap.n):
        levels = {int(base[i])}
        if cmap.storeys[i] > 1:
            levels.update(int(cmap.level[i]) + k * step for k in range(int(cmap.storeys[i])))
        out.append(sorted(levels))
    return out


@dataclass
class Exposure:
    """How many observers see each hex: ``seen`` where a unit stands, ``levels`` every other level a unit may
    stand on ({hex index: {level: count}}), and ``most``, the highest count over a hex's levels."""

    cmap: object
    observers: np.ndarray
    seen: np.ndarray
    levels: dict
    pairs: int

    @property
    def most(self):
        most = self.seen.copy()
        for i, by_level in self.levels.items():
            most[i] = max(most[i], *by_level.values())
        return most

    def as_dict(self):
        label = self.cmap.label
        base = engine.rules_for(self.cmap).unit_levels()
        hexes = {}
        for i in range(self.cmap.n):
            entry = {int(base[i]): int(self.seen[i])}
            entry.update({lv: int(c) for lv, c in self.levels.get(i, {}).items()})
            hexes[label(i)] = {"seen": int(self.seen[i]),
                               "levels": [{"level": lv, "seen": c} for lv, c in sorted(entry.items())]}
        most = self.most
        return {"observers": [label(int(i)) for i in self.observers], "pairs": self.pairs,
                "highest": int(most.max()) if len(most) else 0, "hexes": hexes}


def observer_indices(cmap, hexes):
    """Hex labels or [column, row] as sorted distinct indices; ValueError naming a hex not on the map."""
    return np.array(sorted({cmap.index_of(h) for h in hexes}), dtype=np.int32)


def exposure(cmap, observers, progress=None):
    """Per hex, how many of ``observers`` (indices) see it, at every level a unit may stand on."""
    rules = engine.rules_for(cmap)
    n = cmap.n
    unit = rules.unit_levels().astype(np.int32)
    obs = np.unique(np.asarray(observers, dtype=np.int32))
    is_observer = np.zeros(n, dtype=bool)
    is_observer[obs] = True
    seen = np.zeros(n, dtype=np.int64)
    seen[obs] += 1  # a hex sees itself: the line from a hex to itself is clear
    pairs = 0
    everything = np.arange(n, dtype=np.int32)
    per_chunk = max(1, PAIRS_PER_CHUNK // max(1, n))
    for start in range(0, len(obs), per_chunk):
        chunk = obs[start:start + per_chunk]
        a = np.repeat(chunk, n)
        b = np.tile(everything, len(chunk))
        keep = ~is_observer[b] | (b > a)  # a pair of observers once, the later one counting for the earlier
        a, b = a[keep], b[keep]
        result, _hindrances, blind = rules.answer_pairs(a, b, unit[a], unit[b])
        ok = seen_of(result, blind)
        pairs += len(a)
        seen += np.bincount(b[ok], minlength=n)
        both = ok & is_observer[b]
        seen += np.bincount(a[both], minlength=n)
        if progress:
            progress(90 * (start + len(chunk)) // max(1, len(obs)), "exposure")
    levels, extra = _other_levels(cmap, rules, obs, unit)
    return Exposure(cmap, obs, seen, levels, pairs + extra)


def _other_levels(cmap, rules, obs, unit):
    """The counts at the levels other than where a unit stands (upper storeys): each observer asked once."""
    targets = [(i, lv) for i, levels in enumerate(standing_levels(cmap)) for lv in levels if lv != unit[i]]
    out = {}
    if not targets or not len(obs):
        return out, 0
    t_hex = np.array([i for i, _ in targets], dtype=np.int32)
    t_level = np.array([lv for _, lv in targets], dtype=np.int32)
    counts = np.zeros(len(targets), dtype=np.int64)
    per_chunk = max(1, PAIRS_PER_CHUNK // len(targets))
    for start in range(0, len(obs), per_chunk):
        chunk = obs[start:start + per_chunk]
        a = np.repeat(chunk, len(targets))
        b = np.tile(t_hex, len(chunk))
        lb = np.tile(t_level, len(chunk))
        result, _h, blind = rules.answer_pairs(a, b, unit[a], lb)
        ok = seen_of(result, blind) | (a == b)
        counts += ok.reshape(len(chunk), len(targets)).sum(axis=0)
    for (i, lv), c in zip(targets, counts.tolist(), strict=True):
        out.setdefault(i, {})[lv] = c
    return out, len(obs) * len(targets)


# -- minimum observer height ---------------------------------------------------------------------------------

def observer_levels(cmap):
    """Every level an observer may be raised to, lowest first: the ruleset's standing levels
    (Ruleset.standing_levels) for the map's tallest building."""
    low, high = cmap.catalogue.standing_levels(int(cmap.storeys.max()) if cmap.n else 1)
    return list(range(low, high + 1, max(1, cmap.catalogue.level_step or 1)))


def minimum_height(cmap, from_hex):
    """For an observer in ``from_hex``, the lowest level (from where a unit stands there up) at which each hex,
    a unit standing in it, is seen; None where no level sees it. {"from", "levels", "hexes": {label: level}}."""
    rules = engine.rules_for(cmap)
    a = cmap.index_of(from_hex)
    unit = rules.unit_levels().astype(np.int32)
    start = int(unit[a])
    levels = [lv for lv in observer_levels(cmap) if lv >= start] or [start]
    if levels[0] != start:
        levels.insert(0, start)
    lowest = np.full(cmap.n, np.iinfo(np.int32).min, dtype=np.int64)
    found = np.zeros(cmap.n, dtype=bool)
    targets = np.arange(cmap.n, dtype=np.int32)
    for level in levels:
        todo = targets[~found]
        if not len(todo):
            break
        result, _h, blind = rules.answer_pairs(np.full(len(todo), a, np.int32), todo,
                                               np.full(len(todo), level, np.int32), unit[todo])
        ok = seen_of(result, blind) | (todo == a)
        lowest[todo[ok]] = level
        found[todo[ok]] = True
    hexes = {cmap.label(i): (int(lowest[i]) if found[i] else None) for i in range(cmap.n)}
    return {"from": cmap.label(a), "levels": levels, "hexes": hexes}


# -- covered approaches --------------------------------------------------------------------------------------

def refused_moves(cmap, unit_class):
    """(bool[n]: hexes a unit of ``unit_class`` may not enter; {(i, j)}: hexside crossings it may not make), from
    the catalogue's movement data (Ruleset.refuses)."""
    catalogue = cmap.catalogue
    grid = cmap.grid
    hexes = np.array([catalogue.refuses(cmap.terrain[i], unit_class) is not None for i in range(cmap.n)])
    sides = set()
    for (col, row, side), tid in cmap.hexsides.items():
        other = grid.step(col, row, side)
        if not (grid.contains(col, row) and grid.contains(*other)):
            continue
        if catalogue.refuses((tid,), unit_class) is not None:
            i, j = grid.index(col, row), grid.index(*other)
            sides.update({(i, j), (j, i)})
    return hexes, sides


def movement_graph(cmap, unit_class):
    """Each hex's neighbours a unit may move to (refused terrain and hexsides left out)."""
    grid = cmap.grid
    refused, sides = refused_moves(cmap, unit_class)
    graph = []
    for i in range(cmap.n):
        graph.append([] if refused[i] else
                     [j for j in (grid.index(*h) for h in grid.neighbours(*grid.from_index(i)))
                      if not refused[j] and (i, j) not in sides])
    return graph, refused


class NoRoute(ValueError):
    """No route joins the two hexes (refused terrain in the way, or an end a unit may not enter)."""


def least_exposed_route(cmap, cost, start, goal, unit_class):
    """The route from ``start`` to ``goal`` (indices) whose hexes, both ends included, add up to the least
    ``cost`` (each hex's exposure); of equal cost, the one with fewest hexes. Dijkstra over the movement graph."""
    graph, refused = movement_graph(cmap, unit_class)
    for end in (start, goal):
        if refused[end]:
            tid = cmap.catalogue.refuses(cmap.terrain[end], unit_class)
            raise NoRoute(f"a {unit_class} unit may not enter {cmap.label(end)} ({tid})")
    cost = np.asarray(cost).tolist()
    best = {start: (cost[start], 1)}
    back = {}
    heap = [(cost[start], 1, start)]
    while heap:
        c, steps, i = heapq.heappop(heap)
        if i == goal:
            break
        if best.get(i, (c, steps)) < (c, steps):
            continue
        for j in graph[i]:
            key = (c + cost[j], steps + 1)
            if key < best.get(j, (float("inf"), 0)):
                best[j] = key
                back[j] = i
                heapq.heappush(heap, (key[0], key[1], j))
    if goal not in best:
        raise NoRoute(f"no route a {unit_class} unit may take joins {cmap.label(start)} and {cmap.label(goal)}")
    route = [goal]
    while route[-1] != start:
        route.append(back[route[-1]])
    return route[::-1]


def route_report(cmap, route, counts):
    """A route's hexes with their exposure, its total and the share of its hexes seen by any observer."""
    values = [int(counts[i]) for i in route]
    seen = sum(1 for v in values if v > 0)
    return {"hexes": [{"hex": cmap.label(i), "seen": v} for i, v in zip(route, values, strict=True)],
            "exposure": sum(values), "seen_hexes": seen, "length": len(route),
            "share_seen": round(seen / len(route), 4) if route else 0.0}


def check_route(cmap, hexes, unit_class):
    """A drawn route as indices: each hex next to the one before and one a unit may enter; ValueError saying
    which step is wrong."""
    graph, refused = movement_graph(cmap, unit_class)
    route = [cmap.index_of(h) for h in hexes]
    for k, i in enumerate(route):
        if refused[i]:
            raise ValueError(f"the route enters {cmap.label(i)}, where a {unit_class} unit may not go "
                             f"({cmap.catalogue.refuses(cmap.terrain[i], unit_class)})")
        if k and i not in graph[route[k - 1]]:
            raise ValueError(f"the route goes from {cmap.label(route[k - 1])} to {cmap.label(i)}: not a move "
                             f"a {unit_class} unit may make (not next to each other, or across a hexside it may "
                             "not cross)")
    return route
