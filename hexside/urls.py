from pathlib import Path

import drf_spectacular_sidecar
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from django.views.static import serve
from drf_spectacular.views import SpectacularAPIView

from hexside import accounts
from web.docs import ApiDocsView

# Swagger UI's files, from the pinned drf-spectacular-sidecar package: the docs page needs no internet.
SWAGGER_UI_DIR = Path(drf_spectacular_sidecar.__file__).parent / "static/drf_spectacular_sidecar/swagger-ui-dist"

urlpatterns = [
    path("admin/", admin.site.urls),
    # browsers ask for /favicon.ico on pages that name no icon (the API's JSON, a file download)
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("accounts/", include("hexside.accounts")),
    path("api/token/", accounts.TokenView.as_view(), name="api-token"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", ApiDocsView.as_view(url_name="schema"), name="api-docs"),
    re_path(r"^api/docs/assets/(?P<path>[\w.-]+)$", serve, {"document_root": SWAGGER_UI_DIR}, name="api-docs-asset"),
    path("", include("jobs.urls")),
    path("", include("authoring.urls")),
    path("", include("validations.urls")),
    path("", include("maps.urls")),
]

handler404 = "hexside.pages.not_found"
handler500 = "hexside.pages.server_error"
