"""What the ruleset tests share: one answer checked three ways (reference, its reverse, the fast path)."""

import numpy as np

from engine.los.answer import RESULTS
from engine.los.trace import trace


def check(rules, a, b, from_level=None, to_level=None):
    """The reference answer, after checking that the fast path and the other direction agree with it."""
    grid = rules.cmap.grid
    ia, ib = rules.cmap.index_of(a), rules.cmap.index_of(b)
    la = rules.unit_level(ia) if from_level is None else from_level
    lb = rules.unit_level(ib) if to_level is None else to_level
    answer = rules.evaluate(trace(grid, grid.parse_label(a), grid.parse_label(b)), la, lb)
    back = rules.evaluate(trace(grid, grid.parse_label(b), grid.parse_label(a)), lb, la)
    assert (back.result, back.hindrances, back.blind) == (answer.result, answer.hindrances, answer.blind)
    assert [r.as_dict() for r in back.reasons] == [r.as_dict() for r in reversed(answer.reasons)]
    result, hindrances, blind = rules.batch(np.array([ia], np.int32), np.array([ib], np.int32),
                                            np.array([la], np.int32), np.array([lb], np.int32))
    assert (RESULTS[result[0]], int(hindrances[0]), bool(blind[0])) == (
        answer.result, answer.hindrances, answer.blind)
    return answer


def all_pairs(n):
    """Every ordered pair of hexes of a map of n hexes, as two index arrays."""
    return np.repeat(np.arange(n, dtype=np.int32), n), np.tile(np.arange(n, dtype=np.int32), n)


def agree_on_every_pair(rules, a, b, la, lb):
    """The differential test: for each pair the fast path equals the reference, and both equal the reverse
    (reasons reversed). Returns the (result, blind) kinds seen, so a test can show its maps were not trivial."""
    grid = rules.cmap.grid
    la, lb = np.asarray(la, np.int32), np.asarray(lb, np.int32)
    result, hindrances, blind = rules.batch(a, b, la, lb)
    back = rules.batch(b, a, lb, la)
    assert np.array_equal(result, back[0]) and np.array_equal(hindrances, back[1]) and np.array_equal(blind, back[2])
    seen = set()
    for k in range(a.size):
        pa, pb = grid.from_index(int(a[k])), grid.from_index(int(b[k]))
        answer = rules.evaluate(trace(grid, pa, pb), int(la[k]), int(lb[k]))
        assert (answer.result, answer.hindrances, answer.blind) == (
            RESULTS[result[k]], int(hindrances[k]), bool(blind[k])), (answer.as_dict(), k)
        reverse = rules.evaluate(trace(grid, pb, pa), int(lb[k]), int(la[k]))
        assert (reverse.result, reverse.hindrances, reverse.blind) == (answer.result, answer.hindrances, answer.blind)
        assert [r.as_dict() for r in reverse.reasons] == [r.as_dict() for r in reversed(answer.reasons)]
        seen.add((answer.result, answer.blind))
    return seen


def square(grid, label, dx, dy, size=0.25):
    """Art for a hex (a building, a wood): a square of half-side size, its centre dx, dy off the hex's."""
    cx, cy = grid.centre(*grid.parse_label(label))
    x, y = cx + dx, cy + dy
    return ((x - size, y - size), (x + size, y - size), (x + size, y + size), (x - size, y + size))
