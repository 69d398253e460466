"""Job kinds only the tests use, loaded into test workers with --include: one that takes its time, one that
raises, one whose process dies. And, when HEXSIDE_TEST_PART_DELAY is set, analysis parts that take at least
that long, so that a test can act while an analysis is running.
"""

import os
import signal
import time

from celery import shared_task

from jobs import kinds, runner
from jobs.kinds import Kind
from jobs.runner import JobTask

KINDS = {
    "test-sleep": Kind("test-sleep", "tests.jobs.sleep"),
    "test-fail": Kind("test-fail", "tests.jobs.fail"),
    "test-die": Kind("test-die", "tests.jobs.die"),
}
for kind in KINDS.values():
    kinds.register(kind)  # in the worker too, so that its sweeper can requeue them


@shared_task(base=JobTask, bind=True, name="tests.jobs.sleep")
def sleep(self, job_id):
    def work(job):
        time.sleep(job.parameters["seconds"])
        return {"slept": job.parameters["seconds"], "pid": os.getpid()}

    runner.run(self, job_id, work)


@shared_task(base=JobTask, bind=True, name="tests.jobs.fail")
def fail(self, job_id):
    def work(job):
        raise RuntimeError(job.parameters["message"])

    runner.run(self, job_id, work)


@shared_task(base=JobTask, bind=True, name="tests.jobs.die")
def die(self, job_id):
    def work(job):
        os.kill(os.getpid(), signal.SIGKILL)

    runner.run(self, job_id, work)


PART_DELAY = float(os.environ.get("HEXSIDE_TEST_PART_DELAY") or 0)
if PART_DELAY:
    from maps import tasks as map_tasks

    _analyse_part = map_tasks.analyse_part

    def slow_analyse_part(job, part):
        time.sleep(PART_DELAY)
        return _analyse_part(job, part)

    map_tasks.analyse_part = slow_analyse_part
