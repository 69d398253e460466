"""Every route of maps: the pages, the API under api/ (with the map's jobs), its schema and its documentation page."""

from pathlib import Path

import drf_spectacular_sidecar
from django.urls import include, path, re_path
from django.views.static import serve
from drf_spectacular.views import SpectacularAPIView
from rest_framework.routers import DefaultRouter

from hexside import accounts
from maps import api, jobs, views

# Swagger UI's files, from the pinned drf-spectacular-sidecar package: the docs page needs no internet.
SWAGGER_UI_DIR = Path(drf_spectacular_sidecar.__file__).parent / "static/drf_spectacular_sidecar/swagger-ui-dist"

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
    path("api/token/", accounts.TokenView.as_view(), name="api-token"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", api.ApiDocsView.as_view(url_name="schema"), name="api-docs"),
    re_path(r"^api/docs/assets/(?P<path>[\w.-]+)$", serve, {"document_root": SWAGGER_UI_DIR}, name="api-docs-asset"),
    path("api/", include(router.urls)),
]
