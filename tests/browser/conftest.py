"""A real Chromium (Debian's, /usr/bin/chromium) driven by Playwright against pytest-django's live server."""

import os

import pytest

from tests.services import CHROMIUM, Shared, need_chromium

# Playwright's sync API runs an event loop in this thread; the live server's database work happens in its own
# thread, so Django's guard against ORM calls from async code does not apply to what these tests do.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


def open_chromium():
    need_chromium()
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    return playwright, playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def close_chromium(opened):
    playwright, browser = opened
    browser.close()
    playwright.stop()


@pytest.fixture(scope="session")
def chromium():
    """The one Chromium of this test process, shared by the browser tests (tests.services.Shared): they run one
    after another, and it is closed after the last, before any other test runs (Playwright's event loop)."""
    shared = Shared(open_chromium, close_chromium)
    yield shared
    shared.stop()


@pytest.fixture
def browser(chromium):
    return chromium.get()[1]


@pytest.fixture
def jobs(worker, jobs_dir):
    """The LOS, viewshed, analysis and export jobs of the pages, run by the shared worker (tests/jobs/fixtures.py);
    the folder whose media/ holds their files."""
    return jobs_dir


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
