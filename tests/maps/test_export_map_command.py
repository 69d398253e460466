"""export_map as a designer runs it: real files, the commands run in this process. A Tiled export read back by
import_map is the same map; the vector prints are true size; bad options are refused naming the option."""

import io
import json
import xml.etree.ElementTree as ET
import zipfile

import pytest
from pypdf import PdfReader

from engine import mapfile
from tests.maps.test_commands import ROOT
from tests.maps.test_commands import manage as process


class Ran:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def manage(*args):
    """A command run in this process, as the designer's shell would see it: its exit code, stdout and stderr (the
    process itself is tested in tests/maps/test_commands.py)."""
    from django.core.management import call_command

    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(*map(str, args), stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return Ran(code, out.getvalue(), err.getvalue())

SAMPLES = sorted((ROOT / "maps" / "samples").glob("*.json"))


def same_map(a, b):
    cells_a, sides_a = a.resolved()
    cells_b, sides_b = b.resolved()
    default = a.default_cell()

    def look(cells, col, row):
        cell = cells.get((col, row), default)
        return tuple(cell.terrain), cell.level, cell.storeys
    return (a.grid == b.grid and a.ruleset == b.ruleset and sides_a == sides_b
            and all(look(cells_a, c, r) == look(cells_b, c, r) for c, r in a.grid.hexes()))


@pytest.mark.parametrize("path", [SAMPLES[0], SAMPLES[1]], ids=lambda p: p.stem)  # pointy, then flat
def test_a_vassal_module_of_a_map_imported_back_has_its_grid_and_labels(tmp_path, path):
    out = tmp_path / "map.vmod"
    proc = manage("export_map", path, "--format", "vassal", "--out", out, "--hex-mm", "16")
    assert proc.returncode == 0, proc.stderr
    back = tmp_path / "back.json"
    proc = manage("import_map", out, "--ruleset", mapfile.parse(path.read_text()).ruleset, "--out", back)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    source, read = mapfile.parse(path.read_text()), mapfile.parse(back.read_text())
    assert (read.grid.columns, read.grid.rows, read.grid.orientation, read.grid.labels) == (
        source.grid.columns, source.grid.rows, source.grid.orientation, source.grid.labels)
    assert [read.grid.label(c, r) for c, r in read.grid.hexes()] == [source.grid.label(c, r)
                                                                      for c, r in source.grid.hexes()]


@pytest.mark.parametrize("path", [SAMPLES[0], SAMPLES[1]], ids=lambda p: p.stem)  # pointy, then flat
def test_a_tiled_export_imported_back_with_import_map_is_the_same_map(tmp_path, path):
    out = tmp_path / "map.zip"
    proc = manage("export_map", path, "--format", "tiled", "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert zipfile.is_zipfile(out)
    back = tmp_path / "back.json"
    proc = manage("import_map", out, "--out", back)  # no --ruleset: the map's own property names it
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "warning:" not in proc.stdout and "0 warnings" in proc.stdout
    assert same_map(mapfile.parse(path.read_text()), mapfile.parse(back.read_text()))

    # The TMX on its own, its tileset images written beside it, reads back the same.
    tmx = tmp_path / "beside" / "board.tmx"
    tmx.parent.mkdir()
    assert manage("export_map", path, "--format", "tiled", "--out", tmx).returncode == 0
    assert sorted(p.name for p in tmx.parent.iterdir()) == ["board-levels.png", "board-terrain.png", "board.tmx"]
    assert manage("import_map", tmx, "--out", back).returncode == 0
    assert same_map(mapfile.parse(path.read_text()), mapfile.parse(back.read_text()))


def test_the_vector_prints_at_the_hex_size_asked(tmp_path):
    svg, pdf = tmp_path / "map.svg", tmp_path / "map.pdf"
    assert manage("export_map", SAMPLES[1], "--format", "svg", "--out", svg, "--hex-mm", "25.4").returncode == 0
    assert manage("export_map", SAMPLES[1], "--format", "pdf", "--out", pdf, "--hex-mm", "25.4").returncode == 0
    root = ET.parse(svg).getroot()
    width = float(root.get("width")[:-2])
    page = PdfReader(io.BytesIO(pdf.read_bytes())).pages[0]
    assert float(page.mediabox.width) == pytest.approx(width * 72 / 25.4, abs=0.01)
    assert "C4" in page.extract_text()
    default = tmp_path / "default.svg"
    assert manage("export_map", SAMPLES[1], "--format", "svg", "--out", default).returncode == 0
    margins = 10  # 5 mm a side, whatever the hex size
    assert float(ET.parse(default).getroot().get("width")[:-2]) - margins == pytest.approx(
        (width - margins) * 19 / 25.4, abs=1.0)  # 19 mm hexes when none is asked


@pytest.mark.parametrize("args,needle", [
    (["--format", "png"], "argument --format: invalid choice: 'png'"),
    (["--format", "svg", "--hex-mm", "80"], "--hex-mm: hex size must be from 4 to 60 mm, got 80"),
    (["--format", "pdf", "--hex-mm", "two"], "argument --hex-mm: invalid float value"),
])
def test_bad_options_are_refused_naming_the_option(tmp_path, args, needle):
    # as a process: argparse's own refusals (an unknown choice, not a number) are the process's exit and stderr
    proc = process("export_map", SAMPLES[1], "--out", tmp_path / "x", *args)
    assert proc.returncode == 2 and needle in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "x").exists()


def test_a_map_that_is_not_one_is_refused_naming_the_file(tmp_path):
    bad = tmp_path / "bad.json"
    data = json.loads(SAMPLES[1].read_text())
    data["hexes"][0]["terrain"] = ["lava"]
    bad.write_text(json.dumps(data))
    proc = manage("export_map", bad, "--format", "tiled", "--out", tmp_path / "x.zip")
    assert proc.returncode == 2 and "bad.json: invalid map" in proc.stderr and "lava" in proc.stderr
