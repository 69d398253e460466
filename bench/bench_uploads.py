"""Issue 17, point 9: what one signed-in designer can store with a hostile sequence of uploads.

The sequence: 15 map files posted to the site's import form at once; 12 board scans (distinct noise PNGs of
about 4 MB each) uploaded in turn onto one map, each replacing the one before; 8 batch uploads of 3 MB.
It prints how many form imports were taken, how many scans were throttled, the scans' upload speed (MB/s:
decoded, checked and stored), how many uploads the storage quota refused, and what is left: the files under
MEDIA_ROOT plus the maps' revisions in the database. HEXSIDE_STORAGE_QUOTA_MB is 20 for the run (code without
a quota ignores it). A fresh folder, SQLite database and filesystem broker (no worker: batches are only queued).
Run: .venv/bin/python bench/bench_uploads.py [--before BYTES]  (BYTES: the "before" storage figure, for the ratio)
"""

import argparse
import io
import json
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
MB = 1024 * 1024


def noise_png(seed, side=1200):
    from PIL import Image

    rng = random.Random(seed)
    image = Image.frombytes("RGB", (side, side), rng.randbytes(side * side * 3))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def disk_bytes(folder):
    return sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", type=int, help="the storage figure of the code before, for the ratio")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="hexside-bench-uploads-"))
    os.environ.update({
        "HEXSIDE_VAR_DIR": str(folder),
        "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
        "CELERY_BROKER_URL": "filesystem://",
        "CELERY_BROKER_DIR": str(folder / "broker"),
        "HEXSIDE_JOBS_QUEUE": f"hexside-bench-{uuid.uuid4().hex[:10]}",
        "HEXSIDE_STORAGE_QUOTA_MB": "20",
        "SECRET_KEY": "hexside-bench-only-key",
        "DEBUG": "0",
    })
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexside.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.test import Client

    from maps.models import Map, MapRevision

    call_command("migrate", verbosity=0, interactive=False)
    user = get_user_model().objects.create_user("hostile", password="x")
    client = Client()
    client.force_login(user)
    from tests.conftest import MAP_DOCUMENT

    text = json.dumps(MAP_DOCUMENT).encode()
    imported = sum(client.post("/maps/import/", {"file": SimpleUploadedFile("m.json", text)}).status_code == 302
                   for _ in range(15))

    from engine import mapfile

    # The scans and batches by a second account (from the same address): the first one's import limit is spent.
    user = get_user_model().objects.create_user("hostile-too", password="x")
    client = Client()
    client.force_login(user)
    map = Map.objects.create_from_doc(user, mapfile.parse(MAP_DOCUMENT))
    scans = [noise_png(seed) for seed in range(12)]
    refused, taken, throttled, started = 0, 0, 0, time.perf_counter()
    for data in scans:
        answer = client.post(f"/api/maps/{map.pk}/background/", {"image": SimpleUploadedFile("s.png", data)})
        if answer.status_code == 200:
            taken += 1
        elif answer.status_code == 429:
            throttled += 1
        elif "storage" in answer.content.decode():
            refused += 1
    seconds = time.perf_counter() - started
    batches = sum(client.post("/api/validations/", {"file": SimpleUploadedFile(
        "b.zip", random.Random(k).randbytes(3 * MB))}).status_code == 202 for k in range(8))
    refused += 8 - batches

    revisions = sum(len(s or b"") + len(json.dumps(c) if c else "")
                    for s, c in MapRevision.objects.values_list("snapshot", "changes"))
    stored = disk_bytes(settings.MEDIA_ROOT) + revisions
    upload_mb = sum(len(d) for d in scans) / MB
    print(f"form imports taken: {imported} of 15")
    print(f"scans taken: {taken} of 12 ({throttled} throttled), batches taken: {batches} of 8, refused for the "
          f"quota: {refused}")
    print(f"scan uploads: {upload_mb / seconds:.1f} MB/s ({upload_mb:.0f} MB in {seconds:.1f} s)")
    line = f"storage used after the sequence: {stored:,} bytes ({stored / MB:.1f} MB)"
    if args.before:
        line += f"; before: {args.before / MB:.1f} MB, ratio {stored / args.before:.3f}"
    print(line)


if __name__ == "__main__":
    main()
