"""The routes of batch validation: its pages and /api/validations/."""

from django.urls import path

from validations import api, views

urlpatterns = [
    path("validations/", views.validations_page, name="validations"),
    path("validations/<int:pk>/", views.validation_page, name="validation-page"),
    path("validations/<int:pk>/report.json", views.validation_download, name="validation-download"),
    path("validations/<int:pk>/files/<int:index>/open/", views.open_file_page, name="validation-open"),
    path("validations/<int:pk>/files/<int:index>/mapping.json", views.mapping_download, name="validation-mapping"),
    path("validations/<int:pk>/files/<int:index>/mapping/", views.mapping_page, name="validation-mapping-step"),
    path("validations/mappings/<int:pk>.json", views.saved_mapping_download, name="saved-mapping"),
    path("api/validations/", api.ValidationListView.as_view(), name="api-validations"),
    path("api/validations/<int:pk>/", api.ValidationDetailView.as_view(), name="api-validation"),
    path("api/validations/<int:pk>/files/<int:index>/open/", api.ValidationOpenView.as_view(),
         name="api-validation-open"),
    path("api/validations/<int:pk>/files/<int:index>/mapping/", api.MappingReadView.as_view(),
         name="api-validation-mapping"),
    path("api/validations/<int:pk>/files/<int:index>/preview/", api.MappingPreviewView.as_view(),
         name="api-validation-preview"),
    path("api/validations/<int:pk>/files/<int:index>/confirm/", api.MappingConfirmView.as_view(),
         name="api-validation-confirm"),
]
