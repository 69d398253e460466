"""The pages: the scenarios one may see, and the scenario editor."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from documents.serializers import Problems
from engine import rulesets
from engine.scenarios import cards, scenariofile
from maps.models import Map
from scenarios.models import Scenario
from scenarios.serializers import ScenarioUpdateSerializer

LIST_LIMIT = 200


def inches_per_hex(scenario, catalogue, reader):
    """The editor's inches per hex for a game measured in inches, from the one reckoning the checks and cards use,
    on the maps' rows (the page reads no map document: a map's own rules option is the checks' to report)."""
    if catalogue is None or catalogue.table_scale is None:
        return None
    try:
        return scenariofile.inches_per_hex(scenario.outline(reader))
    except scenariofile.ScenarioFormatError:  # the checks say what is wrong; the editor shows no scale
        return None


def scenario_list(request):
    scenarios = Scenario.objects.visible_to(request.user).select_related("owner")
    maps = Map.objects.visible_to(request.user).order_by("name")
    return render(request, "scenarios/scenario_list.html",
                  {"scenarios": scenarios[:LIST_LIMIT], "maps": maps[:LIST_LIMIT], "limit": LIST_LIMIT})


@ensure_csrf_cookie
def scenario_page(request, pk):
    """The scenario editor: the owner edits; anyone else who may read the scenario sees it read-only."""
    scenario = get_object_or_404(Scenario.objects.visible_to(request.user).select_related("owner"), pk=pk)
    main, unreadable = scenario.main_map(request.user)
    can_edit = request.user.is_authenticated and scenario.owner_id == request.user.id
    try:
        catalogue = rulesets.get(scenario.ruleset)
        game = scenario.ruleset if scenario.ruleset in rulesets.builtin_ids() else catalogue.base
    except KeyError:
        catalogue, game = None, None
    fields = {part: catalogue.scenario_fields(part) if catalogue else {} for part in ("side", "rules", "oob")}
    config = {
        "scenario": scenario.pk, "canEdit": can_edit, "ruleset": scenario.ruleset, "game": game,
        "map": main.pk if main is not None else None, "mapProblem": unreadable,
        "sideFields": list(fields["side"]), "rulesFields": list(fields["rules"]), "oobExtra": list(fields["oob"]),
        "fieldSpecs": fields, "qualities": catalogue.qualities if catalogue else (),
        "inchesPerHex": inches_per_hex(scenario, catalogue, request.user),
        "unitClasses": catalogue.unit_classes if catalogue else (),
        "unitTypes": [[t["id"], t["name"]] for t in catalogue.unit_types.values()] if catalogue else [],
        "markerKinds": sorted(catalogue.terrain_ids("marker")) + ["control"] if catalogue else [],
    }
    return render(request, "scenarios/scenario_editor.html",
                  {"scenario": scenario, "config": config, "can_edit": can_edit,
                   "sheets": cards.sheet_choices(scenario.document)})


@login_required
@require_POST
def scenario_publish(request, pk):
    """The page's publish form: publish (with "its maps too", publish_maps) or unpublish one's own scenario,
    through the API's serializer, so that the page and the API refuse the same things."""
    scenario = get_object_or_404(Scenario.objects.visible_to(request.user), pk=pk)
    if scenario.owner_id != request.user.id:
        raise PermissionDenied("only the owner may publish a scenario")
    data = {"published": request.POST.get("published") == "1", "publish_maps": request.POST.get("publish_maps") == "1"}
    serializer = ScenarioUpdateSerializer(scenario, data=data, partial=True, context={"request": request})
    try:
        serializer.is_valid(raise_exception=True)
        serializer.save()
    except Problems as exc:
        for finding in exc.findings:
            messages.error(request, f"Not published: {finding.message}.")
        return redirect("scenario-page", pk)
    messages.success(request, f"{'Published' if data['published'] else 'Unpublished'} {scenario.title}"
                              f"{' and its maps' if data['published'] and data['publish_maps'] else ''}.")
    return redirect("scenario-page", pk)
