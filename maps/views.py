"""The pages: published maps and one's own, one map, and what a designer does to a map from the site (new,
import, duplicate, delete). The work is done where the API does it (maps.models, maps.scans); these views show
forms and answers."""

import functools
import io
import math

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import FileResponse, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import etag, require_POST
from PIL import Image, ImageDraw

from engine import edits, rulesets
from jobs import dispatch, limits
from jobs.models import Job
from maps import dependents, images, importing, quotas, scans
from maps.findings import map_page_context
from maps.forms import ImportForm, NewMapForm
from maps.models import Map, attach_scan, copy_scan
from maps.serializers import MapUpdateSerializer
from maps.tasks import MAP_IMAGE
from web import lists, throttles

RECENT_REVISIONS = 10


MY_MAPS_SHOWN = [("", "all of mine"), ("published", "published"), ("private", "private")]


def _my_maps_shown(maps, choice):
    return maps.filter(published=choice == "published")


def home(request):
    """Published maps, everyone's: searched and filtered by the query string, a page at a time."""
    listing = lists.listed(request, Map.objects.filter(published=True).select_related("owner"), search="name")
    return render(request, "maps/home.html", {**listing, "title": "Published maps", "mine": False})


@login_required
def my_maps(request):
    listing = lists.listed(request, Map.objects.filter(owner=request.user).select_related("owner"), search="name",
                           shows=MY_MAPS_SHOWN, show=_my_maps_shown)
    return render(request, "maps/home.html", {**listing, "title": "My maps", "mine": True,
                                              "storage": _storage(request.user)})


def _storage(user):
    usage = quotas.usage(user)
    return {**usage, "used_text": quotas.amount(usage["used"]),
            "quota_text": quotas.amount(usage["quota"]) if usage["quota"] else None}


def _import_wait(request):
    """The API's import throttles (web.throttles.IMPORTS) asked for a form's post, so that the site's forms
    count against the same limit as POST /api/maps/ and /api/maps/import/: the seconds to wait, or None."""
    wait = throttles.check(request, throttles.IMPORTS)
    return math.ceil(wait) if wait is not None else None


def _refused(request, template, context, wait):
    """The form again, saying why it was not taken: 429 with Retry-After."""
    context["refused"] = (f"You have made too many maps in a short time: try again in {wait} second"
                          f"{'s' if wait != 1 else ''}.")
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(wait)
    return response


@login_required
def map_new(request):
    form = NewMapForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        wait = _import_wait(request)
        if wait is not None:
            # What was typed is shown again, unchecked: a refused post costs no checking (and no scan decoding).
            return _refused(request, "maps/map_new.html", {"form": NewMapForm(initial=request.POST.dict())}, wait)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        scan = data.get("scan_data")
        try:
            with transaction.atomic():
                map = Map.objects.create_from_doc(request.user, data["doc"], published=data["published"],
                                                  extra_bytes=len(scan[0]) if scan else 0)
                if scan:
                    attach_scan(map, *scan, request.user)
        except quotas.QuotaExceeded as exc:
            form.add_error("scan" if scan else None, exc.message)
        else:
            messages.success(request, f"Created {map.name}.")
            return redirect("map-page", map.pk)
    return render(request, "maps/map_new.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def map_import(request):
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        wait = _import_wait(request)
        if wait is not None:
            return _refused(request, "maps/map_import.html", {"form": ImportForm()}, wait)
    if request.method == "POST" and form.is_valid() and form.cleaned_data["doc"] is None:
        # A community map: converted in the background, opened as a map from its report.
        try:
            page = importing.background_import(request.user, form.cleaned_data["file"], form.cleaned_data["ruleset"],
                                               throttles.address_of(request), form.cleaned_data["name"])
        except importing.ImportRefused as exc:
            form.add_error("file", str(exc))
        except limits.TooManyJobs as exc:
            return _refused(request, "maps/map_import.html", {"form": ImportForm()}, math.ceil(exc.wait))
        except (limits.CostTooHigh, dispatch.BrokerUnavailable) as exc:
            form.add_error("file", str(getattr(exc, "detail", exc)))
        else:
            messages.success(request, "Hexside is converting the file. When it is checked, open it as your map "
                                      "(“Open as my map”) from this report.")
            return redirect(page)
    elif request.method == "POST" and form.is_valid():
        try:
            map = Map.objects.create_from_doc(request.user, form.cleaned_data["doc"],
                                              published=form.cleaned_data["published"],
                                              summary="imported from a map file")
        except quotas.QuotaExceeded as exc:
            form.add_error("file", exc.message)
        else:
            messages.success(request, f"Imported {map.name}.")
            return redirect("map-page", map.pk)
    return render(request, "maps/map_import.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@require_POST
def map_duplicate(request, pk):
    """A copy of a map one may see, owned by whoever asked, private, with its board scan; counted against the
    import limit and the storage quota as a new map is."""
    original = get_object_or_404(Map.objects.visible_to(request.user), pk=pk)
    wait = _import_wait(request)
    if wait is not None:
        return _refused(request, "maps/refused.html", {"map": original}, wait)
    doc = original.mapdoc()
    doc.name = f"{original.name} (copy)"[:edits.NAME_LENGTH]
    scan = scans.path_of(original.pk, (doc.background or {}).get("image"))
    try:
        copy = Map.objects.create_from_doc(request.user, doc, extra_bytes=scan.stat().st_size if scan else 0,
                                           summary=f"duplicated from map {original.pk} revision {original.revision}")
    except quotas.QuotaExceeded as exc:
        return render(request, "maps/refused.html", {"map": original, "refused": f"Not duplicated: {exc.message}."},
                      status=400)
    copy_scan(original.pk, copy.pk)
    messages.success(request, f"Duplicated {original.name} as {copy.name}.")
    return redirect("map-page", copy.pk)


def _owned(request, pk, what):
    map = get_object_or_404(Map.objects.visible_to(request.user), pk=pk)
    if map.owner_id != request.user.id:
        raise PermissionDenied(f"only the owner may {what}")
    return map


@login_required
def map_delete(request, pk):
    """Delete one's own map and its history, after a confirmation page listing what stands on it: the owner's
    own scenarios on it go too, or keep the map embedded, only when the form says so (with_scenarios: "1" or
    "keep"), in the same transaction; otherwise nothing is deleted and the page says why (maps.dependents)."""
    map = _owned(request, pk, "delete a map")
    refused = None
    if request.method == "POST":
        name = map.name
        choice = request.POST.get("with_scenarios")
        try:
            gone = dependents.delete_map(map, with_dependents=choice == "1", keep_dependents=choice == "keep")
        except (dependents.MapInUse, dependents.NotKept) as exc:
            refused = f"Not deleted: {exc}."
        else:
            count = f"{len(gone)} scenario{'s' if len(gone) != 1 else ''}"
            also = ("" if not gone else f"; your {count} on it keep it embedded" if choice == "keep"
                    else f" and {count} on it")
            messages.success(request, f"Deleted {name}{also}.")
            return redirect("my-maps")
    on_it = dependents.of(map)
    return render(request, "maps/map_delete.html",
                  {"map": map, "revisions": map.revisions.count(), "refused": refused,
                   "mine": [d for d in on_it if d.mine], "theirs": [d for d in on_it if not d.mine]},
                  status=400 if refused else 200)


@login_required
@require_POST
def map_publish(request, pk):
    """The map page's publish form, through the API's serializer (unpublishing takes the owner's published
    scenarios on the map with it, as PATCH /api/maps/<id>/ does)."""
    map = _owned(request, pk, "publish a map")
    published = request.POST.get("published") == "1"
    serializer = MapUpdateSerializer(map, data={"published": published}, partial=True, context={"request": request})
    serializer.is_valid(raise_exception=True)
    serializer.save()
    messages.success(request, f"{'Published' if published else 'Unpublished'} {map.name}"
                              f"{'' if published else ': only you see it now'}.")
    return redirect("map-page", pk)


def map_page(request, pk):
    """One map: its findings summarised and its contents counted, both kept once per content (maps.findings),
    so a view costs the same whatever the map holds; the map itself is not read."""
    map = get_object_or_404(Map.objects.visible_to(request.user).select_related("owner"), pk=pk)
    findings = map_page_context(map, request.user)
    summary = findings["summary"] or {}
    context = {
        "map": map,
        "grid": map.hex_grid(),
        "counts": summary.get("contents"),
        "defaults": summary.get("defaults"),
        "revisions": map.revisions.select_related("author").defer("snapshot", "changes")[:RECENT_REVISIONS],
        "is_owner": request.user.is_authenticated and map.owner_id == request.user.id,
        **findings,
    }
    return render(request, "maps/map_detail.html", context)


@ensure_csrf_cookie
def map_editor(request, pk):
    """The map painter: the owner edits; anyone else who may read the map sees it read-only."""
    map = get_object_or_404(Map.objects.visible_to(request.user).select_related("owner"), pk=pk)
    can_edit = request.user.is_authenticated and map.owner_id == request.user.id
    config = {"map": map.pk, "ruleset": map.ruleset, "canEdit": can_edit, "name": map.name,
              "user": request.user.get_username() if request.user.is_authenticated else None,
              "findings": _served(f"/api/maps/{map.pk}/findings/"), "overlays": _overlays_note(map.ruleset)}
    return render(request, "maps/editor.html", {"map": map, "config": config, "can_edit": can_edit})


def _overlays_note(ruleset_id):
    """What the map's game says of printed overlays (its game.json), for the painter's overlay panel."""
    try:
        game_id = rulesets.get(ruleset_id).base
    except KeyError:
        return ""
    return rulesets.games.get(game_id).overlays if rulesets.games.is_game(game_id) else ""


def _served(path):
    """Does this server answer a path? (The map checks' findings arrive with another branch.)"""
    try:
        resolve(path)
    except Resolver404:
        return False
    return True


def _map_etag(request, pk):
    map = Map.objects.visible_to(request.user).filter(pk=pk).only("content_hash").first()
    return map.content_hash if map else None


def map_image(request, pk):
    """The map drawn as a PNG, never drawn here: a map-image job draws it once per content (maps.images), at most
    render.PAGE_PX pixels on its longer side, and it is served from there.

    Until it is drawn: for a map of up to HEXSIDE_MAP_IMAGE_WAIT_HEXES hexes this request waits for the job (up to
    HEXSIDE_MAP_IMAGE_WAIT_SECONDS); otherwise, or past the wait, the answer is 202 with a small placeholder
    picture and Retry-After. Requests for a content being drawn share its job; a request that would start a new
    drawing counts against throttles.MAP_IMAGES (per user, per address when anonymous): past it, 429 and Retry-After.
    A stored picture has an ETag (content hash and styles), so a browser asks again cheaply; a placeholder is
    never cached.
    """
    map = get_object_or_404(Map.objects.visible_to(request.user), pk=pk)
    path = images.path_of(MAP_IMAGE, map)
    if not path.exists():
        job = dispatch.find_same("map-image", {}, subject=map)
        if job is not None and job.status == Job.Status.SUCCEEDED:
            job.delete()  # its picture was removed from storage: draw it again
            job = None
        if job is None:
            wait = throttles.check(request, throttles.MAP_IMAGES)
            if wait is not None:
                return _placeholder(status=429, retry=math.ceil(wait),
                                    text="Too many maps drawn for you just now; this one will be drawn later.")
            try:
                job, _ = dispatch.submit("map-image", {}, subject=map, user=request.user)
            except dispatch.BrokerUnavailable:
                return _placeholder(status=503)
            except limits.TooManyJobs:  # the requester's live jobs are at their cap (jobs.limits): later
                return _placeholder(status=429)
        if map.hex_grid().size <= settings.HEXSIDE_MAP_IMAGE_WAIT_HEXES:
            dispatch.wait(job, settings.HEXSIDE_MAP_IMAGE_WAIT_SECONDS)
        if not path.exists():
            return _placeholder(status=202)
    tag = f'"{path.stem}"'
    if tag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        response = FileResponse(path.open("rb"), content_type="image/png")
    response["ETag"] = tag
    response["Cache-Control"] = "private, max-age=0, must-revalidate"
    return response


RETRY_AFTER_SECONDS = 5
DRAWING = "Drawing the map... it shows here in a few seconds."


@functools.cache
def _placeholder_png(text=DRAWING):
    image = Image.new("RGB", (360 if text == DRAWING else 440, 60), "#eeeeee")
    ImageDraw.Draw(image).text((12, 22), text, fill="#333333")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _placeholder(status, retry=RETRY_AFTER_SECONDS, text=DRAWING):
    response = HttpResponse(_placeholder_png(text), content_type="image/png", status=status)
    response["Retry-After"] = str(retry)
    response["Cache-Control"] = "no-store"
    return response


@etag(_map_etag)
def map_thumbnail(request, pk):
    """The list pages' picture of a map, drawn once per content (maps.images)."""
    map = get_object_or_404(Map.objects.visible_to(request.user), pk=pk)
    response = HttpResponse(images.thumbnail(map), content_type="image/png")
    response["Cache-Control"] = "private, max-age=0, must-revalidate"
    return response
