"""The job routes, with full paths: hexside/urls.py includes them at the root, before maps.urls."""

from django.urls import path

from jobs import api

urlpatterns = [
    path("api/maps/<int:pk>/los/", api.LosJobView.as_view(), name="map-los-job"),
    path("api/maps/<int:pk>/viewshed/", api.ViewshedJobView.as_view(), name="map-viewshed-job"),
    path("api/maps/<int:pk>/analysis/", api.AnalysisJobView.as_view(), name="map-analysis-job"),
    path("api/maps/<int:pk>/print/", api.MapExportJobView.as_view(), name="map-export-job"),
    path("api/jobs/", api.JobListView.as_view(), name="job-list"),
    path("api/jobs/<int:pk>/", api.JobDetailView.as_view(), name="job-detail"),
    path("api/jobs/<int:pk>/cancel/", api.JobCancelView.as_view(), name="job-cancel"),
    path("api/jobs/<int:pk>/file/", api.JobFileView.as_view(), name="job-file"),
]
