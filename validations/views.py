"""The batch validation pages: upload, the list of your batches, a report, opening a file as a map."""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from engine import mapfile
from hexside import throttles
from jobs import dispatch, limits
from jobs.models import Job
from validations.batches import PAGE_LIST, UploadRefused, batch_report, editor_url, own_batch, own_file, start_batch
from validations.models import BatchValidation


@login_required
def validations_page(request):
    retry = None
    if request.method == "POST":
        wait = throttles.check(request, throttles.VALIDATIONS)
        try:
            if wait is not None:
                raise limits.TooManyJobs(wait=wait, detail="too many batches started for now")
            batch = start_batch(request.user, request.FILES.get("file"), throttles.address_of(request))
        except (UploadRefused, limits.CostTooHigh) as exc:
            messages.error(request, str(exc))
        except limits.TooManyJobs as exc:
            messages.error(request, str(exc.detail))
            retry = exc.wait
        except dispatch.BrokerUnavailable as exc:
            messages.error(request, str(exc))
        else:
            return redirect("validation-page", pk=batch.pk)
    batches = BatchValidation.objects.filter(owner=request.user).select_related("job")[:PAGE_LIST]
    response = render(request, "validations/validations.html", {
        "batches": batches, "max_bytes": settings.HEXSIDE_IMPORT_MAX_BYTES,
        "max_entries": settings.HEXSIDE_IMPORT_MAX_ZIP_ENTRIES}, status=200 if retry is None else 429)
    if retry is not None:
        response["Retry-After"] = str(int(retry))
    return response


@login_required
def validation_page(request, pk):
    batch = own_batch(request.user, pk)
    report = batch_report(batch)
    return render(request, "validations/validation_report.html", {"batch": batch, "report": report,
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


