"""The scenario API under /api/scenarios/, in the shape of /api/maps/: list, create, read, publish, delete,
import, export, edits with revision, revisions and restore (its jobs are in scenarios/jobs.py).

Who may do what is as for maps: everyone reads published scenarios; owners read, edit and delete their own;
another user's private scenario does not exist for anyone else (404); another's published one can be read,
not changed (403). The work is done in scenarios.models and engine.scenarios.edits.
"""

from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from engine import mapfile
from engine.scenarios import edits, scenariofile
from hexside import throttles
from hexside.parsers import StrictJSONParser
from maps.api import (
    IsOwnerOrReadOnly,
    conflict_response,
    edit_errors_response,
    edit_request_problems,
    errors_response,
    problem,
    revisions_response,
    uploaded,
)
from maps.serializers import (
    ConflictSerializer,
    EditErrorsSerializer,
    EditResultSerializer,
    ErrorsSerializer,
    RestoreRequestSerializer,
    edit_result,
)
from scenarios.models import (
    Scenario,
    ScenarioRevision,
    StaleRevision,
    apply_edits,
    library_maps,
    restore_revision,
)
from scenarios.serializers import (
    ScenarioCreateSerializer,
    ScenarioDetailSerializer,
    ScenarioEditRequestSerializer,
    ScenarioImportSerializer,
    ScenarioRevisionDetailSerializer,
    ScenarioRevisionSerializer,
    ScenarioSerializer,
    ScenarioUpdateSerializer,
)

CREATE_KEYS = ("document", "title", "ruleset", "map", "published")
NOT_FOUND = OpenApiResponse(description="No such scenario, or a private scenario of another user.")
FORBIDDEN = OpenApiResponse(description="Not your scenario (or not signed in): it can be read, not changed.")


def doc_from_request(data, user):
    """The ScenarioDoc a create request describes: a whole scenario file, or a blank scenario on a map."""
    if not isinstance(data, dict):
        raise scenariofile.ScenarioFormatError([problem("$", "expected an object")])
    found = [problem(key, f"unknown key {key!r}; expected one of: {', '.join(CREATE_KEYS)}")
             for key in data if key not in CREATE_KEYS]
    if "published" in data and not isinstance(data["published"], bool):
        found.append(problem("published", "expected true or false"))
    if "document" in data:
        found.extend(problem(key, "give either a whole scenario file in 'document' or title, ruleset and map for "
                                  "a blank scenario, not both") for key in ("title", "ruleset", "map") if key in data)
        source, prefix = data["document"], "document."
    else:
        prefix = ""
        source = {"format": scenariofile.FORMAT, "version": scenariofile.VERSION, "title": data.get("title", ""),
                  "ruleset": data.get("ruleset", "")}
        if "map" not in data:
            found.append(problem("map", "is required: the id of the map the scenario is played on"))
        else:
            source["maps"] = [{"key": "main", "id": data["map"]}]
            if "ruleset" not in data:
                try:
                    source["ruleset"] = library_maps(user)({"id": data["map"]}).ruleset
                except (scenariofile.MapLookupError, TypeError, ValueError):
                    pass  # the map entry's own reading says what is wrong
    try:
        doc = scenariofile.parse(source, library_maps(user))
    except scenariofile.ScenarioFormatError as exc:
        found.extend(mapfile.Finding(prefix + f.path if f.path != "$" else (prefix[:-1] or "$"), f.message,
                                          f.hex) for f in exc.errors)
        doc = None
    if found:
        raise scenariofile.ScenarioFormatError(found)
    return doc


@extend_schema(tags=["scenarios"])
class ScenarioViewSet(viewsets.ModelViewSet):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, IsOwnerOrReadOnly]

    def get_throttles(self):
        if self.action in ("create", "import_file"):
            return [throttle() for throttle in throttles.IMPORTS]
        return super().get_throttles()
    lookup_value_regex = r"\d+"

    def get_queryset(self):
        scenarios = Scenario.objects.visible_to(self.request.user).select_related("owner")
        if self.action in ("list", "edits", "restore", "revisions", "revision", "destroy"):
            scenarios = scenarios.defer("document")
        return scenarios

    def get_serializer_class(self):
        if self.action == "list":
            return ScenarioSerializer
        if self.action in ("update", "partial_update"):
            return ScenarioUpdateSerializer
        return ScenarioDetailSerializer

    @extend_schema(summary="The scenarios you may see: your own and the published ones")
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @extend_schema(
        summary="Create a scenario, from a scenario file or blank on a map",
        request=ScenarioCreateSerializer,
        responses={201: ScenarioDetailSerializer, 400: ErrorsSerializer},
        examples=[OpenApiExample("Blank scenario", request_only=True,
                                 value={"title": "Hill 112", "ruleset": "ost", "map": 1})],
    )
    def create(self, request, *args, **kwargs):
        try:
            data = request.data
            doc = doc_from_request(data, request.user)
        except ParseError as exc:
            return errors_response([problem("$", str(exc.detail))])
        except scenariofile.ScenarioFormatError as exc:
            return errors_response(exc.errors)
        scenario = Scenario.objects.create_from_doc(
            request.user, doc, published=data.get("published", False),
            summary="created from a scenario file" if "document" in data else "created")
        return Response(ScenarioDetailSerializer(scenario).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="A scenario, with its document",
                   responses={200: ScenarioDetailSerializer, 404: NOT_FOUND})
    def retrieve(self, request, *args, **kwargs):
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(summary="Retitle or (un)publish a scenario",
                   responses={200: ScenarioDetailSerializer, 403: FORBIDDEN, 404: NOT_FOUND})
    def update(self, request, *args, **kwargs):
        partial = kwargs.pop("partial", False)
        scenario = self.get_object()
        serializer = ScenarioUpdateSerializer(scenario, data=request.data, partial=partial,
                                              context={"request": request})
        serializer.is_valid(raise_exception=True)
        try:
            scenario = serializer.save()
        except edits.EditError as exc:
            return Response({"title": [p.message for p in exc.errors]}, status=status.HTTP_400_BAD_REQUEST)
        return Response(ScenarioDetailSerializer(scenario).data)

    @extend_schema(summary="Retitle or (un)publish a scenario",
                   responses={200: ScenarioDetailSerializer, 403: FORBIDDEN, 404: NOT_FOUND})
    def partial_update(self, request, *args, **kwargs):
        return self.update(request, *args, partial=True, **kwargs)

    @extend_schema(summary="Delete a scenario and its history",
                   responses={204: None, 403: FORBIDDEN, 404: NOT_FOUND})
    def destroy(self, request, *args, **kwargs):
        return super().destroy(request, *args, **kwargs)

    @extend_schema(
        summary="Import a scenario file",
        description="The scenario file as a multipart upload in `file`, or as the JSON body itself. Maps named by "
                    "id or name must be ones you may read. Every problem in the file is reported; nothing is saved "
                    "unless the whole file reads.",
        request={"multipart/form-data": ScenarioImportSerializer, "application/json": OpenApiTypes.OBJECT},
        parameters=[OpenApiParameter("published", bool, description="Publish the imported scenario.")],
        responses={201: ScenarioDetailSerializer, 400: ErrorsSerializer},
    )
    @action(detail=False, methods=["post"], url_path="import", url_name="import",
            parser_classes=[MultiPartParser, FormParser, StrictJSONParser])
    def import_file(self, request):
        try:
            content, published = uploaded(request, "scenario")
            doc = scenariofile.parse(content, library_maps(request.user))
        except mapfile.FormatError as exc:
            return errors_response(exc.errors)
        scenario = Scenario.objects.create_from_doc(request.user, doc, published=published,
                                                    summary="imported from a scenario file")
        return Response(ScenarioDetailSerializer(scenario).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="Download the scenario file",
                   responses={(200, "application/json"): OpenApiResponse(OpenApiTypes.OBJECT,
                                                                          description="The scenario file."),
                              404: NOT_FOUND})
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        scenario = self.get_object()
        try:
            text = scenario.export()
        except scenariofile.ScenarioFormatError as exc:
            return errors_response(exc.errors, status.HTTP_409_CONFLICT)
        response = HttpResponse(text, content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{scenario.filename()}"'
        response["ETag"] = f'"{scenario.content_hash}"'
        return response

    @extend_schema(
        summary="Apply edit operations, all or nothing",
        description="Operations: set, insert, remove and move at a JSON path of the scenario file (docs/api.md). "
                    "`revision` is the revision the edits were made on: if the scenario has moved on since, nothing "
                    "is written and the answer is 409 with the current revision. The edited file is read whole "
                    "again: any problem rejects every operation (400, each with its path).",
        request=ScenarioEditRequestSerializer,
        responses={200: EditResultSerializer, 400: EditErrorsSerializer, 403: FORBIDDEN, 404: NOT_FOUND,
                   409: ConflictSerializer},
        examples=[OpenApiExample("Add a unit and place it", request_only=True, value={
            "revision": 3, "operations": [
                {"op": "insert", "path": "sides[0].oob", "value": {"id": "rifle", "unit": "Rifle Squad", "count": 2}},
                {"op": "insert", "path": "sides[0].placements", "value": {"unit": "rifle", "hex": "C4"}}]})],
    )
    @action(detail=True, methods=["post"])
    def edits(self, request, pk=None):
        scenario = self.get_object()
        data = request.data
        found = edit_request_problems(data)
        if found:
            return edit_errors_response(found)
        try:
            new = apply_edits(scenario.pk, request.user, data["revision"], data.get("operations"))
        except StaleRevision as exc:
            return conflict_response(data["revision"], exc.current)
        except edits.EditError as exc:
            return edit_errors_response(exc.errors)
        return Response(edit_result(new))

    @extend_schema(summary="The scenario's revisions, newest first",
                   responses={200: ScenarioRevisionSerializer(many=True), 404: NOT_FOUND})
    @action(detail=True, methods=["get"])
    def revisions(self, request, pk=None):
        return revisions_response(self, self.get_object(), ScenarioRevisionSerializer)

    @extend_schema(summary="One revision, with its document",
                   responses={200: ScenarioRevisionDetailSerializer, 404: NOT_FOUND})
    @action(detail=True, methods=["get"], url_path=r"revisions/(?P<number>\d+)", url_name="revision")
    def revision(self, request, pk=None, number=None):
        scenario = self.get_object()
        try:
            revision = scenario.revisions.select_related("author").get(number=number)
        except ScenarioRevision.DoesNotExist:
            raise Http404(f"scenario {scenario.pk} has no revision {number}") from None
        return Response(ScenarioRevisionDetailSerializer(revision).data)

    @extend_schema(summary="Bring an earlier revision back, as a new revision", request=RestoreRequestSerializer,
                   responses={200: EditResultSerializer, 400: ErrorsSerializer, 403: FORBIDDEN, 404: NOT_FOUND,
                              409: ConflictSerializer})
    @action(detail=True, methods=["post"], url_path=r"revisions/(?P<number>\d+)/restore", url_name="restore")
    def restore(self, request, pk=None, number=None):
        scenario = self.get_object()
        serializer = RestoreRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        revision = serializer.validated_data.get("revision")
        try:
            new = restore_revision(scenario.pk, request.user, int(number), revision)
        except StaleRevision as exc:
            return conflict_response(revision, exc.current)
        except ScenarioRevision.DoesNotExist:
            raise Http404(f"scenario {scenario.pk} has no revision {number}") from None
        except scenariofile.ScenarioFormatError as exc:
            return errors_response(exc.errors)
        return Response(edit_result(new))
