from django.apps import AppConfig


class MapsConfig(AppConfig):
    name = "maps"
    verbose_name = "Maps"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.db.models.signals import post_delete

        from engine import rulesets
        from maps import scans
        from maps.models import Map, custom_rulesets

        # The one way custom rulesets are found, by every entry point: the catalogue asks on each lookup.
        rulesets.set_loader(custom_rulesets)
        # A deleted map's board scans go with it (the handler lives with the scans; the models don't import them).
        post_delete.connect(scans.forget_deleted, sender=Map, dispatch_uid="maps.scans.forget_deleted")
