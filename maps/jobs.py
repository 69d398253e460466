"""A map's jobs: LOS, viewsheds, whole-map analyses and print exports, asked through the API (the kinds are
registered by MapsConfig.ready()).

Requests are checked against the map before anything is queued and normalised (hexes become labels, defaults
are filled in, markers sorted), so that two ways of asking the same question give the same parameters, and so
find the same job. The work is in maps/tasks.py.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import serializers

from engine import render, rulesets
from engine.exports import mapfiles
from engine.los.compiled import MARKER_KINDS
from engine.los.engine import observer_chunks
from engine.mapfile import MAX_STOREYS
from jobs import conf
from jobs.api import SubjectJobView, job_schema
from jobs.kinds import Kind
from maps.models import Map
from web.serializers import HexField, StrictSerializer

# -- what each kind takes ----------------------------------------------------------------------------------

LEVEL_LIMIT = 1000


def level_field(help_text, default=None):
    return serializers.IntegerField(required=False, allow_null=default is None, default=default,
                                    min_value=-LEVEL_LIMIT, max_value=LEVEL_LIMIT, help_text=help_text)


@extend_schema_field({"type": "string", "pattern": f"^({'|'.join(MARKER_KINDS)})$",
                      "description": "One of: " + ", ".join(MARKER_KINDS)})
class MarkerKindField(serializers.ChoiceField):
    """A marker kind. Not an enum in the schema, where it would collide with the jobs' own "kind" enum."""


class MarkerSerializer(serializers.Serializer):
    hex = HexField()
    kind = MarkerKindField(MARKER_KINDS)
    count = serializers.IntegerField(required=False, default=1, min_value=1, max_value=99)


MAX_GROUP = 5  # the other hexes of a fire group: OST groups 2 units (27.8), a few more for any game's


class LosJobRequestSerializer(StrictSerializer):
    """What every LOS question may add: the markers on the map. Unknown keys are refused by name."""

    markers = MarkerSerializer(many=True, required=False, default=list,
                               help_text="Counters that change LOS (smoke, wrecks, ..), as a scenario places them.")

    def validate_markers(self, markers):
        grid = self.context["grid"]
        return sorted(({"hex": m["hex"], "kind": m["kind"], "count": m["count"]} for m in markers),
                      key=lambda m: (grid.index(*grid.parse_hex(m["hex"])), m["kind"], m["count"]))

    def validate(self, data):
        """An observer's or a target's level where a unit of this ruleset can stand (Ruleset.standing_levels)."""
        ruleset = self.context.get("ruleset")
        for name in ("from_level", "to_level", "level"):
            if ruleset is not None and data.get(name) is not None:
                try:
                    ruleset.check_level(data[name], MAX_STOREYS, what="level")
                except ValueError as exc:
                    raise serializers.ValidationError({name: [str(exc)]}) from None
        return data


class LosRequestSerializer(LosJobRequestSerializer):
    locals()["from"] = HexField(help_text="The observer's hex.")  # "from" is a Python keyword
    to = HexField(help_text="The target's hex.")
    from_level = level_field("The observer's level; default: where a unit in that hex stands.")
    to_level = level_field("The target's level; default: where a unit in that hex stands.")
    group = serializers.ListField(child=HexField(), required=False, min_length=1, max_length=MAX_GROUP,
                                  help_text="The other firing hexes of a fire group with the observer (OST 27.8): "
                                            "the answer is the group's (engine/los/fire_groups.py).")

    def validate(self, data):
        data = super().validate(data)
        ruleset = self.context.get("ruleset")
        if data.get("group") and ruleset is not None:
            rules = rulesets.games.get(getattr(ruleset, "base", None) or ruleset.id).los.Rules
            if rules.fire_group is None:
                raise serializers.ValidationError({"group": [f"{ruleset.name} has no fire groups"]})
        return data


class ViewshedRequestSerializer(LosJobRequestSerializer):
    locals()["from"] = HexField(help_text="The observer's hex.")
    level = level_field("The observer's level; default: where a unit in that hex stands.")


class AnalysisRequestSerializer(LosJobRequestSerializer):
    height = level_field("Observers and targets this many levels above where a unit stands.", default=0)


def print_fields():
    """dpi and hex size of a print image, with the renderer's limits (a map's print, a scenario's map)."""
    return (serializers.IntegerField(min_value=10, max_value=render.MAX_DPI, default=150,
                                     help_text=f"Dots per inch, 10 to {render.MAX_DPI}."),
            serializers.FloatField(min_value=render.HEX_MM_RANGE[0], max_value=render.HEX_MM_RANGE[1], default=19.0,
                                   help_text="A hex's width across the flats, in millimetres."))


EXPORT_FORMATS = ("png", *mapfiles.FORMATS)


class MapExportSerializer(StrictSerializer):
    format = serializers.ChoiceField(
        choices=EXPORT_FORMATS, default="png",
        help_text="png: the print PNG (dpi and hex_mm); svg, pdf: the print in vectors at true size (hex_mm); "
                  "tiled: a zip of the Tiled map (TMX) and its tileset images; vassal: a VASSAL module (.vmod) "
                  "of the board and its grid, the board drawn at hex_mm.")
    dpi, hex_mm = print_fields()

    def validate(self, data):
        """Equal exports give equal parameters (the job layer's request key): only what the format uses."""
        if data["format"] == "png":
            check_print_size(self.context["grid"], data)
            return {"format": "png", "dpi": data["dpi"], "hex_mm": data["hex_mm"]}
        if "dpi" in self.initial_data:
            raise serializers.ValidationError({"dpi": [f"dpi is the PNG print's; a {data['format']} export is drawn "
                                                       "at true size: give hex_mm only"]})
        try:
            mapfiles.check(self.context["grid"], data["format"], data["hex_mm"])
        except mapfiles.Refused as exc:
            raise serializers.ValidationError({exc.option: [str(exc)]}) from None
        if data["format"] == "tiled":  # drawn at Tiled's own pixel size, whatever the print's
            return {"format": "tiled"}
        return {"format": data["format"], "hex_mm": data["hex_mm"]}


def check_print_size(grid, data):
    """A print past render.MAX_PIXELS is refused here, before its job is queued (the job checks again)."""
    problem = render.too_large(*render.printed_size(grid, data["dpi"], data["hex_mm"]))
    if problem:
        raise serializers.ValidationError({"dpi": [problem]})


# -- what each kind costs (jobs.limits): estimated from the request and the map before anything is queued ------

def viewshed_cost(parameters, map):
    """A viewshed traces a line to every hex of the map."""
    return map.hex_grid().size


def analysis_cost(parameters, map):
    """A whole-map analysis answers every pair of hexes."""
    n = map.hex_grid().size
    return n * (n - 1) // 2


def hexes_cost(parameters, map):
    """About a hex's work per hex: drawing the map page's picture, checking the map's findings."""
    return map.hex_grid().size


# What a map export other than the PNG costs a hex, in the PNG's units (bench/bench_vector_export.py: a 60 x 40
# map's SVG takes about an eighth of its 300 dpi PNG's time, its PDF a third; a Tiled export of a 300 x 300 map
# with art, 7 s).
EXPORT_HEX_COST = {"svg": 60, "pdf": 160, "tiled": 30}
VASSAL_BOARD_DPI = 150  # the VASSAL board is a print PNG: costed as one at this dpi


def print_cost(parameters, map):
    """A print PNG: its pixels, a hundred to the unit (a hex drawn is about that); a vector print or a Tiled map
    by its hexes (EXPORT_HEX_COST); a VASSAL module by its board image."""
    grid = map.hex_grid()
    format = parameters.get("format", "png")
    if format in EXPORT_HEX_COST:
        return grid.size * EXPORT_HEX_COST[format]
    dpi = parameters["dpi"] if format == "png" else VASSAL_BOARD_DPI
    width, height = render.printed_size(grid, dpi, parameters["hex_mm"])
    return width * height // 100


def kinds():
    """The kinds of job about a map, with their costs and limits (registered by MapsConfig.ready())."""
    return (
        Kind("los", "maps.los", label="line of sight", interactive=True),
        Kind("viewshed", "maps.viewshed", label="viewshed", interactive=True, cost=viewshed_cost,
             limit="HEXSIDE_MAX_VIEWSHED_HEXES", unit="hexes (a viewshed answers every hex of the map)"),
        Kind("analysis", "maps.analysis_assemble", part_task="maps.analysis_part", label="whole-map analysis",
             cost=analysis_cost, limit="HEXSIDE_MAX_ANALYSIS_PAIRS",
             unit="pairs of hexes (an analysis answers every pair of the map's hexes)",
             advice="ask for viewsheds of the hexes you need instead"),
        Kind("map-image", "maps.map_image", label="map image", cost=hexes_cost),
        Kind("map-findings", "maps.map_findings", label="map checks", cost=hexes_cost),
        Kind("map-export", "maps.export", label="map print", cost=print_cost),
    )


# -- the views -------------------------------------------------------------------------------------------

NOT_FOUND = OpenApiResponse(description="No such map, or a private map of another user.")
SAME_REQUEST = ("The same request on the same map content answers at once with the job that already succeeded "
                "(200), or with the queued or running one (202), instead of computing it again.")


def map_job_schema(summary, description, request, example):
    return job_schema(summary, description, request, example, not_found=NOT_FOUND)


class MapJobView(SubjectJobView):
    """A question about a map, for anyone who may read it; the request is checked against its grid."""

    request_serializer = None

    def get_subject(self, request, pk):
        return get_object_or_404(Map.objects.visible_to(request.user), pk=pk)

    def parameters(self, request, map):
        serializer = self.request_serializer(data=request.data, context={"grid": map.hex_grid(),
                                                                         "ruleset": rulesets.get(map.ruleset)})
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)


class LosJobView(MapJobView):
    kind = "los"
    request_serializer = LosRequestSerializer

    @map_job_schema("Line of sight between two hexes, as a job",
                    "The result is the LOS answer with every reason (docs/los.md), exactly what `manage.py los "
                    "MAP FROM TO --json` prints. " + SAME_REQUEST, LosRequestSerializer,
                    {"from": "C4", "to": "H9", "from_level": 1, "markers": [{"hex": "E6", "kind": "smoke"}]})
    def post(self, request, pk):
        return super().post(request, pk)


class ViewshedJobView(MapJobView):
    kind = "viewshed"
    request_serializer = ViewshedRequestSerializer

    @map_job_schema("Everything one hex sees, as a job",
                    "The result is what `manage.py viewshed MAP FROM --json` prints: every hex of the map with "
                    "result, hindrances and blind. " + SAME_REQUEST, ViewshedRequestSerializer, {"from": "C4"})
    def post(self, request, pk):
        return super().post(request, pk)


class AnalysisJobView(MapJobView):
    kind = "analysis"
    request_serializer = AnalysisRequestSerializer

    @map_job_schema("Whole-map visibility, as a job run in parallel parts",
                    "Every hex against every hex. The result holds per-hex counts of clear, hindered, blocked and "
                    "blind targets (as `manage.py analyze_map --json` prints them) and `mode`: \"matrix\" when the "
                    "full matrix is also a .npz file at `result_file`, \"counts\" for a map past "
                    "HEXSIDE_ANALYSIS_MATRIX_PAIRS (per-hex counts only). A map past HEXSIDE_MAX_ANALYSIS_PAIRS is "
                    "refused (400, naming the limit). Progress rises as parts finish. " + SAME_REQUEST,
                    AnalysisRequestSerializer, {"height": 0})
    def post(self, request, pk):
        return super().post(request, pk)

    def parts(self, map, parameters):
        return observer_chunks(map.hex_grid().size, conf.get("ANALYSIS_PARTS"))


class MapExportJobView(MapJobView):
    kind = "map-export"
    request_serializer = MapExportSerializer

    @map_job_schema("Export a map: a print PNG, a vector print (SVG, PDF), a Tiled map or a VASSAL module, as a job",
                    "`format` png (the default): any dpi up to 300 for a chosen hex size, with legend and scale "
                    "bar. svg and pdf: the same print in vectors, hexes `hex_mm` across the flats. tiled: a zip of "
                    "the TMX and its tileset images. vassal: a .vmod of the board and its grid (docs/exports.md). "
                    "dpi is for png only. The download is the job's `result_file`, with its file name and type. "
                    + SAME_REQUEST, MapExportSerializer, {"format": "svg", "hex_mm": 19})
    def post(self, request, pk):
        return super().post(request, pk)
