"""Issue 17, point 2: what an upload declares (sizes, layers, compressed data, lines) is checked before anything
is allocated for it, so a small hostile file costs little memory. Each file is made here; each test bounds the
peak of Python's allocations (tracemalloc) or the code of the refusal, which today's main does not meet."""

import base64
import gzip
import json
import struct
import tracemalloc
import zlib

from engine import mapfile
from engine.importers import ImportLimits, convert

MB = 1024 * 1024


def tmx(width, height, layers, data=None, encoding="base64", compression="zlib", gid=1, extra=""):
    """A hexagonal TMX of ``layers`` layers, each ``data`` (default: every tile ``gid``, compressed)."""
    if data is None:
        raw = struct.pack("<I", gid) * (width * height)
        data = base64.b64encode(zlib.compress(raw, 9)).decode() if compression == "zlib" else \
            base64.b64encode(raw).decode()
    attrs = f'encoding="{encoding}"' + (f' compression="{compression}"' if compression else "")
    body = "".join(f'<layer id="{i + 1}" name="ground {i}" width="{width}" height="{height}"><data {attrs}>{data}'
                   "</data></layer>" for i in range(layers))
    return (f'<?xml version="1.0"?><map version="1.10" orientation="hexagonal" width="{width}" height="{height}" '
            'tilewidth="28" tileheight="32" hexsidelength="16" staggeraxis="y" staggerindex="odd" infinite="0">'
            '<tileset firstgid="1" name="t" tilewidth="28" tileheight="32" tilecount="1" columns="1">'
            f'<tile id="0" type="grass"/></tileset>{extra}{body}</map>').encode()


def peak(call):
    """(result, peak bytes Python allocated during the call)."""
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def codes(result):
    return [f.code for f in result.findings]


# -- Tiled -------------------------------------------------------------------------------------------------

def test_a_64_kb_tmx_declaring_1000_x_1000_tiles_in_12_layers_is_refused_before_decoding():
    data = tmx(1000, 1000, 12)  # the file: 64 KB that took a worker to 2.26 GB
    assert len(data) < 70_000
    result, used = peak(lambda: convert("bomb.tmx", data))
    assert result.doc is None and codes(result) == ["map-too-large"]
    assert "1000 x 1000" in result.findings[0].message
    assert used < 5 * MB, used


def test_many_layers_are_refused_before_they_are_read():
    result = convert("layers.tmx", tmx(4, 4, 101))
    assert result.doc is None and codes(result) == ["too-many-layers"]
    assert "'ground 100'" in result.findings[0].path and "100 tile layers" in result.findings[0].message


def test_the_tiles_of_all_layers_are_counted_before_each_is_decoded():
    limits = ImportLimits(max_tiles=100_000)
    data = tmx(200, 200, 3)
    result, used = peak(lambda: convert("tiles.tmx", data, limits=limits))
    assert result.doc is None and codes(result) == ["too-many-tiles"]
    assert result.findings[0].path == "layer 'ground 2'"  # the third layer: 120,000 tiles
    assert used < 2 * MB, used


def test_a_full_size_map_of_many_layers_is_held_as_arrays_not_objects():
    # 200 x 200 tiles in 12 layers: one Python object per tile was 12 x 40,000 x ~150 bytes (70 MB).
    data = tmx(200, 200, 12)
    result, used = peak(lambda: convert("deep.tmx", data))
    assert result.doc is not None and len(result.doc["extensions"]["tiled"]) > 0
    assert used < 40 * MB, used


def test_a_zlib_bomb_in_a_layer_is_refused_naming_the_layer():
    bomb = base64.b64encode(zlib.compress(b"\0" * (64 * MB), 9)).decode()  # 64 MB of tiles in 87 KB
    data = tmx(10, 10, 1, data=bomb)
    result, used = peak(lambda: convert("zip-bomb.tmx", data))
    assert result.doc is None and codes(result) == ["layer-data-too-large"]
    assert result.findings[0].path == "layer 'ground 0'" and "compression bomb" in result.findings[0].message
    assert used < 5 * MB, used


def test_a_gzip_bomb_in_a_json_map_is_refused_naming_the_layer():
    bomb = base64.b64encode(gzip.compress(b"\1\0\0\0" * (16 * MB), 9)).decode()
    doc = {"orientation": "hexagonal", "width": 10, "height": 10, "tilewidth": 28, "tileheight": 32,
           "hexsidelength": 16, "staggeraxis": "y", "staggerindex": "odd", "infinite": False,
           "tilesets": [{"firstgid": 1, "name": "t", "tiles": [{"id": 0, "type": "grass"}]}],
           "layers": [{"type": "tilelayer", "name": "roads", "width": 10, "height": 10, "encoding": "base64",
                       "compression": "gzip", "data": bomb}]}
    data = json.dumps(doc).encode()
    result, used = peak(lambda: convert("gzip-bomb.tmj", data))
    assert codes(result) == ["layer-data-too-large"] and result.findings[0].path == "layer 'roads'"
    assert used < 5 * MB, used


def test_csv_data_of_millions_of_tiles_is_counted_before_it_is_split():
    data = tmx(10, 10, 1, data="1," * 3_000_000, encoding="csv", compression=None)
    result, used = peak(lambda: convert("csv.tmx", data))
    assert result.doc is None and codes(result) == ["bad-layer-data"]
    assert used < 20 * MB, used  # the file itself is 6 MB; splitting it was 3 million strings (180 MB)


def test_base64_data_in_pieces_is_not_split_into_millions_of_strings():
    data = tmx(10, 10, 1, data="AAAA " * 1_000_000, compression=None)
    result, used = peak(lambda: convert("pieces.tmx", data))
    assert result.doc is None and codes(result) == ["bad-layer-data"]
    assert used < 20 * MB, used  # "".join(text.split()) made a million strings (55 MB)


def test_an_xml_file_of_too_many_elements_is_refused_as_it_is_parsed():
    tiles = '<tile gid="1"/>' * 400_000
    data = tmx(500, 500, 1, data=tiles, encoding="", compression=None).replace(b' encoding=""', b"")
    result, used = peak(lambda: convert("tiles.tmx", data))
    assert result.doc is None and codes(result) == ["xml-too-large"]
    assert used < 150 * MB, used


def test_an_element_of_a_million_attributes_is_refused_before_it_is_parsed():
    data = tmx(4, 4, 1, extra="<properties " + " ".join(f'a{i}="1"' for i in range(1_600_000)) + "/>")
    result, used = peak(lambda: convert("attrs.tmx", data))
    assert result.doc is None and codes(result) == ["xml-too-large"]
    assert used < 40 * MB, used


def test_a_json_file_of_millions_of_objects_is_refused_before_it_is_decoded():
    data = b'{"orientation": "hexagonal", "layers": [], "tilewidth": 1, "x": [' + b"{}," * 2_000_000 + b"{}]}"
    result, used = peak(lambda: convert("objects.tmj", data))
    assert result.doc is None and codes(result) == ["json-too-large"]
    assert used < 20 * MB, used  # decoded, 2 million dicts were 130 MB


def test_an_infinite_map_whose_chunks_span_more_than_the_largest_map_is_refused():
    # Three layers of 250,000 tiles in chunks side by side, 1,000 tiles wide in all: refused on the span, with
    # the tiles held as arrays (one Python object per tile was 110 MB).
    chunk = base64.b64encode(zlib.compress(struct.pack("<I", 1) * (250 * 250))).decode()
    chunks = "".join(f'<chunk x="{x}" y="0" width="250" height="250">{chunk}</chunk>' for x in range(0, 1000, 250))
    layers = "".join(f'<layer id="{i}" name="far {i}" width="16" height="16"><data encoding="base64" '
                     f'compression="zlib">{chunks}</data></layer>' for i in range(3))
    data = tmx(16, 16, 1).replace(b'infinite="0"', b'infinite="1"').split(b"<layer")[0] + \
        f"{layers}</map>".encode()
    result, used = peak(lambda: convert("far.tmx", data))
    assert result.doc is None and codes(result) == ["map-too-large"] and "1000 x 250" in result.findings[0].message
    assert used < 20 * MB, used


# -- Wesnoth and MegaMek -----------------------------------------------------------------------------------

def test_a_wesnoth_line_wider_than_the_largest_map_is_refused_before_it_is_split():
    data = ("Gg, " * 2_000_000 + "Gg\n").encode()
    result, used = peak(lambda: convert("wide.map", data))
    assert result.doc is None and codes(result) == ["map-too-large"] and result.findings[0].path == "line 1"
    assert used < 40 * MB, used  # split, 2 million fields were 120 MB


def test_a_wesnoth_file_of_millions_of_lines_is_refused_before_it_is_split():
    data = b"Gg\n" * 3_000_000
    result, used = peak(lambda: convert("tall.map", data))
    assert result.doc is None and codes(result) == ["map-too-large"]
    assert used < 40 * MB, used


def test_a_megamek_board_is_refused_on_its_declared_size_before_its_hex_lines():
    data = "\n".join(["size 2000 2000"] + ['hex 0101 0 "" ""'] * 200_000).encode()
    result, used = peak(lambda: convert("big.board", data))
    assert result.doc is None and codes(result) == ["map-too-large"] and result.findings[0].path == "line 1"
    assert used < 20 * MB, used


def test_megamek_hex_lines_past_the_declared_size_are_refused_as_they_come():
    result = convert("more.board", "\n".join(["size 2 2"] + ['hex 0101 0 "" ""'] * 50).encode())
    assert codes(result) == ["bad-board"] and result.findings[0].path == "line 6"


def test_a_megamek_number_of_thousands_of_digits_is_a_bad_line_not_a_fault():
    result = convert("digits.board", ("size " + "9" * 5000 + " 2\n").encode())
    assert codes(result) == ["bad-line"]


# -- findings, however many the file has -------------------------------------------------------------------

def test_a_conversion_lists_the_first_findings_and_counts_the_rest():
    rows = [", ".join(f"Zz{x:03d}{y:03d}" for x in range(120)) for y in range(120)]  # 14,400 unmapped codes
    result = convert("codes.map", "\n".join(rows).encode(), ruleset="ost")
    assert 14_000 > len(result.findings) > 400
    assert result.findings[-1].code == "more-findings" and result.findings[-1].severity == "error"
    assert "more findings like these" in result.findings[-1].message


def test_a_map_file_reading_lists_the_first_errors_and_counts_the_rest():
    doc = {"format": mapfile.FORMAT, "version": mapfile.VERSION, "name": "bad", "ruleset": "ost",
           "grid": {"orientation": "flat", "columns": 100, "rows": 100, "stagger": "odd", "labels": "xxyy"},
           "hexes": [{"hex": f"{c + 1:02d}{r + 1:02d}", "terrain": ["x" * 10_000]}
                     for c in range(100) for r in range(100)]}
    try:
        mapfile.parse(doc)
    except mapfile.MapFormatError as exc:
        errors = exc.errors
    assert len(errors) == mapfile.MAX_FINDINGS + 1
    assert errors[-1].code == "more-findings" and "9,000 more errors" in errors[-1].message
    assert max(len(e.message) for e in errors) < 400  # a message echoing a 10,000-character id is cut


# -- zips --------------------------------------------------------------------------------------------------

def test_a_zip_of_large_entries_is_measured_and_read_one_entry_at_a_time():
    import io
    import random
    import zipfile

    from engine.importers import convert_upload, expand

    block = bytes(random.Random(17).choices(b"ab", weights=[15, 1], k=MB))  # deflates about 6 to 1
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("maps/small.map", "Gg, Gg, Gg\nGg, Gg, Gg\nGg, Gg, Gg\n")
        for i in range(6):
            z.writestr(f"art/sheet{i}.png", block * 15)  # 90 MB once expanded, in a zip under 20 MB
    data = out.getvalue()
    assert len(data) < 20 * MB

    def run():
        uploads = expand("big.zip", data)
        return [convert_upload(u, ruleset="ost") for u in uploads]

    results, used = peak(run)
    assert [r.ok for r in results] == [True]
    assert used < 30 * MB, used  # every entry was held at once: 90 MB


# -- board images ------------------------------------------------------------------------------------------

def png_of_zeros(width, height):
    """A valid RGBA PNG of width x height transparent pixels, written without holding its pixels."""
    import struct as st

    def chunk(kind, body):
        return st.pack(">I", len(body)) + kind + body + st.pack(">I", zlib.crc32(kind + body))

    deflate, row, parts = zlib.compressobj(9), b"\0" * (1 + 4 * width), []
    for _ in range(height):
        parts.append(deflate.compress(row))
    parts.append(deflate.flush())
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", st.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", b"".join(parts)) + chunk(b"IEND", b""))


def vassal_module(image):
    import io
    import zipfile

    from tests.data import COMMUNITY

    build = (COMMUNITY / "jzedwards+vassal-hex-n-counters-template" / "template" / "buildFile.xml").read_bytes()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        z.writestr("buildFile.xml", build)
        z.writestr("images/map.jpg", image)
    return out.getvalue()


def test_a_large_board_image_is_checked_without_decoding_its_pixels():
    # Pillow's pixels are not Python allocations (tracemalloc misses them): the peak RSS of a process is measured.
    import subprocess
    import sys
    from pathlib import Path

    code = """if True:
        import resource
        from engine.importers import convert
        from tests.engine.test_import_memory import png_of_zeros, vassal_module
        data = vassal_module(png_of_zeros(7000, 7000))  # 49 million pixels: 196 MB decoded
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        result = convert("big.vmod", data)
        (name, image), = result.files.items()
        assert name.endswith(".png") and image[:8] == bytes.fromhex("89504e470d0a1a0a"), result.findings
        print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
    """
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    grown = int(out.stdout.split()[-1])
    assert grown < 60 * MB, grown


def test_a_truncated_png_board_image_is_still_refused():
    result = convert("cut.vmod", vassal_module(png_of_zeros(300, 300)[:-40]))
    assert "bad-image" in codes(result) and result.files == {}


# -- tilesets and VASSAL zones -----------------------------------------------------------------------------

def tileset_file(tiles):
    body = "".join(f'<tile id="{i}" type="t{i}"/>' for i in range(tiles))
    return (f'<?xml version="1.0"?><tileset name="big" tilewidth="28" tileheight="32" tilecount="{tiles}" '
            f'columns="1">{body}</tileset>').encode()


def map_naming(sources):
    named = "".join(f'<tileset firstgid="{1 + 10_000 * i}" source="{source}"/>' for i, source in enumerate(sources))
    return tmx(4, 4, 1).replace(b'<tileset firstgid="1" name="t"', named.encode() + b'<tileset firstgid="9999999" '
                                b'name="t"')


def test_a_tileset_named_many_times_is_read_once():
    files = {"big.tsx": tileset_file(5000)}
    data = map_naming(["big.tsx"] * 150)  # read each time, 750,000 tiles were kept (100 MB)
    result, used = peak(lambda: convert("many.tmx", data, files=files))
    assert result.doc is not None, result.findings[:3]
    assert used < 20 * MB, used


def test_the_tiles_all_tilesets_define_are_bounded():
    files = {"a.tsx": tileset_file(600), "b.tsx": tileset_file(600)}
    result = convert("two.tmx", map_naming(["a.tsx", "b.tsx"]), files=files,
                     limits=ImportLimits(max_tile_definitions=1000))
    assert result.doc is None and codes(result) == ["too-many-tile-definitions"]
    assert result.findings[0].path == "tileset b.tsx"


def test_a_vassal_zone_of_millions_of_corners_is_refused_before_it_is_split():
    board = "VASSAL.build.module.map.boardPicker"
    corners = "1,1;" * 2_000_000 + "1,1"
    data = (f'<VASSAL.launch.BasicModule><VASSAL.build.module.Map><{board}.BoardPicker><{board}.Board name="B" '
            f'width="1000" height="1000"><{board}.board.ZonedGrid><{board}.board.mapgrid.Zone name="z" '
            f'path="{corners}"><{board}.board.HexGrid dx="64" dy="72"/></{board}.board.mapgrid.Zone>'
            f'</{board}.board.ZonedGrid></{board}.Board></{board}.BoardPicker></VASSAL.build.module.Map>'
            '</VASSAL.launch.BasicModule>').encode()
    result, used = peak(lambda: convert("buildFile.xml", data))
    assert result.doc is None and codes(result) == ["bad-grid"] and result.findings[0].path == "zone.path"
    assert used < 40 * MB, used  # the attribute itself is 8 MB; split into corners it was 2 million tuples


# -- issue 27: every decode bounded before it happens -----------------------------------------------------

def png_of_black(width, height):
    """An 8-bit grey PNG of black pixels, written without holding them (7745 x 7745: 58 KB, 60 MB decoded)."""
    import struct as st

    def chunk(kind, body):
        return st.pack(">I", len(body)) + kind + body + st.pack(">I", zlib.crc32(kind + body))

    deflate, row = zlib.compressobj(9), b"\0" * (1 + width)
    idat = b"".join(deflate.compress(row) for _ in range(height)) + deflate.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", st.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def tileset_map(sources, side):
    """A 10 x 10 hexagonal TMX whose tiles are the images ``sources`` (an image collection), each side x side."""
    tiles = "".join(f'<tile id="{i}"><image width="{side}" height="{side}" source="{source}"/></tile>'
                    for i, source in enumerate(sources))
    gids = ",".join(str(1 + i % len(sources)) for i in range(100))
    return (f'<?xml version="1.0"?><map version="1.10" orientation="hexagonal" width="10" height="10" '
            'tilewidth="28" tileheight="32" hexsidelength="16" staggeraxis="y" staggerindex="odd" infinite="0">'
            f'<tileset firstgid="1" name="big" tilewidth="{side}" tileheight="{side}" tilecount="{len(sources)}" '
            f'columns="0">{tiles}</tileset><layer id="1" name="ground" width="10" height="10"><data encoding="csv">'
            f'{gids}</data></layer></map>').encode()


def hostile_tileset_zip(images=20, maps=1):
    """Issue 27's upload: map.tmx whose tileset names ``images`` black 7745 x 7745 PNGs of 58 KB each."""
    import io
    import zipfile

    black = png_of_black(7745, 7745)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for m in range(maps):
            z.writestr(f"map{m}.tmx", tileset_map([f"t{i}.png" for i in range(images)], 7745))
        for i in range(images):
            z.writestr(f"t{i}.png", black)
    return out.getvalue()


def peak_rss_in_child(code, tmp_path, make=None):
    """The peak RSS in MB of a fresh process running ``code`` (its file made first by another process, so that
    making it does not count; ``sys`` imported, the folder in ``sys.argv[1]``), and what the code printed."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    if make is not None:
        subprocess.run([sys.executable, "-c", make, str(tmp_path)], cwd=root, check=True)
    # VmHWM, not ru_maxrss: the peak of this process's own memory since it started (ru_maxrss outlives exec, so a
    # child started from a large test process would report that process's size).
    run = ("import sys\n" + code + "\nimport re\nstatus = open('/proc/self/status').read()\n"
           "print(int(re.search(r'VmHWM:\\s+(\\d+) kB', status)[1]) // 1024)")
    out = subprocess.run([sys.executable, "-c", run, str(tmp_path)], cwd=root, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.split()
    return int(lines[-1]), lines[:-1]


def test_a_tileset_of_twenty_60_megapixel_pngs_stays_under_600_mb_and_gives_no_pictures(tmp_path):
    # The 1.17 MB zip took a worker to 5.3 GB: each image was decoded whole to RGBA and kept.
    make = """if True:
        import sys
        from pathlib import Path
        from tests.engine.test_import_memory import hostile_tileset_zip
        Path(sys.argv[1], "tiles.zip").write_bytes(hostile_tileset_zip(20, maps=2))
    """
    code = """
from pathlib import Path
from engine import importers
from engine.importers.batch import check_upload
data = Path(sys.argv[1], "tiles.zip").read_bytes()
for upload in importers.expand("tiles.zip", data):
    checked = check_upload(upload)
    pictures = [e for e in checked["mapping"]["terrain"].values() if "picture" in e]
    print(checked["verdict"] != "invalid", len(checked["mapping"]["terrain"]), len(pictures))
"""
    peak, printed = peak_rss_in_child(code, tmp_path, make)
    assert printed == ["True", "20", "0"] * 2  # both maps converted, their codes proposed, no picture decoded
    assert peak < 600, peak


def test_a_60_megapixel_jpeg_atlas_is_decoded_reduced_for_its_tile_pictures(tmp_path):
    make = """if True:
        import sys
        from pathlib import Path
        from PIL import Image
        Image.new("L", (7745, 7745), 90).save(Path(sys.argv[1], "atlas.jpg"), "JPEG")
    """
    code = """
from pathlib import Path
from engine.importers import convert
atlas = Path(sys.argv[1], "atlas.jpg").read_bytes()
tmx = (b'<?xml version="1.0"?><map version="1.10" orientation="hexagonal" width="10" height="10" '
       b'tilewidth="28" tileheight="32" hexsidelength="16" staggeraxis="y" staggerindex="odd" infinite="0">'
       b'<tileset firstgid="1" name="a" tilewidth="1549" tileheight="1549" tilecount="25" columns="5">'
       b'<image source="atlas.jpg" width="7745" height="7745"/></tileset><layer id="1" name="g" width="10" '
       b'height="10"><data encoding="csv">' + ",".join(str(1 + i % 25) for i in range(100)).encode()
       + b'</data></layer></map>')
result = convert("map.tmx", tmx, files={"atlas.jpg": atlas})
print(len(result.survey["pictures"]))
"""
    peak, printed = peak_rss_in_child(code, tmp_path, make)
    assert printed == ["25"]  # every tile has its picture, cut from the atlas decoded at an eighth
    assert peak < 250, peak  # decoded whole to RGBA it was 240 MB more


def test_tile_pictures_share_one_pixel_budget_and_images_past_it_are_left_out():
    from engine.importers import ImportLimits

    files = {f"t{i}.png": png_of_black(1000, 1000) for i in range(3)}  # a million pixels each
    data = tileset_map(list(files), 1000)
    result = convert("map.tmx", data, files=files, limits=ImportLimits(max_picture_pixels=2_500_000))
    assert result.doc is not None and len(result.survey["pictures"]) == 2  # the third would pass the budget
    result = convert("map.tmx", data, files=files, limits=ImportLimits(max_picture_pixels=999_999))
    assert result.doc is not None and result.survey["pictures"] == {}


def test_an_image_past_its_budget_is_refused_from_its_header_before_any_pixel_is_decoded():
    import pytest
    from PIL import Image

    from engine import images

    data = png_of_black(3000, 3000)
    budget = images.Budget(5_000_000)
    with pytest.raises(images.TooLarge) as caught:
        images.decode(data, budget)
    assert str(caught.value) == "the image is 3000 x 3000 pixels (9,000,000); at most 5,000,000 pixels are decoded"
    assert budget.left == 5_000_000  # nothing was charged: nothing was decoded
    image, scale = images.decode(png_of_black(2000, 2000), budget)
    assert image.size == (2000, 2000) and scale == 1 and budget.left == 1_000_000
    import io

    out = io.BytesIO()
    Image.new("RGB", (4000, 3000), (10, 120, 30)).save(out, "JPEG")
    image, scale = images.decode(out.getvalue(), 1_000_000, at_least=(500, 375), declared=20_000_000)
    assert image.size == (500, 375) and scale == 0.125  # the JPEG decoder's eighth, within the budget
