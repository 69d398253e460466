"""The batch-validation job: its files checked in parallel parts, each file's verdict stored as it goes."""

import json
import time

from celery import shared_task
from django.conf import settings
from django.core.files.base import ContentFile

from engine import importers
from engine.checks.batch import check_upload
from jobs import runner
from jobs.runner import JobError, JobTask
from maps import importing, scans
from validations.models import BatchFile, BatchValidation


@shared_task(base=JobTask, bind=True, name="validations.batch_validation_part")
def batch_validation_part(self, job_id, index):
    runner.run_part(self, job_id, index, check_batch_part)


@shared_task(base=JobTask, bind=True, name="validations.batch_validation_assemble")
def batch_validation_assemble(self, job_id):
    runner.run(self, job_id, summarise_batch)


def batch_uploads(batch):
    """The map files of a batch's upload (a zip expands within the import limits)."""
    with batch.upload.open("rb") as handle:
        data = handle.read()
    return importers.expand(batch.name, data, importing.limits())


def document_bytes(document):
    """What a converted map takes as stored, counted towards the owner's storage quota (validations/apps.py)."""
    return 0 if document is None else len(json.dumps(document, separators=(",", ":")).encode("utf-8"))


def kept_board(checked):
    """The board image a converted map's background names (a VASSAL board), checked and written again as a scan
    is (maps.scans.decode_scan), renamed in the document as the map will store it; None when there is none. An
    image that is no usable scan is dropped from the map, with a warning saying so."""
    document = checked["document"]
    background = (document or {}).get("background")
    data = checked["files"].get((background or {}).get("image"))
    if data is None:
        return None
    try:
        stored, extension, _size = scans.decode_scan(data, settings.HEXSIDE_SCAN_MAX_PIXELS)
    except scans.ScanError as exc:
        document.pop("background")
        checked["warnings"] += 1
        checked["groups"].append({"severity": "warning", "code": "board-image-dropped", "count": 1, "hexes": [],
                                  "where": "background", "message": f"the board image was not kept: {exc}"})
        return None
    name = scans.scan_name(stored, extension)
    background["image"] = name
    return ContentFile(stored, name=name)


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
        checked = check_upload(uploads[index], importing.limits(), los_pairs=pairs, los_seconds=seconds,
                               ruleset=batch.ruleset or None)
        store_checked(batch, index, checked)
        done = BatchFile.objects.filter(batch=batch).count()
        runner.report(job, 95 * done // max(1, total), f"{done} of {total} files checked")
    return b"", time.perf_counter() - started


def store_checked(batch, index, checked, **also):
    """One file's row written from check_upload's answer (a part started again rewrites the same row)."""
    board = kept_board(checked)
    row, _ = BatchFile.objects.update_or_create(batch=batch, index=index, defaults={
        "name": checked["name"][:500], "source_format": checked["source_format"][:32],
        "verdict": checked["verdict"], "errors": checked["errors"], "warnings": checked["warnings"],
        "findings": checked["findings"], "groups": checked["groups"], "mapping": checked["mapping"],
        "document": checked["document"],
        "document_bytes": document_bytes(checked["document"]) + (len(board.file.getvalue()) if board else 0),
        **also})
    if board is not None:
        row.board.save(board.name, board, save=True)
    return row


def summarise_batch(job):
    """The batch's counts per verdict; the full report is the batch's own (GET /api/validations/<id>/)."""
    batch = BatchValidation.objects.get(pk=job.parameters["batch"])
    return {"validation": batch.pk, "files": batch.files.count(), **batch.counts()}


@shared_task(base=JobTask, bind=True, name="validations.mapping_step")
def mapping_step(self, job_id):
    from validations import mapsteps

    runner.run(self, job_id, mapsteps.run_step)
