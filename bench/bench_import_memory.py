"""Peak memory of importing hostile uploads under the size limit (issue 17, point 2), and the size of the error
answer to a bad 13.7 MB map (point 12).

Each case runs in a fresh process, doing what a batch-validation worker does with an upload (importers.expand,
then engine.importers.batch.check_upload for each map in it); the file is made by another process and read from
a temporary folder, then the peak RSS (resource.getrusage ru_maxrss) is read before and after the import. The
figure printed is the peak, its growth over the process before the import, and the peak's ratio to the "before"
figure: the issue's 2.26 GB for its
64 KB TMX of 12 layers (measured on main when the issue was written; main is not run again here), and the
300 MB aim for any upload under the size limit.

Run: .venv/bin/python bench/bench_import_memory.py [--case NAME]
"""

import argparse
import base64
import io
import json
import os
import random
import resource
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE_MB = 2260  # the figure: a 64 KB TMX of 12 layers took a worker to 2.26 GB
AIM_MB = 300
ERROR_BASELINE_BYTES = 24.7e6  # the figure: a 13.7 MB bad map was answered with 24.7 MB of errors
ERROR_AIM_BYTES = 64 * 1024
MB = 1024 * 1024


def tmx(width, height, layers, data=None, encoding='encoding="base64" compression="zlib"'):
    if data is None:
        data = base64.b64encode(zlib.compress(struct.pack("<I", 1) * (width * height), 9)).decode()
    body = "".join(f'<layer id="{i + 1}" name="L{i}" width="{width}" height="{height}"><data {encoding}>{data}'
                   "</data></layer>" for i in range(layers))
    return (f'<?xml version="1.0"?><map version="1.10" orientation="hexagonal" width="{width}" height="{height}" '
            'tilewidth="28" tileheight="32" hexsidelength="16" staggeraxis="y" staggerindex="odd" infinite="0">'
            '<tileset firstgid="1" name="t" tilewidth="28" tileheight="32" tilecount="1" columns="1">'
            f'<tile id="0" type="Forest"/></tileset>{body}</map>').encode()


def png_of_zeros(width, height):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    deflate, row = zlib.compressobj(9), b"\0" * (1 + 4 * width)
    idat = b"".join(deflate.compress(row) for _ in range(height)) + deflate.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def zip_of(entries, compression=zipfile.ZIP_DEFLATED):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return out.getvalue()


def bad_map():
    hexes = ",".join(f'{{"hex": "{c + 1:03d}{r + 1:03d}", "terrain": ["no-such-terrain-here"]}}'
                     for c in range(500) for r in range(500))
    return ('{"format": "hexside-map", "version": 1, "name": "bad", "ruleset": "ost", "grid": {"orientation": '
            '"flat", "columns": 500, "rows": 500, "stagger": "odd", "labels": "xxyy"}, "hexes": [%s]}'
            % hexes).encode()


def vmod_with_image():
    build = (ROOT / "tests" / "data" / "community" / "jzedwards+vassal-hex-n-counters-template" / "template"
             / "buildFile.xml")
    return zip_of({"buildFile.xml": build.read_bytes(), "images/map.jpg": png_of_zeros(7000, 7000)},
                  zipfile.ZIP_STORED)


def big_zip():
    block = bytes(random.Random(17).choices(b"ab", weights=[15, 1], k=MB))
    entries = {"maps/small.map": "Gg, Gg, Gg\nGg, Gg, Gg\nGg, Gg, Gg\n"}
    entries.update({f"art/sheet{i}.png": block * 15 for i in range(12)})  # 180 MB expanded, under 20 MB zipped
    return zip_of(entries)


CASES = {
    # name: (file name, what it is, a function making it)
    "issue-tmx": ("bomb.tmx", "the issue's TMX: 1000 x 1000 tiles declared, 12 zlib layers",
                  lambda: tmx(1000, 1000, 12)),
    "full-tmx": ("full.tmx", "500 x 500 tiles in 24 zlib layers (the most tiles read), converted and checked",
                 lambda: tmx(500, 500, 24)),
    "many-layers": ("layers.tmx", "500 x 500 tiles in 5,000 zlib layers (refused past 100)",
                    lambda: tmx(500, 500, 5000)),
    "xml-tiles": ("tiles.tmx", "500 x 500 tiles as <tile gid=.../> elements",
                  lambda: tmx(500, 500, 1, '<tile gid="1"/>' * 250_000, "")),
    "xml-elements": ("elements.tmx", "19 MB of <tile/> elements (refused past 300,000)",
                     lambda: tmx(500, 500, 1, "<tile/>" * 2_700_000, "")),
    "csv": ("csv.tmx", "a csv layer of 9 million tiles for a 500 x 500 map",
            lambda: tmx(500, 500, 1, "1," * 9_000_000, 'encoding="csv"')),
    "json-objects": ("objects.tmj", "19 MB of JSON objects {} (refused past 800,000)",
                     lambda: b'{"orientation": "hexagonal", "layers": [], "tilewidth": 1, "x": [' + b"{}," * 6_500_000
                     + b"{}]}"),
    "zlib-bomb": ("bomb2.tmx", "a 10 x 10 map whose layer inflates to 1 GB", lambda: tmx(
        10, 10, 1, base64.b64encode(zlib.compress(b"\0" * (1024 * MB), 9)).decode())),
    "wesnoth-wide": ("wide.map", "a Wesnoth line of 5 million fields", lambda: b"Gg," * 5_000_000 + b"Gg\n"),
    "megamek-lines": ("big.board", "a MegaMek board declaring 2000 x 2000 hexes, 1 million hex lines",
                      lambda: b"size 2000 2000\n" + b'hex 0101 0 "" ""\n' * 1_000_000),
    "zip-entries": ("art.zip", "a zip of 12 x 15 MB entries (180 MB expanded) and one map", big_zip),
    "vassal-image": ("big.vmod", "a VASSAL module with a 7000 x 7000 RGBA PNG board", vmod_with_image),
}


def make_case(name, path):
    """In a child process of its own (making a bomb takes memory that is not the import's): write the file."""
    Path(path).write_bytes(CASES[name][2]())


def run_case(name, path):
    """In a child process: read the file, import it as a batch worker does, print the figures as JSON."""
    sys.path.insert(0, str(ROOT))
    from engine import importers
    from engine.importers.batch import check_upload

    file_name = CASES[name][0]
    data = Path(path).read_bytes()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    verdicts = [check_upload(upload)["verdict"] for upload in importers.expand(file_name, data)]
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"bytes": len(data), "before_mb": before / 1024, "peak_mb": peak / 1024,
                      "seconds": seconds, "verdicts": verdicts}))


def error_size():
    """In a child process: the 400 body the API gives a bad 13.7 MB map, through the real exception handler."""
    sys.path.insert(0, str(ROOT))
    os.environ.update(DJANGO_SETTINGS_MODULE="hexside.settings", DEBUG="0", SECRET_KEY="bench-" + "x" * 60)
    os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()
    from engine import mapfile
    from hexside.errors import exception_handler
    from hexside.renderers import JSONRenderer

    data = bad_map()
    try:
        mapfile.parse(data)
    except mapfile.MapFormatError as exc:
        response = exception_handler(exc, {})
    body = JSONRenderer().render(response.data, renderer_context={"response": response})
    print(json.dumps({"bytes": len(data), "error_bytes": len(body), "errors_total": response.data.get("errors_total"),
                      "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def child(*arguments):
    out = subprocess.run([sys.executable, __file__, *arguments], cwd=ROOT, capture_output=True, text=True)
    if out.returncode:
        return {"failed": out.stderr.strip().splitlines()[-1:]}
    lines = out.stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else {}


def measure(name):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, CASES[name][0])
        made = child("--make", name, path)
        return made if "failed" in made else child("--child", name, path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", choices=sorted(CASES))
    parser.add_argument("--child", nargs="+")
    parser.add_argument("--make", nargs=2)
    args = parser.parse_args()
    if args.make:
        return make_case(*args.make)
    if args.child:
        return error_size() if args.child == ["error-size"] else run_case(*args.child)
    print(f"before: the issue's 64 KB TMX took a worker to {BASELINE_MB} MB; aim: at most {AIM_MB} MB for any upload")
    print(f"{'case':14} {'file MB':>8} {'peak MB':>8} {'grew MB':>8} {'x before':>9} {'x aim':>6} {'s':>6}  verdicts")
    for name in [args.case] if args.case else list(CASES):
        figures = measure(name)
        if "failed" in figures:
            print(f"{name:14} failed: {figures['failed']}")
            continue
        grew = figures["peak_mb"] - figures["before_mb"]
        print(f"{name:14} {figures['bytes'] / MB:8.2f} {figures['peak_mb']:8.0f} {grew:8.0f} "
              f"{figures['peak_mb'] / BASELINE_MB:9.3f} {figures['peak_mb'] / AIM_MB:6.2f} {figures['seconds']:6.1f}  "
              f"{','.join(figures['verdicts'])}  ({CASES[name][1]})")
    if not args.case:
        figures = child("--child", "error-size")
        if "failed" in figures:
            print(f"error size: failed: {figures['failed']}")
            return
        ratio = figures["error_bytes"] / ERROR_BASELINE_BYTES
        print(f"error answer to a bad {figures['bytes'] / 1e6:.1f} MB map: {figures['error_bytes']:,} bytes "
              f"(before: {ERROR_BASELINE_BYTES / 1e6:.1f} MB; ratio {ratio:.4f}; aim {ERROR_AIM_BYTES:,}), "
              f"errors_total {figures['errors_total']:,}, peak {figures['peak_mb']:.0f} MB")


if __name__ == "__main__":
    main()
