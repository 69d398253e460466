"""The map page of the largest map with every hex wrong (issue 17, point 3): its size and time per view, and
the findings API's pages, against main before this issue (the probe's figures: 112 MB and 36 s a view, about
1 GB of web memory, 184,676 findings listed and outlined).

    .venv/bin/python bench/bench_findings_page.py [--size 500] [--views 3]

Runs against the default database (DATABASE_URL, or the SQLite file), migrating it first, with a media folder
of its own (removed after). Makes a published size x size map whose every hex is listed, most of them wrong
(tests/maps/test_findings_page.py's many_findings), checks it once as its map-findings job does (timed: that
is the worker's cost, once per content), then times anonymous views of the page with the map not in the
process's memory, and the API's pages. The map and user it makes are removed after.
"""

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexside.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from documents.models import forget_states  # noqa: E402
from engine import mapfile  # noqa: E402
from maps import findings  # noqa: E402
from maps.models import Map  # noqa: E402
from tests.maps.test_findings_page import many_findings  # noqa: E402

BENCH_USER = "bench-findings-page"
BEFORE_BYTES, BEFORE_SECONDS = 112 * 1024 * 1024, 36.0  # main, a 500 x 500 map with 184,676 findings
AIM_BYTES, AIM_SECONDS = 1024 * 1024, 1.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=500)
    parser.add_argument("--views", type=int, default=3)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    media = tempfile.mkdtemp(prefix="bench-findings-")
    settings.MEDIA_ROOT = media
    settings.ALLOWED_HOSTS = ["*"]
    User = get_user_model()
    User.objects.filter(username=BENCH_USER).delete()
    user = User.objects.create_user(BENCH_USER)
    try:
        doc = mapfile.parse(many_findings(args.size))
        map = Map.objects.create_from_doc(user, doc, published=True)
        started = time.perf_counter()
        kept = findings.check_and_store(findings.key_of(map.ruleset, map.content_hash), map.document)
        checked = time.perf_counter() - started
        on_disk = sum(f.stat().st_size for f in kept.path.iterdir())
        print(f"{args.size} x {args.size} map, {kept.summary['count']:,} findings: checked and kept once per "
              f"content (the map-findings job, on a worker) in {checked:.1f} s, {on_disk / 1024 / 1024:.1f} MB kept")
        client = Client()
        client.get("/")  # the process's first request (imports, templates, URLs) is not the page's cost
        times, size = [], 0
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        for _ in range(args.views):
            forget_states()  # as a web process that has not read this map
            started = time.perf_counter()
            response = client.get(f"/maps/{map.pk}/")
            times.append(time.perf_counter() - started)
            assert response.status_code == 200, response.status_code
            size = len(response.content)
        listed = response.content.decode().count("<li data-finding")
        rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        view = statistics.median(times)
        print(f"map page (anonymous): {size / 1024:.0f} KB, {listed} findings listed, median {view * 1000:.0f} ms, "
              f"worst {max(times) * 1000:.0f} ms over {args.views} views; peak memory grew "
              f"{rss_after - rss_before:.0f} MB")
        print(f"  before (main): {BEFORE_BYTES / 1024 / 1024:.0f} MB, {BEFORE_SECONDS:.0f} s a view; "
              f"after / before: size {size / BEFORE_BYTES:.5f} ({BEFORE_BYTES / size:.0f} times smaller), "
              f"time {view / BEFORE_SECONDS:.4f} ({BEFORE_SECONDS / view:.0f} times faster)")
        print(f"  aim: under {AIM_BYTES / 1024 / 1024:.0f} MB and {AIM_SECONDS:.0f} s: "
              f"{'met' if size < AIM_BYTES and max(times) < AIM_SECONDS else 'NOT met'}")
        api = []
        for page in (1, 2, kept.summary["count"] // 1000):
            started = time.perf_counter()
            response = client.get(f"/api/maps/{map.pk}/findings/?page={page}&page_size=1000")
            api.append(time.perf_counter() - started)
            assert response.status_code == 200, response.content[:300]
        print(f"findings API, a page of 1000: {len(response.content) / 1024:.0f} KB, median "
              f"{statistics.median(api) * 1000:.0f} ms (pages 1, 2 and the last)")
    finally:
        Map.objects.filter(owner=user).delete()
        user.delete()
        shutil.rmtree(media, ignore_errors=True)


if __name__ == "__main__":
    main()
