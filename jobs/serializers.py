"""The shapes of the job API that every kind shares: a job as seen from outside, a queued job's answer, the list's
filters. The pieces the apps build their requests from (a hex of a grid; unknown keys refused by name) are in
web.serializers.

The kinds' own request serializers live with their apps (maps/jobs.py, authoring/jobs.py). Requests are
normalised (hexes become labels, defaults are filled in) so that two ways of asking the same question give the
same parameters, and so find the same job.
"""

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from jobs import kinds, subjects
from jobs.models import Job
from web.responses import StoredJSON

MAX_ID = 2**63 - 1  # the largest id a database column holds


class JobAcceptedSerializer(serializers.Serializer):
    job = serializers.IntegerField(help_text="The job's id.")
    url = serializers.CharField(help_text="Where to follow the job: GET it until its status is final.")


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()


class JobSummarySerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    requested_by = serializers.CharField(source="requested_by.username", default=None, read_only=True, allow_null=True,
                                         help_text="Who asked (null: an anonymous request, or not yours to see).")
    map_hash = serializers.CharField(source="content_hash", read_only=True,
                                     help_text="The content hash (of the map, or the scenario) the job computes for.")
    stale = serializers.SerializerMethodField(help_text="True when the job's map (or scenario) has changed since "
                                                        "the job was asked: the result is for the content in "
                                                        "map_hash.")

    class Meta:
        model = Job
        # After "message": the id of the job's subject, one field per kind of subject ("map", "scenario").
        fields = ["id", "url", "kind", "status", "progress", "message", "map_hash", "stale",
                  "parameters", "cost", "requested_by", "created", "started", "finished", "attempts"]
        read_only_fields = fields

    # Who asked, and which worker (host and pid) ran it: for the requester and staff only.
    PRIVATE = {"requested_by": None, "worker": ""}

    def get_fields(self):
        return with_subjects(super().get_fields(), after="message")

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
        if not job.content_hash:
            return False  # a job about no content (or none it names)
        current, _ = subjects.current(job)
        return current is not None and current != job.content_hash


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


@extend_schema_field({"type": "integer", "nullable": True})
class SubjectIdField(serializers.Field):
    """The id of the job's subject when it is of this field's type (a map's job: "map": 7, "scenario": null)."""

    def __init__(self, subject, **kwargs):
        self.subject = subject
        super().__init__(source="*", read_only=True, help_text=f"The {subject}'s id, for a job about a {subject}.",
                         **kwargs)

    def to_representation(self, job):
        return job.subject_id if job.subject_type == self.subject.name else None


def with_subjects(fields, after):
    """The fields with one SubjectIdField per registered subject, placed after the field ``after``."""
    out = {}
    for name, field in fields.items():
        out[name] = field
        if name == after:
            out.update((s.name, SubjectIdField(s)) for s in subjects.all())
    return out


class JobFilterSerializer(serializers.Serializer):
    """The job list's filters (?status=, ?kind=, and ?<subject>=<id> for each kind of subject, e.g. ?map=7)."""

    status = serializers.ChoiceField(choices=Job.Status.values, required=False,
                                     help_text="Only the jobs with this status.")
    kind = serializers.CharField(required=False, help_text="Only the jobs of this kind.")

    def get_fields(self):
        fields = super().get_fields()
        for subject in subjects.all():
            fields[subject.name] = serializers.IntegerField(
                required=False, min_value=0, max_value=MAX_ID, help_text=f"Only the jobs about this {subject}.",
                error_messages={"invalid": f"expected a {subject} id", "min_value": f"expected a {subject} id",
                                "max_value": f"expected a {subject} id"})
        return fields

    def validate_kind(self, value):
        if value not in kinds.KINDS:
            raise serializers.ValidationError(f"expected one of: {', '.join(kinds.names())}")
        return value

    def filter(self, jobs):
        data = dict(self.validated_data)
        for name in ("status", "kind"):
            if name in data:
                jobs = jobs.filter(**{name: data.pop(name)})
        for name, pk in data.items():
            jobs = jobs.filter(subject_type=name, subject_id=pk)
        return jobs
