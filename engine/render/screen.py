"""The screen image, thumbnails and viewsheds: the map at a fixed scale for the map page, small pictures for lists.
"""

import math

import numpy as np
from PIL import Image, ImageDraw

from engine.los.engine import compile_map
from engine.mapfile import Cell
from engine.render.canvas import MARGIN, Canvas
from engine.render.map import draw_map
from engine.render.styles import INK, PAPER, RESULT_COLOURS, font, hex_look, level_fill, level_steps

SCALE = 24  # the screen image: pixels per map unit
THUMB_PX = 320  # the longer side of a thumbnail
MOSAIC_ABOVE = 6000  # hexes: a thumbnail of a larger map is one pixel per hex, scaled (bounded cost)
PAGE_PX = 3000  # the longer side of the map page's picture (/maps/<id>/map.png), at most
PAGE_MIN_SCALE = 4  # pixels per map unit: a map whose page picture would have smaller hexes is drawn as a mosaic
PAGE_DRAW_HEXES = 60_000  # and so is a map of more hexes than this (drawing them hex by hex takes seconds)


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


def page_scale(grid):
    """Pixels per map unit of the map page's picture: the screen's SCALE, less for a map that would be more
    than PAGE_PX pixels on its longer side (the hexes drawn smaller to fit)."""
    min_x, min_y, max_x, max_y = grid.extent()
    return min(float(SCALE), (PAGE_PX - 2 * MARGIN) / max(max_x - min_x, max_y - min_y))


def render_page(doc, catalogue, compiled):
    """The map page's picture, at most PAGE_PX pixels on its longer side whatever the map: drawn hex by hex at
    page_scale, or, for a map whose hexes would be drawn under PAGE_MIN_SCALE, a mosaic of its cells (one pixel
    per hex, scaled up; the map is never compiled), as is a map of more than PAGE_DRAW_HEXES hexes. ``compiled()``
    gives the compiled map when it is needed."""
    scale = page_scale(doc.grid)
    if scale < PAGE_MIN_SCALE or doc.grid.size > PAGE_DRAW_HEXES:
        cells, _ = doc.resolved()
        return mosaic(doc.grid, catalogue, cells, doc.default_cell(), PAGE_PX)
    cmap = compiled()
    return draw_map(cmap, scale, MARGIN, labels=cmap.n <= 4000 and scale >= SCALE / 2)


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
    codes = {}
    index = np.zeros((grid.columns, grid.rows), dtype=np.int32)
    for (col, row), cell in cells.items():
        if grid.contains(col, row):
            key = (tuple(cell.terrain), int(cell.level))
            index[col, row] = codes.setdefault(key, len(codes) + 1)
    palette = [level_fill(hex_look(catalogue, default.terrain)[0], level_steps(catalogue, default.level))]
    for (terrain, level), _ in sorted(codes.items(), key=lambda item: item[1]):
        palette.append(level_fill(hex_look(catalogue, terrain)[0], level_steps(catalogue, level)))
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


RESULT_WORDS = {"clear": "clear", "hindered": "hindered", "blocked": "blocked", "blind": "blind hex"}


def render_viewshed(cmap, shed):
    """A viewshed drawn over the screen image, the observer's hex outlined, with a colour legend under the map
    (each answer's swatch as it is laid over the map's ground, and its word)."""
    image = render_map(cmap, viewshed_shading(cmap, shed))
    draw = ImageDraw.Draw(image)
    canvas = Canvas(cmap, SCALE, MARGIN, None)
    corners = canvas.corners(cmap.index_of(shed["from"]))
    draw.line(corners + corners[:1], fill=(0, 0, 0), width=3)
    return with_results_legend(image, f"Viewshed from {shed['from']}")


def with_results_legend(image, title):
    """The image with a band under it naming each LOS answer's colour (a heat map is read by its legend), the
    entries wrapped to the image's width."""
    f, measure = font(13), ImageDraw.Draw(image)
    items = [(title + ":", None)] + [(word, RESULT_COLOURS[key]) for key, word in RESULT_WORDS.items()]
    rows, x = [[]], MARGIN
    for text, colour in items:
        width = measure.textlength(text, font=f) + (32 if colour else 0) + 16
        if rows[-1] and x + width > image.width - MARGIN:
            rows.append([])
            x = MARGIN
        rows[-1].append((x, text, colour))
        x += width
    out = Image.new("RGB", (image.width, image.height + 24 * len(rows) + 8), PAPER)
    out.paste(image, (0, 0))
    draw = ImageDraw.Draw(out, "RGBA")
    for k, row in enumerate(rows):
        y = image.height + 6 + 24 * k
        for x, text, colour in row:
            if colour:
                draw.rectangle([x, y, x + 26, y + 18], fill=colour, outline=INK)
                x += 32
            draw.text((x, y + 9), text, fill=INK, font=f, anchor="lm")
    return out
