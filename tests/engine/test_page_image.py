"""Issue 17, point 6: the map page's picture (/maps/<id>/map.png) is at most render.PAGE_PX pixels on its longer
side whatever the map: drawn at the screen's scale when that fits, with smaller hexes when not, and for a map whose
hexes would be tinier than PAGE_MIN_SCALE (or of more than PAGE_DRAW_HEXES hexes) as a mosaic of its cells,
without compiling it (a 500 x 500 map took about 100 s and 1.9 GB drawn at the screen's scale)."""

import copy

import pytest

from engine import mapfile, render, rulesets
from engine.los.engine import compile_map
from tests.conftest import MAP_DOCUMENT


def doc_of(columns, rows):
    data = copy.deepcopy(MAP_DOCUMENT)
    data["grid"].update(columns=columns, rows=rows)
    return mapfile.parse(data)


def page(doc):
    compiled = []

    def compile_it():
        compiled.append(True)
        return compile_map(doc)

    return render.render_page(doc, rulesets.get(doc.ruleset), compile_it), bool(compiled)


def test_a_small_map_is_drawn_at_the_screen_scale():
    doc = doc_of(10, 8)
    image, compiled = page(doc)
    assert compiled and image.size == render.image_space(doc.grid)[0]  # as before: the screen image


def test_a_larger_map_is_drawn_with_smaller_hexes_to_fit():
    doc = doc_of(150, 100)
    assert render.image_space(doc.grid)[0][0] > render.PAGE_PX  # at the screen's scale it would not fit
    image, compiled = page(doc)
    assert compiled and max(image.size) <= render.PAGE_PX and max(image.size) > render.PAGE_PX * 0.9


@pytest.mark.parametrize("columns, rows", [(500, 500), (500, 30), (250, 250)])
def test_a_huge_map_is_a_mosaic_of_bounded_size_and_never_compiled(columns, rows):
    image, compiled = page(doc_of(columns, rows))
    assert not compiled and max(image.size) == render.PAGE_PX
