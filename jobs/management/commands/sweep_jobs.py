from django.core.management.base import BaseCommand

from jobs.sweep import sweep


class Command(BaseCommand):
    help = ("Requeue (or fail, after JOBS_MAX_ATTEMPTS) the jobs whose worker stopped answering. Workers do this "
            "themselves; the command is for cron, or when no worker is left.")

    def handle(self, *args, **options):
        done = sweep()
        for job_id, what in done:
            self.stdout.write(f"job {job_id}: {what}")
        if not done:
            self.stdout.write("nothing to sweep")
