"""The job routes every kind shares, with full paths: hexside/urls.py includes them at the root. The routes that
start a job are their apps' (maps/urls.py, authoring/urls.py)."""

from django.urls import path

from jobs import api

urlpatterns = [
    path("api/jobs/", api.JobListView.as_view(), name="job-list"),
    path("api/jobs/<int:pk>/", api.JobDetailView.as_view(), name="job-detail"),
    path("api/jobs/<int:pk>/cancel/", api.JobCancelView.as_view(), name="job-cancel"),
    path("api/jobs/<int:pk>/file/", api.JobFileView.as_view(), name="job-file"),
]
