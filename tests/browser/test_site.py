"""The site's own pages in real Chromium, as a designer uses them: sign up, a new map (with a board scan), the
lists with their thumbnails, importing a file, duplicating, deleting after a confirmation, signing out and in;
and bad input answered on the page with nothing created."""

import json
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import expect

from maps.models import Map
from tests.data import COMMUNITY

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path("tests/browser/artifacts")
WESNOTH = (COMMUNITY / "cjhopman+Battle-for-Wesnoth-on-Android" / "wesnoth-1.8.5" / "data" / "multiplayer" / "maps"
           / "2p_Hamlets.map")
SAMPLE = Path("maps/samples/hill-112.json")


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def shot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"site-{name}.png"), full_page=True)


def thumbnails_loaded(page):
    page.wait_for_load_state("networkidle")
    return page.evaluate("() => [...document.querySelectorAll('img.thumb')].map(i => i.complete && i.naturalWidth)")


def row(page, name):
    return page.locator("tbody tr", has=page.locator("a.map-name", has_text=name))


def test_a_designer_signs_up_makes_imports_duplicates_and_deletes_maps(live_server, page, media, tmp_path):
    page.goto(live_server.url + "/")
    page.locator("header").get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("cartographer")
    page.locator("#id_password1").fill("a long sapper passphrase")
    page.locator("#id_password2").fill("a long sapper passphrase")
    page.get_by_role("button", name="Sign up").click()
    assert page.locator("h1").inner_text() == "My maps"
    assert " ".join(page.locator("header .who").inner_text().split()).startswith("Signed in as cartographer")
    assert page.locator(".empty").is_visible()

    # A new map with bad input: too many columns, no rows, a "scan" that is not an image. Nothing is created.
    page.get_by_role("link", name="New map").first.click()
    not_image = tmp_path / "notes.png"
    not_image.write_text("these are my notes, not a scan")
    page.get_by_label("Name").fill("Carentan")
    page.get_by_label("Columns").fill("900")
    page.get_by_label("Rows").fill("0")
    page.get_by_label("Board scan").set_input_files(str(not_image))
    page.get_by_role("button", name="Create the map").click()
    errors = page.locator(".field.has-errors")
    text = page.locator("main form").inner_text()
    assert errors.count() == 3, text
    assert "1 to 500" in page.locator(".field.has-errors", has=page.get_by_label("Columns")).inner_text()
    assert "not a PNG or JPEG" in text
    assert page.locator(".form-errors").is_visible()
    shot(page, "new-map-errors")
    assert Map.objects.count() == 0

    # Corrected, with a real scan: created, and the scan is under the map.
    scan = tmp_path / "board.png"
    Image.new("RGB", (400, 300), (200, 190, 150)).save(scan)
    page.get_by_label("Name").fill("Carentan")
    page.get_by_label("Ruleset").select_option("ost")
    page.get_by_label("Orientation").select_option("flat")
    page.get_by_label("Columns").fill("14")
    page.get_by_label("Rows").fill("10")
    page.get_by_label("Stagger").select_option("even")
    page.get_by_label("Hex labels").select_option("letter-number")
    page.get_by_label("Hex size (metres)").fill("40")
    page.get_by_label("Board scan").set_input_files(str(scan))
    page.get_by_role("button", name="Create the map").click()
    assert page.locator("h1").inner_text().startswith("Carentan")
    assert "Created Carentan." in page.locator(".messages").inner_text()
    made = Map.objects.get()
    assert made.owner.username == "cartographer" and made.published is False
    assert made.grid == {"orientation": "flat", "columns": 14, "rows": 10, "stagger": "even",
                         "labels": "letter-number", "hex_metres": 40}
    background = made.document["background"]
    assert (Path(media) / "maps" / str(made.pk) / "scans" / background["image"]).is_file()
    assert page.get_by_role("link", name="Edit in the painter").get_attribute("href") == f"/maps/{made.pk}/edit/"

    # Listed under My maps with its thumbnail, drawn once and kept by content hash.
    page.locator("header").get_by_role("link", name="My maps").click()
    expect(row(page, "Carentan")).to_have_count(1)
    assert all(thumbnails_loaded(page))
    thumbs = list((Path(media) / "map-images" / "thumb").glob(f"{made.content_hash}-*.png"))
    assert len(thumbs) == 1

    # Import: a broken file is refused with its findings, then the sample file is imported.
    broken = tmp_path / "broken.json"
    data = json.loads(SAMPLE.read_text())
    data["hexes"][0]["terrain"] = ["lava"]
    data["colour"] = "red"
    broken.write_text(json.dumps(data))
    page.get_by_role("link", name="Import a map file").click()
    page.get_by_label("Map file").set_input_files(str(broken))
    page.get_by_role("button", name="Import").click()
    findings = page.locator(".field.has-errors .errorlist li")
    assert findings.count() >= 2, page.locator("main form").inner_text()
    texts = findings.all_inner_texts()
    assert any("lava" in t for t in texts) and any("colour" in t for t in texts)
    shot(page, "import-errors")
    assert Map.objects.count() == 1
    page.get_by_label("Map file").set_input_files(str(SAMPLE))
    page.get_by_label("Published").check()
    page.get_by_role("button", name="Import").click()
    imported = Map.objects.get(name=data["name"])
    assert imported.published and imported.owner == made.owner
    assert page.locator("h1").inner_text().startswith(imported.name)

    # A community map on the same page: converted in the background for the game chosen, followed on its report.
    page.locator("header").get_by_role("link", name="Import").click()
    page.get_by_label("Map file").set_input_files(str(WESNOTH))
    page.get_by_label("Ruleset").select_option("tocs")
    page.get_by_role("button", name="Import").click()
    page.wait_for_url("**/validations/*/")
    assert page.locator("h1").inner_text() == f"Validation of {WESNOTH.name}"
    shot(page, "import-community-map")

    # Duplicate from the list: a private copy with its own history.
    page.locator("header").get_by_role("link", name="My maps").click()
    row(page, imported.name).get_by_role("button", name=f"Duplicate {imported.name}").click()
    copy = Map.objects.get(name=f"{imported.name} (copy)")
    assert copy.content_hash != imported.content_hash  # the name is in the file
    assert copy.mapdoc().hexes == imported.mapdoc().hexes and not copy.published
    assert copy.revisions.get().summary.startswith(f"duplicated from map {imported.pk}")
    page.locator("header").get_by_role("link", name="My maps").click()
    expect(page.locator("tbody tr")).to_have_count(3)
    assert all(thumbnails_loaded(page)) and len(thumbnails_loaded(page)) == 3
    shot(page, "my-maps")

    # Delete the copy, after its confirmation page; "Keep it" first changes nothing.
    row(page, copy.name).get_by_role("link", name=f"Delete {copy.name}").click()
    assert "cannot be undone" in page.locator("main").inner_text()
    shot(page, "delete-confirmation")
    page.get_by_role("link", name="Keep it").click()
    assert Map.objects.filter(pk=copy.pk).exists()
    page.get_by_role("link", name="Delete…").click()
    page.get_by_role("button", name="Delete the map").click()
    assert page.locator("h1").inner_text() == "My maps"
    assert f"Deleted {copy.name}." in page.locator(".messages").inner_text()
    assert not Map.objects.filter(pk=copy.pk).exists() and Map.objects.count() == 2

    # The published map is on the public list; the private one is not.
    page.locator("header").get_by_role("link", name="Published maps").click()
    expect(page.locator("h1")).to_have_text("Published maps")  # the new page, not My maps still on screen
    names = page.locator("a.map-name").all_inner_texts()
    assert imported.name in names and "Carentan" not in names
    shot(page, "published-maps")

    # Sign out, then in again on the site's own page (not the admin's).
    page.get_by_role("button", name="Sign out").click()
    expect(page.locator("header").get_by_role("link", name="Sign in")).to_be_visible()
    page.goto(live_server.url + "/maps/new/")
    assert page.url.startswith(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("cartographer")
    page.get_by_label("Password").fill("wrong")
    page.get_by_role("button", name="Sign in").click()
    assert "correct username and password" in page.locator(".form-errors").inner_text()
    shot(page, "sign-in-error")
    page.get_by_label("Password").fill("a long sapper passphrase")
    page.get_by_role("button", name="Sign in").click()
    assert page.locator("h1").inner_text() == "New map"
