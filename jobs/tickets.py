"""What a job's message carries besides the job's id, and the check that the row it finds is the job it was sent for.

An id names a row of one database only. A message can outlive the database that sent it (a broker folder left
over after the database was reset) or reach another database's worker (one Redis shared by two deployments), and
there the same id is another job. So every message carries its job's ticket, in a message header: the job's id,
its kind, the token drawn when the job was made (also in its task id, ``job-<id>-<token>``), and for a part its
index. A worker runs a message only when the row it finds agrees with the ticket, and the task the message came
as is the one its kind registered. Otherwise the message is dropped with a warning naming what differed, and the
row is left exactly as it was, for its own message. A message with no ticket (an earlier version's, or one not
made by a dispatcher) is refused the same way.
"""

import logging
from dataclasses import asdict, dataclass

from jobs import kinds

logger = logging.getLogger(__name__)

HEADER = "hexside_job"


@dataclass(frozen=True)
class Ticket:
    job: object
    kind: object
    token: object
    part: object = None

    def headers(self):
        """The message headers that carry it."""
        return {HEADER: asdict(self)}


def of(job, part=None):
    """The ticket of a job's message (of one of its parts with ``part``)."""
    return Ticket(job=job.pk, kind=job.kind, token=job.token, part=part)


def carried(request):
    """The ticket a message carries, or None: ``request`` is a running task's request (in a worker or eager) or
    the worker's Request at receipt."""
    sources = (getattr(request, "request_dict", None), getattr(request, "__dict__", None),
               getattr(request, "headers", None))
    for source in sources:
        value = source.get(HEADER) if isinstance(source, dict) else None
        if isinstance(value, dict):
            return Ticket(**{field: value.get(field) for field in ("job", "kind", "token", "part")})
    return None


def task_of(kind, part=None):
    """The task name the kind registered for its messages (its part task for a part); None for an unknown kind."""
    spec = kinds.KINDS.get(kind)
    if spec is None:
        return None
    return spec.part_task if part is not None else spec.task


def inconsistent(ticket, task_name, job_id, part=None):
    """What is wrong with a message by itself (its ticket, its task, its arguments ``job_id`` and ``part``), as
    "what: expected X, got Y" phrases; empty when it is whole and says one job throughout."""
    if ticket is None:
        return ["ticket: expected one naming the job's token and kind, got none (a message of an earlier version, "
                "or not sent by a dispatcher of this version)"]
    found = []
    if ticket.job != job_id:
        found.append(f"id: expected {job_id} (the message's argument), got {ticket.job!r} (its ticket)")
    if ticket.part != part:
        found.append(f"part: expected {part!r} (the message's argument), got {ticket.part!r} (its ticket)")
    if not ticket.token:
        found.append("token: expected the job's, got none")
    expected_task = task_of(ticket.kind, part)
    if task_name != expected_task:
        found.append(f"task: expected {expected_task!r} (the {ticket.kind!r} kind's), got {task_name!r}")
    return found


def differences(ticket, task_name, part, row):
    """What differs between a message (its ticket, its task, its part argument) and the job ``row`` it found;
    empty when the message is this row's."""
    found = inconsistent(ticket, task_name, row.pk, part)
    if ticket is None:
        return found
    if ticket.token and ticket.token != row.token:
        found.append(f"token: expected {row.token!r}, got {ticket.token!r}")
    if ticket.kind != row.kind:
        found.append(f"kind: expected {row.kind!r}, got {ticket.kind!r}")
    return found


def check(task, row, part=None):
    """Does the message ``task`` is running belong to the job ``row`` (to its part ``part``)? When not, the
    message is logged as dropped, naming what differed. A call with no task (the work run directly in this
    process, as tests and commands do) has no message to check."""
    if task is None:
        return True
    found = differences(carried(task.request), task.name, part, row)
    if found:
        what = f"job {row.pk}" if part is None else f"job {row.pk} part {part + 1}"
        logger.warning("%s: message %s (task id %s) dropped, it was not sent for this job: %s; the job is left as "
                       "it was, for its own message", what, task.name, task.request.id, "; ".join(found))
    return not found
