from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

urlpatterns = [
    path("admin/", admin.site.urls),
    # browsers ask for /favicon.ico on pages that name no icon (the API's JSON, a file download)
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("accounts/", include("hexside.accounts")),
    path("", include("jobs.urls")),
    path("", include("authoring.urls")),
    path("", include("validations.urls")),
    path("", include("maps.urls")),
]

handler404 = "hexside.pages.not_found"
handler500 = "hexside.pages.server_error"
