"""Map checks, the LOS part: a sample of LOS answers asked both ways. A to B must equal B to A (levels swapped
along), in every ruleset.

A difference means the map holds something the engine reads one way only (or an engine bug); either way the
designer should hear of it before two players disagree at the table. The sample is bounded in count and time,
and the same map always gives the same sample. No Django here.
"""

import random
import time

from engine import mapfile
from engine.los import engine
from engine.los.trace import trace

DEFAULT_PAIRS = 24
DEFAULT_SECONDS = 0.5


def sample_pairs(n, count, seed):
    """Up to ``count`` distinct unordered pairs of hex indices, the same for the same map."""
    if n < 2:
        return []
    rng = random.Random(seed)
    pairs, tries = set(), 0
    while len(pairs) < min(count, n * (n - 1) // 2) and tries < count * 10:
        a, b = rng.randrange(n), rng.randrange(n)
        tries += 1
        if a != b:
            pairs.add((min(a, b), max(a, b)))
    return sorted(pairs)


def check_reciprocity(doc, pairs=DEFAULT_PAIRS, seconds=DEFAULT_SECONDS):
    """Findings for sampled pairs whose answers differ by direction; stops at the time budget."""
    if pairs <= 0:
        return []
    deadline = time.monotonic() + seconds
    cmap = engine.compile_map(doc)
    rules = engine.rules_for(cmap)
    grid = cmap.grid
    findings = []
    for a, b in sample_pairs(cmap.n, pairs, mapfile.content_hash(doc)):
        if time.monotonic() > deadline:
            break
        ha, hb = grid.from_index(a), grid.from_index(b)
        la, lb = rules.unit_level(a), rules.unit_level(b)
        there = rules.evaluate(trace(grid, ha, hb), la, lb)
        back = rules.evaluate(trace(grid, hb, ha), lb, la)
        if (there.result, there.hindrances) != (back.result, back.hindrances):
            la_, lb_ = cmap.label(a), cmap.label(b)
            findings.append(mapfile.Finding(
                f"hexes[{la_}]", f"LOS from {la_} to {lb_} is {there.result} ({there.hindrances} hindrance"
                f"{'s' * (there.hindrances != 1)}) but from {lb_} back to {la_} it is {back.result} "
                f"({back.hindrances}); LOS is reciprocal in every ruleset here, so something on this line is "
                "read one way only (docs/los.md)", la_, "los-not-reciprocal", severity="warning"))
    return findings
