"""A scenario's VASSAL module: zones, at-start stacks on their hexes, counters, the sides' windows, the card as
help files, and nothing hidden in the public module."""

import copy
import html
import io
import json
import math
import xml.etree.ElementTree as ET
import zipfile

import pytest
from PIL import Image

from engine.exports import vassal, vassal_sheets
from engine.scenarios import cards, scenariofile
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


def test_every_placed_unit_is_an_at_start_stack_on_its_hex(maps):
    doc = sample(maps, "hill-112")
    data = vassal.scenario_module(doc, side="german")
    z, root, vgrid, attrs, image = read_module(data)
    main = doc.maps[doc.main_key]
    cmap, _, centres, _ = print_centres(main, attrs, image, vassal.DEFAULT_HEX_MM)
    main_map = next(m for m in root.iter(MAP) if m.get("mapName") == "Main Map")
    stacks = {s.get("location"): s for s in main_map.iter(STACK)}
    for side in doc.data["sides"]:
        units = doc.units(side)
        for hex_label in {pl["hex"] for pl in side["placements"]}:
            stack = stacks[hex_label]
            wanted = sorted(vassal.unit_label(units[pl["unit"]]) for pl in side["placements"]
                            if pl["hex"] == hex_label)
            assert sorted(slot.get("entryName") for slot in stack.iter(SLOT)) == wanted
            # VASSAL puts the stack where its numbering finds the label: on the hex the print drew
            x, y = vgrid.get_location(hex_label)
            tx, ty = centres[cmap.index_of(hex_label)]
            assert abs(x - tx) < 1 and abs(y - ty) < 1
            assert (int(stack.get("x")), int(stack.get("y"))) == (x, y)
            assert stack.get("useGridLocation") == "true"
    # every piece's image is in the module, a counter in its side's colour
    for slot in root.iter(SLOT):
        image_name = slot.text.split("/")[2].split(";")[3]
        counter = Image.open(io.BytesIO(z.read("images/" + image_name))).convert("RGB")
        assert counter.size == (int(slot.get("width")), int(slot.get("height")))
    german = next(s for s in doc.data["sides"] if s["id"] == "german")
    first = next(slot for slot in main_map.iter(SLOT))
    counter = Image.open(io.BytesIO(z.read("images/" + first.text.split("/")[2].split(";")[3]))).convert("RGB")
    colour = tuple(int(german["colour"][i:i + 2], 16) for i in (1, 3, 5))
    assert counter.getpixel((counter.width // 8, counter.height // 2)) == colour


def test_a_facing_draws_an_arrow_and_a_different_counter(maps):
    doc = sample(maps, "hill-112")
    z, root, *_ = read_module(vassal.scenario_module(doc))
    images = {}
    for stack in root.iter(STACK):
        for slot in stack.iter(SLOT):
            images.setdefault(slot.get("entryName"), set()).add(slot.text.split("/")[2].split(";")[3])
    # the PzKpfw IV faces NW on its hexes: its counter has the arrow on its upper left edge
    (name,) = images["PzKpfw IV G"]
    counter = Image.open(io.BytesIO(z.read("images/" + name))).convert("RGB")
    w = counter.width
    a = math.radians(240 + 60 * 5 + 30)  # NW on a flat hex
    tip = (round(w / 2 + math.cos(a) * w * 0.42), round(w / 2 + math.sin(a) * w * 0.42))
    assert counter.getpixel(tip) != counter.getpixel((w // 8, w // 2))


def test_setup_zones_are_named_zones_holding_their_hexes(maps):
    doc = sample(maps, "hill-112")
    _, root, _, attrs, image = read_module(vassal.scenario_module(doc))
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
    _, root, _, attrs, image = read_module(vassal.scenario_module(doc))
    main = doc.maps[doc.main_key]
    cmap, _, centres, _ = print_centres(main, attrs, image, vassal.DEFAULT_HEX_MM)
    zone = next(z for z in root.iter(ZONE) if z.get("name").startswith(doc.data["sides"][0]["name"]))
    points = [tuple(int(v) for v in pair.split(",")) for pair in zone.get("path").split(";")]
    inside = set(doc.data["sides"][0]["setup_zone"])
    for col, row in main.grid.hexes():
        label = main.grid.label(col, row)
        assert even_odd_contains(points, *centres[cmap.index_of(label)]) == (label in inside), label


def test_hidden_units_are_never_in_the_public_module(maps):
    doc = sample(maps, "hill-112")
    hidden = [u for u in doc.data["sides"][0]["oob"] if u["hidden"]]
    assert hidden
    z, root, *_ = read_module(vassal.scenario_module(doc))
    names = piece_names(root)
    build, card = z.read("buildFile.xml").decode(), z.read("card.html").decode()
    for unit in hidden:
        assert vassal.unit_label(unit) not in names
        assert unit["unit"] not in build
        assert f"<td>{cards.unit_name(unit)}</td>" not in card  # no row of the forces table
    placed = {pl["hex"] for pl in doc.data["sides"][0]["placements"] if pl["unit"] in {u["id"] for u in hidden}}
    assert not placed & {s.get("location") for s in root.iter(STACK)}
    # the side that owns them has them, on their hexes
    _, own, *_ = read_module(vassal.scenario_module(doc, side="german"))
    for unit in hidden:
        assert vassal.unit_label(unit) in piece_names(own)
    _, other, *_ = read_module(vassal.scenario_module(doc, side="british"))
    assert not {vassal.unit_label(u) for u in hidden} & set(piece_names(other))


def test_reinforcements_wait_in_the_sides_window_by_turn(maps):
    def change(data):
        british = data["sides"][1]
        british["oob"].append({**british["oob"][0], "id": "reserve", "unit": "Reserve squad", "count": 1})
        british["reinforcements"].append({"turn": 5, "units": [{"unit": "reserve", "count": 1}],
                                          "edge": "N", "hexes": [], "note": ""})

    doc = sample(maps, "hill-112", change)
    _, root, *_ = read_module(vassal.scenario_module(doc))
    british = doc.data["sides"][1]
    window = next(m for m in root.iter(MAP) if m.get("mapName").startswith("British"))
    assert window.get("launch") == "true"
    rows = {s.get("name"): s for s in window.iter(STACK)}
    turn3 = next(s for name, s in rows.items() if "Turn 3" in name)
    turn5 = next(s for name, s in rows.items() if "Turn 5" in name)
    units = doc.units(british)
    assert len(list(turn3.iter(SLOT))) == sum(g["count"] for r in british["reinforcements"] if r["turn"] == 3
                                             for g in r["units"])
    assert [s.get("entryName") for s in turn5.iter(SLOT)] == [vassal.unit_label(units["reserve"])]
    assert "west" in next(name for name in rows if "Turn 3" in name)
    # a window's stacks lie on its own board
    board = next(window.iter("VASSAL.build.module.map.boardPicker.Board"))
    for stack in rows.values():
        assert stack.get("owningBoard") == board.get("name")
        assert 0 <= int(stack.get("x")) < int(board.get("width"))
        assert 0 <= int(stack.get("y")) < int(board.get("height"))
    # every counter of the OOB is somewhere: placed, arriving, or waiting to set up in the zone
    total = sum(u["count"] for u in british["oob"])
    everywhere = [slot for stack in root.iter(STACK) for slot in stack.iter(SLOT)
                  if stack.get("name").startswith("British")]
    assert len(everywhere) == total


def test_the_card_is_a_help_file_and_a_brief_only_for_its_side(maps):
    doc = sample(maps, "groesbeek-heights")
    z, root, *_ = read_module(vassal.scenario_module(doc))
    helps = {h.get("title"): h.get("fileName") for h in root.iter(HELP)}
    assert list(helps) == ["Public sheet"]
    public = z.read(helps["Public sheet"]).decode()
    assert doc.data["title"] in public
    side = doc.data["sides"][0]
    z, root, *_ = read_module(vassal.scenario_module(doc, side=side["id"]))
    helps = {h.get("title"): h.get("fileName") for h in root.iter(HELP)}
    assert set(helps) == {"Public sheet", f"{side['name']}: secret brief"}
    brief = z.read(helps[f"{side['name']}: secret brief"]).decode()
    assert "SECRET" in brief and side["brief"]["mission"].split("\n")[0][:40] in brief.replace("&#x27;", "'")
    other = doc.data["sides"][1]
    assert not any(other["name"] in title for title in helps)


def test_module_name_version_and_description_come_from_the_scenario(maps):
    doc = sample(maps, "oosterbeek-crossroads")
    z, root, *_ = read_module(vassal.scenario_module(doc))
    assert root.get("name") == doc.data["title"]
    assert doc.data["subtitle"] in root.get("description") if doc.data["subtitle"] else root.get("description")
    meta = ET.fromstring(z.read("moduledata"))
    assert meta.findtext("name") == doc.data["title"] and meta.findtext("version") == root.get("version")
    assert root.get("version").startswith("1.0+")
    edited = sample(maps, "oosterbeek-crossroads", lambda d: d.update(title=d["title"] + " (revised)"))
    assert read_module(vassal.scenario_module(edited))[1].get("version") != root.get("version")
    hidden = sample(maps, "oosterbeek-crossroads", lambda d: d["sides"][0]["placements"].pop(
        next(i for i, pl in enumerate(d["sides"][0]["placements"])
             if next(u for u in d["sides"][0]["oob"] if u["id"] == pl["unit"])["hidden"])))
    assert read_module(vassal.scenario_module(hidden))[1].get("version") == root.get("version")  # says nothing
    card = z.read("card.html").decode()
    assert doc.data["title"].replace("'", "&#x27;") in card


def test_an_unknown_side_is_refused_by_field(maps):
    doc = sample(maps, "hill-112")
    with pytest.raises(vassal.ModuleError) as caught:
        vassal.scenario_module(doc, side="french")
    assert caught.value.path == "side" and "german" in str(caught.value)


def test_pointy_scenario_stacks_sit_on_their_hexes(maps):
    doc = sample(maps, "gela-piano-lupo")
    assert doc.maps[doc.main_key].grid.orientation == "pointy"
    _, root, vgrid, attrs, image = read_module(vassal.scenario_module(doc, hex_mm=16.0))
    cmap, _, centres, _ = print_centres(doc.maps[doc.main_key], attrs, image, 16.0)
    for stack in root.iter(STACK):
        if stack.get("location"):
            x, y = vgrid.get_location(stack.get("location"))
            tx, ty = centres[cmap.index_of(stack.get("location"))]
            assert abs(x - tx) < 1 and abs(y - ty) < 1
            assert vgrid.location_name((x, y)) == stack.get("location")


def test_the_scenario_document_is_not_changed(maps):
    doc = sample(maps, "hill-112")
    before = copy.deepcopy(doc.data)
    vassal.scenario_module(doc)
    assert doc.data == before
    assert zipfile.is_zipfile(io.BytesIO(vassal.scenario_module(doc)))


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
