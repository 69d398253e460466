"""Board scans under a map, for tracing a printed board: checked with Pillow, stored under media beside the map.

The map file only names the image (its `background` entry, docs/map-format.md); the file lives at
``MEDIA_ROOT/maps/<map id>/scans/<name>``, named by its content's hash so the same scan uploaded twice is one
file and a name never points at other pixels than the ones aligned to it. A map keeps the one scan its
current revision names: a replaced or removed scan's file is deleted once the revision that dropped it is
committed (an earlier revision brought back may then name a scan that is gone: the painter shows none), and a
deleted map's folder goes with it. Each file is an upload decoded whole and written again (decode_scan), its size
read from its header and refused past HEXSIDE_SCAN_MAX_PIXELS first (engine.images), and its bytes count towards
the owner's storage quota (maps.quotas).
"""

import hashlib
import io
import shutil
import warnings
import zlib
from pathlib import Path

from django.conf import settings
from django.db import transaction
from PIL import Image, ImageOps, UnidentifiedImageError

from engine import images, mapfile
from maps import quotas

FORMATS = {"PNG": "png", "JPEG": "jpg"}
CONTENT_TYPES = {"png": "image/png", "jpg": "image/jpeg"}


class ScanError(ValueError):
    """A scan that cannot be used, with a message for the designer."""


def folder(map_id):
    return Path(settings.MEDIA_ROOT) / "maps" / str(map_id) / "scans"


def image_of(doc):
    """The scan a MapDoc's background entry names, or None."""
    return (doc.background or {}).get("image")


def path_of(map_id, name):
    """The file of a scan named in a map's background entry, or None when there is none."""
    if not isinstance(name, str) or not mapfile.BACKGROUND_IMAGE.match(name):
        return None
    path = folder(map_id) / name
    return path if path.is_file() else None


def check(upload):
    """(bytes, extension, (width, height)) of an uploaded PNG or JPEG within the limits, decoded whole and written
    again (decode_scan); ScanError otherwise."""
    limit = settings.HEXSIDE_SCAN_MAX_BYTES
    if upload.size > limit:
        raise ScanError(f"the scan is {upload.size / 1e6:.1f} MB; at most {limit / 1e6:.1f} MB")
    data = upload.read(limit + 1)
    if len(data) > limit:
        raise ScanError(f"the scan is larger than {limit / 1e6:.1f} MB")
    return decode_scan(data, settings.HEXSIDE_SCAN_MAX_PIXELS)


def decode_scan(data, pixels):
    """Decode a PNG or JPEG whole and write it again: (the new file's bytes, extension, size).

    Only the PNG and JPEG readers are tried. The file must end where its image ends (PNG: the IEND chunk, JPEG:
    the EOI marker): bytes behind it are another file riding along (a zip, a page, a script) and are refused, as
    is an image cut short (for a PNG, pixel data short of what its header promises). Every pixel is decoded
    (``verify()`` alone reads no pixels), once the header's size is within ``pixels``. What is stored is written
    again from what was decoded, so no chunk, segment, comment or metadata of the upload survives: a PNG is its
    header, palette and transparency with its pixel rows deflated anew (as fast as copying, and lossless); a
    JPEG is its pixels encoded again (quality JPEG_QUALITY), turned upright as its EXIF said (a turned JPEG holds
    its pixels twice while it turns, so it may have at most half of ``pixels``).
    """
    kind = "PNG or JPEG"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = images.open_image(data, pixels, formats=list(FORMATS), what="the scan")  # its header only
            kind = "JPEG" if image.format == "MPO" else image.format  # MPO: a JPEG with more pictures after it
            end = image_end(data, kind)
            if end is None:
                raise ScanError(f"the {kind} image is cut short: its end ({END_NAMES[kind]}) is missing; upload "
                                "the whole file")
            if data[end:].strip(b"\x00"):
                raise ScanError(f"the scan has {len(data) - end:,} bytes after the end of its {kind} image "
                                "(another file behind the picture); upload the image alone")
            if kind == "PNG":
                stored = rewrite_png(data, end)
                image.load()
            else:
                turned = image.getexif().get(ORIENTATION, 1) in range(2, 9)  # read from the header, no pixel yet
                width, height = image.size
                if turned and 2 * width * height > pixels:
                    raise ScanError(f"the scan is {width} x {height} pixels and turned by its EXIF orientation, "
                                    f"which holds its pixels twice while it is turned upright; at most "
                                    f"{pixels // 2:,} pixels for a turned JPEG. Save it upright and upload it again")
                image.load()
                ImageOps.exif_transpose(image, in_place=True)  # never a copy of an upright scan
                stored = reencode_jpeg(image)
    except ScanError:
        raise
    except images.TooLarge as exc:
        raise ScanError(f"the scan is {exc.width} x {exc.height} pixels ({exc.width * exc.height:,}); at most "
                        f"{pixels:,} pixels" if exc.width else f"the scan has too many pixels; at most {pixels:,}"
                        ) from None
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise ScanError(f"the scan has too many pixels; at most {pixels:,}") from None
    except UnidentifiedImageError:
        raise ScanError("the file is not a PNG or JPEG image; upload a PNG or JPEG") from None
    except Exception as exc:  # noqa: BLE001 - Pillow raises many kinds for a damaged image
        raise ScanError(f"the {kind} image could not be decoded (damaged or cut short: {exc})") from None
    return stored, FORMATS[kind], image.size


END_NAMES = {"PNG": "the IEND chunk", "JPEG": "the EOI marker"}
ORIENTATION = 0x0112  # the EXIF tag of how a JPEG is turned
JPEG_QUALITY = 92


def reencode_jpeg(image):
    if image.mode not in ("L", "RGB", "CMYK"):
        image = image.convert("RGB")
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=JPEG_QUALITY)
    return out.getvalue()


def image_end(data, kind):
    """Where the image of a PNG or JPEG file ends (the byte after IEND or EOI); None when it never does. The
    pictures a phone or a camera puts after a JPEG's own (a multi-picture file's, an HDR gain map) are JPEGs
    whole, each walked to its EOI in turn; they end there too (none of them is kept)."""
    if kind == "PNG":
        return png_end(data)
    end = jpeg_end(data)
    while end is not None and data[end:end + 2] == b"\xff\xd8":
        following = jpeg_end(data[end:])
        if following is None:
            break
        end += following
    return end


def png_end(data):
    pos, size = 8, len(data)
    while pos + 12 <= size:
        length = int.from_bytes(data[pos:pos + 4], "big")
        end = pos + 12 + length
        if end > size:
            return None
        if data[pos + 4:pos + 8] == b"IEND":
            return end
        pos = end
    return None


PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # colour type -> samples per pixel
ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))


def png_chunks(data, end):
    pos = 8
    while pos < end:
        length = int.from_bytes(data[pos:pos + 4], "big")
        yield data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length


PNG_KEPT = (b"IHDR", b"PLTE", b"tRNS")  # what a PNG's pixels need to be read as they were
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_chunk(kind, body):
    return len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")


def rewrite_png(data, end):
    """The PNG again: its header, palette and transparency, and its pixel rows (its IDAT chunks inflated, then
    deflated anew), nothing else. Refused when the rows are short of what the header promises (a PNG cut short
    and closed again decodes without complaint, the missing rows black)."""
    chunks = list(png_chunks(data, end))
    ihdr = dict(chunks).get(b"IHDR", b"")
    if len(ihdr) != 13:
        raise ScanError("the PNG image has no valid header (IHDR)")
    width, height = int.from_bytes(ihdr[0:4], "big"), int.from_bytes(ihdr[4:8], "big")
    depth, colour, interlaced = ihdr[8], ihdr[9], ihdr[12]
    bits = PNG_CHANNELS.get(colour, 4) * depth
    expected = 0
    for x0, y0, dx, dy in ADAM7 if interlaced else ((0, 0, 1, 1),):
        columns, rows = -(-(width - x0) // dx), -(-(height - y0) // dy)
        if columns > 0 and rows > 0:
            expected += rows * (1 + -(-(columns * bits) // 8))
    inflate, deflate, found, pixels = zlib.decompressobj(), zlib.compressobj(6), 0, []
    for kind, body in chunks:
        pending = body if kind == b"IDAT" else b""
        while pending and found < expected:
            rows = inflate.decompress(pending, min(1 << 20, expected - found))
            found += len(rows)
            pixels.append(deflate.compress(rows))
            pending = inflate.unconsumed_tail
    if found < expected:
        raise ScanError(f"the PNG image is cut short: its pixel data holds {found:,} of the {expected:,} bytes "
                        f"its {width} x {height} pixels need")
    pixels.append(deflate.flush())
    first = {}
    for kind, body in chunks:
        if kind in PNG_KEPT:
            first.setdefault(kind, body)
    kept = b"".join(png_chunk(kind, first[kind]) for kind in PNG_KEPT if kind in first)
    return PNG_SIGNATURE + kept + png_chunk(b"IDAT", b"".join(pixels)) + png_chunk(b"IEND", b"")


def jpeg_end(data):
    """Walk the JPEG's segments, and each scan's entropy-coded data up to the next marker, to its EOI."""
    size = len(data)
    if data[:2] != b"\xff\xd8":
        return None
    pos = 2
    while pos < size:
        if data[pos] != 0xFF:
            return None
        while pos < size and data[pos] == 0xFF:
            pos += 1  # fill bytes
        if pos >= size:
            return None
        marker = data[pos]
        pos += 1
        if marker == 0xD9:  # EOI
            return pos
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:
            continue  # markers without a length
        if pos + 2 > size:
            return None
        length = int.from_bytes(data[pos:pos + 2], "big")
        if length < 2:
            return None
        pos += length
        if marker == 0xDA:  # start of scan: entropy-coded data up to a marker that is not a restart or a 0 stuffed
            while True:
                found = data.find(b"\xff", pos)
                if found < 0 or found + 1 >= size:
                    return None
                following = data[found + 1]
                if following == 0 or 0xD0 <= following <= 0xD7:
                    pos = found + 2
                elif following == 0xFF:
                    pos = found + 1
                else:
                    pos = found
                    break
    return None


def scan_name(data, extension):
    """A scan's name, from its content: the same pixels are one file, and a name never points at others."""
    return f"scan-{hashlib.sha256(data).hexdigest()[:20]}.{extension}"


def store(map_id, data, extension):
    """Write the scan beside the map (once per content); its name for the background entry."""
    name = scan_name(data, extension)
    target = folder(map_id)
    target.mkdir(parents=True, exist_ok=True)
    path = target / name
    if not path.exists():
        partial = path.with_suffix(".part")
        partial.write_bytes(data)
        partial.replace(path)
    return name


def first_alignment(grid, size):
    """A starting alignment: the whole grid fitted inside the image, unrotated, half faded."""
    min_x, min_y, max_x, max_y = grid.extent()
    hex_px = min(size[0] / (max_x - min_x), size[1] / (max_y - min_y))
    cx, cy = grid.centre(0, 0)
    return {"origin": [round((cx - min_x) * hex_px, 2), round((cy - min_y) * hex_px, 2)], "hex_px": round(hex_px, 3),
            "rotation": 0.0, "opacity": 0.5}


def copy(from_map_id, to_map_id, name):
    """Copy the scan ``name`` of one map to another's folder (a duplicate): its size, None when there is none."""
    source = path_of(from_map_id, name)
    if source is None:
        return None
    target = folder(to_map_id)
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target / name)
    return source.stat().st_size


def discard(map_id, name):
    """Remove one scan of a map's from storage."""
    path = path_of(map_id, name)
    if path is not None:
        path.unlink(missing_ok=True)


def forget(map_id):
    """Remove a deleted map's scans."""
    shutil.rmtree(folder(map_id).parent, ignore_errors=True)


def forget_deleted(sender, instance, **kwargs):
    """A deleted map's board scans go with it, once the deletion is committed (connected in MapsConfig.ready,
    so that the models never import this module back)."""
    pk = instance.pk
    transaction.on_commit(lambda: forget(pk))


def replaced(map_id, old, new):
    """A revision names another scan (maps.writes): the old file goes once the revision is committed (never if it
    is rolled back); the answer is the new scan's size, counted on the map."""
    if old is not None and old != new:
        transaction.on_commit(lambda: discard(map_id, old))
    path = path_of(map_id, new)
    return path.stat().st_size if path is not None else 0


def stage(owner_id, map_id, grid, data, extension, size, freed=0):
    """Store a checked scan beside a map, once the owner's quota allows it (QuotaExceeded otherwise, nothing
    stored; ``freed``: the bytes of the scan it replaces): (its name, a background entry fitted to the grid)."""
    quotas.check(owner_id, len(data), "this scan", path="image", freed=freed)
    name = store(map_id, data, extension)
    return name, {"image": name, **first_alignment(grid, size)}
