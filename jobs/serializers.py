"""The shapes of the job API: what each kind of job takes (checked against the map before anything is queued)
and what a job looks like from outside.

Requests are normalised (hexes become labels, defaults are filled in, markers sorted) so that two ways of
asking the same question give the same parameters, and so find the same job.
"""

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine.los.compiled import MARKER_KINDS
from hexside.renderers import StoredJSON
from jobs.models import Job

LEVEL_LIMIT = 1000
HEX_SCHEMA = {"oneOf": [{"type": "string", "example": "C4"},
                        {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
                         "example": [2, 3]}],
              "description": "A hex: its label, or [column, row] counted from 0."}


@extend_schema_field(HEX_SCHEMA)
class HexField(serializers.Field):
    """A hex of the map in the context's ``grid``, named by label or [column, row]; becomes its label."""

    default_error_messages = {"null": "give a hex: a label such as C4, or [column, row]"}

    def to_internal_value(self, value):
        grid = self.context["grid"]
        try:
            col, row = grid.parse_hex(value)
        except ValueError as exc:
            raise serializers.ValidationError(str(exc)) from None
        return grid.label(col, row)

    def to_representation(self, value):
        return value


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


class JobRequestSerializer(serializers.Serializer):
    """Unknown keys are refused by name: a misspelt option must not silently give another answer."""

    markers = MarkerSerializer(many=True, required=False, default=list,
                               help_text="Counters that change LOS (smoke, wrecks, ..), as a scenario places them.")

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = [key for key in data if key not in self.fields]
            if unknown:
                expected = ", ".join(self.fields)
                raise serializers.ValidationError({key: [f"unknown field; expected one of: {expected}"]
                                                   for key in unknown})
        return super().to_internal_value(data)

    def validate_markers(self, markers):
        grid = self.context["grid"]
        return sorted(({"hex": m["hex"], "kind": m["kind"], "count": m["count"]} for m in markers),
                      key=lambda m: (grid.index(*grid.parse_hex(m["hex"])), m["kind"], m["count"]))


class LosRequestSerializer(JobRequestSerializer):
    locals()["from"] = HexField(help_text="The observer's hex.")  # "from" is a Python keyword
    to = HexField(help_text="The target's hex.")
    from_level = level_field("The observer's level; default: where a unit in that hex stands.")
    to_level = level_field("The target's level; default: where a unit in that hex stands.")


class ViewshedRequestSerializer(JobRequestSerializer):
    locals()["from"] = HexField(help_text="The observer's hex.")
    level = level_field("The observer's level; default: where a unit in that hex stands.")


class AnalysisRequestSerializer(JobRequestSerializer):
    height = level_field("Observers and targets this many levels above where a unit stands.", default=0)


class JobAcceptedSerializer(serializers.Serializer):
    job = serializers.IntegerField(help_text="The job's id.")
    url = serializers.CharField(help_text="Where to follow the job: GET it until its status is final.")


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()


class JobSummarySerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    requested_by = serializers.CharField(source="requested_by.username", default=None, read_only=True)
    stale = serializers.SerializerMethodField(help_text="True when the map has changed since the job was asked: "
                                                        "the result is for the content in map_hash.")
    scenario = serializers.IntegerField(source="scenario_id", read_only=True, allow_null=True)

    class Meta:
        model = Job
        fields = ["id", "url", "kind", "status", "progress", "message", "map", "scenario", "map_hash", "stale",
                  "parameters", "requested_by", "created", "started", "finished", "attempts"]
        read_only_fields = fields

    # Who asked, and which worker (host and pid) ran it: for the requester and staff only.
    PRIVATE = {"requested_by": None, "worker": ""}

    def to_representation(self, job):
        data = super().to_representation(job)
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if not (user is not None and user.is_authenticated and (user.is_staff or job.requested_by_id == user.pk)):
            data.update((key, value) for key, value in self.PRIVATE.items() if key in data)
        return data

    def get_url(self, job) -> str:
        return reverse("job-detail", args=[job.pk])

    def get_stale(self, job) -> bool:
        return job.map_id is not None and job.map is not None and job.map.content_hash != job.map_hash


class ResultField(serializers.JSONField):
    """The job's result, from its row or, for a result kept as a file (Job.result_in_file), from that file."""

    def to_representation(self, job):
        if job.result_in_file and job.result_file:
            return StoredJSON(job.result_file)
        return super().to_representation(job.result)


class JobSerializer(JobSummarySerializer):
    result_file = serializers.SerializerMethodField(help_text="Where to download the result file, if the job "
                                                              "wrote one (the analysis matrix as .npz).")
    result = ResultField(source="*", read_only=True, help_text="The answer, once succeeded; its shape is the kind's "
                                                               "(docs/jobs.md).")

    class Meta(JobSummarySerializer.Meta):
        fields = JobSummarySerializer.Meta.fields + ["result", "result_file", "error", "worker", "heartbeat",
                                                     "parts_total", "parts_done"]
        read_only_fields = fields

    def get_result_file(self, job) -> str | None:
        return reverse("job-file", args=[job.pk]) if job.result_file else None


class StrictSerializer(serializers.Serializer):
    """Unknown keys are refused by name (as in JobRequestSerializer, without its markers)."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = [key for key in data if key not in self.fields]
            if unknown:
                raise serializers.ValidationError({key: [f"unknown field; expected one of: {', '.join(self.fields)}"]
                                                   for key in unknown})
        return super().to_internal_value(data)


def print_fields():
    """dpi and hex size of a print image, with the renderer's limits."""
    from engine import render

    return (serializers.IntegerField(min_value=10, max_value=render.MAX_DPI, default=150,
                                     help_text=f"Dots per inch, 10 to {render.MAX_DPI}."),
            serializers.FloatField(min_value=render.HEX_MM_RANGE[0], max_value=render.HEX_MM_RANGE[1], default=19.0,
                                   help_text="A hex's width across the flats, in millimetres."))


class MapExportSerializer(StrictSerializer):
    dpi, hex_mm = print_fields()

    def validate(self, data):
        from engine import render

        grid = self.context["grid"]
        width, height = render.printed_size(grid, data["dpi"], data["hex_mm"])
        if width * height * 1.3 > render.MAX_PIXELS:
            raise serializers.ValidationError({"dpi": [f"the image would be {width} x {height} pixels; at most "
                                                       f"{render.MAX_PIXELS:,}: lower the dpi or the hex size"]})
        return {"format": "png", **data}


class ScenarioExportSerializer(StrictSerializer):
    format = serializers.ChoiceField(choices=["pdf", "png"], default="pdf",
                                     help_text="pdf: the printable card; png: the map with the scenario on it.")
    paper = serializers.ChoiceField(choices=["a4", "letter"], default="a4", help_text="The card's paper (pdf).")
    sheet = serializers.CharField(required=False, help_text="card; for TOCS public or a side's id (its secret "
                                                            "brief). Default: the first sheet.")
    dpi, hex_mm = print_fields()

    def validate_sheet(self, value):
        sheets = self.context["sheets"]
        if value not in sheets:
            raise serializers.ValidationError(f"this scenario's sheets are {', '.join(sheets)}")
        return value

    def validate(self, data):
        """Equal exports give equal parameters (the job layer's request key): only what the format uses."""
        out = {"format": data["format"], "sheet": data.get("sheet") or self.context["sheets"][0]}
        if data["format"] == "pdf":
            out["paper"] = data["paper"]
        else:
            out.update(dpi=data["dpi"], hex_mm=data["hex_mm"])
        return out
