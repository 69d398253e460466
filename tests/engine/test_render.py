"""The print renderer: sizes for a dpi and hex size, colours from the catalogue's styles, the scenario layer."""

import copy
import math
from pathlib import Path

import numpy as np
import pytest
from django.core.management import call_command
from PIL import Image

from engine import mapfile, render
from engine.los.engine import compile_map
from tests.conftest import MAP_DOCUMENT

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "maps" / "samples").glob("*.json"))
SQRT3 = math.sqrt(3)


def compiled(data):
    return compile_map(mapfile.parse(copy.deepcopy(data)))


def expected_size(grid, dpi, hex_mm):
    """Worked out from the map format's geometry, not from the renderer: the corners' extent plus 5 mm margins."""
    r = hex_mm / SQRT3 / 25.4 * dpi  # circumradius in pixels, hex_mm across the flats
    long_units = 1.5 * (grid.columns - 1) + 2 if grid.columns > 1 else 2
    short_units = SQRT3 * grid.rows + (SQRT3 / 2 if grid.columns > 1 else 0)
    if grid.orientation == "flat":
        w, h = long_units, short_units
    else:
        w, h = SQRT3 * grid.columns + (SQRT3 / 2 if grid.rows > 1 else 0), 1.5 * (grid.rows - 1) + 2
    margin = round(5 / 25.4 * dpi)
    return math.ceil(w * r) + 2 * margin, math.ceil(h * r) + 2 * margin


def dominant(image, x, y, half):
    """The most common colour in a square around a point."""
    box = np.asarray(image.crop((int(x - half), int(y - half), int(x + half), int(y + half)))).reshape(-1, 3)
    colours, counts = np.unique(box, axis=0, return_counts=True)
    return tuple(int(c) for c in colours[counts.argmax()])


def centre_px(cmap, label, dpi, hex_mm):
    scale = hex_mm / 25.4 * dpi / SQRT3
    min_x, min_y, _, _ = cmap.grid.extent()
    x, y = cmap.grid.centre(*cmap.grid.parse_hex(label))
    margin = round(5 / 25.4 * dpi)
    return margin + (x - min_x) * scale, margin + (y - min_y) * scale, scale


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_every_sample_has_the_size_of_its_dpi_and_hex_size_and_its_terrain_colours(path):
    cmap = compile_map(mapfile.parse(path.read_bytes()))
    dpi, hex_mm = 100, 16
    image = render.render_print(cmap, dpi=dpi, hex_mm=hex_mm, legend=False, scale_bar=False)
    assert image.size == expected_size(cmap.grid, dpi, hex_mm)
    with_legend = render.render_print(cmap, dpi=dpi, hex_mm=hex_mm)
    assert with_legend.width == image.width and with_legend.height > image.height + 50

    # At the centre of one plain (level 0, no art) hex of each terrain, its style's fill shows.
    seen = {}
    for i, terrain in enumerate(cmap.terrain):
        if cmap.art[i] is None and cmap.level[i] == 0 and terrain[0] not in seen and not cmap.markers.get(i):
            seen[terrain[0]] = i
    assert len(seen) >= 3
    fills = {}
    for tid, i in seen.items():
        x, y, scale = centre_px(cmap, cmap.label(i), dpi, hex_mm)
        fill = render.rgb(cmap.catalogue.get(tid)["style"]["fill"])
        if cmap.catalogue.linear(tid):
            # A road or railroad is a line over the map's ground, never a fill that reads as a level (roads.py).
            ground = render.hex_look(cmap.catalogue, cmap.doc.default_terrain)[0]
            assert dominant(image, x, y, scale * 0.4) == ground, (path.stem, cmap.label(i), tid)
            assert dominant(image, x, y, scale * 0.05) != ground, (path.stem, cmap.label(i), tid)
            continue
        assert dominant(image, x, y, scale * 0.4) == fill, (path.stem, cmap.label(i), tid)
        fills[tid] = fill
    assert len(set(fills.values())) > 1  # different terrain, different colour


def test_a_large_print_at_300_dpi_has_its_size():
    cmap = compiled(MAP_DOCUMENT)
    image = render.render_print(cmap, dpi=300, hex_mm=19, legend=False, scale_bar=False)
    assert image.size == expected_size(cmap.grid, 300, 19)
    assert image.width > 2000


def test_images_differ_only_where_the_terrain_differs():
    data = copy.deepcopy(MAP_DOCUMENT)
    other = copy.deepcopy(MAP_DOCUMENT)
    other["hexes"].append({"hex": "H7", "terrain": ["woods"]})
    a = np.asarray(render.render_print(compiled(data), dpi=100, hex_mm=16, legend=False, scale_bar=False))
    b_map = compiled(other)
    b = np.asarray(render.render_print(b_map, dpi=100, hex_mm=16, legend=False, scale_bar=False))
    changed = np.argwhere((a != b).any(axis=2))
    assert len(changed)
    x, y, scale = centre_px(b_map, "H7", 100, 16)
    assert changed[:, 1].min() >= x - scale - 1 and changed[:, 1].max() <= x + scale + 1
    assert changed[:, 0].min() >= y - scale - 1 and changed[:, 0].max() <= y + scale + 1
    woods = render.rgb(b_map.catalogue.get("woods")["style"]["fill"])
    assert dominant(Image.fromarray(b), x, y, scale * 0.4) == woods


def test_levels_shade_and_number_and_hexsides_use_their_stroke():
    cmap = compiled(MAP_DOCUMENT)
    image = render.render_print(cmap, dpi=150, hex_mm=19, legend=False, scale_bar=False)
    open_fill = render.rgb(cmap.catalogue.get("open")["style"]["fill"])
    x, y, scale = centre_px(cmap, "D5", 150, 19)  # level 1, open
    raised = dominant(image, x, y, scale * 0.3)
    assert raised != open_fill and raised == render.level_fill(open_fill, 1)
    # The level number is written just under the hex's own label, in the upper half: dark ink there, and none
    # in the lower part, where it used to sit on top of the next hex's label.
    upper = np.asarray(image.crop((int(x - scale * 0.3), int(y - scale * 0.45), int(x + scale * 0.3),
                                   int(y - scale * 0.12))))
    assert (upper.sum(axis=2) < 250).any()
    lower = np.asarray(image.crop((int(x - scale * 0.3), int(y + scale * 0.3), int(x + scale * 0.3),
                                   int(y + scale * 0.8))))
    assert not (lower.sum(axis=2) < 250).any()
    # The hedge on C4/SE: the middle of that edge has the hedge's stroke colour.
    a, b = cmap.grid.side_endpoints(*cmap.grid.parse_hex("C4"), "SE")
    min_x, min_y, _, _ = cmap.grid.extent()
    margin = round(5 / 25.4 * 150)
    mx, my = (margin + ((a[0] + b[0]) / 2 - min_x) * scale, margin + ((a[1] + b[1]) / 2 - min_y) * scale)
    hedge = render.rgb(cmap.catalogue.get("hedge")["style"]["stroke"])
    assert image.getpixel((round(mx), round(my))) == hedge


def test_scenario_layer_crop_and_lines():
    cmap = compiled(MAP_DOCUMENT)
    layer = render.ScenarioLayer(
        side_colours={"Allies": "#2255cc", "Axis": "#cc3322"},
        setup_zones={"Allies": ["A1", "A2", "B1"]}, objectives=[{"hex": "E4", "label": "Farm"}],
        control={"Axis": ["F5"]}, units=[{"hex": "B2", "side": "Axis", "label": "1st Platoon"},
                                         {"hex": "B2", "side": "Axis", "label": "MG 42"}],
        entry_edges={"Allies": ["W"]}, entry_hexes={"Axis": ["J4"]})
    plain = render.render_print(cmap, dpi=100, hex_mm=16, legend=False, scale_bar=False)
    drawn = render.render_print(cmap, dpi=100, hex_mm=16, legend=False, scale_bar=False, scenario=layer,
                                lines=[{"from": "A1", "to": "H6", "colour": (200, 0, 0, 255)}])
    assert drawn.size == plain.size
    x, y, scale = centre_px(cmap, "B2", 100, 16)
    counter = np.asarray(drawn.crop((int(x - scale * 0.6), int(y - scale * 0.6), int(x + scale * 0.6),
                                     int(y + scale * 0.6)))).reshape(-1, 3)
    assert ((counter == (0xcc, 0x33, 0x22)).all(axis=1)).sum() > scale * scale * 0.2  # the Axis counters
    x, y, scale = centre_px(cmap, "A2", 100, 16)
    assert dominant(drawn, x, y, scale * 0.3) != dominant(plain, x, y, scale * 0.3)  # the Allies' zone tint
    ax, ay, _ = centre_px(cmap, "A1", 100, 16)
    bx, by, _ = centre_px(cmap, "H6", 100, 16)
    assert drawn.getpixel((round((ax + bx) / 2), round((ay + by) / 2))) == (200, 0, 0)

    cropped = render.render_print(cmap, dpi=100, hex_mm=16, legend=False, scale_bar=False, crop="B2:D4")
    assert cropped.size == render.printed_size(cmap.grid, 100, 16, area=render.play_area(cmap, "B2:D4"), cmap=cmap)
    assert cropped.width < plain.width / 2 and cropped.height < plain.height / 2


def test_limits_are_refused_with_a_reason():
    cmap = compiled(MAP_DOCUMENT)
    with pytest.raises(ValueError, match="dpi"):
        render.render_print(cmap, dpi=600)
    with pytest.raises(ValueError, match="hex size"):
        render.render_print(cmap, hex_mm=200)
    with pytest.raises(ValueError, match="rectangle"):
        render.render_print(cmap, crop="B2")


def test_screen_image_and_thumbnails_stay_bounded():
    cmap = compiled(MAP_DOCUMENT)
    screen = render.render_map(cmap, highlight={0: (255, 0, 0, 128)})
    assert screen.width > 300
    thumb = render.render_thumbnail(cmap)
    assert max(thumb.size) <= render.THUMB_PX and max(thumb.size) >= render.THUMB_PX - 2
    big = copy.deepcopy(MAP_DOCUMENT)
    big["grid"].update(columns=120, rows=80)
    big["overlays"] = []
    mosaic = render.render_thumbnail(compiled(big))
    assert max(mosaic.size) == render.THUMB_PX


def test_render_map_command(tmp_path):
    out = tmp_path / "map.png"
    call_command("render_map", str(SAMPLES[0]), "--out", str(out), "--dpi", "120", "--hex-mm", "15",
                 "--no-legend")
    image = Image.open(out)
    doc = mapfile.parse(SAMPLES[0].read_bytes())
    assert image.size == expected_size(doc.grid, 120, 15)
    assert round(image.info["dpi"][0]) == 120


def test_markers_for_a_check_are_drawn_in_their_style():
    doc = mapfile.parse(copy.deepcopy(MAP_DOCUMENT))
    plain = render.render_print(compile_map(doc), dpi=100, hex_mm=16, legend=False, scale_bar=False)
    smoked = compile_map(doc, markers=[{"hex": "H7", "kind": "smoke"}])
    image = render.render_print(smoked, dpi=100, hex_mm=16, legend=False, scale_bar=False)
    x, y, _ = centre_px(smoked, "H7", 100, 16)
    assert image.getpixel((round(x), round(y))) == render.rgb(smoked.catalogue.get("smoke")["style"]["fill"])
    assert plain.getpixel((round(x), round(y))) != image.getpixel((round(x), round(y)))


def test_a_viewshed_prints_as_shading():
    from engine.los.engine import viewshed

    cmap = compiled(MAP_DOCUMENT)
    shed = viewshed(cmap, "A1")
    shading = render.viewshed_shading(cmap, shed)
    assert len(shading) == cmap.n
    image = render.render_print(cmap, dpi=100, hex_mm=16, legend=False, scale_bar=False, shading=shading)
    plain = render.render_print(cmap, dpi=100, hex_mm=16, legend=False, scale_bar=False)
    x, y, scale = centre_px(cmap, "J8", 100, 16)
    assert dominant(image, x, y, scale * 0.3) != dominant(plain, x, y, scale * 0.3)
