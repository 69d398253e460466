"""The map at true scale on pages (engine/exports/mappages.py), measured in the PDF's own coordinates: each hex's
flat-to-flat width, the fewest pages for the paper, the overlap strip repeated on the joining page, crop and
alignment marks on every joining edge, and a file poppler and pypdf open without a warning."""

import math
import subprocess

import pytest

from engine.exports import mappages
from engine.generate import random_map
from engine.los.engine import compile_map
from tests.engine.exports.pdfops import hexes, painted, reader

SQRT3 = math.sqrt(3)


@pytest.fixture(scope="module")
def big():
    return compile_map(random_map("ost", 60, 40, seed=7, name="Sixty by forty"))


def flat_map_mm(columns, rows, hex_mm):
    """A flat-topped map's hexes' extent, from the hex's geometry (not the code under test): columns 1.5 sides
    apart, two sides wide; rows one flat apart, every other column half a flat lower."""
    side = hex_mm / SQRT3
    return (1.5 * (columns - 1) + 2) * side, hex_mm * (rows + 0.5)


def fewest(width, height, paper_w, paper_h):
    """The fewest pages, either way round, with the module's margin and overlap (its published constants)."""
    def count(length, page):
        window = page - 2 * mappages.MARGIN_MM
        return 1 if length <= window else math.ceil((length - mappages.OVERLAP_MM) /
                                                    (window - mappages.OVERLAP_MM))
    return min(count(width, paper_w) * count(height, paper_h), count(width, paper_h) * count(height, paper_w))


def flats(corners):
    """A flat-topped hex's width across the flats: the distance between its top and bottom edges."""
    ys = [y for _, y in corners]
    return max(ys) - min(ys)


def test_a_60x40_map_at_19mm_on_the_fewest_a4_pages_with_every_hex_19mm(big, caplog):
    pdf, plan = mappages.pages_pdf(big, 19.0, "a4", title="Sixty by forty")
    width, height = flat_map_mm(60, 40, 19.0)
    assert plan.pages == fewest(width, height, 210, 297)
    pages = reader(pdf).pages
    assert len(pages) == plan.pages
    measured = 0
    for page in pages:
        assert abs(float(page.mediabox.width) * 25.4 / 72 - plan.page_w) < 0.01
        for corners in hexes(page):
            if max(x for x, _ in corners) - min(x for x, _ in corners) > 2 * 19.0 / SQRT3 - 0.2:  # a whole hex
                assert abs(flats(corners) - 19.0) <= 0.2, corners
                measured += 1
    assert measured >= 60 * 40  # every hex on some page, those in the overlaps twice
    assert not [r for r in caplog.records if r.name.startswith("pypdf")]


@pytest.mark.parametrize(("paper", "hex_mm"), [("a4", 16.0), ("letter", 22.5), ("letter", 12.7)])
def test_every_hex_is_the_size_asked_on_either_paper(big, paper, hex_mm):
    pdf, plan = mappages.pages_pdf(big, hex_mm, paper)
    paper_w, paper_h = mappages.PAPERS[paper]
    width, height = flat_map_mm(60, 40, hex_mm)
    assert plan.pages == fewest(width, height, paper_w, paper_h)
    for page in reader(pdf).pages:
        whole = [c for c in hexes(page) if max(x for x, _ in c) - min(x for x, _ in c) > 2 * hex_mm / SQRT3 - 0.2]
        assert whole and all(abs(flats(c) - hex_mm) <= 0.2 for c in whole)


def in_strip(corners, x0, x1, y0, y1):
    return all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in corners)


def test_the_overlap_strip_is_repeated_and_every_joining_edge_marked(big):
    pdf, plan = mappages.pages_pdf(big, 19.0, "a4")
    pages = reader(pdf).pages
    left, bottom = mappages.MARGIN_MM, mappages.MARGIN_MM
    right, top = left + plan.window_w, bottom + plan.window_h
    strip = mappages.OVERLAP_MM
    for row in range(plan.rows):
        for col in range(plan.cols):
            page = pages[row * plan.cols + col]
            drawn = painted(page)
            edges = mappages.joining_edges(plan, col, row)
            assert len(edges) == (col > 0) + (col + 1 < plan.cols) + (row > 0) + (row + 1 < plan.rows)
            circles = [s for op, subpaths, _ in drawn if op == b"S" for s in subpaths if len(s) >= 5]
            centres = [((min(x for x, _ in s) + max(x for x, _ in s)) / 2,
                        (min(y for _, y in s) + max(y for _, y in s)) / 2) for s in circles]
            marks = {"left": lambda x, y: left < x < left + strip, "right": lambda x, y: right - strip < x < right,
                     "top": lambda x, y: top - strip < y < top, "bottom": lambda x, y: bottom < y < bottom + strip}
            for edge in edges:  # an alignment mark inside the strip of each joining edge
                assert any(marks[edge](x, y) for x, y in centres), (col, row, edge)
            dashed = [s for op, subpaths, dash in drawn if dash for s in subpaths]
            assert len(dashed) == (col + 1 < plan.cols) + (row + 1 < plan.rows)  # each strip's inner edge
            # crop marks: short lines outside the window's four corners
            ticks = [s for op, subpaths, dash in drawn if op == b"S" and not dash for s in subpaths if len(s) == 2
                     and all(x < left or x > right or y < bottom or y > top for x, y in s)]
            assert len(ticks) >= 8
            if col + 1 < plan.cols:
                # the hexes in this page's right strip are on the next page's left strip, at the same place
                mine = [c for c in hexes(page) if in_strip(c, right - strip, right, bottom, top)]
                theirs = hexes(pages[row * plan.cols + col + 1])
                shift = plan.window_w - strip
                for corners in mine:
                    moved = [(x - shift, y) for x, y in corners]
                    assert any(all(abs(a[0] - b[0]) < 0.01 and abs(a[1] - b[1]) < 0.01 for a, b in
                                   zip(moved, other, strict=True)) for other in theirs), corners


def test_poppler_opens_the_pages_without_a_warning(big, tmp_path):
    pdf, _ = mappages.pages_pdf(big, 19.0, "letter")
    path = tmp_path / "map.pdf"
    path.write_bytes(pdf)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    assert info.stderr == "" and "(letter)" in info.stdout
    shown = subprocess.run(["pdftoppm", "-r", "10", "-f", "1", "-l", "1", "-png", str(path), str(tmp_path / "p")],
                           capture_output=True, text=True, check=True)
    assert shown.stderr == ""


def test_an_unknown_paper_is_refused_in_words(big):
    with pytest.raises(mappages.PagesError, match="paper must be one of a4, letter"):
        mappages.pages_pdf(big, 19.0, "a3")
