"""The layer rules of docs/architecture.md ("What may import what") are import-linter's contracts (.importlinter):
they hold on the tree as it is, and each one fails when a module adds an import it forbids."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["engine", "documents", "jobs", "maps", "authoring", "validations", "hexside", "web"]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(tree):
    """lint-imports run on ``tree`` (its own .importlinter): (return code, what it printed)."""
    done = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=tree, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tree)}, timeout=300)
    return done.returncode, done.stdout + done.stderr


def test_the_tree_keeps_every_layer_contract():
    code, output = lint_imports(ROOT)
    assert code == 0, output
    assert "0 broken" in output


def python_only(folder, names):
    """What copytree leaves out: everything but Python files and folders."""
    return [name for name in names
            if name == "__pycache__" or not (name.endswith(".py") or (Path(folder) / name).is_dir())]


@pytest.fixture(scope="module")
def copy_of_the_tree(tmp_path_factory):
    """The project's packages (their Python files) and the contracts, copied where a test may add a module."""
    tree = tmp_path_factory.mktemp("tree")
    shutil.copy(ROOT / ".importlinter", tree / ".importlinter")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tree / package, ignore=python_only)
    return tree


# (the module added, what it imports, the contract that must then fail)
FORBIDDEN = [
    ("engine/_added.py", "import django", "The engine imports no Django, DRF or Celery"),
    ("jobs/_added.py", "from maps import models", "Each package imports only the floors below it"),
    ("documents/_added.py", "import authoring.models", "Each package imports only the floors below it"),
    ("maps/_added.py", "from validations import models", "Each package imports only the floors below it"),
    ("maps/_added.py", "from hexside import settings", "Each package imports only the floors below it"),
    ("web/_added.py", "from documents import models", "The web helpers import no app"),
    ("engine/mapfile/_added.py", "from engine.los import engine", "Inside the engine, no arrow runs back up"),
    ("engine/checks/_added.py", "from engine import importers", "Inside the engine, no arrow runs back up"),
]


@pytest.mark.parametrize(("module", "line", "contract"), FORBIDDEN, ids=[f"{m} {line}" for m, line, _ in FORBIDDEN])
def test_a_forbidden_import_breaks_its_contract(copy_of_the_tree, module, line, contract):
    added = copy_of_the_tree / module
    added.write_text(f'"""Added by the test."""\n\n\ndef later():\n    {line}  # inside a function still counts\n')
    try:
        code, output = lint_imports(copy_of_the_tree)
    finally:
        added.unlink()
    assert code != 0, output
    broken = output[output.index("Broken contracts"):]
    assert contract in broken and module.removesuffix(".py").replace("/", ".") in broken, output
