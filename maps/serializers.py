"""The shapes of the map API: what it answers, and what it takes.

Requests that carry map content (create, import, edits) are checked by the map format and by engine.edits, and
every problem comes back in one shape, ``{"errors": [{"path", "hex", "message"}, ...]}`` (documents.serializers).
"""

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from documents.serializers import (  # noqa: F401  (the shapes every document shares, named here for the schema)
    DETAIL_FIELDS,
    ConflictSerializer,
    CreateSerializer,
    EditResultSerializer,
    Problems,
    ProblemsSerializer,
    RestoreRequestSerializer,
    RevisionSerializer,
    edit_result,
    problem,
)
from documents.serializers import EditRequestSerializer as DocumentEditRequestSerializer
from engine import edits, mapfile
from engine.hexgrid import LABEL_SCHEMES, MAX_SIZE, ORIENTATIONS, STAGGERS
from maps import scans
from maps.models import NAME_LENGTH, Map, MapRevision
from maps.state import check_name

HEX = {"oneOf": [{"type": "string", "description": "A hex label", "example": "C4"},
                 {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
                  "description": "[column, row], 0-based"}]}
POINT = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
POLYGON = {"type": "array", "items": POINT, "minItems": 3}
OPERATION_KEYS = {
    "hexes": {"type": "array", "items": HEX, "minItems": 1},
    "hex": HEX,
    "anchor": HEX,
    "terrain": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}, "minItems": 1}],
                "description": "Terrain id(s) of the map's ruleset"},
    "level": {"type": "integer"},
    "storeys": {"type": "integer", "minimum": 1},
    "side": {"type": "string", "description": "flat: N NE SE S SW NW; pointy: NE E SE SW W NW"},
    "art": {"oneOf": [POLYGON, {"type": "array", "items": POLYGON}], "description": "Polygon(s) in map space"},
    "overlay": {"type": "object", "additionalProperties": True,
                "description": "{id, anchor, rotation, hexes, hexsides} as in the map file"},
    "id": {"type": "string", "description": "An overlay's id"},
    "rotation": {"type": "integer", "minimum": 0, "maximum": 5},
    "name": {"type": "string", "maxLength": edits.NAME_LENGTH},
    "index": {"type": "integer", "minimum": 0, "description": "The overlay's place among the map's overlays"},
    "label_note": {"type": "string", "nullable": True, "description": "A note beside the hex's label; null: none"},
    "background": {"type": "object", "nullable": True, "additionalProperties": False,
                   "description": "The board scan's entry as in the map file (null removes it)",
                   "properties": {"image": {"type": "string"}, "origin": POINT, "hex_px": {"type": "number"},
                                  "rotation": {"type": "number"}, "opacity": {"type": "number"}}},
    "examples": {"type": "array", "maxItems": 200, "items": {"type": "object", "additionalProperties": True},
                 "description": "The map's LOS examples as in extensions.los_examples.cases (docs/map-format.md)"},
}


def operation_schema():
    """One schema per edit operation, made from engine.edits' own table so that the two cannot differ."""
    variants = []
    for name, (_, required, optional) in edits.OPERATIONS.items():
        properties = {"op": {"type": "string", "enum": [name]}}
        properties.update((key, OPERATION_KEYS[key]) for key in required + optional)
        variants.append({"type": "object", "title": name, "properties": properties,
                         "required": ["op", *required], "additionalProperties": False})
    return {"oneOf": variants, "discriminator": {"propertyName": "op"}}


@extend_schema_field(operation_schema())
class OperationField(serializers.DictField):
    pass


class GridSerializer(serializers.Serializer):
    orientation = serializers.ChoiceField(ORIENTATIONS)
    columns = serializers.IntegerField(min_value=1, max_value=MAX_SIZE)
    rows = serializers.IntegerField(min_value=1, max_value=MAX_SIZE)
    stagger = serializers.ChoiceField(STAGGERS)
    labels = serializers.ChoiceField(LABEL_SCHEMES)
    hex_metres = serializers.FloatField(required=False, help_text="Metres across one hex; the ruleset's by default.")


class LinksSerializer(serializers.Serializer):
    api = serializers.CharField()
    export = serializers.CharField()
    page = serializers.CharField()
    revisions = serializers.CharField()


class MapSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)
    grid = GridSerializer(read_only=True)
    links = serializers.SerializerMethodField()

    class Meta:
        model = Map
        fields = ["id", "name", "ruleset", "grid", "owner", "published", "revision", "content_hash", "created",
                  "updated", "links"]
        read_only_fields = fields

    def get_links(self, map) -> LinksSerializer:
        return {
            "api": reverse("map-detail", args=[map.pk]),
            "export": reverse("map-export", args=[map.pk]),
            "page": reverse("map-page", args=[map.pk]),
            "revisions": reverse("map-revisions", args=[map.pk]),
        }


class MapDetailSerializer(MapSerializer):
    document = serializers.JSONField(read_only=True, help_text="The map file (docs/map-format.md), canonical.")

    class Meta(MapSerializer.Meta):
        fields = MapSerializer.Meta.fields + ["document"]
        read_only_fields = fields


class MapUpdateSerializer(serializers.ModelSerializer):
    """Renaming is a change of the map file (a new revision); publishing is not."""

    class Meta:
        model = Map
        fields = ["name", "published"]
        extra_kwargs = {"name": {"min_length": 1}}  # blank is refused: the schema says so

    def validate_name(self, value):
        if not value.strip():
            raise serializers.ValidationError("a map needs a name")
        return value

    def update(self, map, validated_data):
        if "name" in validated_data:
            try:
                map = map.rename(validated_data["name"], self.context["request"].user)
            except edits.EditError as exc:
                raise serializers.ValidationError({"name": [p.message for p in exc.errors]}) from None
        if "published" in validated_data and validated_data["published"] != map.published:
            map.published = validated_data["published"]
            map.save(update_fields=["published", "updated"])
        return map


class BackgroundUploadSerializer(ProblemsSerializer):
    """A board scan upload (multipart): the image, decoded and checked with Pillow against the size and pixel
    limits, and the revision the client saw (optional)."""

    image = serializers.FileField(help_text="The scan, PNG or JPEG.")
    revision = serializers.IntegerField(required=False, allow_null=True, help_text="The revision you saw.")

    def to_internal_value(self, data):
        upload = data.get("image")
        if upload is None or isinstance(upload, str):
            raise Problems([problem("image", "upload the scan (PNG or JPEG) in the field 'image'")])
        revision = data.get("revision")
        if revision in (None, ""):
            revision = None
        elif not str(revision).isdigit():
            raise Problems([problem("revision", f"expected a whole number, got {revision!r}")])
        try:
            image, extension, size = scans.check(upload)
        except scans.ScanError as exc:
            raise Problems([problem("image", str(exc))]) from None
        return {"image": image, "extension": extension, "size": size,
                "revision": None if revision is None else int(revision)}


class MapCreateSerializer(CreateSerializer):
    """Either a whole map file in ``document``, or ``name``, ``ruleset`` and ``grid`` for a blank map."""

    blank_keys = ("name", "ruleset", "grid", "defaults")
    kind = "map"
    both_message = ("give either a whole map file in 'document' or name, ruleset and grid for a blank map, "
                    "not both")

    document = serializers.JSONField(required=False, help_text="A whole map file (docs/map-format.md).")
    name = serializers.CharField(required=False, min_length=1, max_length=NAME_LENGTH)
    ruleset = serializers.CharField(required=False, min_length=1, help_text="A ruleset id, see /api/rulesets/.")
    grid = GridSerializer(required=False)
    defaults = serializers.JSONField(required=False, help_text='{"terrain": [...], "level": 0}; the ruleset\'s '
                                                               "open ground at level 0 by default.")
    published = serializers.BooleanField(required=False, default=False)

    def parse(self, source):
        return mapfile.parse(source)

    def check(self, doc):
        check_name(doc.name)

    def read_blank(self, data, found):
        source = {"format": mapfile.FORMAT, "version": mapfile.VERSION}
        source.update((key, data[key]) for key in self.blank_keys if key in data)
        return self.read_file(source, "", found)

    def create(self, validated_data):
        return Map.objects.create_from_doc(self.context["request"].user, validated_data["doc"],
                                           published=validated_data["published"], summary=validated_data["summary"])


class MapImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="The map file (JSON, docs/map-format.md).")
    published = serializers.BooleanField(required=False, default=False)


class BackgroundEntrySerializer(serializers.Serializer):
    image = serializers.CharField(help_text="The scan's file name, beside the map.")
    origin = serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2,
                                   help_text="The pixel [x, y] of the centre of column 0, row 0.")
    hex_px = serializers.FloatField(help_text="The hex circumradius in image pixels.")
    rotation = serializers.FloatField()
    opacity = serializers.FloatField()


class BackgroundResultSerializer(EditResultSerializer):
    """A new board scan: the revision that names it, its first alignment and the image's [width, height]."""

    background = BackgroundEntrySerializer()
    size = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)


class ErrorSerializer(serializers.Serializer):
    path = serializers.CharField(help_text="JSON path in the request, e.g. hexes[3].terrain[0].")
    hex = serializers.CharField(allow_null=True, help_text="The hex's label, when the problem is about one.")
    message = serializers.CharField()


class ErrorsSerializer(serializers.Serializer):
    errors = ErrorSerializer(many=True)


class EditErrorSerializer(ErrorSerializer):
    operation = serializers.IntegerField(allow_null=True, help_text="Index of the operation in 'operations'.")


class EditErrorsSerializer(serializers.Serializer):
    detail = serializers.CharField()
    errors = EditErrorSerializer(many=True)


class EditRequestSerializer(DocumentEditRequestSerializer):
    operations = serializers.ListField(child=OperationField(), min_length=1, max_length=edits.MAX_OPERATIONS,
                                       help_text="Applied in order; see docs/api.md.")


class MapRevisionSerializer(RevisionSerializer):
    class Meta(RevisionSerializer.Meta):
        model = MapRevision


class MapRevisionDetailSerializer(MapRevisionSerializer):
    document = serializers.JSONField(read_only=True)

    class Meta(MapRevisionSerializer.Meta):
        fields = read_only_fields = DETAIL_FIELDS


class CapabilitiesSerializer(serializers.Serializer):
    facing = serializers.ChoiceField(choices=["hexside", "vertex"], help_text="What a counter faces: a hexside, "
                                     "or a vertex 0 to 5 (Assault).")
    perimeter = serializers.BooleanField(help_text="The sides hold a perimeter of hexes (TOCS).")
    side_briefs = serializers.BooleanField(help_text="Each side has a secret brief: mission and intelligence (TOCS).")


class RulesetSerializer(serializers.Serializer):
    id = serializers.CharField()
    custom = serializers.BooleanField(help_text="Added as data by a designer, not built in.")
    ruleset = serializers.JSONField(help_text="The ruleset as data: levels, terms, terrain catalogue with each "
                                              "entry's drawing style "
                                              "(docs/rulesets/catalogues.md).")
    capabilities = CapabilitiesSerializer(help_text="What the game lets the scenario editor offer, from its "
                                          "catalogue's scenario section (docs/rulesets/catalogues.md).")
    inches_per_hex = serializers.FloatField(allow_null=True, help_text="Inches of table per hex at the catalogue's "
                                            "own hex size, for a game measured in inches (its table_scale); else null.")
