from django.apps import AppConfig


class ScenariosConfig(AppConfig):
    """Scenarios: sides, OOB, setup zones and victory conditions over maps (the app the design card calls
    authoring, under the label its tables were made with)."""

    name = "authoring"
    label = "authoring"
    verbose_name = "Scenarios"

    def ready(self):
        register_jobs()
        from django.db.models.signals import post_save

        from authoring.models import map_dependents, map_saved
        from maps import dependents
        from maps.models import Map

        post_save.connect(map_saved, sender=Map, dispatch_uid="scenarios-map-unpublished")
        dependents.register(map_dependents)


def register_jobs():
    """The jobs about a scenario, and who may read them: the job layer knows scenarios only from here."""
    from authoring import jobs
    from authoring.models import Scenario
    from authoring.readers import may_read_job
    from jobs import kinds, subjects

    subjects.register(subjects.Subject("scenario", Scenario, readable=Scenario.objects.visible_to,
                                       label="scenario", may_read_job=may_read_job))
    for kind in jobs.kinds():  # with what each costs, beside the views that check their requests
        kinds.register(kind)
