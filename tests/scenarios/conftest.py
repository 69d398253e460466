"""Scenario fixtures: the sample scenarios read with the sample maps, and a small valid OST scenario to break."""

import copy
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from authoring.models import Scenario
from engine.scenarios import scenariofile
from tests.jobs.fixtures import interactive, launch
from tests.services import Shared

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "authoring" / "samples").glob("*.json"))
SAMPLE_MAPS = ROOT / "maps" / "samples"

SMALL = {
    "format": "hexside-scenario", "version": 1, "title": "Small test", "ruleset": "ost",
    "maps": [{"key": "m", "document": None}],
    "turns": {"count": 6},
    "sides": [
        {"id": "blue", "name": "Blue", "fields": {"gut_check": 7, "impulse": "2D6+3"},
         "oob": [{"id": "sq", "unit": "Rifle Squad", "count": 3}, {"id": "tank", "unit": "Sherman", "class": "tracked"},
                 {"id": "ldr", "unit": "Leader", "leader": True}],
         "setup_zone": ["A1", "A2", "A3", "B1", "B2", "B3"],
         "placements": [{"unit": "sq", "hex": "A1"}, {"unit": "sq", "hex": "A2"}, {"unit": "tank", "hex": "B2"}],
         "reinforcements": [{"turn": 2, "units": [{"unit": "sq", "count": 1}], "edge": "W"}],
         "victory": {"kind": "control", "objectives": ["hill"]}},
        {"id": "red", "name": "Red", "fields": {"gut_check": 8, "impulse": "1D6+2"},
         "oob": [{"id": "sq", "unit": "Rifle Squad", "count": 2}],
         "setup_zone": ["J7", "J8", "I8"],
         "placements": [{"unit": "sq", "hex": "J8"}],
         "victory": {"kind": "eliminate"}}],
    "objectives": [{"id": "hill", "hex": "D5", "name": "Hill", "owner": None}],
}


@pytest.fixture
def sample_maps():
    return scenariofile.folder_maps(SAMPLE_MAPS)


@pytest.fixture
def small(map_document):
    """A valid OST scenario (a fresh copy) on the test map embedded: 10 x 8, woods in C4, level 1 in D5."""
    data = copy.deepcopy(SMALL)
    data["maps"][0]["document"] = map_document
    return data


def parse(data, maps=None):
    return scenariofile.parse(json.loads(json.dumps(data)), maps)


@pytest.fixture
def samples(db):
    call_command("load_samples", stdout=io.StringIO())
    call_command("load_scenario_samples", stdout=io.StringIO())
    return {s.ruleset: s for s in Scenario.objects.all()}


# The job tests' heartbeats are short, to see a lost worker in seconds; these jobs draw cards and trace sight
# lines on a busy machine, and are not about lost workers.
HEARTBEATS = {"HEARTBEAT_SECONDS": 1.0, "HEARTBEAT_TIMEOUT": 60.0}


def scenario_queue(queue_name):
    return f"{queue_name}-scenarios"


@pytest.fixture(scope="session")
def scenario_worker(django_db_setup, jobs_dir, queue_name):
    """One real worker for the scenario jobs (checks, sight lines, cards, exports) of this test process, with
    patient heartbeats, on a queue of its own (tests.services.Shared)."""
    env = {f"HEXSIDE_JOBS_{key}": value for key, value in HEARTBEATS.items()}
    shared = Shared(lambda: launch("scenarios", jobs_dir, scenario_queue(queue_name), env=env),
                    lambda worker: worker.stop())
    yield shared
    shared.stop()


@pytest.fixture
def jobs(scenario_worker, jobs_isolated, queue_name, settings):
    """The jobs run by that worker; a reader asks as many as the test needs."""
    settings.HEXSIDE_THROTTLE_RATES = {**settings.HEXSIDE_THROTTLE_RATES, "jobs": "1000/minute",
                                       "jobs-address": "1000/minute"}
    for key, value in HEARTBEATS.items():
        setattr(settings, f"JOBS_{key}", value)
    settings.JOBS_QUEUE = scenario_queue(queue_name)
    settings.JOBS_INTERACTIVE_QUEUE = interactive(scenario_queue(queue_name))
    return scenario_worker.get()
