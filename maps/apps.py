from django.apps import AppConfig


class MapsConfig(AppConfig):
    name = "maps"
    verbose_name = "Maps"
    default_auto_field = "django.db.models.BigAutoField"
