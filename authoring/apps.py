from django.apps import AppConfig
from django.db.models import Sum
from django.db.models.signals import post_save

from jobs import kinds
from maps import dependents, quotas


class ScenariosConfig(AppConfig):
    """Scenarios: sides, OOB, setup zones and victory conditions over maps (the app the design card calls
    authoring, under the label its tables were made with)."""

    name = "authoring"
    label = "authoring"
    verbose_name = "Scenarios"

    def ready(self):
        # These load models: only once the app registry is ready.
        from authoring import jobs
        from authoring.models import Scenario, map_dependents, map_saved
        from authoring.readers import may_read_job
        from jobs import subjects
        from maps.models import Map

        # The jobs about a scenario, and who may read them: the job layer knows scenarios only from here.
        subjects.register(subjects.Subject("scenario", Scenario, readable=Scenario.objects.visible_to,
                                           label="scenario", may_read_job=may_read_job))
        for kind in jobs.kinds():  # with what each costs, beside the views that check their requests
            kinds.register(kind)
        post_save.connect(map_saved, sender=Map, dispatch_uid="scenarios-map-unpublished")
        dependents.register(map_dependents)
        # A scenario's revisions (with the maps it embeds) count towards its owner's storage quota.
        quotas.register("scenarios", scenario_bytes)


def scenario_bytes(user_id):
    """What a user's scenarios take: their revisions."""
    from authoring.models import Scenario  # a model: only once the app registry is ready

    return Scenario.objects.filter(owner_id=user_id).aggregate(n=Sum("stored_bytes"))["n"] or 0
