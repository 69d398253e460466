"""A scenario's jobs: its checks, its sight lines and its print exports, asked through the API (the kinds are
registered by ScenariosConfig.ready(); the work is in authoring/tasks.py).

The parameters name the scenario and its content hash, so that an edit makes the next request a new job.
"""

import dataclasses

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError

from authoring import scenario_maps
from authoring.models import Scenario
from authoring.readers import sheets_for, sides_for
from engine.exports import countersheets, mapfiles, vassal_grid
from engine.exports.vassal import DEFAULT_DPI as VASSAL_DPI
from engine.hexgrid import Grid
from engine.scenarios import cards, sightlines, visibility
from jobs.api import SubjectJobView, job_schema
from jobs.kinds import Kind
from maps.jobs import EXPORT_HEX_COST, check_print_size, print_fields
from maps.models import Map
from web.responses import errors_response
from web.serializers import StrictSerializer

NOT_FOUND = OpenApiResponse(description="No such scenario, or a private scenario of another user.")


# -- what each kind costs (jobs.limits): estimated from the scenario before anything is queued -----------------

def main_grid(scenario, parameters):
    """The grid ({"columns", "rows", ...}) of the scenario's main map, or None when there is none to read (the job
    then says why itself): an estimate never fails a request. A library map's is read from its row, as the job's
    parameters pin it (ScenarioJobView.parameters)."""
    entry = (scenario.document.get("maps") or [{}])[0]
    embedded = entry.get("document") if isinstance(entry, dict) else None
    grid = embedded.get("grid") if isinstance(embedded, dict) else None
    if grid is None and isinstance(entry, dict):
        pinned = {key: map_id for key, map_id, _hash in parameters.get("maps") or ()}
        main = Map.objects.filter(pk=pinned.get(entry.get("key"))).only("grid").first()
        grid = main.grid if main is not None else None
    if not (isinstance(grid, dict) and isinstance(grid.get("columns"), int) and isinstance(grid.get("rows"), int)):
        return None
    return grid


def checks_cost(parameters, scenario):
    """Its rules checks: about a pass over the main map's hexes."""
    grid = main_grid(scenario, parameters)
    return grid["columns"] * grid["rows"] if grid else 1


def sight_lines_cost(parameters, scenario):
    """The hexes its lines of sight cross: the lines its setup zones trace against the play area and the enemy (a
    bound from the scenario alone), each about half the map's columns and rows long. A line across a 500 x 500
    map costs ten times one across a 50 x 50 map, so the bound is on hexes crossed, not lines."""
    grid = main_grid(scenario, parameters)
    if grid is None:
        return 1  # no main map to read: the job says so itself
    # reckoned on what the job's reader sees: the cost a refusal states tells nothing of a withheld setup zone
    seen = visibility.view(scenario.document, parameters.get("sides", visibility.ALL))
    length = max(1, (grid["columns"] + grid["rows"]) // 2)
    return sightlines.pairs_bound(seen, grid["columns"], grid["rows"]) * length


def export_cost(parameters, scenario):
    """A card (a page of text, about a small map's drawing), or the scenario's map PNG or VASSAL module (whose
    board is the map's print): a hundred pixels a unit."""
    grid = main_grid(scenario, parameters)
    hexes = grid["columns"] * grid["rows"] if grid else 1
    if parameters["format"] in ("pdf", "los-examples"):
        return hexes
    if parameters["format"] == "kit":  # the card and sheets, the map pages in vectors, the counter sheets
        return hexes * (EXPORT_HEX_COST["pdf"] + 2) + sum(
            u.get("count") or 1 for side in scenario.document.get("sides") or [] for u in side.get("oob") or [])
    if parameters["format"] in VECTOR:  # as a map's vector print (engine/exports/mapfiles.py)
        return hexes * EXPORT_HEX_COST[VECTOR[parameters["format"]]]
    return max(hexes, int(hexes * (parameters["dpi"] * parameters["hex_mm"] / 25.4) ** 2) // 100)


def kinds():
    """The kinds of job about a scenario, with their costs and limits (registered by ScenariosConfig.ready())."""
    return (
        Kind("scenario-checks", "authoring.scenario_checks", label="scenario checks", cost=checks_cost),
        Kind("sight-lines", "authoring.sight_lines", label="scenario sight lines", cost=sight_lines_cost,
             limit="HEXSIDE_MAX_SIGHT_LINES_HEXES",
             unit="hexes crossed by lines of sight (its setup zones against the play area and the enemy)",
             advice="make the setup zones or the play area smaller"),
        # A card PDF, the scenario's map PNG or its VASSAL module.
        Kind("export", "authoring.export", label="scenario export", cost=export_cost),
    )


VECTOR = {"svg": "svg", "map-pdf": "pdf"}  # the scenario's map in vectors, as engine/exports/mapfiles names them


class ScenarioExportSerializer(StrictSerializer):
    format = serializers.ChoiceField(choices=["pdf", "png", "svg", "map-pdf", "vassal", "los-examples", "kit"],
                                     default="pdf",
                                     help_text="pdf: the printable card; png: the map with the scenario on it; "
                                               "svg and map-pdf: that map in vectors at true hex size (hex_mm); "
                                               "vassal: a VASSAL 3.7 module (.vmod) of the scenario "
                                               "(docs/exports.md); los-examples: a PDF page of the LOS "
                                               "examples its main map keeps, for the players; kit: the "
                                               "print-and-play kit, a zip of PDFs of what you may see "
                                               "(docs/print-and-play.md).")
    counter_size = serializers.CharField(required=False, default="5/8in",
                                         help_text="kit: the counters' size, 1/2in, 5/8in, 3/4in, 1in or "
                                                   "millimetres (8 to 40).")
    offset_x = serializers.FloatField(required=False, default=0.0, min_value=-10, max_value=10,
                                      help_text="kit: the printer's offset of a counter sheet's backs, mm right.")
    offset_y = serializers.FloatField(required=False, default=0.0, min_value=-10, max_value=10,
                                      help_text="kit: the printer's offset of a counter sheet's backs, mm down.")
    map_layer = serializers.BooleanField(required=False, default=True,
                                         help_text="kit: the map pages with the scenario's zones and counters.")
    paper = serializers.ChoiceField(choices=["a4", "letter"], default="a4", help_text="The card's paper (pdf).")
    sheet = serializers.CharField(required=False, help_text="public (the default: the public card, which never "
                                                            "prints a hidden item), or a side's id: that side's "
                                                            "secret sheet (its hidden setup; on TOCS its secret "
                                                            "brief), for the owner, an editor or a holder of its "
                                                            "link. 'card' is read as public.")
    side = serializers.CharField(required=False, allow_null=True, default=None,
                                 help_text="vassal: none, the module both sides play (every side's hidden units, "
                                           "masked or invisible to the other side: for a reader holding every "
                                           "side, the owner or an editor); or a side you hold: a print of what "
                                           "that side's reader may see.")
    dpi, hex_mm = print_fields()

    def validate_side(self, value):
        held = self.context["sides"]
        if value is None:
            if held != visibility.ALL and self.initial_data.get("format") == "vassal":
                raise serializers.ValidationError("the module both sides play holds every side's hidden units, so "
                                                  "only the scenario's owner or an editor exports it; name the "
                                                  "side you hold for a print of its view")
            return None
        ids = [s.get("id") for s in self.context.get("scenario_sides") or []]
        if value not in ids:
            raise serializers.ValidationError(f"this scenario has no side {value!r}; its sides are "
                                              f"{', '.join(map(str, ids)) or 'none'}")
        if held != visibility.ALL and value not in held:
            raise serializers.ValidationError(f"side {value!r} is not yours to export: a side's module is for "
                                              "the holder of its link")
        return value

    def validate_sheet(self, value):
        sheets = self.context["sheets"]
        value = cards.sheet_name(value)
        if value not in sheets:
            raise serializers.ValidationError(f"the sheets of this scenario you may have are {', '.join(sheets)} "
                                              "(a side's sheet is its link holder's)")
        return value

    def validate(self, data):
        """Equal exports give equal parameters (the job layer's request key): only what the format uses."""
        if data["format"] == "vassal":
            out = {"format": "vassal", "side": data.get("side"), "hex_mm": data["hex_mm"],
                   "dpi": data["dpi"] if "dpi" in self.initial_data else VASSAL_DPI}
            try:
                vassal_grid.check_size(out["hex_mm"], out["dpi"])
            except ValueError as exc:
                raise serializers.ValidationError({"dpi": [str(exc)]}) from None
            if self.context.get("grid") is not None:
                check_print_size(self.context["grid"], out)
            return out
        if data.get("side") is not None:
            raise serializers.ValidationError({"side": ["only a vassal export is made for a side; a card's side "
                                                        "is its sheet"]})
        if data["format"] == "kit":
            return self.kit(data)
        out = {"format": data["format"], "sheet": data.get("sheet") or cards.PUBLIC}
        if data["format"] == "los-examples":  # the map's, public: the same page for every reader
            return {"format": "los-examples", "paper": data["paper"], "sheet": cards.PUBLIC}
        if data["format"] == "pdf":
            out["paper"] = data["paper"]
        elif data["format"] in VECTOR:
            if "dpi" in self.initial_data:
                raise serializers.ValidationError({"dpi": ["a vector print has no dpi: its hexes are hex_mm across"]})
            out["hex_mm"] = data["hex_mm"]
            if self.context.get("grid") is not None:
                try:
                    mapfiles.check(self.context["grid"], VECTOR[data["format"]], data["hex_mm"])
                except mapfiles.Refused as exc:
                    raise serializers.ValidationError({exc.option: [str(exc)]}) from None
        else:
            out.update(dpi=data["dpi"], hex_mm=data["hex_mm"])
            if self.context.get("grid") is not None:
                check_print_size(self.context["grid"], out)
        return out


    def kit(self, data):
        """A kit's parameters: it holds the sheets of the sides its reader holds, so it names no sheet."""
        for field in ("dpi", "sheet"):
            if field in self.initial_data:
                raise serializers.ValidationError({field: ["a kit has no " + (
                    "dpi: its map pages and counters are drawn in vectors" if field == "dpi" else
                    "sheet: it holds the public card and the sheets of the sides you hold")]})
        try:
            size = countersheets.counter_size(data["counter_size"])
        except countersheets.SheetError as exc:
            raise serializers.ValidationError({"counter_size": [str(exc)]}) from None
        return {"format": "kit", "paper": data["paper"], "hex_mm": data["hex_mm"], "counter_size": size,
                "offset": [data["offset_x"], data["offset_y"]], "map_layer": data["map_layer"]}


def print_grid(scenario, parameters):
    """The hexes a scenario's map print covers, as a grid (its play area's rectangle, else its main map: main_grid),
    for the print's size to be checked before its job is queued; None when it cannot be told without reading the
    scenario (the export job checks the exact size again)."""
    found = main_grid(scenario, parameters)
    if found is None:
        return None
    try:
        grid = Grid(**{k: v for k, v in found.items() if k in Grid.__dataclass_fields__})
        corners = (scenario.document.get("play_area") or {}).get("corners") or []
        if len(corners) == 2 and not any(":" in str(c) for c in corners):
            (c0, r0), (c1, r1) = (grid.parse_hex(c) for c in corners)
            grid = dataclasses.replace(grid, columns=abs(c1 - c0) + 1, rows=abs(r1 - r0) + 1)
    except (AttributeError, KeyError, TypeError, ValueError):
        return None
    return grid


class ScenarioJobView(SubjectJobView):
    """A job about a scenario, for anyone who may read it, as for maps."""

    def get_subject(self, request, pk):
        return get_object_or_404(Scenario.objects.visible_to(request.user), pk=pk)

    def post(self, request, pk):
        try:
            return super().post(request, pk)
        except scenario_maps.MapsUnreadable as exc:  # a map that is not the reader's to have through the scenario
            return errors_response(exc.errors, status.HTTP_403_FORBIDDEN)

    def parameters(self, request, scenario):
        """The scenario, its content hash, its maps as this reader may have them (their ids and content
        hashes, read from the maps' rows: the worker reads the documents, scenario_maps.pinned_lookup), and the
        sides the reader holds (scenarios.readers): the job sees what they may, and a job made for other sides
        is another job, whose result and file only a reader holding them gets (readers.may_read_job)."""
        self.pins = scenario_maps.maps_for(scenario, request.user)
        self.sides = sides_for(request, scenario)
        return {"scenario": scenario.pk, "content_hash": scenario.content_hash,
                "maps": [pin.as_parameter() for pin in self.pins], "sides": visibility.as_parameter(self.sides),
                **self.options_of(request, scenario)}

    def options_of(self, request, scenario):
        """The job's own parameters from the request body (none by default), or raise ValidationError."""
        if request.data:
            raise ValidationError({key: ["unknown field; this job takes no parameters"] for key in request.data}
                                  if isinstance(request.data, dict) else {"detail": "expected no body"})
        return {}


def scenario_job_schema(summary, description):
    return job_schema(summary, description, errors=None, not_found=NOT_FOUND)


class ChecksJobView(ScenarioJobView):
    kind = "scenario-checks"

    @scenario_job_schema("Check a scenario against its game's rules, as a job",
                         "The result holds `findings` (severity, code, path, hex, message), `summary` (per side "
                         "counts, casualty points, points, the miniatures deck) and `victory` (each side's "
                         "sentence). The same scenario content answers at once with the job that already did it.")
    def post(self, request, pk):
        return super().post(request, pk)


class SightLinesJobView(ScenarioJobView):
    kind = "sight-lines"

    @scenario_job_schema("Sight lines of a scenario, as a job",
                         "For each side: which objectives, enemy setup hexes and entry hexes its setup zone sees "
                         "and is seen from, and the dead ground between the sides, with a sentence per side.")
    def post(self, request, pk):
        return super().post(request, pk)


class ExportJobView(ScenarioJobView):
    kind = "export"

    def options_of(self, request, scenario):
        sheets = [sheet for sheet, _ in sheets_for(scenario, self.sides)]
        data = request.data if isinstance(request.data, dict) else None
        grid = None
        if isinstance(data, dict) and data.get("format") in ("png", *VECTOR):
            grid = print_grid(scenario, {"maps": [pin.as_parameter() for pin in self.pins]})
        elif isinstance(data, dict) and data.get("format") == "vassal":  # the board is the whole main map
            found = main_grid(scenario, {"maps": [pin.as_parameter() for pin in self.pins]})
            try:
                grid = Grid(**{k: v for k, v in found.items() if k in Grid.__dataclass_fields__}) if found else None
            except (TypeError, ValueError):
                grid = None
        serializer = ScenarioExportSerializer(data=data, context={
            "sheets": sheets, "grid": grid, "sides": self.sides, "scenario_sides": scenario.document.get("sides")})
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def parameters(self, request, scenario):
        """An export holds what its reader may read, not its requester (cards.sheet_view): its ``sides`` are the
        sheet's or the module's (none for the public card and the public module, the side for its sheet or its
        module), so that the public card the owner exported is the one job everyone gets, and a side's sheet is
        served only to a reader holding that side (readers.may_read_job)."""
        parameters = super().parameters(request, scenario)
        if parameters["format"] == "kit":  # a kit is its reader's: the sides they hold (kit.py)
            return parameters
        if parameters["format"] == "vassal":  # the module both sides play holds every side's secrets
            sides = (parameters["side"],) if parameters.get("side") else visibility.ALL
        else:
            sides = cards.reader_of(parameters["sheet"])
        return {**parameters, "sides": visibility.as_parameter(sides)}

    @job_schema("Export a scenario's printable card (PDF), its map (PNG) or a VASSAL module, as a job",
                "The job's `result_file` is the download (`GET /api/jobs/<id>/file/`). A scenario's card is a "
                "public card, which never prints a hidden item, and one secret sheet per side (its hidden "
                "units with their hexes, its hidden markers, its brief; on TOCS its secret brief): name it in "
                "`sheet`. A VASSAL module is the one both sides play (every side's hidden units, masked or "
                "invisible to the other side; for the owner or an editor), or with `side` a print of what that "
                "side's reader may see, for a holder of its link. The same export of the same scenario "
                "revision answers at once with the stored file.",
                request=ScenarioExportSerializer, not_found=NOT_FOUND,
                errors=OpenApiResponse(description="A bad format, paper, sheet, side, dpi or hex size, by field."))
    def post(self, request, pk):
        return super().post(request, pk)
