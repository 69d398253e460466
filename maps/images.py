"""Pictures of maps kept once per content: thumbnails, the map page's PNG, print renders.

A picture is named by what decides every pixel of it: the map's content hash and the styles of its ruleset (a
designer may restyle a custom ruleset without touching the map). So a stored picture is never stale, is never
drawn twice for the same content, and maps with the same content (a duplicate) share it. Files live under
``MEDIA_ROOT/map-images/<kind>/``, written to a temporary name and moved into place, so a reader never sees half
a file.

    images.cached(kind, map, make)   -> PNG bytes: the stored picture, or make(map) drawn now and stored
    images.stored(kind, map)         -> PNG bytes or None, never drawing (for a page that must not wait)
    images.store(kind, map, image)   -> PNG bytes, stored (for a job that drew it)
    images.discard(kind, map)        -> the stored picture removed (a content no map holds any more)
    images.thumbnail(map)            -> PNG bytes of the list pages' thumbnail
"""

import hashlib
import io
import json
import os
import re
import tempfile
from pathlib import Path

from django.conf import settings

from engine import rulesets
from engine.render import thumbnail_of

KIND = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


def folder():
    return Path(settings.MEDIA_ROOT) / "map-images"


def style_key(ruleset_id):
    """A short hash of a ruleset's styles; '-' when the ruleset is unknown (the map draws with fallbacks)."""
    try:
        catalogue = rulesets.get(ruleset_id)
    except KeyError:
        return "-"
    styles = {tid: entry.get("style") for tid, entry in catalogue.terrain.items()}
    return hashlib.sha256(json.dumps(styles, sort_keys=True).encode()).hexdigest()[:12]


def path_of(kind, map):
    if not KIND.match(kind):
        raise ValueError(f"image kind {kind!r}: lower-case letters, digits and '-'")
    return folder() / kind / f"{map.content_hash}-{style_key(map.ruleset)}.png"


def stored(kind, map):
    try:
        return path_of(kind, map).read_bytes()
    except FileNotFoundError:
        return None


def png(image, compress_level=6, dpi=None):
    """PNG bytes; a print says its dpi in the file (pHYs), so it prints at the hex size it was drawn for."""
    out = io.BytesIO()
    extra = {"dpi": (dpi, dpi)} if dpi else {}
    image.save(out, format="PNG", compress_level=compress_level, **extra)
    return out.getvalue()


def store(kind, map, image):
    """Keep a drawn picture (a PIL image or PNG bytes) for this map's content; its PNG bytes."""
    data = image if isinstance(image, bytes) else png(image)
    path = path_of(kind, map)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, partial = tempfile.mkstemp(dir=path.parent, suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
    return data


def discard(kind, map):
    """Remove the stored picture of this content, if there is one."""
    path_of(kind, map).unlink(missing_ok=True)


def cached(kind, map, make):
    """The stored picture, or ``make(map)`` (a PIL image) drawn now and stored. Keep ``make`` bounded in cost:
    a picture that can take long belongs to a job (the map-image kind), with ``stored`` on the request."""
    data = stored(kind, map)
    return data if data is not None else store(kind, map, make(map))


def _draw_thumbnail(map):
    return thumbnail_of(map.mapdoc(), rulesets.get(map.ruleset))


def thumbnail(map):
    """The thumbnail of the list pages: at most render.THUMB_PX pixels, bounded in cost for any map size."""
    return cached("thumb", map, _draw_thumbnail)
