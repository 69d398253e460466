"""The LOS engine's front door: compile a map, answer one line, a viewshed or the whole map.

Everything here is plain Python over a :class:`CompiledMap`; the per-game work lives in each game's folder
(engine/games/<id>/los: a ``Rules`` class with a reference evaluator and a fast batch path), which the game
registry (engine/rulesets/games.py) imports when a map of that game is first asked about. A new game is a new
folder under engine/games/ with its catalogue and its ``los`` module; nothing here changes.
"""

import json
import time
from dataclasses import dataclass

import numpy as np

from engine import rulesets
from engine.los.answer import RESULTS
from engine.los.compiled import CompiledMap
from engine.los.trace import trace


def compile_map(doc, markers=(), catalogue=None):
    """Compile a MapDoc (and a scenario's markers) for the engine."""
    if catalogue is None:
        catalogue = rulesets.get(doc.ruleset)
    return CompiledMap(doc, catalogue, markers)


def rules_for(cmap):
    """The ruleset evaluator for a compiled map, made once per map (custom profiles use their base's rules)."""
    rules = getattr(cmap, "_rules", None)
    if rules is None:
        base = getattr(cmap.catalogue, "base", None) or cmap.ruleset
        rules = rulesets.games.get(base).los.Rules(cmap)
        cmap._rules = rules
    return rules


def _levels(rules, index, level):
    return rules.unit_level(index) if level is None else int(level)


def line_of_sight(cmap, from_hex, to_hex, from_level=None, to_level=None):
    """One LOS answer with reasons (the reference evaluator). Hexes by label or [column, row]."""
    rules = rules_for(cmap)
    a, b = cmap.index_of(from_hex), cmap.index_of(to_hex)
    la, lb = _levels(rules, a, from_level), _levels(rules, b, to_level)
    grid = cmap.grid
    return rules.evaluate(trace(grid, grid.from_index(a), grid.from_index(b)), la, lb)


def viewshed(cmap, from_hex, level=None, target_height=0):
    """Every hex of the map seen from one hex: {label: answer without reasons}."""
    return viewshed_answer(cmap, from_hex, level, target_height).as_dict()


def viewshed_answer(cmap, from_hex, level=None, target_height=0):
    """The viewshed as arrays (a :class:`Viewshed`), before it becomes a dict or JSON text."""
    rules = rules_for(cmap)
    a = cmap.index_of(from_hex)
    la = _levels(rules, a, level)
    lb = (rules.unit_levels() + np.int32(target_height)).astype(np.int32)
    result, hindrances, blind = rules.answer_pairs(np.full(cmap.n, a, dtype=np.int32),
                                                   np.arange(cmap.n, dtype=np.int32),
                                                   np.full(cmap.n, la, dtype=np.int32), lb)
    return Viewshed(cmap, rules, cmap.label(a), la, lb, result, hindrances, blind)


@dataclass
class Viewshed:
    """One hex's view of every hex, held as arrays: a 500 x 500 map's answer is 250,000 entries, which as Python
    dicts take several times the memory of their JSON text, so a job writes the text straight from the arrays."""

    cmap: CompiledMap
    rules: object
    from_label: str
    level: int
    to_levels: np.ndarray
    result: np.ndarray
    hindrances: np.ndarray
    blind: np.ndarray

    def _entries(self):
        """(label, answer) per hex, one small dict at a time; terms worded once per distinct answer."""
        terms = {}
        labels = self.cmap.grid.all_labels()
        for i, (to_level, result, hindrances, blind) in enumerate(zip(self.to_levels.tolist(), self.result.tolist(),
                                                                      self.hindrances.tolist(), self.blind.tolist(),
                                                                      strict=False)):
            key = (result, hindrances, blind)
            if key not in terms:
                terms[key] = self.rules.describe(RESULTS[result], hindrances, blind)
            label = labels[i]
            yield label, {"from": self.from_label, "to": label, "from_level": self.level, "to_level": to_level,
                          "result": RESULTS[result], "hindrances": hindrances, "blind": blind, "term": terms[key]}

    def as_dict(self):
        return {"from": self.from_label, "level": self.level, "hexes": dict(self._entries())}

    def packed(self):
        """The answer as a viewshed job stores and sends it: compact, a few hundred KB for 500 x 500
        (engine.los.packed)."""
        from engine.los import packed

        return packed.pack(self)

    def json_pieces(self, chunk=4096):
        """as_dict() as JSON text, in pieces of ``chunk`` hexes: only one hex's dict exists at a time."""
        dumps = json.dumps
        yield f'{{"from":{dumps(self.from_label)},"level":{self.level},"hexes":{{'
        part, first = [], True
        for label, answer in self._entries():
            part.append(f"{dumps(label)}:{dumps(answer)}")
            if len(part) >= chunk:
                yield ("" if first else ",") + ",".join(part)
                part, first = [], False
        if part:
            yield ("" if first else ",") + ",".join(part)
        yield "}}"


@dataclass
class Analysis:
    """Whole-map visibility: per hex, how many other hexes it sees clear, hindered, blocked and blind."""

    labels: list
    clear: np.ndarray
    hindered: np.ndarray
    blocked: np.ndarray
    blind: np.ndarray
    pairs: int
    seconds: float
    height: int
    matrix: dict | None = None  # result/hindrances/blind, n x n, when asked for

    def as_dict(self):
        return {
            "height": self.height,
            "pairs": self.pairs,
            "seconds": round(self.seconds, 3),
            "hexes": {label: {"clear": int(self.clear[i]), "hindered": int(self.hindered[i]),
                              "blocked": int(self.blocked[i]), "blind": int(self.blind[i])}
                      for i, label in enumerate(self.labels)},
        }


def observer_chunks(n, chunks):
    """Split observers 0..n-1 into ranges holding about the same number of unordered pairs (i < j)."""
    total = n * (n - 1) // 2
    bounds, start, done = [], 0, 0
    for k in range(1, chunks + 1):
        goal = total * k // chunks
        end = start
        while end < n and done < goal:
            done += n - 1 - end
            end += 1
        if k == chunks:
            end = n
        if end > start:
            bounds.append((start, end))
        start = end
    return bounds


def analyze_pairs(cmap, start, stop, height=0):
    """The batch answers for observers start..stop-1 against every later hex: (i, j, result, hindrances, blind)."""
    rules = rules_for(cmap)
    levels = rules.unit_levels() + np.int32(height)
    n = cmap.n
    rows = [np.full(n - 1 - i, i, dtype=np.int32) for i in range(start, stop)]
    cols = [np.arange(i + 1, n, dtype=np.int32) for i in range(start, stop)]
    if not rows:
        empty = np.zeros(0, dtype=np.int32)
        return empty, empty, np.zeros(0, np.int8), np.zeros(0, np.int16), np.zeros(0, bool)
    a, b = np.concatenate(rows), np.concatenate(cols)
    result, hindrances, blind = rules.answer_pairs(a, b, levels[a], levels[b])
    return a, b, result, hindrances, blind


def count_pairs(cmap, start, stop, height=0, max_pairs=1 << 18):
    """Per-hex counts (clear, hindered, blocked, blind: int64[4, n]) and the number of pairs, for observers
    start..stop-1 against every later hex, answered ``max_pairs`` or so at a time: memory bounded whatever the
    map's size, and no pair kept (a whole-map analysis past the matrix budget)."""
    n = cmap.n
    counts = np.zeros((4, n), dtype=np.int64)
    pairs = 0
    first = start
    while first < stop:
        last, size = first, 0
        while last < stop and (last == first or size + (n - 1 - last) <= max_pairs):
            size += n - 1 - last
            last += 1
        a, b, result, hindrances, blind = analyze_pairs(cmap, first, last, height)
        counts += tally(n, a, b, result, blind)
        pairs += len(a)
        first = last
    return counts, pairs


def tally(n, a, b, result, blind):
    """Per-hex counts of clear, hindered, blocked and blind targets from unordered pairs (each counts for both)."""
    counts = np.zeros((4, n), dtype=np.int64)
    for code in range(3):
        sel = result == code
        counts[code] += np.bincount(a[sel], minlength=n) + np.bincount(b[sel], minlength=n)
    counts[3] += np.bincount(a[blind], minlength=n) + np.bincount(b[blind], minlength=n)
    return counts


def analyze(cmap, height=0, full=False, chunks=16):
    """Every hex against every hex, at ground level or ``height`` above it (symmetry: each pair once)."""
    started = time.perf_counter()
    n = cmap.n
    counts = np.zeros((4, n), dtype=np.int64)
    matrix = None
    if full:
        matrix = {"result": np.zeros((n, n), np.int8), "hindrances": np.zeros((n, n), np.int16),
                  "blind": np.zeros((n, n), bool)}
    pairs = 0
    for start, stop in observer_chunks(n, chunks):
        a, b, result, hindrances, blind = analyze_pairs(cmap, start, stop, height)
        counts += tally(n, a, b, result, blind)
        pairs += len(a)
        if full:
            for name, values in (("result", result), ("hindrances", hindrances), ("blind", blind)):
                matrix[name][a, b] = values
                matrix[name][b, a] = values
    return Analysis(labels=cmap.grid.all_labels(), clear=counts[0], hindered=counts[1],
                    blocked=counts[2], blind=counts[3], pairs=pairs, seconds=time.perf_counter() - started,
                    height=height, matrix=matrix)
