"""The job API: ask for an LOS answer, a viewshed or a whole-map analysis of a map, then follow the job.

Who may: anyone who may read the map, signed in or not (its owner, or anyone when it is published); another
user's private map does not exist for them (404), and neither do its jobs. The work is in jobs.dispatch and the
tasks; these views translate requests and answers.
"""

import mimetypes

from django.conf import settings
from django.db.models import Q
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import permissions, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.los.engine import observer_chunks
from hexside import throttles
from jobs import conf, dispatch, sweep
from jobs.models import Job
from jobs.serializers import (
    AnalysisRequestSerializer,
    DetailSerializer,
    JobAcceptedSerializer,
    JobSerializer,
    JobSummarySerializer,
    LosRequestSerializer,
    MapExportSerializer,
    ViewshedRequestSerializer,
)
from maps.models import Map

NOT_FOUND = OpenApiResponse(description="No such map (or job), or a private map of another user.")
UNAVAILABLE = OpenApiResponse(DetailSerializer, description="The job queue (broker) cannot be reached; nothing "
                                                            "was queued.")
SIGNED_OUT = OpenApiResponse(DetailSerializer, description="Not signed in, and no stored answer to give.")
THROTTLED = OpenApiResponse(DetailSerializer, description="Too many jobs started: the detail says when to try again.")
FIELD_ERRORS = OpenApiResponse(OpenApiTypes.OBJECT, description="The request is wrong: each field named with what "
                                                                "is wrong with it, e.g. {\"from\": [\"hex Z99 is "
                                                                "off the map (20 columns x 12 rows)\"]}.")


MAX_ID = 2**63 - 1  # the largest id a database column holds


def visible_jobs(user):
    """The jobs a user may see: those on maps and scenarios they may read, and their own jobs on no map."""
    from scenarios.models import Scenario

    maps = Map.objects.visible_to(user).values("pk")
    mine = Q(map__isnull=True, requested_by=user) if user.is_authenticated else Q(pk__in=[])
    scenarios = Q(map__isnull=True, scenario_id__in=Scenario.objects.visible_to(user).values("pk"))
    return (Job.objects.filter(Q(map__in=maps) | mine | scenarios).select_related("map", "requested_by")
            .defer("map__grid"))


def job_payload(job, request=None):
    return JobSerializer(job, context={"request": request}).data


SIGN_IN = ("sign in to start a job (POST /api/token/ for a token, or the admin's sign-in page); anonymous "
           "visitors get the stored answer of a question already answered on a published map")


class MapJobView(APIView):
    """POST a question about a map: 202 with the job to follow, or 200 with the job that already answered it.

    Starting a job takes a signed-in user and is throttled (hexside/throttles.py); an anonymous visitor gets the stored
    answer when there is one, and 401/403 saying why otherwise.
    """

    permission_classes = [permissions.AllowAny]
    throttle_classes = throttles.JOBS
    kind = None
    request_serializer = None

    def post(self, request, pk):
        map = get_object_or_404(Map.objects.visible_to(request.user), pk=pk)
        serializer = self.request_serializer(data=request.data, context={"grid": map.hex_grid()})
        serializer.is_valid(raise_exception=True)
        refused = self.over_limit(map)
        if refused:
            return Response(refused, status=status.HTTP_400_BAD_REQUEST)
        if not request.user.is_authenticated:
            stored = dispatch.find_same(self.kind, dict(serializer.validated_data), map, map.content_hash)
            if stored is None or stored.status != Job.Status.SUCCEEDED:
                raise NotAuthenticated(SIGN_IN)
            stored.map = map
            return Response(job_payload(stored, request), status=status.HTTP_200_OK)
        try:
            job, _ = dispatch.submit(self.kind, dict(serializer.validated_data), map=map, user=request.user,
                                           parts=self.parts(map, serializer.validated_data))
        except dispatch.BrokerUnavailable as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
        if job.status == Job.Status.SUCCEEDED:
            job.map = map
            return Response(job_payload(job, request), status=status.HTTP_200_OK)
        return Response({"job": job.pk, "url": reverse("job-detail", args=[job.pk])},
                        status=status.HTTP_202_ACCEPTED)

    def parts(self, map, parameters):
        return ()

    def over_limit(self, map):
        """{"detail", "limit"} when the job would cost more than this server allows (checked before queueing)."""
        return None


def map_job_schema(summary, description, request, example):
    return extend_schema(
        tags=["jobs"], summary=summary, description=description, request=request,
        responses={202: JobAcceptedSerializer, 200: JobSerializer, 400: FIELD_ERRORS, 401: SIGNED_OUT,
                   403: SIGNED_OUT, 404: NOT_FOUND, 429: THROTTLED, 503: UNAVAILABLE},
        examples=[OpenApiExample("Request", value=example, request_only=True),
                  OpenApiExample("Queued", value={"job": 42, "url": "/api/jobs/42/"}, response_only=True,
                                 status_codes=["202"])],
    )


SAME_REQUEST = ("The same request on the same map content answers at once with the job that already succeeded "
                "(200), or with the queued or running one (202), instead of computing it again.")


class LosJobView(MapJobView):
    kind = Job.Kind.LOS
    request_serializer = LosRequestSerializer

    @map_job_schema("Line of sight between two hexes, as a job",
                    "The result is the LOS answer with every reason (docs/los.md), exactly what `manage.py los "
                    "MAP FROM TO --json` prints. " + SAME_REQUEST, LosRequestSerializer,
                    {"from": "C4", "to": "H9", "from_level": 1, "markers": [{"hex": "E6", "kind": "smoke"}]})
    def post(self, request, pk):
        return super().post(request, pk)


class ViewshedJobView(MapJobView):
    kind = Job.Kind.VIEWSHED
    request_serializer = ViewshedRequestSerializer

    @map_job_schema("Everything one hex sees, as a job",
                    "The result is what `manage.py viewshed MAP FROM --json` prints: every hex of the map with "
                    "result, hindrances and blind. " + SAME_REQUEST, ViewshedRequestSerializer, {"from": "C4"})
    def post(self, request, pk):
        return super().post(request, pk)

    def over_limit(self, map):
        hexes, limit = map.hex_grid().size, settings.HEXSIDE_MAX_VIEWSHED_HEXES
        if hexes > limit:
            return {"detail": f"a viewshed answers every hex of the map: this map has {hexes:,} hexes, more than "
                              f"this server's limit of {limit:,} (HEXSIDE_MAX_VIEWSHED_HEXES)",
                    "limit": "HEXSIDE_MAX_VIEWSHED_HEXES"}
        return None


class AnalysisJobView(MapJobView):
    kind = Job.Kind.ANALYSIS
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

    def over_limit(self, map):
        hexes = map.hex_grid().size
        pairs, limit = hexes * (hexes - 1) // 2, settings.HEXSIDE_MAX_ANALYSIS_PAIRS
        if pairs > limit:
            return {"detail": f"a whole-map analysis answers every pair of hexes: this map's {hexes:,} hexes make "
                              f"{pairs:,} pairs, more than this server's limit of {limit:,} "
                              "(HEXSIDE_MAX_ANALYSIS_PAIRS); ask for viewsheds of the hexes you need instead",
                    "limit": "HEXSIDE_MAX_ANALYSIS_PAIRS"}
        return None


@extend_schema(tags=["jobs"])
class JobListView(ListAPIView):
    """The jobs you asked for, newest first."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = JobSummarySerializer

    def get_queryset(self):
        jobs = visible_jobs(self.request.user).filter(requested_by=self.request.user).defer("result")
        for name in ("status", "kind", "map"):
            value = self.request.query_params.get(name)
            if value:
                jobs = jobs.filter(**{name: value})
        return jobs

    @extend_schema(summary="Your jobs, newest first (without their results)", parameters=[
        OpenApiParameter("status", str, description="Only the jobs with this status: " + ", ".join(Job.Status.values)),
        OpenApiParameter("kind", str, description="Only the jobs of this kind: " + ", ".join(Job.Kind.values)),
        OpenApiParameter("map", int, description="Only the jobs about this map.")])
    def get(self, request, *args, **kwargs):
        params = request.query_params
        errors = {}
        if params.get("map") and not (params["map"].isascii() and params["map"].isdigit()
                                      and int(params["map"]) <= MAX_ID):
            errors["map"] = ["expected a map id"]
        for name, choices in (("status", Job.Status.values), ("kind", Job.Kind.values)):
            if params.get(name) and params[name] not in choices:
                errors[name] = [f"expected one of: {', '.join(choices)}"]
        if errors:
            return Response(errors, status=status.HTTP_400_BAD_REQUEST)
        return super().get(request, *args, **kwargs)


class JobDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        tags=["jobs"], summary="A job: status, progress, result or error, and whether the map has changed since",
        parameters=[OpenApiParameter("wait", float, description="Wait up to this many seconds (at most 30) for "
                                                                "the job to finish before answering.")],
        responses={200: JobSerializer, 400: FIELD_ERRORS, 404: NOT_FOUND})
    def get(self, request, pk):
        job = get_object_or_404(visible_jobs(request.user), pk=pk)
        sweep.sweep_job(job)
        wait = request.query_params.get("wait")
        if wait:
            try:
                seconds = float(wait)
            except ValueError:
                return Response({"wait": ["expected a number of seconds"]}, status=status.HTTP_400_BAD_REQUEST)
            if not 0 <= seconds:
                return Response({"wait": ["expected a number of seconds from 0"]}, status=status.HTTP_400_BAD_REQUEST)
            try:
                dispatch.wait(job, seconds)
            except Job.DoesNotExist:
                raise Http404("the job was deleted while this request waited for it") from None
        return Response(job_payload(job, request))


class JobCancelView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        tags=["jobs"], summary="Cancel a queued or running job", request=None,
        description="Who may: whoever asked for the job, the map's owner, and staff. A job that has already "
                    "finished is left as it is (409).",
        responses={200: JobSerializer, 403: DetailSerializer, 404: NOT_FOUND, 409: JobSerializer})
    def post(self, request, pk):
        job = get_object_or_404(visible_jobs(request.user), pk=pk)
        user = request.user
        allowed = user.is_authenticated and (user.is_staff or job.requested_by_id == user.pk
                                             or (job.map is not None and job.map.owner_id == user.pk))
        if not allowed:
            return Response({"detail": "only whoever asked for this job, the map's owner or staff may cancel it"},
                            status=status.HTTP_403_FORBIDDEN)
        cancelled = dispatch.cancel(job)
        job.refresh_from_db()
        return Response(job_payload(job, request), status=status.HTTP_200_OK if cancelled else status.HTTP_409_CONFLICT)


class JobFileView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(tags=["jobs"], summary="Download a job's result file (the analysis matrix as .npz, a card PDF, a map PNG)",
                   responses={(200, "application/octet-stream"): OpenApiResponse(OpenApiTypes.BINARY),
                              404: NOT_FOUND})
    def get(self, request, pk):
        job = get_object_or_404(visible_jobs(request.user), pk=pk)
        if not job.result_file:
            raise Http404("this job has no result file")
        # The name the job gave its file (a title with accents, say); Django writes it RFC 6266-safe.
        name = (job.result or {}).get("filename") if isinstance(job.result, dict) else None
        name = name or job.result_file.name.rsplit("/", 1)[-1]
        content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        return FileResponse(job.result_file.open("rb"), as_attachment=True, filename=name, content_type=content_type)


class MapExportJobView(MapJobView):
    kind = Job.Kind.EXPORT
    request_serializer = MapExportSerializer

    @map_job_schema("Export a map as a print PNG, as a job",
                    "Any dpi up to 300 for a chosen hex size, with legend and scale bar. The download is the "
                    "job's `result_file`. " + SAME_REQUEST, MapExportSerializer, {"dpi": 300, "hex_mm": 19})
    def post(self, request, pk):
        return super().post(request, pk)
