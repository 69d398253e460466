"""Counter images for a module's pieces, drawn from an OOB line: its unit, its name, its values, its side's
colour, and the way it faces where its placement says so."""

import io
import math

from PIL import Image, ImageDraw

from engine.hexgrid import FIRST_CORNER_ANGLE, SIDES
from engine.render.styles import font, rgb

# The values an OOB line prints on its counter, in this order, by the game fields that hold them
# (docs/scenario-format.md, "An OOB entry"): casualty points (OST 1.6), VP (ATS), points (Assault), steps (TOCS).
VALUES = (("casualty_points", "CP"), ("vp", "VP"), ("points", "pts"), ("steps", "steps"))
GREY = (119, 119, 119)


def values_line(unit):
    """The counter's bottom line: its values and quality, e.g. "CP 2 · regular"."""
    parts = [f"{label} {unit[key]}" for key, label in VALUES if isinstance(unit.get(key), (int, float))
             and not isinstance(unit.get(key), bool)]
    if unit.get("quality"):
        parts.append(str(unit["quality"]))
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


def _contrast(colour):
    r, g, b = colour
    return (0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


def _fit(draw, text, size, width, bold=False):
    """The text and its font, shrunk (then cut) to fit ``width`` pixels."""
    size = max(6, size)
    f = font(size, bold=bold)
    while f.getlength(text) > width and size > 6:
        size -= 1
        f = font(size, bold=bold)
    while text and f.getlength(text) > width:
        text = text[:-2] + "…" if len(text) > 2 else ""
    return text, f


def counter_png(unit, colour, size, orientation="flat", facing=None):
    """A square counter ``size`` pixels wide as PNG bytes: the side's colour, the unit's type over its name and
    values, and an arrow on the edge it faces."""
    fill = rgb(colour, GREY) if colour else GREY
    ink = _contrast(fill)
    image = Image.new("RGB", (size, size), fill)
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, size - 1, size - 1], outline=ink, width=max(1, size // 40))
    lines = [(str(unit.get("unit") or ""), True), (str(unit.get("name") or ""), False), (values_line(unit), False)]
    lines = [(text, bold) for text, bold in lines if text]
    inner = size * 0.78
    y = size * (0.5 - 0.13 * (len(lines) - 1))
    for text, bold in lines:
        text, f = _fit(draw, text, round(size * (0.2 if bold else 0.15)), inner, bold=bold)
        draw.text((size / 2, y), text, fill=ink, font=f, anchor="mm")
        y += size * 0.26
    angle = facing_angle(orientation, facing)
    if angle is not None:
        a = math.radians(angle)
        c = size / 2
        tip = (c + math.cos(a) * c * 0.96, c + math.sin(a) * c * 0.96)
        base = c * 0.8
        left = (c + math.cos(a - 0.22) * base, c + math.sin(a - 0.22) * base)
        right = (c + math.cos(a + 0.22) * base, c + math.sin(a + 0.22) * base)
        draw.polygon([tip, left, right], fill=ink)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()
