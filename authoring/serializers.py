"""The shapes of the scenario API, for the OpenAPI schema. Scenario content (create, import, edits) is checked
by the scenario format, so every problem comes back as ``{"errors": [{"path", "hex", "message"}, ...]}``."""

from django.db import IntegrityError, transaction
from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from authoring import scenario_maps
from authoring.models import TITLE_LENGTH, Scenario, ScenarioEditor, ScenarioRevision, library_maps
from documents.serializers import (
    DETAIL_FIELDS,
    CreateSerializer,
    EditRequestSerializer,
    Problems,
    RevisionSerializer,
    problem,
)
from engine.edits import MAX_OPERATIONS
from engine.scenarios import edits, scenariofile, victory, visibility


class ScenarioLinksSerializer(serializers.Serializer):
    api = serializers.CharField()
    export = serializers.CharField()
    page = serializers.CharField()
    revisions = serializers.CharField()


class ScenarioSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)
    links = serializers.SerializerMethodField()

    class Meta:
        model = Scenario
        fields = ["id", "title", "ruleset", "owner", "published", "revision", "content_hash", "created", "updated",
                  "links"]
        read_only_fields = fields

    def get_links(self, scenario) -> ScenarioLinksSerializer:
        return {"api": reverse("scenario-detail", args=[scenario.pk]),
                "export": reverse("scenario-export", args=[scenario.pk]),
                "page": reverse("scenario-page", args=[scenario.pk]),
                "revisions": reverse("scenario-revisions", args=[scenario.pk])}


def reader_sides(serializer, scenario):
    """The sides the serializer's reader holds (authoring.readers.sides_for): its request's, else its context's
    ``sides``, else none (the public part)."""
    from authoring.readers import sides_for

    request = serializer.context.get("request")
    if "sides" in serializer.context:
        return serializer.context["sides"]
    return sides_for(request, scenario) if request is not None else frozenset()


class ScenarioDetailSerializer(ScenarioSerializer):
    """A scenario with its document as the reader may see it (engine.scenarios.visibility)."""

    document = serializers.SerializerMethodField(help_text="The scenario file (docs/scenario-format.md), as you may "
                                                           "see it: another side's private part is left out and "
                                                           "listed in extensions.withheld.")
    victory = serializers.SerializerMethodField(help_text="Per side id: the victory condition's `sentence`, the "
                                                          "same one item a line (`lines`: depth, text) and the "
                                                          "sentence of each condition it combines (`parts`).")

    class Meta(ScenarioSerializer.Meta):
        fields = ScenarioSerializer.Meta.fields + ["document", "victory"]
        read_only_fields = fields

    def viewed(self, scenario):
        key = (scenario.pk, scenario.content_hash)
        cached = getattr(self, "_viewed", None)
        if cached is None or cached[0] != key:
            self._viewed = cached = (key, visibility.view(scenario.document, reader_sides(self, scenario)))
        return cached[1]

    def get_document(self, scenario) -> dict:
        return self.viewed(scenario)

    def get_victory(self, scenario) -> dict:
        return victory.sentences_by_side(self.viewed(scenario))


class ScenarioUpdateSerializer(serializers.ModelSerializer):
    """A new title is a change of the scenario file (a new revision); publishing is not. A scenario is published
    only with every map it names: ``publish_maps`` publishes the owner's private ones with it."""

    publish_maps = serializers.BooleanField(
        required=False, default=False, write_only=True,
        help_text="With published: true, publish the scenario's private maps (yours) with it.")

    class Meta:
        model = Scenario
        fields = ["title", "published", "publish_maps"]
        extra_kwargs = {"title": {"min_length": 1}}  # blank is refused: the schema says so

    def validate_title(self, value):
        if not value.strip():
            raise serializers.ValidationError("a scenario needs a title")
        return value

    def update(self, scenario, validated_data):
        from authoring.models import apply_edits

        if "title" in validated_data and validated_data["title"] != scenario.title:
            try:
                apply_edits(scenario.pk, self.context["request"].user, None,
                            [{"op": "set", "path": "title", "value": validated_data["title"]}])
            except edits.EditError as exc:
                raise serializers.ValidationError({"title": [p.message for p in exc.errors]}) from None
            scenario.refresh_from_db()
        if "published" in validated_data and validated_data["published"] != scenario.published:
            with transaction.atomic():
                if validated_data["published"]:
                    try:
                        problems = scenario_maps.publish_problems(scenario, validated_data.get("publish_maps", False))
                    except scenario_maps.MapsUnreadable as exc:
                        problems = exc.errors
                    if problems:
                        raise Problems(problems)
                scenario.published = validated_data["published"]
                scenario.save(update_fields=["published", "updated"])
        return scenario


class ScenarioEditorSerializer(serializers.ModelSerializer):
    """One of a scenario's editors."""

    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = ScenarioEditor
        fields = ["username", "added"]
        read_only_fields = fields


class ScenarioEditorAddSerializer(serializers.Serializer):
    """The owner names a user to make an editor of their scenario (``context["scenario"]``)."""

    username = serializers.CharField(max_length=150, help_text="The user's name, as they sign in with it.")

    def validate_username(self, value):
        from django.contrib.auth import get_user_model

        scenario = self.context["scenario"]
        user = get_user_model().objects.filter(username=value).first()
        if user is None:
            raise serializers.ValidationError(f"there is no user {value!r}")
        if user.pk == scenario.owner_id:
            raise serializers.ValidationError(f"{value} owns this scenario: an owner is not made an editor")
        if scenario.editors.filter(user=user).exists():
            raise serializers.ValidationError(f"{value} is already an editor of this scenario")
        return user

    def create(self, validated_data):
        user = validated_data["username"]
        try:
            with transaction.atomic():
                return ScenarioEditor.objects.create(scenario=self.context["scenario"], user=user)
        except IntegrityError:  # made by a request at the same time
            raise serializers.ValidationError({"username": [f"{user.username} is already an editor of this "
                                                            "scenario"]}) from None


class ScenarioCreateSerializer(CreateSerializer):
    """Either a whole scenario file in ``document``, or a title, ruleset and map for a blank scenario."""

    blank_keys = ("title", "ruleset", "map")
    kind = "scenario"
    both_message = ("give either a whole scenario file in 'document' or title, ruleset and map for a blank "
                    "scenario, not both")

    document = serializers.JSONField(required=False, help_text="A whole scenario file (docs/scenario-format.md).")
    title = serializers.CharField(required=False, max_length=TITLE_LENGTH)
    ruleset = serializers.CharField(required=False)
    map = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1,
                                   help_text="The id of the (main) map it is played on.")
    published = serializers.BooleanField(required=False, default=False)

    def keys(self):
        return ("document", "title", "ruleset", "map", "published")

    def parse(self, source):
        return scenariofile.parse(source, library_maps(self.context["request"].user))

    def read_blank(self, data, found):
        source = {"format": scenariofile.FORMAT, "version": scenariofile.VERSION, "title": data.get("title", ""),
                  "ruleset": data.get("ruleset", "")}
        if "map" not in data:
            found.append(problem("map", "is required: the id of the map the scenario is played on"))
        else:
            source["maps"] = [{"key": "main", "id": data["map"]}]
            if "ruleset" not in data:
                try:
                    source["ruleset"] = library_maps(self.context["request"].user)({"id": data["map"]}).ruleset
                except (scenariofile.MapLookupError, TypeError, ValueError):
                    pass  # the map entry's own reading says what is wrong
        return self.read_file(source, "", found)

    def create(self, validated_data):
        return Scenario.objects.create_from_doc(self.context["request"].user, validated_data["doc"],
                                                published=validated_data["published"],
                                                summary=validated_data["summary"])


class ScenarioImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="The scenario file (JSON, docs/scenario-format.md).")
    published = serializers.BooleanField(required=False, default=False)


# Each operation takes only its own keys (engine.scenarios.edits.OPERATIONS): the schema says which.
OPERATION_KEYS = {"path": {"type": "string", "minLength": 1, "example": "sides[0].oob"}, "value": {},
                  "index": {"type": "integer", "minimum": 0}, "from": {"type": "integer", "minimum": 0},
                  "to": {"type": "integer", "minimum": 0}}


@extend_schema_field({"oneOf": [
    {"type": "object", "title": name, "required": ["op", *required], "additionalProperties": False,
     "properties": {"op": {"type": "string", "enum": [name]},
                    **{key: OPERATION_KEYS[key] for key in (*required, *optional)}}}
    for name, (required, optional) in edits.OPERATIONS.items()], "discriminator": {"propertyName": "op"}})
class ScenarioOperationField(serializers.DictField):
    pass


class ScenarioEditRequestSerializer(EditRequestSerializer):
    operations = serializers.ListField(child=ScenarioOperationField(), min_length=1, max_length=MAX_OPERATIONS,
                                       help_text="Applied in order.")


class ScenarioRevisionSerializer(RevisionSerializer):
    class Meta(RevisionSerializer.Meta):
        model = ScenarioRevision


class ScenarioRevisionDetailSerializer(ScenarioRevisionSerializer):
    document = serializers.SerializerMethodField(help_text="The revision's scenario file, as you may see it.")

    class Meta(ScenarioRevisionSerializer.Meta):
        fields = read_only_fields = DETAIL_FIELDS

    def get_document(self, revision) -> dict:
        scenario = revision.scenario
        return visibility.view(revision.document, reader_sides(self, scenario), current=scenario.document)


class FindingSerializer(serializers.Serializer):
    severity = serializers.ChoiceField(["error", "warning"])
    code = serializers.CharField()
    path = serializers.CharField()
    hex = serializers.CharField(allow_null=True)
    message = serializers.CharField()
