"""The Celery tasks that run the LOS engine for jobs: one line, a viewshed, the whole map in parts.

A job computes for the map content it was asked about (its ``map_hash``), not for whatever the map holds when a
worker gets to it: the document comes from the map if unchanged, else from the revision with that hash. Each
worker process keeps the last few compiled maps, keyed by content hash and markers, so a run of questions about
one map compiles it once.
"""

import io
import json
import time
import zipfile
from collections import OrderedDict

import numpy as np
from celery import shared_task
from django.conf import settings

from jobs import runner
from jobs.runner import JobError, JobTask, Outcome
from maps import importers, importing, mapfile, rulesets
from maps.batchcheck import check_upload
from maps.los import engine
from maps.models import BatchFile, BatchValidation, Map

COMPILED_CACHE_SIZE = 8
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


@shared_task(base=JobTask, bind=True, name="maps.batch_validation_part")
def batch_validation_part(self, job_id, index):
    runner.run_part(self, job_id, index, check_batch_part)


@shared_task(base=JobTask, bind=True, name="maps.batch_validation_assemble")
def batch_validation_assemble(self, job_id):
    runner.run(self, job_id, summarise_batch)


# -- the work --------------------------------------------------------------------------------------------

def answer_los(job):
    """Exactly what `manage.py los MAP FROM TO --json` prints for the same map and hexes."""
    p = job.parameters
    cmap = compiled_for(job)
    return engine.line_of_sight(cmap, p["from"], p["to"], p.get("from_level"), p.get("to_level")).as_dict()


def answer_viewshed(job):
    """Exactly what `manage.py viewshed MAP FROM --json` prints."""
    p = job.parameters
    return engine.viewshed(compiled_for(job), p["from"], p.get("level"))


def analyse_part(job, part):
    """The answers of observers part.start..part.stop-1 against every later hex, as .npz bytes.

    Stored uncompressed: compressing costs more time than the database spends on the bytes, and they live only
    until the job is assembled. The pairs themselves are not stored; pairs_of() gives them again.
    """
    cmap = compiled_for(job)
    started = time.perf_counter()
    a, b, result, hindrances, blind = engine.analyze_pairs(cmap, part.start, part.stop,
                                                           job.parameters.get("height", 0))
    seconds = time.perf_counter() - started
    expected_a, expected_b = pairs_of(cmap.n, part.start, part.stop)
    if not (np.array_equal(a, expected_a) and np.array_equal(b, expected_b)):
        raise JobError("the engine answered other pairs, or in another order, than the assembly expects")
    out = io.BytesIO()
    np.savez(out, result=result, hindrances=hindrances, blind=blind)
    return out.getvalue(), seconds


def pairs_of(n, start, stop):
    """The (observer, target) pairs engine.analyze_pairs answers for observers start..stop-1, in its order."""
    a = np.repeat(np.arange(start, stop, dtype=np.intp), np.arange(n - 1 - start, n - 1 - stop, -1))
    b = np.concatenate([np.arange(i + 1, n, dtype=np.intp) for i in range(start, stop)] or [np.zeros(0, np.intp)])
    return a, b


def assemble_analysis(job):
    """Per-hex counts as `analyze_map --json` prints them, and the full matrix as `analyze_map --out` writes it.

    ``seconds`` is the engine time summed over the parts (the work done, wherever it was done).
    """
    cmap = compiled_for(job)
    n = cmap.n
    counts = np.zeros((4, n), dtype=np.int64)
    matrix = {"result": np.zeros((n, n), np.int8), "hindrances": np.zeros((n, n), np.int16),
              "blind": np.zeros((n, n), bool)}
    pairs, seconds, found = 0, 0.0, 0
    for part in job.parts.filter(status="done").order_by("index").iterator(chunk_size=1):
        a, b = pairs_of(n, part.start, part.stop)
        with np.load(io.BytesIO(bytes(part.data))) as data:
            result, hindrances, blind = data["result"], data["hindrances"], data["blind"]
        if len(result) != len(a):
            raise JobError(f"part {part.index + 1} holds {len(result)} answers for {len(a)} pairs")
        counts += engine.tally(n, a, b, result, blind)
        for name, values in (("result", result), ("hindrances", hindrances), ("blind", blind)):
            matrix[name][a, b] = values
            matrix[name][b, a] = values
        pairs += len(a)
        seconds += part.seconds
        found += 1
        runner.report(job, 95 + 4 * found // max(1, job.parts_total), f"assembling part {found}")
    if found != job.parts_total:
        raise JobError(f"only {found} of the {job.parts_total} parts were found; the job cannot be assembled")
    labels = [cmap.label(i) for i in range(n)]
    analysis = engine.Analysis(labels=labels, clear=counts[0], hindered=counts[1], blocked=counts[2],
                               blind=counts[3], pairs=pairs, seconds=seconds, height=job.parameters.get("height", 0),
                               matrix=matrix)
    content = npz_bytes(labels=np.array(labels), **matrix)
    return Outcome(analysis.as_dict(), file=(f"analysis-{job.pk}.npz", content))


def batch_uploads(batch):
    """The map files of a batch's upload (a zip expands within the import limits)."""
    with batch.upload.open("rb") as handle:
        data = handle.read()
    return importers.expand(batch.name, data, importing.limits())


def check_batch_part(job, part):
    """Check every files_total-th map file of the upload, starting at the part's index, storing each as it goes.

    A part started again (its worker was lost) rewrites the same rows: each file has one row per batch.
    """
    started = time.perf_counter()
    try:
        batch = BatchValidation.objects.get(pk=job.parameters["batch"])
    except BatchValidation.DoesNotExist:
        raise JobError("the validation was deleted") from None
    uploads = batch_uploads(batch)
    total = len(uploads)
    BatchValidation.objects.filter(pk=batch.pk).update(files_total=total)
    pairs, seconds = settings.HEXSIDE_BATCH_LOS_PAIRS, settings.HEXSIDE_BATCH_LOS_SECONDS
    for index in range(part.index, total, job.parts_total):
        checked = check_upload(uploads[index], importing.limits(), los_pairs=pairs, los_seconds=seconds)
        BatchFile.objects.update_or_create(batch=batch, index=index, defaults={
            "name": checked["name"][:500], "source_format": checked["source_format"][:32],
            "verdict": checked["verdict"], "errors": checked["errors"], "warnings": checked["warnings"],
            "findings": checked["findings"], "document": checked["document"]})
        done = BatchFile.objects.filter(batch=batch).count()
        runner.report(job, 95 * done // max(1, total), f"{done} of {total} files checked")
    return b"", time.perf_counter() - started


def summarise_batch(job):
    """The batch's counts per verdict; the full report is the batch's own (GET /api/validations/<id>/)."""
    batch = BatchValidation.objects.get(pk=job.parameters["batch"])
    return {"validation": batch.pk, "files": batch.files.count(), **batch.counts()}


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
    key = (job.map_hash, json.dumps(markers, sort_keys=True))
    cmap = _compiled.get(key)
    if cmap is not None and _catalogue_current(cmap):
        _compiled.move_to_end(key)
        return cmap
    cmap = engine.compile_map(mapfile.parse(document_for(job)), markers)
    _compiled[key] = cmap
    while len(_compiled) > COMPILED_CACHE_SIZE:
        _compiled.popitem(last=False)
    return cmap


def _catalogue_current(cmap):
    """Is the compiled map's ruleset still the one maps.rulesets.get() gives (a custom one may have changed)?"""
    if cmap.catalogue.builtin:
        return True
    try:
        return rulesets.get(cmap.ruleset) is cmap.catalogue
    except KeyError:
        return False


def document_for(job):
    """The map document with the job's content hash: the map's own if unchanged, else from its history."""
    if job.map_id is None:
        raise JobError("this job is not about a map")
    try:
        map = Map.objects.only("content_hash").get(pk=job.map_id)
    except Map.DoesNotExist:
        raise JobError("the map was deleted") from None
    if map.content_hash == job.map_hash:
        return Map.objects.values_list("document", flat=True).get(pk=map.pk)
    document = (map.revisions.filter(content_hash=job.map_hash).order_by("-number")
                .values_list("document", flat=True).first())
    if document is None:
        raise JobError(f"the map no longer holds the content this job was asked about (hash {job.map_hash[:12]})")
    return document
