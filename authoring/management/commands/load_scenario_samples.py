"""Load the sample scenarios (every *.json in authoring/samples/) as published scenarios of the user "samples".

Run after load_samples (their maps are named by name). Run it as often as you like: a sample is matched to its
scenario by title and changes, as a new revision, only when the file's content differs. A bad file is reported
with its problems; the good ones still load.
"""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from authoring.models import Scenario, library_maps
from engine.scenarios import scenariofile
from maps.management.commands.load_samples import load_files, samples_user


class Command(BaseCommand):
    help = "Load every scenario file in SCENARIO_SAMPLES_DIR as a published scenario owned by the user 'samples'."

    def add_arguments(self, parser):
        parser.add_argument("--dir", type=Path, default=None, help="Another folder of scenario files.")

    def handle(self, *args, **options):
        folder = Path(options["dir"] or settings.SCENARIO_SAMPLES_DIR)
        if not folder.is_dir():
            raise CommandError(f"no scenario samples folder at {folder}")
        owner = samples_user()
        load_files(self, sorted(folder.glob("*.json")),
                   lambda path: scenariofile.parse(path.read_bytes(), library_maps(owner)),
                   lambda doc, path: self.load(owner, doc, path), "scenario file")

    @staticmethod
    def load(owner, doc, path):
        with transaction.atomic():
            scenario = Scenario.objects.select_for_update().filter(owner=owner, title=doc.title).order_by("pk").first()
            if scenario is None:
                return "created", Scenario.objects.create_from_doc(owner, doc, published=True,
                                                                   summary=f"loaded from {path.name}")
            changed = scenario.content_hash != scenariofile.content_hash(doc)
            if changed:
                scenario.commit(doc, owner, f"updated from {path.name}")
            if not scenario.published:
                scenario.published = True
                scenario.save(update_fields=["published", "updated"])
                changed = True
        return ("updated" if changed else "unchanged"), scenario
