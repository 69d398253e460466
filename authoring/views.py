"""The pages: the scenarios one may see, and the scenario editor."""

from django.shortcuts import get_object_or_404, render

from authoring.models import Scenario
from maps.models import Map

LIST_LIMIT = 200


def scenario_list(request):
    scenarios = Scenario.objects.visible_to(request.user).select_related("owner").defer("document")
    maps = Map.objects.visible_to(request.user).defer("document").order_by("name")
    return render(request, "authoring/scenario_list.html",
                  {"scenarios": scenarios[:LIST_LIMIT], "maps": maps[:LIST_LIMIT], "limit": LIST_LIMIT})


def scenario_page(request, pk):
    scenario = get_object_or_404(Scenario.objects.visible_to(request.user).select_related("owner"), pk=pk)
    main = scenario.main_map()
    return render(request, "authoring/scenario_editor.html", {
        "scenario": scenario, "main_map": main,
        "is_owner": request.user.is_authenticated and scenario.owner_id == request.user.id})
