"""The pages: the maps one may see, and one map."""

import io

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import etag

from maps.los.engine import compile_map
from maps.models import Map
from maps.render import render_map

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


@ensure_csrf_cookie
def map_editor(request, pk):
    """The map painter: the owner edits; anyone else who may read the map sees it read-only."""
    map = get_object_or_404(Map.objects.visible_to(request.user).select_related("owner").defer("document"), pk=pk)
    can_edit = request.user.is_authenticated and map.owner_id == request.user.id
    config = {"map": map.pk, "ruleset": map.ruleset, "canEdit": can_edit, "name": map.name,
              "user": request.user.get_username() if request.user.is_authenticated else None,
              "findings": _served(f"/api/maps/{map.pk}/findings/")}
    return render(request, "maps/editor.html", {"map": map, "config": config, "can_edit": can_edit})


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


@etag(_map_etag)
def map_image(request, pk):
    """The map drawn as a PNG: terrain by what it does to LOS, levels darker, hexside features, art."""
    map = get_object_or_404(Map.objects.visible_to(request.user), pk=pk)
    out = io.BytesIO()
    render_map(compile_map(map.mapdoc())).save(out, format="PNG", optimize=False)
    return HttpResponse(out.getvalue(), content_type="image/png")
