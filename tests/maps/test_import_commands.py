"""import_map and validate_map on community formats, as a designer runs them (call_command, real files)."""

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command

from engine import mapfile
from tests.data import COMMUNITY
from tests.data.megamek import CITYTECH, DEEP, write_boards

ROOT = Path(__file__).resolve().parents[2]
TILED = COMMUNITY / "adrien-bon+bevy_ecs_tiled" / "maps" / "hexagonal" / "finite_pointy_top_odd.tmx"
VASSAL = COMMUNITY / "jzedwards+vassal-hex-n-counters-template" / "template" / "buildFile.xml"


@pytest.fixture
def boards(tmp_path):
    """MegaMek boards as a designer has them on disk: written into the test's own folder."""
    return write_boards(tmp_path / "boards")


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(*map(str, args), stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


def test_import_map_writes_a_map_validate_map_accepts(tmp_path):
    out = tmp_path / "bevy.json"
    code, stdout, stderr = run("import_map", TILED, "--out", out)
    assert code == 0 and stderr == ""
    assert "tiled map imported as ost (20 x 20 hexes" in stdout
    doc = mapfile.parse(out.read_text())
    assert doc.grid.orientation == "pointy" and doc.extensions["imported"]["format"] == "tiled"
    assert run("validate_map", out)[0] == 0


def test_import_map_writes_the_vassal_board_image_beside_the_map(tmp_path):
    code, stdout, _ = run("import_map", VASSAL, "--out", tmp_path / "board.json")
    assert code == 0
    data = json.loads((tmp_path / "board.json").read_text())
    background = data.get("background") or data["extensions"]["background"]
    assert (tmp_path / background["image"]).read_bytes() == (VASSAL.parent / "images" / "map.jpg").read_bytes()
    assert f"wrote {background['image']}" in stdout


def test_import_map_with_a_ruleset_and_a_mapping(tmp_path, boards):
    mapping = tmp_path / "mine.json"
    mapping.write_text(json.dumps({"ruleset": "ats", "levels": {"scale": 5},
                                   "terrain": {"woods:*": "woods", "pavement:*": "road", "water:*": "creek",
                                               "rough:*": "scrub", "foliage_elev:*": []}}))
    code, stdout, stderr = run("import_map", boards[CITYTECH], "--mapping", mapping, "--out", tmp_path / "ats.json")
    assert code == 0, stdout + stderr
    doc = mapfile.parse((tmp_path / "ats.json").read_text())
    assert doc.ruleset == "ats" and {c.terrain for c in doc.hexes.values()} >= {("woods",), ("road",)}
    assert {c.level for c in doc.hexes.values()} <= {0, 5, 10, 15}


def test_import_map_refuses_with_findings_and_writes_nothing(tmp_path, boards):
    out = tmp_path / "x.json"
    code, stdout, stderr = run("import_map", boards[DEEP], "--out", out)
    assert code == 1 and not out.exists()
    assert "[level-out-of-range]" in stdout
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "nothing written" in lines[0]


@pytest.mark.parametrize("args,needle", [
    (["import_map", "nowhere.tmx", "--out", "{tmp}/x.json"], "no such file"),
    (["import_map", "{board}", "--mapping", "{tmp}/bad.json", "--out", "{tmp}/x.json"], "not valid JSON"),
    (["import_map", "{board}", "--mapping", "nowhere.json", "--out", "{tmp}/x.json"], "no such file"),
    (["validate_map", "{board}", "--mapping", "{tmp}/bad.json"], "not valid JSON"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_2(tmp_path, boards, args, needle):
    (tmp_path / "bad.json").write_text("{oops")
    code, _stdout, stderr = run(*[a.replace("{tmp}", str(tmp_path)).replace("{board}", str(boards[CITYTECH]))
                                  for a in args])
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and needle in lines[0]


def test_validate_map_reads_community_formats_and_zips_of_them(tmp_path, boards):
    board, deep_board = boards[CITYTECH], boards[DEEP]
    archive = tmp_path / "maps.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.write(board, "boards/CityTech.board")
        z.write(deep_board, "boards/Ishiyama.board")
        z.writestr(zipfile.ZipInfo("../escape.board"), board.read_bytes())
    code, stdout, _ = run("validate_map", TILED, archive, board, "--json")
    assert code == 1
    files = {f["file"]: f for f in json.loads(stdout)["files"]}
    assert files[str(TILED)]["ok"] and files[str(board)]["ok"]
    assert files[f"{archive}!boards/CityTech.board"]["ok"]
    deep = files[f"{archive}!boards/Ishiyama.board"]
    # (the rules checks add their warnings about the same board's steep level steps)
    assert not deep["ok"] and [f["code"] for f in deep["findings"] if f["severity"] == "error"] == [
        "level-out-of-range"]
    assert deep["findings"][0]["where"] == "$ (0402)" and deep["findings"][0]["severity"] == "error"
    assert [f["code"] for f in files[f"{archive}!../escape.board"]["findings"]] == ["zip-path-escapes"]
    assert run("validate_map", TILED, board)[0] == 0


def test_validate_map_still_reads_a_hexside_map_whatever_its_name(tmp_path):
    plain = tmp_path / "hill-112"
    plain.write_bytes((ROOT / "maps" / "samples" / "hill-112.json").read_bytes())
    notes = tmp_path / "notes.txt"
    notes.write_text("not a map")
    code, stdout, _ = run("validate_map", plain, notes, "--json")
    files = {f["file"]: f for f in json.loads(stdout)["files"]}
    assert code == 1 and files[str(plain)]["ok"]
    assert [f["code"] for f in files[str(notes)]["findings"]] == ["not-a-map"]


def test_suggest_mapping_then_import_with_it(tmp_path, boards):
    """A MegaMek board whose elevations do not fit OST: the proposal scales them, and the import then passes."""
    proposal = tmp_path / "proposal.json"
    code, stdout, stderr = run("import_map", boards[DEEP], "--ruleset", "ost", "--suggest-mapping", proposal)
    assert code == 0, stdout + stderr
    data = json.loads(proposal.read_text())
    assert data["source"] == "megamek" and data["ruleset"] == "ost"
    assert data["terrain"] and all(0 <= e["confidence"] <= 1 and e["hexes"] for e in data["terrain"].values())
    assert data["levels"]["confidence"] < 1 and "compressed" in data["levels"]["reason"] + stdout
    assert run("import_map", boards[DEEP], "--ruleset", "ost", "--out", tmp_path / "no.json")[0] == 1
    out = tmp_path / "deep.json"
    code, stdout, stderr = run("import_map", boards[DEEP], "--ruleset", "ost", "--mapping", proposal, "--out", out)
    assert code == 0, stdout + stderr
    levels = {c.level for c in mapfile.parse(out.read_text()).hexes.values()}
    assert levels <= set(range(-1, 4)) and len(levels) > 1


def two_board_module(tmp_path):
    """The template module with a second hex board, as a module of several boards is."""
    text = VASSAL.read_text()
    start = text.index('<VASSAL.build.module.map.boardPicker.Board image="map.jpg" name="Map"')
    end = text.index("</VASSAL.build.module.map.boardPicker.Board>", start) + len(
        "</VASSAL.build.module.map.boardPicker.Board>")
    board = text[start:end]
    text = text[:end] + board.replace('name="Map"', 'name="North"') + text[end:]
    module = tmp_path / "two.vmod"
    with zipfile.ZipFile(module, "w") as archive:
        archive.writestr("buildFile.xml", text)
        archive.writestr("images/map.jpg", (VASSAL.parent / "images" / "map.jpg").read_bytes())
    return module


def test_board_picks_one_board_of_a_module(tmp_path):
    module = two_board_module(tmp_path)
    code, _, stderr = run("import_map", module, "--out", tmp_path / "x.json")
    assert code == 2 and "--board NAME" in stderr
    code, stdout, stderr = run("import_map", module, "--board", "North", "--out", tmp_path / "north.json")
    assert code == 0, stdout + stderr
    assert "North" in mapfile.parse((tmp_path / "north.json").read_text()).name
    code, _, stderr = run("import_map", module, "--board", "South", "--out", tmp_path / "y.json")
    assert code == 2 and "no board 'South'" in stderr and "North" in stderr
    code, _, stderr = run("import_map", module, "--board", "North")
    assert code == 2 and "--out MAP.json is required" in stderr


def test_import_map_reads_a_vasl_board_archive_and_writes_its_image(tmp_path):
    from PIL import Image

    picture = io.BytesIO()
    Image.new("RGB", (90, 80), (180, 170, 120)).save(picture, "GIF")
    archive = tmp_path / "bdT"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("BoardMetadata.xml", '<boardMetadata name="T" boardImageFileName="bdT.gif" hasHills="FALSE" '
                                        'width="4" height="3" hexWidth="22.5" hexHeight="25.98" A1CenterX="0" '
                                        'A1CenterY="12.99"/>')
        z.writestr("bdT.gif", picture.getvalue())
    code, stdout, stderr = run("import_map", archive, "--out", tmp_path / "board.json")
    assert code == 0 and stderr == ""
    assert "vasl map imported" in stdout and "los-not-read" in stdout
    doc = mapfile.parse((tmp_path / "board.json").read_text())
    assert (doc.grid.columns, doc.grid.rows, doc.grid.labels) == (4, 3, "letter-number")
    data = json.loads((tmp_path / "board.json").read_text())
    stored = tmp_path / data["background"]["image"]
    assert Image.open(stored).size == (90, 80) and f"wrote {stored.name}" in stdout


def test_import_map_names_the_map_as_asked_or_after_the_module_not_the_buildfile(tmp_path):
    code, _, _ = run("import_map", VASSAL, "--out", tmp_path / "board.json")
    assert code == 0
    # the module's name, not "buildFile Board"
    assert json.loads((tmp_path / "board.json").read_text())["name"] == "Hex'n'Counters template"
    code, _, _ = run("import_map", TILED, "--name", "  Troll valley ", "--out", tmp_path / "named.json")
    assert code == 0 and json.loads((tmp_path / "named.json").read_text())["name"] == "Troll valley"
