"""The map for print in vectors: SVG and PDF at true hex size (docs/exports.md, "Vector print"). No Django.

The same map as the print PNG (engine/render/printing.py), drawn from the same styles, pattern pieces
(patterns.pattern_shapes), legend entries and scale bar (legend.py), but as shapes at true size: a hex is
``hex_mm`` millimetres across the flats whatever the printer, text stays text (DejaVu Sans, as the PNG), and a
pattern is one definition per (pattern, colour) clipped to a hex and placed in each hex that has it (an SVG
``<use>`` of a ``<g>`` in ``<defs>``, a PDF form XObject).

The map is laid out once as a list of shapes in millimetres, y downward (``scene``); ``svg`` writes it with the
standard library's ElementTree, ``pdf`` with reportlab (already the card PDFs' library). Each SVG shape is one
element without a style sheet (the page's CSP does not matter: the file is downloaded, never inlined).
"""

import io
import math
import xml.etree.ElementTree as ET

from engine.mapfile import overlay_cells, overlay_names, overlay_title
from engine.render import legend as legend_band
from engine.render import roads
from engine.render.canvas import Canvas, hex_index, is_drawn
from engine.render.marks import PERIMETER_INK, facing_arrow, marker_spot
from engine.render.patterns import hex_points, lighter, pattern_shapes
from engine.render.printing import HEX_MM_RANGE, PRINT_MARGIN_MM, play_area
from engine.render.shapes import (  # noqa: F401 - the scene and its PDF writer, as callers name them here
    PT_PER_MM,
    Scene,
    _pdf_paint,
    _pdf_path,
    _pdf_shape,
    _rgb,
    pdf_fonts,
    text_width,
)
from engine.render.styles import (
    BLACK,
    CONTOUR,
    GRID_LINE,
    HEXSIDE_COLOUR,
    INK,
    LABEL_TOP,
    LEVEL_GAP,
    LOS_COLOURS,
    PAPER,
    SQRT3,
    hex_look,
    label_inks,
    level_fill,
    level_steps,
    rgb,
    style_of,
)

FONT_FAMILY = "DejaVu Sans, Verdana, sans-serif"
LEVEL_INK = (70, 45, 20)
OVERLAY_INK = (200, 40, 160)
WHITE = (255, 255, 255)


def check_hex_mm(hex_mm):
    if not HEX_MM_RANGE[0] <= hex_mm <= HEX_MM_RANGE[1]:
        raise ValueError(f"hex size must be from {HEX_MM_RANGE[0]:g} to {HEX_MM_RANGE[1]:g} mm, got {hex_mm}")


def scene(cmap, hex_mm=19.0, labels=True, legend=True, scale_bar=True, crop=None, scenario=None):
    """The map as shapes in millimetres: hexes ``hex_mm`` across the flats, a PRINT_MARGIN_MM margin, the
    legend and scale bar under it, and what a ScenarioLayer shows (the card's map), as render_print draws them."""
    check_hex_mm(hex_mm)
    area = play_area(cmap, crop) if crop is not None else None
    canvas = Canvas(cmap, hex_mm / SQRT3, PRINT_MARGIN_MM, area)
    # Canvas rounds the map's size up to whole units (pixels there, millimetres here): the hexes keep their size.
    s, grid, catalogue = canvas.s, cmap.grid, cmap.catalogue
    band = _legend_height(cmap, canvas, scenario) if (legend or scale_bar) else 0.0
    out = Scene(canvas.map_w + 2 * canvas.margin, canvas.map_h + 2 * canvas.margin + band,
                title=getattr(getattr(cmap, "doc", None), "name", "") or "")
    out.poly([(0, 0), (out.width, 0), (out.width, out.height), (0, out.height)], fill=PAPER)
    default_fill = hex_look(catalogue, cmap.doc.default_terrain)[0] if hasattr(cmap, "doc") else None
    ground = default_fill or LOS_COLOURS["clear"]  # what a road hex shows under its road (roads.py)
    looks = {}
    for i in canvas.drawn:
        terrain = cmap.terrain[i]
        if terrain not in looks:
            looks[terrain] = hex_look(catalogue, terrain, ground=ground)
        fill, pats, marker = looks[terrain]
        steps = level_steps(catalogue, cmap.level[i])
        corners = canvas.corners(i)
        cx, cy = canvas.centre_px[i]
        if cmap.art[i] is not None:
            out.poly(corners, fill=level_fill(default_fill or LOS_COLOURS["clear"], steps))
            for poly in getattr(cmap.art[i], "geoms", [cmap.art[i]]):
                out.poly([canvas.px(p) for p in poly.exterior.coords], fill=level_fill(fill, steps),
                         stroke=tuple(int(c * 0.45) for c in fill), width=s * 0.04)
            continue
        out.poly(corners, fill=level_fill(fill, steps))
        for pattern, colour in pats:
            out.use(_pattern(out, grid.orientation, s, pattern, colour), cx, cy)
        if marker is not None:
            _marker(out, marker["marker"], cx + s * 0.45, cy + s * 0.35, s * 0.12,
                    rgb(marker.get("pattern_colour") or marker.get("stroke"), INK), INK)
    out.shapes.append(("grid", [canvas.corners(i) for i in canvas.drawn], GRID_LINE, s * 0.02))
    _contours(out, canvas)
    _roads(out, canvas)
    _hexsides(out, canvas)
    _overlays(out, canvas)
    for i, kinds in cmap.markers.items():
        if is_drawn(canvas)[i]:
            cx, cy = canvas.centre_px[i]
            for k, kind in enumerate(kinds[:4]):
                style = style_of(catalogue, kind)
                _marker(out, style.get("marker") or "circle", cx + (k - (min(len(kinds), 4) - 1) / 2) * s * 0.42,
                        cy, s * 0.18, rgb(style.get("fill"), (200, 200, 200)), rgb(style.get("stroke"), INK))
    if scenario is not None:
        _ground(out, canvas, scenario)
    if labels:
        _labels(out, canvas)
    if scenario is not None:
        _pieces(out, canvas, scenario)
    if band:
        _legend(out, canvas, cmap, scenario, canvas.map_h + 2 * canvas.margin, legend, scale_bar, hex_mm)
    return out


# -- the map's layers --------------------------------------------------------------------------------------

def _pattern(out, orientation, s, pattern, colour):
    """The key of a pattern's definition, made on first use: its pieces around the hex centre, clipped to it."""
    key = f"p-{pattern}-{'{:02x}{:02x}{:02x}'.format(*tuple(colour[:3]))}-{round(s * 100)}"
    if key not in out.patterns:
        w, h = (2 * s, SQRT3 * s) if orientation == "flat" else (SQRT3 * s, 2 * s)
        pieces = [(kind, _shift(geometry, kind, -w / 2, -h / 2), width, tuple(colour) if tone == "ink"
                   else lighter(colour)) for kind, geometry, width, tone in pattern_shapes(pattern, w, h, s, False)]
        out.patterns[key] = (pieces, hex_points(orientation, s, 0, 0, inset=s * 0.03))
    return key


def _shift(geometry, kind, dx, dy):
    if kind == "ellipse":
        x0, y0, x1, y1 = geometry
        return (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
    return [(x + dx, y + dy) for x, y in geometry]


def _marker(out, kind, cx, cy, r, fill, stroke):
    lw = r * 0.18
    if kind == "circle":
        out.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, stroke=stroke, width=lw)
    elif kind == "square":
        out.poly([(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)], fill, stroke, lw)
    elif kind == "triangle":
        out.poly([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill, stroke, lw * 0.5)
    elif kind == "cross":
        out.line([(cx, cy - r), (cx, cy + r)], stroke or fill, lw * 2)
        out.line([(cx - r * 0.6, cy - r * 0.35), (cx + r * 0.6, cy - r * 0.35)], stroke or fill, lw * 2)
    elif kind == "star":
        out.poly([(cx + (r if k % 2 == 0 else r * 0.45) * math.cos(math.radians(-90 + 36 * k)),
                   cy + (r if k % 2 == 0 else r * 0.45) * math.sin(math.radians(-90 + 36 * k))) for k in range(10)],
                 fill, stroke, lw * 0.5)


def _contours(out, canvas):
    cmap, grid = canvas.cmap, canvas.grid
    if not cmap.level.any():
        return
    drawn = is_drawn(canvas)
    for i in canvas.drawn:
        col, row = grid.from_index(i)
        for side in range(3):
            ncol, nrow = grid.step(col, row, side)
            if grid.contains(ncol, nrow) and drawn[grid.index(ncol, nrow)] and \
                    cmap.level[grid.index(ncol, nrow)] != cmap.level[i]:
                out.line(canvas.edge(i, side), CONTOUR, canvas.s * SQRT3 * 0.04)


def _hexsides(out, canvas):
    cmap, grid, s = canvas.cmap, canvas.grid, canvas.s
    drawn = is_drawn(canvas)
    for (col, row, side), tid in sorted(cmap.hexsides.items()):
        if grid.contains(col, row) and drawn[grid.index(col, row)]:
            i, k = grid.index(col, row), side
        else:
            ncol, nrow = grid.step(col, row, side)
            if not (grid.contains(ncol, nrow) and drawn[grid.index(ncol, nrow)]):
                continue
            i, k = grid.index(ncol, nrow), (side + 3) % 6
        style = style_of(cmap.catalogue, tid)
        a, b = canvas.edge(i, k)
        width = (style.get("stroke_width") or 0.06) * SQRT3 * s
        trim = 0.06
        a2 = (a[0] + (b[0] - a[0]) * trim, a[1] + (b[1] - a[1]) * trim)
        b2 = (b[0] + (a[0] - b[0]) * trim, b[1] + (a[1] - b[1]) * trim)
        out.line([a2, b2], rgb(style.get("stroke"), HEXSIDE_COLOUR), width, round_cap=True)
        pc = rgb(style.get("pattern_colour"), INK)
        r = width / 2
        if style.get("pattern") == "trees":
            for t in (0.15, 0.15 + 0.7 / 3, 0.15 + 1.4 / 3, 0.85):
                x, y = a2[0] + (b2[0] - a2[0]) * t, a2[1] + (b2[1] - a2[1]) * t
                out.ellipse((x - r * 0.9, y - r * 0.9, x + r * 0.9, y + r * 0.9), fill=pc)
        elif style.get("pattern") == "hatch":
            cx, cy = canvas.centre_px[i]
            for t in (0.15, 0.325, 0.5, 0.675, 0.85):
                x, y = a2[0] + (b2[0] - a2[0]) * t, a2[1] + (b2[1] - a2[1]) * t
                out.line([(x, y), (x + (cx - x) * 0.16, y + (cy - y) * 0.16)], pc, width / 2)


def _roads(out, canvas):
    """Roads and railroads as lines through the hexes they join, as the PNG draws them (roads.py)."""
    s = canvas.s
    for run in roads.runs_of(canvas):
        if run.kind == "railroad":
            for seg in run.segments:
                out.line(list(seg), roads.RAIL_INK, s * roads.RAIL_WIDTH)
                for tie in roads.ties(seg, s):
                    out.line(list(tie), roads.RAIL_INK, s * roads.RAIL_WIDTH / 2)
            continue
        for width, colour in ((s * (roads.ROAD_WIDTH + 0.07), roads.CASING), (s * roads.ROAD_WIDTH, run.colour)):
            for seg in run.segments:
                out.line(list(seg), colour, width)
            for x, y in run.hubs:
                r = width / 2
                out.ellipse([x - r, y - r, x + r, y + r], fill=colour)


def _overlays(out, canvas):
    cmap, grid = canvas.cmap, canvas.grid
    doc = getattr(cmap, "doc", None)
    if doc is None or not doc.overlays:
        return
    drawn, names = is_drawn(canvas), overlay_names(doc)
    for overlay in doc.overlays:
        inside = {h for h, _ in overlay_cells(grid, overlay, doc.default_cell()) if grid.contains(*h)}
        for col, row in sorted(inside):
            i = grid.index(col, row)
            if drawn[i]:
                for side in range(6):
                    if grid.step(col, row, side) not in inside:
                        out.line(canvas.edge(i, side), OVERLAY_INK, canvas.s * 0.06)
        title = overlay_title(doc, overlay, names)
        if title and grid.contains(*overlay.anchor) and drawn[grid.index(*overlay.anchor)]:
            cx, cy = canvas.centre_px[grid.index(*overlay.anchor)]
            out.text(cx, cy + canvas.s * 0.5, title, canvas.s * 0.3, OVERLAY_INK, bold=True)


def _labels(out, canvas):
    cmap, grid, s = canvas.cmap, canvas.grid, canvas.s
    size, inks = s * 0.27, label_inks(cmap)
    for i in canvas.drawn:
        cx, cy = canvas.centre_px[i]
        top = cy - s * LABEL_TOP[grid.orientation]
        ink = inks(i)[0]  # the white halo round black ink; white ink on a dark fill needs none
        out.text(cx, top, grid.label(*grid.from_index(i)), size, ink, anchor="mt",
                 halo=size * 0.08 if ink == BLACK else 0)
        low = top + size * LEVEL_GAP  # under the hex's label, as the PNG (map.py) writes it
        level, storeys = int(cmap.level[i]), int(cmap.storeys[i])
        if level:
            out.text(cx, low, f"{level:+d}" + (f" ({storeys})" if storeys > 1 else ""), size * 1.15,
                     LEVEL_INK, bold=True, halo=size * 0.12, anchor="mt")
        elif storeys > 1:
            out.text(cx, low, f"{storeys} st", size, LEVEL_INK, anchor="mt")


# -- what a scenario shows (engine/render/scenario.py draws the same for the PNG) ------------------------------

def _ground(out, canvas, layer):
    """Perimeter, setup zones, entry edges and hexes, control flags: under the labels and counters."""
    cmap, s = canvas.cmap, canvas.s
    if layer.perimeter:
        owner = {hex_index(cmap, h): side for side, hexes in layer.perimeter.items() for h in hexes}
        # The perimeter runs between two sides' hexes, not along the map's edge.
        _region(out, canvas, owner, lambda side: layer.colour(side, 60), PERIMETER_INK, s * 0.12,
                lambda side, n: n is not None and owner.get(n) != side)
    for side, hexes in layer.setup_zones.items():
        zone = dict.fromkeys((hex_index(cmap, h) for h in hexes), side)
        _region(out, canvas, zone, lambda side: layer.colour(side, 70), layer.colour(side), s * 0.08,
                lambda side, n, zone=zone: n is None or n not in zone)
    for side, edges in layer.entry_edges.items():
        for edge in edges:
            _entry_edge(out, canvas, layer.colour(side, 220), side, str(edge).upper())
    for side, hexes in layer.entry_hexes.items():
        for cx, cy in _centres(canvas, hexes):
            r = s * 0.55
            out.poly([(cx - r * 0.6, cy - r * 0.5), (cx + r * 0.7, cy), (cx - r * 0.6, cy + r * 0.5)],
                     fill=layer.colour(side, 200), stroke=INK, width=s * 0.02)
    for side, hexes in layer.control.items():
        for cx, cy in _centres(canvas, hexes):
            x, y = cx - s * 0.55, cy - s * 0.35
            out.line([(x, y + s * 0.35), (x, y - s * 0.1)], INK, s * 0.03)
            out.poly([(x, y - s * 0.1), (x + s * 0.28, y), (x, y + s * 0.1)], fill=layer.colour(side),
                     stroke=INK, width=s * 0.02)


def _region(out, canvas, sides, fill, ink, width, edged):
    """Hexes filled by their side (``sides``: hex index -> side), then outlined on each hexside that
    ``edged(side, neighbour index or None off the map)`` says: all fills first, so no fill covers an outline."""
    grid, drawn = canvas.grid, is_drawn(canvas)
    for i, side in sorted(sides.items()):
        if drawn[i]:
            out.poly(canvas.corners(i), fill=fill(side))
    for i, side in sorted(sides.items()):
        if drawn[i]:
            col, row = grid.from_index(i)
            for k in range(6):
                n = grid.step(col, row, k)
                if edged(side, grid.index(*n) if grid.contains(*n) else None):
                    out.line(canvas.edge(i, k), ink, width)


def _entry_edge(out, canvas, colour, side, edge):
    s, x0, y0 = canvas.s, canvas.margin, canvas.margin
    x1, y1 = x0 + canvas.map_w, y0 + canvas.map_h
    t = s * 0.22
    box = {"N": (x0, y0, x1, y0 + t), "S": (x0, y1 - t, x1, y1), "W": (x0, y0, x0 + t, y1),
           "E": (x1 - t, y0, x1, y1)}.get(edge)
    if box is not None:
        out.poly([(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])], fill=colour)
        out.text((box[0] + box[2]) / 2, (box[1] + box[3]) / 2, f"{side} enters", t * 0.8, WHITE, bold=True,
                 rotate=-90 if edge in ("W", "E") else 0)


def _centres(canvas, hexes):
    """The centres of those of ``hexes`` that are drawn."""
    drawn = is_drawn(canvas)
    for h in hexes:
        i = hex_index(canvas.cmap, h)
        if drawn[i]:
            yield canvas.centre_px[i]


def _pieces(out, canvas, layer):
    """Objectives ringed with a star and their name, units as counters with their names (a stack fanned)."""
    cmap, s = canvas.cmap, canvas.s
    drawn = is_drawn(canvas)
    for objective in layer.objectives:
        i = hex_index(cmap, objective["hex"])
        if not drawn[i]:
            continue
        cx, cy = canvas.centre_px[i]
        r = s * 0.62
        colour = layer.colour(objective["side"]) if objective.get("side") else (230, 180, 20, 255)
        out.ellipse((cx - r, cy - r, cx + r, cy + r), stroke=colour, width=s * 0.09)
        _marker(out, "star", cx, cy - r, s * 0.18, colour, INK)
        if objective.get("label"):
            out.text(cx, cy + r, objective["label"], s * 0.22, INK, bold=True, halo=s * 0.03)
    for marker in layer.markers:  # as the PNG draws them (render/scenario.py)
        i = hex_index(cmap, marker["hex"])
        if drawn[i]:
            style = style_of(cmap.catalogue, marker["kind"])
            x, y = marker_spot(canvas, canvas.centre_px[i], marker)
            _marker(out, style.get("marker") or "square", x, y, s * 0.2,
                    rgb(style.get("fill") or style.get("stroke"), (200, 200, 200)), INK)
            if marker.get("facing") is not None:
                out.poly(facing_arrow(*canvas.centre_px[i], marker["facing"], s * 0.72, s * 0.98), fill=INK)
    stacks = {}
    for unit in layer.units:
        stacks.setdefault(hex_index(cmap, unit["hex"]), []).append(unit)
    side, fan = s * 0.8, s * 0.22
    for i, units in stacks.items():
        if not drawn[i]:
            continue
        cx, cy = canvas.centre_px[i]
        for k, unit in enumerate(units):
            ox = (k - (len(units) - 1) / 2) * fan
            x, y = cx + ox - side / 2, cy - ox - side / 2
            fill = layer.colour(unit.get("side"))
            shadow = s * 0.03
            out.poly([(x + shadow, y + shadow), (x + side + shadow, y + shadow), (x + side + shadow, y + side + shadow),
                      (x + shadow, y + side + shadow)], fill=(0, 0, 0, 90))
            out.poly([(x, y), (x + side, y), (x + side, y + side), (x, y + side)], fill=fill, stroke=INK,
                     width=s * 0.025)
            ink = (0, 0, 0) if sum(fill[:3]) > 420 else WHITE
            _counter_text(out, unit.get("label", ""), x + side / 2, y + side / 2, side * 0.9, ink)
            if unit.get("facing") is not None:
                out.poly(facing_arrow(x + side / 2, y + side / 2, unit["facing"], side * 0.5, s * 0.95), fill=INK,
                         stroke=WHITE, width=s * 0.01)


def _counter_text(out, text, cx, cy, width, ink):
    """The unit's name on its counter, in at most two lines, shrunk to fit (as the PNG's counters)."""
    words = str(text).split()
    lines = [str(text)]
    if len(words) > 1:
        half = max(1, len(words) // 2)
        lines = [" ".join(words[:half]), " ".join(words[half:])]
    size = width * 0.3
    while size > width * 0.05 and not all(text_width(line, size, bold=True) <= width for line in lines):
        size *= 0.85
    for k, line in enumerate(lines):
        out.text(cx, cy + (k - (len(lines) - 1) / 2) * size * 1.1, line, size, ink, bold=True)


def _legend_unit(canvas):
    return max(2.0, canvas.s * 0.22)


def _legend_layout(cmap, canvas, scenario):
    u = _legend_unit(canvas)
    entries = legend_band.legend_entries(cmap, canvas, scenario)
    longest = max((text_width(name, u) for name, _, _ in entries), default=0)
    col_w = max(u * 10, longest + u * 3.5)
    cols = max(1, int(canvas.map_w // col_w))
    return u, entries, col_w, cols, math.ceil(len(entries) / cols) if entries else 0


def _legend_height(cmap, canvas, scenario):
    u, _, _, _, rows = _legend_layout(cmap, canvas, scenario)
    return u * (1.5 + rows * 2.2 + 4.5)


def _legend(out, canvas, cmap, scenario, top, legend, scale_bar, hex_mm):
    u, entries, col_w, cols, rows = _legend_layout(cmap, canvas, scenario)
    x0, orientation = canvas.margin, cmap.grid.orientation
    if legend:
        for k, (name, layer, style) in enumerate(entries):
            x = x0 + (k % cols) * col_w
            r = u * 0.9
            cx, cy = x + r, top + u * 0.5 + (k // cols) * u * 2.2 + r
            points = hex_points(orientation, r, cx, cy)
            if layer == "hexside":
                out.poly(points, fill=(240, 238, 230), stroke=GRID_LINE, width=u * 0.05)
                out.line([(cx - r, cy + r * 0.6), (cx + r, cy + r * 0.6)], rgb(style.get("stroke"), INK),
                         (style.get("stroke_width") or 0.06) * SQRT3 * r * 2.5)
            elif layer in ("road", "railroad"):  # a line, as the map draws it (roads.py)
                out.poly(points, fill=(240, 238, 230), stroke=GRID_LINE, width=u * 0.05)
                ends = [(cx - r, cy), (cx + r, cy)]
                if layer == "railroad":
                    out.line(ends, roads.RAIL_INK, r * 2 * roads.RAIL_WIDTH)
                    for tie in roads.ties(tuple(ends), r):
                        out.line(list(tie), roads.RAIL_INK, r * roads.RAIL_WIDTH)
                else:
                    out.line(ends, roads.CASING, r * (roads.ROAD_WIDTH * 1.5 + 0.16))
                    out.line(ends, rgb(style.get("fill"), (220, 200, 160)), r * roads.ROAD_WIDTH * 1.5)
            else:
                out.poly(points, fill=rgb(style.get("fill"), (200, 200, 200)), stroke=GRID_LINE, width=u * 0.05)
                if style.get("pattern"):
                    out.use(_pattern(out, orientation, r, style["pattern"], rgb(style.get("pattern_colour"), INK)),
                            cx, cy)
            out.text(x + 2.5 * r, cy, name, u, INK, anchor="lm")
    if scale_bar:
        metres, per_metre, step = legend_band.scale_bar(canvas, cmap)
        y, h = top + u * (1.2 + rows * 2.2), u * 0.6
        for k in range(4):
            x = x0 + k * step * per_metre
            out.poly([(x, y), (x + step * per_metre, y), (x + step * per_metre, y + h), (x, y + h)],
                     fill=INK if k % 2 == 0 else WHITE, stroke=INK, width=u * 0.05)
        for k in range(5):
            out.text(x0 + k * step * per_metre, y + h + u * 0.2, legend_band.scale_text(metres, step, k, hex_mm, None),
                     u * 0.9, INK, anchor="mt")
        out.text(x0 + 4 * step * per_metre + u * 2, y + h / 2,
                 legend_band.scale_text(metres, step, None, hex_mm, None), u * 0.9, INK, anchor="lm")


# -- SVG -------------------------------------------------------------------------------------------------

def svg(cmap, hex_mm=19.0, **options):
    """The map as an SVG file (bytes), its width and height in millimetres, one user unit a millimetre."""
    return write_svg(scene(cmap, hex_mm, **options))


def _c(colour):
    return "#{:02x}{:02x}{:02x}".format(*tuple(colour[:3]))


def _num(value):
    return f"{value:.3f}".rstrip("0").rstrip(".") or "0"


def _pts(points):
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _paint(attributes, fill, stroke, width):
    attributes["fill"] = _c(fill) if fill is not None else "none"
    if fill is not None and len(fill) > 3 and fill[3] < 255:
        attributes["fill-opacity"] = _num(fill[3] / 255)
    if stroke is not None and width > 0:
        attributes["stroke"], attributes["stroke-width"] = _c(stroke), _num(width)
        if len(stroke) > 3 and stroke[3] < 255:
            attributes["stroke-opacity"] = _num(stroke[3] / 255)
    return attributes


BASELINE = {"m": "central", "t": "hanging"}
XLINK = "http://www.w3.org/1999/xlink"
ET.register_namespace("xlink", XLINK)
ANCHOR = {"m": "middle", "l": "start", "r": "end"}


def _svg_shape(parent, shape):
    kind = shape[0]
    if kind == "poly":
        _, points, fill, stroke, width, closed = shape
        ET.SubElement(parent, "polygon" if closed else "polyline",
                      _paint({"points": _pts(points)}, fill, stroke, width))
    elif kind == "line":
        _, points, stroke, width, round_cap = shape
        attributes = _paint({"points": _pts(points)}, None, stroke, width)
        if round_cap:
            attributes["stroke-linecap"] = "round"
        ET.SubElement(parent, "polyline", attributes)
    elif kind == "ellipse":
        _, (x0, y0, x1, y1), fill, stroke, width = shape
        ET.SubElement(parent, "ellipse", _paint({"cx": _num((x0 + x1) / 2), "cy": _num((y0 + y1) / 2),
                                                 "rx": _num((x1 - x0) / 2), "ry": _num((y1 - y0) / 2)},
                                                fill, stroke, width))
    elif kind == "text":
        _, x, y, text, size, fill, anchor, bold, halo, rotate = shape
        attributes = {"x": _num(x), "y": _num(y), "font-size": _num(size), "fill": _c(fill),
                      "text-anchor": ANCHOR[anchor[0]], "dominant-baseline": BASELINE[anchor[1]]}
        if rotate:
            attributes["transform"] = f"rotate({_num(rotate)} {_num(x)} {_num(y)})"
        if bold:
            attributes["font-weight"] = "bold"
        if halo:
            attributes.update({"stroke": "#ffffff", "stroke-width": _num(2 * halo), "paint-order": "stroke",
                               "stroke-linejoin": "round"})
        ET.SubElement(parent, "text", attributes).text = text
    elif kind == "use":
        _, key, x, y = shape
        ET.SubElement(parent, "use", {f"{{{XLINK}}}href": f"#{key}", "x": _num(x), "y": _num(y)})
    elif kind == "grid":
        _, hexes, stroke, width = shape
        d = "".join("M" + "L".join(f"{_num(x)} {_num(y)}" for x, y in corners) + "Z" for corners in hexes)
        ET.SubElement(parent, "path", {"d": d, "fill": "none", "stroke": _c(stroke), "stroke-opacity": "0.78",
                                       "stroke-width": _num(width), "stroke-linejoin": "round"})


def write_svg(scene):
    root = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "version": "1.1",
                              "width": f"{_num(scene.width)}mm", "height": f"{_num(scene.height)}mm",
                              "viewBox": f"0 0 {_num(scene.width)} {_num(scene.height)}",
                              "font-family": FONT_FAMILY})
    if scene.title:
        ET.SubElement(root, "title").text = scene.title
    if scene.patterns:
        defs = ET.SubElement(root, "defs")
        for key, (pieces, clip) in scene.patterns.items():
            path = ET.SubElement(defs, "clipPath", {"id": f"{key}-clip"})
            ET.SubElement(path, "polygon", {"points": _pts(clip)})
            group = ET.SubElement(defs, "g", {"id": key, "clip-path": f"url(#{key}-clip)"})
            for kind, geometry, width, colour in pieces:
                if kind == "line":
                    _svg_shape(group, ("line", geometry, colour, width, False))
                elif kind == "ellipse":
                    _svg_shape(group, ("ellipse", geometry, colour, None, 0.0))
                else:
                    _svg_shape(group, ("poly", geometry, colour, None, 0.0, True))
    for shape in scene.shapes:
        _svg_shape(root, shape)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8") + b"\n"


# -- PDF -------------------------------------------------------------------------------------------------

def pdf(cmap, hex_mm=19.0, **options):
    """The map as a one-page vector PDF (bytes), the page the map's size, a millimetre 72/25.4 points."""
    return write_pdf(scene(cmap, hex_mm, **options))


def write_pdf(scene):
    from reportlab.pdfgen.canvas import Canvas as PdfCanvas  # noqa: PLC0415 - reportlab, only when a PDF is written

    regular, bold = pdf_fonts()
    out = io.BytesIO()
    page = PdfCanvas(out, pagesize=(scene.width * PT_PER_MM, scene.height * PT_PER_MM), pageCompression=1)
    page.setTitle(scene.title or "map")
    page.setCreator("Hexside")
    # Millimetres, y downward, as the scene is laid out; text is turned upright where it is drawn.
    page.translate(0, scene.height * PT_PER_MM)
    page.scale(PT_PER_MM, -PT_PER_MM)
    for key, (pieces, clip) in scene.patterns.items():
        reach = max(max(abs(x), abs(y)) for x, y in clip) * 1.1
        page.beginForm(key, lowerx=-reach, lowery=-reach, upperx=reach, uppery=reach)
        path = page.beginPath()
        _pdf_path(path, clip, True)
        page.clipPath(path, stroke=0, fill=0)
        for kind, geometry, width, colour in pieces:
            if kind == "line":
                _pdf_shape(page, ("line", geometry, colour, width, False), regular, bold)
            elif kind == "ellipse":
                _pdf_shape(page, ("ellipse", geometry, colour, None, 0.0), regular, bold)
            else:
                _pdf_shape(page, ("poly", geometry, colour, None, 0.0, True), regular, bold)
        page.endForm()
    for shape in scene.shapes:
        _pdf_shape(page, shape, regular, bold)
    page.showPage()
    page.save()
    return out.getvalue()


