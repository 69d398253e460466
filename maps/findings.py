"""A stored map's findings (docs/validation.md): its format warnings and map checks, worked out once per content
and kept summarised, so that no page view costs in proportion to how much a map has wrong with it.

A 500 x 500 map may have hundreds of thousands of findings (every hex listed with only the defaults, say); the
map page once listed and outlined every one on each view (112 MB of HTML, 36 s). Now a map's findings are
checked once per content (its hash, and what its ruleset says: a custom one may change) and kept as files under
``MEDIA_ROOT/findings/<key>/``: ``summary.json`` (how many of each kind and severity, the first FIRST_SHOWN, and
the map's contents counted) and the whole list in parts of PART_SIZE (``part-<n>.json.z``, deflated JSON: a
finding's words repeat), written to a temporary folder and moved into place so a reader never sees half of it.
Only the latest HEXSIDE_FINDINGS_KEPT contents' findings are kept (each edit is new content); older ones are
checked again if asked for. The page reads the summary; the API pages through
the parts (FindingsPagination), reading only the parts a page needs.

A map of up to HEXSIDE_FINDINGS_WAIT_HEXES hexes is checked on the request that first asks (its checks take
a few milliseconds); a larger one by a ``map-findings`` job, once, whoever asks meanwhile being told so.
"""

import datetime
import hashlib
import json
import os
import shutil
import tempfile
import time
import zlib
from collections import Counter
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from rest_framework import exceptions, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response

from documents.serializers import Problems, problem
from engine import mapfile, rulesets
from engine import render as map_render
from engine.checks import findings as file_findings
from jobs import dispatch
from jobs.models import Job

# Change when the checks change what they find: findings kept under another version are checked again.
CHECKS_VERSION = 1
PART_SIZE = 1000
FIRST_SHOWN = 50
KINDS_SHOWN = 100
KIND = "map-findings"
PARTIAL_SECONDS = 3600
FAILED_SECONDS = 3600


# -- where a map's findings are kept ------------------------------------------------------------------------

def folder():
    return Path(settings.MEDIA_ROOT) / "findings"


def ruleset_key(ruleset_id):
    """What of the ruleset the checks read: a built-in's id (it changes only with the code, CHECKS_VERSION), or a
    custom profile's whole data hashed; '-' when unknown."""
    try:
        catalogue = rulesets.get(ruleset_id)
    except KeyError:
        return "-"
    if catalogue.builtin:
        return ruleset_id
    return hashlib.sha256(json.dumps(catalogue.as_dict(), sort_keys=True).encode()).hexdigest()[:16]


def key_of(ruleset_id, content_hash):
    """The name the findings of this content under this ruleset are kept by."""
    what = f"{CHECKS_VERSION}\0{ruleset_id}\0{ruleset_key(ruleset_id)}\0{content_hash}"
    return hashlib.sha256(what.encode()).hexdigest()[:40]


class Removed(exceptions.APIException):
    """The findings were removed (pruned) while being read: ask again, and they are checked again."""

    status_code = 503
    default_detail = "the map's findings were just cleared from storage; ask again in a moment"


class StoredFindings:
    """A map's kept findings: the summary at hand, the list read part by part. len() and slices, so Django's
    Paginator pages through it reading only the parts a page needs."""

    def __init__(self, path, summary):
        self.path, self.summary = path, summary

    def __len__(self):
        return self.summary["count"]

    def __getitem__(self, where):
        if not isinstance(where, slice):
            raise TypeError("stored findings are read a slice at a time")
        start, stop, _ = where.indices(len(self))
        out = []
        for part in range(start // PART_SIZE, (stop - 1) // PART_SIZE + 1 if stop > start else 0):
            try:
                found = json.loads(zlib.decompress((self.path / f"part-{part}.json.z").read_bytes()))
            except FileNotFoundError:
                raise Removed() from None
            base = part * PART_SIZE
            out.extend(found[max(start - base, 0):stop - base])
        return out


def stored(key):
    """The findings kept under this key, or None if they are not (yet)."""
    path = folder() / key
    try:
        summary = json.loads((path / "summary.json").read_text())
    except FileNotFoundError:
        return None
    return StoredFindings(path, summary)


def summarise(found, doc):
    """The summary kept beside the list: counts by severity and by kind (code), the first few findings, and the
    map's contents counted (so the page need not read the map)."""
    kinds = Counter((f["code"], f["severity"]) for f in found)
    return {
        "count": len(found),
        "severity": dict(Counter(f["severity"] for f in found)),
        "kinds": [{"code": code, "severity": severity, "count": n}
                  for (code, severity), n in sorted(kinds.items(), key=lambda item: (-item[1], item[0]))],
        "first": found[:FIRST_SHOWN],
        "contents": {"hexes": len(doc.hexes), "hexsides": len(doc.hexsides), "overlays": len(doc.overlays)},
        "defaults": {"terrain": list(doc.default_terrain), "level": doc.default_level},
    }


def store(key, found, doc):
    """Keep a map's findings (dicts, as Finding.as_dict() gives them) under this key; the StoredFindings."""
    path = folder() / key
    folder().mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(dir=folder(), prefix=".part-"))
    try:
        for part in range(0, max(len(found), 1), PART_SIZE):
            text = json.dumps(found[part:part + PART_SIZE]).encode()
            (partial / f"part-{part // PART_SIZE}.json.z").write_bytes(zlib.compress(text, 6))
        summary = summarise(found, doc)
        (partial / "summary.json").write_text(json.dumps(summary))
        try:
            os.rename(partial, path)
        except OSError:
            if not (path / "summary.json").exists():  # not another process that kept the same findings first
                raise
            shutil.rmtree(partial, ignore_errors=True)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    prune()
    return StoredFindings(path, summary)


def prune(keep=None):
    """Remove all but the latest ``keep`` (HEXSIDE_FINDINGS_KEPT) contents' findings, and the partial folders of
    a process that died writing them (an hour old); whatever is removed is checked again if asked for."""
    keep = settings.HEXSIDE_FINDINGS_KEPT if keep is None else keep
    kept, abandoned = [], []
    now = time.time()
    with os.scandir(folder()) as entries:
        for entry in entries:
            try:
                made = entry.stat().st_mtime
            except FileNotFoundError:
                continue
            if not entry.name.startswith(".part-"):
                kept.append((made, entry.path))
            elif now - made > PARTIAL_SECONDS:
                abandoned.append(entry.path)
    kept.sort(reverse=True)
    for path in [path for _, path in kept[keep:]] + abandoned:
        shutil.rmtree(path, ignore_errors=True)


# -- checking a map -----------------------------------------------------------------------------------------

def check(doc):
    """The findings of a MapDoc as dicts, in validate_map's shape plus path, hex and side."""
    # Compiling a map for LOS costs about a second per 25,000 hexes: past the limit, no LOS sample.
    pairs = settings.HEXSIDE_FINDINGS_LOS_PAIRS if doc.grid.size <= settings.HEXSIDE_FINDINGS_LOS_MAX_HEXES else 0
    return [f.as_dict() for f in file_findings.check_map(doc, los_pairs=pairs,
                                                       los_seconds=settings.HEXSIDE_FINDINGS_LOS_SECONDS)]


def check_and_store(key, document):
    """Check a map document (its canonical JSON) and keep its findings: what a map-findings job does."""
    doc = mapfile.parse(document)
    return store(key, check(doc), doc)


class Checking(Exception):
    """The map's findings are being worked out by a job; ask again later."""

    def __init__(self, job):
        self.job = job
        super().__init__(f"the map's checks are running (job {job.pk})")


class CheckFailed(exceptions.APIException):
    """The map-findings job of this content failed lately: not tried again for FAILED_SECONDS, so that visitors
    of a page cannot start a long job that fails on every view."""

    status_code = 503

    def __init__(self, job):
        self.job = job
        super().__init__(f"the map's checks failed ({job.error or 'no reason given'}); they are tried again "
                         f"{FAILED_SECONDS // 60} minutes after")


def map_findings(map, user=None):
    """The StoredFindings of a map as it is now: kept, checked here (a small map), or Checking raised after a
    map-findings job was asked for (dispatch.BrokerUnavailable if none could be)."""
    key = key_of(map.ruleset, map.content_hash)
    found = stored(key)
    if found is not None:
        return found
    if map.hex_grid().size <= settings.HEXSIDE_FINDINGS_WAIT_HEXES:
        doc = map.mapdoc()
        return store(key, check(doc), doc)
    failed = (Job.objects.filter(kind=KIND, request_key=dispatch.request_key(KIND, {"checks": key}),
                                 subject_type="map", subject_id=map.pk, content_hash=map.content_hash,
                                 status=Job.Status.FAILED,
                                 finished__gte=timezone.now() - datetime.timedelta(seconds=FAILED_SECONDS))
              .order_by("-finished").first())
    if failed is not None and dispatch.find_same(KIND, {"checks": key}, subject=map) is None:
        raise CheckFailed(failed)
    job, _ = dispatch.submit(KIND, {"checks": key}, subject=map, user=user)
    if job.status == Job.Status.SUCCEEDED:  # its files were removed from storage: check again
        job.delete()
        job, _ = dispatch.submit(KIND, {"checks": key}, subject=map, user=user)
    raise Checking(job)


# -- the map page -------------------------------------------------------------------------------------------

def highlights(grid, findings):
    """Shapes to lay over the map image (engine/render.py's pixels): each finding's hex, or its hexside."""
    (width, height), px = map_render.image_space(grid)
    shapes = []
    for n, finding in enumerate(findings):
        if not finding.get("hex"):
            continue
        try:
            col, row = grid.parse_hex(finding["hex"])
        except ValueError:
            continue
        shape = {"n": n, "severity": finding["severity"], "code": finding["code"], "hex": finding["hex"],
                 "side": finding.get("side"), "message": finding["message"]}
        if finding.get("side"):
            a, b = (px(p) for p in grid.side_endpoints(col, row, finding["side"]))
            shape["line"] = [round(v, 1) for v in (*a, *b)]
        else:
            shape["points"] = " ".join(f"{x:.1f},{y:.1f}" for x, y in (px(p) for p in grid.corners(col, row)))
        shapes.append(shape)
    return {"width": width, "height": height, "shapes": shapes}


def map_page_context(map, user=None):
    """What the map page shows of the findings: counts by kind, the first FIRST_SHOWN listed and outlined on the
    image, and whether more are to be paged through the API; or that the checks are running."""
    try:
        found = map_findings(map, user)
    except Checking as exc:
        return {"checking": exc.job, "summary": None, "findings": [], "overlay": None}
    except dispatch.BrokerUnavailable:
        return {"checking": "unavailable", "summary": None, "findings": [], "overlay": None}
    except CheckFailed as exc:
        return {"checking": None, "failed": exc.detail, "summary": None, "findings": [], "overlay": None}
    summary = found.summary
    first = summary["first"]
    return {"checking": None, "summary": summary, "findings": first, "kinds": summary["kinds"][:KINDS_SHOWN],
            "more": summary["count"] > len(first), "overlay": highlights(map.hex_grid(), first)}


# -- the API's pages ----------------------------------------------------------------------------------------

class FindingsPagination(PageNumberPagination):
    """Pages of a map's findings, `?page=` from 1 and `?page_size=` (default PART_SIZE, at most 1000); each
    answer carries the counts by severity and by kind. A page that is not there is a 400 naming it."""

    page_size = PART_SIZE
    page_size_query_param = "page_size"
    max_page_size = 1000

    def paginate_queryset(self, queryset, request, view=None):
        self.summary = getattr(queryset, "summary", None)
        raw = request.query_params.get(self.page_query_param, "1")
        try:
            number = int(raw)
        except ValueError:
            raise Problems([problem("page", f"the page must be a whole number from 1, not {raw[:40]!r}")]) from None
        paginator = self.django_paginator_class(queryset, self.get_page_size(request))
        last = paginator.num_pages
        if not 1 <= number <= last:
            raise Problems([problem("page", f"there is no page {number}: the pages run from 1 to {last} "
                                            f"({paginator.count} findings, {paginator.per_page} a page)")])
        self.page = paginator.page(number)
        self.request = request
        return list(self.page)

    def get_paginated_response(self, data):
        summary = self.summary or {}
        return Response({"count": self.page.paginator.count, "next": self.get_next_link(),
                         "previous": self.get_previous_link(), "severity": summary.get("severity", {}),
                         "kinds": summary.get("kinds", []), "findings": data})


# -- the API's shapes, for the schema -----------------------------------------------------------------------

class FindingSerializer(serializers.Serializer):
    severity = serializers.ChoiceField(["error", "warning"])
    code = serializers.CharField(help_text="The kind of finding, e.g. `road-isolated`, `redundant-hex`.")
    where = serializers.CharField()
    path = serializers.CharField(help_text="Its JSON path in the map file.")
    hex = serializers.CharField(allow_null=True, help_text="The hex's label, if it is about a hex.")
    side = serializers.CharField(allow_null=True, help_text="The side of that hex, if it is about a hexside.")
    message = serializers.CharField()


class FindingKindSerializer(serializers.Serializer):
    code = serializers.CharField()
    severity = serializers.CharField()
    count = serializers.IntegerField()


class FindingsPageSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="How many findings the map has in all.")
    next = serializers.URLField(allow_null=True, help_text="The next page, or null on the last.")
    previous = serializers.URLField(allow_null=True)
    severity = serializers.DictField(child=serializers.IntegerField(), help_text="How many of each severity.")
    kinds = FindingKindSerializer(many=True, help_text="How many of each kind (code), most first.")
    findings = FindingSerializer(many=True, help_text="This page's findings, in the checks' order.")


class CheckingSerializer(serializers.Serializer):
    detail = serializers.CharField()
    job = serializers.IntegerField()
    url = serializers.CharField(help_text="Where to follow the map-findings job (GET /api/jobs/<id>/).")
