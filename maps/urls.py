"""Every route of maps: the pages and the API under api/ (with the map's jobs). The API's token, schema and
documentation page are the project's (hexside/urls.py)."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from maps import api, jobs, sight_jobs, views

router = DefaultRouter()
router.register("maps", api.MapViewSet, basename="map")
router.register("rulesets", api.RulesetViewSet, basename="ruleset")

urlpatterns = [
    path("", views.home, name="home"),
    path("maps/mine/", views.my_maps, name="my-maps"),
    path("maps/new/", views.map_new, name="map-new"),
    path("maps/import/", views.map_import, name="map-import-page"),
    path("maps/<int:pk>/", views.map_page, name="map-page"),
    path("maps/<int:pk>/thumbnail.png", views.map_thumbnail, name="map-thumbnail"),
    path("maps/<int:pk>/duplicate/", views.map_duplicate, name="map-duplicate"),
    path("maps/<int:pk>/delete/", views.map_delete, name="map-delete"),
    path("maps/<int:pk>/publish/", views.map_publish, name="map-publish"),
    path("maps/<int:pk>/map.png", views.map_image, name="map-image"),
    path("maps/<int:pk>/edit/", views.map_editor, name="map-editor"),
    path("api/maps/<int:pk>/los/", jobs.LosJobView.as_view(), name="map-los-job"),
    path("api/maps/<int:pk>/viewshed/", jobs.ViewshedJobView.as_view(), name="map-viewshed-job"),
    path("api/maps/<int:pk>/analysis/", jobs.AnalysisJobView.as_view(), name="map-analysis-job"),
    path("api/maps/<int:pk>/print/", jobs.MapExportJobView.as_view(), name="map-export-job"),
    path("api/maps/<int:pk>/exposure/", sight_jobs.ExposureJobView.as_view(), name="map-exposure-job"),
    path("api/maps/<int:pk>/route/", sight_jobs.RouteJobView.as_view(), name="map-route-job"),
    path("api/maps/<int:pk>/minimum-height/", sight_jobs.MinimumHeightJobView.as_view(),
         name="map-minimum-height-job"),
    path("api/maps/<int:pk>/diff/", sight_jobs.MapDiffJobView.as_view(), name="map-diff-job"),
    path("api/maps/<int:pk>/los-examples/", sight_jobs.ExamplesJobView.as_view(), name="map-los-examples-job"),
    path("api/", include(router.urls)),
]
