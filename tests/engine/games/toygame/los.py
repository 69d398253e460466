"""The toy game's line of sight (rules.md, rule 1): the hexes a line passes through, rated by the catalogue."""

import numpy as np

from engine.los.answer import RESULT_CODE, Answer, Reason
from engine.los.base import RulesBase, hex_label
from engine.los.trace import HEX, trace


class Rules(RulesBase):
    id = "toygame"

    def evaluate(self, line, from_level, to_level):
        grid = self.cmap.grid
        answer = Answer(from_hex=hex_label(grid, line.a), to_hex=hex_label(grid, line.b), from_level=int(from_level),
                        to_level=int(to_level))
        for step in line.steps:
            h = step.hexes[0]
            if step.kind != HEX or not grid.contains(*h):
                continue
            for tid in self.cmap.terrain[grid.index(*h)]:
                effect = {"blocking": "blocking", "hindering": "hindering"}.get(self.catalogue.get(tid)["los"])
                if effect:
                    answer.reasons.append(Reason(hex_label(grid, h), None, tid, effect, "Toy rules 1"))
        effects = {r.effect for r in answer.reasons}
        answer.result = "blocked" if "blocking" in effects else "hindered" if effects else "clear"
        answer.hindrances = sum(r.effect == "hindering" for r in answer.reasons)
        answer.term = self.describe(answer.result, answer.hindrances, answer.blind)
        return answer

    def batch(self, a, b, level_a, level_b):
        """The reference, pair by pair: a toy map is small."""
        grid = self.cmap.grid
        answers = [self.evaluate(trace(grid, grid.from_index(i), grid.from_index(j)), la, lb)
                   for i, j, la, lb in zip(a.tolist(), b.tolist(), level_a.tolist(), level_b.tolist(), strict=False)]
        return (np.array([RESULT_CODE[x.result] for x in answers], np.int8),
                np.array([x.hindrances for x in answers], np.int16), np.zeros(len(answers), bool))
