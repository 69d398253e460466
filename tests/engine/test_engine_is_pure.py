"""The engine imports no Django: every module under engine/ imported in a fresh process leaves Django, DRF and
Celery out of sys.modules, so that the engine runs (and is tested) on its own."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FRAMEWORKS = ("django", "rest_framework", "celery")

IMPORT_ALL = """
import importlib, json, pkgutil, sys
import engine
names = ["engine"] + [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
for name in names:
    importlib.import_module(name)
print(json.dumps({"modules": names, "loaded": sorted(sys.modules)}))
"""


def test_every_engine_module_imports_without_django():
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}  # no DJANGO_SETTINGS_MODULE either
    done = subprocess.run([sys.executable, "-c", IMPORT_ALL], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert "engine.render.map" in result["modules"] and "engine.los.engine" in result["modules"]
    pulled = [name for name in result["loaded"] if name.split(".")[0] in FRAMEWORKS]
    assert pulled == []
