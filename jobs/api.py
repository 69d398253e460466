"""The job API that every kind shares: follow a job, list your jobs, cancel one, download its file; and the base of
the apps' views that start a job about one of their subjects (maps/jobs.py, authoring/jobs.py).

Who may read a job: whoever may read its subject (a map, a scenario: its app says, jobs.subjects), signed in or
not; another user's private map does not exist for them (404), and neither do its jobs. A job about no subject is
its requester's alone. The work is in jobs.dispatch and the apps' tasks; these views translate requests and
answers.
"""

import mimetypes

from asgiref.sync import sync_to_async
from django.db import connections
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
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from jobs import conf, dispatch, limits, subjects, sweep, waiting
from jobs.models import Job
from jobs.serializers import (
    DetailSerializer,
    JobAcceptedSerializer,
    JobFilterSerializer,
    JobSerializer,
    JobSummarySerializer,
)
from web import throttles

NOT_FOUND = OpenApiResponse(description="No such job, or a job about another user's private map or scenario.")
UNAVAILABLE = OpenApiResponse(DetailSerializer, description="The job queue (broker) cannot be reached; nothing "
                                                            "was queued.")
# What a result file is served as (by its name's extension): a card or print PDF, a map PNG, the analysis .npz
RESULT_FILES = ("application/pdf", "image/png", "image/svg+xml", "application/zip", "application/octet-stream")
SIGNED_OUT = OpenApiResponse(DetailSerializer, description="Not signed in, and no stored answer to give.")
THROTTLED = OpenApiResponse(DetailSerializer, description="Too many jobs started this minute, or too many of yours "
                                                         "queued or running at once: the detail says which, and "
                                                         "Retry-After when to try again.")
TOO_COSTLY = OpenApiResponse(OpenApiTypes.OBJECT, description="The job would cost more than this server allows: "
                                                             "{\"detail\", \"limit\" (the setting), \"cost\", "
                                                             "\"allowed\"}; nothing was queued.")
FIELD_ERRORS = OpenApiResponse(OpenApiTypes.OBJECT, description="The request is wrong: each field named with what "
                                                                "is wrong with it, e.g. {\"from\": [\"hex Z99 is "
                                                                "off the map (20 columns x 12 rows)\"]}.")


def visible_jobs(user):
    """The jobs a user may see: those about subjects they may read, and their own jobs about none."""
    mine = Q(subject_type="", requested_by=user) if user.is_authenticated else Q(pk__in=[])
    return subjects.with_current(Job.objects.filter(subjects.readable(user) | mine)).select_related("requested_by")


def readable_job(request, pk):
    """The job with this id if this request may read it (its subject, and what the job was made to show), else
    Http404: a job of another side's view does not exist for its reader."""
    job = get_object_or_404(visible_jobs(request.user), pk=pk)
    if not subjects.may_read(job, request):
        raise Http404("no such job")
    return job


def job_payload(job, request=None):
    return JobSerializer(job, context={"request": request}).data


SIGN_IN = ("Sign in to start a job such as a line of sight, a print or the checks: a visitor sees only the answers "
           "already worked out for a published map or scenario.")


class SubjectJobView(APIView):
    """POST a question about a subject (a map, a scenario): 202 with the job to follow, or 200 with the job that
    already answered it for this content.

    Starting a job takes a signed-in user and is throttled (web/throttles.py); an anonymous visitor gets the
    stored answer when there is one, and 401/403 saying why otherwise. The job's cost is estimated by its kind
    (jobs.limits) before anything else: past its kind's limit, 400 naming it; past the user's caps of live jobs,
    429 with Retry-After. An app's view says which kind it starts and fills in get_subject() and parameters();
    the rest is the same for every kind.
    """

    permission_classes = [permissions.AllowAny]
    throttle_classes = throttles.JOBS
    kind = None

    def get_subject(self, request, pk):
        """The subject the job is about, as this user may read it, or Http404."""
        raise NotImplementedError

    def parameters(self, request, subject):
        """The job's parameters from the request, checked and normalised, or raise ValidationError."""
        raise NotImplementedError

    def parts(self, subject, parameters):
        """The (start, stop) slices of a kind that runs in parts."""
        return ()

    def post(self, request, pk):
        subject = self.get_subject(request, pk)
        parameters = self.parameters(request, subject)
        try:
            cost = limits.estimate(self.kind, parameters, subject)
        except limits.CostTooHigh as exc:
            return Response(exc.payload(), status=status.HTTP_400_BAD_REQUEST)
        if not request.user.is_authenticated:
            stored = dispatch.find_same(self.kind, parameters, subject)
            if stored is None or stored.status != Job.Status.SUCCEEDED:
                raise NotAuthenticated(SIGN_IN)
            return Response(job_payload(stored, request), status=status.HTTP_200_OK)
        try:
            job, _ = dispatch.submit(self.kind, parameters, subject=subject, user=request.user,
                                     parts=self.parts(subject, parameters), cost=cost,
                                     address=throttles.address_of(request))
        except dispatch.BrokerUnavailable as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
        if job.status == Job.Status.SUCCEEDED:
            return Response(job_payload(job, request), status=status.HTTP_200_OK)
        return Response(JobAcceptedSerializer({"job": job.pk, "url": reverse("job-detail", args=[job.pk])}).data,
                        status=status.HTTP_202_ACCEPTED)


def job_schema(summary, description, request=None, example=None, errors=FIELD_ERRORS, not_found=NOT_FOUND):
    """The schema of a SubjectJobView's POST."""
    examples = [OpenApiExample("Queued", value={"job": 42, "url": "/api/jobs/42/"}, response_only=True,
                               status_codes=["202"])]
    if example is not None:
        examples.insert(0, OpenApiExample("Request", value=example, request_only=True))
    responses = {202: JobAcceptedSerializer, 200: JobSerializer, 401: SIGNED_OUT, 403: SIGNED_OUT,
                 404: not_found, 429: THROTTLED, 503: UNAVAILABLE}
    if errors is not None:
        responses[400] = errors
    else:
        responses[400] = TOO_COSTLY
    return extend_schema(tags=["jobs"], summary=summary, description=description, request=request,
                         responses=responses, examples=examples)


@extend_schema(tags=["jobs"])
class JobListView(ListAPIView):
    """The jobs you asked for, newest first."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = JobSummarySerializer

    def get_queryset(self):
        # An empty filter (?kind=) filters nothing, as if it were not given.
        filters = JobFilterSerializer(data={k: v for k, v in self.request.query_params.items() if v != ""})
        filters.is_valid(raise_exception=True)
        jobs = visible_jobs(self.request.user).filter(requested_by=self.request.user)
        # a job whose reading this request lost (a revoked side link's) is not listed either
        return filters.filter(jobs.exclude(pk__in=subjects.unreadable(jobs, self.request)).defer("result"))

    @extend_schema(summary="Your jobs, newest first (without their results)", parameters=[JobFilterSerializer],
                   responses={200: JobSummarySerializer(many=True), 400: FIELD_ERRORS})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class JobDetailView(APIView):
    """A job as it is now; with ?wait=, as it is once it has finished or the wait is over. Too many waits at once
    (on this server, or from you) answer at once with the job as it is and Retry-After: 1."""

    # The view looks at the job (get(), in a thread: every check made), waits as a coroutine (jobs.waiting:
    # no database connection held meanwhile) and looks again.
    permission_classes = [permissions.AllowAny]

    @classmethod
    def as_view(cls, **initkwargs):
        look = super().as_view(**initkwargs)
        look_in_a_thread = sync_to_async(look)

        async def view(request, *args, **kwargs):
            response = await look_in_a_thread(request, *args, **kwargs)
            seconds = getattr(response, "wait_seconds", 0)
            if seconds:
                await sync_to_async(connections.close_all)()  # this request's connection, while it waits
                if not await waiting.until_finished(kwargs["pk"], seconds, response.wait_client):
                    response["Retry-After"] = "1"  # too many waits: the job as it is, at once
                    return response
                request.waited = True
                response = await look_in_a_thread(request, *args, **kwargs)
            return response

        for name in ("cls", "initkwargs", "csrf_exempt"):  # what the URL resolver and the schema read
            setattr(view, name, getattr(look, name))
        view.__doc__, view.__name__ = look.__doc__, look.__name__
        return view

    @extend_schema(
        tags=["jobs"], summary="A job: status, progress, result or error, and whether the map has changed since",
        parameters=[OpenApiParameter("wait", float, description="Wait up to this many seconds (at most 30) for "
                                                                "the job to finish before answering.")],
        responses={200: JobSerializer, 400: FIELD_ERRORS, 404: NOT_FOUND})
    def get(self, request, pk):
        waited = getattr(request, "waited", False)
        try:
            job = readable_job(request, pk)
        except Http404:
            if waited:
                raise Http404("the job was deleted while this request waited for it") from None
            raise
        sweep.sweep_job(job)
        wait = request.query_params.get("wait")
        seconds = 0
        if wait and not waited:
            try:
                seconds = float(wait)
            except ValueError:
                return Response({"wait": ["expected a number of seconds"]}, status=status.HTTP_400_BAD_REQUEST)
            if not seconds >= 0:
                return Response({"wait": ["expected a number of seconds from 0"]}, status=status.HTTP_400_BAD_REQUEST)
        response = Response(job_payload(job, request))
        if not job.is_finished:
            response.wait_seconds = min(seconds, conf.get("WAIT_MAX"))
            user = request.user
            response.wait_client = f"user {user.pk}" if user.is_authenticated else BaseThrottle().get_ident(request)
        return response


class JobCancelView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        tags=["jobs"], summary="Cancel a queued or running job", request=None,
        description="Who may: whoever asked for the job, the owner of its map (or scenario), and staff. Its "
                    "queued tasks are revoked and running work stops within about a second, freeing its worker. "
                    "A job that has already finished is left as it is (409).",
        responses={200: JobSerializer, 403: DetailSerializer, 404: NOT_FOUND, 409: JobSerializer})
    def post(self, request, pk):
        job = readable_job(request, pk)
        user = request.user
        _, owner_id = subjects.current(job)
        allowed = user.is_authenticated and (user.is_staff or user.pk in (job.requested_by_id, owner_id))
        if not allowed:
            return Response({"detail": "only whoever asked for this job, the owner of its map (or scenario) or "
                                       "staff may cancel it"},
                            status=status.HTTP_403_FORBIDDEN)
        cancelled = dispatch.cancel(job)
        job.refresh_from_db()
        return Response(job_payload(job, request), status=status.HTTP_200_OK if cancelled else status.HTTP_409_CONFLICT)


class JobFileView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(tags=["jobs"],
                   summary="Download a job's result file (the analysis matrix as .npz, a card PDF, a map's PNG, SVG, "
                           "PDF, Tiled zip or VASSAL module)",
                   responses={**{(200, media): OpenApiResponse(OpenApiTypes.BINARY) for media in RESULT_FILES},
                              404: NOT_FOUND})
    def get(self, request, pk):
        job = readable_job(request, pk)
        if not job.result_file:
            raise Http404("this job has no result file")
        # The name the job gave its file (a title with accents, say); Django writes it RFC 6266-safe.
        name = (job.result or {}).get("filename") if isinstance(job.result, dict) else None
        name = name or job.result_file.name.rsplit("/", 1)[-1]
        content_type = mimetypes.guess_type(name)[0]
        content_type = content_type if content_type in RESULT_FILES else "application/octet-stream"
        return FileResponse(job.result_file.open("rb"), as_attachment=True, filename=name, content_type=content_type)
