from django.apps import AppConfig


class ValidationsConfig(AppConfig):
    name = "validations"
    verbose_name = "Batch validations"
    default_auto_field = "django.db.models.BigAutoField"
