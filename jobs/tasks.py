"""What a worker does for jobs besides running them: sweep for lost ones, and note which messages it took.

Imported by Celery's autodiscovery in every worker. The kinds' own tasks live with their apps (maps/tasks.py).
"""

import logging

from celery import shared_task
from celery.signals import task_received, worker_ready, worker_shutdown
from django.utils import timezone

from jobs import tickets
from jobs.models import Job, JobPart
from jobs.sweep import Sweeper, main_process_database, sweep

logger = logging.getLogger(__name__)

_sweeper = None


@shared_task(name="jobs.sweep", ignore_result=True)
def sweep_task():
    """The sweep as a task, for deployments that prefer Celery beat to the workers' own sweeper threads."""
    for job_id, what in sweep():
        logger.info("sweep: job %s %s", job_id, what)


@worker_ready.connect
def start_sweeper(**kwargs):
    global _sweeper
    if _sweeper is None:
        _sweeper = Sweeper().start()


@worker_shutdown.connect
def stop_sweeper(**kwargs):
    global _sweeper
    if _sweeper is not None:
        _sweeper.stop()
        _sweeper = None


@task_received.connect
def note_received(request=None, **kwargs):
    """Stamp a job (or part) as held by this worker the moment its message arrives, before a process starts it.

    If the worker dies in between, the message may be gone with it; the stamp lets the sweep notice.
    Only a message whose ticket the row agrees with stamps it (jobs.tickets): another job's message is dropped
    when it runs, and must leave the row as it was.
    """
    task = getattr(request, "task", None)
    if not getattr(task, "job_task", False) or not request.args:
        return
    part = request.args[1] if len(request.args) >= 2 else None
    ticket = tickets.carried(request)
    if tickets.inconsistent(ticket, task.name, request.args[0], part):
        return  # refused, with its reasons, when it runs
    stamp = {"heartbeat": timezone.now(), "worker": (request.hostname or "")[:255]}
    ours = {"token": ticket.token, "kind": ticket.kind}
    try:
        with main_process_database():
            if part is not None:
                JobPart.objects.filter(job_id=request.args[0], index=part, status=JobPart.Status.QUEUED,
                                       heartbeat=None, **{f"job__{k}": v for k, v in ours.items()}).update(**stamp)
            else:
                Job.objects.filter(pk=request.args[0], status__in=Job.LIVE, heartbeat=None, **ours).exclude(
                    step=Job.Step.PARTS).update(**stamp)
    except Exception:  # the stamp is a safety net; the job runs without it
        logger.warning("could not stamp job %s as received", request.args[0], exc_info=True)
