"""The print-and-play kit of every sample (engine/exports/kit.py): the designer's holds every side's sheet and
counters, a side's only its own; every PDF in it opens in poppler and in pypdf (strict) without a warning."""

import io
import json
import logging
import subprocess
import zipfile
from pathlib import Path

import pytest

from engine.exports import kit
from engine.scenarios import scenariofile, visibility
from tests.engine.exports.pdfops import reader

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = sorted((ROOT / "authoring" / "samples").glob("*.json"))


@pytest.fixture(scope="module")
def maps():
    return scenariofile.folder_maps(ROOT / "maps" / "samples")


def opened(content, tmp_path, name):
    """The PDF read by pdfinfo, pdftoppm (its first page) and pypdf strict: what any of them complained of."""
    path = tmp_path / name
    path.write_bytes(content)
    complaints = []
    for command in (["pdfinfo", str(path)], ["pdftoppm", "-r", "12", "-f", "1", "-l", "1", "-png", str(path),
                                             str(tmp_path / "page")]):
        run = subprocess.run(command, capture_output=True, text=True)
        complaints += [run.stderr] if run.returncode or run.stderr else []
    for page in reader(content).pages:
        page.extract_text()
    return complaints


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_the_designers_kit_and_a_sides_kit(maps, path, tmp_path, caplog):
    doc = scenariofile.parse(json.loads(path.read_text()), maps)
    names = [s["name"] for s in doc.data["sides"]]
    caplog.set_level(logging.WARNING)
    whole = zipfile.ZipFile(io.BytesIO(kit.kit_zip(doc, visibility.ALL, hex_mm=9, counter_size="1/2in")))
    files = whole.namelist()
    for name in names:
        assert f"02-sheet-{name}.pdf" in files and f"04-counters-{name}.pdf" in files
    for name in files:
        if name.endswith(".pdf"):
            assert opened(whole.read(name), tmp_path, name) == [], name
    assert not [r.getMessage() for r in caplog.records if r.name.startswith("pypdf")]
    side = doc.data["sides"][0]
    mine = zipfile.ZipFile(io.BytesIO(kit.kit_zip(doc, {side["id"]}, paper="letter", hex_mm=9))).namelist()
    assert [n for n in mine if n.startswith(("02-", "04-"))] == [f"02-sheet-{side['name']}.pdf",
                                                                 f"04-counters-{side['name']}.pdf"]
