"""Background jobs: what was asked, about which subject's content, and what came of it.

Celery carries a job's id and its ticket (jobs.tickets: what tells it from another database's job with the same
id); everything else (parameters, progress, the result) lives here, so that any worker, the API and the admin see
the same state, and a result outlives the worker that computed it. The kinds (jobs.kinds) and the subjects a job
may be about (jobs.subjects) are registered by the apps.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.signals import post_delete
from django.dispatch import receiver

from jobs import kinds


class Job(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"
        CANCELLED = "cancelled"

    LIVE = (Status.QUEUED, Status.RUNNING)
    FINISHED = (Status.SUCCEEDED, Status.FAILED, Status.CANCELLED)

    class Step(models.TextChoices):
        # A job split into parts is in PARTS while they run, then in ASSEMBLE; a one-step job stays in ONE.
        ONE = "", "one step"
        PARTS = "parts", "parts"
        ASSEMBLE = "assemble", "assembling"

    kind = models.CharField(max_length=32, validators=[kinds.validate], help_text="A kind an app registered "
                                                                                  "(jobs.kinds).")
    parameters = models.JSONField(default=dict, blank=True, help_text="The request, checked and normalised.")
    request_key = models.CharField(max_length=64, help_text="sha256 of kind and parameters: finds the same request.")
    subject_type = models.CharField(max_length=32, blank=True, help_text="What the job is about (a Subject an app "
                                                                         "registered, jobs.subjects); empty: "
                                                                         "nothing but its requester's own.")
    subject_id = models.PositiveBigIntegerField(null=True, blank=True)
    content_hash = models.CharField(max_length=64, blank=True, help_text="The subject's content hash the job "
                                                                         "computes for.")

    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    step = models.CharField(max_length=16, choices=Step.choices, default=Step.ONE, blank=True)
    progress = models.PositiveSmallIntegerField(default=0, help_text="0 to 100.")
    message = models.CharField(max_length=200, blank=True)
    parts_total = models.PositiveIntegerField(default=0)
    parts_done = models.PositiveIntegerField(default=0)

    result = models.JSONField(null=True, blank=True)
    result_key = models.CharField(max_length=64, blank=True, help_text="sha256 of the kind, parameters and "
                                                                       "content the stored result answers "
                                                                       "(dispatch.result_key), written with it: "
                                                                       "the result is reused only for the same.")
    result_file = models.FileField(upload_to="jobs/%Y/%m/", blank=True, max_length=255)
    result_in_file = models.BooleanField(
        default=False, help_text="The result is the JSON at result_file, too large for the row (a big map's "
                                 "viewshed); the API shows it as the result all the same.")
    result_bytes = models.PositiveBigIntegerField(default=0, help_text="The size of result_file: its requester's "
                                                                       "storage counts it until it expires.")
    error = models.TextField(blank=True)

    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="jobs")
    requested_from = models.CharField(max_length=64, blank=True, help_text="The address of the request that "
                                                                         "started the job: live jobs are capped "
                                                                         "per address too (jobs.limits).")
    cost = models.PositiveBigIntegerField(default=0, help_text="The work estimated before it was queued (its "
                                                               "kind's cost, jobs.limits); a user's live jobs "
                                                               "are capped by their sum.")
    token = models.CharField(max_length=32, blank=True, help_text="Names its Celery tasks (job-<id>-<token>...), "
                                                                  "so that a cancel can revoke them, and is in "
                                                                  "each message's ticket (jobs.tickets).")
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    queue = models.CharField(max_length=200, blank=True, help_text="The Celery queue its tasks go to; empty: the "
                                                                   "default queue.")
    worker = models.CharField(max_length=255, blank=True, help_text="The worker that last took the job.")
    heartbeat = models.DateTimeField(null=True, blank=True,
                                     help_text="Last sign of life of the worker holding the job; empty while no "
                                               "worker holds it.")
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Times a worker started the job's current step.")

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["subject_type", "subject_id", "content_hash", "request_key"],
                         name="jobs_job_subject_idx"),
            models.Index(fields=["status", "heartbeat"]),
            models.Index(fields=["requested_by", "-created"]),
            models.Index(fields=["requested_from", "status"]),
        ]
        constraints = [
            # Two identical requests on the same content share one live job instead of computing twice.
            models.UniqueConstraint(fields=["subject_type", "subject_id", "content_hash", "request_key"],
                                    condition=Q(status__in=["queued", "running"]),
                                    name="jobs_one_live_job_per_request"),
        ]

    def __str__(self):
        return f"{self.kind_label} job {self.pk} ({self.status})"

    @property
    def kind_label(self):
        return str(kinds.KINDS.get(self.kind, self.kind))

    @property
    def is_finished(self):
        return self.status in self.FINISHED

    def task_id(self, part=None):
        """The Celery task id of its step (or of one part): fixed per job, so that a cancel can revoke it."""
        base = f"job-{self.pk}-{self.token}"
        return base if part is None else f"{base}-part-{part}"


class JobPart(models.Model):
    """One slice of a job split across workers; its output waits here, not in the broker, until assembled."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="parts")
    index = models.PositiveIntegerField()
    start = models.PositiveIntegerField(help_text="First observer (hex index) of the slice.")
    stop = models.PositiveIntegerField(help_text="One past the last observer of the slice.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    sent = models.BooleanField(default=True, help_text="Its message was published. A job's parts are queued a "
                                                       "few at a time (JOBS_PARTS_IN_FLIGHT): each one done "
                                                       "sends the next one not yet sent.")
    worker = models.CharField(max_length=255, blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    seconds = models.FloatField(default=0)
    data = models.BinaryField(null=True, blank=True, help_text="The slice's answers, as compressed .npz bytes.")

    class Meta:
        ordering = ["job", "index"]
        constraints = [models.UniqueConstraint(fields=["job", "index"], name="jobs_unique_part_index")]
        indexes = [models.Index(fields=["status", "heartbeat"])]

    def __str__(self):
        return f"part {self.index + 1} of job {self.job_id}"


@receiver(post_delete, sender=Job)
def delete_result_file(sender, instance, **kwargs):
    """A job's file goes with it (a deleted subject takes its jobs, and their files, along)."""
    if instance.result_file:
        instance.result_file.delete(save=False)
