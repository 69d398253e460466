"""The mapping step in a real browser with a real worker: a Wesnoth map with a code nothing fits, imported from the
Import page, opened through its mapping page, a terrain changed in the picker, the preview redrawn, confirmed,
and the map opened with the terrain chosen."""

import json
from pathlib import Path

import pytest

from maps.models import Map
from tests.browser.test_validation import sign_in
from validations.models import BatchFile, SavedMapping

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def wesnoth_map(columns=14, rows=10):
    """Grass with a forest, a lake, hills, and a patch of ``Zz``, a code nothing fits (a border all round)."""
    lines = []
    for y in range(rows + 2):
        cells = []
        for x in range(columns + 2):
            if 3 <= x <= 6 and 3 <= y <= 6:
                cells.append("Zz")
            elif 9 <= x <= 12 and 2 <= y <= 4:
                cells.append("Gs^Fp")
            elif 8 <= x <= 11 and 7 <= y <= 9:
                cells.append("Wwt")
            elif x == 2 and y >= 7:
                cells.append("Hh")
            else:
                cells.append("Gg")
        lines.append(", ".join(cells))
    return ("\n".join(lines) + "\n").encode()



def import_file(page, live_server, name, content, ruleset="ost"):
    """A file through the Import page, for ``ruleset``; back once the batch's report says its job succeeded."""
    page.goto(live_server.url + "/maps/import/")
    page.set_input_files("input[type=file]", files=[{"name": name, "mimeType": "text/plain", "buffer": content}])
    page.select_option("select[name=ruleset]", ruleset)
    page.get_by_role("button", name="Import").click()
    page.wait_for_url("**/validations/*/")
    page.wait_for_function("() => document.getElementById('status-text').textContent === 'succeeded' "
                           "&& document.querySelectorAll('#files tbody tr').length > 0", timeout=120000)


def test_map_an_unknown_code_in_the_picker_watch_the_preview_and_open_the_map(
        live_server, page, worker, django_user_model):
    user = django_user_model.objects.create_user("mapper", password="x")
    sign_in(page, live_server, user)

    # The Import page sends the Wesnoth map to a batch validation, whose report opens it through the mapping step.
    import_file(page, live_server, "marsh_valley.map", wesnoth_map())
    row = BatchFile.objects.get(batch__owner=user)
    assert row.mapping["terrain"]["Zz"]["flag"]
    page.locator("#files").get_by_role("link", name="Open as my map").click()
    page.wait_for_url("**/mapping/")

    # The proposal: Zz listed with its count and hexes, left open and flagged; the preview drawn and saying so.
    zz = page.locator("tr[data-code='Zz']")
    assert "16" in zz.inner_text() and zz.get_attribute("class") == "flagged"
    assert "level +1" in page.locator("tr[data-code='Hh']").inner_text()  # Wesnoth's hills: a level of their own
    assert page.locator("select[data-code='Zz']").input_value() == ""
    page.wait_for_function("() => document.getElementById('preview-image').dataset.drawn", timeout=60000)
    first = page.locator("#preview-image").get_attribute("src")
    assert first.startswith("data:image/png;base64,")
    assert "left as 'open'" in page.locator("#preview-findings").inner_text()
    page.screenshot(path=str(ARTIFACTS / "mapping-step-proposal.png"), full_page=True)

    # Zz becomes marsh in the picker: the preview is drawn again, and nothing is left open any more.
    page.select_option("select[data-code='Zz']", "marsh")
    page.wait_for_function("first => document.getElementById('preview-image').src !== first "
                           "&& !document.querySelector('.preview').classList.contains('stale')", arg=first,
                           timeout=60000)
    assert "left as 'open'" not in page.locator("#preview-findings").inner_text()
    assert zz.get_attribute("class") in ("", None)
    assert zz.locator(".confidence").inner_text() == "yours" and not zz.locator(".reason").is_visible()
    assert not Map.objects.filter(owner=user).exists()  # nothing written before confirming
    page.screenshot(path=str(ARTIFACTS / "mapping-step-edited.png"), full_page=True)

    # The mapping as it stands on the page downloads as the file import_map --mapping reads.
    with page.expect_download() as download:
        page.get_by_role("button", name="Download this mapping (JSON)").click()
    mapping = json.loads(Path(download.value.path()).read_text())
    assert download.value.suggested_filename == "marsh_valley-mapping.json"
    assert mapping["terrain"]["Zz"]["terrain"] == "marsh" and mapping["source"] == "wesnoth"

    # Confirming converts the file again with the mapping and opens it as the designer's map, in the painter.
    page.get_by_role("button", name="Confirm and open as my map").click()
    page.wait_for_url("**/maps/*/**", timeout=60000)
    map = Map.objects.get(owner=user)
    hexes = {h["hex"]: h for h in json.loads(map.export())["hexes"]}
    assert all(hexes[label]["terrain"] == ["marsh"] for label in row.mapping["terrain"]["Zz"]["hexes"])
    assert SavedMapping.objects.filter(owner=user, source="wesnoth").exists()
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(ARTIFACTS / "mapping-step-opened.png"))


def community_zip():
    """What a designer might drop on the Import page at once: a Tiled map with its external tileset, a MegaMek
    board whose elevations pass OST's levels, and a VASSAL module holding two boards."""
    import io
    import zipfile

    from tests.data import COMMUNITY
    from tests.data.megamek import BOARDS
    from tests.maps.test_import_commands import VASSAL

    cherry = COMMUNITY / "Yanrishatum+cherry-jam"
    text = VASSAL.read_text()
    start = text.index('<VASSAL.build.module.map.boardPicker.Board image="map.jpg" name="Map"')
    end = text.index("</VASSAL.build.module.map.boardPicker.Board>", start) + len(
        "</VASSAL.build.module.map.boardPicker.Board>")
    module = io.BytesIO()
    with zipfile.ZipFile(module, "w") as archive:
        archive.writestr("buildFile.xml", text[:end] + text[start:end].replace('name="Map"', 'name="North"')
                         + text[end:])
        archive.writestr("images/map.jpg", (VASSAL.parent / "images" / "map.jpg").read_bytes())
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in ("hex-final.tmx", "hex-tileset.tsx", "hex-tileset.png"):
            archive.writestr(f"tiled/{name}", (cherry / name).read_bytes())
        archive.writestr("megamek/14x14 Ravine.board", BOARDS["14x14 Ravine.board"])
        archive.writestr("vassal/two-boards.vmod", module.getvalue())
    return out.getvalue()


def test_a_zip_of_tiled_megamek_and_a_two_board_module_through_the_import_page(
        live_server, page, worker, django_user_model):
    from maps import scans

    user = django_user_model.objects.create_user("collector", password="x")
    sign_in(page, live_server, user)
    page.goto(live_server.url + "/maps/import/")
    page.set_input_files("input[type=file]", files=[{"name": "community.zip", "mimeType": "application/zip",
                                                     "buffer": community_zip()}])
    page.get_by_role("button", name="Import").click()
    page.wait_for_url("**/validations/*/")
    page.wait_for_function("() => document.getElementById('status-text').textContent === 'succeeded' "
                           "&& document.querySelectorAll('#files tbody tr').length === 4", timeout=180000)
    page.screenshot(path=str(ARTIFACTS / "import-community-zip-report.png"), full_page=True)
    rows = {r.name.split("!", 1)[1]: r for r in BatchFile.objects.filter(batch__owner=user)}
    assert set(rows) == {"tiled/hex-final.tmx", "megamek/14x14 Ravine.board", "vassal/two-boards.vmod#Map",
                         "vassal/two-boards.vmod#North"}
    assert all(r.verdict != "invalid" for r in rows.values()), {n: r.groups for n, r in rows.items()}
    tiled = rows["tiled/hex-final.tmx"]  # the default mapping fits it: proposed as it is, to check in the step
    assert tiled.source_format == "tiled" and all(e["confidence"] >= 0.9 for e in tiled.mapping["terrain"].values())
    assert not any(g["code"] == "proposed-mapping" for g in tiled.groups)

    # The MegaMek board's elevations do not fit: its mapping step proposes a scale, and the preview shows it.
    ravine = rows["megamek/14x14 Ravine.board"]
    assert ravine.mapping["levels"]["confidence"] < 1
    page.locator(f"#files tr[data-index='{ravine.index}']").get_by_role("link", name="Open as my map").click()
    page.wait_for_url("**/mapping/")
    page.wait_for_function("() => document.getElementById('preview-image').dataset.drawn", timeout=60000)
    page.screenshot(path=str(ARTIFACTS / "mapping-step-megamek.png"), full_page=True)
    page.get_by_role("button", name="Confirm and open as my map").click()
    page.wait_for_url("**/maps/*/**", timeout=60000)
    board = Map.objects.get(owner=user)
    levels = {c.level for c in board.mapdoc().hexes.values()}
    assert levels <= set(range(-1, 4)) and len(levels) > 2  # every elevation in OST's levels, none flattened

    # Each board of the module opens on its own, with its board image as the background to trace over.
    page.goto(live_server.url + f"/validations/{ravine.batch_id}/")
    north = rows["vassal/two-boards.vmod#North"]
    page.locator(f"#files tr[data-index='{north.index}']").get_by_role("button", name="Open as my map").click()
    page.wait_for_url("**/maps/*/**", timeout=60000)
    opened = Map.objects.filter(owner=user).exclude(pk=board.pk).get()
    assert "North" in opened.name
    assert scans.path_of(opened.pk, opened.mapdoc().background["image"]) is not None
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(ARTIFACTS / "import-vassal-board-opened.png"))


def test_a_tiled_map_chosen_with_its_tileset_in_another_folder_and_named_on_the_import_page(
        live_server, page, worker, django_user_model):
    from tests.data import COMMUNITY

    user = django_user_model.objects.create_user("chooser", password="x")
    sign_in(page, live_server, user)
    page.goto(live_server.url + "/maps/import/")
    # The map names "../../tiles/simple hex flat top.tsx"; chosen together, the browser sends names only.
    bevy = COMMUNITY / "adrien-bon+bevy_ecs_tiled"
    chosen = [bevy / "maps" / "hexagonal" / "finite_flat_top_even.tmx", bevy / "tiles" / "simple hex flat top.tsx",
              *sorted((bevy / "tiles" / "simple hex flat top").glob("*.png"))]
    page.set_input_files("input[type=file]", [str(p) for p in chosen])
    page.get_by_label("Map name").fill("Troll valley")
    page.get_by_role("button", name="Import").click()
    page.wait_for_url("**/validations/*/")
    page.wait_for_function("() => document.getElementById('status-text').textContent === 'succeeded' "
                           "&& document.querySelectorAll('#files tbody tr').length === 1", timeout=120000)
    page.screenshot(path=str(ARTIFACTS / "import-chosen-files-report.png"), full_page=True)
    row = BatchFile.objects.get(batch__owner=user)
    assert "missing-tileset" not in json.dumps(row.findings) and row.document["name"] == "Troll valley"
    assert {"forest", "ocean"} <= set(row.mapping["terrain"])  # the tileset's own images named its tiles
    assert "not in the upload" not in page.locator("#files").inner_text()


def test_the_preview_counts_the_reports_errors_and_the_storeys_control_lowers_buildings(
        live_server, page, worker, django_user_model):
    """Issue 32, bug 9: the preview's error count is the report's (a 6-storey Heavy Structure in OST), and the
    mapping step's storeys control takes the error away."""
    from tests.jobs.test_mapping_step import megamek_town

    user = django_user_model.objects.create_user("storeys", password="x")
    sign_in(page, live_server, user)
    import_file(page, live_server, "town.board", megamek_town())
    row = BatchFile.objects.get(batch__owner=user)
    assert any(f["code"] == "building-storeys" for f in row.findings)
    page.goto(f"{live_server.url}/validations/{row.batch_id}/files/{row.index}/mapping/")
    page.wait_for_function("() => document.getElementById('preview-image').dataset.drawn", timeout=60000)
    assert "1 error" in page.inner_text("#preview-status")
    assert "at most 4 storeys; this one has 6" in page.inner_text("#preview-findings")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(ARTIFACTS / "mapping-step-storeys.png"), full_page=True)

    page.fill("#storeys-most", "4")
    page.dispatch_event("#storeys-most", "input")
    page.wait_for_function("() => document.getElementById('preview-status').textContent.includes('0 errors') "
                           "&& !document.querySelector('.preview').classList.contains('stale')", timeout=60000)
    assert "lowered to 4" in page.inner_text("#preview-findings")
