"""Colours and styles: how a terrain looks, from its catalogue ``style`` (fill, pattern, hexside stroke, marker).

The painter's screen uses the same styles, so that a printed map looks like the screen.
"""

import math
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

SQRT3 = math.sqrt(3)
PAPER = (255, 255, 255)
INK = (34, 34, 34)
GRID_LINE = (95, 95, 85)
CONTOUR = (122, 82, 48)
BLACK, WHITE = (0, 0, 0), (255, 255, 255)
LEGIBLE = 4.5  # WCAG 2's contrast ratio for normal text (1.4.3, level AA)
HILL = (160, 116, 60)
HOLLOW = (90, 106, 128)
LEVEL_SHADE = 0.16  # how far one level step moves a fill towards HILL (or HOLLOW below 0)
# How far above a hex's centre its label starts (in hex radii), and how far under the label's top (in label sizes)
# its level is written: both in the hex's upper half, clear of every neighbour's label.
LABEL_TOP = {"flat": SQRT3 / 2 - 0.08, "pointy": 0.74}
LEVEL_GAP = 1.25
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")

# The colour of a terrain without a style, by what it does to LOS (a catalogue from before styles).
LOS_COLOURS = {"clear": (233, 228, 205), "hindering": (170, 200, 120), "blocking": (70, 120, 60),
               "special": (160, 150, 140)}
HEXSIDE_COLOUR = (110, 60, 20)
RESULT_COLOURS = {"clear": (40, 170, 60, 90), "hindered": (240, 190, 30, 120), "blocked": (200, 40, 40, 130),
                  "blind": (90, 40, 160, 150)}


def rgb(value, default=(128, 128, 128)):
    """'#rrggbb' as an (r, g, b) tuple; a tuple is passed through."""
    if isinstance(value, (tuple, list)):
        return tuple(int(c) for c in value[:3])
    if isinstance(value, str) and len(value) == 7 and value.startswith("#"):
        return tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))
    return default


def luminance(colour):
    """WCAG 2's relative luminance of an sRGB colour."""
    def linear(v):
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(v) for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    """WCAG 2's contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def label_ink(fill):
    """(ink, halo) of a hex's label on its fill: black or white, whichever contrasts more, so that a label is
    legible (at least 4.5:1) on woods as on open ground; the halo is the other. The painter (static/js/canvas/
    raster.js labelInk) chooses by the same rule."""
    return (BLACK, WHITE) if contrast(BLACK, fill) >= contrast(WHITE, fill) else (WHITE, BLACK)


def hex_fill(catalogue, terrain, level, ground=None):
    """The colour a hex is filled with: its terrain's look shaded for its level."""
    return level_fill(hex_look(catalogue, terrain, ground=ground)[0], level_steps(catalogue, level))


def label_inks(cmap):
    """inks(i) -> (ink, halo) of hex i's label, by its fill (styles.label_ink), worked out once per look."""
    catalogue, known = cmap.catalogue, {}
    ground = hex_look(catalogue, cmap.doc.default_terrain)[0] if hasattr(cmap, "doc") else None

    def inks(i):
        key = (cmap.terrain[i], int(cmap.level[i]))
        if key not in known:
            known[key] = label_ink(hex_fill(catalogue, key[0], key[1], ground=ground))
        return known[key]
    return inks


def style_of(catalogue, terrain_id):
    """A terrain's style, with a fill by LOS class when its catalogue has no style yet."""
    try:
        entry = catalogue.get(terrain_id)
    except KeyError:
        return {"fill": "#cccccc"}
    style = dict(entry.get("style") or {})
    if not style.get("fill") and entry.get("layer") != "hexside":
        style["fill"] = LOS_COLOURS.get(entry.get("los"), LOS_COLOURS["clear"])
    if entry.get("layer") == "hexside" and not style.get("stroke"):
        style["stroke"], style["stroke_width"] = HEXSIDE_COLOUR, style.get("stroke_width") or 0.06
    return style


def level_fill(fill, steps):
    """A fill shaded for a hex ``steps`` level steps above (or below) the ground: hills browner, hollows bluer."""
    if steps == 0:
        return tuple(fill)
    towards = HILL if steps > 0 else HOLLOW
    t = min(0.75, LEVEL_SHADE * abs(steps))
    return tuple(round(c + (h - c) * t) for c, h in zip(fill, towards, strict=False))


def level_steps(catalogue, level):
    return int(level) // max(1, getattr(catalogue, "level_step", 1) or 1) if level >= 0 else \
        -(-int(level) // max(1, getattr(catalogue, "level_step", 1) or 1))


def linear_kind(catalogue, terrain_id):
    """What runs through a terrain ("road", "railroad": the catalogue entry's ``linear``), or None."""
    linear = getattr(catalogue, "linear", None)
    try:
        return linear(terrain_id) if linear is not None else None
    except (KeyError, TypeError):
        return None


def hex_look(catalogue, terrain, ground=None):
    """(fill, [(pattern, colour)], marker style or None) of a hex's terrain list: the first terrain gives the fill,
    every terrain its pattern (a stream through brush shows both).

    With ``ground`` (the map's own ground fill) a road or railroad gives no fill and no pattern, since it is
    drawn as a line over the hex (roads.py): a road hex shows its other terrain, or the ground."""
    fill, patterns, marker = None, [], None
    for tid in terrain:
        style = style_of(catalogue, tid)
        if ground is not None and linear_kind(catalogue, tid):
            continue
        if fill is None and style.get("fill"):
            fill = rgb(style["fill"])
        if style.get("pattern"):
            patterns.append((style["pattern"], rgb(style.get("pattern_colour"), INK)))
        if style.get("marker") and marker is None:
            marker = style
    return fill or ground or LOS_COLOURS["clear"], patterns, marker


@lru_cache(maxsize=64)
def font(size, bold=False):
    size = max(6, int(size))
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(str(FONT_DIR / name), size)
    except OSError:
        return ImageFont.load_default(size)

