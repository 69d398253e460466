"""The vector print of a 60 x 40 map (issue 21, point 3): the SVG's size against the 5 MB target, and the time
to lay out and write the SVG and the PDF, beside the print PNG of the same map at 300 dpi for scale.

Run: .venv/bin/python bench/bench_vector_export.py [--hex-mm 19]
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_BYTES = 5_000_000


def timed(function):
    started = time.perf_counter()
    out = function()
    return out, time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hex-mm", type=float, default=19.0)
    hex_mm = parser.parse_args().hex_mm
    from engine import render
    from engine.generate import random_map
    from engine.los.engine import compile_map
    from engine.render import vector

    cmap = compile_map(random_map("ost", 60, 40, seed=7, name="Bench"))
    svg, svg_s = timed(lambda: vector.svg(cmap, hex_mm))
    pdf, pdf_s = timed(lambda: vector.pdf(cmap, hex_mm))
    png, png_s = timed(lambda: render.render_print(cmap, dpi=300, hex_mm=hex_mm))
    print(f"60 x 40 OST map, hexes {hex_mm:g} mm across the flats")
    print(f"  SVG  {len(svg) / 1e6:6.2f} MB  {svg_s:5.2f} s   size / 5 MB target = {len(svg) / TARGET_BYTES:.2f}")
    print(f"  PDF  {len(pdf) / 1e6:6.2f} MB  {pdf_s:5.2f} s   size / 5 MB = {len(pdf) / TARGET_BYTES:.2f}")
    print(f"  PNG  {png.width} x {png.height} px at 300 dpi drawn in {png_s:5.2f} s (the raster print, for scale)")
    return 0 if len(svg) < TARGET_BYTES else 1


if __name__ == "__main__":
    sys.exit(main())
