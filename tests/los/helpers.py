"""What the ruleset tests share: one answer checked three ways (reference, its reverse, the fast path)."""

import numpy as np

from maps.los.answer import RESULTS
from maps.los.trace import trace


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
