"""A map's API answer (GET /api/maps/<id>/) kept as a gzip file per map and content, served with an ETag.

A 500 x 500 map's answer is some 14 MB of JSON. Built on every read, it cost seconds of a process holding the
interpreter's lock (the json module's encoder and decoder never let go of it), so six readers of one large map
held up every other request of the web tier. Here the answer is built once per (map, revision, name, publication)
and kept compressed; a reader gets the file a chunk at a time as stored (gzip), or unpacked for a client that
does not take gzip, and a reader whose copy is current gets 304 Not Modified without the document
being read at all. Each map keeps one file, its latest; `make clean` removes them with the rest of var/.
"""

import gzip
import hashlib
import os
import tempfile
import threading
from pathlib import Path

from django.conf import settings
from django.http import FileResponse, HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from rest_framework.renderers import JSONRenderer

CHUNK = 512 * 1024
_building = threading.Lock()  # one build per process at a time: six first readers make one file, not six


def folder():
    return Path(settings.MEDIA_ROOT) / "bodies"


def detail_response(request, map, meta):
    """The map's answer: ``meta`` (its serializer's fields without the document) and the document, as one JSON
    object whose ``document`` is the map file itself, byte for byte; or 304 if the client has this one."""
    head = JSONRenderer().render(meta)
    etag = '"' + hashlib.sha256(head).hexdigest()[:40] + '"'
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        not_modified["ETag"] = etag
        return not_modified
    packed = _opened(map, etag.strip('"'), head)
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = FileResponse(packed, content_type="application/json")
        response.block_size = CHUNK  # read a chunk at a time, each in a thread (hexside/asgi.py): few and large
        response["Content-Encoding"] = "gzip"
    else:  # unpacked whole: a client that takes no gzip is a script or a test, and zlib lets the lock go
        with packed:
            response = HttpResponse(gzip.decompress(packed.read()), content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"  # a browser may keep it, and asks each time whether it changed
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def _opened(map, key, head):
    """The kept file, open: built first if there is none (or a newer revision's build removed it meanwhile)."""
    path = folder() / f"map-{map.pk}-{key}.json.gz"
    for _ in range(3):
        try:
            return path.open("rb")  # open, it stays readable even if a newer build removes it
        except FileNotFoundError:
            _build(map, path, head)
    return path.open("rb")


def _build(map, path, head):
    with _building:
        if path.exists():
            return
        body = head[:-1] + b',"document":' + map.export().encode("utf-8") + b"}"
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".building-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(gzip.compress(body, compresslevel=6, mtime=0))
            os.replace(temporary, path)  # a reader sees the whole file or none
        finally:
            Path(temporary).unlink(missing_ok=True)  # gone already when it was put in place
        forget(map.pk, keep=path)


def forget(map_pk, keep=None):
    """Remove a map's kept answers (a deleted map's), but ``keep``: the one just built."""
    for path in folder().glob(f"map-{map_pk}-*.json.gz"):
        if path != keep:
            path.unlink(missing_ok=True)
