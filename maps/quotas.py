"""What one designer may store: a quota (HEXSIDE_STORAGE_QUOTA_MB) over the bytes their maps' revisions, their
board scans and their batch uploads take.

Usage is the sum of sizes kept on rows (Map.stored_bytes, Map.scan_bytes, Scenario.stored_bytes,
BatchValidation.size), never a walk of
the disk, so it is cheap enough to ask before every write. Each kind of stored thing is counted by the app that
owns it, which registers a counter in its AppConfig.ready (maps/apps.py, validations/apps.py): this module imports
no models, and maps imports no app above it.
A write is refused before it is kept with a message that says what is used, what the write needs and what to do.
"""

from django.conf import settings

from engine import mapfile

MB = 1024 * 1024

_counters = {}  # name -> function(user id) -> bytes


class QuotaExceeded(mapfile.MapFormatError):
    """A write past the owner's storage quota: one finding, at ``path``, with the message for the designer (the
    API answers it as any map problem, 400 with the path)."""

    def __init__(self, message, path="$"):
        self.message = message
        super().__init__([mapfile.Finding(path, message, code="storage-quota")])


def register(name, counter):
    """Count a kind of stored thing: ``counter(user_id)`` gives the bytes the user's things of that kind take."""
    _counters[name] = counter


def limit():
    """The quota in bytes, or None when there is none (HEXSIDE_STORAGE_QUOTA_MB = 0)."""
    quota = settings.HEXSIDE_STORAGE_QUOTA_MB
    return int(quota * MB) if quota and quota > 0 else None


def used(user_id):
    """The bytes the user's maps, scans and uploads take."""
    return sum(counter(user_id) for counter in _counters.values())


def usage(user):
    """What a page shows: {"used", "quota" (None: no quota), "percent"}, in bytes."""
    quota, taken = limit(), used(user.pk)
    return {"used": taken, "quota": quota, "percent": min(100, round(100 * taken / quota)) if quota else None}


def amount(n):
    """Bytes as a designer reads them: MB, or kB below one MB."""
    return f"{n / MB:.1f} MB" if n >= MB / 10 else f"{n / 1024:.1f} kB"


def check(user_id, needs, what, path="$", freed=0, taken=None):
    """Refuse (QuotaExceeded) a write of ``needs`` bytes that would take the user past their quota; ``freed``
    bytes go away with it (a replaced scan); ``taken`` is the usage when the caller read it already."""
    quota = limit()
    if quota is None or needs <= freed:
        return
    taken = used(user_id) if taken is None else taken
    if taken - freed + needs > quota:
        raise QuotaExceeded(f"you use {amount(taken)} of your {amount(quota)} of storage; {what} needs "
                            f"{amount(needs)}; delete a map, a scenario, a board scan or a batch validation to free "
                            "space",
                            path=path)
