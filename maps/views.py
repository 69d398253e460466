"""The pages: the maps one may see, and one map."""

import functools
import io

from django.conf import settings
from django.http import FileResponse, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from PIL import Image, ImageDraw

from jobs import dispatch
from jobs.models import Job
from maps import images
from maps.models import Map
from maps.tasks import MAP_IMAGE

HOME_LIMIT = 200
RECENT_REVISIONS = 10


def home(request):
    maps = Map.objects.visible_to(request.user).select_related("owner").defer("document")
    return render(request, "maps/home.html", {"maps": maps[:HOME_LIMIT], "limit": HOME_LIMIT})


def map_page(request, pk):
    map = get_object_or_404(Map.objects.visible_to(request.user).select_related("owner"), pk=pk)
    document = map.document
    context = {
        "map": map,
        "grid": map.hex_grid(),
        "counts": {key: len(document.get(key, [])) for key in ("hexes", "hexsides", "overlays")},
        "defaults": document.get("defaults", {}),
        "revisions": map.revisions.select_related("author").defer("document")[:RECENT_REVISIONS],
        "is_owner": request.user.is_authenticated and map.owner_id == request.user.id,
    }
    return render(request, "maps/map_detail.html", context)


def map_image(request, pk):
    """The map drawn as a PNG, never drawn here: a map-image job draws it once per content (maps.images) and it
    is served from there.

    Until it is drawn: for a map of up to HEXSIDE_MAP_IMAGE_WAIT_HEXES hexes this request waits for the job (up to
    HEXSIDE_MAP_IMAGE_WAIT_SECONDS); otherwise, or past the wait, the answer is 202 with a small placeholder
    picture and Retry-After. A stored picture has an ETag (content hash and styles), so a browser asks again
    cheaply; a placeholder is never cached.
    """
    map = get_object_or_404(Map.objects.visible_to(request.user).defer("document"), pk=pk)
    path = images.path_of(MAP_IMAGE, map)
    if not path.exists():
        try:
            job, _ = dispatch.submit(Job.Kind.MAP_IMAGE, {}, map=map, user=request.user)
        except dispatch.BrokerUnavailable:
            return _placeholder(status=503)
        if job.status == Job.Status.SUCCEEDED and not path.exists():
            job.delete()  # its picture was removed from storage: draw it again
            job, _ = dispatch.submit(Job.Kind.MAP_IMAGE, {}, map=map, user=request.user)
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


@functools.cache
def _placeholder_png():
    image = Image.new("RGB", (360, 60), "#eeeeee")
    ImageDraw.Draw(image).text((12, 22), "Drawing the map... it shows here in a few seconds.", fill="#333333")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _placeholder(status):
    response = HttpResponse(_placeholder_png(), content_type="image/png", status=status)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response
