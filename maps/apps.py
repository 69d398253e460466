from django.apps import AppConfig


class MapsConfig(AppConfig):
    name = "maps"
    verbose_name = "Maps"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.db.models.signals import post_delete

        from engine import rulesets
        from maps import quotas, scans
        from maps.models import Map, background_changed, custom_rulesets

        # The one way custom rulesets are found, by every entry point: the catalogue asks on each lookup.
        rulesets.set_loader(custom_rulesets)
        # A deleted map's board scans go with it (the handler lives with the scans; the models don't import them).
        post_delete.connect(scans.forget_deleted, sender=Map, dispatch_uid="maps.scans.forget_deleted")
        # A replaced or removed scan's file goes once the revision that dropped it is committed.
        background_changed.connect(scans.replaced, sender=Map, dispatch_uid="maps.scans.replaced")
        # A map's revisions and its scan count towards its owner's storage quota.
        quotas.register("maps", map_bytes)
        register_jobs()


def map_bytes(user_id):
    from django.db.models import F, Sum

    from maps.models import Map

    total = Map.objects.filter(owner_id=user_id).aggregate(n=Sum(F("stored_bytes") + F("scan_bytes")))["n"]
    return total or 0


def register_jobs():
    """The jobs about a map, and who may read them: the job layer knows maps only from here."""
    from jobs import kinds, subjects
    from maps import jobs
    from maps.models import Map

    subjects.register(subjects.Subject("map", Map, readable=Map.objects.visible_to, label="map"))
    for kind in jobs.kinds():  # with what each costs, beside the views that check their requests
        kinds.register(kind)
