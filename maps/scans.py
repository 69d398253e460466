"""Board scans under a map, for tracing a printed board: checked with Pillow, stored under media beside the map.

The map file only names the image (its `background` entry, docs/map-format.md); the file lives at
``MEDIA_ROOT/maps/<map id>/scans/<name>``, named by its content's hash so the same scan uploaded twice is one
file and a name never points at other pixels than the ones aligned to it.
"""

import hashlib
import io
import shutil
import warnings
from pathlib import Path

from django.conf import settings
from django.db import transaction
from PIL import Image

from engine import mapfile
from maps.models import apply_edits

FORMATS = {"PNG": "png", "JPEG": "jpg"}
CONTENT_TYPES = {"png": "image/png", "jpg": "image/jpeg"}


class ScanError(ValueError):
    """A scan that cannot be used, with a message for the designer."""


def folder(map_id):
    return Path(settings.MEDIA_ROOT) / "maps" / str(map_id) / "scans"


def path_of(map_id, name):
    """The file of a scan named in a map's background entry, or None when there is none."""
    if not isinstance(name, str) or not mapfile.BACKGROUND_IMAGE.match(name):
        return None
    path = folder(map_id) / name
    return path if path.is_file() else None


def check(upload):
    """(bytes, extension, (width, height)) of an uploaded PNG or JPEG within the limits; ScanError otherwise."""
    limit = settings.HEXSIDE_SCAN_MAX_BYTES
    if upload.size > limit:
        raise ScanError(f"the scan is {upload.size / 1e6:.1f} MB; at most {limit / 1e6:.1f} MB")
    data = upload.read(limit + 1)
    if len(data) > limit:
        raise ScanError(f"the scan is larger than {limit / 1e6:.1f} MB")
    pixels = settings.HEXSIDE_SCAN_MAX_PIXELS
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            size = image.size
            kind = image.format
            if size[0] * size[1] > pixels:
                raise ScanError(f"the scan is {size[0]} x {size[1]} pixels ({size[0] * size[1]:,}); at most "
                                f"{pixels:,} pixels")
            image.verify()
    except ScanError:
        raise
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise ScanError(f"the scan has too many pixels; at most {pixels:,}") from None
    except Exception:  # noqa: BLE001 - Pillow raises many kinds for a file that is not an image
        raise ScanError("the file is not a PNG or JPEG image") from None
    if kind not in FORMATS:
        raise ScanError(f"the scan is a {kind} image; upload a PNG or JPEG")
    return data, FORMATS[kind], size


def store(map_id, data, extension):
    """Write the scan beside the map (once per content); its name for the background entry."""
    name = f"scan-{hashlib.sha256(data).hexdigest()[:20]}.{extension}"
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


def copy(from_map_id, to_map_id):
    """Give a copy of a map (a duplicate) its own copy of the scans its background entry may name."""
    source = folder(from_map_id)
    if source.is_dir():
        shutil.copytree(source, folder(to_map_id), dirs_exist_ok=True)


def forget(map_id):
    """Remove a deleted map's scans."""
    shutil.rmtree(folder(map_id).parent, ignore_errors=True)


def forget_deleted(sender, instance, **kwargs):
    """A deleted map's board scans go with it, once the deletion is committed (connected in MapsConfig.ready,
    so that the models never import this module back)."""
    pk = instance.pk
    transaction.on_commit(lambda: forget(pk))


def attach(map_id, grid, data, extension, size, author, revision=None):
    """Store a checked scan beside the map and name it in the map's background entry, fitted to the whole grid:
    (the new MapRevision, the entry). Raises StaleRevision when ``revision`` is not the current one."""
    name = store(map_id, data, extension)
    entry = {"image": name, **first_alignment(grid, size)}
    return apply_edits(map_id, author, revision, [{"op": "set_background", "background": entry}]), entry
