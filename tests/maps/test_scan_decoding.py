"""Issue 17, point 12 (board scans): a scan is decoded whole before it is stored; a damaged, cut-short or
oversized image, or one with another file behind it, is refused with a message; what is stored is the pixels
written again, so nothing the upload carried besides them is ever served."""

import io
import random
import struct
import zipfile
import zlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from engine import mapfile
from maps import scans
from maps.models import Map

pytestmark = pytest.mark.django_db


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def raw_png(width, height, rows=None, filter_byte=b"\x00", extra_chunks=()):
    """An RGB PNG written by hand: ``rows`` of pixel data (all of them by default)."""
    header = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    pixels = (filter_byte + b"\x80" * width * 3) * (height if rows is None else rows)
    return (b"\x89PNG\r\n\x1a\n" + header + b"".join(extra_chunks) + chunk(b"IDAT", zlib.compress(pixels))
            + chunk(b"IEND", b""))


def photo(kind="JPEG", size=(120, 90)):
    rng = random.Random(7)
    image = Image.frombytes("RGB", size, bytes(rng.randrange(256) for _ in range(size[0] * size[1] * 3)))
    out = io.BytesIO()
    image.save(out, format=kind)
    return out.getvalue()


def a_zip():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("payload.html", "<script>alert(1)</script>")
    return out.getvalue()


def refusal(data, pixels=60_000_000):
    with pytest.raises(scans.ScanError) as caught:
        scans.decode_scan(data, pixels)
    return str(caught.value)


def test_a_good_png_and_jpeg_are_taken_and_written_again():
    for kind, extension in (("PNG", "png"), ("JPEG", "jpg")):
        data, found, size = scans.decode_scan(photo(kind), 10**6)
        assert found == extension and size == (120, 90)
        assert Image.open(io.BytesIO(data)).format == kind


def test_bytes_after_the_image_are_refused():
    assert "bytes after the end of its PNG image" in refusal(photo("PNG") + a_zip())
    assert "bytes after the end of its JPEG image" in refusal(photo("JPEG") + b"<html><script>x</script></html>")
    assert scans.decode_scan(photo("PNG") + b"\x00" * 16, 10**6)[1] == "png"  # padding is not a file


def test_a_multi_picture_jpeg_is_taken_as_its_first_picture():
    first, second = Image.new("RGB", (64, 48), (200, 10, 10)), Image.new("RGB", (64, 48), (10, 10, 200))
    out = io.BytesIO()
    first.save(out, format="MPO", save_all=True, append_images=[second])  # as phones write depth or HDR maps
    data, extension, size = scans.decode_scan(out.getvalue(), 10**6)
    stored = Image.open(io.BytesIO(data))
    assert extension == "jpg" and stored.format == "JPEG" and size == (64, 48)
    assert stored.getpixel((32, 24))[0] > 150 and len(data) < len(out.getvalue())
    assert "bytes after the end of its JPEG image" in refusal(out.getvalue() + a_zip())


def test_cut_short_images_are_refused():
    png, jpeg = photo("PNG"), photo("JPEG")
    assert "cut short" in refusal(png[:len(png) // 2])
    assert "cut short" in refusal(jpeg[:len(jpeg) // 2])
    message = refusal(raw_png(40, 30, rows=15))  # closed properly, half its rows missing
    assert "cut short" in message and "40 x 30" in message


def test_a_damaged_image_that_verify_passes_is_refused():
    damaged = raw_png(40, 30, filter_byte=b"\x09")  # every chunk's CRC right, the pixel rows nonsense
    Image.open(io.BytesIO(damaged)).verify()  # what the check was before: it reads no pixels
    assert "could not be decoded" in refusal(damaged)


def test_too_many_pixels_are_refused_before_decoding():
    bomb = raw_png(3000, 3000)  # 9 million pixels of one colour in a few kB
    assert len(bomb) < 100_000
    assert "at most 1,000,000 pixels" in refusal(bomb, pixels=1_000_000)
    lying = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 60000, 60000, 8, 2, 0, 0, 0))
    assert "pixels" in refusal(lying + chunk(b"IEND", b""))


def test_other_formats_and_non_images_are_refused():
    assert "upload a PNG or JPEG" in refusal(photo("GIF"))
    assert "upload a PNG or JPEG" in refusal(b"<html><body>not a picture</body></html>")


def test_what_is_stored_carries_nothing_but_pixels(user, user_client, map_document, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    hidden = chunk(b"tEXt", b"Comment\x00<script>alert(document.cookie)</script>")
    upload = raw_png(60, 40, extra_chunks=[hidden])
    map = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    answer = user_client.post(f"/api/maps/{map.pk}/background/", {"image": SimpleUploadedFile("b.png", upload)})
    assert answer.status_code == 200, answer.content
    stored = scans.path_of(map.pk, answer.json()["background"]["image"]).read_bytes()
    assert b"<script>" not in stored and b"tEXt" not in stored
    assert Image.open(io.BytesIO(stored)).tobytes() == Image.open(io.BytesIO(upload)).tobytes()
    served = user_client.get(f"/api/maps/{map.pk}/background/")
    assert served["Content-Type"] == "image/png" and served["X-Content-Type-Options"] == "nosniff"


def test_a_refused_scan_is_a_400_naming_the_field(user, user_client, map_document, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    map = Map.objects.create_from_doc(user, mapfile.parse(map_document))
    answer = user_client.post(f"/api/maps/{map.pk}/background/",
                              {"image": SimpleUploadedFile("b.png", photo("PNG") + a_zip())})
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["path"] == "image" and "another file" in answer.json()["errors"][0]["message"]
    assert not list(tmp_path.rglob("scan-*"))


def test_a_60_megapixel_board_from_a_vassal_module_is_checked_and_written_again_under_600_mb(tmp_path):
    """Issue 27: the worker checks a VASSAL board's image and writes it again as a scan; a JPEG was decoded, then
    copied (upright or not) to be turned: 568 MB for a 60-megapixel board."""
    from tests.engine.test_import_memory import peak_rss_in_child

    make = """if True:
        import sys
        from pathlib import Path
        from PIL import Image
        Image.new("RGB", (7745, 7745), (60, 110, 40)).save(Path(sys.argv[1], "board.jpg"), "JPEG")
    """
    code = """
import io, os, zipfile
from pathlib import Path
os.environ.update(DJANGO_SETTINGS_MODULE="hexside.settings", DEBUG="0", SECRET_KEY="t" * 60)
os.environ.pop("DATABASE_URL", None)
import django
django.setup()
from engine.importers import convert
from maps import scans
from tests.engine.test_import_memory import vassal_module
result = convert("big.vmod", vassal_module(Path(sys.argv[1], "board.jpg").read_bytes()))
(image,) = result.files.values()
stored, extension, size = scans.decode_scan(image, 60_000_000)
print(extension, *size)
"""
    peak, printed = peak_rss_in_child(code, tmp_path, make)
    assert printed == ["jpg", "7745", "7745"]
    assert peak < 450, peak  # the pixels held once (Pillow keeps RGB in 4 bytes a pixel: 240 MB)


def test_a_turned_jpeg_may_have_half_the_pixels_since_turning_holds_them_twice():
    image = Image.new("RGB", (300, 200), (200, 30, 30))
    exif = image.getexif()
    exif[0x0112] = 6  # a quarter turn
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif)
    data, extension, size = scans.decode_scan(out.getvalue(), 120_000)
    assert size == (200, 300) and Image.open(io.BytesIO(data)).getexif().get(0x0112) is None
    message = refusal(out.getvalue(), pixels=100_000)
    assert "turned by its EXIF orientation" in message and "at most 50,000 pixels" in message
