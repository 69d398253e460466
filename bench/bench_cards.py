"""Exports through the job layer: the largest sample scenario's card PDF, and a 60 x 40 map's print PNG at 300 dpi.

Each export is asked with jobs.dispatch.submit and run by the export task (authoring.export) with Celery in eager
mode in this process: the job row, the runner, the progress and the stored file are the real ones, only the
broker hop is left out (bench_jobs.py measures that). Times are from submit to the job's success with its file
stored. Aims: card under 2 s, map under 5 s. A second ask of each is answered from the stored file.

Then the cost of long texts (issue 17, point 6): a 200 kB special rule laid out as one paragraph (the card before
the fix; 1 MB took over 282 s) against the runs of cards.texts, and the card with the longest texts the format
allows at every limit at once (limits.py: the texts' budget, every side, OOB line and marker).

Runs in a fresh folder with its own SQLite database. Run: .venv/bin/python bench/bench_cards.py [--repeat 3]
"""

import argparse
import io
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

AIMS = {"card": 2.0, "map": 5.0}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="hexside-bench-cards-"))
    os.environ["HEXSIDE_VAR_DIR"] = str(folder)
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", f"bench-only-{uuid.uuid4().hex}{uuid.uuid4().hex}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexside.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from authoring import scenario_maps
    from authoring.models import Scenario
    from engine.generate import random_map
    from hexside.celery import app
    from jobs import dispatch
    from jobs.models import Job
    from maps.management.commands.load_samples import samples_user
    from maps.models import Map

    app.conf.task_always_eager = True
    quiet = io.StringIO()
    call_command("migrate", verbosity=0, stdout=quiet)
    call_command("load_samples", stdout=quiet)
    call_command("load_scenario_samples", stdout=quiet)

    def timed(kind, parameters, **where):
        start = time.perf_counter()
        job, created = dispatch.submit(kind, parameters, **where)
        job.refresh_from_db()
        seconds = time.perf_counter() - start
        assert created and job.status == Job.Status.SUCCEEDED, (job.status, job.error)
        return seconds, job

    scenario = max(Scenario.objects.all(), key=lambda s: len(json.dumps(s.document)))
    owner = scenario.owner
    pins = [pin.as_parameter() for pin in scenario_maps.maps_for(scenario, owner)]  # as the job view pins them
    times = []
    for k in range(args.repeat):
        seconds, job = timed("export", {"scenario": scenario.pk, "content_hash": scenario.content_hash,
                                        "maps": pins, "format": "pdf", "sheet": "public", "sides": [],
                                        "paper": "a4", "run": k}, subject=scenario, user=owner)  # run: a new request
        times.append(seconds)
    size = job.result["bytes"]
    card = statistics.median(times)
    start = time.perf_counter()
    again, created = dispatch.submit("export", job.parameters, subject=scenario, user=owner)
    stored = time.perf_counter() - start
    print(f"card PDF of {scenario.title!r} (the largest sample): median {card:.2f} s of {args.repeat} "
          f"(aim {AIMS['card']:.0f} s, ratio {card / AIMS['card']:.2f}), {size / 1e3:.0f} kB; "
          f"asked again: {'drawn again' if created else 'the stored file'} in {stored * 1000:.1f} ms")

    doc = random_map("ost", 60, 40, seed=7, name="Bench 60x40")
    map = Map.objects.create_from_doc(samples_user(), doc, published=True)
    times = []
    for k in range(args.repeat):
        # each a new request
        seconds, job = timed("map-export", {"format": "png", "dpi": 300, "hex_mm": 19.0 + k / 1000}, subject=map)
        times.append(seconds)
    png = statistics.median(times)
    print(f"60x40 map at 300 dpi, 19 mm hexes: {job.result['width']} x {job.result['height']} px, "
          f"{job.result['bytes'] / 1e6:.1f} MB PNG; median {png:.2f} s of {args.repeat} "
          f"(aim {AIMS['map']:.0f} s, ratio {png / AIMS['map']:.2f})")
    long_texts()
    return 0


def long_texts():
    import random
    from types import SimpleNamespace

    from reportlab.platypus import SimpleDocTemplate

    from engine.scenarios import cards, limits, scenariofile

    words = "the quick brown fox jumps over a lazy dog while the tanks roll on to the bridge at dawn".split()
    rnd = random.Random(1)

    def prose(n):
        return " ".join(rnd.choice(words) for _ in range(n // 3))[:n]

    def laid_out(flowables):
        start = time.perf_counter()
        SimpleDocTemplate(io.BytesIO()).build(flowables)
        return time.perf_counter() - start

    text = prose(200_000)
    one = laid_out([cards.rich(f"<b>1.</b> {cards.escape(text)}")])  # as the card laid it out before
    runs = laid_out(cards.special_rules(SimpleNamespace(data={"special_rules": [text]})))
    print(f"a 200 kB special rule: one paragraph (before) {one:.2f} s, in runs (after) {runs:.2f} s, "
          f"ratio {runs / one:.3f}")
    mega = laid_out(cards.special_rules(SimpleNamespace(data={"special_rules": [prose(1_048_576)]})))
    print(f"a 1 MB special rule (the format now refuses it): in runs {mega:.2f} s (before: over 282 s, "
          f"ratio {mega / 282:.4f})")

    maps = scenariofile.folder_maps(ROOT / "maps" / "samples")
    data = json.loads((ROOT / "authoring" / "samples" / "hill-112.json").read_bytes())
    data["introduction"] = prose(limits.INTRODUCTION)
    data["special_rules"] = [prose(limits.SPECIAL_RULE) for _ in range(limits.SPECIAL_RULES)]
    first, lines = data["sides"][0], limits.OOB_LINES_ALL // limits.SIDES
    notes = (limits.TEXTS - limits.INTRODUCTION - limits.SPECIAL_RULE * limits.SPECIAL_RULES) \
        // limits.OOB_LINES_ALL - 30  # the rest of the texts' budget, spread over every OOB line
    data["sides"] = [dict(first, id=f"s{k}", name=f"Side {k}", placements=[], reinforcements=[], victory=None,
                          oob=[dict(first["oob"][0], id=f"u{i}", notes=prose(notes)) for i in range(lines)])
                     for k in range(limits.SIDES)]
    data.update(sets_up_first=None, moves_first=None, objectives=[dict(o, owner=None) for o in data["objectives"]])
    data["markers"] = [{k: v for k, v in data["markers"][0].items() if k != "side"}] * limits.MARKERS
    doc = scenariofile.parse(json.dumps(data), maps)
    start = time.perf_counter()
    pdf = cards.card_pdf(doc)
    seconds = time.perf_counter() - start
    print(f"a card at every limit ({limits.prose_length(doc.data):,} characters of text, {limits.SIDES} sides, "
          f"{limits.OOB_LINES_ALL:,} OOB lines, {limits.MARKERS:,} markers): {seconds:.2f} s, {len(pdf) / 1e6:.1f} MB "
          f"PDF (before: a 1 MB special rule alone took over 282 s; ratio {seconds / 282:.3f})")

if __name__ == "__main__":
    sys.exit(main())
