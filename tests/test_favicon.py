"""Every page names the site's icon, and /favicon.ico leads to it: no browser logs a 404 for it."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def test_pages_name_an_icon_that_is_served(client):
    page = client.get("/")
    assert page.status_code == 200
    href = re.search(r'<link rel="icon" href="([^"]+)"', page.content.decode())
    assert href, "the page names no icon"
    assert href.group(1).startswith(settings.STATIC_URL if settings.STATIC_URL.startswith("/") else "/static/")
    found = finders.find(href.group(1).split("/static/", 1)[1])  # what collectstatic gives whitenoise to serve
    assert found and Path(found).read_text().startswith("<svg")
    legacy = client.get("/favicon.ico")
    assert legacy.status_code == 301 and legacy["Location"] == href.group(1)
