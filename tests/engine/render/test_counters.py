"""The one counter drawing (engine/render/counters.py): a name's line breaks and a long name laid out (no raqm
crash on a newline), no arrow when a caller asks for no facing, the library's symbol where a code is given, and
the same shapes on a PDF page as on a module's PNG."""

import io

import numpy as np
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from engine.exports import counters as module_counters
from engine.render import counters, vector

UNIT = {"unit": "Company", "name": "A/1/505\nParachute Infantry Regiment of the 82nd Airborne Division",
        "steps": 4, "quality": "elite"}
CODE = "10031000151211000000"  # a friendly infantry company (2525D)


def pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def test_a_newline_and_a_long_name_are_laid_out_within_the_counter():
    face = counters.face(UNIT, "#3355aa")
    counter = counters.scene(face, 16.0)
    texts = [shape for shape in counter.shapes if shape[0] == "text"]
    assert all("\n" not in shape[3] for shape in texts)
    assert any(shape[3] == "A/1/505" for shape in texts)  # the line break kept
    for _, x, _, text, size, _, _, bold, _, _ in texts:
        width = vector.text_width(text, size, bold)
        assert x - width / 2 >= 0 and x + width / 2 <= 16.0, text
    assert any(shape[3].endswith("…") for shape in texts)  # the regiment's name cut, not overflowing
    assert pixels(module_counters.counter_png(UNIT, "#3355aa", 120)).shape == (120, 120, 3)


def test_no_facing_draws_no_arrow():
    plain = pixels(module_counters.counter_png(UNIT, "#3355aa", 120, facing=None))
    faced = pixels(module_counters.counter_png(UNIT, "#3355aa", 120, "flat", facing="N"))
    top = (slice(0, 14), slice(50, 70))  # where an arrow to the north edge is drawn
    assert (np.abs(faced[top] - plain[top]).sum(axis=-1) > 100).sum() > 10
    assert np.array_equal(plain, pixels(module_counters.counter_png(UNIT, "#3355aa", 120)))


def test_the_symbol_is_the_librarys_on_png_and_pdf():
    with_symbol = counters.scene(counters.face(UNIT, "#3355aa", symbol=CODE), 19.05)
    without = counters.scene(counters.face(UNIT, "#3355aa"), 19.05)
    frame = (128, 224, 255)  # the library's friendly land frame fill
    assert any(s[0] == "poly" and s[2] == frame for s in with_symbol.shapes)
    assert not any(s[0] == "poly" and s[2] == frame for s in without.shapes)
    png = pixels(module_counters.counter_png(UNIT, "#3355aa", 150, symbol=CODE))
    assert (np.abs(png - np.array(frame)).sum(axis=-1) < 30).sum() > 200
    out = io.BytesIO()
    page = Canvas(out, pagesize=(100, 100))
    counters.draw_pdf(page, with_symbol, 5, 5, 100 * 25.4 / 72)
    page.save()
    fills = {tuple(round(float(v) * 255) for v in operands)
             for operands, op in PdfReader(io.BytesIO(out.getvalue())).pages[0].get_contents().operations
             if op == b"rg"}
    assert frame in fills


def test_an_unknown_code_draws_no_symbol():
    face = counters.face(UNIT, "#3355aa", symbol="not a code")
    assert face.symbol is None
