"""One counter drawing for the counter sheets, the card's map and the VASSAL module's pieces.

A counter is laid out once as print shapes in millimetres (shapes.Scene: the side's colour, the unit's type over
its name, its values and quality, a NATO symbol where its unit type names one, drawn by the symbol library, a
reduced face's band, an arrow on the edge it faces when a caller asks for one) and written by either of two
writers: ``draw_pdf`` onto a reportlab canvas (the sheets) and ``draw_png`` onto a PIL image (the module's pieces,
the card's map). Text is measured in the font it prints in: a name's line breaks are kept, a long name is wrapped
on two lines and shrunk, and what still does not fit is cut with an ellipsis; text smaller than a writer's least
legible size is left out (the card's map keeps only the key it prints large)."""

import io
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.hexgrid import FIRST_CORNER_ANGLE, SIDES
from engine.render import shapes, symbols
from engine.render.styles import font, rgb

# The values an OOB line prints on its counter, in this order, by the game fields that hold them
# (docs/scenario-format.md, "An OOB entry"): casualty points (OST 1.6), VP (ATS), points (Assault), steps (TOCS).
VALUES = (("casualty_points", "CP"), ("vp", "VP"), ("points", "pts"), ("steps", "steps"))
GREY = (119, 119, 119)
PT = 72 / 25.4


def values_line(unit, reduced=False):
    """The counter's bottom line: its values and quality, e.g. "CP 2 · regular"; a reduced face says so."""
    parts = [f"{label} {unit[key]}" for key, label in VALUES if isinstance(unit.get(key), (int, float))
             and not isinstance(unit.get(key), bool)]
    if unit.get("quality"):
        parts.append(str(unit["quality"]))
    elif unit.get("commander"):
        parts.append(f"{unit['commander']} commander")
    if reduced:
        parts.append("reduced")
    return " · ".join(parts)


def facing_angle(orientation, facing):
    """Degrees (y down) a placement's facing points to: a side's name (its middle) or a vertex 0-5; None."""
    if facing is None or facing == "":
        return None
    first = FIRST_CORNER_ANGLE[orientation]
    if isinstance(facing, int) and not isinstance(facing, bool):
        return first + 60.0 * (facing % 6)
    sides = SIDES[orientation]
    name = str(facing).upper()
    if name not in sides:
        return None
    return first + 60.0 * sides.index(name) + 30.0


def contrast(colour):
    r, g, b = colour[:3]
    return (0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


def has_steps(unit):
    """Whether a unit has a reduced face: more than one step (TOCS steps, a unit type's steps)."""
    steps = unit.get("steps")
    return isinstance(steps, int) and not isinstance(steps, bool) and steps > 1


@dataclass(frozen=True)
class Face:
    """What one face of a counter shows."""

    title: str
    name: str
    values: str
    colour: tuple
    symbol: str | None = None
    reduced: bool = False
    angle: float | None = None  # degrees, y down: the arrow on the edge it faces; None draws none


def face(unit, colour, angle=None, symbol=None, reduced=False, label=None):
    """A counter's face from an OOB line: ``label`` (the card's key) takes the title's place."""
    fill = rgb(colour, GREY) if colour else GREY
    title = str(label) if label is not None else str(unit.get("unit") or "")
    name = "" if label is not None else str(unit.get("name") or "")
    return Face(title, name, "" if label is not None else values_line(unit, reduced), fill,
                symbol if symbols.is_code(symbol) else None, reduced, angle)


def clean(text):
    """A text's lines as a counter prints them: line breaks kept, other control characters made spaces."""
    lines = str(text).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [" ".join("".join(c if c.isprintable() else " " for c in line).split()) for line in lines]


def fit(text, size, width, bold=False, lines=2):
    """(lines, size): the text on at most ``lines`` lines within ``width`` mm, from ``size`` down to a third of
    it, wrapped at spaces, then cut with an ellipsis."""
    given = [line for line in clean(text) if line]
    if not given:
        return [], size
    least = size / 3
    while True:
        laid = _wrap(given, size, width, bold, lines)
        if all(shapes.text_width(line, size, bold) <= width for line in laid) or size <= least:
            break
        size *= 0.9
    out = []
    for line in laid:
        while len(line) > 1 and shapes.text_width(line, size, bold) > width:
            line = line[:-2].rstrip() + "…"
        out.append(line)
    return out, size


def _wrap(given, size, width, bold, lines):
    out = []
    for text in given:
        words, line = text.split(), ""
        for word in words:
            trial = f"{line} {word}".strip()
            if line and shapes.text_width(trial, size, bold) > width:
                out.append(line)
                line = word
            else:
                line = trial
        out.append(line)
    if len(out) > lines:
        out = out[:lines - 1] + [" ".join(out[lines - 1:])]
    return out


def scene(face, size):
    """The counter as print shapes in a square ``size`` mm wide (y down)."""
    out = shapes.Scene(size, size)
    ink = contrast(face.colour)
    out.poly([(0, 0), (size, 0), (size, size), (0, size)], fill=face.colour, stroke=ink, width=size * 0.02)
    if face.reduced:  # the reduced face: a pale band across the top, behind the title
        out.poly([(0, 0), (size, 0), (size, size * 0.3), (0, size * 0.3)], fill=(250, 250, 245, 150))
    inner = size * 0.86
    alone = not (face.name or face.values or face.symbol)  # a key on the card's map: as large as it fits
    start = (0.55 if alone else 0.2) if len(face.title) <= 3 else (0.25 if alone else 0.15)
    title, t = fit(face.title, size * start, inner, bold=True, lines=1 if face.symbol else 2)
    y = size * 0.5 - (len(title) - 1) * t * 0.55 if alone else size * 0.17
    for k, line in enumerate(title):
        out.text(size / 2, y + k * t * 1.1, line, t, (0, 0, 0) if face.reduced else ink, bold=True)
    middle = size * 0.5
    if face.symbol:
        for shape in symbols.place(face.symbol, size * 0.24, size * 0.3, size * 0.52, size * 0.34):
            out.shapes.append(shape)
        middle = size * 0.73
    name, n = fit(face.name, size * (0.11 if face.symbol else 0.13), inner, lines=1 if face.symbol else 2)
    for k, line in enumerate(name):
        out.text(size / 2, middle + (k - (len(name) - 1) / 2) * n * 1.1, line, n, ink)
    values, v = fit(face.values, size * 0.11, inner, lines=1)
    for line in values:
        out.text(size / 2, size * 0.88, line, v, ink)
    if face.angle is not None:
        a = math.radians(face.angle)
        c = size / 2
        tip = (c + math.cos(a) * c * 0.96, c + math.sin(a) * c * 0.96)
        left = (c + math.cos(a - 0.22) * c * 0.8, c + math.sin(a - 0.22) * c * 0.8)
        right = (c + math.cos(a + 0.22) * c * 0.8, c + math.sin(a + 0.22) * c * 0.8)
        out.poly([tip, left, right], fill=ink)
    return out


def draw_pdf(canvas, counter, x, y, page_h, mirror=False):
    """A counter scene on a reportlab canvas, its top left corner at (x, y) mm from the page's top left."""
    regular, bold = shapes.pdf_fonts()
    canvas.saveState()
    canvas.translate(x * PT, (page_h - y) * PT)
    canvas.scale(PT, -PT)
    for shape in counter.shapes:
        shapes._pdf_shape(canvas, shape, regular, bold)
    canvas.restoreState()


def draw_png(target, counter, x, y, px_per_mm, least=0.0):
    """A counter scene onto a PIL image (or an ImageDraw already drawing on one) at (x, y) pixels, ``px_per_mm``
    to the millimetre; text under ``least`` pixels high is left out."""
    draw = target if isinstance(target, ImageDraw.ImageDraw) else ImageDraw.Draw(target, "RGBA")
    k = px_per_mm

    def at(point):
        return x + point[0] * k, y + point[1] * k

    for shape in counter.shapes:
        kind = shape[0]
        if kind == "poly":
            _, points, fill, stroke, width, closed = shape
            pts = [at(p) for p in points]
            if fill is not None:
                draw.polygon(pts, fill=tuple(fill))
            if stroke is not None and width > 0:
                draw.line(pts + (pts[:1] if closed else []), fill=tuple(stroke), width=max(1, round(width * k)))
        elif kind == "line":
            _, points, stroke, width, _ = shape
            draw.line([at(p) for p in points], fill=tuple(stroke), width=max(1, round(width * k)))
        elif kind == "ellipse":
            _, (x0, y0, x1, y1), fill, stroke, width = shape
            draw.ellipse([*at((x0, y0)), *at((x1, y1))], fill=None if fill is None else tuple(fill),
                         outline=None if stroke is None else tuple(stroke), width=max(1, round(width * k)))
        elif kind == "text":
            _, tx, ty, text, size, fill, anchor, bold, _, _ = shape
            if size * k >= max(least, 4):
                draw.text(at((tx, ty)), text, fill=tuple(fill), font=font(size * k, bold=bold), anchor=anchor)


def counter_image(unit, colour, size, orientation="flat", facing=None, symbol=None, reduced=False):
    """A counter ``size`` pixels wide as a PIL image; ``facing`` None draws no arrow (a module's Rotate trait
    turns the piece instead)."""
    counter = scene(face(unit, colour, facing_angle(orientation, facing), symbol, reduced), 25.4)
    image = Image.new("RGB", (size, size), GREY)
    draw_png(image, counter, 0, 0, size / 25.4)
    return image


def counter_png(unit, colour, size, orientation="flat", facing=None, symbol=None, reduced=False):
    """A square counter ``size`` pixels wide as PNG bytes (the VASSAL module's piece image)."""
    out = io.BytesIO()
    counter_image(unit, colour, size, orientation, facing, symbol, reduced).save(out, format="PNG",
                                                                               optimize=False, compress_level=6)
    return out.getvalue()
