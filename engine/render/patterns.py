"""Patterns and markers: a pattern is drawn once per (pattern, colour, size) into a hex-shaped sprite and pasted
into each hex that has it.

A pattern with scattered pieces (rubble) draws them from random numbers seeded by the pattern's name through a
stable digest, never ``hash()`` (which changes per process), so that every worker draws the same picture.
"""

import math
import random
import zlib
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from PIL import Image, ImageDraw

from engine.render.styles import SQRT3


def hex_points(orientation, s, cx, cy, inset=0.0):
    first = 0.0 if orientation == "flat" else -30.0
    r = s - inset
    return [(cx + r * math.cos(math.radians(first + 60 * i)), cy + r * math.sin(math.radians(first + 60 * i)))
            for i in range(6)]


def _sprite_box(orientation, s):
    w, h = (2 * s, SQRT3 * s) if orientation == "flat" else (SQRT3 * s, 2 * s)
    return int(math.ceil(w)) + 2, int(math.ceil(h)) + 2


def pattern_shapes(pattern, w, h, s, raster=True):
    """The pieces of a pattern over a ``w`` x ``h`` box for a hex of circumradius ``s``: [(kind, geometry, width,
    tone)], kind "ellipse" (a box), "line" or "polygon" (points), tone "ink" or "light" (the pattern colour
    lightened). The raster sprite (pixel widths, rounded) and the vector print (engine/render/vector.py, exact
    widths) draw the same pieces."""
    lw = max(1, round(s * 0.035)) if raster else s * 0.035
    box = _Box(w, h, s, lw, max(1, lw // 2) if raster else lw / 2, raster, random.Random(zlib.crc32(pattern.encode())))
    draw = PATTERNS.get("hatch" if pattern == "crosshatch" else pattern)
    return list(draw(box, pattern)) if draw else []


class _Box(NamedTuple):
    w: float
    h: float
    s: float
    lw: float  # a line's width
    thin: float  # a thin line's
    raster: bool
    rng: random.Random  # seeded by the pattern's name, so a pattern draws the same every time


def _staggered(b, step):
    """Points on rows ``step`` apart, every other row shifted by half a step."""
    for j, y in enumerate(np.arange(step / 2, b.h, step)):
        for x in np.arange(step / 2 + (step / 2 if j % 2 else 0), b.w, step):
            yield x, y


def _dots(b, _):
    r = max(1.0, b.s * 0.045) if b.raster else b.s * 0.045
    for x, y in _staggered(b, b.s * 0.3):
        yield ("ellipse", [x - r, y - r, x + r, y + r], 0, "ink")


def _hatch(b, pattern):
    w, h = b.w, b.h
    for k in np.arange(-h, w + h, b.s * 0.24):
        yield ("line", [(k, h), (k + h, 0)], b.lw, "ink")
        if pattern == "crosshatch":
            yield ("line", [(k, 0), (k + h, h)], b.lw, "ink")


def _trees(b, _):
    s, r = b.s, b.s * 0.17
    spots = [(0.0, 0.0)] + [(0.55 * math.cos(a), 0.55 * math.sin(a)) for a in np.radians(np.arange(30, 390, 60))]
    for dx, dy in spots:
        x, y = b.w / 2 + dx * s, b.h / 2 + dy * s
        yield ("ellipse", [x - r, y - r, x + r, y + r], 0, "ink")
        yield ("ellipse", [x - r * 0.45, y - r * 0.6, x + r * 0.15, y], 0, "light")


def _bricks(b, _):
    step = b.s * 0.22
    for j, y in enumerate(np.arange(step, b.h, step)):
        yield ("line", [(0, y), (b.w, y)], b.lw, "ink")
        for x in np.arange((step if j % 2 else 0), b.w, 2 * step):
            yield ("line", [(x, y - step), (x, y)], b.lw, "ink")


def _waves(b, _):
    s = b.s
    step, amp = s * 0.28, s * 0.05
    for y in np.arange(step / 2, b.h, step):
        xs = np.arange(0, b.w + 2, max(1.0, s * 0.05) if b.raster else s * 0.05)
        yield ("line", [(x, y + amp * math.sin(x / (s * 0.12))) for x in xs], b.lw, "ink")


def _marsh(b, _):
    s = b.s
    for x, y in _staggered(b, s * 0.3):
        yield ("line", [(x - s * 0.09, y), (x + s * 0.09, y)], b.lw, "ink")
        for dx in (-0.05, 0, 0.05):
            yield ("line", [(x + dx * s, y), (x + dx * 1.6 * s, y - s * 0.1)], b.thin, "ink")


def _rubble(b, _):
    for _ in range(14):
        x, y, r = b.rng.uniform(0, b.w), b.rng.uniform(0, b.h), b.s * b.rng.uniform(0.04, 0.08)
        yield ("polygon", [(x + r * math.cos(a), y + r * math.sin(a)) for a in np.radians([0, 80, 170, 250])], 0,
               "ink")


def _grass(b, _):
    s = b.s
    for x, y in _staggered(b, s * 0.34):
        for dx in (-0.06, 0, 0.06):
            yield ("line", [(x, y), (x + dx * s, y - s * 0.1)], b.thin, "ink")


PATTERNS = {"dots": _dots, "hatch": _hatch, "trees": _trees, "bricks": _bricks, "waves": _waves, "marsh": _marsh,
            "rubble": _rubble, "grass": _grass}


def lighter(colour):
    """The highlight tone of a pattern colour (a tree's light side)."""
    return tuple(min(255, c + 40) for c in colour[:3]) + tuple(colour[3:])


def _draw_pattern(draw, pattern, colour, w, h, s):
    light = lighter(colour)
    for kind, geometry, width, tone in pattern_shapes(pattern, w, h, s):
        fill = colour if tone == "ink" else light
        if kind == "ellipse":
            draw.ellipse(geometry, fill=fill)
        elif kind == "line":
            draw.line(geometry, fill=fill, width=width)
        else:
            draw.polygon(geometry, fill=fill)


@lru_cache(maxsize=128)
def pattern_sprite(pattern, colour, orientation, s):
    """An RGBA image of a pattern clipped to a hex of circumradius ``s`` px, centred in its box."""
    w, h = _sprite_box(orientation, s)
    sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    _draw_pattern(ImageDraw.Draw(sprite), pattern, tuple(colour) + (255,), w, h, s)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).polygon(hex_points(orientation, s, w / 2, h / 2, inset=max(1.0, s * 0.03)), fill=255)
    alpha = Image.fromarray(np.minimum(np.asarray(sprite.getchannel("A")), np.asarray(mask)))
    sprite.putalpha(alpha)
    return sprite


def paste_pattern(image, pattern, colour, orientation, s, cx, cy):
    sprite = pattern_sprite(pattern, tuple(colour), orientation, round(s, 2))
    image.paste(sprite, (int(round(cx - sprite.width / 2)), int(round(cy - sprite.height / 2))), sprite)


def draw_marker(draw, kind, cx, cy, r, fill, stroke):
    lw = max(1, round(r * 0.18))
    if kind == "circle":
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=stroke, width=lw)
    elif kind == "square":
        draw.rectangle([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=stroke, width=lw)
    elif kind == "triangle":
        draw.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=fill, outline=stroke)
    elif kind == "cross":
        draw.line([(cx, cy - r), (cx, cy + r)], fill=stroke or fill, width=lw * 2)
        draw.line([(cx - r * 0.6, cy - r * 0.35), (cx + r * 0.6, cy - r * 0.35)], fill=stroke or fill, width=lw * 2)
    elif kind == "star":
        pts = [(cx + (r if k % 2 == 0 else r * 0.45) * math.cos(math.radians(-90 + 36 * k)),
                cy + (r if k % 2 == 0 else r * 0.45) * math.sin(math.radians(-90 + 36 * k))) for k in range(10)]
        draw.polygon(pts, fill=fill, outline=stroke)

