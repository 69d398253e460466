"""The batch-validation job: its files checked in parallel parts, each file's verdict stored as it goes."""

import base64
import json
import time

from celery import shared_task
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction

from engine import edits, importers
from engine.importers import preview as previews
from engine.importers.batch import check_upload
from jobs import runner
from jobs.runner import JobError, JobTask
from maps import importing, scans
from validations.batches import editor_url
from validations.models import BatchFile, BatchValidation, SavedMapping


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
        named(checked, job.parameters.get("name"), several=total > 1)
        store_checked(batch, index, checked)
        done = BatchFile.objects.filter(batch=batch).count()
        runner.report(job, 95 * done // max(1, total), f"{done} of {total} files checked")
    return b"", time.perf_counter() - started


def named(checked, name, several=False):
    """The converted map named as its designer asked on import (before each map's own name in an upload of
    several); the file's own name when they left it blank."""
    doc = checked["document"]
    if doc is not None and name:
        doc["name"] = (f"{name} – {doc['name']}" if several else name)[:edits.NAME_LENGTH]


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
    runner.run(self, job_id, mapping_step_work)


# -- the mapping step (validations/mapsteps.py) ---------------------------------------------------------------

def upload_of(row):
    """The file's upload again, from the batch's stored upload."""
    uploads = batch_uploads(row.batch)
    if row.index >= len(uploads) or uploads[row.index].name[:500] != row.name:
        raise JobError(f"{row.name} is no longer in the batch's upload")
    return uploads[row.index]


def mapping_step_work(job):
    """A preview (a picture and the conversion's findings) or, confirmed, the file converted again with the
    mapping, its row rewritten, opened as the owner's map and the mapping kept with their account."""
    parameters = job.parameters
    row = BatchFile.objects.select_related("batch").filter(pk=parameters["file"]).first()
    if row is None:
        raise JobError("the batch file was deleted")
    upload, mapping, ruleset = upload_of(row), parameters["mapping"], row.batch.ruleset or None
    if not parameters.get("confirm"):
        png, groups, hexes = previews.preview(upload, mapping, ruleset=ruleset, limits=importing.limits(),
                                              los_pairs=settings.HEXSIDE_BATCH_LOS_PAIRS,
                                              los_seconds=settings.HEXSIDE_BATCH_LOS_SECONDS)
        image = f"data:image/png;base64,{base64.b64encode(png).decode('ascii')}" if png else None
        return {"image": image, "hexes": hexes, "groups": groups,
                "errors": sum(g["count"] for g in groups if g["severity"] == "error"),
                "warnings": sum(g["count"] for g in groups if g["severity"] != "error")}
    checked = check_upload(upload, importing.limits(), los_pairs=settings.HEXSIDE_BATCH_LOS_PAIRS,
                           los_seconds=settings.HEXSIDE_BATCH_LOS_SECONDS, ruleset=ruleset, mapping=mapping)
    if row.document and checked["document"] is not None:
        checked["document"]["name"] = row.document.get("name") or checked["document"]["name"]  # as first named
    if checked["document"] is None:
        first = next((f for f in checked["findings"] if f["severity"] == "error"), None)
        raise JobError(f"{row.name} could not be converted with this mapping: "
                       f"{first['message'] if first else 'no map came of it'}")
    earlier, owner = row.board, row.batch.owner
    with transaction.atomic():  # the row, the map and the kept mapping change together, or not at all
        row = store_checked(row.batch, row.index, checked, map=None, board="")
        map = row.open_as_map(owner)
        SavedMapping.keep(owner, row.name.rsplit("!", 1)[-1], row.source_format, mapping["ruleset"], mapping)
    if earlier and earlier.name != row.board.name:
        earlier.storage.delete(earlier.name)  # the board image stored with the earlier conversion
    return {"map": map.pk, "edit": editor_url(map), "left_open": [
        code for code, entry in mapping["terrain"].items() if isinstance(entry, dict) and entry.get("flag")]}
