"""Issue 20, points 4 and 8: overlays have names (kept in extensions, the format's overlay entry has no name key),
images show names and never internal ids; roads are lines through the hexes they join; level numbers sit clear
of the next hex's label; the card's map prints no text too small to read."""

import copy
import json

import numpy as np
import pytest

from engine import mapfile, render
from engine.edits import EditError, apply
from engine.los.engine import compile_map
from engine.render import roads
from engine.render.styles import RESULT_COLOURS

GRID = {"orientation": "flat", "columns": 8, "rows": 6, "stagger": "even", "labels": "letter-number"}
BASE = {"format": "hexside-map", "version": 1, "name": "Roads", "ruleset": "ost", "grid": GRID,
        "defaults": {"terrain": ["open"], "level": 0}, "hexes": [], "hexsides": [], "overlays": [],
        "extensions": {}}
WOODS = {"id": "sel-1", "anchor": "C3", "rotation": 0, "hexes": [{"hex": [0, 0], "terrain": ["woods"]}],
         "hexsides": []}


def doc_of(**changes):
    data = copy.deepcopy(BASE)
    data.update(changes)
    return mapfile.parse(data)


def image_of(doc, **options):
    return render.render_print(compile_map(doc), dpi=150, hex_mm=19, legend=False, scale_bar=False, **options)


def centre(cmap, label, dpi=150, hex_mm=19):
    scale = render.print_scale(dpi, hex_mm)
    min_x, min_y, _, _ = cmap.grid.extent()
    x, y = cmap.grid.centre(*cmap.grid.parse_hex(label))
    margin = round(render.PRINT_MARGIN_MM / 25.4 * dpi)
    return margin + (x - min_x) * scale, margin + (y - min_y) * scale, scale


# -- names ----------------------------------------------------------------------------------------------------

def test_a_name_is_kept_in_extensions_and_the_overlay_entry_keeps_the_formats_keys():
    doc, _ = apply(doc_of(), [{"op": "place_overlay", "overlay": WOODS, "name": "  Farm   house "}])
    assert doc.extensions["overlay_names"] == {"sel-1": "Farm house"}
    text = mapfile.dumps(doc)
    data = json.loads(text)
    assert set(data["overlays"][0]) == set(mapfile.OVERLAY_KEYS)  # no "name" in the overlay: the contract
    again = mapfile.parse(text)  # the file reads back under the format's own reader, name and all
    assert mapfile.overlay_title(again, again.overlays[0]) == "Farm house"


def test_name_overlay_renames_clears_and_remove_takes_the_name_away():
    doc, _ = apply(doc_of(), [{"op": "place_overlay", "overlay": WOODS, "name": "Farm"}])
    renamed, summary = apply(doc, [{"op": "name_overlay", "id": "sel-1", "name": "Mill"}])
    assert mapfile.overlay_names(renamed) == {"sel-1": "Mill"} and "Mill" in summary
    cleared, _ = apply(renamed, [{"op": "name_overlay", "id": "sel-1", "name": ""}])
    assert "overlay_names" not in cleared.extensions
    removed, _ = apply(renamed, [{"op": "remove_overlay", "id": "sel-1"}])
    assert removed.overlays == [] and "overlay_names" not in removed.extensions
    assert mapfile.overlay_names(doc) == {"sel-1": "Farm"}  # the map that came in is not changed


def test_a_bad_name_is_refused_saying_what():
    doc, _ = apply(doc_of(), [{"op": "place_overlay", "overlay": WOODS}])
    with pytest.raises(EditError) as caught:
        apply(doc, [{"op": "name_overlay", "id": "sel-1", "name": "x" * 61},
                    {"op": "name_overlay", "id": "sel-1", "name": 3},
                    {"op": "name_overlay", "id": "nope", "name": "Farm"}])
    messages = [p.message for p in caught.value.errors]
    assert "at most 60 characters" in messages[0] and "as text" in messages[1] and "no overlay 'nope'" in messages[2]
    assert caught.value.errors[0].path == "operations[0].name"


def test_images_write_the_name_and_never_the_internal_id():
    placed, _ = apply(doc_of(), [{"op": "place_overlay", "overlay": WOODS}])
    named, _ = apply(placed, [{"op": "name_overlay", "id": "sel-1", "name": "Farm"}])
    unlabelled = mapfile.parse({**json.loads(mapfile.dumps(placed)),
                                "overlays": [{**WOODS, "id": "zz"}]})
    plain, with_name = np.asarray(image_of(placed)), np.asarray(image_of(named))
    assert np.array_equal(plain, np.asarray(image_of(unlabelled)))  # "sel-1" is drawn no more than "zz"
    assert not np.array_equal(plain, with_name)  # the name is
    printed = mapfile.parse({**json.loads(mapfile.dumps(placed)), "overlays": [{**WOODS, "id": "P3"}]})
    assert not np.array_equal(plain, np.asarray(image_of(printed)))  # a printed letter-number ID is


# -- roads ----------------------------------------------------------------------------------------------------

def test_a_road_is_a_line_through_the_hexes_it_joins_over_the_ground():
    road = [{"hex": h, "terrain": ["road"]} for h in ("B2", "B3", "B4")]
    doc = doc_of(hexes=road + [{"hex": "F2", "terrain": ["road"]}, {"hex": "D2", "level": 1}])
    cmap = compile_map(doc)
    image = image_of(doc)
    catalogue = cmap.catalogue
    tan = render.rgb(catalogue.get("road")["style"]["fill"])
    ground = render.rgb(catalogue.get("open")["style"]["fill"])
    x, y, s = centre(cmap, "B3")
    # On the line (the centre, and between B3 and B4) the road's colour; beside it the open ground, not tan.
    assert image.getpixel((round(x), round(y))) == tan
    assert image.getpixel((round(x), round(y + s * 0.866))) == tan  # the edge B3 shares with B4
    assert image.getpixel((round(x + s * 0.5), round(y))) == ground
    # The road's edges are drawn dark, so a road hex can never read as a level-1 hex's shade.
    row = np.asarray(image)[round(y), round(x - s * 0.3):round(x + s * 0.3)]
    assert any(tuple(px) == roads.CASING for px in row)
    hill = centre(cmap, "D2")
    assert image.getpixel((round(hill[0] + hill[2] * 0.5), round(hill[1]))) == render.level_fill(ground, 1)
    # A road hex with no road beside it is a dot at its centre; its edges stay ground.
    fx, fy, _ = centre(cmap, "F2")
    assert image.getpixel((round(fx), round(fy))) == tan
    assert image.getpixel((round(fx), round(fy + s * 0.6))) == ground


def test_the_vector_print_draws_the_same_road():
    from engine.render import vector
    doc = doc_of(hexes=[{"hex": h, "terrain": ["road"]} for h in ("B2", "B3")])
    svg = vector.svg(compile_map(doc))
    text = (svg[0] if isinstance(svg, tuple) else svg).decode()
    tan = "#{:02x}{:02x}{:02x}".format(*render.rgb(compile_map(doc).catalogue.get("road")["style"]["fill"]))
    casing = "#{:02x}{:02x}{:02x}".format(*roads.CASING)
    assert tan in text.lower() and casing in text.lower()


# -- labels ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_a_level_number_is_under_its_hexs_label_clear_of_the_next_hex(orientation):
    grid = {**GRID, "orientation": orientation}
    doc = doc_of(grid=grid, hexes=[{"hex": "C3", "level": 1}])
    flat = doc_of(grid=grid)
    cmap = compile_map(doc)
    a, b = np.asarray(image_of(doc)), np.asarray(image_of(flat))
    x, y, s = centre(cmap, "C3")
    # The level's ink: pixels dark in the raised map that are not dark in the flat one (the hill's contour, on
    # the hex's edges, is left out by looking only inside the hex).
    dark = (a.astype(int).sum(axis=2) < 200) & (b.astype(int).sum(axis=2) >= 200)
    rows, cols = np.indices(dark.shape)
    inside = (rows - y) ** 2 + (cols - x) ** 2 < (s * 0.8) ** 2
    ink = np.argwhere(dark & inside)
    # It lies in the hex's upper half, under its label (above the centre), never down by the next hex's label.
    assert len(ink) and ink[:, 0].max() < y and ink[:, 0].min() > y - s * 0.866
    assert np.abs(ink[:, 1] - x).max() < s * 0.5


# -- the card's map -------------------------------------------------------------------------------------------

def test_a_small_print_leaves_out_labels_it_cannot_make_legible_and_enlarges_those_it_can():
    doc = doc_of(grid={**GRID, "columns": 30, "rows": 20, "labels": "xx.yy"}, hexes=[{"hex": "03.03", "level": 1}])
    cmap = compile_map(doc)

    def draw(hex_mm, **options):
        return render.render_print(cmap, dpi=200, hex_mm=hex_mm, legend=False, scale_bar=False, **options)
    small, unlabelled, legible = draw(7), draw(7, labels=False), draw(7, min_text_mm=1.8)
    # At 7 mm hexes labels are about 1.1 mm high: drawn without a minimum; with a 1.8 mm one "08.08" would be
    # wider than its hex, so it is left out rather than printed too small.
    x, y, s = centre(cmap, "08.08", 200, 7)
    box = (int(x - s * 0.5), int(y - s * 0.8), int(x + s * 0.5), int(y - s * 0.4))
    assert np.asarray(small.crop(box)).tolist() != np.asarray(unlabelled.crop(box)).tolist()
    assert np.asarray(legible.crop(box)).tolist() == np.asarray(unlabelled.crop(box)).tolist()
    # The level, short, is kept and written at least 1.8 mm high (its "+" and "1" reach that tall, near enough).
    x, y, s = centre(cmap, "03.03", 200, 7)
    region = np.asarray(legible.crop((int(x - s * 0.6), int(y - s * 0.8), int(x + s * 0.6), int(y + s * 0.3))))
    dark = np.argwhere(region.sum(axis=2) < 200)
    assert len(dark) and dark[:, 0].max() - dark[:, 0].min() >= 1.8 / 25.4 * 200 * 0.6
    # At 10 mm the labels fit once enlarged: written, and not as the plain print writes them.
    roomy, plain = draw(10, min_text_mm=1.8), draw(10)
    assert roomy.size == plain.size and np.asarray(roomy).tolist() != np.asarray(plain).tolist()


# -- heat maps ------------------------------------------------------------------------------------------------

def test_a_viewshed_image_carries_its_colour_legend():
    from engine.los.engine import viewshed
    doc = doc_of(hexes=[{"hex": "D3", "terrain": ["woods"]}])
    cmap = compile_map(doc)
    shed = viewshed(cmap, "B3", None)
    image = render.render_viewshed(cmap, shed)
    plain = render.render_map(cmap, render.viewshed_shading(cmap, shed))
    assert image.width == plain.width and image.height > plain.height
    band = np.asarray(image)[plain.height:]
    # Each answer's swatch: its colour laid over white, as the legend draws it.
    for r, g, b, a in RESULT_COLOURS.values():
        swatch = tuple(round(c * a / 255 + 255 * (1 - a / 255)) for c in (r, g, b))
        assert (np.abs(band.astype(int) - swatch).sum(axis=2) <= 3).sum() > 100, swatch
