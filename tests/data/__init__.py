"""Test data that ships with the repository: the community corpus (community/, its README for sources and
licences) and the MegaMek boards the tests write themselves (megamek.py)."""

from pathlib import Path

COMMUNITY = Path(__file__).resolve().parent / "community"
