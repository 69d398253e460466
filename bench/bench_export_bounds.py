"""What the bounded exports cost at their bounds (issue 17, point 6), each in a fresh process for its peak memory:

- the largest print the renderer allows (render.MAX_PIXELS, an A0 sheet at 300 dpi) against the largest print the
  old limit let through (400 million pixels with the legend's allowance; the issue measured 52 s, 1.8 GB, 74 MB);
- the map page's picture of a 500 x 500 map (render.render_page: a mosaic) and of the largest map drawn hex by
  hex (PAGE_DRAW_HEXES), against the old screen image of a 500 x 500 map (the issue: about 100 s and 1.9 GB).

The "before" figures are the issue's unless --before is given, which draws them (minutes, and about 2 GB each).
Run: .venv/bin/python bench/bench_export_bounds.py [--before]
"""

import argparse
import io
import math
import multiprocessing
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

BEFORE = {"print": (52.0, 1800, 74.0), "page": (100.0, 1900, None)}  # seconds, MB peak, MB of PNG


def map_of(columns, rows):
    from engine.generate import random_map

    return random_map("ost", columns, rows, seed=7, name="Bench")


def largest_print(limit):
    """A print of a square-ish map at 300 dpi and 19 mm hexes, as many hexes as fit under ``limit`` pixels."""
    from engine import render
    from engine.los.engine import compile_map

    n = 10
    while math.prod(render.printed_size(map_of(n + 2, n + 2).grid, 300, 19)) <= limit:
        n += 2
    cmap = compile_map(map_of(n, n))
    start = time.perf_counter()
    image = render.render_print(cmap, dpi=300, hex_mm=19)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return f"{n} x {n} hexes, {image.width:,} x {image.height:,} px", time.perf_counter() - start, len(out.getvalue())


def page(columns, rows, old=False):
    from engine import render, rulesets
    from engine.los.engine import compile_map

    doc = map_of(columns, rows)
    start = time.perf_counter()
    if old:
        image = render.render_map(compile_map(doc))
    else:
        image = render.render_page(doc, rulesets.get(doc.ruleset), lambda: compile_map(doc))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return f"{columns} x {rows} hexes, {image.width:,} x {image.height:,} px", time.perf_counter() - start, \
        len(out.getvalue())


def _child(queue, name, args):
    what, seconds, size = globals()[name](*args)
    queue.put((what, seconds, size, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))


def measured(name, *args):
    queue = multiprocessing.get_context("spawn").Queue()
    child = multiprocessing.get_context("spawn").Process(target=_child, args=(queue, name, args))
    child.start()
    result = queue.get()
    child.join()
    return result


def report(label, result, before):
    what, seconds, size, peak = result
    line = f"{label}: {what}: {seconds:.1f} s, peak {peak:,.0f} MB, {size / 1e6:.1f} MB PNG"
    b_seconds, b_peak, _ = before
    print(f"{line} (before {b_seconds:.0f} s, {b_peak:,.0f} MB: ratio {seconds / b_seconds:.3f} in time, "
          f"{peak / b_peak:.2f} in memory)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", action="store_true", help="draw the before figures too (slow)")
    args = parser.parse_args()
    from engine import render

    before_print, before_page = BEFORE["print"], BEFORE["page"]
    if args.before:
        what, seconds, size, peak = measured("largest_print", 400_000_000 / 1.3)
        print(f"before, the largest print: {what}: {seconds:.1f} s, peak {peak:,.0f} MB, {size / 1e6:.1f} MB PNG")
        before_print = (seconds, peak, size / 1e6)
        what, seconds, size, peak = measured("page", 500, 500, True)
        print(f"before, the page picture: {what}: {seconds:.1f} s, peak {peak:,.0f} MB, {size / 1e6:.1f} MB PNG")
        before_page = (seconds, peak, size / 1e6)
    report("the largest print allowed", measured("largest_print", render.MAX_PIXELS), before_print)
    report("the page picture of a 500 x 500 map", measured("page", 500, 500), before_page)
    side = int(math.sqrt(render.PAGE_DRAW_HEXES))
    report("the page picture of the largest map drawn hex by hex", measured("page", side, side), before_page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
