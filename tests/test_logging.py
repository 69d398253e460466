"""Issue 17, point 12 (logging): an error is logged with the id of its request, and the answer names that id;
the site's 404 and 500 pages are in its layout."""

import logging

import pytest
from django.test import Client, override_settings
from django.urls import path

from hexside import urls as site_urls
from hexside.logs import RequestIdFilter

pytestmark = pytest.mark.django_db


def broken_page(request):
    raise RuntimeError("a bug in a page")


def broken_api(request):
    raise RuntimeError("a bug in the API")


urlpatterns = [path("broken/", broken_page), path("api/broken/", broken_api), *site_urls.urlpatterns]
handler404 = "hexside.pages.not_found"
handler500 = "hexside.pages.server_error"


@pytest.fixture
def records():
    """What the project's stderr handler would print: records passed through its filter."""
    seen = []

    class Keep(logging.Handler):
        def emit(self, record):
            seen.append(record)

    handler = Keep(level=logging.ERROR)
    handler.addFilter(RequestIdFilter())
    logger = logging.getLogger("django")
    logger.addHandler(handler)
    yield seen
    logger.removeHandler(handler)


@override_settings(ROOT_URLCONF=__name__)
def test_an_api_error_is_logged_with_its_request_id_and_the_answer_names_it(records):
    response = Client(raise_request_exception=False).get("/api/broken/")
    assert response.status_code == 500
    request_id = response["X-Request-ID"]
    body = response.json()
    assert body["request"] == request_id and request_id in body["detail"]
    assert "Traceback" not in response.content.decode()
    logged = [r for r in records if r.request_id == request_id]
    assert logged and logged[0].exc_info and "a bug in the API" in str(logged[0].exc_info[1])


@override_settings(ROOT_URLCONF=__name__)
def test_a_page_error_shows_the_site_500_page_with_the_request_id(records):
    response = Client(raise_request_exception=False).get("/broken/")
    assert response.status_code == 500
    text = response.content.decode()
    request_id = response["X-Request-ID"]
    assert request_id in text and "Hexside" in text and "a bug in a page" not in text
    assert any(r.request_id == request_id for r in records)


def test_request_ids_differ_and_a_client_cannot_choose_one():
    client = Client()
    first = client.get("/", HTTP_X_REQUEST_ID="chosen-by-client")["X-Request-ID"]
    second = client.get("/")["X-Request-ID"]
    assert first != second and "chosen-by-client" not in (first, second) and len(first) == 16


def test_an_unknown_page_is_the_site_404_page():
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    text = response.content.decode()
    assert "Nothing here" in text and "/no/such/page/" in text and 'class="brand"' in text


def test_the_project_logs_to_stderr_with_the_request_id():
    from django.conf import settings

    handler = settings.LOGGING["handlers"]["stderr"]
    assert handler["class"] == "logging.StreamHandler" and "request_id" in handler["filters"]
    assert "%(request_id)s" in settings.LOGGING["formatters"]["plain"]["format"]
