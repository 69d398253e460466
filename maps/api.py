"""The map API under /api/: maps, their files, edits and history, and the rulesets a map can use.

Who may do what: everyone reads published maps; owners read, edit and delete their own. Another user's private
map does not exist as far as anyone else can tell (404); another user's published map can be read but not
changed (403). The work is done by documents.writing (with maps.writes) and engine.edits; these views translate
requests and answers.
"""

from django.http import FileResponse, Http404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from documents import views as documents_views
from documents.serializers import Problems, published_flag, request_data, uploaded
from documents.views import DocumentViewSetMixin, download
from engine import mapfile, rulesets
from engine.rulesets.capabilities import capabilities
from jobs import dispatch
from maps import bodies, dependents, findings, scans
from maps.findings import CheckingSerializer, FindingsPageSerializer
from maps.models import Map, attach_scan
from maps.serializers import (
    BackgroundResultSerializer,
    BackgroundUploadSerializer,
    ConflictSerializer,
    EditErrorsSerializer,
    EditRequestSerializer,
    EditResultSerializer,
    ErrorsSerializer,
    MapCreateSerializer,
    MapDetailSerializer,
    MapImportSerializer,
    MapRevisionDetailSerializer,
    MapRevisionSerializer,
    MapSerializer,
    MapUpdateSerializer,
    RestoreRequestSerializer,
    RulesetSerializer,
    edit_result,
)
from web import throttles
from web.parsers import StrictJSONParser
from web.permissions import IsOwnerOrReadOnly
from web.responses import errors_response

__all__ = ["MapViewSet", "RulesetViewSet", "doc_from_request"]

NOT_FOUND = OpenApiResponse(description="No such map, or a private map of another user.")
FORBIDDEN = OpenApiResponse(description="Not your map (or not signed in): it can be read, not changed.")


def doc_from_request(data):
    """The MapDoc a create request describes (MapCreateSerializer), for the site's form; MapFormatError with every
    finding otherwise."""
    try:
        return MapCreateSerializer().to_internal_value(data)["doc"]
    except Problems as exc:
        raise mapfile.MapFormatError(exc.findings) from None


@extend_schema(tags=["maps"])
class MapViewSet(DocumentViewSetMixin, viewsets.ModelViewSet):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, IsOwnerOrReadOnly]
    lookup_value_regex = r"\d+"
    revision_serializer = MapRevisionSerializer
    revision_detail_serializer = MapRevisionDetailSerializer

    def get_queryset(self):
        maps = Map.objects.visible_to(self.request.user).select_related("owner")
        return maps

    def get_throttles(self):
        if self.action in ("create", "import_file") or (self.action == "background" and self.request.method == "POST"):
            return [throttle() for throttle in throttles.IMPORTS]  # a scan upload costs a decode, as an import
        if self.action == "findings":  # checked on the request for a small map not checked yet
            return [throttle() for throttle in throttles.FINDINGS]
        return super().get_throttles()

    def get_serializer_class(self):
        if self.action == "list":
            return MapSerializer
        if self.action in ("update", "partial_update"):
            return MapUpdateSerializer
        return MapDetailSerializer

    @extend_schema(summary="The maps you may see: your own and the published ones")
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @extend_schema(
        summary="Create a map, from a map file or blank",
        request=MapCreateSerializer,
        responses={201: MapDetailSerializer, 400: ErrorsSerializer},
        examples=[
            OpenApiExample("Blank map", request_only=True, value={
                "name": "Hill 112", "ruleset": "ost",
                "grid": {"orientation": "flat", "columns": 20, "rows": 12, "stagger": "even",
                         "labels": "letter-number"}}),
        ],
    )
    def create(self, request, *args, **kwargs):
        serializer = MapCreateSerializer(data=request_data(request), context={"request": request})
        serializer.is_valid(raise_exception=True)
        return Response(MapDetailSerializer(serializer.save()).data, status=status.HTTP_201_CREATED)

    @extend_schema(summary="A map, with its document", responses={200: MapDetailSerializer, 404: NOT_FOUND})
    def retrieve(self, request, *args, **kwargs):
        map = self.get_object()
        if request.accepted_renderer.format != "json":  # the browsable API renders its page as DRF does
            return Response(MapDetailSerializer(map).data)
        return bodies.detail_response(request, map, MapSerializer(map).data)

    @extend_schema(summary="Rename or (un)publish a map",
                   responses={200: MapDetailSerializer, 403: FORBIDDEN, 404: NOT_FOUND})
    def update(self, request, *args, **kwargs):
        partial = kwargs.pop("partial", False)
        map = self.get_object()
        serializer = MapUpdateSerializer(map, data=request.data, partial=partial, context={"request": request})
        serializer.is_valid(raise_exception=True)
        return Response(MapDetailSerializer(serializer.save()).data)

    @extend_schema(summary="Rename or (un)publish a map",
                   responses={200: MapDetailSerializer, 403: FORBIDDEN, 404: NOT_FOUND})
    def partial_update(self, request, *args, **kwargs):
        return self.update(request, *args, partial=True, **kwargs)

    @extend_schema(summary="Delete a map and its history",
                   description="If scenarios of yours name the map, nothing is deleted (409, naming them) unless "
                               "`with_scenarios=true` (they are deleted with it) or `keep_scenarios=true` (each "
                               "keeps the map embedded), in one transaction. Other users' scenarios on it stay, "
                               "and say their map is gone.",
                   parameters=[OpenApiParameter("with_scenarios", bool,
                                                description="Delete your scenarios on the map with it."),
                               OpenApiParameter("keep_scenarios", bool,
                                                description="Keep your scenarios on the map, the map embedded.")],
                   responses={204: None, 403: FORBIDDEN, 404: NOT_FOUND, 409: ErrorsSerializer})
    def destroy(self, request, *args, **kwargs):
        map = self.get_object()
        try:
            dependents.delete_map(map, published_flag(request.query_params.get("with_scenarios")),
                                  published_flag(request.query_params.get("keep_scenarios")))
        except dependents.MapInUse as exc:
            return errors_response([mapfile.Finding("with_scenarios", str(exc), code="map-in-use")],
                                   status.HTTP_409_CONFLICT)
        except dependents.NotKept as exc:
            return errors_response([mapfile.Finding("keep_scenarios", str(exc), code="not-kept")],
                                   status.HTTP_409_CONFLICT)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary="Import a map file",
        description="The map file as a multipart upload in `file`, or as the JSON body itself. `published` may "
                    "be given as a form field or a query parameter. Every problem in the file is reported.",
        request={"multipart/form-data": MapImportSerializer, "application/json": OpenApiTypes.OBJECT},
        parameters=[OpenApiParameter("published", bool, description="Publish the imported map.")],
        responses={201: MapDetailSerializer, 400: ErrorsSerializer},
    )
    @action(detail=False, methods=["post"], url_path="import", url_name="import",
            parser_classes=[MultiPartParser, FormParser, StrictJSONParser])
    def import_file(self, request):
        content, published = uploaded(request, "map")
        doc = mapfile.parse(content)
        map = Map.objects.create_from_doc(request.user, doc, published=published, summary="imported from a map file")
        return Response(MapDetailSerializer(map).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Download the map file",
        responses={(200, "application/json"): OpenApiResponse(OpenApiTypes.OBJECT, description="The map file."),
                   404: NOT_FOUND},
    )
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        map = self.get_object()
        return download(map, map.export(), "map.json")

    @extend_schema(
        summary="Apply edit operations, all or nothing",
        description="Operations are listed in docs/api.md. `revision` is the revision the edits were made on: "
                    "if the map has moved on since, nothing is written and the answer is 409 with the current "
                    "revision. One bad operation rejects them all (400, each problem naming its operation).",
        request=EditRequestSerializer,
        responses={200: EditResultSerializer, 400: EditErrorsSerializer, 403: FORBIDDEN, 404: NOT_FOUND,
                   409: ConflictSerializer},
        examples=[OpenApiExample("Paint woods and set a hedge", request_only=True, value={
            "revision": 3,
            "operations": [{"op": "set_terrain", "hexes": ["C4", "C5", [3, 4]], "terrain": ["woods"]},
                           {"op": "set_hexside", "hex": "C4", "side": "SE", "terrain": "hedge"}]})],
    )
    @action(detail=True, methods=["post"], parser_classes=[StrictJSONParser])  # operations are JSON
    def edits(self, request, pk=None):
        return documents_views.edit(self, request)

    @extend_schema(
        summary="The map's findings, a page at a time: the format's warnings and its game's rules checks",
        description="Each finding as `validate_map --json` gives it (severity, code, where, message) with its "
                    "JSON path, the hex's label and, for a hexside, the side of that hex, in pages (`page` from "
                    "1, `page_size` up to 1000, default 1000), each with the counts by severity and by kind. "
                    "They are checked once per map content and kept; a map of more than "
                    "HEXSIDE_FINDINGS_WAIT_HEXES hexes is checked by a `map-findings` job, and until it is done "
                    "the answer is 202 with the job (503 if that job failed within the hour: not started again "
                    "for each visitor). A page that is not there is a 400 naming it. A small "
                    "sample of LOS answers is checked for reciprocity. See docs/validation.md. Rate-limited (429 "
                    "with Retry-After past HEXSIDE_THROTTLE_FINDINGS).",
        parameters=[OpenApiParameter("page", int, description="The page, from 1."),
                    OpenApiParameter("page_size", int, description="Findings a page, 1 to 1000 (default 1000).")],
        responses={200: FindingsPageSerializer, 202: CheckingSerializer, 400: ErrorsSerializer, 404: NOT_FOUND,
                   429: OpenApiResponse(description="Too many findings asked for this minute."),
                   503: OpenApiTypes.OBJECT},
    )
    @action(detail=True, methods=["get"])
    def findings(self, request, pk=None):
        try:
            found = findings.map_findings(self.get_object(), request.user)
        except findings.Checking as exc:
            return Response({"detail": "the map is being checked; ask again in a moment", "job": exc.job.pk,
                             "url": reverse("job-detail", args=[exc.job.pk])},
                            status=status.HTTP_202_ACCEPTED, headers={"Retry-After": "5"})
        except dispatch.BrokerUnavailable:
            return Response({"detail": "the map's checks cannot be started just now; try again later"},
                            status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "30"})
        paginator = findings.FindingsPagination()
        page = paginator.paginate_queryset(found, request, view=self)
        return paginator.get_paginated_response(page)

    @extend_schema(
        summary="Your undo and redo history on this map, rebuilt from its revisions",
        description="Your own recent edits (the last 200 revisions are looked at, 50 entries a stack, top last), "
                    "each with the operations that undo it on the current map: the page's Undo and Redo after a "
                    "reload or in another tab. Send them as an edit with `undoes` set to the entry's revision. "
                    "Empty for whoever may not edit the map. See docs/painter.md.",
        responses={200: OpenApiTypes.OBJECT, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get"])
    def undo(self, request, pk=None):
        return self.undo_history(request)

    @extend_schema(summary="The map's revisions, newest first", responses={200: MapRevisionSerializer(many=True),
                                                                           404: NOT_FOUND})
    @action(detail=True, methods=["get"])
    def revisions(self, request, pk=None):
        return self.history()

    @extend_schema(summary="One revision, with its document",
                   responses={200: MapRevisionDetailSerializer, 404: NOT_FOUND})
    @action(detail=True, methods=["get"], url_path=r"revisions/(?P<number>\d+)", url_name="revision")
    def revision(self, request, pk=None, number=None):
        return self.one_revision(number)

    @extend_schema(
        summary="Bring an earlier revision back, as a new revision",
        request=RestoreRequestSerializer,
        responses={200: EditResultSerializer, 403: FORBIDDEN, 404: NOT_FOUND, 409: ConflictSerializer},
    )
    @action(detail=True, methods=["post"], url_path=r"revisions/(?P<number>\d+)/restore", url_name="restore")
    def restore(self, request, pk=None, number=None):
        return self.restore_to(request, number)

    @extend_schema(summary="The map's current revision, for pages that follow a map being edited",
                   description="Cheap enough to ask every few seconds: it reads two columns.",
                   responses={200: OpenApiTypes.OBJECT, 404: NOT_FOUND})
    @action(detail=True, methods=["get"])
    def current(self, request, pk=None):
        return self.current_revision()

    @extend_schema(
        methods=["GET"], summary="Download the board scan under the map",
        responses={**{(200, media): OpenApiResponse(OpenApiTypes.BINARY) for media in scans.CONTENT_TYPES.values()},
                   404: OpenApiResponse(description="No such map, a private map of another user, or no board scan.")},
    )
    @extend_schema(
        methods=["POST"], summary="Upload a new board scan under the map",
        description="POST a PNG or JPEG as multipart `image` (optional `revision`: the revision the page saw). "
                    "It is decoded whole with Pillow within the size and pixel limits (a file with bytes after "
                    "its image's end, or cut short, is refused), written again (no metadata kept), counted "
                    "against your storage quota, stored beside the map, and named in the map's `background` "
                    "entry (a new revision), fitted to the whole grid and half faded; align it afterwards with "
                    "the `set_background` edit operation. The scan it replaces is deleted.",
        request={"multipart/form-data": BackgroundUploadSerializer},
        responses={200: BackgroundResultSerializer, 400: ErrorsSerializer, 403: FORBIDDEN, 404: NOT_FOUND,
                   409: ConflictSerializer},
    )
    @action(detail=True, methods=["get", "post"], parser_classes=[MultiPartParser, FormParser])
    def background(self, request, pk=None):
        map = self.get_object()
        if request.method == "GET":
            entry = map.mapdoc().background or {}
            path = scans.path_of(map.pk, entry.get("image"))
            if path is None:
                raise Http404(f"map {map.pk} has no board scan")
            response = FileResponse(open(path, "rb"), content_type=  # noqa: SIM115 - FileResponse closes it
                                    scans.CONTENT_TYPES.get(path.suffix[1:]))
            response["Cache-Control"] = "private, max-age=31536000, immutable"  # the name is the content's hash
            return response
        serializer = BackgroundUploadSerializer(data=request_data(request))
        serializer.is_valid(raise_exception=True)
        scan = serializer.validated_data
        new, entry = attach_scan(map, scan["image"], scan["extension"], scan["size"], request.user,
                                  scan["revision"])
        return Response({**edit_result(new), "background": entry, "size": list(scan["size"])})


# -- rulesets --------------------------------------------------------------------------------------------

def ruleset_payload(ruleset):
    """The catalogue as data (its scenario fields and table scale included), what the game lets the editor offer
    (its capabilities) and, for a game measured in inches, the inches per hex at the catalogue's own hex size, so
    pages read the rules rather than repeat them."""
    inches = ruleset.inches_per_hex()
    data = ruleset.as_dict()
    return {"id": ruleset.id, "custom": not ruleset.builtin, "ruleset": data,
            "capabilities": capabilities(data), "inches_per_hex": inches[0] if inches else None}


@extend_schema(tags=["rulesets"])
class RulesetViewSet(viewsets.ViewSet):
    """The rulesets maps can name: the built-in ones and the ones designers added."""

    permission_classes = [permissions.AllowAny]
    lookup_value_regex = r"[a-z0-9][a-z0-9_-]*"

    @extend_schema(summary="Every ruleset", responses={200: RulesetSerializer(many=True)})
    def list(self, request):
        return Response([ruleset_payload(r) for r in sorted(rulesets.all_rulesets(), key=lambda r: r.id)])

    @extend_schema(summary="One ruleset", responses={200: RulesetSerializer, 404: OpenApiResponse(
        description="No such ruleset.")})
    def retrieve(self, request, pk=None):
        try:
            ruleset = rulesets.get(pk)
        except KeyError:
            raise Http404(f"no ruleset {pk!r}") from None
        return Response(ruleset_payload(ruleset))
