"""Load the sample maps (every *.json in settings.SAMPLES_DIR) as published maps of the user "samples".

Run it as often as you like: a sample is matched to its map by name and the map changes, as a new revision,
only when the file's content differs. A bad file is reported with its findings; the good ones still load.
"""

from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from documents import writing
from engine import mapfile
from maps.models import Map
from maps.state import check_name

SAMPLES_USER = "samples"


class Command(BaseCommand):
    help = "Load every map file in SAMPLES_DIR as a published map owned by the user 'samples'."

    def add_arguments(self, parser):
        parser.add_argument("--dir", type=Path, default=None, help="Another folder of map files.")

    def handle(self, *args, **options):
        folder = Path(options["dir"] or settings.SAMPLES_DIR)
        if not folder.is_dir():
            raise CommandError(f"no samples folder at {folder}")
        owner = samples_user()
        def read(path):
            doc = mapfile.parse(path.read_bytes())
            check_name(doc.name)
            return doc

        load_files(self, sorted(folder.glob("*.json")), read, lambda doc, path: self.load(owner, doc, path),
                   "sample file")

    @staticmethod
    def load(owner, doc, path):
        with transaction.atomic():
            map = Map.objects.select_for_update().filter(owner=owner, name=doc.name).order_by("pk").first()
            if map is None:
                map = Map.objects.create_from_doc(owner, doc, published=True, summary=f"loaded from {path.name}")
                return "created", map
            changed = map.content_hash != mapfile.content_hash(doc)
            if changed:
                writing.replace(map, doc, owner, f"updated from {path.name}")
            if not map.published:
                map.published = True
                map.save(update_fields=["published", "updated"])
                changed = True
        return ("updated" if changed else "unchanged"), map


def samples_user():
    """The owner of the samples: created on first use, with no password (nobody signs in as it)."""
    users = get_user_model().objects
    return users.filter(username=SAMPLES_USER).first() or users.create_user(SAMPLES_USER)


def load_files(command, files, read, load, noun):
    """Read and load each file, reporting each outcome; a bad file is reported with its findings and the others
    still load. ``read(path)`` gives a document or raises FormatError; ``load(doc, path)`` gives (outcome, row)
    with outcome created, updated or unchanged. CommandError at the end names the files not loaded."""
    failed, counts = [], {"created": 0, "updated": 0, "unchanged": 0}
    for path in files:
        try:
            doc = read(path)
        except mapfile.FormatError as exc:
            failed.append(path)
            command.stderr.write(f"{path.name}: {len(exc.errors)} problem{'s' if len(exc.errors) != 1 else ''}")
            for finding in exc.errors:
                command.stderr.write(f"  {finding}")
            continue
        except OSError as exc:
            failed.append(path)
            command.stderr.write(f"{path.name}: cannot be read: {exc.strerror}")
            continue
        outcome, row = load(doc, path)
        counts[outcome] += 1
        command.stdout.write(f"{outcome} {str(row)!r} (revision {row.revision}) from {path.name}")
    command.stdout.write(f"{len(files)} {noun}{'s' if len(files) != 1 else ''}: "
                         + ", ".join(f"{n} {what}" for what, n in counts.items())
                         + (f", {len(failed)} with errors" if failed else ""))
    if failed:
        raise CommandError(f"not loaded: {', '.join(p.name for p in failed)}")
