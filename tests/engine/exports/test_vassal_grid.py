"""A map's VASSAL module: VASSAL's own grid arithmetic (vassal_java.py, from its Java source) finds every hex's
centre within 1 pixel of where the print drew it and names it with Hexside's label; Hexside's VASSAL importer
reads the grid back."""

import io
import math
import xml.etree.ElementTree as ET
import zipfile

import pytest
from PIL import Image

from engine.exports import vassal
from engine.generate import random_map
from engine.hexgrid import LABEL_SCHEMES, ORIENTATIONS, STAGGERS
from engine.importers import convert
from engine.los.engine import compile_map
from engine.render.canvas import Canvas
from engine.render.printing import PRINT_MARGIN_MM, print_scale
from tests.engine.exports.vassal_java import HexGrid

SQRT3 = math.sqrt(3)
GRID_TAG = "VASSAL.build.module.map.boardPicker.board.HexGrid"
NUMBERING_TAG = "VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering"


def read_module(data):
    z = zipfile.ZipFile(io.BytesIO(data))
    root = ET.fromstring(z.read("buildFile.xml"))
    grid = next(root.iter(GRID_TAG))
    numbering = next(grid.iter(NUMBERING_TAG))
    board = next(root.iter("VASSAL.build.module.map.boardPicker.Board"))
    image = Image.open(io.BytesIO(z.read("images/" + board.get("image")))).convert("RGB")
    return z, root, HexGrid(grid.attrib, numbering.attrib), grid.attrib, image


def print_centres(map_doc, attrs, image, hex_mm):
    """Each hex's centre in the board image as the print renderer draws it: its Canvas at the dpi the grid says
    the board was printed at (dy is the hex across the flats, in pixels), less the margin trimmed off."""
    across = float(attrs["dy"])
    dpi = across * 25.4 / hex_mm
    scale = print_scale(dpi, hex_mm)
    margin = round(PRINT_MARGIN_MM / 25.4 * dpi)
    cmap = compile_map(map_doc)
    canvas = Canvas(cmap, scale, margin, None)
    trim_x = (canvas.map_w + 2 * margin - image.width) / 2
    trim_y = (canvas.map_h + 2 * margin - image.height) / 2
    assert trim_x == trim_y and trim_x == int(trim_x) and trim_x >= 0, (trim_x, trim_y)
    return cmap, canvas, canvas.centre_px - trim_x, dpi


CASES = [(o, s, labels) for o in ORIENTATIONS for s in STAGGERS for labels in LABEL_SCHEMES]


@pytest.mark.parametrize("orientation,stagger,labels", CASES)
@pytest.mark.parametrize("size,hex_mm,dpi", [((9, 7), 19.0, 100), ((28, 3), 8.0, 150), ((1, 4), 4.0, 51),
                                              ((3, 1), 60.0, 300), ((2, 2), 13.3, 77)])
def test_vassal_finds_every_hex_where_the_print_drew_it_and_names_it_as_hexside(orientation, stagger, labels,
                                                                                 size, hex_mm, dpi):
    map_doc = random_map("ost", *size, seed=3, orientation=orientation, stagger=stagger, labels=labels,
                         art=0, hexsides=size[0] * size[1])
    data = vassal.map_module(map_doc, hex_mm=hex_mm, dpi=dpi)
    _, _, vgrid, attrs, image = read_module(data)
    cmap, canvas, centres, board_dpi = print_centres(map_doc, attrs, image, hex_mm)
    assert abs(board_dpi - dpi) <= dpi / (hex_mm / 25.4 * dpi)  # the dpi moved by at most a pixel's worth
    grid = map_doc.grid
    worst = 0.0
    for col, row in grid.hexes():
        tx, ty = centres[cmap.index_of([col, row])]
        # a player drops a counter on the hex: VASSAL snaps the pixel to its hex's centre
        for px, py in ((math.floor(tx), math.floor(ty)), (round(tx + canvas.s * 0.3), round(ty - canvas.s * 0.2))):
            cx, cy = vgrid.snap_to_hex((px, py))
            worst = max(worst, abs(cx - tx), abs(cy - ty))
            assert abs(cx - tx) < 1 and abs(cy - ty) < 1, (grid.label(col, row), (cx, cy), (tx, ty))
            assert vgrid.location_name((cx, cy)) == grid.label(col, row)
        # a setup stack names its hex: VASSAL's numbering finds the same centre from the label
        assert vgrid.get_location(grid.label(col, row)) == vgrid.snap_to_hex((math.floor(tx), math.floor(ty)))
    assert worst < 1


@pytest.mark.parametrize("labels", LABEL_SCHEMES)
@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_three_digit_labels_past_99_columns(orientation, labels):
    map_doc = random_map("ost", 101, 2, seed=1, orientation=orientation, stagger="even", labels=labels, art=0,
                         hexsides=0, hills=0)
    _, _, vgrid, attrs, image = read_module(vassal.map_module(map_doc, hex_mm=6.0, dpi=100))
    cmap, _, centres, _ = print_centres(map_doc, attrs, image, 6.0)
    for col, row in ((0, 0), (9, 1), (98, 0), (99, 1), (100, 1)):
        tx, ty = centres[cmap.index_of([col, row])]
        point = vgrid.snap_to_hex((math.floor(tx), math.floor(ty)))
        assert vgrid.location_name(point) == map_doc.grid.label(col, row)


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_the_board_image_has_its_hex_edges_where_the_grid_puts_them(orientation):
    """The centres the test works from are the image's: on an all-open map the hex outline (the renderer's grid
    line) passes through the middle of every edge the grid's centres imply."""
    map_doc = random_map("ost", 8, 6, seed=2, orientation=orientation, stagger="odd", cover=0, hills=0,
                         hexsides=0, art=0)
    _, _, vgrid, attrs, image = read_module(vassal.map_module(map_doc, hex_mm=19.0, dpi=150))
    cmap, canvas, centres, _ = print_centres(map_doc, attrs, image, 19.0)
    fill = image.getpixel((round(centres[0][0] + canvas.s * 0.3), round(centres[0][1] + canvas.s * 0.3)))
    dark = 0
    for i in range(cmap.n):
        cx, cy = centres[i]
        for k in range(6):
            a = math.radians((240 if orientation == "flat" else 270) + 60 * k + 30)
            x, y = cx + math.cos(a) * canvas.s * SQRT3 / 2, cy + math.sin(a) * canvas.s * SQRT3 / 2
            # the 1-pixel outline, within a pixel of where the grid's centres imply it
            near = [sum(image.getpixel((min(image.width - 1, max(0, round(x) + u)),
                                        min(image.height - 1, max(0, round(y) + v)))))
                    for u in (-1, 0, 1) for v in (-1, 0, 1)]
            dark += min(near) < sum(fill) - 30
    assert dark == 6 * cmap.n, (dark, 6 * cmap.n)


@pytest.mark.parametrize("orientation,stagger,labels", CASES)
def test_the_importer_reads_the_module_back_as_the_source_grid(orientation, stagger, labels):
    map_doc = random_map("ost", 11, 8, seed=5, orientation=orientation, stagger=stagger, labels=labels,
                         art=0, hexsides=30)
    data = vassal.map_module(map_doc, hex_mm=19.0, dpi=100)
    result = convert("exported.vmod", data)
    assert result.ok, result.findings
    assert result.doc["name"] == map_doc.name  # the module's name, not "exported Board"
    got = result.doc["grid"]
    want = map_doc.grid
    assert (got["orientation"], got["columns"], got["rows"], got["stagger"], got["labels"]) == (
        want.orientation, want.columns, want.rows, want.stagger, want.labels)
    _, _, _, attrs, image = read_module(data)
    cmap, _, centres, _ = print_centres(map_doc, attrs, image, 19.0)
    origin = result.doc["background"]["origin"]
    assert abs(origin[0] - centres[0][0]) < 1 and abs(origin[1] - centres[0][1]) < 1


def test_small_hexes_trim_the_margin_so_the_importer_sees_no_extra_line():
    map_doc = random_map("ost", 7, 5, seed=5, orientation="pointy", stagger="even", labels="xxyy", art=0, hexsides=20)
    result = convert("exported.vmod", vassal.map_module(map_doc, hex_mm=8.0, dpi=150))
    assert (result.doc["grid"]["columns"], result.doc["grid"]["rows"]) == (7, 5)


def test_module_metadata_and_build_file():
    map_doc = random_map("ost", 6, 4, seed=1, hexsides=10, name="Test <board> & co")
    z, root, _, _, _ = read_module(vassal.map_module(map_doc))
    assert root.tag == "VASSAL.build.GameModule" and root.get("VassalVersion") == vassal.VASSAL_VERSION
    assert root.get("name") == "Test <board> & co"
    meta = ET.fromstring(z.read("moduledata"))
    assert meta.tag == "data" and meta.findtext("name") == "Test <board> & co"
    assert meta.findtext("VassalVersion") == vassal.VASSAL_VERSION


def test_a_hex_too_few_pixels_across_for_vassal_is_refused_at_dpi():
    with pytest.raises(vassal.ModuleError) as caught:
        vassal.map_module(random_map("ost", 4, 4, hexsides=5), hex_mm=4.0, dpi=10)
    assert caught.value.path == "dpi" and "pixels across" in str(caught.value)


def test_out_of_range_hex_size_is_refused_by_field():
    with pytest.raises(vassal.ModuleError) as caught:
        vassal.map_module(random_map("ost", 4, 4, hexsides=5), hex_mm=1.0)
    assert caught.value.path == "hex_mm" and "hex size" in str(caught.value)


def even_odd(points, x, y):
    inside = False
    for i in range(len(points)):
        (x1, y1), (x2, y2) = points[i], points[(i + 1) % len(points)]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


@pytest.mark.parametrize("orientation,stagger,labels", CASES)
def test_no_grid_centre_off_the_map_snaps_a_counter(orientation, stagger, labels):
    """Every centre of VASSAL's grid on the board that is no hex of the map lies in the "Off the map" zone, which
    has no grid (ZonedGrid.snapTo asks the zone first: a counter dropped there stays put); every hex of the map
    lies outside it, and snaps to its own centre."""
    map_doc = random_map("ost", 9, 7, seed=3, orientation=orientation, stagger=stagger, labels=labels, art=0,
                         hexsides=0)
    z, root, vgrid, attrs, image = read_module(vassal.map_module(map_doc, hex_mm=19.0, dpi=100))
    zone = next(e for e in root.iter("VASSAL.build.module.map.boardPicker.board.mapgrid.Zone")
                if e.get("name") == vassal.OFF_MAP)
    assert zone.get("useParentGrid") == "false" and not list(zone)
    points = [tuple(int(v) for v in pair.split(",")) for pair in zone.get("path").split(";")]
    labels_on_map = {map_doc.grid.label(c, r) for c, r in map_doc.grid.hexes()}
    off, on = 0, 0
    for nx in range(-2, max(map_doc.grid.columns, map_doc.grid.rows) + 3):
        for ny in range(-2, max(map_doc.grid.columns, map_doc.grid.rows) + 3):
            x, y = vgrid.rotate_if_sideways(vgrid.center_from_raw_index(nx, ny))
            if not (0 <= x < image.width and 0 <= y < image.height):
                continue
            name = vgrid.location_name((x, y))
            if name in labels_on_map and vgrid.get_location(name) == (x, y):
                assert not even_odd(points, x, y), name
                on += 1
            else:
                assert even_odd(points, x, y), (name, x, y)
                off += 1
    assert on == len(labels_on_map) and off > 0
