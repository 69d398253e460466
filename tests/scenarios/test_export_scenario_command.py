"""export_scenario as a designer runs it: a real process writes the module, and bad options are one line on
stderr naming the option, exit 2."""

import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.engine.exports import vassal_decode
from tests.maps.test_import_commands import run as run_here  # the command in this process: the test database

ROOT = Path(__file__).resolve().parents[2]
HILL = ROOT / "authoring" / "samples" / "hill-112.json"


def manage(*args):
    return subprocess.run([sys.executable, "manage.py", *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def setup_text(path):
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as z:
        build = z.read("buildFile.xml").decode()
        setup = re.search(r'file="([^"]+\.vsav)"', build).group(1)
        return build, "\x1b".join(vassal_decode.saved_game(z.read(setup)))


def test_export_scenario_writes_a_module_and_a_sides_module(tmp_path):
    out = tmp_path / "hill.vmod"
    proc = manage("export_scenario", HILL, "--format", "vassal", "--out", out, "--hex-mm", "12")
    assert proc.returncode == 0, proc.stderr
    assert "the module both sides play" in proc.stdout and "VASSAL 3.7" in proc.stdout
    build, setup = setup_text(out)
    assert "<entry>German</entry>" in build and "<entry>British</entry>" in build
    assert "PaK 40" in setup and "PaK 40" not in build  # hidden in the sample: masked on the map, in no palette
    side = tmp_path / "british.vmod"
    proc = manage("export_scenario", HILL, "--format", "vassal", "--out", side, "--side", "british", "--hex-mm", "12")
    assert proc.returncode == 0, proc.stderr and "British's view" in proc.stdout
    assert "PaK 40" not in setup_text(side)[1]  # a print of what the British reader may see


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


# -- a scenario as the page downloads it: its maps named by library id (issue 32 point 5) ------------------------

@pytest.fixture
def downloaded(user_client, user_map, tmp_path, small):
    """The page's download of a scenario on the designer's private library map."""
    small["maps"] = [{"key": "m", "id": user_map.pk}]
    created = user_client.post("/api/scenarios/", {"document": small}, format="json")
    assert created.status_code == 201, created.json()
    response = user_client.get(f"/api/scenarios/{created.json()['id']}/export/")
    assert response.status_code == 200
    path = tmp_path / "downloaded.json"
    path.write_bytes(b"".join(response.streaming_content) if response.streaming else response.content)
    assert '"id"' in path.read_text()
    return path


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["export_scenario", "export_card", "validate_scenario"])
def test_the_pages_own_download_is_read_with_its_designers_maps(downloaded, tmp_path, user, command):
    out = tmp_path / ("x.vmod" if command == "export_scenario" else "x.pdf")
    extra = {"export_scenario": ["--format", "vassal", "--out", out], "export_card": ["--out", out],
             "validate_scenario": []}[command]
    code, stdout, stderr = run_here(command, downloaded, *extra, "--user", user.username)
    assert code in (0, None), stderr
    assert "cannot be looked up" not in stdout + stderr
    if command != "validate_scenario":
        assert out.exists() and out.stat().st_size > 1000
    code, stdout, stderr = run_here(command, downloaded, *extra)  # without --user: the map is private
    assert code != 0
    assert "--user" in stdout + stderr and "Traceback" not in stderr


@pytest.mark.django_db
def test_a_published_library_map_needs_no_user(user_client, other_published_map, tmp_path, small):
    small["maps"] = [{"key": "m", "id": other_published_map.pk}]
    created = user_client.post("/api/scenarios/", {"document": small}, format="json")
    assert created.status_code == 201, created.json()
    path = tmp_path / "s.json"
    path.write_bytes(user_client.get(f"/api/scenarios/{created.json()['id']}/export/").getvalue())
    code, _, stderr = run_here("export_scenario", path, "--format", "vassal", "--out", tmp_path / "s.vmod")
    assert code in (0, None), stderr
    code, _, stderr = run_here("export_scenario", path, "--format", "vassal", "--out", tmp_path / "s.vmod",
                               "--user", "nobody-at-all")
    assert code == 2 and "--user: no user named 'nobody-at-all'" in stderr


def kit_texts(path):
    """{file name: its text} of a kit: each PDF's text (pdftotext), the README as it is."""
    out = {}
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            content = z.read(name)
            if name.endswith(".pdf"):
                content = subprocess.run(["pdftotext", "-", "-"], input=content, capture_output=True,
                                         check=True).stdout
            out[name] = " ".join(content.decode().split())
    return out


def test_export_scenario_writes_the_designers_kit_and_a_sides_kit(tmp_path):
    out = tmp_path / "kit.zip"
    proc = manage("export_scenario", HILL, "--format", "kit", "--out", out, "--hex-mm", "12",
                  "--counter-size", "1/2in", "--paper", "letter")
    assert proc.returncode == 0, proc.stderr
    assert "the designer's kit (every side)" in proc.stdout
    texts = kit_texts(out)
    assert {"02-sheet-German.pdf", "02-sheet-British.pdf", "04-counters-German.pdf",
            "04-counters-British.pdf", "03-map-pages.pdf", "01-public-card.pdf"} <= set(texts)
    assert "sets up in R11 facing NW; hidden" in texts["02-sheet-German.pdf"]  # the German sheet: the PaK's hex
    assert "R11" not in texts["01-public-card.pdf"].split("Setup zone")[0].split("PaK 40")[-1][:80]
    assert "print at 100 %" in texts["03-map-pages.pdf"] and "LETTER" in texts["README.txt"]
    side = tmp_path / "british.zip"
    proc = manage("export_scenario", HILL, "--format", "kit", "--out", side, "--side", "british", "--hex-mm", "12")
    assert proc.returncode == 0, proc.stderr
    mine = kit_texts(side)
    assert not [name for name in mine if "German" in name]  # no German sheet, no German counters
    joined = " ".join(mine.values())
    assert "R11 facing" not in joined and "O9;" not in joined and "Mines" not in joined  # German secrets


@pytest.mark.parametrize("args,needle", [
    (["--counter-size", "3in"], "--counter-size or --offset: counter size must be one of 1/2in"),
    (["--offset-x", "25"], "offsets must each be from -10 to 10 mm"),
    (["--side", "french"], "--side: this scenario has no side 'french'"),
    (["--paper", "a3"], "invalid choice: 'a3'"),
])
def test_a_bad_kit_option_is_one_line_naming_it(tmp_path, args, needle):
    proc = manage("export_scenario", HILL, "--format", "kit", "--out", tmp_path / "x.zip", *args)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert needle in proc.stderr, proc.stderr
    assert not (tmp_path / "x.zip").exists()
