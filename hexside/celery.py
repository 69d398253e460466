"""The Celery app. The broker comes from CELERY_BROKER_URL; by default a folder on disk (see settings)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexside.settings")

app = Celery("hexside")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
