"""Pillow: a map as an image, for the screen, thumbnails and print.

Everything is drawn from the catalogue's ``style`` (fill, pattern, hexside stroke, marker), so that a printed map
looks like the painter's screen. Drawing is by whole shapes, never pixel by pixel in Python: one polygon per hex,
a pattern drawn once per (pattern, colour, size) as a hex-shaped sprite and pasted into each hex that has it,
one line per hexside. A 60 x 40 map at 300 dpi is about 12,000 x 9,000 pixels and draws in a few seconds.

Sizes: ``scale`` is pixels per map unit (a hex's circumradius, docs/map-format.md). For print, ``hex_mm`` is the
hex's width across the flats, the way printed hexes are measured, so scale = hex_mm / 25.4 * dpi / sqrt(3).
"""

import math
import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.hexgrid import FIRST_CORNER_ANGLE
from engine.mapfile import Cell, overlay_cells

SQRT3 = math.sqrt(3)
SCALE = 24  # the screen image: pixels per map unit
MARGIN = 8
MAX_DPI = 300
HEX_MM_RANGE = (4.0, 60.0)
MAX_PIXELS = 400_000_000  # a print image larger than this is refused (a 500x500 map at 300 dpi would be)
PRINT_MARGIN_MM = 5.0
THUMB_PX = 320  # the longer side of a thumbnail
MOSAIC_ABOVE = 6000  # hexes: a thumbnail of a larger map is one pixel per hex, scaled (bounded cost)

PAPER = (255, 255, 255)
INK = (34, 34, 34)
GRID_LINE = (95, 95, 85)
CONTOUR = (122, 82, 48)
LABEL_INK = (70, 70, 62)
HILL = (160, 116, 60)
HOLLOW = (90, 106, 128)
LEVEL_SHADE = 0.16  # how far one level step moves a fill towards HILL (or HOLLOW below 0)
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")

# The colour of a terrain without a style, by what it does to LOS (a catalogue from before styles).
LOS_COLOURS = {"clear": (233, 228, 205), "hindering": (170, 200, 120), "blocking": (70, 120, 60),
               "special": (160, 150, 140)}
HEXSIDE_COLOUR = (110, 60, 20)
RESULT_COLOURS = {"clear": (40, 170, 60, 90), "hindered": (240, 190, 30, 120), "blocked": (200, 40, 40, 130),
                  "blind": (90, 40, 160, 150)}


# -- what a scenario puts on the map ------------------------------------------------------------------------

@dataclass
class ScenarioLayer:
    """What a scenario draws over its map. Hexes are labels or [column, row]; sides are named by the scenario.

    side_colours: side -> "#rrggbb". setup_zones and control: side -> hexes. objectives: [{"hex", "label"}],
    optionally "side" when one side holds it. units: [{"hex", "side", "label"}], several in a hex are a stack,
    drawn fanned. entry_hexes: side -> hexes. entry_edges: side -> map edges ("N", "E", "S", "W").
    """

    side_colours: dict = field(default_factory=dict)
    setup_zones: dict = field(default_factory=dict)
    objectives: list = field(default_factory=list)
    control: dict = field(default_factory=dict)
    units: list = field(default_factory=list)
    entry_hexes: dict = field(default_factory=dict)
    entry_edges: dict = field(default_factory=dict)

    def colour(self, side, alpha=255):
        return (*rgb(self.side_colours.get(side), (120, 120, 120)), alpha)


# -- colours and styles -----------------------------------------------------------------------------------

def rgb(value, default=(128, 128, 128)):
    """'#rrggbb' as an (r, g, b) tuple; a tuple is passed through."""
    if isinstance(value, (tuple, list)):
        return tuple(int(c) for c in value[:3])
    if isinstance(value, str) and len(value) == 7 and value.startswith("#"):
        return tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))
    return default


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
    return tuple(round(c + (h - c) * t) for c, h in zip(fill, towards))


def _steps(catalogue, level):
    return int(level) // max(1, getattr(catalogue, "level_step", 1) or 1) if level >= 0 else \
        -(-int(level) // max(1, getattr(catalogue, "level_step", 1) or 1))


def hex_look(catalogue, terrain):
    """(fill, [(pattern, colour)], marker style or None) of a hex's terrain list: the first terrain gives the fill,
    every terrain its pattern (a stream through brush shows both)."""
    fill, patterns, marker = None, [], None
    for tid in terrain:
        style = style_of(catalogue, tid)
        if fill is None and style.get("fill"):
            fill = rgb(style["fill"])
        if style.get("pattern"):
            patterns.append((style["pattern"], rgb(style.get("pattern_colour"), INK)))
        if style.get("marker") and marker is None:
            marker = style
    return fill or LOS_COLOURS["clear"], patterns, marker


@lru_cache(maxsize=64)
def font(size, bold=False):
    size = max(6, int(size))
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(str(FONT_DIR / name), size)
    except OSError:
        return ImageFont.load_default(size)


# -- patterns: drawn once per size into a hex-shaped sprite ---------------------------------------------------

def _hex_points(orientation, s, cx, cy, inset=0.0):
    first = 0.0 if orientation == "flat" else -30.0
    r = s - inset
    return [(cx + r * math.cos(math.radians(first + 60 * i)), cy + r * math.sin(math.radians(first + 60 * i)))
            for i in range(6)]


def _sprite_box(orientation, s):
    w, h = (2 * s, SQRT3 * s) if orientation == "flat" else (SQRT3 * s, 2 * s)
    return int(math.ceil(w)) + 2, int(math.ceil(h)) + 2


def _draw_pattern(draw, pattern, colour, w, h, s):
    lw = max(1, round(s * 0.035))
    rng = random.Random(hash(pattern) & 0xFFFF)
    if pattern == "dots":
        step, r = s * 0.3, max(1.0, s * 0.045)
        for j, y in enumerate(np.arange(step / 2, h, step)):
            for x in np.arange(step / 2 + (step / 2 if j % 2 else 0), w, step):
                draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)
    elif pattern in ("hatch", "crosshatch"):
        step = s * 0.24
        for k in np.arange(-h, w + h, step):
            draw.line([(k, h), (k + h, 0)], fill=colour, width=lw)
            if pattern == "crosshatch":
                draw.line([(k, 0), (k + h, h)], fill=colour, width=lw)
    elif pattern == "trees":
        r = s * 0.17
        spots = [(0.0, 0.0)] + [(0.55 * math.cos(a), 0.55 * math.sin(a)) for a in np.radians(np.arange(30, 390, 60))]
        for dx, dy in spots:
            x, y = w / 2 + dx * s, h / 2 + dy * s
            draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)
            draw.ellipse([x - r * 0.45, y - r * 0.6, x + r * 0.15, y], fill=tuple(min(255, c + 40) for c in colour))
    elif pattern == "bricks":
        step = s * 0.22
        for j, y in enumerate(np.arange(step, h, step)):
            draw.line([(0, y), (w, y)], fill=colour, width=lw)
            for x in np.arange((step if j % 2 else 0), w, 2 * step):
                draw.line([(x, y - step), (x, y)], fill=colour, width=lw)
    elif pattern == "waves":
        step, amp = s * 0.28, s * 0.05
        for y in np.arange(step / 2, h, step):
            xs = np.arange(0, w + 2, max(1.0, s * 0.05))
            draw.line([(x, y + amp * math.sin(x / (s * 0.12))) for x in xs], fill=colour, width=lw)
    elif pattern == "marsh":
        step = s * 0.3
        for j, y in enumerate(np.arange(step / 2, h, step)):
            for x in np.arange(step / 2 + (step / 2 if j % 2 else 0), w, step):
                draw.line([(x - s * 0.09, y), (x + s * 0.09, y)], fill=colour, width=lw)
                for dx in (-0.05, 0, 0.05):
                    draw.line([(x + dx * s, y), (x + dx * 1.6 * s, y - s * 0.1)], fill=colour, width=max(1, lw // 2))
    elif pattern == "rubble":
        for _ in range(int(14 + 0 * s)):
            x, y, r = rng.uniform(0, w), rng.uniform(0, h), s * rng.uniform(0.04, 0.08)
            draw.polygon([(x + r * math.cos(a), y + r * math.sin(a)) for a in np.radians([0, 80, 170, 250])],
                         fill=colour)
    elif pattern == "grass":
        step = s * 0.34
        for j, y in enumerate(np.arange(step / 2, h, step)):
            for x in np.arange(step / 2 + (step / 2 if j % 2 else 0), w, step):
                for dx in (-0.06, 0, 0.06):
                    draw.line([(x, y), (x + dx * s, y - s * 0.1)], fill=colour, width=max(1, lw // 2))


@lru_cache(maxsize=128)
def pattern_sprite(pattern, colour, orientation, s):
    """An RGBA image of a pattern clipped to a hex of circumradius ``s`` px, centred in its box."""
    w, h = _sprite_box(orientation, s)
    sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    _draw_pattern(ImageDraw.Draw(sprite), pattern, tuple(colour) + (255,), w, h, s)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).polygon(_hex_points(orientation, s, w / 2, h / 2, inset=max(1.0, s * 0.03)), fill=255)
    alpha = Image.fromarray(np.minimum(np.asarray(sprite.getchannel("A")), np.asarray(mask)))
    sprite.putalpha(alpha)
    return sprite


def _paste_pattern(image, pattern, colour, orientation, s, cx, cy):
    sprite = pattern_sprite(pattern, tuple(colour), orientation, round(s, 2))
    image.paste(sprite, (int(round(cx - sprite.width / 2)), int(round(cy - sprite.height / 2))), sprite)


def _draw_marker(draw, kind, cx, cy, r, fill, stroke):
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


# -- the drawing ----------------------------------------------------------------------------------------------

class _Canvas:
    """Map space to pixels for one image: the hexes drawn, their pixel centres and corners."""

    def __init__(self, cmap, scale, margin, crop):
        self.cmap, self.grid, self.s = cmap, cmap.grid, float(scale)
        self.drawn = np.arange(cmap.n) if crop is None else np.array(sorted(crop), dtype=np.int64)
        angles = np.radians(FIRST_CORNER_ANGLE[self.grid.orientation] + 60.0 * np.arange(6))
        self.unit_corners = np.stack([np.cos(angles), np.sin(angles)], axis=1)  # corner i starts side i
        centres = cmap.centres[self.drawn]
        lo = centres.min(axis=0) - 1.0
        hi = centres.max(axis=0) + 1.0
        if self.grid.orientation == "flat":
            lo[1], hi[1] = lo[1] + (1 - SQRT3 / 2), hi[1] - (1 - SQRT3 / 2)
        else:
            lo[0], hi[0] = lo[0] + (1 - SQRT3 / 2), hi[0] - (1 - SQRT3 / 2)
        self.origin = lo
        self.margin = margin
        self.map_w = int(math.ceil((hi[0] - lo[0]) * self.s))
        self.map_h = int(math.ceil((hi[1] - lo[1]) * self.s))
        self.centre_px = np.zeros((cmap.n, 2))
        self.centre_px[self.drawn] = (centres - lo) * self.s + margin

    def px(self, point):
        return ((point[0] - self.origin[0]) * self.s + self.margin, (point[1] - self.origin[1]) * self.s + self.margin)

    def corners(self, i):
        cx, cy = self.centre_px[i]
        return [(cx + x * self.s, cy + y * self.s) for x, y in self.unit_corners]

    def edge(self, i, side):
        c = self.corners(i)
        return c[side], c[(side + 1) % 6]


def _outline(draw, points, colour, width):
    """A closed outline. (ImageDraw's polygon outline wider than 1 px masks the whole image: slow on big ones.)"""
    points = list(points)
    draw.line(points + points[:1], fill=colour, width=width, joint="curve" if width > 2 else None)


def _is_drawn(canvas):
    mask = np.zeros(canvas.cmap.n, dtype=bool)
    mask[canvas.drawn] = True
    return mask


def draw_map(cmap, scale, margin=MARGIN, labels=True, legend=False, scale_bar=False, crop=None, shading=None,
             lines=(), scenario=None, patterns=None, hex_mm=None, dpi=None):
    """The map as an RGB image at ``scale`` pixels per map unit, with what is asked drawn over it.

    crop: hex indices (the play area) to draw; shading: {index or label: (r, g, b, a)} laid over hexes;
    lines: [{"from", "to", "colour", "width"}] drawn between hex centres (LOS, sight lines); scenario: a
    ScenarioLayer; legend and scale_bar: a band under the map naming each terrain shown and the scale.
    """
    canvas = _Canvas(cmap, scale, margin, crop)
    s = canvas.s
    patterns = s >= 7 if patterns is None else patterns
    band = _legend_height(cmap, canvas, scenario) if (legend or scale_bar) else 0
    width, height = canvas.map_w + 2 * margin, canvas.map_h + 2 * margin + band
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image, "RGBA")
    catalogue, grid, drawn = cmap.catalogue, cmap.grid, canvas.drawn
    default_fill = hex_look(catalogue, cmap.doc.default_terrain)[0] if hasattr(cmap, "doc") else None

    looks = {}
    for i in drawn:
        terrain = cmap.terrain[i]
        if terrain not in looks:
            looks[terrain] = hex_look(catalogue, terrain)
        fill, pats, marker = looks[terrain]
        steps = _steps(catalogue, cmap.level[i])
        corners = canvas.corners(i)
        if cmap.art[i] is not None:
            # The art is where the terrain's artwork is; the rest of the hex is the map's ground.
            draw.polygon(corners, fill=level_fill(default_fill or LOS_COLOURS["clear"], steps))
            for poly in getattr(cmap.art[i], "geoms", [cmap.art[i]]):
                points = [canvas.px(p) for p in poly.exterior.coords]
                draw.polygon(points, fill=level_fill(fill, steps))
                _outline(draw, points, tuple(int(c * 0.45) for c in fill), max(1, round(s * 0.04)))
            continue
        draw.polygon(corners, fill=level_fill(fill, steps))
        if patterns:
            cx, cy = canvas.centre_px[i]
            for pattern, colour in pats:
                _paste_pattern(image, pattern, colour, grid.orientation, s, cx, cy)
        if marker is not None and s >= 10:
            cx, cy = canvas.centre_px[i]
            _draw_marker(draw, marker["marker"], cx + s * 0.45, cy + s * 0.35, s * 0.12,
                         rgb(marker.get("pattern_colour") or marker.get("stroke"), INK), INK)

    if s >= 4:
        lw = max(1, round(s * 0.02))
        for i in drawn:
            _outline(draw, canvas.corners(i), GRID_LINE + (200,), lw)
    _draw_contours(draw, canvas)
    _draw_hexsides(draw, canvas)
    _draw_overlays(draw, canvas)
    if shading:
        for key, colour in shading.items():
            i = cmap.index_of(key) if isinstance(key, (str, list, tuple)) else int(key)
            if _is_drawn(canvas)[i]:
                draw.polygon(canvas.corners(i), fill=tuple(colour))
    _draw_markers(draw, canvas)
    if scenario is not None:
        _draw_scenario_ground(image, draw, canvas, scenario)
    if labels:
        _draw_labels(draw, canvas)
    for line in lines:
        _draw_line(draw, canvas, line)
    if scenario is not None:
        _draw_scenario_pieces(draw, canvas, scenario)
    if band:
        _draw_legend(image, draw, canvas, cmap, scenario, top=canvas.map_h + 2 * margin, legend=legend,
                     scale_bar=scale_bar, hex_mm=hex_mm, dpi=dpi)
    return image


def _draw_contours(draw, canvas):
    """A line along every hexside between hexes of different levels: the hill's edge, as printed maps show it."""
    cmap, grid, s = canvas.cmap, canvas.grid, canvas.s
    if not cmap.level.any():
        return
    drawn = _is_drawn(canvas)
    width = max(1, round(s * SQRT3 * 0.04))
    for i in canvas.drawn:
        col, row = grid.from_index(i)
        for side in range(3):
            ncol, nrow = grid.step(col, row, side)
            if grid.contains(ncol, nrow):
                j = grid.index(ncol, nrow)
                if drawn[j] and cmap.level[j] != cmap.level[i]:
                    draw.line(canvas.edge(i, side), fill=CONTOUR, width=width)


def _draw_hexsides(draw, canvas):
    cmap, grid, s = canvas.cmap, canvas.grid, canvas.s
    drawn = _is_drawn(canvas)
    styles = {}
    for (col, row, side), tid in cmap.hexsides.items():
        if grid.contains(col, row) and drawn[grid.index(col, row)]:
            i, k = grid.index(col, row), side
        else:
            ncol, nrow = grid.step(col, row, side)
            if not (grid.contains(ncol, nrow) and drawn[grid.index(ncol, nrow)]):
                continue
            i, k = grid.index(ncol, nrow), (side + 3) % 6
        if tid not in styles:
            styles[tid] = style_of(cmap.catalogue, tid)
        style = styles[tid]
        a, b = canvas.edge(i, k)
        width = max(2, round((style.get("stroke_width") or 0.06) * SQRT3 * s))
        colour = rgb(style.get("stroke"), HEXSIDE_COLOUR)
        # Shorten a little so that features meeting at a corner stay readable, as on a printed board.
        trim = 0.06
        a2 = (a[0] + (b[0] - a[0]) * trim, a[1] + (b[1] - a[1]) * trim)
        b2 = (b[0] + (a[0] - b[0]) * trim, b[1] + (a[1] - b[1]) * trim)
        draw.line([a2, b2], fill=colour, width=width)
        r = width / 2
        for p in (a2, b2):
            draw.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=colour)
        pattern = style.get("pattern")
        pc = rgb(style.get("pattern_colour"), INK)
        if pattern == "trees":
            for t in np.linspace(0.15, 0.85, 4):
                x, y = a2[0] + (b2[0] - a2[0]) * t, a2[1] + (b2[1] - a2[1]) * t
                draw.ellipse([x - r * 0.9, y - r * 0.9, x + r * 0.9, y + r * 0.9], fill=pc)
        elif pattern == "hatch":
            # hachures: ticks from the edge into the hex it belongs to (the lower side of a slope is not shown)
            cx, cy = canvas.centre_px[i]
            for t in np.linspace(0.15, 0.85, 5):
                x, y = a2[0] + (b2[0] - a2[0]) * t, a2[1] + (b2[1] - a2[1]) * t
                draw.line([(x, y), (x + (cx - x) * 0.16, y + (cy - y) * 0.16)], fill=pc, width=max(1, width // 2))


def _draw_overlays(draw, canvas):
    """Each overlay's hexes outlined, its id written on its anchor."""
    cmap, grid = canvas.cmap, canvas.grid
    doc = getattr(cmap, "doc", None)
    if doc is None or not doc.overlays:
        return
    drawn = _is_drawn(canvas)
    width = max(1, round(canvas.s * 0.06))
    for overlay in doc.overlays:
        inside = {h for h, _ in overlay_cells(grid, overlay, doc.default_cell()) if grid.contains(*h)}
        for col, row in inside:
            i = grid.index(col, row)
            if not drawn[i]:
                continue
            for side in range(6):
                if grid.step(col, row, side) not in inside:
                    draw.line(canvas.edge(i, side), fill=(200, 40, 160), width=width)
        if grid.contains(*overlay.anchor) and drawn[grid.index(*overlay.anchor)]:
            cx, cy = canvas.centre_px[grid.index(*overlay.anchor)]
            f = font(canvas.s * 0.3, bold=True)
            draw.text((cx, cy + canvas.s * 0.5), overlay.id, fill=(200, 40, 160), font=f, anchor="mm")


def _draw_markers(draw, canvas):
    """Markers laid on the map for an LOS check or by a scenario (smoke, wrecks...), in their catalogue style,
    a row of symbols across the hex's middle."""
    cmap, s = canvas.cmap, canvas.s
    drawn = _is_drawn(canvas)
    for i, kinds in cmap.markers.items():
        if not drawn[i]:
            continue
        cx, cy = canvas.centre_px[i]
        for k, kind in enumerate(kinds[:4]):
            style = style_of(cmap.catalogue, kind)
            x = cx + (k - (min(len(kinds), 4) - 1) / 2) * s * 0.42
            _draw_marker(draw, style.get("marker") or "circle", x, cy, s * 0.18, rgb(style.get("fill"), (200, 200, 200)),
                         rgb(style.get("stroke"), INK))


def _draw_labels(draw, canvas):
    cmap, grid, s = canvas.cmap, canvas.grid, canvas.s
    size = s * 0.27
    if size < 6:
        return
    f, fb = font(size), font(size * 1.15, bold=True)
    low = 0.62 if grid.orientation == "flat" else 0.5
    halo = max(1, round(size * 0.08)) if size >= 12 else 0  # readable over a pattern, as printed labels are
    for i in canvas.drawn:
        cx, cy = canvas.centre_px[i]
        top = cy - s * (SQRT3 / 2 - 0.08 if grid.orientation == "flat" else 0.74)
        draw.text((cx, top), grid.label(*grid.from_index(i)), fill=LABEL_INK, font=f, anchor="mt", stroke_width=halo,
                  stroke_fill=(255, 255, 255))
        level = int(cmap.level[i])
        if level:
            storeys = int(cmap.storeys[i])
            text = f"{level:+d}" + (f" ({storeys})" if storeys > 1 else "")
            draw.text((cx, cy + s * low), text, fill=(70, 45, 20), font=fb, anchor="mm",
                      stroke_width=max(1, round(size * 0.12)), stroke_fill=(255, 255, 255))
        elif int(cmap.storeys[i]) > 1:
            draw.text((cx, cy + s * low), f"{int(cmap.storeys[i])} st", fill=(70, 45, 20), font=f, anchor="mm")


def _hex_index(cmap, ref):
    return cmap.index_of(ref) if not isinstance(ref, (int, np.integer)) else int(ref)


def _draw_line(draw, canvas, line):
    a = canvas.centre_px[_hex_index(canvas.cmap, line["from"])]
    b = canvas.centre_px[_hex_index(canvas.cmap, line["to"])]
    colour = tuple(line.get("colour", (20, 20, 20, 230)))
    width = max(2, round(canvas.s * line.get("width", 0.08)))
    draw.line([tuple(a), tuple(b)], fill=colour, width=width)
    r = width * 1.6
    for x, y in (a, b):
        draw.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=(255, 255, 255, 255))


def _draw_scenario_ground(image, draw, canvas, layer):
    """Setup zones tinted and outlined per side, entry edges and hexes, control hexes: under the counters."""
    cmap, grid, s = canvas.cmap, canvas.grid, canvas.s
    drawn = _is_drawn(canvas)
    width = max(2, round(s * 0.08))
    for side, hexes in layer.setup_zones.items():
        zone = {_hex_index(cmap, h) for h in hexes}
        for i in zone:
            if drawn[i]:
                draw.polygon(canvas.corners(i), fill=layer.colour(side, 70))
        for i in zone:
            if not drawn[i]:
                continue
            col, row = grid.from_index(i)
            for k in range(6):
                n = grid.step(col, row, k)
                if not grid.contains(*n) or grid.index(*n) not in zone:
                    a, b = canvas.edge(i, k)
                    draw.line([a, b], fill=layer.colour(side), width=width)
    for side, edges in layer.entry_edges.items():
        for edge in edges:
            _draw_entry_edge(image, draw, canvas, layer, side, edge)
    for side, hexes in layer.entry_hexes.items():
        for h in hexes:
            i = _hex_index(cmap, h)
            if drawn[i]:
                cx, cy = canvas.centre_px[i]
                r = s * 0.55
                draw.polygon([(cx - r * 0.6, cy - r * 0.5), (cx + r * 0.7, cy), (cx - r * 0.6, cy + r * 0.5)],
                             fill=layer.colour(side, 200), outline=INK)
    for side, hexes in layer.control.items():
        for h in hexes:
            i = _hex_index(cmap, h)
            if drawn[i]:
                cx, cy = canvas.centre_px[i]
                x, y = cx - s * 0.55, cy - s * 0.35
                draw.line([(x, y + s * 0.35), (x, y - s * 0.1)], fill=INK, width=max(1, round(s * 0.03)))
                draw.polygon([(x, y - s * 0.1), (x + s * 0.28, y), (x, y + s * 0.1)], fill=layer.colour(side),
                             outline=INK)


def _draw_entry_edge(image, draw, canvas, layer, side, edge):
    x0, y0 = canvas.margin, canvas.margin
    x1, y1 = x0 + canvas.map_w, y0 + canvas.map_h
    t = max(4, round(canvas.s * 0.22))
    box = {"N": (x0, y0, x1, y0 + t), "S": (x0, y1 - t, x1, y1), "W": (x0, y0, x0 + t, y1),
           "E": (x1 - t, y0, x1, y1)}.get(str(edge).upper())
    if box is None:
        return
    draw.rectangle(box, fill=layer.colour(side, 220))
    f = font(t * 0.8, bold=True)
    text = f"{side} enters"
    length = int(draw.textlength(text, font=f)) + 4
    label = Image.new("RGBA", (length, t), (0, 0, 0, 0))
    ImageDraw.Draw(label).text((length / 2, t / 2), text, fill=(255, 255, 255, 255), font=f, anchor="mm")
    if str(edge).upper() in ("W", "E"):
        label = label.rotate(90, expand=True)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    image.paste(label, (int(cx - label.width / 2), int(cy - label.height / 2)), label)


def _draw_scenario_pieces(draw, canvas, layer):
    """Objectives and units as labelled counters; a stack fans up and to the right."""
    cmap, s = canvas.cmap, canvas.s
    drawn = _is_drawn(canvas)
    for objective in layer.objectives:
        i = _hex_index(cmap, objective["hex"])
        if not drawn[i]:
            continue
        cx, cy = canvas.centre_px[i]
        r = s * 0.62
        colour = layer.colour(objective["side"]) if objective.get("side") else (230, 180, 20, 255)
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=colour, width=max(2, round(s * 0.09)))
        _draw_marker(draw, "star", cx, cy - r, s * 0.18, colour, INK)
        if objective.get("label"):
            draw.text((cx, cy + r), objective["label"], fill=INK, font=font(s * 0.22, bold=True), anchor="mm",
                      stroke_width=max(1, round(s * 0.03)), stroke_fill=(255, 255, 255))
    stacks = {}
    for unit in layer.units:
        stacks.setdefault(_hex_index(cmap, unit["hex"]), []).append(unit)
    side = s * 0.8
    fan = s * 0.22
    for i, units in stacks.items():
        if not drawn[i]:
            continue
        cx, cy = canvas.centre_px[i]
        n = len(units)
        for k, unit in enumerate(units):
            ox = (k - (n - 1) / 2) * fan
            x, y = cx + ox - side / 2, cy - ox - side / 2
            fill = layer.colour(unit.get("side"))
            draw.rectangle([x + 2, y + 2, x + side + 2, y + side + 2], fill=(0, 0, 0, 90))
            draw.rectangle([x, y, x + side, y + side], fill=fill, outline=INK, width=max(1, round(s * 0.025)))
            ink = (0, 0, 0) if sum(fill[:3]) > 420 else (255, 255, 255)
            _counter_text(draw, unit.get("label", ""), x + side / 2, y + side / 2, side * 0.9, ink)


def _counter_text(draw, text, cx, cy, width, ink):
    """The unit's name on its counter, in at most two lines, shrunk to fit."""
    words = str(text).split()
    lines = [str(text)]
    if len(words) > 1:
        half = max(1, len(words) // 2)
        lines = [" ".join(words[:half]), " ".join(words[half:])]
    size = width * 0.3
    while size > 6:
        f = font(size, bold=True)
        if all(draw.textlength(line, font=f) <= width for line in lines):
            break
        size *= 0.85
    f = font(size, bold=True)
    for k, line in enumerate(lines):
        draw.text((cx, cy + (k - (len(lines) - 1) / 2) * size * 1.1), line, fill=ink, font=f, anchor="mm")


# -- legend and scale bar ----------------------------------------------------------------------------------------

def _legend_unit(canvas):
    return max(11.0, canvas.s * 0.22)


def _legend_entries(cmap, canvas, scenario):
    """(name, kind, style) of every terrain the image shows, in catalogue order, then the scenario's sides."""
    used = set(t for terrain in {cmap.terrain[i] for i in canvas.drawn} for t in terrain)
    drawn = _is_drawn(canvas)
    used |= {tid for (col, row, side), tid in cmap.hexsides.items()
             if any(cmap.grid.contains(*h) and drawn[cmap.grid.index(*h)]
                    for h in ((col, row), cmap.grid.step(col, row, side)))}
    entries = []
    for entry in cmap.catalogue.terrain.values():
        if entry["id"] in used:
            entries.append((entry["name"], entry["layer"], style_of(cmap.catalogue, entry["id"])))
    if scenario is not None:
        for side, colour in scenario.side_colours.items():
            entries.append((side, "side", {"fill": colour}))
    return entries


def _legend_layout(cmap, canvas, scenario):
    u = _legend_unit(canvas)
    entries = _legend_entries(cmap, canvas, scenario)
    longest = max((font(u).getlength(name) for name, _, _ in entries), default=0)
    col_w = max(u * 10, longest + u * 3.5)
    cols = max(1, int((canvas.map_w) // col_w))
    rows = math.ceil(len(entries) / cols) if entries else 0
    return u, entries, col_w, cols, rows


def _legend_height(cmap, canvas, scenario):
    u, _, _, _, rows = _legend_layout(cmap, canvas, scenario)
    return int(math.ceil(u * (1.5 + rows * 2.2 + 4.5)))


def _draw_legend(image, draw, canvas, cmap, scenario, top, legend, scale_bar, hex_mm, dpi):
    u, entries, col_w, cols, rows = _legend_layout(cmap, canvas, scenario)
    x0 = canvas.margin
    y = top + u * 0.5
    f = font(u)
    orientation = cmap.grid.orientation
    if legend:
        for k, (name, layer, style) in enumerate(entries):
            x = x0 + (k % cols) * col_w
            yy = y + (k // cols) * u * 2.2
            r = u * 0.9
            cx, cy = x + r, yy + r
            if layer == "hexside":
                draw.polygon(_hex_points(orientation, r, cx, cy), fill=(240, 238, 230), outline=GRID_LINE)
                draw.line([(cx - r, cy + r * 0.6), (cx + r, cy + r * 0.6)], fill=rgb(style.get("stroke"), INK),
                          width=max(2, round((style.get("stroke_width") or 0.06) * SQRT3 * r * 2.5)))
            else:
                draw.polygon(_hex_points(orientation, r, cx, cy), fill=rgb(style.get("fill"), (200, 200, 200)),
                             outline=GRID_LINE)
                if style.get("pattern"):
                    _paste_pattern(image, style["pattern"], rgb(style.get("pattern_colour"), INK), orientation, r,
                                   cx, cy)
            draw.text((x + 2.5 * r, cy), name, fill=INK, font=f, anchor="lm")
    if scale_bar:
        _draw_scale_bar(draw, canvas, cmap, x0, top + u * (1.2 + rows * 2.2), u, hex_mm, dpi)


def _draw_scale_bar(draw, canvas, cmap, x0, y, u, hex_mm, dpi):
    metres = float(cmap.grid.hex_metres or 0) or 50.0
    px_per_metre = canvas.s * SQRT3 / metres
    target = min(canvas.map_w * 0.4, canvas.s * SQRT3 * 6)
    nice = [10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000]
    step = max([n for n in nice if n * 4 * px_per_metre <= target] or [nice[0]])
    h = u * 0.6
    f = font(u * 0.9)
    for k in range(4):
        x = x0 + k * step * px_per_metre
        draw.rectangle([x, y, x + step * px_per_metre, y + h], fill=INK if k % 2 == 0 else (255, 255, 255),
                       outline=INK)
    for k in range(5):
        x = x0 + k * step * px_per_metre
        label = f"{step * k / 1000:g} km" if step * 4 >= 2000 else f"{step * k:g} m"
        draw.text((x, y + h + u * 0.2), "0" if k == 0 else label, fill=INK, font=f, anchor="mt")
    text = f"one hex = {metres:g} m"
    if hex_mm:
        text += f", {hex_mm:g} mm across the flats"
    if dpi:
        text += f", {dpi:g} dpi"
    draw.text((x0 + 4 * step * px_per_metre + u * 2, y + h / 2), text, fill=INK, font=f, anchor="lm")


# -- entry points ------------------------------------------------------------------------------------------------

def print_scale(dpi, hex_mm):
    """Pixels per map unit for hexes ``hex_mm`` across the flats at ``dpi``; ValueError outside the limits."""
    if not 10 <= dpi <= MAX_DPI:
        raise ValueError(f"dpi must be from 10 to {MAX_DPI}, got {dpi}")
    if not HEX_MM_RANGE[0] <= hex_mm <= HEX_MM_RANGE[1]:
        raise ValueError(f"hex size must be from {HEX_MM_RANGE[0]:g} to {HEX_MM_RANGE[1]:g} mm, got {hex_mm}")
    return hex_mm / 25.4 * dpi / SQRT3


def play_area(cmap, area):
    """Hex indices of a play area: hexes (labels or [column, row]) or a label rectangle "A1:F10"."""
    grid = cmap.grid
    if isinstance(area, str):
        if ":" not in area:
            raise ValueError(f"play area {area!r}: expected a rectangle of two hex labels, e.g. A1:F10")
        a, b = (grid.parse_hex(part.strip()) for part in area.split(":", 1))
        cols = range(min(a[0], b[0]), max(a[0], b[0]) + 1)
        rows = range(min(a[1], b[1]), max(a[1], b[1]) + 1)
        return {grid.index(c, r) for c in cols for r in rows}
    indices = {cmap.index_of(h) for h in area}
    if not indices:
        raise ValueError("play area: no hexes")
    return indices


def render_print(cmap, dpi=150, hex_mm=19.0, labels=True, legend=True, scale_bar=True, crop=None, shading=None,
                 lines=(), scenario=None):
    """The map for print: ``dpi`` up to 300, hexes ``hex_mm`` across the flats, a 5 mm white margin."""
    scale = print_scale(dpi, hex_mm)
    area = play_area(cmap, crop) if crop is not None else None
    margin = round(PRINT_MARGIN_MM / 25.4 * dpi)
    canvas_w, canvas_h = printed_size(cmap.grid, dpi, hex_mm, area=area, cmap=cmap)
    if canvas_w * canvas_h * (1.3 if legend or scale_bar else 1) > MAX_PIXELS:
        raise ValueError(f"the image would be {canvas_w} x {canvas_h} pixels; at most {MAX_PIXELS:,} pixels: "
                         "lower the dpi or the hex size, or crop to a play area")
    return draw_map(cmap, scale, margin, labels=labels, legend=legend, scale_bar=scale_bar, crop=area,
                    shading=shading, lines=lines, scenario=scenario, hex_mm=hex_mm, dpi=dpi)


def printed_size(grid, dpi, hex_mm, area=None, cmap=None):
    """(width, height) in pixels of the map printed without legend: the hexes' extent plus the margins."""
    scale = print_scale(dpi, hex_mm)
    margin = round(PRINT_MARGIN_MM / 25.4 * dpi)
    if area is not None:
        canvas = _Canvas(cmap, scale, margin, area)
        return canvas.map_w + 2 * margin, canvas.map_h + 2 * margin
    min_x, min_y, max_x, max_y = grid.extent()
    return (int(math.ceil((max_x - min_x) * scale)) + 2 * margin, int(math.ceil((max_y - min_y) * scale)) + 2 * margin)


def image_space(grid):
    """((width, height), px): the screen image's size in pixels and the map-space-to-pixel function render_map
    draws it with (the map page lays its highlights over the image with the same one)."""
    min_x, min_y, max_x, max_y = grid.extent()
    width = int(math.ceil((max_x - min_x) * SCALE)) + 2 * MARGIN
    height = int(math.ceil((max_y - min_y) * SCALE)) + 2 * MARGIN

    def px(point):
        return (MARGIN + (point[0] - min_x) * SCALE, MARGIN + (point[1] - min_y) * SCALE)
    return (width, height), px


def render_map(cmap, highlight=None, labels=True):
    """The screen image: the map as an RGB image; ``highlight`` maps hex index to an RGBA colour laid over it."""
    return draw_map(cmap, SCALE, MARGIN, labels=labels and cmap.n <= 4000, shading=highlight)


def render_thumbnail(cmap, size=THUMB_PX):
    """A small picture of a compiled map, at most ``size`` pixels on its longer side."""
    grid = cmap.grid
    min_x, min_y, max_x, max_y = grid.extent()
    scale = size / max(max_x - min_x, max_y - min_y)
    if scale >= 2:
        return draw_map(cmap, scale, margin=0, labels=False, patterns=scale >= 7)
    cells = {grid.from_index(i): Cell(terrain=cmap.terrain[i], level=int(cmap.level[i])) for i in range(cmap.n)}
    return mosaic(grid, cmap.catalogue, cells, Cell(terrain=("-",)), size)


def mosaic(grid, catalogue, cells, default, size=THUMB_PX):
    """The map as one pixel per hex (its fill, shaded by level), stretched to the map's proportions.

    ``cells`` maps (column, row) to a Cell for the hexes that differ from ``default``; the colours are worked
    out once per (terrain, level) and laid down by numpy, so the cost is small per hex."""
    colours, codes = {}, {}
    index = np.zeros((grid.columns, grid.rows), dtype=np.int32)
    for (col, row), cell in cells.items():
        if grid.contains(col, row):
            key = (tuple(cell.terrain), int(cell.level))
            index[col, row] = codes.setdefault(key, len(codes) + 1)
    palette = [level_fill(hex_look(catalogue, default.terrain)[0], _steps(catalogue, default.level))]
    for (terrain, level), _ in sorted(codes.items(), key=lambda item: item[1]):
        palette.append(level_fill(hex_look(catalogue, terrain)[0], _steps(catalogue, level)))
    pixels = np.array(palette, dtype=np.uint8)[index.T]
    image = Image.fromarray(pixels)
    min_x, min_y, max_x, max_y = grid.extent()
    aspect = (max_x - min_x) / (max_y - min_y)
    w, h = (size, max(1, round(size / aspect))) if aspect >= 1 else (max(1, round(size * aspect)), size)
    return image.resize((w, h), Image.BOX if image.width > w else Image.NEAREST)


def thumbnail_of(doc, catalogue, size=THUMB_PX):
    """A MapDoc's thumbnail at a bounded cost: drawn hex by hex when small, a mosaic of its cells when large
    (a large map is never compiled for its thumbnail)."""
    if doc.grid.size <= MOSAIC_ABOVE:
        from engine.los.engine import compile_map

        return render_thumbnail(compile_map(doc, catalogue=catalogue), size)
    cells, _ = doc.resolved()
    return mosaic(doc.grid, catalogue, cells, doc.default_cell(), size)


def viewshed_shading(cmap, shed):
    """A viewshed (engine.viewshed) as per-hex shading for draw_map or render_print: {index: RGBA}."""
    shading = {}
    for label, answer in shed["hexes"].items():
        key = "blind" if answer["blind"] else answer["result"]
        shading[cmap.index_of(label)] = RESULT_COLOURS[key]
    return shading


def render_viewshed(cmap, shed):
    """A viewshed drawn over the screen image, the observer's hex outlined."""
    image = render_map(cmap, viewshed_shading(cmap, shed))
    draw = ImageDraw.Draw(image)
    canvas = _Canvas(cmap, SCALE, MARGIN, None)
    corners = canvas.corners(cmap.index_of(shed["from"]))
    draw.line(corners + corners[:1], fill=(0, 0, 0), width=3)
    return image
