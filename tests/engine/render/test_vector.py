"""The vector print measured: an SVG whose width and height are in millimetres and whose hexes are N mm across the
flats, a PDF whose page and hexes are the same in points, text kept as text, patterns defined once and placed in
each hex, the same legend as the PNG's, and a 60 x 40 map's SVG under 5 MB."""

import io
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pypdf import PdfReader

from engine import mapfile
from engine.generate import random_map
from engine.los.engine import compile_map
from engine.render import legend, vector
from engine.render.canvas import Canvas
from engine.render.printing import PRINT_MARGIN_MM

SAMPLES = Path(__file__).resolve().parents[3] / "maps" / "samples"
SVG = "{http://www.w3.org/2000/svg}"
SQRT3 = math.sqrt(3)


def sample(name):
    return compile_map(mapfile.parse((SAMPLES / f"{name}.json").read_text()))


def mm(value):
    assert value.endswith("mm"), value
    return float(value[:-2])


def hexes_of(root):
    """Every hex outline of the grid path, as lists of (x, y) corners."""
    path = root.find(f"{SVG}path").get("d")
    return [[tuple(map(float, p.split())) for p in sub.split("L")] for sub in re.findall(r"M([^MZ]+)Z", path)]


def across_flats(corners, orientation):
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return (max(ys) - min(ys)) if orientation == "flat" else (max(xs) - min(xs))


@pytest.mark.parametrize("name,hex_mm", [("hill-112", 19.0), ("gela-beachhead", 12.5), ("nijmegen-approaches", 25.4)])
def test_the_svg_is_measured_in_millimetres_at_the_hex_size_asked(name, hex_mm):
    cmap = sample(name)
    root = ET.fromstring(vector.svg(cmap, hex_mm))
    width, height = mm(root.get("width")), mm(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')[:-2]} {root.get('height')[:-2]}"  # a unit is a mm
    hexes = hexes_of(root)
    assert len(hexes) == cmap.n and all(len(h) == 6 for h in hexes)
    for corners in hexes[:: max(1, len(hexes) // 25)]:
        assert across_flats(corners, cmap.grid.orientation) == pytest.approx(hex_mm, abs=0.002)
    min_x, min_y, max_x, max_y = cmap.grid.extent()
    assert width == pytest.approx((max_x - min_x) * hex_mm / SQRT3 + 2 * PRINT_MARGIN_MM, abs=1.0)
    assert height > (max_y - min_y) * hex_mm / SQRT3 + 2 * PRINT_MARGIN_MM  # and the legend band under the map
    # Two neighbouring centres are one hex apart: hex_mm.
    a, b = (tuple(sum(c) / 6 for c in zip(*h, strict=False)) for h in hexes[:2])
    assert math.dist(a, b) == pytest.approx(hex_mm, abs=0.002)


def test_the_svg_keeps_text_as_text_and_patterns_as_patterns():
    cmap = sample("hill-112")
    root = ET.fromstring(vector.svg(cmap, 16))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    labels = [cmap.grid.label(*cmap.grid.from_index(i)) for i in range(cmap.n)]
    assert set(labels) <= set(texts)
    assert not list(root.iter(f"{SVG}image"))  # nothing drawn as pixels
    defs = root.find(f"{SVG}defs")
    patterns = {g.get("id") for g in defs.iter(f"{SVG}g")}
    uses = [u.get("{http://www.w3.org/1999/xlink}href")[1:] for u in root.iter(f"{SVG}use")]
    assert set(uses) == patterns and len(uses) > len(patterns)  # each defined once, placed many times
    woods = sum(1 for i in range(cmap.n) if "woods" in cmap.terrain[i] and cmap.art[i] is None)
    assert woods and sum(1 for u in uses if u.startswith("p-trees-") and u.endswith(str(round(16 / SQRT3 * 100)))) \
        >= woods
    canvas = Canvas(cmap, 16 / SQRT3, PRINT_MARGIN_MM, None)
    names = [name for name, _, _ in legend.legend_entries(cmap, canvas, None)]
    assert names and set(names) <= set(texts)  # the PNG's legend, entry for entry
    assert any(t and t.startswith("one hex = 50 m, 16 mm across the flats") for t in texts)


@pytest.mark.parametrize("hex_mm", [16.0, 19.0])
def test_the_pdf_page_and_hexes_are_true_size_in_points(hex_mm):
    cmap = sample("oosterbeek-crossroads")
    root = ET.fromstring(vector.svg(cmap, hex_mm))
    reader = PdfReader(io.BytesIO(vector.pdf(cmap, hex_mm)))
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert float(page.mediabox.width) == pytest.approx(mm(root.get("width")) * 72 / 25.4, abs=0.01)
    assert float(page.mediabox.height) == pytest.approx(mm(root.get("height")) * 72 / 25.4, abs=0.01)
    content = page.get_contents().get_data().decode("latin-1")
    scale = re.search(r"^([\d.]+) 0 0 -([\d.]+) 0 [\d.]+ cm$", content, re.M)
    assert float(scale.group(1)) == pytest.approx(72 / 25.4, abs=1e-5)  # a user unit is a millimetre
    grid_path = content[content.index(" j\n"):]  # the grid: one path of every hex outline
    first = re.search(r"([\d.]+) ([\d.]+) m((?: [\d.]+ [\d.]+ l){5}) h", grid_path.replace("\n", " "))
    numbers = [float(v) for v in (first.group(1), first.group(2), *first.group(3).replace("l", "").split())]
    corners = list(zip(numbers[::2], numbers[1::2], strict=False))
    assert across_flats(corners, "flat") * 72 / 25.4 == pytest.approx(hex_mm * 72 / 25.4, abs=0.01)
    text = page.extract_text()
    for i in (0, cmap.n // 2, cmap.n - 1):
        assert cmap.grid.label(*cmap.grid.from_index(i)) in text  # text, not curves
    xobjects = page["/Resources"]["/XObject"]
    assert xobjects and all(xobjects[k].get_object()["/Subtype"] == "/Form" for k in xobjects)  # no images


def test_a_60_by_40_map_svg_is_under_5_mb():
    cmap = compile_map(random_map("ost", 60, 40, seed=3, name="Big"))
    data = vector.svg(cmap, 19)
    assert len(data) < 5_000_000
    assert len(hexes_of(ET.fromstring(data))) == 2400


def test_a_hex_size_out_of_range_is_refused():
    with pytest.raises(ValueError, match="hex size must be from 4 to 60 mm"):
        vector.svg(sample("hill-112"), 80)
