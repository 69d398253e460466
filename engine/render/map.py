"""Drawing a map: hexes with their fills and patterns, grid, contours, hexsides, overlays, markers, labels, lines,
and what a scenario and a legend put over and under it. Drawing is by whole shapes, never pixel by pixel."""

import numpy as np
from PIL import Image, ImageDraw

from engine.mapfile import overlay_cells, overlay_names, overlay_title
from engine.render import legend as legend_band
from engine.render import roads
from engine.render import scenario as scenario_layer
from engine.render.canvas import MARGIN, Canvas, hex_index, is_drawn
from engine.render.patterns import draw_marker, paste_pattern
from engine.render.styles import (
    CONTOUR,
    GRID_LINE,
    HEXSIDE_COLOUR,
    INK,
    LABEL_TOP,
    LEVEL_GAP,
    LOS_COLOURS,
    PAPER,
    SQRT3,
    font,
    hex_look,
    label_inks,
    level_fill,
    level_steps,
    rgb,
    style_of,
)


def _outline(draw, points, colour, width):
    """A closed outline. (ImageDraw's polygon outline wider than 1 px masks the whole image: slow on big ones.)"""
    points = list(points)
    draw.line(points + points[:1], fill=colour, width=width, joint="curve" if width > 2 else None)


def draw_map(cmap, scale, margin=MARGIN, labels=True, legend=False, scale_bar=False, crop=None, shading=None,
             lines=(), scenario=None, patterns=None, hex_mm=None, dpi=None, min_text_mm=None):
    """The map as an RGB image at ``scale`` pixels per map unit, with what is asked drawn over it.

    crop: hex indices (the play area) to draw; shading: {index or label: (r, g, b, a)} laid over hexes;
    lines: [{"from", "to", "colour", "width"}] drawn between hex centres (LOS, sight lines); scenario: a
    ScenarioLayer; legend and scale_bar: a band under the map naming each terrain shown and the scale;
    min_text_mm (with dpi): the smallest text a print may carry: labels are enlarged to it where they fit their
    hex, and left out where they do not (a small map's labels, legible or absent).
    """
    canvas = Canvas(cmap, scale, margin, crop)
    if min_text_mm and dpi:
        canvas.min_text = min_text_mm / 25.4 * dpi
    s = canvas.s
    patterns = s >= 7 if patterns is None else patterns
    band = legend_band.legend_height(cmap, canvas, scenario) if (legend or scale_bar) else 0
    width, height = canvas.map_w + 2 * margin, canvas.map_h + 2 * margin + band
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image, "RGBA")
    catalogue, grid, drawn = cmap.catalogue, cmap.grid, canvas.drawn
    default_fill = hex_look(catalogue, cmap.doc.default_terrain)[0] if hasattr(cmap, "doc") else None
    ground = default_fill or LOS_COLOURS["clear"]  # what a road hex shows under its road

    looks = {}
    for i in drawn:
        terrain = cmap.terrain[i]
        if terrain not in looks:
            looks[terrain] = hex_look(catalogue, terrain, ground=ground)
        fill, pats, marker = looks[terrain]
        steps = level_steps(catalogue, cmap.level[i])
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
                paste_pattern(image, pattern, colour, grid.orientation, s, cx, cy)
        if marker is not None and s >= 10:
            cx, cy = canvas.centre_px[i]
            draw_marker(draw, marker["marker"], cx + s * 0.45, cy + s * 0.35, s * 0.12,
                         rgb(marker.get("pattern_colour") or marker.get("stroke"), INK), INK)

    if s >= 4:
        lw = max(1, round(s * 0.02))
        for i in drawn:
            _outline(draw, canvas.corners(i), GRID_LINE + (200,), lw)
    _draw_contours(draw, canvas)
    _draw_roads(draw, canvas)
    _draw_hexsides(draw, canvas)
    _draw_overlays(draw, canvas)
    if shading:
        for key, colour in shading.items():
            i = cmap.index_of(key) if isinstance(key, (str, list, tuple)) else int(key)
            if is_drawn(canvas)[i]:
                draw.polygon(canvas.corners(i), fill=tuple(colour))
    _draw_markers(draw, canvas)
    if scenario is not None:
        scenario_layer.draw_ground(image, draw, canvas, scenario)
    if labels:
        _draw_labels(draw, canvas)
    for line in lines:
        _draw_line(draw, canvas, line)
    if scenario is not None:
        scenario_layer.draw_pieces(draw, canvas, scenario)
    if band:
        legend_band.draw_legend(image, draw, canvas, cmap, scenario, top=canvas.map_h + 2 * margin, legend=legend,
                     scale_bar=scale_bar, hex_mm=hex_mm, dpi=dpi)
    return image


def _draw_contours(draw, canvas):
    """A line along every hexside between hexes of different levels: the hill's edge, as printed maps show it."""
    cmap, grid, s = canvas.cmap, canvas.grid, canvas.s
    if not cmap.level.any():
        return
    drawn = is_drawn(canvas)
    width = max(1, round(s * SQRT3 * 0.04))
    for i in canvas.drawn:
        col, row = grid.from_index(i)
        for side in range(3):
            ncol, nrow = grid.step(col, row, side)
            if grid.contains(ncol, nrow):
                j = grid.index(ncol, nrow)
                if drawn[j] and cmap.level[j] != cmap.level[i]:
                    draw.line(canvas.edge(i, side), fill=CONTOUR, width=width)


def _draw_roads(draw, canvas):
    """Roads and railroads as lines through the hexes they join (roads.py): casings first, then the cores, so
    that crossings and bends read as one road."""
    s = canvas.s
    for run in roads.runs_of(canvas):
        if run.kind == "railroad":
            width = max(1, round(s * roads.RAIL_WIDTH))
            for seg in run.segments:
                draw.line(seg, fill=roads.RAIL_INK, width=width)
                for tie in roads.ties(seg, s):
                    draw.line(tie, fill=roads.RAIL_INK, width=max(1, width // 2))
            for x, y in run.hubs:
                r = width * 0.9
                draw.ellipse([x - r, y - r, x + r, y + r], fill=roads.RAIL_INK)
            continue
        core = max(2, round(s * roads.ROAD_WIDTH))
        edge = core + 2 * max(1, round(s * 0.035))
        for width, colour in ((edge, roads.CASING), (core, run.colour)):
            for seg in run.segments:
                draw.line(seg, fill=colour, width=width)
            for x, y in run.hubs:
                r = width / 2
                draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)


def _draw_hexsides(draw, canvas):
    cmap, grid, s = canvas.cmap, canvas.grid, canvas.s
    drawn = is_drawn(canvas)
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
    """Each overlay's hexes outlined, its name (or printed ID) written on its anchor; never its internal id."""
    cmap, grid = canvas.cmap, canvas.grid
    doc = getattr(cmap, "doc", None)
    if doc is None or not doc.overlays:
        return
    drawn = is_drawn(canvas)
    width, names = max(1, round(canvas.s * 0.06)), overlay_names(doc)
    for overlay in doc.overlays:
        inside = {h for h, _ in overlay_cells(grid, overlay, doc.default_cell()) if grid.contains(*h)}
        for col, row in inside:
            i = grid.index(col, row)
            if not drawn[i]:
                continue
            for side in range(6):
                if grid.step(col, row, side) not in inside:
                    draw.line(canvas.edge(i, side), fill=(200, 40, 160), width=width)
        title = overlay_title(doc, overlay, names)
        if title and grid.contains(*overlay.anchor) and drawn[grid.index(*overlay.anchor)]:
            cx, cy = canvas.centre_px[grid.index(*overlay.anchor)]
            f = font(canvas.s * 0.3, bold=True)
            draw.text((cx, cy + canvas.s * 0.5), title, fill=(200, 40, 160), font=f, anchor="mm",
                      stroke_width=max(1, round(canvas.s * 0.03)), stroke_fill=(255, 255, 255))


def _draw_markers(draw, canvas):
    """Markers laid on the map for an LOS check or by a scenario (smoke, wrecks...), in their catalogue style,
    a row of symbols across the hex's middle."""
    cmap, s = canvas.cmap, canvas.s
    drawn = is_drawn(canvas)
    for i, kinds in cmap.markers.items():
        if not drawn[i]:
            continue
        cx, cy = canvas.centre_px[i]
        for k, kind in enumerate(kinds[:4]):
            style = style_of(cmap.catalogue, kind)
            x = cx + (k - (min(len(kinds), 4) - 1) / 2) * s * 0.42
            draw_marker(draw, style.get("marker") or "circle", x, cy, s * 0.18, rgb(style.get("fill"), (200, 200, 200)),
                         rgb(style.get("stroke"), INK))


def label_sizes(canvas):
    """(hex label size or 0, level size or 0) in pixels: 0.27 of a hex radius, raised to the canvas's smallest
    legible text; a label that would then be wider than its hex is left out (0), as is text under 6 px."""
    grid, s = canvas.grid, canvas.s
    size = max(s * 0.27, canvas.min_text)
    if size < 6:
        return 0.0, 0.0
    level = max(s * 0.27 * 1.15, canvas.min_text)
    if size > s * 0.5:  # the text would fill the hex: nothing legible fits
        return 0.0, 0.0
    if canvas.min_text and size > s * 0.27:
        widest = max((grid.label(*grid.from_index(int(i))) for i in canvas.drawn), key=len, default="")
        if font(size).getlength(widest) > s * 1.1:
            return 0.0, level
    return size, level


def _draw_labels(draw, canvas):
    cmap, grid, s = canvas.cmap, canvas.grid, canvas.s
    size, level_size = label_sizes(canvas)
    if not level_size:
        return
    labelled = size > 0
    size = size or level_size / 1.15
    f, fb = font(size), font(level_size, bold=True)
    halo = max(1, round(size * 0.08)) if size >= 12 else 0  # readable over a pattern, as printed labels are
    inks = label_inks(cmap)
    for i in canvas.drawn:
        cx, cy = canvas.centre_px[i]
        top = cy - s * LABEL_TOP[grid.orientation]
        if labelled:
            ink, halo_ink = inks(i)
            draw.text((cx, top), grid.label(*grid.from_index(i)), fill=ink, font=f, anchor="mt",
                      stroke_width=halo, stroke_fill=halo_ink)
        # The level sits just under the hex's own label, well inside the hex: near its bottom edge it read as
        # part of the next hex's label.
        low = top + size * LEVEL_GAP
        level = int(cmap.level[i])
        if level:
            storeys = int(cmap.storeys[i])
            text = f"{level:+d}" + (f" ({storeys})" if storeys > 1 else "")
            draw.text((cx, low), text, fill=(70, 45, 20), font=fb, anchor="mt",
                      stroke_width=max(1, round(size * 0.12)), stroke_fill=(255, 255, 255))
        elif int(cmap.storeys[i]) > 1:
            draw.text((cx, low), f"{int(cmap.storeys[i])} st", fill=(70, 45, 20), font=f, anchor="mt")


def _draw_line(draw, canvas, line):
    a = canvas.centre_px[hex_index(canvas.cmap, line["from"])]
    b = canvas.centre_px[hex_index(canvas.cmap, line["to"])]
    colour = tuple(line.get("colour", (20, 20, 20, 230)))
    width = max(2, round(canvas.s * line.get("width", 0.08)))
    draw.line([tuple(a), tuple(b)], fill=colour, width=width)
    r = width * 1.6
    for x, y in (a, b):
        draw.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=(255, 255, 255, 255))

