from django.apps import AppConfig


class MapsConfig(AppConfig):
    name = "maps"
    verbose_name = "Maps"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # The one way custom rulesets are found, by every entry point: the catalogue asks on each lookup.
        from engine import rulesets
        from maps.models import custom_rulesets

        rulesets.set_loader(custom_rulesets)
