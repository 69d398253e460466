"""Shared fixtures: users, API clients signed in as them, and maps they own."""

import copy

import pytest
from rest_framework.test import APIClient

from engine import mapfile, rulesets
from maps.custom_rulesets import custom_rulesets
from tests.services import Shared

MAP_DOCUMENT = {
    "format": "hexside-map",
    "version": 1,
    "name": "Hill 112",
    "ruleset": "ost",
    "grid": {"orientation": "flat", "columns": 10, "rows": 8, "stagger": "even", "labels": "letter-number",
             "hex_metres": 50},
    "defaults": {"terrain": ["open"], "level": 0},
    "hexes": [
        {"hex": "C4", "terrain": ["woods"]},
        {"hex": "D5", "level": 1},
        {"hex": "E5", "terrain": ["light-structure"], "storeys": 2,
         "art": [[6.2, 8.1], [6.5, 8.1], [6.5, 8.4], [6.2, 8.4]]},
        {"hex": "F2", "terrain": ["stream", "brush"], "level": -1, "label_note": "ford"},
    ],
    "hexsides": [{"hex": "C4", "side": "SE", "terrain": "hedge"}, {"hex": "G6", "side": "N", "terrain": "stone-wall"}],
    "overlays": [{"id": "H1", "anchor": "H3", "rotation": 2,
                  "hexes": [{"hex": [0, 0], "terrain": ["woods"]}, {"hex": [1, 0], "terrain": ["brush"], "level": 1}],
                  "hexsides": [{"hex": [0, 0], "side": "S", "terrain": "hedge"}]}],
    "extensions": {"studio": {"notes": "free data", "layer": 2}, "author": "designer"},
}


pytest_plugins = ["tests.jobs.fixtures"]  # the job fixtures and the shared worker, for every folder

# What a test asks for that makes it a worker or a browser test, marked so even where its module forgets to say.
NEEDS = {"worker": {"start_worker", "one_worker", "scenario_worker"}, "browser": {"chromium"}}
# The slow ones among the rest, marked `slow`: each starts fresh processes (the command-line tools as a shell runs
# them, imports measured in a process of their own) or takes the largest inputs. `make test` runs them; `make check`,
# the inner loop, leaves them out to stay within its few minutes (docs/testing.md).
SLOW = ("tests/engine/test_import_memory.py::", "tests/maps/test_commands.py::", "tests/test_bounded_errors.py::",
        "tests/scenarios/test_export_scenario_command.py::test_export_scenario_writes",
        "tests/scenarios/test_export_scenario_command.py::test_bad_options",
        "tests/scenarios/test_export_scenario_command.py::test_an_invalid_scenario",
        "tests/scenarios/test_export_scenario_command.py::test_a_bad_kit_option",
        "tests/engine/exports/test_mappages.py::", "tests/engine/exports/test_kit.py::",
        "tests/maps/test_export_map_command.py::test_bad_options",
        "tests/jobs/test_batch_validation.py::test_a_batch_is_converted_to_the_ruleset_chosen",
        "tests/engine/test_overlays_and_drawing.py::test_a_small_print_leaves_out_labels",
        "tests/maps/test_findings_page.py::test_the_page_of_the_largest_map", "tests/test_schemathesis.py::",
        "tests/engine/exports/test_vassal_engine.py::",
        "tests/test_web_tier.py::")


@pytest.hookimpl(tryfirst=True)  # before -m deselects by these marks
def pytest_collection_modifyitems(config, items):
    """The tests with a worker or a browser: marked so, kept in one xdist group (``--dist loadgroup``: one process
    runs them, with one shared worker and one browser, while the others share out the rest), and run one after
    another, the browser tests last (tests.services.Shared stops the worker and the browser after them).

    Playwright's sync API keeps an event loop running in the main thread for as long as its browser is open, and
    the test client cannot run an async view (the job wait) in a thread with a running loop: every test after a
    browser test would get a 500 from GET /api/jobs/<id>/. Served by the ASGI server, as `make run` does, the view
    runs in the server's own loop."""
    for item in items:
        for mark, fixtures in NEEDS.items():
            if fixtures & set(item.fixturenames) and not item.get_closest_marker(mark):
                item.add_marker(mark)
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
        if uses_services(item):
            item.add_marker(pytest.mark.xdist_group("services"))
    items.sort(key=lambda item: (uses_services(item), item.get_closest_marker("browser") is not None))  # stable


def uses_services(item):
    return item is not None and any(item.get_closest_marker(mark) for mark in NEEDS)


class XdistGroups:
    """pytest-xdist 3.8 puts an item in its ``--dist loadgroup`` group by renaming it (``<nodeid>@<group>``) through
    ``item._nodeid``, which pytest 9.2 no longer reads (it keeps a NodeId in ``item._id``): without this copy every
    test is scheduled on its own and the group is spread over all processes. A plugin of its own, so that its hook
    can run after xdist's."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items):
        from _pytest.nodeid import NodeId

        for item in items:
            renamed = getattr(item, "_nodeid", None)
            if renamed and renamed != item.nodeid and hasattr(item, "_id"):
                item._id = NodeId.parse(renamed)


def pytest_configure(config):
    config.pluginmanager.register(XdistGroups(), "xdist-groups-for-pytest-9")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After the last test of the run that shares a worker and a browser, both are stopped, before any other."""
    result = yield
    if not uses_services(nextitem):
        Shared.stop_all()
    return result


@pytest.fixture(autouse=True)
def custom_rulesets_need_a_database(request):
    """engine.rulesets.get() reads custom rulesets from the database on lookup (maps.custom_rulesets); a
    test without database access sees the built-ins and what it registers by hand."""
    if request.node.get_closest_marker("django_db") or {"db", "transactional_db"} & set(request.fixturenames):
        yield
        return
    rulesets.set_loader(None)
    yield
    rulesets.set_loader(custom_rulesets)


@pytest.fixture(autouse=True)
def fresh_throttles():
    """Each test starts with no requests counted against the rate limits (web/throttles.py)."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def map_document():
    """A valid map file (a fresh copy each time): every layer used once."""
    return copy.deepcopy(MAP_DOCUMENT)


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("designer", password="designer-password")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user("rival", password="rival-password")


@pytest.fixture
def api_client():
    """Not signed in."""
    return APIClient()


@pytest.fixture
def user_client(user):
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def other_client(other_user):
    client = APIClient()
    client.force_login(other_user)
    return client


@pytest.fixture
def make_map(map_document):
    """make_map(owner, published=False, **document_changes) -> a stored Map at revision 1."""
    from maps.models import Map

    def make(owner, published=False, **changes):
        data = copy.deepcopy(map_document)
        data.update(changes)
        return Map.objects.create_from_doc(owner, mapfile.parse(data), published=published)

    return make


@pytest.fixture
def user_map(make_map, user):
    return make_map(user, name="Designer's own")


@pytest.fixture
def other_private_map(make_map, other_user):
    return make_map(other_user, name="Rival's secret")


@pytest.fixture
def other_published_map(make_map, other_user):
    return make_map(other_user, published=True, name="Rival's published")
