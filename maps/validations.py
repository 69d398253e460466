"""Validation in the studio: a stored map's findings, and batch validation of uploaded files (docs/map_validation.md).

Findings of a stored map are computed on the request (the rules checks cost about one pass over the listed
hexes, the LOS sample is bounded by HEXSIDE_FINDINGS_LOS_*) and kept in the cache per content hash. A batch is
an upload its owner alone sees; a batch-validation job (maps/tasks.py) checks its files in parallel parts.
"""

import json
import os

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import Resolver404, resolve, reverse
from django.views.decorators.http import require_POST
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from engine import mapfile
from engine import render as map_render
from engine.checks import findings as map_validation
from jobs import dispatch
from jobs.models import Job
from maps.models import BatchFile, BatchValidation

FINDINGS_CACHE_SECONDS = 3600
PAGE_LIST = 50


# -- findings of a stored map ----------------------------------------------------------------------------

def map_findings(map):
    """The findings of a stored map, in validate_map's shape plus path, hex and side; cached per content."""
    key = f"hexside:findings:{map.ruleset}:{map.content_hash}"
    found = cache.get(key)
    if found is None:
        doc = map.mapdoc()
        # Compiling a map for LOS costs about a second per 25,000 hexes: past the limit, no sample on a request.
        pairs = settings.HEXSIDE_FINDINGS_LOS_PAIRS if doc.grid.size <= settings.HEXSIDE_FINDINGS_LOS_MAX_HEXES else 0
        found = [f.as_dict() for f in map_validation.check_map(doc, los_pairs=pairs,
                                                           los_seconds=settings.HEXSIDE_FINDINGS_LOS_SECONDS)]
        cache.set(key, found, FINDINGS_CACHE_SECONDS)
    return found


def highlights(grid, findings):
    """Shapes to lay over the map image (engine/render.py's pixels): each finding's hex, or its hexside."""
    (width, height), px = map_render.image_space(grid)
    shapes = []
    for n, finding in enumerate(findings):
        if not finding.get("hex"):
            continue
        try:
            col, row = grid.parse_hex(finding["hex"])
        except ValueError:
            continue
        shape = {"n": n, "severity": finding["severity"], "code": finding["code"], "hex": finding["hex"],
                 "side": finding.get("side"), "message": finding["message"]}
        if finding.get("side"):
            a, b = (px(p) for p in grid.side_endpoints(col, row, finding["side"]))
            shape["line"] = [round(v, 1) for v in (*a, *b)]
        else:
            shape["points"] = " ".join(f"{x:.1f},{y:.1f}" for x, y in (px(p) for p in grid.corners(col, row)))
        shapes.append(shape)
    return {"width": width, "height": height, "shapes": shapes}


# -- batches ---------------------------------------------------------------------------------------------

class UploadRefused(Exception):
    """An upload that is not taken, said in one line for the page or the API."""


def start_batch(user, upload):
    """A new batch of the user's for an uploaded file, with its job queued (BrokerUnavailable: nothing kept)."""
    if upload is None:
        raise UploadRefused("choose a map file or a zip of map files to upload (the field 'file')")
    limit = settings.HEXSIDE_IMPORT_MAX_BYTES
    if upload.size > limit:
        raise UploadRefused(f"{upload.name} is {upload.size:,} bytes; an upload may be at most {limit:,} bytes "
                            "(HEXSIDE_IMPORT_MAX_BYTES)")
    if upload.size == 0:
        raise UploadRefused(f"{upload.name} is empty")
    name = os.path.basename(upload.name or "upload")[:255] or "upload"
    batch = BatchValidation.objects.create(owner=user, name=name, upload=upload, size=upload.size)
    parts = [(k, k + 1) for k in range(max(1, settings.HEXSIDE_BATCH_PARTS))]
    try:
        job, _ = dispatch.submit(Job.Kind.BATCH_VALIDATION, {"batch": batch.pk}, user=user, parts=parts)
    except dispatch.BrokerUnavailable:
        batch.upload.delete(save=False)
        batch.delete()
        raise
    batch.job = job
    batch.save(update_fields=["job"])
    return batch


def file_report(row, request=None):
    return {"index": row.index, "name": row.name, "source_format": row.source_format, "verdict": row.verdict,
            "errors": row.errors, "warnings": row.warnings, "findings": row.findings,
            "can_open": row.document is not None,
            "map": reverse("map-page", args=[row.map_id]) if row.map_id else None}


def batch_report(batch):
    """The whole report as JSON: what the report page shows and downloads."""
    job = batch.job
    return {
        "validation": batch.pk,
        "name": batch.name,
        "size": batch.size,
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


# -- pages -----------------------------------------------------------------------------------------------

@login_required
def validations_page(request):
    if request.method == "POST":
        try:
            batch = start_batch(request.user, request.FILES.get("file"))
        except UploadRefused as exc:
            messages.error(request, str(exc))
        except dispatch.BrokerUnavailable as exc:
            messages.error(request, str(exc))
        else:
            return redirect("validation-page", pk=batch.pk)
    batches = BatchValidation.objects.filter(owner=request.user).select_related("job")[:PAGE_LIST]
    return render(request, "maps/validations.html", {
        "batches": batches, "max_bytes": settings.HEXSIDE_IMPORT_MAX_BYTES,
        "max_entries": settings.HEXSIDE_IMPORT_MAX_ZIP_ENTRIES})


@login_required
def validation_page(request, pk):
    batch = own_batch(request.user, pk)
    report = batch_report(batch)
    return render(request, "maps/validation_report.html", {"batch": batch, "report": report,
                                                           "finished": report["status"] not in Job.LIVE})


@login_required
def validation_download(request, pk):
    batch = own_batch(request.user, pk)
    response = HttpResponse(json.dumps(batch_report(batch), ensure_ascii=False, indent=1),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="validation-{batch.pk}.json"'
    return response


@login_required
@require_POST
def open_file_page(request, pk, index):
    row = own_file(request.user, pk, index)
    try:
        map = row.open_as_map(request.user)
    except mapfile.MapFormatError as exc:
        messages.error(request, f"{row.name}: {exc.errors[0].message}")
        return redirect("validation-page", pk=pk)
    return redirect(editor_url(map))


# -- API -------------------------------------------------------------------------------------------------

class ValidationListView(APIView):
    """POST one file or a zip of many: 202 with the batch and its batch-validation job. GET: your batches."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(operation_id="validations_list", summary="Your batch validations, newest first", responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        batches = BatchValidation.objects.filter(owner=request.user).select_related("job")[:PAGE_LIST]
        return Response({"validations": [
            {"validation": b.pk, "name": b.name, "created": b.created.isoformat(),
             "status": b.job.status if b.job else "failed", "url": reverse("api-validation", args=[b.pk])}
            for b in batches]})

    @extend_schema(
        summary="Validate a file or a zip of map files in the background",
        request={"multipart/form-data": OpenApiTypes.OBJECT},
        responses={202: OpenApiTypes.OBJECT, 400: OpenApiResponse(description="No file, an empty one or one "
                                                                                "over the upload limit."),
                   503: OpenApiResponse(description="The job queue cannot be reached; nothing was kept.")},
    )
    def post(self, request):
        try:
            batch = start_batch(request.user, request.FILES.get("file"))
        except UploadRefused as exc:
            return Response({"file": [str(exc)]}, status=status.HTTP_400_BAD_REQUEST)
        except dispatch.BrokerUnavailable as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
        return Response({"validation": batch.pk, "job": batch.job_id,
                         "job_url": reverse("job-detail", args=[batch.job_id]),
                         "url": reverse("api-validation", args=[batch.pk]),
                         "page": reverse("validation-page", args=[batch.pk])}, status=status.HTTP_202_ACCEPTED)


class ValidationDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="validations_retrieve", summary="A batch validation's report: progress, each file's verdict and findings",
                   responses={200: OpenApiTypes.OBJECT, 404: OpenApiResponse(description="No such batch of yours.")})
    def get(self, request, pk):
        return Response(batch_report(own_batch(request.user, pk)))


class ValidationOpenView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="Open one checked file as a private map of your own",
                   request=None, responses={201: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT,
                                            404: OpenApiResponse(description="No such file of yours.")})
    def post(self, request, pk, index):
        row = own_file(request.user, pk, index)
        try:
            map = row.open_as_map(request.user)
        except mapfile.MapFormatError as exc:
            return Response({"errors": [f.as_dict() for f in exc.errors]}, status=status.HTTP_400_BAD_REQUEST)
        return Response({"map": map.pk, "url": reverse("map-detail", args=[map.pk]), "edit": editor_url(map),
                         "findings": reverse("map-findings", args=[map.pk])}, status=status.HTTP_201_CREATED)


def map_page_context(map):
    """What the map page needs to show the findings: the list, and shapes over the image."""
    found = map_findings(map)
    return {"findings": found, "overlay": highlights(map.hex_grid(), found)}
