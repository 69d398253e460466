"""The Celery tasks of a map's jobs: one line, a viewshed, the whole map in parts, the map page's picture, the
map's print PNG and its findings.

A job computes for the map content it was asked about (its ``content_hash``), not for whatever the map holds when
a worker gets to it: the document comes from the map if unchanged, else from the revision with that hash. Each
worker process keeps the last few compiled maps, keyed by content hash and markers, so a run of questions about
one map compiles it once.
"""

import gc
import io
import json
import time
import zipfile
from collections import OrderedDict
from types import SimpleNamespace

import numpy as np
from celery import shared_task
from django.conf import settings

from engine import mapfile, render, rulesets
from engine.exports import mapfiles
from engine.hexgrid import Grid
from engine.los import engine, fire_groups
from engine.scenarios import cards
from jobs import runner
from jobs.models import Job, JobPart
from jobs.runner import JobError, JobTask, Outcome
from maps import findings, images, sight_tasks
from maps.models import Map

# A worker process keeps a few compiled maps, and never more than this many hexes of them in all: a large map
# (250,000 hexes take a few hundred MB compiled) is kept alone, so memory stays bounded by the largest map.
COMPILED_CACHE_SIZE = 8
# The maps.images kind of the map page's picture (/maps/<id>/map.png), at most render.PAGE_PX on its longer side.
MAP_IMAGE = "page"
COMPILED_CACHE_HEXES = 300_000
COMPILED_COLLECT_HEXES = 50_000
_compiled = OrderedDict()


@shared_task(base=JobTask, bind=True, name="maps.los")
def los(self, job_id):
    runner.run(self, job_id, answer_los)


@shared_task(base=JobTask, bind=True, name="maps.viewshed")
def viewshed(self, job_id):
    runner.run(self, job_id, answer_viewshed)


@shared_task(base=JobTask, bind=True, name="maps.analysis_part")
def analysis_part(self, job_id, index):
    runner.run_part(self, job_id, index, analyse_part)


@shared_task(base=JobTask, bind=True, name="maps.analysis_assemble")
def analysis_assemble(self, job_id):
    runner.run(self, job_id, assemble_analysis)


@shared_task(base=JobTask, bind=True, name="maps.exposure")
def exposure(self, job_id):
    runner.run(self, job_id, lambda job: sight_tasks.answer_exposure(job, compiled_for(job)))


@shared_task(base=JobTask, bind=True, name="maps.route")
def route(self, job_id):
    runner.run(self, job_id, lambda job: sight_tasks.answer_route(job, compiled_for(job)))


@shared_task(base=JobTask, bind=True, name="maps.minimum_height")
def minimum_height(self, job_id):
    runner.run(self, job_id, lambda job: sight_tasks.answer_minimum_height(job, compiled_for(job)))


@shared_task(base=JobTask, bind=True, name="maps.los_examples")
def los_examples(self, job_id):
    runner.run(self, job_id, lambda job: sight_tasks.answer_examples(job, compiled_for(job)))


@shared_task(base=JobTask, bind=True, name="maps.map_diff")
def map_diff(self, job_id):
    runner.run(self, job_id, sight_tasks.answer_diff)


@shared_task(base=JobTask, bind=True, name="maps.map_image")
def map_image(self, job_id):
    runner.run(self, job_id, draw_map_image)


@shared_task(base=JobTask, bind=True, name="maps.map_findings")
def map_findings(self, job_id):
    runner.run(self, job_id, check_map_findings)


@shared_task(base=JobTask, bind=True, name="maps.export")
def export(self, job_id):
    runner.run(self, job_id, export_map)


# -- the work --------------------------------------------------------------------------------------------

def answer_los(job):
    """Exactly what `manage.py los MAP FROM TO --json` prints for the same map and hexes."""
    p = job.parameters
    cmap = compiled_for(job)
    if p.get("group"):  # a fire group: exactly what `manage.py fire_group MAP TO FROM... --json` prints
        try:
            return fire_groups.fire_group(cmap, [p["from"], *p["group"]], p["to"], None, p.get("to_level"))
        except fire_groups.FireGroupError as exc:
            raise runner.JobError(str(exc)) from None
    return engine.line_of_sight(cmap, p["from"], p["to"], p.get("from_level"), p.get("to_level")).as_dict()


def answer_viewshed(job):
    """What `manage.py viewshed MAP FROM --json` prints, packed (engine.los.packed): each distinct answer once and
    two numbers per hex, deflated. As one JSON object per hex a 500 x 500 map's answer was about 40 MB; packed it
    is a few hundred KB, still kept as a file so the row stays small."""
    p = job.parameters
    shed = engine.viewshed_answer(compiled_for(job), p["from"], p.get("level"))
    return Outcome(None, file=("viewshed.json", runner.spooled([json.dumps(shed.packed())])), in_file=True)


def matrix_mode(n):
    """Does an analysis of n hexes keep every pair (the .npz matrix) or only the per-hex counts?

    Past HEXSIDE_ANALYSIS_MATRIX_PAIRS the matrix would not fit a worker's memory: each part then keeps only its
    counts, answering its pairs a bounded number at a time, and the assembly adds them up.
    """
    return n * (n - 1) // 2 <= settings.HEXSIDE_ANALYSIS_MATRIX_PAIRS


def analyse_part(job, part):
    """The answers of observers part.start..part.stop-1 against every later hex, as .npz bytes: every pair's
    answer (matrix mode) or only the per-hex counts (counts mode, memory bounded whatever the map's size).

    Stored uncompressed: compressing costs more time than the database spends on the bytes, and they live only
    until the job is assembled. The pairs themselves are not stored; pairs_of() gives them again.
    """
    cmap = compiled_for(job)
    height = job.parameters.get("height", 0)
    started = time.perf_counter()
    out = io.BytesIO()
    if not matrix_mode(cmap.n):
        counts, pairs = engine.count_pairs(cmap, part.start, part.stop, height)
        np.savez(out, counts=counts, pairs=np.int64(pairs))
        return out.getvalue(), time.perf_counter() - started
    a, b, result, hindrances, blind = engine.analyze_pairs(cmap, part.start, part.stop, height)
    seconds = time.perf_counter() - started
    expected_a, expected_b = pairs_of(cmap.n, part.start, part.stop)
    if not (np.array_equal(a, expected_a) and np.array_equal(b, expected_b)):
        raise JobError("the engine answered other pairs, or in another order, than the assembly expects")
    np.savez(out, result=result, hindrances=hindrances, blind=blind)
    return out.getvalue(), seconds


def pairs_of(n, start, stop):
    """The (observer, target) pairs engine.analyze_pairs answers for observers start..stop-1, in its order."""
    a = np.repeat(np.arange(start, stop, dtype=np.intp), np.arange(n - 1 - start, n - 1 - stop, -1))
    b = np.concatenate([np.arange(i + 1, n, dtype=np.intp) for i in range(start, stop)] or [np.zeros(0, np.intp)])
    return a, b


def assemble_analysis(job):
    """Per-hex counts as `analyze_map --json` prints them, with ``mode``: "matrix" when the full matrix is also
    stored (as `analyze_map --out` writes it), "counts" for a map past the matrix budget.

    ``seconds`` is the engine time summed over the parts (the work done, wherever it was done). Each part is read
    by its own query, and progress written between them: no write while a read is open (on SQLite that write
    would fail with "database is locked" whenever another process wrote in between).
    """
    cmap = compiled_for(job)
    n = cmap.n
    matrix_kept = matrix_mode(n)
    counts = np.zeros((4, n), dtype=np.int64)
    matrix = None
    if matrix_kept:
        matrix = {"result": np.zeros((n, n), np.int8), "hindrances": np.zeros((n, n), np.int16),
                  "blind": np.zeros((n, n), bool)}
    parts = list(job.parts.filter(status="done").order_by("index").values_list("pk", "index", "start", "stop",
                                                                               "seconds"))
    if len(parts) != job.parts_total:
        raise JobError(f"only {len(parts)} of the {job.parts_total} parts were found; the job cannot be assembled")
    pairs, seconds = 0, 0.0
    for found, (pk, index, start, stop, part_seconds) in enumerate(parts, 1):
        data = JobPart.objects.filter(pk=pk).values_list("data", flat=True).first()
        if data is None:
            raise JobError(f"part {index + 1} holds no answers; the job cannot be assembled")
        with np.load(io.BytesIO(bytes(data))) as arrays:
            if matrix_kept:
                a, b = pairs_of(n, start, stop)
                result, hindrances, blind = arrays["result"], arrays["hindrances"], arrays["blind"]
                if len(result) != len(a):
                    raise JobError(f"part {index + 1} holds {len(result)} answers for {len(a)} pairs")
                counts += engine.tally(n, a, b, result, blind)
                for name, values in (("result", result), ("hindrances", hindrances), ("blind", blind)):
                    matrix[name][a, b] = values
                    matrix[name][b, a] = values
                pairs += len(a)
            else:
                counts += arrays["counts"]
                pairs += int(arrays["pairs"])
        del data
        seconds += part_seconds
        runner.report(job, 95 + 4 * found // max(1, job.parts_total), f"assembling part {found}")
    labels = [cmap.label(i) for i in range(n)]
    analysis = engine.Analysis(labels=labels, clear=counts[0], hindered=counts[1], blocked=counts[2],
                               blind=counts[3], pairs=pairs, seconds=seconds, height=job.parameters.get("height", 0),
                               matrix=matrix)
    result = {**analysis.as_dict(), "mode": "matrix" if matrix_kept else "counts"}
    if not matrix_kept:
        return result
    content = npz_bytes(labels=np.array(labels), **matrix)
    return Outcome(result, file=(f"analysis-{job.pk}.npz", content))


def draw_map_image(job):
    """The map page's PNG for the job's content, drawn here (never in a web process) at most render.PAGE_PX
    pixels on its longer side (render.render_page: a huge map is a mosaic of its cells, never compiled), and kept
    by content hash (maps.images); a picture already kept is not drawn again."""
    if job.subject_type != "map":
        raise JobError("this job is not about a map")
    ruleset = Map.objects.filter(pk=job.subject_id).values_list("ruleset", flat=True).first()
    content = SimpleNamespace(content_hash=job.content_hash, ruleset=ruleset)
    path = images.path_of(MAP_IMAGE, content)
    if not path.exists():
        doc = mapfile.parse(document_for(job))
        images.store(MAP_IMAGE, content, render.render_page(doc, rulesets.get(doc.ruleset), lambda: compiled_for(job)))
    drop_earlier_pictures(job, ruleset)
    return {"image": str(path.relative_to(images.folder()))}


def check_map_findings(job):
    """A map's findings for the job's content, checked here (never in a web process, for a large map) and kept
    under the key the job was asked with (maps.findings); findings already kept are not checked again."""
    key = job.parameters["checks"]
    found = findings.stored(key) or findings.check_and_store(key, document_for(job))
    return {"count": len(found), "severity": found.summary["severity"]}


def drop_earlier_pictures(job, ruleset):
    """The page pictures this map's earlier drawings kept, for contents no map holds now, are removed: a map
    edited and viewed again and again keeps one picture, not one per edit. (Their jobs stay; were such a content
    asked for again, map.png would draw it again.)"""
    earlier = set(Job.objects.filter(kind="map-image", subject_type="map", subject_id=job.subject_id,
                                     status=Job.Status.SUCCEEDED).exclude(content_hash=job.content_hash)
                  .order_by("-finished")[:20].values_list("content_hash", flat=True))
    for content_hash in earlier - set(Map.objects.filter(content_hash__in=earlier).values_list("content_hash",
                                                                                               flat=True)):
        images.discard(MAP_IMAGE, SimpleNamespace(content_hash=content_hash, ruleset=ruleset))


def export_map(job):
    """A map's export, from the map content the job was asked about: the print PNG at the job's dpi and hex size,
    or another format of engine.exports.mapfiles (a vector print, a Tiled map, a VASSAL module). The same request
    on the same content is the same job (dispatch's request key and content hash), so it is made once."""
    parameters = job.parameters
    map = Map.objects.filter(pk=job.subject_id).first() if job.subject_type == "map" else None
    if map is None:
        raise JobError("the map was deleted")
    if map.content_hash != job.content_hash:
        raise JobError("the map was edited since this export was asked for; ask again")
    format = parameters.get("format", "png")
    if format != "png":
        spec = mapfiles.FORMATS[format]
        runner.report(job, 10, f"writing the {spec.label}")
        try:
            content = mapfiles.export(map.mapdoc(), format, parameters.get("hex_mm", 19.0))
        except (ValueError, ImportError) as exc:
            raise JobError(f"the {spec.label} cannot be written: {exc}") from None
        name = f"{cards.safe_name(map.name)}.{spec.extension}"
        return Outcome({"filename": name, "bytes": len(content), "format": format}, file=(name, content))
    runner.report(job, 10, "drawing the map")
    image = render.render_print(engine.compile_map(map.mapdoc()), dpi=parameters["dpi"], hex_mm=parameters["hex_mm"])
    runner.report(job, 80, "writing the PNG")
    content = images.png(image, compress_level=1, dpi=parameters["dpi"])
    name = cards.safe_name(map.name) + ".png"
    return Outcome({"filename": name, "bytes": len(content), "width": image.width, "height": image.height},
                   file=(name, content))


def npz_bytes(**arrays):
    """What np.savez_compressed writes, at zlib's fastest level: the matrix of a large map compresses in a
    fraction of the time, to nearly the same size."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)
    return out.getvalue()


# -- the map a job is about ------------------------------------------------------------------------------

def compiled_for(job):
    """The compiled map (markers placed) for the job's map at the job's content hash; cached per process."""
    markers = job.parameters.get("markers") or []
    key = (job.content_hash, json.dumps(markers, sort_keys=True))
    cmap = _compiled.get(key)
    if cmap is not None and _catalogue_current(cmap):
        _compiled.move_to_end(key)
        return cmap
    document = document_for(job)
    # Room first: two large maps compiled side by side would double the process's memory for a moment.
    size = Grid(**document["grid"]).size
    while _compiled and (len(_compiled) >= COMPILED_CACHE_SIZE
                         or sum(c.n for c in _compiled.values()) + size > COMPILED_CACHE_HEXES):
        _, dropped = _compiled.popitem(last=False)
        if dropped.n >= COMPILED_COLLECT_HEXES:
            gc.collect()  # its reference cycles freed now, before the next one is built (not per small map: slow)
    cmap = engine.compile_map(mapfile.parse(document), markers)
    del document
    _compiled[key] = cmap
    return cmap


def _catalogue_current(cmap):
    """Is the compiled map's ruleset still the one engine.rulesets.get() gives (a custom one may have changed)?"""
    if cmap.catalogue.builtin:
        return True
    try:
        return rulesets.get(cmap.ruleset) is cmap.catalogue
    except KeyError:
        return False


def document_for(job):
    """The map document with the job's content hash: the map's own if unchanged, else from its history."""
    if job.subject_type != "map":
        raise JobError("this job is not about a map")
    try:
        map = Map.objects.get(pk=job.subject_id)
    except Map.DoesNotExist:
        raise JobError("the map was deleted") from None
    document = map.content_at(job.content_hash)
    if document is None:
        raise JobError("the map no longer holds the content this job was asked about "
                       f"(hash {job.content_hash[:12]})")
    return document

