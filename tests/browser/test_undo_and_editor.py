"""Undo after a reload and in another tab (the history rebuilt from the revisions, documents/undo.py), in the
painter and in the scenario editor; the scenario editor's maps, its out-of-zone flag and its OOB table at 1366."""

import pytest

from maps.models import Map
from tests.browser.painting import ARTIFACTS, blank_map, cells, drag, open_editor, point, sign_in, wait_saved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def designer(django_user_model):
    return django_user_model.objects.create_user("designer", password="designer-password")


def undo_ready(page, expected, button="#undo"):
    """Wait until the Undo (or Redo) button says it can take back ``expected``."""
    try:
        page.wait_for_function("([b, e]) => !document.querySelector(b).disabled && document.querySelector(b).title"
                               ".includes(e)", arg=[button, expected], timeout=10000)
    except Exception:
        raise AssertionError(page.evaluate("(b) => document.querySelector(b).title", button)) from None


def test_painter_undo_survives_a_reload_and_another_tab(live_server, browser, page, designer):
    sign_in(page, live_server, designer)
    map = blank_map(designer, name="Reloaded")
    open_editor(page, live_server, map.pk)
    page.select_option("[data-option=terrain]", "woods")
    drag(page, [point(page, "B2"), point(page, "C2")])
    wait_saved(page)
    page.select_option("[data-option=terrain]", "marsh")
    page.mouse.click(*point(page, "E5"))
    wait_saved(page)
    assert cells(map.pk)["E5"]["terrain"] == ["marsh"]

    page.reload()
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=15000)
    undo_ready(page, "E5")
    page.click("#undo")
    wait_saved(page)
    assert "E5" not in cells(map.pk) or cells(map.pk)["E5"]["terrain"] == ["open"]
    assert cells(map.pk)["B2"]["terrain"] == ["woods"]
    revision = Map.objects.get(pk=map.pk).revision
    assert revision == 4  # created, two strokes, the undo: a new revision, history kept
    assert Map.objects.get(pk=map.pk).revisions.get(number=revision).summary.startswith("undo of revision 3")
    page.screenshot(path=f"{ARTIFACTS}/undo-after-reload.png")

    # Another tab of the same designer: the same history, the redo of the undo first, then the first stroke.
    other = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors = []
    other.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(other, live_server, designer)
    open_editor(other, live_server, map.pk)
    undo_ready(other, "E5", "#redo")
    undo_ready(other, "woods")
    other.click("#redo")
    wait_saved(other)
    assert cells(map.pk)["E5"]["terrain"] == ["marsh"]
    # The first tab sees the stroke of the second (polling) and its history follows.
    page.wait_for_function("() => document.body.dataset.revision === '5'", timeout=15000)
    undo_ready(page, "E5")
    page.click("#undo")
    wait_saved(page)
    page.click("#undo")
    wait_saved(page)
    assert all(e["terrain"] == ["open"] for e in cells(map.pk).values())
    assert page.locator("#undo").is_disabled()
    other.screenshot(path=f"{ARTIFACTS}/undo-other-tab.png")
    other.context.close()
    assert errors == []
