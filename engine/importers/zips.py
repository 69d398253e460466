"""Reading a zip upload (or a VASSAL module, which is a zip) safely: its entries within the limits, each path
kept inside the upload's own folder. Its own module so that the package and the VASSAL importer both use it
without importing each other."""

import io
import stat
import zipfile

from engine.importers import common

CHUNK = 1024 * 1024  # bytes decompressed at a time while an entry is measured


class ZipEntries:
    """The safe entries of a zip by path, each read from the zip when asked for (``get``, ``[path]``) and never
    kept: a zip of 200 MB of tilesets and images costs the memory of the entry in hand, not of them all. Every
    entry listed was measured by read_zip within its limits; it is read again within the same ones."""

    def __init__(self, archive, infos, caps):
        self.archive = archive
        self.infos = infos  # path -> ZipInfo
        self.caps = caps  # path -> bytes it may expand to

    def __contains__(self, path):
        return path in self.infos

    def __iter__(self):
        return iter(self.infos)

    def __len__(self):
        return len(self.infos)

    def keys(self):
        return self.infos.keys()

    def __getitem__(self, path):
        with self.archive.open(self.infos[path]) as handle:
            return handle.read(self.caps[path])

    def get(self, path, default=None):
        if path not in self.infos:
            return default
        try:
            return self[path]
        except Exception:  # noqa: BLE001 - read once already, so only a zip changed under us gets here
            return default

    def head(self, path, size=4096):
        """The first bytes of an entry (enough to tell its format)."""
        with self.archive.open(self.infos[path]) as handle:
            return handle.read(size)


def read_zip(data, limits, name="<zip>"):
    """(ZipEntries, [(path, Finding)]) for a zip's safe entries, or (None, [Finding]) when it is refused whole.

    Refused whole: not a zip, too many entries, or more than the total limit once expanded. Left out one by
    one (with a finding each): paths that are absolute or climb out with "..", links, encrypted entries, and
    entries that expand past the per-file limit or the bomb ratio. Each entry is measured by decompressing it a
    megabyte at a time, whatever its header declares, and nothing of it is kept.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except Exception as exc:  # noqa: BLE001 - a damaged zip raises BadZipFile, OSError, struct.error, ..
        return None, [common.finding("$", f"not a readable zip file ({exc})", code="bad-zip")]
    files = [i for i in infos if not i.is_dir()]
    if len(files) > limits.max_zip_entries:
        return None, [common.finding("$", f"the zip holds {len(files)} files; at most {limits.max_zip_entries} "
                                          "are read", code="zip-too-many-entries")]
    declared = sum(i.file_size for i in files)
    if declared > limits.max_zip_total_bytes:
        return None, [common.finding("$", f"the zip expands to {declared / 1e6:.1f} MB; at most "
                                          f"{limits.max_zip_total_bytes / 1e6:.1f} MB", code="zip-too-large")]
    kept, caps, problems, total = {}, {}, [], 0
    for info in files:
        path = safe_zip_path(info.filename)
        if path is None:
            problems.append((info.filename, common.finding(
                "$", f"the zip entry {info.filename!r} tries to leave the upload's own folder; it is not read",
                code="zip-path-escapes")))
            continue
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            problems.append((path, common.finding("$", f"the zip entry {path!r} is a link; links are not followed",
                                                  code="zip-link")))
            continue
        if info.flag_bits & 0x1:
            problems.append((path, common.finding("$", f"the zip entry {path!r} is encrypted", code="zip-encrypted")))
            continue
        cap = min(limits.max_bytes, max(info.compress_size, 1) * limits.max_zip_ratio,
                  limits.max_zip_total_bytes - total)
        try:
            size = measure(archive, info, cap + 1)
        except Exception as exc:  # noqa: BLE001 - a damaged entry raises BadZipFile, zlib.error, EOFError, ..
            problems.append((path, common.finding("$", f"the zip entry {path!r} cannot be read ({exc})",
                                                  code="bad-zip")))
            continue
        if size > cap:
            if total + size > limits.max_zip_total_bytes:
                return None, [common.finding("$", "the zip expands to more than "
                                                  f"{limits.max_zip_total_bytes / 1e6:.1f} MB", code="zip-too-large")]
            problems.append((path, common.finding(
                "$", f"the zip entry {path!r} expands past {cap / 1e6:.1f} MB (from {info.compress_size} bytes "
                     "compressed); it is not read", code="zip-bomb")))
            continue
        total += size
        kept[path], caps[path] = info, size
    return ZipEntries(archive, kept, caps), problems


def measure(archive, info, limit):
    """How many bytes an entry expands to, stopping at ``limit``; a megabyte in memory at a time."""
    size = 0
    with archive.open(info) as handle:
        while size < limit:
            chunk = handle.read(min(CHUNK, limit - size))
            if not chunk:
                break
            size += len(chunk)
    return size


def safe_zip_path(name):
    """The entry's path inside the zip, or None when it is absolute or climbs out of it."""
    name = name.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return None
    parts = []
    for part in name.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
            continue
        parts.append(part)
    return "/".join(parts) or None
