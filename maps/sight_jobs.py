"""A map's sight jobs: exposure, routes (least-exposed or drawn), the minimum observer height, and what an edit
changed between two revisions (docs/los.md, "Exposure, routes and observer height"; docs/jobs.md). Registered by
MapsConfig.ready() with the other map kinds; the work is in maps/sight_tasks.py.

Each is bounded like the whole-map analysis: its cost is the pairs it may answer, estimated from the request and
the map's size before it is queued, and refused past HEXSIDE_MAX_ANALYSIS_PAIRS (docs/security.md).
"""

from rest_framework import serializers

from engine import rulesets
from engine.mapfile import examples
from jobs.kinds import Kind
from maps.jobs import LosJobRequestSerializer, MapJobView, map_job_schema
from web.serializers import HexField

MAX_OBSERVERS = 10_000  # hexes a request may name as observers (or a drawn route's hexes)
LIMIT = "HEXSIDE_MAX_ANALYSIS_PAIRS"


def hex_list(help_text, required=True):
    return serializers.ListField(child=HexField(), min_length=1 if required else 0, max_length=MAX_OBSERVERS,
                                 required=required, default=list if not required else serializers.empty,
                                 help_text=help_text)


class ExposureRequestSerializer(LosJobRequestSerializer):
    observers = hex_list("The observers' hexes (a side's setup zone, its placed units, any hexes picked).")

    def validate_observers(self, hexes):
        grid = self.context["grid"]
        return sorted(set(hexes), key=lambda h: grid.index(*grid.parse_hex(h)))


class RouteRequestSerializer(ExposureRequestSerializer):
    locals()["from"] = HexField(required=False, help_text="Where the least-exposed route starts.")
    to = HexField(required=False, help_text="Where it ends.")
    route = hex_list("A drawn route, hex by hex: its exposure instead of the least-exposed one.", required=False)
    unit_class = serializers.CharField(required=False, max_length=40,
                                       help_text="Who moves (default: the ruleset's first unit class).")

    def validate(self, data):
        data = super().validate(data)
        ruleset = self.context["ruleset"]
        data["unit_class"] = data.get("unit_class") or ruleset.unit_classes[0]
        if data["unit_class"] not in ruleset.unit_classes:
            raise serializers.ValidationError({"unit_class": [f"{ruleset.name} moves "
                                                              f"{', '.join(ruleset.unit_classes)}"]})
        if not data["route"] and not (data.get("from") and data.get("to")):
            raise serializers.ValidationError({"route": ["draw a route, or give from and to for the least-exposed "
                                                         "one"]})
        return data


class MinimumHeightRequestSerializer(LosJobRequestSerializer):
    locals()["from"] = HexField(help_text="The observer's hex.")


class MapDiffRequestSerializer(LosJobRequestSerializer):
    old = serializers.IntegerField(min_value=1, help_text="The earlier revision's number.")
    new = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None,
                                   help_text="The later revision's number; default: the working revision.")
    zones = serializers.DictField(child=hex_list("A zone's hexes."), required=False, default=dict,
                                  help_text="Two setup zones by name: the sentence says how many changed pairs run "
                                            "between them.")

    def validate(self, data):
        data = super().validate(data)
        current = self.context["revision"]
        new = data["new"] or current
        for name, number in (("old", data["old"]), ("new", new)):
            if number > current:
                raise serializers.ValidationError({name: [f"the map has {current} revisions; there is no "
                                                          f"revision {number}"]})
        if len(data["zones"]) not in (0, 2):
            raise serializers.ValidationError({"zones": ["name two setup zones, or none"]})
        data["new"] = new
        return data


# -- costs: the pairs each may answer -------------------------------------------------------------------------

def exposure_cost(parameters, map):
    n = map.hex_grid().size
    return max(1, len(parameters.get("observers") or ()) * n)


def route_cost(parameters, map):
    return exposure_cost(parameters, map) + map.hex_grid().size * 6  # the exposure, then a walk of the graph


def minimum_height_cost(parameters, map):
    catalogue = rulesets.get(map.ruleset)
    low, high = catalogue.standing_levels(10)
    return map.hex_grid().size * (1 + (high - low) // max(1, catalogue.level_step or 1))


def diff_cost(parameters, map):
    """At worst every pair of both revisions (an edit that touched the whole map)."""
    n = map.hex_grid().size
    return n * (n - 1)


def examples_cost(parameters, map):
    """At most the examples a map keeps, each one line answered with its reasons."""
    return examples.MAX_CASES


UNIT = "pairs of hexes (each observer against every hex of the map)"


def kinds():
    return (
        Kind("exposure", "maps.exposure", label="exposure", cost=exposure_cost, limit=LIMIT, unit=UNIT,
             advice="name fewer observers"),
        Kind("route", "maps.route", label="covered approach", cost=route_cost, limit=LIMIT, unit=UNIT,
             advice="name fewer observers"),
        Kind("minimum-height", "maps.minimum_height", label="minimum observer height", interactive=True,
             cost=minimum_height_cost, limit=LIMIT, unit="lines (one per hex and level)"),
        Kind("los-examples", "maps.los_examples", label="LOS examples", interactive=True, cost=examples_cost),
        Kind("map-diff", "maps.map_diff", label="what an edit changed", cost=diff_cost, limit=LIMIT,
             unit="pairs of hexes (at worst every pair of both revisions)",
             advice="compare the revisions of a smaller map, or run a whole-map analysis of each"),
    )


# -- the views ------------------------------------------------------------------------------------------------

class ExposureJobView(MapJobView):
    kind = "exposure"
    request_serializer = ExposureRequestSerializer

    @map_job_schema("How many observers see each hex, as a job",
                    "The result is what `manage.py analyze_map MAP --exposure HEXES --json` prints: per hex its "
                    "count where a unit stands and at every other level a unit may stand on.",
                    ExposureRequestSerializer, {"observers": ["A1", "A2", "B1"]})
    def post(self, request, pk):
        return super().post(request, pk)


class RouteJobView(MapJobView):
    kind = "route"
    request_serializer = RouteRequestSerializer

    @map_job_schema("A covered approach: the least-exposed route, or a drawn route's exposure, as a job",
                    "Each hex's exposure (observers seeing it) is its cost; the route moves hex to hex where the "
                    "catalogue lets the unit class go. The result lists each hex with its exposure, the total and "
                    "the share of hexes seen.", RouteRequestSerializer,
                    {"from": "A1", "to": "H6", "observers": ["D4", "E5"]})
    def post(self, request, pk):
        return super().post(request, pk)


class MinimumHeightJobView(MapJobView):
    kind = "minimum-height"
    request_serializer = MinimumHeightRequestSerializer

    @map_job_schema("The lowest level from which an observer sees each hex, as a job",
                    "Per hex the lowest observer level (from where a unit stands up to the highest level a unit "
                    "may stand at) that sees a unit standing there, or null.", MinimumHeightRequestSerializer,
                    {"from": "C3"})
    def post(self, request, pk):
        return super().post(request, pk)


class MapDiffJobView(MapJobView):
    kind = "map-diff"
    request_serializer = MapDiffRequestSerializer

    def parameters(self, request, map):
        serializer = self.request_serializer(data=request.data, context={
            "grid": map.hex_grid(), "ruleset": rulesets.get(map.ruleset), "revision": map.revision})
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    @map_job_schema("What an edit changed for LOS between two revisions, as a job",
                    "The pairs that gained or lost LOS, the lines newly ending in a blind hex (or no longer), the "
                    "hexes and hexsides that changed and one sentence; only the lines through what changed are "
                    "traced again. `manage.py analyze_map --diff OLD NEW --json` prints the same for two files.",
                    MapDiffRequestSerializer, {"old": 3, "new": 5})
    def post(self, request, pk):
        return super().post(request, pk)


class ExamplesJobView(MapJobView):
    kind = "los-examples"
    request_serializer = LosJobRequestSerializer

    @map_job_schema("The map's LOS examples answered again, as a job",
                    "Each example the map keeps (extensions.los_examples, docs/map-format.md) with its answer now "
                    "(with reasons), what it gives (clear, hindered, blocked, blind) and whether that is still what "
                    "the designer wrote down.", LosJobRequestSerializer, {})
    def post(self, request, pk):
        return super().post(request, pk)
