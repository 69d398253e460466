"""Pillow: a map as an image, for the screen, thumbnails and print.

Everything is drawn from the catalogue's ``style`` (fill, pattern, hexside stroke, marker), so that a printed map
looks like the painter's screen. Drawing is by whole shapes, never pixel by pixel in Python: one polygon per hex,
a pattern drawn once per (pattern, colour, size) as a hex-shaped sprite and pasted into each hex that has it,
one line per hexside. A 60 x 40 map at 300 dpi is about 12,000 x 9,000 pixels and draws in a few seconds.

Sizes: ``scale`` is pixels per map unit (a hex's circumradius, docs/map-format.md). For print, ``hex_mm`` is the
hex's width across the flats, the way printed hexes are measured, so scale = hex_mm / 25.4 * dpi / sqrt(3).

The layers, each a module: styles (colours and terrain looks), patterns (sprites and markers), canvas (map space
to pixels), map (drawing a map), scenario (what a scenario draws over it), legend (legend and scale bar),
printing (print sizes and limits), screen (the screen image, thumbnails, viewsheds). Callers use this package:
``from engine import render; render.render_map(...)``.
"""

from engine.render.canvas import MARGIN
from engine.render.map import draw_map
from engine.render.patterns import pattern_sprite
from engine.render.printing import (
                                    HEX_MM_RANGE,
                                    MAX_DPI,
                                    MAX_PIXELS,
                                    PRINT_MARGIN_MM,
                                    PrintTooLarge,
                                    check_print,
                                    play_area,
                                    print_scale,
                                    printed_size,
                                    render_print,
                                    too_large,
)
from engine.render.scenario import ScenarioLayer
from engine.render.screen import (
                                    MOSAIC_ABOVE,
                                    PAGE_DRAW_HEXES,
                                    PAGE_MIN_SCALE,
                                    PAGE_PX,
                                    SCALE,
                                    THUMB_PX,
                                    image_space,
                                    mosaic,
                                    page_scale,
                                    render_map,
                                    render_page,
                                    render_thumbnail,
                                    render_viewshed,
                                    thumbnail_of,
                                    viewshed_shading,
)
from engine.render.styles import INK, PAPER, font, hex_look, level_fill, rgb, style_of

__all__ = ["HEX_MM_RANGE", "INK", "MARGIN", "MAX_DPI", "MAX_PIXELS", "MOSAIC_ABOVE", "PAGE_DRAW_HEXES",
           "PAGE_MIN_SCALE", "PAGE_PX", "PAPER", "PRINT_MARGIN_MM", "PrintTooLarge", "SCALE", "ScenarioLayer",
           "THUMB_PX", "check_print", "draw_map", "font", "hex_look", "image_space", "level_fill", "mosaic",
           "page_scale", "pattern_sprite", "play_area", "print_scale", "printed_size", "render_map", "render_page",
           "render_print", "render_thumbnail", "render_viewshed", "rgb", "style_of", "thumbnail_of", "too_large",
           "viewshed_shading"]
