"""The map for print: sizes in dpi and millimetres across the flats, play areas, and the limits on both."""

import math

from engine.render.canvas import Canvas
from engine.render.map import draw_map

MAX_DPI = 300
HEX_MM_RANGE = (4.0, 60.0)
# The largest print: an A0 sheet (841 x 1189 mm) at 300 dpi, 9,933 x 14,043 pixels. The map's pixels (its hexes
# and margins at the dpi) are bounded by it, so a print's time, memory and file are too (about 13 s, 0.6 GB and
# 11 MB at the limit: bench/bench_export_bounds.py); the legend band under the map adds a few per cent.
MAX_PIXELS = 140_000_000
PRINT_MARGIN_MM = 5.0
SQRT3 = math.sqrt(3)


class PrintTooLarge(ValueError):
    """A print past MAX_PIXELS; the message names its size and the limit."""


def too_large(width, height):
    """Why a print of ``width`` x ``height`` pixels is refused, or None when it is within MAX_PIXELS."""
    if width * height <= MAX_PIXELS:
        return None
    return (f"the print would be {width:,} x {height:,} pixels ({width * height:,}); at most {MAX_PIXELS:,} "
            "pixels (an A0 sheet at 300 dpi): lower the dpi or the hex size, or crop to a play area")


def check_print(grid, dpi, hex_mm, area=None, cmap=None):
    """Raise PrintTooLarge (or ValueError for a dpi or hex size out of range) unless the print fits; a request
    checks this before its job is queued (a grid is enough), and render_print again before it draws."""
    problem = too_large(*printed_size(grid, dpi, hex_mm, area=area, cmap=cmap))
    if problem:
        raise PrintTooLarge(problem)


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
                 lines=(), scenario=None, min_text_mm=None):
    """The map for print: ``dpi`` up to 300, hexes ``hex_mm`` across the flats, a 5 mm white margin; with
    ``min_text_mm`` no text under that size (draw_map)."""
    scale = print_scale(dpi, hex_mm)
    area = play_area(cmap, crop) if crop is not None else None
    margin = round(PRINT_MARGIN_MM / 25.4 * dpi)
    check_print(cmap.grid, dpi, hex_mm, area=area, cmap=cmap)
    return draw_map(cmap, scale, margin, labels=labels, legend=legend, scale_bar=scale_bar, crop=area,
                    shading=shading, lines=lines, scenario=scenario, hex_mm=hex_mm, dpi=dpi, min_text_mm=min_text_mm)


def printed_size(grid, dpi, hex_mm, area=None, cmap=None):
    """(width, height) in pixels of the map printed without legend: the hexes' extent plus the margins."""
    scale = print_scale(dpi, hex_mm)
    margin = round(PRINT_MARGIN_MM / 25.4 * dpi)
    if area is not None:
        canvas = Canvas(cmap, scale, margin, area)
        return canvas.map_w + 2 * margin, canvas.map_h + 2 * margin
    min_x, min_y, max_x, max_y = grid.extent()
    return (int(math.ceil((max_x - min_x) * scale)) + 2 * margin, int(math.ceil((max_y - min_y) * scale)) + 2 * margin)

