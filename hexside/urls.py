from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("hexside.accounts")),
    path("", include("jobs.urls")),
    path("", include("scenarios.urls")),
    path("", include("validations.urls")),
    path("", include("maps.urls")),
]

handler404 = "hexside.pages.not_found"
handler500 = "hexside.pages.server_error"
