"""export_scenario as a designer runs it: a real process writes the module, and bad options are one line on
stderr naming the option, exit 2."""

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HILL = ROOT / "authoring" / "samples" / "hill-112.json"


def manage(*args):
    return subprocess.run([sys.executable, "manage.py", *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def test_export_scenario_writes_a_module_and_a_sides_module(tmp_path):
    out = tmp_path / "hill.vmod"
    proc = manage("export_scenario", HILL, "--format", "vassal", "--out", out, "--hex-mm", "12")
    assert proc.returncode == 0, proc.stderr
    assert "public module" in proc.stdout and "VASSAL 3.7" in proc.stdout
    with zipfile.ZipFile(io.BytesIO(out.read_bytes())) as z:
        assert "PaK 40" not in z.read("buildFile.xml").decode()  # hidden in the sample
    side = tmp_path / "german.vmod"
    proc = manage("export_scenario", HILL, "--format", "vassal", "--out", side, "--side", "german", "--hex-mm", "12")
    assert proc.returncode == 0, proc.stderr
    with zipfile.ZipFile(io.BytesIO(side.read_bytes())) as z:
        assert "PaK 40" in z.read("buildFile.xml").decode()


@pytest.mark.parametrize("args,needle", [
    (["--side", "french"], "--side: the scenario has no side 'french'"),
    (["--hex-mm", "2"], "--hex-mm: hex size must be from 4"),
    (["--dpi", "900"], "--dpi: dpi must be from 10"),
    (["--format", "tiled"], "invalid choice: 'tiled'"),
])
def test_bad_options_are_one_line_naming_the_option(tmp_path, args, needle):
    proc = manage("export_scenario", HILL, "--format", "vassal", "--out", tmp_path / "x.vmod", *args)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert needle in proc.stderr, proc.stderr
    assert not (tmp_path / "x.vmod").exists()


def test_an_invalid_scenario_names_the_file_and_the_field(tmp_path):
    data = json.loads(HILL.read_text())
    data["sides"][0]["placements"][0]["hex"] = "Z99"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    proc = manage("export_scenario", bad, "--format", "vassal", "--out", tmp_path / "x.vmod")
    assert proc.returncode == 2
    assert "invalid scenario" in proc.stderr and "sides[0].placements[0].hex" in proc.stderr
