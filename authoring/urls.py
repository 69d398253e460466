"""The scenario routes: the editor page, /api/scenarios/ and the scenario's jobs."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from authoring import api, jobs, views

router = DefaultRouter()
router.register("scenarios", api.ScenarioViewSet, basename="scenario")

urlpatterns = [
    path("scenarios/", views.scenario_list, name="scenario-list-page"),
    path("scenarios/import/", views.scenario_import, name="scenario-import-page"),
    path("scenarios/<int:pk>/", views.scenario_page, name="scenario-page"),
    path("scenarios/<int:pk>/duplicate/", views.scenario_duplicate, name="scenario-duplicate"),
    path("scenarios/<int:pk>/delete/", views.scenario_delete, name="scenario-delete"),
    path("scenarios/<int:pk>/map/", views.scenario_point_at, name="scenario-point-at"),
    path("scenarios/<int:pk>/publish/", views.scenario_publish, name="scenario-publish"),
    path("scenarios/<int:pk>/side/<str:token>/", views.side_link, name="scenario-side-link"),
    path("scenarios/<int:pk>/links/", views.side_link_make, name="scenario-side-link-make"),
    path("scenarios/<int:pk>/links/<int:link_id>/revoke/", views.side_link_revoke, name="scenario-side-link-revoke"),
    path("scenarios/<int:pk>/editors/", views.editor_add, name="scenario-editor-add"),
    path("scenarios/<int:pk>/editors/<int:editor_id>/remove/", views.editor_remove, name="scenario-editor-remove"),
    path("api/scenarios/<int:pk>/checks/", jobs.ChecksJobView.as_view(), name="scenario-checks-job"),
    path("api/scenarios/<int:pk>/sight-lines/", jobs.SightLinesJobView.as_view(), name="scenario-sight-lines-job"),
    path("api/scenarios/<int:pk>/print/", jobs.ExportJobView.as_view(), name="scenario-export-job"),
    path("api/", include(router.urls)),
]
