from django.apps import AppConfig


class ScenariosConfig(AppConfig):
    """Scenarios: sides, OOB, setup zones and victory conditions over maps. The label is the one its tables were
    made under (the app was called authoring), so the database and its migrations are unchanged."""

    name = "scenarios"
    label = "authoring"
    verbose_name = "Scenarios"

    def ready(self):
        register_jobs()
        from django.db.models.signals import post_save

        from maps import dependents
        from maps.models import Map
        from scenarios.models import map_dependents, map_saved

        post_save.connect(map_saved, sender=Map, dispatch_uid="scenarios-map-unpublished")
        dependents.register(map_dependents)


def register_jobs():
    """The jobs about a scenario, and who may read them: the job layer knows scenarios only from here."""
    from jobs import kinds, subjects
    from scenarios import jobs
    from scenarios.models import Scenario
    from scenarios.readers import may_read_job

    subjects.register(subjects.Subject("scenario", Scenario, readable=Scenario.objects.visible_to,
                                       label="scenario", may_read_job=may_read_job))
    for kind in jobs.kinds():  # with what each costs, beside the views that check their requests
        kinds.register(kind)
