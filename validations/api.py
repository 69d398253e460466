"""The batch validation API: /api/validations/ (docs/api.md)."""

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from engine import mapfile
from jobs import dispatch, limits
from validations import mapsteps
from validations.batches import PAGE_LIST, UploadRefused, batch_report, editor_url, own_batch, own_file, start_batch
from validations.forms import BatchForm
from validations.models import BatchValidation
from web import throttles


class ValidationListView(APIView):
    """POST one file or a zip of many: 202 with the batch and its batch-validation job. GET: your batches."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [MultiPartParser, FormParser]

    def get_throttles(self):
        """Starting one is throttled (a rate, web/throttles.py; live jobs are capped by jobs.limits)."""
        if self.request.method == "POST":
            return [throttle() for throttle in throttles.VALIDATIONS]
        return super().get_throttles()

    @extend_schema(operation_id="validations_list", summary="Your batch validations, newest first",
                   responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        batches = BatchValidation.objects.filter(owner=request.user).select_related("job")[:PAGE_LIST]
        return Response({"validations": [
            {"validation": b.pk, "name": b.name, "created": b.created.isoformat(),
             "status": b.job.status if b.job else "failed", "url": reverse("api-validation", args=[b.pk])}
            for b in batches]})

    @extend_schema(
        summary="Validate a file or a zip of map files in the background",
        request={"multipart/form-data": OpenApiTypes.OBJECT},
        responses={202: OpenApiTypes.OBJECT, 400: OpenApiResponse(description="No file, an empty one or one "
                                                                                "over the upload limit."),
                   429: OpenApiResponse(description="Too many batches started this minute, or too many of your "
                                                    "jobs queued or running: Retry-After says when to try again."),
                   503: OpenApiResponse(description="The job queue cannot be reached; nothing was kept.")},
    )
    def post(self, request):
        form = BatchForm(request.POST, request.FILES)
        if not form.is_valid():
            return Response(form.errors, status=status.HTTP_400_BAD_REQUEST)
        try:
            batch = start_batch(request.user, form.cleaned_data["file"], throttles.address_of(request),
                                form.cleaned_data["ruleset"], form.cleaned_data["name"])
        except UploadRefused as exc:
            return Response({"file": [str(exc)]}, status=status.HTTP_400_BAD_REQUEST)
        except limits.CostTooHigh as exc:
            return Response(exc.payload(), status=status.HTTP_400_BAD_REQUEST)
        except dispatch.BrokerUnavailable as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
        return Response({"validation": batch.pk, "job": batch.job_id,
                         "job_url": reverse("job-detail", args=[batch.job_id]),
                         "url": reverse("api-validation", args=[batch.pk]),
                         "page": reverse("validation-page", args=[batch.pk])}, status=status.HTTP_202_ACCEPTED)


class ValidationDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="validations_retrieve",
                   summary="A batch validation's report: progress, each file's verdict and findings",
                   responses={200: OpenApiTypes.OBJECT, 404: OpenApiResponse(description="No such batch of yours.")})
    def get(self, request, pk):
        return Response(batch_report(own_batch(request.user, pk)))


class ValidationOpenView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="Open one checked file as a private map of your own",
                   request=None, responses={201: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT,
                                            404: OpenApiResponse(description="No such file of yours.")})
    def post(self, request, pk, index):
        row = own_file(request.user, pk, index)
        try:
            map = row.open_as_map(request.user)
        except mapfile.MapFormatError as exc:
            return Response({"errors": [f.as_dict() for f in exc.errors]}, status=status.HTTP_400_BAD_REQUEST)
        return Response({"map": map.pk, "url": reverse("map-detail", args=[map.pk]), "edit": editor_url(map),
                         "findings": reverse("map-findings", args=[map.pk])}, status=status.HTTP_201_CREATED)


class MappingReadView(APIView):
    """POST the mapping step's choices: 200 with the mapping file they make (what the page downloads)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(summary="The mapping file a checked file's mapping-step choices make",
                   request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT,
                                                           404: OpenApiResponse(description="No such file of yours.")})
    def post(self, request, pk, index):
        return Response(mapsteps.read_mapping(own_file(request.user, pk, index), request.data))


class MappingStepView(APIView):
    """POST the mapping step's choices: 202 with a mapping-step job that previews the map they give (or, for
    confirm, opens the file with them as your map). Nothing is written before a confirm's job succeeds."""

    permission_classes = [permissions.IsAuthenticated]
    confirm = False

    def get_throttles(self):
        return [throttle() for throttle in throttles.JOBS]

    def post(self, request, pk, index):
        row = own_file(request.user, pk, index)
        mapping = mapsteps.read_mapping(row, request.data)
        try:
            job = mapsteps.start(request.user, row, mapping, self.confirm, throttles.address_of(request))
        except dispatch.BrokerUnavailable as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
        return Response({"job": job.pk, "job_url": reverse("job-detail", args=[job.pk]), "mapping": mapping},
                        status=status.HTTP_202_ACCEPTED)


STEP_SCHEMA = {"request": OpenApiTypes.OBJECT,
               "responses": {202: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT,
                             404: OpenApiResponse(description="No such file of yours."),
                             429: OpenApiResponse(description="Too many of your jobs queued or running."),
                             503: OpenApiResponse(description="The job queue cannot be reached.")}}


class MappingPreviewView(MappingStepView):
    @extend_schema(summary="Preview a checked file converted with a mapping (a small picture and its findings)",
                   **STEP_SCHEMA)
    def post(self, request, pk, index):
        return super().post(request, pk, index)


class MappingConfirmView(MappingStepView):
    confirm = True

    @extend_schema(summary="Convert a checked file again with a mapping and open it as your map", **STEP_SCHEMA)
    def post(self, request, pk, index):
        return super().post(request, pk, index)
