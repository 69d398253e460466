"""The pages: the maps one may see, and one map."""

from django.shortcuts import get_object_or_404, render

from maps.models import Map

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
