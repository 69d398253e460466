"""Issue 17, point 12: every page is sent with a Content-Security-Policy that runs no inline script, and no page
needs one. The browser tests' `page` fixture fails on anything the policy refuses in real Chromium; this checks the
header and the markup of every page and template without a browser."""

import re
from pathlib import Path

import pytest
from django.core.management import call_command

from authoring.models import Scenario
from maps.models import Map

TEMPLATES = Path("templates")
# A script element without src runs inline, unless it is data (json_script's type="application/json").
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>", re.I)
EVENT_ATTRIBUTE = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
STYLE_ATTRIBUTE = re.compile(r"<[^>]+\sstyle\s*=", re.I)


def policy(response):
    header = response.headers.get("Content-Security-Policy", "")
    return {d.split()[0]: d.split()[1:] for d in (part.strip() for part in header.split(";")) if d}


def markup_problems(html):
    return (INLINE_SCRIPT.findall(html) + EVENT_ATTRIBUTE.findall(html) + STYLE_ATTRIBUTE.findall(html)
            + re.findall(r"<style[^>]*>", html, re.I))


@pytest.mark.parametrize("template", sorted(str(p) for p in TEMPLATES.rglob("*.html")))
def test_no_template_holds_inline_script_or_style(template):
    assert markup_problems(Path(template).read_text()) == []


@pytest.fixture
def pages(db, user):
    call_command("load_samples", verbosity=0)
    call_command("load_scenario_samples", verbosity=0)
    a_map, scenario = Map.objects.order_by("pk").first(), Scenario.objects.order_by("pk").first()
    return ["/", "/maps/mine/", "/maps/new/", "/maps/import/", f"/maps/{a_map.pk}/", f"/maps/{a_map.pk}/edit/",
            "/scenarios/", f"/scenarios/{scenario.pk}/", "/validations/", "/no-such-page/"]


ANONYMOUS_PAGES = ["/", "/scenarios/", "/accounts/login/", "/accounts/signup/", "/admin/login/", "/no-such-page/"]


def test_every_page_is_sent_with_a_policy_that_runs_no_inline_script(client, user, pages):
    for url in ANONYMOUS_PAGES + ["signed in"] + pages:
        if url == "signed in":
            client.force_login(user)
            continue
        response = client.get(url)
        assert response.status_code in (200, 404), url
        directives = policy(response)
        assert directives.get("script-src") == ["'self'"], (url, directives)
        assert directives.get("style-src") == ["'self'"], (url, directives)
        assert directives.get("object-src") == ["'none'"] and directives.get("frame-ancestors") == ["'none'"], url
        assert markup_problems(response.content.decode()) == [], url


def test_api_docs_run_no_inline_script_either(client):
    page = client.get("/api/docs/")
    directives = policy(page)
    assert directives["script-src"] == ["'self'"]
    assert INLINE_SCRIPT.findall(page.content.decode()) == []
    script = re.search(r'<script src="([^"]*script=[^"]*)"', page.content.decode()).group(1)
    start = client.get(script.replace("&amp;", "&"))
    assert start.status_code == 200 and "SwaggerUIBundle" in start.content.decode()
