"""The pages: the scenarios one may see, and the scenario editor with what its owner does to it from the site
(publish, duplicate, import, delete, point it at another map when its map is gone). The work is done where the API
does it (scenarios.models, scenario_maps, the serializers); these views show forms and answers."""

import json
import math

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST
from rest_framework.exceptions import ValidationError

from authoring import scenario_maps
from authoring.forms import PointAtForm, ScenarioImportForm
from authoring.models import TITLE_LENGTH, Scenario, ScenarioEditor, SideLink, library_maps, point_at
from authoring.readers import is_owner, may_edit, remember, sheets_for, sides_for
from authoring.serializers import ScenarioEditorAddSerializer, ScenarioUpdateSerializer
from documents.models import StaleRevision
from documents.serializers import Problems
from engine import rulesets
from engine.scenarios import edits, scenariofile, visibility
from maps.models import Map
from web import lists, throttles

LIST_LIMIT = 200
SAID = 5  # the problems a refused change of map lists; the rest are counted


def editor_maps(scenario, reader):
    """The library maps of the scenario the reader may see, ``[{"key", "id"}]``, for the editor's map choice
    (an embedded map comes with the document)."""
    try:
        return [{"key": pin.key, "id": pin.map.pk} for pin in scenario_maps.maps_for(scenario, reader)]
    except scenario_maps.MapsUnreadable:
        return []


def inches_per_hex(scenario, catalogue, reader):
    """The editor's inches per hex for a game measured in inches, from the one reckoning the checks and cards use,
    on the maps' rows (the page reads no map document: a map's own rules option is the checks' to report)."""
    if catalogue is None or catalogue.table_scale is None:
        return None
    try:
        return scenariofile.inches_per_hex(scenario.outline(reader))
    except scenariofile.ScenarioFormatError:  # the checks say what is wrong; the editor shows no scale
        return None


SCENARIOS_SHOWN = [("", "every one I may read"), ("mine", "mine"), ("shared", "shared with me (editor)"),
                   ("published", "published")]


def _scenarios_shown(user):
    def show(scenarios, choice):
        if choice == "mine":
            return scenarios.filter(owner=user)
        if choice == "shared":
            return scenarios.filter(pk__in=ScenarioEditor.objects.filter(user=user).values("scenario"))
        return scenarios.filter(published=True)
    return show


def scenario_list(request, form=None, status=200):
    """The scenarios a reader may read, searched and filtered by the query string, a page at a time; the new
    scenario form, with the map of ``?map=`` chosen (a map page's "New scenario on this map")."""
    signed_in = request.user.is_authenticated
    listing = lists.listed(request, Scenario.objects.visible_to(request.user).select_related("owner"),
                           search="title", shows=SCENARIOS_SHOWN if signed_in else (),
                           show=_scenarios_shown(request.user))
    maps = list(Map.objects.visible_to(request.user).order_by("name")[:LIST_LIMIT])
    chosen = _chosen_map(request)
    if chosen is not None and chosen not in maps:
        maps.insert(0, chosen)
    if form is None and signed_in:
        form = ScenarioImportForm(request.user)
    return render(request, "scenarios/scenario_list.html",
                  {**listing, "maps": maps, "chosen_map": chosen, "import_form": form}, status=status)


def _chosen_map(request):
    pk = request.GET.get("map", "")
    if not pk.isdigit() or not request.user.is_authenticated:
        return None
    return Map.objects.visible_to(request.user).filter(pk=int(pk)).first()


def _import_wait(request):
    """The API's import throttles, for a form that makes a scenario: the seconds to wait, or None."""
    wait = throttles.check(request, throttles.IMPORTS)
    return math.ceil(wait) if wait is not None else None


def _too_many(wait):
    return f"You have made too many scenarios in a short time: try again in {wait} second{'s' if wait != 1 else ''}."


@login_required
@require_POST
def scenario_import(request):
    """The list page's import form: a scenario file read whole as POST /api/scenarios/import/ reads it."""
    wait = _import_wait(request)
    if wait is not None:
        messages.error(request, _too_many(wait))
        response = scenario_list(request, status=429)
        response["Retry-After"] = str(wait)
        return response
    form = ScenarioImportForm(request.user, request.POST, request.FILES)
    if form.is_valid():
        try:
            scenario = Scenario.objects.create_from_doc(request.user, form.cleaned_data["doc"],
                                                        published=form.cleaned_data["published"],
                                                        summary="imported from a scenario file")
        except scenario_maps.MapsUnreadable as exc:
            for finding in exc.errors:
                form.add_error("published", f"Not published: {finding.message}")
        else:
            messages.success(request, f"Imported {scenario.title}.")
            return redirect("scenario-page", scenario.pk)
    return scenario_list(request, form=form, status=400)


@ensure_csrf_cookie
def scenario_page(request, pk):
    """The scenario editor: the owner and its editors edit; anyone else who may read the scenario sees it
    read-only. Publishing, side links and editors are the owner's sections."""
    scenario = get_object_or_404(Scenario.objects.visible_to(request.user).select_related("owner"), pk=pk)
    main, unreadable = scenario.main_map(request.user)
    owner = is_owner(request.user, scenario)
    can_edit = owner or may_edit(request.user, scenario)
    try:
        catalogue = rulesets.get(scenario.ruleset)
    except KeyError:
        catalogue = None
    fields = {part: catalogue.scenario_fields(part) if catalogue else {} for part in ("side", "rules", "oob")}
    config = {
        "scenario": scenario.pk, "canEdit": can_edit, "ruleset": scenario.ruleset,
        "map": main.pk if main is not None else None, "mapProblem": unreadable,
        "sideFields": list(fields["side"]), "rulesFields": list(fields["rules"]), "oobExtra": list(fields["oob"]),
        "fieldSpecs": fields, "qualities": catalogue.qualities if catalogue else (),
        "inchesPerHex": inches_per_hex(scenario, catalogue, request.user),
        "unitClasses": catalogue.unit_classes if catalogue else (),
        "unitTypes": [[t["id"], t["name"]] for t in catalogue.unit_types.values()] if catalogue else [],
        "markerKinds": sorted(catalogue.marker_kinds() - {"control"}) + ["control"] if catalogue else [],
        "maps": editor_maps(scenario, request.user),
    }
    gone = scenario_maps.gone_entries(scenario) if unreadable else []
    if gone:  # said in the page (map_gone), not as a problem of loading
        config.update(mapProblem=gone_sentence(scenario, gone, owner), mapGone=True)
    sides = sides_for(request, scenario)
    return render(request, "scenarios/scenario_editor.html",
                  {"scenario": scenario, "config": config, "can_edit": can_edit, "is_owner": owner,
                   "map_gone": config["mapProblem"] if gone else None,
                   "point_at": PointAtForm(scenario) if gone and owner else None,
                   "sheets": sheets_for(scenario, sides), "held": held_names(scenario, sides),
                   "withheld": withheld_lines(scenario, sides), "module_sides": module_sides(scenario, sides),
                   "module_play": sides == visibility.ALL,
                   "side_links": side_links(request, scenario) if owner else None,
                   "editors": scenario.editors.select_related("user") if owner else None})


def module_sides(scenario, sides):
    """(id, name) of the sides whose VASSAL module this reader may export: every side for the owner, else the
    sides they hold (scenarios.jobs.ScenarioExportSerializer checks the same)."""
    return [(s.get("id"), s.get("name")) for s in scenario.document.get("sides") or []
            if sides == visibility.ALL or s.get("id") in sides]


def gone_sentence(scenario, gone, owner):
    """The page's words for a scenario whose map was deleted."""
    several = len(scenario.document.get("maps") or []) > 1
    what = ", ".join(f"{what} (“{key}”)" if several else what for _, key, what in gone)
    head = ("This scenario's map was deleted." if what == "its map" else
            f"This scenario's map is gone: {what} was deleted.")
    if owner:
        return f"{head} Choose another map of the same grid for it (“Use this map”), or delete the scenario."
    return f"{head} Its owner, {scenario.owner.get_username()}, can point it at another map."


def held_names(scenario, sides):
    """The names of the sides whose links this reader holds (not the owner's: they hold all)."""
    if sides == visibility.ALL:
        return []
    return [s["name"] for s in scenario.document.get("sides") or [] if s.get("id") in sides]


def withheld_lines(scenario, sides):
    """What of the scenario this reader does not see, in words, for the page's "hidden from you" note."""
    if sides == visibility.ALL:
        return []
    withheld = (visibility.view(scenario.document, sides).get("extensions") or {}).get(visibility.WITHHELD) or {}
    names = {s["id"]: s["name"] for s in scenario.document.get("sides") or []}
    words = {"brief": "brief", "victory": "victory conditions", "setup_zone": "setup zone", "fields": "side values"}
    lines = []
    for side_id, gone in withheld.items():
        parts = [words[key] for key in words if gone.get(key)]
        if gone.get("units"):
            parts.append(f"{gone['units']} hidden unit{'s' if gone['units'] != 1 else ''}")
        if gone.get("markers"):
            parts.append(f"{gone['markers']} hidden marker{'s' if gone['markers'] != 1 else ''}")
        if gone.get("objective_vp"):
            parts.append("the objectives' VP")
        if parts:
            lines.append(f"{names.get(side_id, side_id) if side_id else 'Secret'}: {', '.join(parts)}")
    return lines


def side_links(request, scenario):
    """The owner's view of the links: each side with its live links' URLs."""
    links = {}
    for link in scenario.side_links.live():
        links.setdefault(link.side, []).append(
            {"id": link.pk, "created": link.created,
             "url": request.build_absolute_uri(reverse("scenario-side-link", args=[scenario.pk, link.token]))})
    return [{"id": s["id"], "name": s["name"], "links": links.get(s["id"], [])}
            for s in scenario.document.get("sides") or []]


def side_link(request, pk, token):
    """A side's link: its holder's session keeps it, and the scenario's page, editor, file and jobs show them
    that side's private part too (scenarios.readers). A revoked or unknown link, or a scenario they may not
    read, is a 404."""
    scenario = Scenario.objects.visible_to(request.user).filter(pk=pk).first()
    if scenario is None:
        # A live link to a scenario its holder may not read yet (still private): said, not a bare 404. The token
        # is the proof of being given the link; nothing of the scenario but its title is shown.
        private = SideLink.objects.live().filter(scenario_id=pk, token=token).select_related("scenario").first()
        if private is None:
            raise Http404("no such side link")
        return render(request, "scenarios/side_link_private.html", {"scenario": private.scenario}, status=404)
    link = get_object_or_404(SideLink.objects.live(), scenario=scenario, token=token)
    remember(request, link)
    return redirect("scenario-page", pk)


def owned(request, pk, what="make or revoke a scenario's side links"):
    scenario = get_object_or_404(Scenario.objects.visible_to(request.user), pk=pk)
    if scenario.owner_id != request.user.id:
        raise PermissionDenied(f"only the owner may {what}")
    return scenario


@login_required
@require_POST
def editor_add(request, pk):
    """The page's form: make a user an editor, through the API's serializer (the same refusals)."""
    scenario = owned(request, pk, "name a scenario's editors")
    serializer = ScenarioEditorAddSerializer(data={"username": request.POST.get("username", "").strip()},
                                             context={"scenario": scenario})
    if not serializer.is_valid():
        for problem in serializer.errors.get("username", []):
            messages.error(request, f"No editor added: {problem}.")
        return redirect("scenario-page", pk)
    try:
        editor = serializer.save()
    except ValidationError:  # made by a request at the same time
        messages.error(request, "No editor added: they are an editor already.")
        return redirect("scenario-page", pk)
    messages.success(request, f"{editor.user.get_username()} is an editor now: they read every side's hidden part "
                              "and may edit the scenario, not publish or delete it.")
    return redirect("scenario-page", pk)


@login_required
@require_POST
def editor_remove(request, pk, editor_id):
    scenario = owned(request, pk, "name a scenario's editors")
    editor = get_object_or_404(scenario.editors.select_related("user"), pk=editor_id)
    editor.delete()
    messages.success(request, f"{editor.user.get_username()} is no longer an editor of {scenario.title}.")
    return redirect("scenario-page", pk)


@login_required
@require_POST
def side_link_make(request, pk):
    """Make a new link to one side (the page's form): an unguessable token (secrets.token_urlsafe(32))."""
    scenario = owned(request, pk)
    side = request.POST.get("side", "")
    names = {s["id"]: s["name"] for s in scenario.document.get("sides") or []}
    if side not in names:
        messages.error(request, f"No link made: the scenario has no side {side!r}.")
        return redirect("scenario-page", pk)
    SideLink.objects.create(scenario=scenario, side=side)
    later = ("" if scenario.published else " The scenario is private: the link opens it only once you publish it "
             "(until then it says so to whoever opens it).")
    messages.success(request, f"Made a link to the {names[side]} side: whoever holds it reads that side's "
                              f"brief, hidden units and secret victory conditions.{later}")
    return redirect("scenario-page", pk)


@login_required
@require_POST
def side_link_revoke(request, pk, link_id):
    scenario = owned(request, pk)
    link = get_object_or_404(SideLink.objects.live(), scenario=scenario, pk=link_id)
    link.revoke()
    messages.success(request, f"Revoked a link to the {link.side} side: it opens nothing now.")
    return redirect("scenario-page", pk)


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


@login_required
@require_POST
def scenario_duplicate(request, pk):
    """A copy of a scenario one may see, owned by whoever asked, private: only what they read of it (a reader
    holding no side link copies its public part; hidden parts stay with their sides), on the same maps."""
    scenario = get_object_or_404(Scenario.objects.visible_to(request.user), pk=pk)
    wait = _import_wait(request)
    if wait is not None:
        messages.error(request, _too_many(wait))
        return redirect("scenario-page", pk)
    try:
        data = json.loads(scenario.export(request.user, sides_for(request, scenario)))
        data["title"] = f"{scenario.title} (copy)"[:TITLE_LENGTH]
        copy = Scenario.objects.create_from_doc(
            request.user, scenariofile.parse(data, library_maps(request.user)),
            summary=f"duplicated from scenario {scenario.pk} revision {scenario.revision}")
    except scenariofile.ScenarioFormatError as exc:
        for finding in exc.errors:
            messages.error(request, f"Not duplicated: {finding.message}.")
        return redirect("scenario-page", pk)
    messages.success(request, f"Duplicated {scenario.title} as {copy.title}.")
    return redirect("scenario-page", copy.pk)


@login_required
def scenario_delete(request, pk):
    """Delete one's own scenario and its history, after a confirmation page (a GET shows it, a POST deletes)."""
    scenario = owned(request, pk, "delete a scenario")
    if request.method == "POST":
        title = scenario.title
        scenario.delete()
        messages.success(request, f"Deleted {title}.")
        return redirect("scenario-list-page")
    return render(request, "scenarios/scenario_delete.html",
                  {"scenario": scenario, "revisions": scenario.revisions.count(),
                   "links": scenario.side_links.live().count(), "editors": scenario.editors.count()})


@login_required
@require_POST
def scenario_point_at(request, pk):
    """Point a scenario whose map is gone at another map, as a new revision (the owner's): the edit reads every
    hex of the scenario against the new map and refuses, naming each, those it does not have."""
    scenario = owned(request, pk, "point a scenario at another map")
    form = PointAtForm(scenario, request.POST)
    if not form.is_valid():
        for field, problems in form.errors.items():
            for problem in problems:
                messages.error(request, f"Not changed: {form.fields[field].label.lower()}: {problem}")
        return redirect("scenario-page", pk)
    map = form.cleaned_data["map"]
    try:
        point_at(scenario, form.cleaned_data["entry"], map, request.user, form.cleaned_data["revision"])
    except StaleRevision:
        messages.error(request, "Not changed: the scenario changed meanwhile; look again and choose the map again.")
    except edits.EditError as exc:
        for problem in exc.errors[:SAID]:
            messages.error(request, f"Not changed: on {map.name}, {problem.message}.")
        if len(exc.errors) > SAID:
            messages.error(request, f"… and {len(exc.errors) - SAID} more things {map.name} does not have.")
    else:
        messages.success(request, f"{scenario.title} is on {map.name} now.")
    return redirect("scenario-page", pk)
