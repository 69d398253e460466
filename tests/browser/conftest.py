"""A real Chromium (Debian's, /usr/bin/chromium) driven by Playwright against pytest-django's live server."""

import os

import pytest

from tests.services import CHROMIUM, need_chromium

# Playwright's sync API runs an event loop in this thread; the live server's database work happens in its own
# thread, so Django's guard against ORM calls from async code does not apply to what these tests do.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


@pytest.fixture(scope="session")
def browser():
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors, refused = [], []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # What the Content-Security-Policy refused (an inline script, a style attribute, a foreign source): Chromium
    # reports each on the console. Every page of every browser test must need nothing the policy refuses.
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    yield page
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"
    assert refused == [], f"refused by the Content-Security-Policy: {refused}"
