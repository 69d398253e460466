"""The command-line tools as a designer runs them: real processes, real files, exit codes and output."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "maps" / "samples").glob("*.json"))


def manage(*args):
    return subprocess.run([sys.executable, "manage.py", *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def test_validate_map_json_reports_every_file(tmp_path):
    broken = tmp_path / "broken.json"
    data = json.loads(SAMPLES[0].read_text())
    data["hexes"][0]["terrain"] = ["no-such-terrain"]
    data["hexes"].append(dict(data["hexes"][1]))
    data["colour"] = "red"
    broken.write_text(json.dumps(data))
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{nope")
    missing = tmp_path / "missing.json"
    proc = manage("validate_map", SAMPLES[0], broken, garbage, missing, "--json")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    report = json.loads(proc.stdout)
    files = {Path(f["file"]).name: f for f in report["files"]}
    assert files[SAMPLES[0].name]["ok"] is True and files[SAMPLES[0].name]["findings"] == []
    codes = {f["code"] for f in files["broken.json"]["findings"]}
    assert codes == {"unknown-terrain", "duplicate-hex", "unknown-key"}
    assert all(f["severity"] == "error" and f["where"] and f["message"] for f in files["broken.json"]["findings"])
    assert [f["code"] for f in files["garbage.json"]["findings"]] == ["bad-json"]
    assert [f["code"] for f in files["missing.json"]["findings"]] == ["unreadable"]


def test_validate_map_passes_the_samples():
    proc = manage("validate_map", *SAMPLES)
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.count(": ok") == len(SAMPLES)


@pytest.mark.parametrize("args,needle", [
    (["los", "nowhere.json", "A1", "B2"], "no such file"),
    (["los", "{bad}", "A1", "B2"], "not valid JSON"),
    (["los", "{sample}", "A1", "ZZ99"], "ZZ99"),
    (["viewshed", "{sample}", "Q0"], "Q0"),
    (["analyze_map", "{invalid}"], "invalid map"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_2(tmp_path, args, needle):
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    invalid = tmp_path / "invalid.json"
    data = json.loads((ROOT / "maps" / "samples" / "hill-112.json").read_text())
    data["grid"]["columns"] = 0
    invalid.write_text(json.dumps(data))
    sample = ROOT / "maps" / "samples" / "hill-112.json"
    args = [str(a).replace("{bad}", str(bad)).replace("{sample}", str(sample)).replace("{invalid}", str(invalid))
            for a in args]
    proc = manage(*args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and needle in lines[0]
