"""A scenario's VASSAL module: zones, at-start pieces on their hexes, counters, the sides' windows, the card as a
help file, and nothing hidden in a print of one side's view that the side may not see."""

import copy
import html
import io
import json
import math
import xml.etree.ElementTree as ET
import zipfile

import pytest
from PIL import Image

from engine.exports import vassal, vassal_scenario, vassal_sheets
from engine.scenarios import cards, scenariofile
from tests.engine.exports import vassal_decode as vd
from tests.engine.exports.test_vassal_grid import print_centres, read_module
from tests.scenarios.conftest import SAMPLE_MAPS, SAMPLES

MAP = "VASSAL.build.module.Map"
STACK = "VASSAL.build.module.map.SetupStack"
SLOT = "VASSAL.build.widget.PieceSlot"
ZONE = "VASSAL.build.module.map.boardPicker.board.mapgrid.Zone"
HELP = "VASSAL.build.module.documentation.HelpFile"


@pytest.fixture(scope="module")
def maps():
    return scenariofile.folder_maps(SAMPLE_MAPS)


def sample(maps, stem, change=None):
    path = next(p for p in SAMPLES if p.stem == stem)
    data = json.loads(path.read_text())
    if change:
        change(data)
    return scenariofile.parse(json.dumps(data), maps)


def even_odd_contains(points, x, y):
    inside = False
    for i in range(len(points)):
        (x1, y1), (x2, y2) = points[i], points[(i + 1) % len(points)]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def piece_names(root):
    return [slot.get("entryName") for slot in root.iter(SLOT)]


def at_start(z, root):
    """{(map, x, y): [(piece name, traits)]} of the module's predefined setup, as VASSAL decodes it."""
    setup = next(root.iter("VASSAL.build.module.PredefinedSetup"))
    found = {}
    for command in vd.saved_game(z.read(setup.get("file"))):
        if command.startswith("+/") and "/stack/" not in command:
            traits = vd.add_piece(command)[1]
            fields = vd.tokens(traits[-1][1], ";")
            found.setdefault((fields[0], int(fields[1]), int(fields[2])), []).append(
                (vd.basic(traits[-1][0])[1], traits))
    return found


def test_every_placed_unit_is_an_at_start_piece_on_its_hex(maps):
    doc = sample(maps, "hill-112")
    z, root, vgrid, attrs, image = read_module(vassal_scenario.scenario_module(doc))
    main = doc.maps[doc.main_key]
    cmap, _, centres, _ = print_centres(main, attrs, image, vassal.DEFAULT_HEX_MM)
    placed = at_start(z, root)
    for side in doc.data["sides"]:
        units = doc.units(side)
        for hex_label in {pl["hex"] for pl in side["placements"]}:
            # VASSAL puts a piece where its numbering finds the label: on the hex the print drew
            x, y = vgrid.get_location(hex_label)
            tx, ty = centres[cmap.index_of(hex_label)]
            assert abs(x - tx) < 1 and abs(y - ty) < 1
            wanted = sorted(f"{vassal_scenario.unit_label(units[pl['unit']])} ({side['name']})"
                            for pl in side["placements"] if pl["hex"] == hex_label)
            here = sorted(name for name, _ in placed[("Main Map", x, y)] if name.endswith(f"({side['name']})")
                          and not name.startswith(("Foxholes", "Wire", "Mines")))
            assert here == wanted
            assert vgrid.location_name((x, y)) == hex_label
    # every piece's image is in the module, a counter in its side's colour
    for slot in root.iter(SLOT):
        image_name = vd.basic(vd.add_piece(slot.text)[1][-1][0])[0]
        counter = Image.open(io.BytesIO(z.read("images/" + image_name))).convert("RGB")
        assert counter.size == (int(slot.get("width")), int(slot.get("height")))
    german = next(s for s in doc.data["sides"] if s["id"] == "german")
    first = next(slot for slot in root.iter(SLOT) if slot.get("entryName").endswith("(German)"))
    counter = Image.open(io.BytesIO(z.read("images/" + vd.basic(vd.add_piece(first.text)[1][-1][0])[0])))
    colour = tuple(int(german["colour"][i:i + 2], 16) for i in (1, 3, 5))
    assert counter.convert("RGB").getpixel((counter.width // 8, counter.height // 2)) == colour


def test_a_facing_is_the_rotators_angle_not_a_painted_arrow(maps):
    doc = sample(maps, "hill-112")
    z, root, *_ = read_module(vassal_scenario.scenario_module(doc))
    facings = {}
    for pieces in at_start(z, root).values():
        for name, traits in pieces:
            rotate = next((state for t, state in traits if t.startswith("rotate;")), None)
            if rotate is not None:
                facings.setdefault(name, set()).add((int(rotate), vd.basic(traits[-1][0])[0]))
    # the PzKpfw IV faces NW on its hexes: the rotator's 6 angles turn the upright counter (its top on the
    # flat hex's N side) clockwise by 60 degrees each, NW is five of them; the counter image is the unturned one
    ((angle, image),) = facings["PzKpfw IV G (German)"]
    assert angle == 5
    rifle = next(iter(facings["Rifle Squad (German)"]))
    assert rifle[0] == 0
    counter = Image.open(io.BytesIO(z.read("images/" + image))).convert("RGB")
    w = counter.width
    a = math.radians(240 + 60 * 5 + 30)  # where the old painted arrow's tip was
    tip = (round(w / 2 + math.cos(a) * w * 0.42), round(w / 2 + math.sin(a) * w * 0.42))
    assert counter.getpixel(tip) == counter.getpixel((w // 8, w // 2))


def test_setup_zones_are_named_zones_holding_their_hexes(maps):
    doc = sample(maps, "hill-112")
    _, root, _, attrs, image = read_module(vassal_scenario.scenario_module(doc))
    main = doc.maps[doc.main_key]
    cmap, _, centres, _ = print_centres(main, attrs, image, vassal.DEFAULT_HEX_MM)
    zones = {z.get("name"): z for z in root.iter(ZONE)}
    for side in doc.data["sides"]:
        zone = zones[f"{side['name']} setup zone"]
        assert zone.get("useParentGrid") == "true"
        points = [tuple(int(v) for v in pair.split(",")) for pair in zone.get("path").split(";")]
        inside = set(side["setup_zone"])
        for col, row in main.grid.hexes():
            label = main.grid.label(col, row)
            x, y = centres[cmap.index_of(label)]
            assert even_odd_contains(points, x, y) == (label in inside), (side["name"], label)


def test_a_zone_in_two_parts_with_a_hole_is_one_path(maps):
    def change(data):
        ring = ["C3", "C4", "D3", "D5", "E3", "E4", "B3", "B4", "D4"]
        data["sides"][0]["setup_zone"] = [h for h in ring if h != "D4"] + ["K10", "K11"]
        data["sides"][0]["placements"] = []

    doc = sample(maps, "hill-112", change)
    _, root, _, attrs, image = read_module(vassal_scenario.scenario_module(doc))
    main = doc.maps[doc.main_key]
    cmap, _, centres, _ = print_centres(main, attrs, image, vassal.DEFAULT_HEX_MM)
    zone = next(z for z in root.iter(ZONE) if z.get("name").startswith(doc.data["sides"][0]["name"]))
    points = [tuple(int(v) for v in pair.split(",")) for pair in zone.get("path").split(";")]
    inside = set(doc.data["sides"][0]["setup_zone"])
    for col, row in main.grid.hexes():
        label = main.grid.label(col, row)
        assert even_odd_contains(points, *centres[cmap.index_of(label)]) == (label in inside), label


def test_a_sides_view_holds_no_other_sides_hidden_units(maps):
    doc = sample(maps, "hill-112")
    hidden = [u for u in doc.data["sides"][0]["oob"] if u["hidden"]]
    assert hidden
    names = {f"{vassal_scenario.unit_label(u)} (German)" for u in hidden}
    z, root, *_ = read_module(vassal_scenario.scenario_module(doc, side="british"))
    assert root.get("name").endswith("(British's view)")
    placed = {name for pieces in at_start(z, root).values() for name, _ in pieces}
    build, card = z.read("buildFile.xml").decode(), z.read("card.html").decode()
    for unit in hidden:
        assert unit["unit"] not in build
        assert f"<td>{cards.unit_name(unit)}</td>" not in card  # no row of the forces table
    assert not names & placed
    # the side that owns them has them in its view, on their hexes; the module both sides play has them masked
    z, own, *_ = read_module(vassal_scenario.scenario_module(doc, side="german"))
    assert names <= {name for pieces in at_start(z, own).values() for name, _ in pieces}
    z, play, *_ = read_module(vassal_scenario.scenario_module(doc))
    masked = {name for pieces in at_start(z, play).values() for name, traits in pieces
              if any(t.startswith("obs;") for t, _ in traits)}
    assert names <= masked


def test_reinforcements_wait_in_the_sides_window_by_turn(maps):
    def change(data):
        british = data["sides"][1]
        british["oob"].append({**british["oob"][0], "id": "reserve", "unit": "Reserve squad", "count": 1})
        british["reinforcements"].append({"turn": 5, "units": [{"unit": "reserve", "count": 1}],
                                          "edge": "N", "hexes": [], "note": ""})

    doc = sample(maps, "hill-112", change)
    z, root, *_ = read_module(vassal_scenario.scenario_module(doc))
    british = doc.data["sides"][1]
    title = "British: reinforcements and set-up"
    window = next(m for m in root.iter("VASSAL.build.module.PrivateMap") if m.get("mapName") == title)
    assert window.get("launch") == "true" and vd.tokens(window.get("side"), ",") == ["British"]
    board = next(window.iter("VASSAL.build.module.map.boardPicker.Board"))
    placed = at_start(z, root)
    rows = vassal_sheets.side_rows(doc, british)
    assert any("Turn 3" in label and "west" in label for label, _ in rows)
    by_row = sorted((y, sorted(name for name, _ in pieces)) for (m, x, y), pieces in placed.items() if m == title)
    assert len(by_row) == len(rows)
    units = doc.units(british)
    for (y, names), (label, entries) in zip(by_row, rows, strict=True):
        assert names == sorted(f"{vassal_scenario.unit_label(units[u])} (British)" for u, n in entries
                               for _ in range(n)), label
        assert 0 <= y < int(board.get("height"))
    assert ["Reserve squad (British)"] in [names for _, names in by_row]
    # every counter of the OOB is somewhere: placed, arriving, or waiting to set up in the zone
    everywhere = [name for pieces in placed.values() for name, traits in pieces
                  if name.endswith("(British)") and any(t.startswith("prototype") or t.startswith("rotate;")
                                                        for t, _ in traits)]
    assert len(everywhere) == sum(u["count"] for u in british["oob"])
    # its palette has a tab per turn of arrival
    palette = next(w for w in root.iter("VASSAL.build.module.PieceWindow") if w.get("name") == "British OOB")
    tabs = [lst.get("entryName") for lst in palette.iter("VASSAL.build.widget.ListWidget")]
    assert tabs[0] == "OOB" and any(t.startswith("Turn 3") for t in tabs) and any(t.startswith("Turn 5") for t in tabs)


def test_the_card_is_a_help_file_and_a_brief_only_in_its_sides_window(maps):
    doc = sample(maps, "groesbeek-heights")
    z, root, *_ = read_module(vassal_scenario.scenario_module(doc))
    helps = {h.get("title"): h.get("fileName") for h in root.iter(HELP)}
    assert list(helps) == ["Public sheet"]
    public = z.read(helps["Public sheet"]).decode()
    assert doc.data["title"] in public
    side = doc.data["sides"][0]
    assert side["brief"]["mission"].split("\n")[0][:40] not in public
    windows = {m.get("mapName"): m for m in root.iter("VASSAL.build.module.PrivateMap")}
    for s in doc.data["sides"]:
        window = windows[f"{s['name']}: secret sheet"]
        assert vd.tokens(window.get("side"), ",") == [s["name"]] and window.get("visible") == "false"
        board = next(window.iter("VASSAL.build.module.map.boardPicker.Board"))
        assert Image.open(io.BytesIO(z.read("images/" + board.get("image")))).height > 100  # the brief, drawn


def test_module_name_version_and_description_come_from_the_scenario(maps):
    doc = sample(maps, "oosterbeek-crossroads")
    z, root, *_ = read_module(vassal_scenario.scenario_module(doc))
    assert root.get("name") == doc.data["title"]
    assert doc.data["subtitle"] in root.get("description") if doc.data["subtitle"] else root.get("description")
    meta = ET.fromstring(z.read("moduledata"))
    assert meta.findtext("name") == doc.data["title"] and meta.findtext("version") == root.get("version")
    assert root.get("version").startswith("1.0+")
    edited = sample(maps, "oosterbeek-crossroads", lambda d: d.update(title=d["title"] + " (revised)"))
    assert read_module(vassal_scenario.scenario_module(edited))[1].get("version") != root.get("version")
    hidden = sample(maps, "oosterbeek-crossroads", lambda d: d["sides"][0]["placements"].pop(
        next(i for i, pl in enumerate(d["sides"][0]["placements"])
             if next(u for u in d["sides"][0]["oob"] if u["id"] == pl["unit"])["hidden"])))
    other = doc.data["sides"][1]["id"]
    view = read_module(vassal_scenario.scenario_module(doc, side=other))[1].get("version")
    assert read_module(vassal_scenario.scenario_module(hidden, side=other))[1].get("version") == view  # says nothing
    card = z.read("card.html").decode()
    assert doc.data["title"].replace("'", "&#x27;") in card


def test_an_unknown_side_is_refused_by_field(maps):
    doc = sample(maps, "hill-112")
    with pytest.raises(vassal.ModuleError) as caught:
        vassal_scenario.scenario_module(doc, side="french")
    assert caught.value.path == "side" and "german" in str(caught.value)


def test_pointy_scenario_pieces_sit_on_their_hexes(maps):
    doc = sample(maps, "gela-piano-lupo")
    assert doc.maps[doc.main_key].grid.orientation == "pointy"
    z, root, vgrid, attrs, image = read_module(vassal_scenario.scenario_module(doc, hex_mm=16.0))
    cmap, _, centres, _ = print_centres(doc.maps[doc.main_key], attrs, image, 16.0)
    placed = at_start(z, root)
    for side in doc.data["sides"]:
        for pl in side["placements"]:
            x, y = vgrid.get_location(pl["hex"])
            assert ("Main Map", x, y) in placed
            tx, ty = centres[cmap.index_of(pl["hex"])]
            assert abs(x - tx) < 1 and abs(y - ty) < 1
            assert vgrid.location_name((x, y)) == pl["hex"]


def test_the_scenario_document_is_not_changed(maps):
    doc = sample(maps, "hill-112")
    before = copy.deepcopy(doc.data)
    vassal_scenario.scenario_module(doc)
    assert doc.data == before
    assert zipfile.is_zipfile(io.BytesIO(vassal_scenario.scenario_module(doc)))


@pytest.mark.parametrize("stem", [p.stem for p in SAMPLES])
def test_the_public_help_page_says_only_what_is_true_of_what_it_lists(maps, stem):
    """The public sheet says which side's parts are on its secret sheet only where it leaves them out: a side whose
    forces it lists is never said to have them elsewhere (issue 32 point 8)."""
    doc = sample(maps, stem)
    page = vassal_sheets.sheet_html(doc, "public")
    view = cards.sheet_view(doc, "public").data
    withheld = view.get("extensions", {}).get("withheld", {})
    for side in view["sides"]:
        said = [line for line in html.unescape(page).split("\n") if line.startswith(f"<i>{side['name']}'s ")]
        gone = withheld.get(side["id"]) or {}
        if not gone:
            assert not said
            continue
        assert len(said) == 1
        if side["oob"]:
            assert "forces" not in said[0]
            assert cards.unit_name(side["oob"][0]) in html.unescape(page)
        else:
            assert "forces" in said[0]
    assert "Each side's forces" not in page
