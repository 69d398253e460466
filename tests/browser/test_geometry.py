"""static/js/hexgrid.js against engine/hexgrid.py, in Chromium: 1,000 random hexes and points for every orientation,
stagger and label scheme (offset/axial both ways, labels both ways, centres, the hex and the hexside under a point)."""

import itertools
import random

import pytest

from engine.hexgrid import LABEL_SCHEMES, ORIENTATIONS, STAGGERS, Grid

pytestmark = [pytest.mark.browser]

COUNT = 1000

JS = """async (cases) => {
  const { Grid } = await import("/static/js/hexgrid.js");
  return cases.map(({ grid, hexes, points }) => {
    const g = new Grid(grid);
    return {
      axial: hexes.map(([c, r]) => g.toAxial(c, r)),
      back: hexes.map(([c, r]) => g.fromAxial(...g.toAxial(c, r))),
      labels: hexes.map(([c, r]) => g.contains(c, r) ? g.label(c, r) : null),
      parsed: hexes.map(([c, r]) => g.contains(c, r) ? g.parseLabel(g.label(c, r)) : null),
      centres: hexes.map(([c, r]) => g.centre(c, r)),
      neighbours: hexes.slice(0, 100).map(([c, r]) => g.neighbours(c, r)),
      hexAt: points.map(([x, y]) => g.hexAt(x, y)),
      hexsideAt: points.map(([x, y]) => g.hexsideAt(x, y)),
    };
  });
}"""


def test_js_geometry_matches_python(live_server, page):
    rng = random.Random(8)
    cases, grids = [], []
    for orientation, stagger, labels in itertools.product(ORIENTATIONS, STAGGERS, LABEL_SCHEMES):
        # Sizes past 99 give three-digit labels and doubled column letters.
        grid = Grid(orientation, rng.randint(1, 500), rng.randint(1, 500), stagger, labels)
        hexes = [(rng.randint(-3, grid.columns + 2), rng.randint(-3, grid.rows + 2)) for _ in range(COUNT)]
        x0, y0, x1, y1 = grid.extent()
        points = [(rng.uniform(x0 - 2, x1 + 2), rng.uniform(y0 - 2, y1 + 2)) for _ in range(COUNT)]
        cases.append({"grid": grid.as_dict(), "hexes": hexes, "points": points})
        grids.append(grid)
    page.goto(live_server.url + "/")
    answers = page.evaluate(JS, cases)
    for grid, case, got in zip(grids, cases, answers, strict=True):
        hexes, points = case["hexes"], case["points"]
        name = f"{grid.orientation}/{grid.stagger}/{grid.labels} {grid.columns}x{grid.rows}"
        assert got["axial"] == [list(grid.to_axial(c, r)) for c, r in hexes], name
        assert got["back"] == [list(h) for h in hexes], name
        assert got["labels"] == [grid.label(c, r) if grid.contains(c, r) else None for c, r in hexes], name
        assert got["parsed"] == [list(grid.parse_label(grid.label(c, r))) if grid.contains(c, r) else None
                                 for c, r in hexes], name
        for (c, r), js in zip(hexes, got["centres"], strict=True):
            assert js == pytest.approx(grid.centre(c, r), abs=1e-9), (name, c, r)
        assert got["neighbours"] == [[list(n) for n in grid.neighbours(c, r)] for c, r in hexes[:100]], name
        assert got["hexAt"] == [list(grid.hex_at(x, y)) for x, y in points], name
        assert got["hexsideAt"] == [list(grid.hexside_at(x, y)) for x, y in points], name
    page.screenshot(path="tests/browser/artifacts/geometry.png")
