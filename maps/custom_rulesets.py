"""The rulesets designers added, as rows (maps.models.CustomRuleset) or as files (HEXSIDE_RULESETS_DIR): the
catalogue's loader, which MapsConfig.ready gives engine.rulesets.set_loader.

What this process read is kept, with a lock, and read again only when its row or file changes.
"""

import logging
import threading
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError

from engine import rulesets
from maps.models import CustomRuleset

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_loaded = {}  # ruleset id -> (source, Ruleset) of the custom ones read in this process
_unusable = {}  # id -> source of the ones that could not be read, so that they are not read again until changed


def custom_rulesets():
    """The rulesets designers added, as rows or as files: {id: Ruleset}. The catalogue's loader.

    engine.rulesets.get() calls it whenever a custom id is looked up (MapsConfig.ready registers it), so the API,
    the pages, the workers and the management commands all see the same custom rulesets with nothing to
    remember. Cheap when nothing changed (one small query and a directory listing; a row or file is read again
    only when it changes), and a ruleset saved through another process is seen at its next lookup. A row wins
    over a file of the same id; files are named after their ruleset's id.
    """
    wanted = {}
    for path in _ruleset_files():
        stat = path.stat()
        wanted[path.stem] = ("file", path, (stat.st_mtime_ns, stat.st_size))
    try:
        rows = list(CustomRuleset.objects.values_list("slug", "updated"))
    except DatabaseError as exc:  # e.g. before the first migrate: the files still count
        logger.warning("custom rulesets in the database cannot be read: %s", exc)
        rows = []
    for slug, updated in rows:
        wanted[slug] = ("row", slug, updated)
    builtin = rulesets.builtin_ids()
    with _lock:
        for rid in [rid for rid in _loaded if _loaded[rid][0] != wanted.get(rid)]:
            del _loaded[rid]
        for rid, source in wanted.items():
            if rid in _loaded or _unusable.get(rid) == source:
                continue
            ruleset = _load(*source)
            if ruleset is not None and rid in builtin:
                logger.warning("ruleset %s: %r is a built-in ruleset and is not replaced", source[1], rid)
            elif ruleset is not None and ruleset.id != rid:
                logger.warning("ruleset %s says its id is %r, not %r: not used", source[1], ruleset.id, rid)
            elif ruleset is not None:
                _loaded[rid] = (source, ruleset)
                _unusable.pop(rid, None)
                continue
            _unusable[rid] = source
        return {rid: ruleset for rid, (_, ruleset) in _loaded.items()}


def forget_custom_rulesets():
    """Drop what this process read; the next lookup reads the rows and files again."""
    with _lock:
        _loaded.clear()
        _unusable.clear()


def _ruleset_files():
    folder = getattr(settings, "HEXSIDE_RULESETS_DIR", None)
    if not folder or not Path(folder).is_dir():
        return []
    return sorted(Path(folder).glob("*.json"))


def _load(kind, where, stamp):
    try:
        if kind == "row":
            return rulesets.from_dict(CustomRuleset.objects.get(slug=where).data, where=f"custom ruleset {where}")
        return rulesets.load_file(where)
    except CustomRuleset.DoesNotExist:
        return None
    except rulesets.RulesetError as exc:
        logger.warning("ruleset %s is not usable: %s", where, "; ".join(exc.errors))
        return None
