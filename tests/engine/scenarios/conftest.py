"""The scenario fixtures of tests/scenarios, for the engine's scenario tests."""

from tests.scenarios.conftest import sample_maps, small  # noqa: F401
