from django.conf import settings
from django.core.management.base import BaseCommand

from engine.los.warm import warm


class Command(BaseCommand):
    help = "Compile every ruleset's LOS kernels into numba's cache (HEXSIDE_NUMBA_CACHE_DIR), so that the first " \
           "answer of a fresh process does not wait for them."
    requires_system_checks = []

    def handle(self, *args, **options):
        total = 0.0
        for ruleset, seconds in warm():
            total += seconds
            if options["verbosity"] > 1:
                self.stdout.write(f"{ruleset}: {seconds:.1f} s")
        if options["verbosity"] > 0:
            self.stdout.write(f"kernels ready in {settings.HEXSIDE_NUMBA_CACHE_DIR} ({total:.1f} s)")
