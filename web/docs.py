"""The API's own documentation page."""

from csp.decorators import csp_update
from django.urls import reverse
from django.utils.decorators import method_decorator
from drf_spectacular.views import SpectacularSwaggerSplitView


@method_decorator(csp_update({"style-src": ["'unsafe-inline'"]}), name="dispatch")
class ApiDocsView(SpectacularSwaggerSplitView):
    """Swagger UI from files served by this application, so the page works without the internet. The split view
    serves its start-up script as a file of its own, so the page needs no inline script; Swagger UI styles its
    elements inline, which this view alone allows."""

    @staticmethod
    def _swagger_ui_resource(filename):
        return reverse("api-docs-asset", kwargs={"path": filename})

    @staticmethod
    def _swagger_ui_favicon():
        return reverse("api-docs-asset", kwargs={"path": "favicon-32x32.png"})
