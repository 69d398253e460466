"""The print renderer on a large map: a seeded 60 x 40 Old School Tactical map at 300 dpi, 19 mm hexes.

Prints the drawing time (aim: under 5 s) and its ratio to the aim, the PNG encoding time apart (the
encoding is zlib's, not ours), and the image size. Run: .venv/bin/python bench/bench_render.py [--dpi N]
"""

import argparse
import io
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexside.settings")

AIM_SECONDS = 5.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dpi", type=int, default=300)
    parser.add_argument("--hex-mm", type=float, default=19.0)
    parser.add_argument("--out", help="also write the PNG here")
    args = parser.parse_args()

    from engine import render
    from engine.generate import random_map
    from engine.los.engine import compile_map

    cmap = compile_map(random_map("ost", 60, 40, seed=7))
    start = time.perf_counter()
    image = render.render_print(cmap, dpi=args.dpi, hex_mm=args.hex_mm)
    drawn = time.perf_counter() - start
    start = time.perf_counter()
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    encoded = time.perf_counter() - start
    if args.out:
        Path(args.out).write_bytes(out.getvalue())
    print(f"60x40 map at {args.dpi} dpi, {args.hex_mm:g} mm hexes: {image.width} x {image.height} px")
    print(f"draw {drawn:.2f} s (aim {AIM_SECONDS:.0f} s, ratio {drawn / AIM_SECONDS:.2f}); "
          f"PNG encoding {encoded:.2f} s, {len(out.getvalue()) / 1e6:.1f} MB; "
          f"total {drawn + encoded:.2f} s (ratio {(drawn + encoded) / AIM_SECONDS:.2f})")


if __name__ == "__main__":
    main()
