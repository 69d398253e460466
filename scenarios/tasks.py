"""The Celery tasks of scenario jobs: the checks, and the sight lines between the sides.

A job computes for the scenario content it was asked about (``parameters["content_hash"]``): the document
comes from the scenario if unchanged, else from the revision with that hash. The sight lines run on the LOS
engine's batch path (numpy arrays of observer/target pairs), so a side's setup zone against the whole map is
one call, not a loop over pairs in Python.
"""

import time

import numpy as np
from celery import shared_task

from engine.los import engine
from engine.los.answer import RESULT_CODE
from engine.los.compiled import MARKER_KINDS
from engine.scenarios import cards, victory
from engine.scenarios import checks as rule_checks
from jobs import runner
from jobs.runner import JobError, JobTask
from scenarios.models import Scenario


@shared_task(base=JobTask, bind=True, name="authoring.scenario_checks")
def scenario_checks(self, job_id):
    runner.run(self, job_id, answer_checks)


@shared_task(base=JobTask, bind=True, name="authoring.sight_lines")
def sight_lines(self, job_id):
    runner.run(self, job_id, answer_sight_lines)


def doc_for(job):
    """The ScenarioDoc with the job's content hash: the scenario's own if unchanged, else from its history."""
    parameters = job.parameters
    try:
        scenario = Scenario.objects.get(pk=parameters["scenario"])
    except Scenario.DoesNotExist:
        raise JobError("the scenario was deleted") from None
    document = scenario.document
    if scenario.content_hash != parameters["content_hash"]:
        document = (scenario.revisions.filter(content_hash=parameters["content_hash"]).order_by("-number")
                    .values_list("document", flat=True).first())
        if document is None:
            raise JobError("the scenario no longer holds the content this job was asked about")
    try:
        return scenario.scenariodoc(document)
    except rule_checks.scenariofile.ScenarioFormatError as exc:
        raise JobError(f"the scenario no longer reads: {exc}") from None


def answer_checks(job):
    return checks_result(doc_for(job))


def checks_result(doc):
    """What the checks job stores, and what `validate_scenario --json` prints per file (findings first)."""
    findings = rule_checks.check(doc)
    return {"ok": not any(f.severity == "error" for f in findings),
            "findings": [f.as_dict() for f in findings],
            "summary": rule_checks.summary(doc),
            "victory": victory.sentences_for(doc)}


def answer_sight_lines(job):
    return sight_lines_of(doc_for(job), progress=lambda p, m: runner.report(job, p, m))


# -- sight lines -----------------------------------------------------------------------------------------

def sight_lines_of(doc, progress=None):
    """For each side: what its setup zone sees and is seen from (objectives, enemy setup hexes, enemy entry
    hexes), and the dead ground: hexes of the play area that no hex of its setup zone sees.

    Only the main map is looked at; units stand where the ruleset puts a unit in each hex. Markers that change
    LOS (smoke, wrecks...) are on the map as the scenario places them.
    """
    started = time.perf_counter()
    key = doc.main_key
    mdoc = doc.maps[key]
    markers = [{"hex": m["hex"], "kind": m["kind"], "count": m["count"]} for m in doc.data["markers"]
               if m["kind"] in MARKER_KINDS and doc.resolve(m["hex"])[0] == key]
    cmap = engine.compile_map(mdoc, markers)
    rules = engine.rules_for(cmap)
    levels = rules.unit_levels().astype(np.int32)
    grid = mdoc.grid
    board = rule_checks.Board.of(doc)

    def index(ref):
        k, col, row = doc.resolve(ref)
        return grid.index(col, row) if k == key else None

    def indices(refs):
        return sorted({i for i in (index(r) for r in refs) if i is not None})

    play = np.array(indices(board.play), dtype=np.int32)
    sides = doc.data["sides"]
    zones = {s["id"]: indices(s["setup_zone"]) for s in sides}
    entries = {}
    for side in sides:
        refs = set()
        for r in side["reinforcements"]:
            refs.update(r["hexes"])
            if r["edge"]:
                refs.update(board.edge_hexes(r["edge"]))
        entries[side["id"]] = indices(refs)
    objectives = [(o, index(o["hex"])) for o in doc.data["objectives"] if index(o["hex"]) is not None]

    def sees(observers, targets):
        """Boolean matrix [observer, target]: the line is not blocked and the target not blind."""
        obs = np.asarray(observers, dtype=np.int32)
        tgt = np.asarray(targets, dtype=np.int32)
        if not len(obs) or not len(tgt):
            return np.zeros((len(obs), len(tgt)), dtype=bool)
        a = np.repeat(obs, len(tgt))
        b = np.tile(tgt, len(obs))
        result, _hindrances, blind = rules.batch(a, b, levels[a], levels[b])
        seen = (result != RESULT_CODE["blocked"]) & ~blind
        return seen.reshape(len(obs), len(tgt))

    out = {"map": key, "sides": {}}
    unseen = np.ones(len(play), dtype=bool)  # hexes of the play area no side's setup zone sees
    for n, side in enumerate(sides):
        if progress:
            progress(100 * n // max(1, len(sides)), f"sight lines of {side['name']}")
        zone = zones[side["id"]]
        enemies = [s for s in sides if s is not side]
        enemy_zone = sorted({i for s in enemies for i in zones[s["id"]]})
        enemy_entry = sorted({i for s in enemies for i in entries[s["id"]]})
        obj_idx = [i for _, i in objectives]
        targets = sorted(set(enemy_zone) | set(enemy_entry) | set(obj_idx))
        out_seen = sees(zone, targets)  # from the zone
        in_seen = sees(targets, zone).T if len(zone) and len(targets) else out_seen  # towards the zone
        col = {t: k for k, t in enumerate(targets)}
        seen_any = out_seen.any(axis=0) if len(zone) else np.zeros(len(targets), bool)
        seen_by_any = in_seen.any(axis=0) if len(zone) else np.zeros(len(targets), bool)
        over_play = sees(zone, play)
        dead = play[~over_play.any(axis=0)] if len(zone) else play
        if len(zone):
            unseen &= ~over_play.any(axis=0)

        def report(idx):
            seen = [cmap.label(i) for i in idx if seen_any[col[i]]]
            seen_from = [cmap.label(i) for i in idx if seen_by_any[col[i]]]
            return {"total": len(idx), "seen": seen, "seen_from": seen_from}

        objective_rows = []
        for o, i in objectives:
            k = col[i]
            objective_rows.append({"id": o["id"], "name": o["name"], "hex": o["hex"],
                                   "seen_from_setup_hexes": int(out_seen[:, k].sum()) if len(zone) else 0,
                                   "seen": bool(seen_any[k]), "sees_setup": bool(seen_by_any[k])})
        dead_labels = [cmap.label(int(i)) for i in dead]
        entry = {"name": side["name"], "setup_hexes": len(zone), "objectives": objective_rows,
                 "enemy_setup": report(enemy_zone), "enemy_entry": report(enemy_entry),
                 "dead_ground": dead_labels,
                 "dead_ground_in_enemy_zone": [cmap.label(i) for i in enemy_zone if i in set(dead.tolist())]}
        entry["sentence"] = sight_sentence(side["name"], entry, len(play))
        out["sides"][side["id"]] = entry
    # The dead ground between the sides: what no side sees from where it sets up.
    out["dead_ground_to_all"] = [cmap.label(int(i)) for i in play[unseen]]
    out["seconds"] = round(time.perf_counter() - started, 3)
    return out


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


# -- exports: the card PDF and the scenario's map PNG (a map's own print is maps.tasks.export) ------------

@shared_task(base=JobTask, bind=True, name="authoring.export")
def export(self, job_id):
    runner.run(self, job_id, answer_export)


def answer_export(job):
    """An export job's file: a scenario's card sheet (PDF) or its map (PNG). The same request on the same
    content is the same job (dispatch's request key), so it is drawn once."""
    parameters = job.parameters
    report = lambda progress, message: runner.report(job, progress, message)  # noqa: E731
    doc = doc_for(job)
    report(10, "drawing the card" if parameters["format"] == "pdf" else "drawing the map")
    sheet = parameters.get("sheet") or cards.sheets(doc)[0]
    if parameters["format"] == "pdf":
        content = cards.card_pdf(doc, parameters.get("paper", "a4"), sheet)
        name = cards.sheet_filename(doc, sheet, "pdf")
    else:
        content = cards.scenario_map_png(doc, sheet, parameters["dpi"], parameters["hex_mm"])
        name = cards.sheet_filename(doc, sheet, "png")
    return runner.Outcome({"filename": name, "bytes": len(content), "sheet": sheet}, file=(name, content))
