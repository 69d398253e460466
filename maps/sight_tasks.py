"""The work of a map's sight jobs (maps/sight_jobs.py): exposure, routes, the minimum observer height, the LOS
examples and what an edit changed. Each answers for the content (or the revisions) it was asked about; maps/tasks.py
holds their Celery tasks and gives each the compiled map from its worker's cache."""

from engine import mapfile
from engine.los import changes, engine, sight
from engine.los import examples as los_examples
from jobs import runner
from jobs.runner import JobError
from maps.models import Map


def answer_exposure(job, cmap):
    """What `analyze_map MAP --exposure HEXES --json` prints, with ``seen``: the counts in hex order (Grid.index)
    for the page's heat map."""
    result = sight.exposure(cmap, sight.observer_indices(cmap, job.parameters["observers"]),
                            progress=lambda p, m: runner.report(job, p, m))
    out = result.as_dict()
    out["seen"] = result.seen.tolist()
    out["most"] = result.most.tolist()
    return out


def answer_route(job, cmap):
    p = job.parameters
    counts = sight.exposure(cmap, sight.observer_indices(cmap, p["observers"])).seen
    try:
        if p.get("route"):
            path = sight.check_route(cmap, p["route"], p["unit_class"])
        else:
            path = sight.least_exposed_route(cmap, counts, cmap.index_of(p["from"]), cmap.index_of(p["to"]),
                                             p["unit_class"])
    except ValueError as exc:
        raise JobError(str(exc)) from None
    out = sight.route_report(cmap, path, counts)
    out["drawn"] = bool(p.get("route"))
    out["seen"] = counts.tolist()
    return out


def answer_minimum_height(job, cmap):
    return sight.minimum_height(cmap, job.parameters["from"])


def answer_diff(job):
    p = job.parameters
    try:
        map = Map.objects.get(pk=job.subject_id)
    except Map.DoesNotExist:
        raise JobError("the map was deleted") from None
    old, new = (engine.compile_map(mapfile.parse(map.document_at(n)), p.get("markers") or [])
                for n in (p["old"], p["new"]))
    zones = {name: [new.index_of(h) for h in hexes] for name, hexes in (p.get("zones") or {}).items()}
    try:
        result = changes.diff(old, new, zones or None)
    except changes.NotComparable as exc:
        raise JobError(str(exc)) from None
    return {"old": p["old"], "new": p["new"], **result.as_dict()}


def answer_examples(job, cmap):
    """Each LOS example of the map answered now, with a line a designer reads (engine.los.examples.describe)."""
    rows = los_examples.run(cmap)
    return {"examples": [{**row, "sentence": los_examples.describe(row)} for row in rows],
            "holding": sum(row["holds"] for row in rows)}
