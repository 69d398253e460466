from django.apps import AppConfig
from django.db.models import F, Sum
from django.db.models.signals import post_delete

from engine import rulesets
from jobs import kinds
from maps import quotas


class MapsConfig(AppConfig):
    name = "maps"
    verbose_name = "Maps"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # These load models: only once the app registry is ready.
        from jobs import subjects
        from maps import jobs, scans, sight_jobs
        from maps.custom_rulesets import custom_rulesets
        from maps.models import Map

        # The one way custom rulesets are found, by every entry point: the catalogue asks on each lookup.
        rulesets.set_loader(custom_rulesets)
        # A deleted map's board scans go with it (the handler lives with the scans; the models don't import them).
        post_delete.connect(scans.forget_deleted, sender=Map, dispatch_uid="maps.scans.forget_deleted")
        # A map's revisions and its scan count towards its owner's storage quota.
        quotas.register("maps", map_bytes)
        # A job's result file (a print, a card, an export) counts towards its requester's until it expires.
        quotas.register("job files", job_file_bytes)
        # The jobs about a map, and who may read them: the job layer knows maps only from here.
        subjects.register(subjects.Subject("map", Map, readable=Map.objects.visible_to, label="map"))
        for kind in (*jobs.kinds(), *sight_jobs.kinds()):  # with what each costs, beside the views that check
            kinds.register(kind)


def job_file_bytes(user_id):
    """What the result files of a user's jobs take (jobs.sweep deletes them after JOBS_FILE_DAYS)."""
    from jobs.models import Job  # a model: only once the app registry is ready

    return Job.objects.filter(requested_by_id=user_id).aggregate(n=Sum("result_bytes"))["n"] or 0


def map_bytes(user_id):
    """What a user's maps take: their revisions and their board scans."""
    from maps.models import Map  # a model: only once the app registry is ready

    total = Map.objects.filter(owner_id=user_id).aggregate(n=Sum(F("stored_bytes") + F("scan_bytes")))["n"]
    return total or 0
