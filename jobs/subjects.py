"""What a job may be about (a map, a scenario), registered by the app that owns it (from its AppConfig.ready()).

A job names its subject by type and id (Job.subject_type, Job.subject_id) beside the content hash it computes for
(Job.content_hash). The app's Subject says who may read one, where its current content hash is and who owns it,
so that jobs can answer "may this user see this job?", "is it stale?" and "may this user cancel it?" without
importing the app. A subject's jobs (and their files) are deleted with it.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.db import models
from django.db.models import Case, OuterRef, Q, Subquery, Value, When
from django.db.models.signals import post_delete

from jobs.models import Job


@dataclass(frozen=True)
class Subject:
    name: str  # Job.subject_type, and the job API's field holding the subject's id ("map": 7)
    model: type  # given by the app: jobs imports no app
    readable: Callable  # readable(user) -> a queryset of the subjects this user may read
    hash_field: str = "content_hash"  # the subject's current content hash: a job for another one is stale
    owner_field: str = "owner_id"  # the id of its owner, who may cancel its jobs
    label: str = ""  # in words ("map"), for the API's descriptions
    # may_read_job(job, request) -> bool: whether one readable job is this request's to read, when what a job
    # shows depends on more than its subject (a scenario's job made for the sides its requester held)
    may_read_job: Callable | None = None

    def __str__(self):
        return self.label or self.name

    def hash_of(self, instance):
        return getattr(instance, self.hash_field)


SUBJECTS = {}


def register(subject):
    """Make a subject known, and have its jobs deleted with it."""
    SUBJECTS[subject.name] = subject
    post_delete.connect(_delete_jobs, sender=subject.model, weak=False, dispatch_uid=f"jobs-subject-{subject.name}")
    return subject


def unregister(name):
    """Forget a subject (a test's own); its jobs are no longer anyone's to read."""
    subject = SUBJECTS.pop(name)
    post_delete.disconnect(sender=subject.model, dispatch_uid=f"jobs-subject-{name}")


def get(name):
    return SUBJECTS[name]


def all():
    return list(SUBJECTS.values())


def of(instance):
    """The Subject of a model instance (a Map, a Scenario), or LookupError."""
    for subject in SUBJECTS.values():
        if isinstance(instance, subject.model):
            return subject
    raise LookupError(f"jobs cannot be about a {type(instance).__name__}: its app registered no Subject")


def _delete_jobs(sender, instance, **kwargs):
    for subject in SUBJECTS.values():
        if subject.model is sender:
            Job.objects.filter(subject_type=subject.name, subject_id=instance.pk).delete()


def may_read(job, request):
    """Whether a job that visible_jobs() gives is this request's to read (its subject's may_read_job says)."""
    subject = SUBJECTS.get(job.subject_type)
    return subject is None or subject.may_read_job is None or subject.may_read_job(job, request)


def unreadable(jobs, request):
    """The ids of those of ``jobs`` this request may not read although their subject is readable (may_read says
    no: a scenario's job made for a side whose link was revoked), so that a list shows nothing a read would 404.
    One look per job of a subject with such a check."""
    checked = [name for name, subject in SUBJECTS.items() if subject.may_read_job is not None]
    jobs = jobs.filter(subject_type__in=checked).select_related(None).only("pk", "subject_type", "subject_id",
                                                                           "parameters")
    return [job.pk for job in jobs.iterator() if not may_read(job, request)]


# -- questions about many jobs at once, in the same query ----------------------------------------------------

def readable(user):
    """The jobs about subjects this user may read, as a Q."""
    q = Q(pk__in=[])
    for subject in SUBJECTS.values():
        q |= Q(subject_type=subject.name, subject_id__in=subject.readable(user).values("pk"))
    return q


def _current(field_of, output_field):
    whens = [When(subject_type=s.name, then=Subquery(s.model._default_manager.filter(pk=OuterRef("subject_id"))
                                                     .values(field_of(s))[:1]))
             for s in SUBJECTS.values()]
    if not whens:
        return Value(None, output_field=output_field)
    return Case(*whens, default=Value(None), output_field=output_field)


def with_current(jobs):
    """The jobs with their subject's current content hash and owner (``subject_hash``, ``subject_owner_id``)."""
    return jobs.annotate(subject_hash=_current(lambda s: s.hash_field, models.CharField()),
                         subject_owner_id=_current(lambda s: s.owner_field, models.BigIntegerField()))


def current(job):
    """(content hash, owner id) of the job's subject as it is now; (None, None) when it has none (any more)."""
    if hasattr(job, "subject_hash"):
        return job.subject_hash, job.subject_owner_id
    subject = SUBJECTS.get(job.subject_type)
    if subject is None or job.subject_id is None:
        return None, None
    row = (subject.model._default_manager.filter(pk=job.subject_id)
           .values_list(subject.hash_field, subject.owner_field).first())
    return row or (None, None)
