"""Reading a zip upload (or a VASSAL module, which is a zip) safely: its entries within the limits, each path
kept inside the upload's own folder. Its own module so that the package and the VASSAL importer both use it
without importing each other."""

import io
import stat
import zipfile

from engine.importers import common


def read_zip(data, limits, name="<zip>"):
    """({path: bytes}, [(path, Finding)]) for a zip's safe entries, or (None, [Finding]) when it is refused whole.

    Refused whole: not a zip, too many entries, or more than the total limit once expanded. Left out one by
    one (with a finding each): paths that are absolute or climb out with "..", links, encrypted entries, and
    entries that expand past the per-file limit or the bomb ratio.
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
    entries, problems, total = {}, [], 0
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
            with archive.open(info) as handle:
                content = handle.read(cap + 1)
        except Exception as exc:  # noqa: BLE001 - a damaged entry raises BadZipFile, zlib.error, EOFError, ..
            problems.append((path, common.finding("$", f"the zip entry {path!r} cannot be read ({exc})",
                                                  code="bad-zip")))
            continue
        if len(content) > cap:
            if total + len(content) > limits.max_zip_total_bytes:
                return None, [common.finding("$", "the zip expands to more than "
                                                  f"{limits.max_zip_total_bytes / 1e6:.1f} MB", code="zip-too-large")]
            problems.append((path, common.finding(
                "$", f"the zip entry {path!r} expands past {cap / 1e6:.1f} MB (from {info.compress_size} bytes "
                     "compressed); it is not read", code="zip-bomb")))
            continue
        total += len(content)
        entries[path] = content
    return entries, problems


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
