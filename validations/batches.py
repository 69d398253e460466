"""Starting a batch validation, and its report: what the pages and the API share."""

import io
import os
import zipfile

from django.conf import settings
from django.core.files.base import ContentFile
from django.shortcuts import get_object_or_404
from django.urls import Resolver404, resolve, reverse

from engine.importers import declared
from jobs import dispatch, limits
from maps import importing, quotas
from validations.models import BatchFile, BatchValidation

PAGE_LIST = 50
KIND = "batch-validation"


def batch_cost(parameters, subject=None):
    """A batch's work is what its upload declares (``work``, read from its headers before it was queued:
    hexes, tiles, image pixels; engine.importers.declared), and at least a unit per kilobyte of it."""
    size = BatchValidation.objects.filter(pk=parameters["batch"]).values_list("size", flat=True).first()
    return max(1, (size or 0) // 1000, int(parameters.get("work") or 0))


def batch_cost_of_file(parameters, subject=None):
    """A mapping step reads its file's batch upload again (a unit per kilobyte of it) and converts the file (a
    unit per hex of its map, as the batch converted it)."""
    row = BatchFile.objects.filter(pk=parameters["file"]).values(
        "batch__size", "document__grid__columns", "document__grid__rows").first() or {}
    columns, rows = row.get("document__grid__columns"), row.get("document__grid__rows")
    hexes = columns * rows if isinstance(columns, int) and isinstance(rows, int) else 0
    return max(1, (row.get("batch__size") or 0) // 1000 + hexes)


def declared_work(upload, name):
    """The work an upload declares (engine.importers.declared), read before anything is kept or queued;
    UploadRefused naming what it declares and the limit when it declares more than an import may hold."""
    limits = importing.limits()
    upload.seek(0)
    data = upload.read(limits.max_bytes + 1)
    upload.seek(0)
    work = declared.declared(name, data, limits)
    kind = "module" if name.lower().endswith(".vmod") else "zip" if data[:4] == b"PK\x03\x04" else "file"
    if work.hexes > limits.max_hexes:
        raise UploadRefused(f"{name}: this {kind} declares {work.describe()} ({work.hexes:,} {work.unit} in all); "
                            f"an import may hold at most {limits.max_hexes:,} {work.unit} "
                            "(HEXSIDE_IMPORT_MAX_HEXES). Upload fewer or smaller maps at a time")
    if work.pixels > limits.max_pixels:
        raise UploadRefused(f"{name}: this {kind} names {work.images:,} image{'s' * (work.images != 1)} of "
                            f"{work.pixels:,} pixels in all; an import may decode at most {limits.max_pixels:,} "
                            "pixels (HEXSIDE_IMPORT_MAX_PIXELS). Upload fewer boards, or smaller images, at a time")
    return work


class UploadRefused(Exception):
    """An upload that is not taken, said in one line for the page or the API."""


def start_batch(user, upload, address="", ruleset="", map_name=""):
    """A new batch of the user's for an uploaded file, converted to ``ruleset`` (blank: the default), its maps
    named ``map_name`` (blank: as their files name them), with its job queued (BrokerUnavailable, TooManyJobs: nothing
    kept); ``address``: the request's, for the caps per address (jobs.limits)."""
    if upload is None:
        raise UploadRefused("choose a map file or a zip of map files to upload (the field 'file')")
    limit = settings.HEXSIDE_IMPORT_MAX_BYTES
    if upload.size > limit:
        raise UploadRefused(f"{upload.name} is {upload.size:,} bytes; an upload may be at most {limit:,} bytes "
                            "(HEXSIDE_IMPORT_MAX_BYTES)")
    if upload.size == 0:
        raise UploadRefused(f"{upload.name} is empty")
    name = os.path.basename(upload.name or "upload")[:255] or "upload"
    work = max(upload.size // 1000, declared_work(upload, name).units)
    dispatch.check_caps(KIND, work, user, address)  # before the upload is kept (TooManyJobs: 429)
    try:
        quotas.check(user.pk, upload.size, "this upload", path="file")
    except quotas.QuotaExceeded as exc:
        raise UploadRefused(f"{upload.name}: {exc.message}") from None
    batch = BatchValidation.objects.create(owner=user, name=name, upload=upload, size=upload.size,
                                           ruleset=ruleset or "")
    parts = [(k, k + 1) for k in range(max(1, settings.HEXSIDE_BATCH_PARTS))]
    try:
        parameters = {"batch": batch.pk, "work": work, **({"name": map_name} if map_name else {})}
        job, _ = dispatch.submit(KIND, parameters, user=user, parts=parts, address=address)
    except (dispatch.BrokerUnavailable, limits.TooManyJobs, limits.CostTooHigh):
        batch.upload.delete(save=False)
        batch.delete()
        raise
    batch.job = job
    batch.save(update_fields=["job"])
    return batch


def start_import(user, uploads, ruleset="", address="", name=""):
    """The Import page's community maps: one file, or several (a map and its tilesets) put in one zip, checked
    as a batch with the ruleset and name chosen; the report's page, where each opens as a map. UploadRefused as
    the page's ImportRefused."""
    upload = uploads[0]
    if len(uploads) > 1:
        total = sum(u.size for u in uploads)
        limit = settings.HEXSIDE_IMPORT_MAX_BYTES
        if total > limit:
            raise importing.ImportRefused(f"the {len(uploads)} files are {total:,} bytes in all; an upload may be "
                                          f"at most {limit:,} bytes (HEXSIDE_IMPORT_MAX_BYTES)")
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for each in uploads:
                archive.writestr(os.path.basename(each.name) or "file", each.read())
        stem = os.path.splitext(os.path.basename(uploads[0].name))[0] or "upload"
        upload = ContentFile(out.getvalue(), name=f"{stem}.zip")
    try:
        batch = start_batch(user, upload, address, ruleset, name)
    except UploadRefused as exc:
        raise importing.ImportRefused(str(exc)) from None
    return reverse("validation-page", args=[batch.pk])


def needs_step(row):
    """Whether "Open as my map" goes through the mapping step: a community map with terrain codes, whose
    proposal (stored whether or not the default mapping fitted) the designer checks before anything is made."""
    return bool(row.mapping) and row.document is not None


def file_report(row, request=None):
    return {"index": row.index, "name": row.name, "source_format": row.source_format, "verdict": row.verdict,
            "errors": row.errors, "warnings": row.warnings, "groups": row.groups, "findings": row.findings,
            "can_open": row.document is not None,
            "mapping": reverse("validation-mapping", args=[row.batch_id, row.index]) if row.mapping else None,
            "map": reverse("map-page", args=[row.map_id]) if row.map_id else None,
            "mapping_step": reverse("validation-mapping-step", args=[row.batch_id, row.index]) if needs_step(row)
            else None}


def batch_report(batch):
    """The whole report as JSON: what the report page shows and downloads."""
    job = batch.job
    return {
        "validation": batch.pk,
        "name": batch.name,
        "size": batch.size,
        "ruleset": batch.ruleset or "ost",
        "created": batch.created.isoformat(),
        "status": job.status if job else "failed",
        "progress": job.progress if job else 0,
        "message": (job.error or job.message) if job else "its job was deleted",
        "job": job.pk if job else None,
        "files_total": batch.files_total,
        "counts": batch.counts(),
        "files": [file_report(row) for row in batch.files.defer("document")],
    }


def own_batch(user, pk):
    """The user's batch, or 404: another user's report does not exist for them."""
    return get_object_or_404(BatchValidation.objects.select_related("job"), pk=pk, owner=user)


def own_file(user, pk, index):
    batch = own_batch(user, pk)
    return get_object_or_404(BatchFile, batch=batch, index=index)


def editor_url(map):
    """The painter's page for a map when the studio has it (/maps/<id>/edit/), else the map page."""
    path = f"/maps/{map.pk}/edit/"
    try:
        resolve(path)
    except Resolver404:
        return reverse("map-page", args=[map.pk])
    return path


