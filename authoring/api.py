"""The scenario API under /api/scenarios/, in the shape of /api/maps/: list, create, read, publish, delete,
import, export, edits with revision, revisions and restore (its jobs are in authoring/jobs.py).

Who may do what is as for maps, with editors: everyone reads published scenarios; owners read, edit and delete
their own; an editor the owner named (ScenarioEditor) reads and edits it (its document, its revisions, its
title) but does not delete, publish or unpublish it or name its editors; another user's private scenario does
not exist for anyone else (404); another's published one can be read, not changed (403). The work is done in
scenarios.models and engine.scenarios.edits.
"""

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from authoring import scenario_maps
from authoring.models import Scenario, library_maps
from authoring.readers import is_owner, may_edit, sides_for
from authoring.serializers import (
    ScenarioCreateSerializer,
    ScenarioDetailSerializer,
    ScenarioEditorAddSerializer,
    ScenarioEditorSerializer,
    ScenarioEditRequestSerializer,
    ScenarioImportSerializer,
    ScenarioRevisionDetailSerializer,
    ScenarioRevisionSerializer,
    ScenarioSerializer,
    ScenarioUpdateSerializer,
)
from documents import views as documents_views
from documents.serializers import (
    ConflictSerializer,
    EditResultSerializer,
    RestoreRequestSerializer,
    request_data,
    uploaded,
)
from documents.views import DocumentViewSetMixin, download
from engine.scenarios import scenariofile
from maps.serializers import EditErrorsSerializer, ErrorsSerializer
from web import throttles
from web.parsers import StrictJSONParser
from web.responses import errors_response

NOT_FOUND = OpenApiResponse(description="No such scenario, or a private scenario of another user.")
FORBIDDEN = OpenApiResponse(description="Not your scenario (or not signed in): it can be read, not changed.")
OWNERS_ONLY = OpenApiResponse(description="Only the scenario's owner may do this (an editor may not).")
USERNAME_ERRORS = OpenApiResponse(OpenApiTypes.OBJECT, description="The username is wrong, e.g. {\"username\": "
                                                                   "[\"there is no user 'bob'\"]}.")


class MayChangeScenario(permissions.BasePermission):
    """Reading is for whoever may see the scenario; changing its document (edits, restore, title) is for its owner
    and its editors; deleting it, (un)publishing it and naming its editors are its owner's alone."""

    OWNERS_ACTIONS = ("destroy", "editors", "editor")

    def has_object_permission(self, request, view, obj):
        if request.method in permissions.SAFE_METHODS:
            return True
        if view.action in self.OWNERS_ACTIONS:
            return is_owner(request.user, obj)
        return may_edit(request.user, obj)


@extend_schema(tags=["scenarios"])
class ScenarioViewSet(DocumentViewSetMixin, viewsets.ModelViewSet):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, MayChangeScenario]

    def may_edit(self, request, document):
        return may_edit(request.user, document)
    revision_serializer = ScenarioRevisionSerializer
    revision_detail_serializer = ScenarioRevisionDetailSerializer

    def get_throttles(self):
        if self.action in ("create", "import_file"):
            return [throttle() for throttle in throttles.IMPORTS]
        return super().get_throttles()
    lookup_value_regex = r"\d+"

    def get_queryset(self):
        return Scenario.objects.visible_to(self.request.user).select_related("owner")

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
        serializer = ScenarioCreateSerializer(data=request_data(request), context={"request": request})
        serializer.is_valid(raise_exception=True)
        created = serializer.save()
        return Response(ScenarioDetailSerializer(created, context={"request": request}).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(summary="A scenario, with its document",
                   responses={200: ScenarioDetailSerializer, 404: NOT_FOUND})
    def retrieve(self, request, *args, **kwargs):
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(summary="Retitle or (un)publish a scenario",
                   description="A scenario is published only with every map it names: `publish_maps` publishes "
                               "your private ones with it; otherwise each private map is a 400 error at "
                               "`published`. An editor may retitle it; only its owner (un)publishes it.",
                   responses={200: ScenarioDetailSerializer, 403: FORBIDDEN, 404: NOT_FOUND})
    def update(self, request, *args, **kwargs):
        partial = kwargs.pop("partial", False)
        scenario = self.get_object()
        if not is_owner(request.user, scenario) and isinstance(request.data, dict) and (
                {"published", "publish_maps"} & set(request.data)):
            raise PermissionDenied("only the scenario's owner may publish or unpublish it; an editor may retitle it")
        serializer = ScenarioUpdateSerializer(scenario, data=request.data, partial=partial,
                                              context={"request": request})
        serializer.is_valid(raise_exception=True)
        return Response(ScenarioDetailSerializer(serializer.save(), context={"request": request}).data)

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
        content, published = uploaded(request, "scenario")
        doc = scenariofile.parse(content, library_maps(request.user))
        scenario = Scenario.objects.create_from_doc(request.user, doc, published=published,
                                                    summary="imported from a scenario file")
        return Response(ScenarioDetailSerializer(scenario, context={"request": request}).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(summary="Download the scenario file",
                   responses={(200, "application/json"): OpenApiResponse(OpenApiTypes.OBJECT,
                                                                          description="The scenario file."),
                              403: OpenApiResponse(ErrorsSerializer, description="A map it names is not yours to "
                                                                                 "read (each entry's path)."),
                              404: NOT_FOUND, 409: ErrorsSerializer})
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        scenario = self.get_object()
        try:
            text = scenario.export(request.user, sides_for(request, scenario))
        except scenario_maps.MapsUnreadable as exc:
            return errors_response(exc.errors, status.HTTP_403_FORBIDDEN)
        except scenariofile.ScenarioFormatError as exc:
            return errors_response(exc.errors, status.HTTP_409_CONFLICT)
        return download(scenario, text, "scenario.json")

    @extend_schema(
        summary="One of the scenario's maps as its special rules change it",
        description="The map file of the scenario's map entry `key`, with the terrain changes its special rules "
                    "carry made (docs/scenario-format.md, \"Special rules that change the terrain\"): the map the "
                    "editor draws and the scenario's LOS, checks and card read. A map no rule changes comes back "
                    "as it is.",
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="{\"key\": ..., \"document\": the map "
                                                                         "file}"),
                   403: OpenApiResponse(ErrorsSerializer, description="A map it names is not yours to read."),
                   404: NOT_FOUND, 409: ErrorsSerializer},
    )
    @action(detail=True, methods=["get"], url_path=r"maps/(?P<key>[A-Za-z0-9][A-Za-z0-9_.-]{0,63})",
            url_name="map")
    def changed_map(self, request, pk=None, key=None):
        scenario = self.get_object()
        try:
            document = scenario_maps.changed_map(scenario, request.user, key)
        except scenario_maps.MapsUnreadable as exc:
            return errors_response(exc.errors, status.HTTP_403_FORBIDDEN)
        except scenariofile.ScenarioFormatError as exc:
            return errors_response(exc.errors, status.HTTP_409_CONFLICT)
        if document is None:
            raise Http404(f"this scenario has no map {key!r}")
        return Response({"key": key, "document": document})

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
    @action(detail=True, methods=["post"], parser_classes=[StrictJSONParser])  # operations are JSON
    def edits(self, request, pk=None):
        return documents_views.edit(self, request)

    @extend_schema(
        summary="Your undo and redo history on this scenario, rebuilt from its revisions",
        description="Your own recent edits (the last 200 revisions are looked at, 50 entries a stack, top last), "
                    "each with the operations that undo it on the current scenario: the page's Undo and Redo after a "
                    "reload or in another tab. Send them as an edit with `undoes` set to the entry's revision. "
                    "Empty for whoever may not edit the scenario. See docs/painter.md.",
        responses={200: OpenApiTypes.OBJECT, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get"])
    def undo(self, request, pk=None):
        return self.undo_history(request)

    @extend_schema(summary="The scenario's revisions, newest first",
                   responses={200: ScenarioRevisionSerializer(many=True), 404: NOT_FOUND})
    @action(detail=True, methods=["get"])
    def revisions(self, request, pk=None):
        return self.history()

    @extend_schema(summary="One revision, with its document",
                   responses={200: ScenarioRevisionDetailSerializer, 404: NOT_FOUND})
    @action(detail=True, methods=["get"], url_path=r"revisions/(?P<number>\d+)", url_name="revision")
    def revision(self, request, pk=None, number=None):
        return self.one_revision(number)

    @extend_schema(summary="Bring an earlier revision back, as a new revision", request=RestoreRequestSerializer,
                   responses={200: EditResultSerializer, 403: FORBIDDEN, 404: NOT_FOUND, 409: ConflictSerializer})
    @action(detail=True, methods=["post"], url_path=r"revisions/(?P<number>\d+)/restore", url_name="restore")
    def restore(self, request, pk=None, number=None):
        return self.restore_to(request, number)


    @extend_schema(methods=["GET"], summary="The scenario's editors (for its owner and its editors)",
                   responses={200: ScenarioEditorSerializer(many=True), 403: FORBIDDEN, 404: NOT_FOUND})
    @extend_schema(methods=["POST"], summary="Make a user an editor of your scenario",
                   description="An editor reads everything of the scenario, every side's private part included, "
                               "and may edit its document, restore a revision and retitle it; it may not delete, "
                               "publish or unpublish it, make side links or name editors. Owner only.",
                   request=ScenarioEditorAddSerializer,
                   responses={201: ScenarioEditorSerializer, 400: USERNAME_ERRORS, 403: OWNERS_ONLY,
                              404: NOT_FOUND})
    @action(detail=True, methods=["get", "post"], parser_classes=[StrictJSONParser])
    def editors(self, request, pk=None):
        scenario = self.get_object()
        if request.method == "GET":
            if not may_edit(request.user, scenario):
                raise PermissionDenied("only the scenario's owner and its editors see who its editors are")
            editors = scenario.editors.select_related("user")
            page = self.paginate_queryset(editors)
            if page is not None:
                return self.get_paginated_response(ScenarioEditorSerializer(page, many=True).data)
            return Response(ScenarioEditorSerializer(editors, many=True).data)
        serializer = ScenarioEditorAddSerializer(data=request.data, context={"scenario": scenario})
        serializer.is_valid(raise_exception=True)
        return Response(ScenarioEditorSerializer(serializer.save()).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="Remove an editor from your scenario (owner only)",
                   responses={204: None, 403: OWNERS_ONLY, 404: NOT_FOUND})
    @action(detail=True, methods=["delete"], url_path=r"editors/(?P<username>[^/]+)", url_name="editor")
    def editor(self, request, pk=None, username=None):
        scenario = self.get_object()
        editor = scenario.editors.filter(user__username=username).first()
        if editor is None:
            raise Http404(f"{username} is not an editor of this scenario")
        editor.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
