from django.apps import AppConfig


class ScenariosConfig(AppConfig):
    """Scenarios: sides, OOB, setup zones and victory conditions over maps. The label is the one its tables were
    made under (the app was called authoring), so the database and its migrations are unchanged."""

    name = "scenarios"
    label = "authoring"
    verbose_name = "Scenarios"
