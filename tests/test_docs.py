"""Issue 7, point 10: what the docs say that can be checked mechanically is true. Every `manage.py X` names a
command that exists, every `make X` a target of the Makefile, every `python -m X` a module that is installed,
every file path a file of the repository, and the table of centres in docs/map-format.md the grid's own."""

import importlib.util
import math
import re
from pathlib import Path

import pytest
from django.core.management import get_commands

from engine.hexgrid import Grid

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def mentions(pattern):
    """(doc, match) for every match of a pattern in code spans and code blocks of the docs."""
    found = []
    for doc in DOCS:
        text = doc.read_text()
        code = "\n".join(re.findall(r"```.*?```", text, re.S) + re.findall(r"`[^`\n]+`", text))
        found += [(doc.relative_to(ROOT).as_posix(), m) for m in re.findall(pattern, code)]
    return found


def test_every_manage_py_command_named_exists():
    commands = get_commands()
    named = mentions(r"manage\.py ([a-z_]+)")
    assert named
    assert [(doc, name) for doc, name in named if name not in commands] == []


def test_every_make_target_named_exists():
    targets = set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(), re.M))
    named = mentions(r"\bmake ([a-z][\w-]*)")
    assert named
    assert [(doc, name) for doc, name in named if name not in targets] == []


def test_every_program_run_with_python_m_is_installed():
    named = mentions(r"python -m ([a-z_][\w.]*)")
    assert {"celery", "gunicorn"} <= {name for _, name in named}
    assert [(doc, name) for doc, name in named if importlib.util.find_spec(name) is None] == []


def test_every_file_of_the_repository_named_exists():
    folders = ("bench|tests|maps|jobs|docs|hexside|engine|scenarios|validations|documents|templates|static"
               "|requirements")
    named = mentions(rf"(?<![\w./-])((?:{folders})/[\w./-]+\.\w+)")
    assert named
    assert [(doc, path) for doc, path in named if "*" not in path and not (ROOT / path).exists()] == []


def value(text):
    return {"0": 0.0, "√3/2": math.sqrt(3) / 2}[text.strip()]


def test_every_image_the_docs_show_is_in_docs_images():
    """One folder of pictures: every ![..](..) of the docs and the README is a file under docs/images/."""
    shown = [(doc, (doc.parent / src).resolve()) for doc in DOCS
             for src in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", doc.read_text())]
    assert shown
    images = (ROOT / "docs" / "images").resolve()
    assert [(doc.name, path) for doc, path in shown if not path.is_file() or path.parent != images] == []


def test_the_centre_of_column_0_row_0_is_where_docs_map_format_says():
    rows = re.findall(r"^\s*\| (flat|pointy) \| (odd|even) \| \(([^,]+), ([^)]+)\) \|",
                      (ROOT / "docs/map-format.md").read_text(), re.M)
    assert len(rows) == 4, "docs/map-format.md has a table of the centre of column 0, row 0 per grid"
    for orientation, stagger, x, y in rows:
        centre = Grid(orientation, 3, 3, stagger, "xxyy").centre(0, 0)
        assert centre == pytest.approx((value(x), value(y))), (orientation, stagger)
