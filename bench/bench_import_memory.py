"""Peak memory of importing hostile uploads under the size limit (issue 17, point 2; issue 27, point 1: tileset
images declaring 60 megapixels each, board images), and the size of the error answer to a bad 13.7 MB map
(issue 17, point 12).

Each case runs in a fresh process, doing what a batch-validation worker does with an upload (importers.expand,
then engine.importers.batch.check_upload for each map in it, and a converted map's board image checked and written
again as a scan, maps.scans.decode_scan, as validations.tasks.kept_board does); the file is made by another process
and read from a temporary folder, then the peak RSS (resource.getrusage ru_maxrss) is read before and after the
import. The figure printed is the peak, its growth over the process before the import, and the peak beside the
case's figure before the change: issue 17's 2.26 GB for its 64 KB TMX of 12 layers, issue 27's 786 / 1,014 /
1,473 / 2,388 / 5,341 MB for a tileset of 1 / 2 / 4 / 8 / 20 black 7745 x 7745 PNGs (measured on the server when
the issues were written), and for the other issue 27 cases this bench run on the commit before the change (the
same machine as the "after" figures). The aim: at most 600 MB for any upload under the size limit.

Last, what a 4 KB VASSAL module naming 1,000 boards of 500 x 500 hexes declares (issue 27, point 4), read from its
headers before it is queued.

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
AIM_MB = 600
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
            f'"flat", "columns": 500, "rows": 500, "stagger": "odd", "labels": "xxyy"}}, "hexes": [{hexes}]}}').encode()


def vmod_with_image():
    build = (ROOT / "tests" / "data" / "community" / "jzedwards+vassal-hex-n-counters-template" / "template"
             / "buildFile.xml")
    return zip_of({"buildFile.xml": build.read_bytes(), "images/map.jpg": png_of_zeros(7000, 7000)},
                  zipfile.ZIP_STORED)


def png_of_black(width, height):
    """An 8-bit grey PNG of black pixels (7745 x 7745: 58 KB), as the tests make it."""
    sys.path.insert(0, str(ROOT))
    from tests.engine.test_import_memory import png_of_black as make

    return make(width, height)


def jpeg_of(width, height):
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), (40, 90, 30)).save(out, "JPEG", quality=75)
    return out.getvalue()


def tileset_map(images, side=7745, atlas=False):
    """A 10 x 10 hexagonal TMX whose tiles are ``images`` images of side x side (an image collection), or one
    atlas image cut into 5 x 5 tiles of side / 5 (``atlas``), every tile used."""
    if atlas:
        tiles = 25
        tileset = (f'<tileset firstgid="1" name="atlas" tilewidth="{side // 5}" tileheight="{side // 5}" '
                   f'tilecount="25" columns="5"><image source="atlas.jpg" width="{side}" height="{side}"/>'
                   + "".join(f'<tile id="{i}" type="t{i}"/>' for i in range(tiles)) + "</tileset>")
    else:
        tiles = images
        tileset = (f'<tileset firstgid="1" name="big" tilewidth="{side}" tileheight="{side}" tilecount="{images}" '
                   'columns="0">' + "".join(f'<tile id="{i}"><image width="{side}" height="{side}" '
                                            f'source="t{i}.png"/></tile>' for i in range(images)) + "</tileset>")
    gids = ",".join(str(1 + i % tiles) for i in range(100))
    return (f'<?xml version="1.0"?><map version="1.10" orientation="hexagonal" width="10" height="10" '
            'tilewidth="28" tileheight="32" hexsidelength="16" staggeraxis="y" staggerindex="odd" infinite="0">'
            f'{tileset}<layer id="1" name="ground" width="10" height="10"><data encoding="csv">{gids}</data>'
            '</layer></map>').encode()


def tileset_zip(images, maps=1):
    """Issue 27's zip: map.tmx (and map2.tmx ..) naming ``images`` black 7745 x 7745 PNGs, one file each."""
    black = png_of_black(7745, 7745)
    entries = {("map.tmx" if m == 0 else f"map{m + 1}.tmx"): tileset_map(images) for m in range(maps)}
    entries.update({f"t{i}.png": black for i in range(images)})
    return zip_of(entries)


def jpeg_zip():
    return zip_of({"map.tmx": tileset_map(0, atlas=True), "atlas.jpg": jpeg_of(7745, 7745)}, zipfile.ZIP_STORED)


def vmod_of(image_name, image):
    build = (ROOT / "tests" / "data" / "community" / "jzedwards+vassal-hex-n-counters-template" / "template"
             / "buildFile.xml")
    return zip_of({"buildFile.xml": build.read_bytes(), f"images/{image_name}": image}, zipfile.ZIP_STORED)


def big_zip():
    block = bytes(random.Random(17).choices(b"ab", weights=[15, 1], k=MB))
    entries = {"maps/small.map": "Gg, Gg, Gg\nGg, Gg, Gg\nGg, Gg, Gg\n"}
    entries.update({f"art/sheet{i}.png": block * 15 for i in range(12)})  # 180 MB expanded, under 20 MB zipped
    return zip_of(entries)


# Each case's peak before the change, in MB: the issues' figures, and this bench on the commit before issue 27.
BEFORE_MB = {"issue-tmx": 2260, "tileset-1": 786, "tileset-2": 1014, "tileset-4": 1473, "tileset-8": 2388,
             "tileset-20": 5341, "tileset-2-maps": 5200, "tileset-jpeg": 587, "vassal-png-60mp": 339,
             "vassal-jpeg-60mp": 568}
CASES = {
    # name: (file name, what it is, a function making it)
    "issue-tmx": ("bomb.tmx", "the issue's TMX: 1000 x 1000 tiles declared, 12 zlib layers",
                  lambda: tmx(1000, 1000, 12)),
    **{f"tileset-{n}": ("tiles.zip", f"a map whose tileset names {n} black 7745 x 7745 PNGs (issue 27)",
                        lambda n=n: tileset_zip(n)) for n in (1, 2, 4, 8, 20)},
    "tileset-2-maps": ("tiles2.zip", "two such maps in one zip, 20 PNGs", lambda: tileset_zip(20, maps=2)),
    "tileset-jpeg": ("atlas.zip", "a map whose tileset atlas is a 7745 x 7745 JPEG", jpeg_zip),
    "vassal-png-60mp": ("board.vmod", "a VASSAL module whose board is a 7745 x 7745 RGBA PNG",
                        lambda: vmod_of("map.jpg", png_of_zeros(7745, 7745))),
    "vassal-jpeg-60mp": ("board2.vmod", "a VASSAL module whose board is a 7745 x 7745 JPEG",
                         lambda: vmod_of("map.jpg", jpeg_of(7745, 7745))),
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
    setup_django()
    from engine import importers
    from engine.importers.batch import check_upload
    from maps import scans

    file_name = CASES[name][0]
    data = Path(path).read_bytes()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    verdicts = []
    for upload in importers.expand(file_name, data):
        checked = check_upload(upload)
        verdicts.append(checked["verdict"])
        for image in checked["files"].values():  # the board image, written again as a scan (kept_board)
            try:
                scans.decode_scan(image, 60_000_000)
            except scans.ScanError:
                verdicts[-1] += "/image-dropped"
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"bytes": len(data), "before_mb": before / 1024, "peak_mb": peak / 1024,
                      "seconds": seconds, "verdicts": verdicts}))


def setup_django():
    sys.path.insert(0, str(ROOT))
    os.environ.update(DJANGO_SETTINGS_MODULE="hexside.settings", DEBUG="0", SECRET_KEY="bench-" + "x" * 60)
    os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()


def error_size():
    """In a child process: the 400 body the API gives a bad 13.7 MB map, through the real exception handler."""
    setup_django()
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


def declared_work():
    """Issue 27, point 4: what a 4 KB module naming 1,000 boards of 500 x 500 hexes declares, and how long the
    header-only read takes (before, it was charged 4 units by its size and would have run 26 minutes)."""
    sys.path.insert(0, str(ROOT))
    from engine.importers import ImportLimits, declared
    from tests.engine.test_import_declared import module

    data = module(1000)
    started = time.perf_counter()
    work = declared.declared("huge.vmod", data, ImportLimits())
    seconds = time.perf_counter() - started
    print(f"declared work of a {len(data):,}-byte module: {work.describe()} ({work.hexes:,} hexes; limit "
          f"{ImportLimits().max_hexes:,}: refused before it is queued), read in {seconds:.2f} s; before: charged "
          f"{len(data) // 1000} units by its size, about 26 minutes of both heavy workers")


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
    print(f"aim: at most {AIM_MB} MB for any upload; before: each case's peak before the change, where known")
    print(f"{'case':16} {'file MB':>8} {'before MB':>9} {'peak MB':>8} {'grew MB':>8} {'x aim':>6} {'s':>6}  verdicts")
    for name in [args.case] if args.case else list(CASES):
        figures = measure(name)
        if "failed" in figures:
            print(f"{name:16} failed: {figures['failed']}")
            continue
        grew = figures["peak_mb"] - figures["before_mb"]
        before = f"{BEFORE_MB[name]:9,}" if name in BEFORE_MB else f"{'-':>9}"
        print(f"{name:16} {figures['bytes'] / MB:8.2f} {before} {figures['peak_mb']:8.0f} {grew:8.0f} "
              f"{figures['peak_mb'] / AIM_MB:6.2f} {figures['seconds']:6.1f}  "
              f"{','.join(figures['verdicts'])}  ({CASES[name][1]})")
    if not args.case:
        declared_work()
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
