"""Sight lines between the sides of a scenario: what each setup zone sees and is seen from, and the dead ground.

The pairs (a setup zone against the whole play area) are asked through the rules' sliced path
(RulesBase.answer_pairs) a bounded chunk at a time, and only counts per target are kept: memory is bounded by
PAIRS_PER_CHUNK and HEXSIDE_LOS_TABLE_MB, never by the zone times the map. pairs_of() says beforehand how many
pairs a scenario asks, so that a job too large is refused before it is queued.
"""

import time

import numpy as np

from engine.los import engine
from engine.los.answer import RESULT_CODE
from engine.los.compiled import MARKER_KINDS
from engine.scenarios import checks as rule_checks
from engine.scenarios import questions

PAIRS_PER_CHUNK = 1 << 18  # about 8 MB of pair arrays and answers at a time


def seen_by(rules, levels, observers, targets, reach=None):
    """(int32[target]: how many observers see it, bool[observer]: whether it sees any target), asked a chunk of
    observers at a time; a line counts when it is not blocked and its target is not blind, and, where the
    scenario limits LOS (``reach``: (hex range, axial q, axial r per index)), when it is no longer than the limit."""
    obs = np.asarray(observers, dtype=np.int32)
    tgt = np.asarray(targets, dtype=np.int32)
    counts = np.zeros(len(tgt), dtype=np.int32)
    sees_any = np.zeros(len(obs), dtype=bool)
    if not len(obs) or not len(tgt):
        return counts, sees_any
    per_chunk = max(1, PAIRS_PER_CHUNK // len(tgt))
    for start in range(0, len(obs), per_chunk):
        chunk = obs[start:start + per_chunk]
        a = np.repeat(chunk, len(tgt))
        b = np.tile(tgt, len(chunk))
        result, _hindrances, blind = rules.answer_pairs(a, b, levels[a], levels[b])
        seen = (result != RESULT_CODE["blocked"]) & ~blind
        if reach is not None:
            limit, q, r = reach
            dq, dr = q[b] - q[a], r[b] - r[a]
            seen &= (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2 <= limit
        seen = seen.reshape(len(chunk), len(tgt))
        counts += seen.sum(axis=0, dtype=np.int32)
        sees_any[start:start + len(chunk)] = seen.any(axis=1)
    return counts, sees_any


class _Layout:
    """The hexes a scenario's sight lines are about, as indices of its main map."""

    def __init__(self, doc):
        self.key = doc.main_key
        mdoc = doc.maps[self.key]
        grid = mdoc.grid
        board = rule_checks.Board.of(doc)

        def index(ref):
            k, col, row = doc.resolve(ref)
            return grid.index(col, row) if k == self.key else None

        def indices(refs):
            return sorted({i for i in (index(r) for r in refs) if i is not None})

        self.index = index
        self.play = np.array(indices(board.play), dtype=np.int32)
        self.zones = {s["id"]: indices(s["setup_zone"]) for s in doc.data["sides"]}
        self.entries = {}
        for side in doc.data["sides"]:
            refs = set()
            for r in side["reinforcements"]:
                refs.update(r["hexes"])
                if r["edge"]:
                    refs.update(board.edge_hexes(r["edge"]))
            self.entries[side["id"]] = indices(refs)
        self.objectives = [(o, index(o["hex"])) for o in doc.data["objectives"] if index(o["hex"]) is not None]

    def targets(self, side, sides):
        enemies = [s for s in sides if s is not side]
        enemy_zone = sorted({i for s in enemies for i in self.zones[s["id"]]})
        enemy_entry = sorted({i for s in enemies for i in self.entries[s["id"]]})
        targets = sorted(set(enemy_zone) | set(enemy_entry) | {i for _, i in self.objectives})
        return enemy_zone, enemy_entry, targets


def pairs_bound(data, columns, rows):
    """At most how many lines the sight lines of a scenario document trace, from the document alone and its main
    map's size (no map is read): what the job may cost, known before it is queued."""
    sides = data.get("sides") or []
    play = columns * rows
    edge = max(columns, rows)
    zones = [len(s.get("setup_zone") or []) for s in sides]
    entries = [sum(len(r.get("hexes") or []) + (edge if r.get("edge") else 0) for r in s.get("reinforcements") or [])
               for s in sides]
    objectives = len(data.get("objectives") or [])
    total = 0
    for n, zone in enumerate(zones):
        targets = min(play, sum(zones) - zone + sum(entries) - entries[n] + objectives)
        total += min(zone, play) * (2 * targets + play)
    return total + questions.pairs_bound(data, play)


def pairs_of(doc):
    """How many lines the sight lines of a scenario trace: what its job costs, known before it is queued."""
    layout = _Layout(doc)
    sides = doc.data["sides"]
    total = 0
    for side in sides:
        zone = layout.zones[side["id"]]
        _, _, targets = layout.targets(side, sides)
        total += len(zone) * (2 * len(targets) + len(layout.play))
    return total


def sight_lines_of(doc, progress=None):
    """For each side: what its setup zone sees and is seen from (objectives, enemy setup hexes, enemy entry
    hexes), and the dead ground: hexes of the play area that no hex of its setup zone sees.

    Only the main map is looked at; units stand where the ruleset puts a unit in each hex. Markers that change
    LOS (smoke, wrecks...) are on the map as the scenario places them.
    """
    started = time.perf_counter()
    layout = _Layout(doc)
    key = layout.key
    markers = [{"hex": m["hex"], "kind": m["kind"], "count": m["count"]} for m in doc.data["markers"]
               if m["kind"] in MARKER_KINDS and doc.resolve(m["hex"])[0] == key]
    cmap = engine.compile_map(doc.maps[key], markers)
    rules = engine.rules_for(cmap)
    levels = rules.unit_levels().astype(np.int32)
    reach = _reach(doc, cmap.grid)
    play, zones, objectives = layout.play, layout.zones, layout.objectives
    sides = doc.data["sides"]

    out = {"map": key, "sides": {}}
    unseen = np.ones(len(play), dtype=bool)  # hexes of the play area no side's setup zone sees
    for n, side in enumerate(sides):
        if progress:
            progress(100 * n // max(1, len(sides)), f"sight lines of {side['name']}")
        zone = zones[side["id"]]
        enemy_zone, enemy_entry, targets = layout.targets(side, sides)
        seen_from_zone, _ = seen_by(rules, levels, zone, targets, reach)  # lines from the zone to each target
        _, sees_zone = seen_by(rules, levels, targets, zone, reach)  # lines from each target towards the zone
        col = {t: k for k, t in enumerate(targets)}
        seen_any = seen_from_zone > 0
        seen_by_any = sees_zone
        over_play, _ = seen_by(rules, levels, zone, play, reach)
        dead = play[over_play == 0]
        unseen &= over_play == 0

        def report(idx, seen_any=seen_any, seen_by_any=seen_by_any, col=col):
            seen = [cmap.label(i) for i in idx if seen_any[col[i]]]
            seen_from = [cmap.label(i) for i in idx if seen_by_any[col[i]]]
            return {"total": len(idx), "seen": seen, "seen_from": seen_from}

        objective_rows = []
        for o, i in objectives:
            k = col[i]
            objective_rows.append({"id": o["id"], "name": o["name"], "hex": o["hex"],
                                   "seen_from_setup_hexes": int(seen_from_zone[k]),
                                   "seen": bool(seen_any[k]), "sees_setup": bool(seen_by_any[k])})
        dead_labels = [cmap.label(int(i)) for i in dead]
        dead_set = set(dead.tolist())
        entry = {"name": side["name"], "setup_hexes": len(zone), "objectives": objective_rows,
                 "enemy_setup": report(enemy_zone), "enemy_entry": report(enemy_entry),
                 "dead_ground": dead_labels,
                 "dead_ground_in_enemy_zone": [cmap.label(i) for i in enemy_zone if i in dead_set]}
        entry["sentence"] = sight_sentence(side["name"], entry, len(play))
        out["sides"][side["id"]] = entry
    # The dead ground between the sides: what no side sees from where it sets up.
    out["dead_ground_to_all"] = [cmap.label(int(i)) for i in play[unseen]]
    if progress:
        progress(90, "objective and zone questions")
    out["questions"] = questions.questions(cmap, layout, sides)
    out["seconds"] = round(time.perf_counter() - started, 3)
    return out


def _reach(doc, grid):
    """The scenario's LOS limit in hexes (its ``environment.visibility``: night, fog, Assault 10.2 "LOS is unlimited
    unless restricted by the scenario") with each hex's axial coordinates, or None when LOS is unlimited."""
    limit = (doc.data.get("environment") or {}).get("visibility")
    if not limit:
        return None
    axial = np.array([grid.to_axial(*grid.from_index(i)) for i in range(grid.columns * grid.rows)], dtype=np.int32)
    return int(limit), axial[:, 0], axial[:, 1]


def sight_sentence(name, entry, play_hexes):
    if not entry["setup_hexes"]:
        return f"{name} has no setup zone, so nothing is seen from it."
    objectives = entry["objectives"]
    seen = sum(o["seen"] for o in objectives)
    parts = []
    if objectives:
        hidden = len(objectives) - seen
        text = f"{name} sees {seen} of {len(objectives)} objective{'s' if len(objectives) != 1 else ''} from setup"
        if hidden:
            text += (f"; {hidden} {'is' if hidden == 1 else 'are'} in dead ground from every {name} setup hex")
        parts.append(text)
    enemy = entry["enemy_setup"]
    if enemy["total"]:
        parts.append(f"it sees {len(enemy['seen'])} of {enemy['total']} enemy setup hexes and is seen from "
                     f"{len(enemy['seen_from'])}")
    arrivals = entry["enemy_entry"]
    if arrivals["total"]:
        parts.append(f"it sees {len(arrivals['seen'])} of {arrivals['total']} enemy entry hexes")
    parts.append(f"{len(entry['dead_ground'])} of {play_hexes} hexes of the play area are dead ground to it")
    text = "; ".join(parts) + "."
    return text[0].upper() + text[1:]


