"""Hostile and broken input: each gives its finding, nothing crashes, nothing is written."""

import io
import os
import struct
import zipfile
import zlib

import pytest
from PIL import Image

from engine.importers import ImportLimits, convert, convert_upload, expand
from tests.data import COMMUNITY
from tests.data.megamek import BOARDS, CITYTECH

TEMPLATE = COMMUNITY / "jzedwards+vassal-hex-n-counters-template" / "template"
LIMITS = ImportLimits(max_bytes=2_000_000, max_zip_entries=50, max_zip_total_bytes=5_000_000, max_zip_ratio=100,
                      max_image_pixels=5_000_000)


def zip_of(entries, compression=zipfile.ZIP_DEFLATED):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as z:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name)  # taken as given: writestr(name) would clean "../" away
            info.compress_type = compression
            z.writestr(info, data)
    return out.getvalue()


def codes(findings):
    return [f.code for f in findings]


@pytest.fixture(autouse=True)
def nothing_written(tmp_path, monkeypatch):
    """Every test runs in an empty folder, which must stay empty."""
    monkeypatch.chdir(tmp_path)
    yield
    assert os.listdir(tmp_path) == []


BOARD = BOARDS[CITYTECH]
HEXAGONAL_MINI = COMMUNITY / "mapeditor+tiled" / "libtiled-java" / "hexagonal-mini" / "hexagonal-mini.tmx"


def test_zip_slip_entries_are_not_read():
    data = zip_of({"../evil.board": BOARD, "/etc/abs.board": BOARD, "a/../../up.board": BOARD,
                   "C:\\win.board": BOARD, "fine.board": BOARD})
    uploads = expand("up.zip", data, LIMITS)
    escaping = [u for u in uploads if u.data is None]
    assert len(escaping) == 4 and all(codes(u.findings) == ["zip-path-escapes"] for u in escaping)
    (good,) = [u for u in uploads if u.data is not None]
    assert good.name == "up.zip!fine.board" and convert_upload(good).ok


def test_zip_bomb_entry_and_total_are_refused():
    bomb = zip_of({"bomb.board": b"\0" * 3_000_000, "fine.board": BOARD})
    uploads = expand("bomb.zip", bomb, LIMITS)
    assert ["zip-bomb"] in [codes(u.findings) for u in uploads]
    assert any(u.name.endswith("fine.board") and u.data for u in uploads)
    total = zip_of({f"m{i}.board": BOARD * 40 for i in range(30)})  # declares 30 x 240 KB > 5 MB
    (refused,) = expand("big.zip", total, LIMITS)
    assert codes(refused.findings) == ["zip-too-large"]


def test_a_zip_with_too_many_entries_is_refused():
    (refused,) = expand("many.zip", zip_of({f"f{i}.txt": b"x" for i in range(51)}), LIMITS)
    assert codes(refused.findings) == ["zip-too-many-entries"] and refused.data is None


def test_uploads_over_the_size_limit_and_broken_zips():
    (big,) = expand("big.board", b"x" * (LIMITS.max_bytes + 1), LIMITS)
    assert codes(big.findings) == ["too-large"]
    assert codes(convert("big.board", b"x" * (LIMITS.max_bytes + 1), limits=LIMITS).findings) == ["too-large"]
    (broken,) = expand("broken.zip", zip_of({"a.board": BOARD})[:200], LIMITS)
    assert codes(broken.findings) == ["bad-zip"]
    (nothing,) = expand("docs.zip", zip_of({"readme.txt": b"hi"}), LIMITS)
    assert codes(nothing.findings) == ["zip-no-maps"]


LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE map [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
<map orientation="hexagonal" width="1" height="1" tilewidth="16" tileheight="16" name="&d;"/>"""
EXTERNAL = b"""<?xml version="1.0"?>
<!DOCTYPE map [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<map orientation="hexagonal" width="1" height="1" tilewidth="16" tileheight="16">&secret;</map>"""


@pytest.mark.parametrize("name", ["m.tmx", "buildFile.xml"])
def test_billion_laughs_and_external_entities_are_refused(name):
    assert codes(convert(name, LAUGHS).findings) == ["xml-entities"]
    result = convert(name, EXTERNAL)
    assert result.doc is None and codes(result.findings) == ["xml-entities"]
    assert "passwd" not in result.findings[0].message or "root:" not in result.findings[0].message


def test_an_external_tileset_with_entities_is_refused_too():
    tmx = (b'<?xml version="1.0"?><map orientation="hexagonal" width="1" height="1" tilewidth="16" '
           b'tileheight="16" staggeraxis="y" staggerindex="odd"><tileset firstgid="1" source="t.tsx"/>'
           b'<layer name="g" width="1" height="1"><data encoding="csv">1</data></layer></map>')
    result = convert("m.tmx", tmx, files={"t.tsx": LAUGHS.replace(b"<map", b"<tileset")})
    assert "xml-entities" in codes(result.findings) and "missing-tileset" in codes(result.findings)


def truncated(data, fraction=0.5):
    return data[: int(len(data) * fraction)]


@pytest.mark.parametrize("name,data,code", [
    (HEXAGONAL_MINI.name, HEXAGONAL_MINI.read_bytes(), "bad-xml"),
    ("tiny_tiled.json", (COMMUNITY / "netorcai+hexabomb" / "editor" / "tiny_tiled.json").read_bytes(), "bad-json"),
    (CITYTECH, BOARD, "bad-line"),
    ("2p_Hamlets.map", (COMMUNITY / "cjhopman+Battle-for-Wesnoth-on-Android" / "wesnoth-1.8.5" / "data" /
                        "multiplayer" / "maps" / "2p_Hamlets.map").read_bytes(), "ragged-map"),
    ("buildFile.xml", (TEMPLATE / "buildFile.xml").read_bytes(), "bad-xml"),
], ids=lambda v: v if isinstance(v, str) and "." in v else "")
def test_truncated_files_give_their_finding(name, data, code):
    result = convert(name, truncated(data))
    assert result.doc is None and code in codes(result.findings), result.findings
    assert "truncated" in result.findings[0].message


def test_a_truncated_compressed_layer_and_a_binary_file():
    text = HEXAGONAL_MINI.read_text()
    start = text.index("eJ")
    cut = text[:start + 40] + text[text.index("\n", start):]
    result = convert("m.tmx", cut.encode())
    assert codes(result.findings) == ["bad-layer-data"]
    assert codes(convert("m.board", os.urandom(2000)).findings) == ["not-utf8"]
    assert codes(convert("m.json", b"[" * 100_000).findings) in (["too-deep"], ["bad-json"])


def png_claiming(width, height):
    """A tiny PNG whose header claims width x height pixels (a pixel bomb)."""
    out = io.BytesIO()
    Image.new("RGB", (1, 1)).save(out, "PNG")
    data = bytearray(out.getvalue())
    ihdr = struct.pack(">II", width, height) + bytes(data[24:29])
    data[16:29] = ihdr
    data[29:33] = struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return bytes(data)


def module_with_image(image):
    build = (TEMPLATE / "buildFile.xml").read_bytes()
    return zip_of({"buildFile.xml": build, "images/map.jpg": image})


@pytest.mark.parametrize("image,code", [
    (png_claiming(30_000, 30_000), "image-too-large"),
    (b"this is not an image at all", "bad-image"),
    ((TEMPLATE / "images" / "map.jpg").read_bytes()[:5000], "bad-image"),
], ids=["pixel-bomb", "not-an-image", "truncated-jpeg"])
def test_board_images_that_are_bombs_or_not_images(image, code):
    result = convert("bad.vmod", module_with_image(image), limits=LIMITS)
    assert code in codes(result.findings), result.findings
    assert result.files == {}
    # The grid is still known (the board's zone or size is not), so the refusal is clear rather than a crash.
    assert result.doc is None or result.doc["grid"]


def test_a_gif_board_image_is_re_encoded_as_png():
    gif = io.BytesIO()
    Image.new("RGB", (750, 750), "white").save(gif, "GIF")
    result = convert("gif.vmod", module_with_image(gif.getvalue()), limits=LIMITS)
    assert result.ok, result.findings
    (name, data), = result.files.items()
    assert name.endswith(".png") and Image.open(io.BytesIO(data)).format == "PNG"


def mutated(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(data))
        choice = rng.random()
        if choice < 0.4:
            data[i] = rng.randrange(256)
        elif choice < 0.7:
            data[i:i] = rng.choice([b'"', b",", b"-", b"99999", b"<", b"=", b"\n", b"^", b":", b";", b"-1", b"#"])
        else:
            del data[i:i + rng.randint(1, 60)]
    return bytes(data)


def test_damaged_files_and_zips_never_crash_an_importer():
    """A fixed sample of random damage to real files: every result is a finding or a map the format accepts."""
    import random

    from engine import mapfile
    from engine.importers import DiskFiles

    rng = random.Random(10)
    sources = [(p.name, p.read_bytes(), DiskFiles(p.parent)) for p in sorted(COMMUNITY.rglob("*"))
               if p.suffix in (".tmx", ".map", ".json", ".tsx")]
    sources += [(name, data, {}) for name, data in BOARDS.items()]
    module = zip_of({"buildFile.xml": (TEMPLATE / "buildFile.xml").read_bytes(),
                     "images/map.jpg": (TEMPLATE / "images" / "map.jpg").read_bytes(), "a.board": BOARD})
    for _ in range(300):
        name, data, files = rng.choice(sources)
        result = convert(name, mutated(data, rng), files=files)
        assert "import-failed" not in codes(result.findings), (name, result.findings)
        if result.doc is not None:
            mapfile.parse(result.doc)
    for _ in range(100):
        for upload in expand(rng.choice(["m.vmod", "m.zip"]), mutated(module, rng), LIMITS):
            assert "import-failed" not in codes(convert_upload(upload, limits=LIMITS).findings)


def test_an_external_dtd_is_never_fetched():
    """Old Tiled files name Tiled's DTD; it is not fetched (nothing listens on port 9), the map still imports."""
    data = (b'<?xml version="1.0"?><!DOCTYPE map SYSTEM "http://127.0.0.1:9/map.dtd"><map orientation="hexagonal" '
            b'width="1" height="1" tilewidth="14" tileheight="12" hexsidelength="6"><layer name="a" width="1" '
            b'height="1"><data encoding="csv">0</data></layer></map>')
    result = convert("old.tmx", data)
    assert result.doc is not None and "xml-external" not in codes(result.findings)
