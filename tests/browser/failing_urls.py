"""The site's URLs plus one page that fails, so that a browser test sees the 500 page a real failure draws."""

from django.urls import path

from hexside.urls import handler404, handler500  # noqa: F401 - the handlers are read here
from hexside.urls import urlpatterns as site


def fail(request):
    raise RuntimeError("a failure the chrome test asked for")


urlpatterns = [path("test-failure/", fail), *site]
