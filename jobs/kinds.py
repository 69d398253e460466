"""The kinds of job, registered by the apps that run them (each from its AppConfig.ready()).

jobs knows no kind of its own: an app says which Celery task runs its kind (tasks are sent by name, so the web
process need not import them), and the job layer queues, runs, sweeps and shows the jobs the same way for all.
A new kind is one register() call in its app; Job.kind is a plain column, so it needs no jobs migration.

A kind also says what one of its jobs costs, before it is queued: ``cost(parameters, subject)`` estimates the
work (about one line of sight traced, or one hex drawn, per unit; jobs.limits), and ``limit`` names the setting
past which one job is refused. The estimate is kept on the job, and a user's live jobs are capped by its sum.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured, ValidationError


def one(parameters, subject):
    """The cost of a kind that names none: one unit (an LOS answer's worth)."""
    return 1


@dataclass(frozen=True)
class Kind:
    name: str
    task: str  # runs the job; for a job split into parts, assembles them
    part_task: str = ""  # runs one part, for a job split into parts
    label: str = ""  # in words, for the admin and messages; default: the name
    interactive: bool = False  # a person waits for the answer: the interactive queue (jobs.conf.queue_for)
    cost: Callable = one  # cost(parameters, subject) -> the work one job asks for, a whole number (jobs.limits)
    limit: str = ""  # the Django setting that bounds one job's cost (refused 400 past it); empty: no bound
    unit: str = "units"  # what the cost counts, in words ("pairs of hexes"), for the refusal's message
    advice: str = ""  # what to ask instead, added to the refusal's message

    @property
    def split(self):
        return bool(self.part_task)

    def __str__(self):
        return self.label or self.name


KINDS = {}


def register(kind):
    """Make a kind of job known; registering the same kind again (a second ready()) changes nothing."""
    known = KINDS.get(kind.name)
    if known is not None and known != kind:
        raise ImproperlyConfigured(f"two kinds of job are named {kind.name!r}: {known} and {kind}")
    KINDS[kind.name] = kind
    return kind


def get(name):
    try:
        return KINDS[name]
    except KeyError:
        raise KeyError(f"no task runs {name!r} jobs yet") from None


def names():
    return sorted(KINDS)


def validate(name):
    """Job.kind's validator: a kind some app registered."""
    if name not in KINDS:
        raise ValidationError(f"{name!r} is not a kind of job; expected one of: {', '.join(names())}")
