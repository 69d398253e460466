"""The batch validation pages: upload, the list of your batches, a report, opening a file as a map."""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from engine import mapfile, rulesets
from jobs import dispatch, limits
from jobs.models import Job
from validations import mapsteps
from validations.batches import PAGE_LIST, UploadRefused, batch_report, editor_url, own_batch, own_file, start_batch
from validations.forms import BatchForm
from validations.models import BatchValidation, SavedMapping
from web import throttles


@login_required
def validations_page(request):
    retry = None
    if request.method == "POST":
        wait = throttles.check(request, throttles.VALIDATIONS)
        try:
            if wait is not None:
                raise limits.TooManyJobs(wait=wait, detail="too many batches started for now")
            form = BatchForm(request.POST, request.FILES)
            if not form.is_valid():
                raise UploadRefused(" ".join(f"{name}: {' '.join(errors)}" for name, errors in form.errors.items()))
            batch = start_batch(request.user, form.cleaned_data["file"], throttles.address_of(request),
                                form.cleaned_data["ruleset"], form.cleaned_data["name"])
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
        "batches": batches, "form": BatchForm(), "max_bytes": settings.HEXSIDE_IMPORT_MAX_BYTES,
        "mappings": SavedMapping.objects.filter(owner=request.user).defer("mapping")[:PAGE_LIST],
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
def mapping_download(request, pk, index):
    """The proposed mapping a file was converted with, as the mapping file import_map --mapping reads."""
    row = own_file(request.user, pk, index)
    if not row.mapping:
        raise Http404("this file was converted with the default mapping")
    response = HttpResponse(json.dumps(row.mapping, ensure_ascii=False, indent=1),
                            content_type="application/json; charset=utf-8")
    stem = row.name.rsplit("/", 1)[-1].rsplit("!", 1)[-1].rsplit(".", 1)[0] or "map"
    response["Content-Disposition"] = f'attachment; filename="{slugify(stem) or "map"}-mapping.json"'
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
    left_open = next((g for g in row.groups if g["code"] == "terrain-left-open"), None)
    if left_open:
        messages.warning(request, f"{map.name}: {left_open['count']} source terrain code"
                                  f"{'s' * (left_open['count'] != 1)} had no terrain of {map.ruleset} and were left "
                                  f"open, flagged in the map's findings (first: {left_open['message']})")
    return redirect(editor_url(map))




@login_required
def mapping_page(request, pk, index):
    """The mapping step: each source code with its count, example hexes and proposed terrain (a picker), the
    levels' scale and offset, and a preview redrawn by a mapping-step job as they change (mapping.js)."""
    row = own_file(request.user, pk, index)
    proposal = row.mapping
    context = {"batch": row.batch, "file": row, "proposal": proposal}
    if proposal:
        catalogue = rulesets.get(proposal["ruleset"])
        saved = mapsteps.offered(request.user, row)
        use_saved = saved is not None and request.GET.get("saved") != "no"
        chosen = (saved.mapping["terrain"] if use_saved else {})
        terrains = [(tid, catalogue.terrain[tid].get("name", tid)) for tid in catalogue.terrain_ids("hex")]
        codes = []
        for code, entry in proposal["terrain"].items():
            proposed = mapsteps.choice_of(entry)
            choice = mapsteps.choice_of(chosen[code]) if code in chosen else proposed
            extra = [c for c in dict.fromkeys((proposed, choice)) if "+" in c]
            codes.append({"code": code, "count": entry.get("count", 0), "hexes": entry.get("hexes", []),
                          "choice": choice, "proposed": proposed, "confidence": entry.get("confidence", 1.0),
                          "reason": entry.get("reason", ""), "extra": extra, "flagged": choice == mapsteps.FLAG,
                          "picture": entry.get("picture") if isinstance(entry, dict) else None,
                          "level": entry.get("level") if isinstance(entry, dict) else None,
                          "storeys": entry.get("storeys") if isinstance(entry, dict) else None})
        levels = proposal.get("levels", {})
        if use_saved:
            levels = {**levels, **{k: v for k, v in saved.mapping.get("levels", {}).items()
                                   if k in ("scale", "offset")}}
        storeys = dict(proposal.get("storeys") or {})
        if use_saved and "storeys" in saved.mapping:
            storeys["most"] = (saved.mapping["storeys"] or {}).get("most")
        context.update(catalogue=catalogue, terrains=terrains, codes=codes, levels=levels, storeys=storeys, saved=saved,
                       use_saved=use_saved, flag=mapsteps.FLAG, nothing=mapsteps.NOTHING,
                       max_storeys=mapfile.MAX_STOREYS)
    return render(request, "validations/mapping_step.html", context)


@login_required
def saved_mapping_download(request, pk):
    """A mapping kept with the account, as the mapping file import_map --mapping reads."""
    saved = get_object_or_404(SavedMapping, pk=pk, owner=request.user)
    response = HttpResponse(json.dumps(saved.mapping, ensure_ascii=False, indent=1),
                            content_type="application/json; charset=utf-8")
    stem = saved.name.rsplit(".", 1)[0] or "map"
    response["Content-Disposition"] = f'attachment; filename="{slugify(stem) or "map"}-mapping.json"'
    return response
