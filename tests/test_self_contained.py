"""The repository stands alone: no tracked file reads or names a folder outside it, the community maps the tests
read are all here with their licences, and docs/importing.md says truly what each of them gives."""

import re
import subprocess
from pathlib import Path

import pytest

from engine.importers import DiskFiles, convert
from tests.data import COMMUNITY
from tests.data.megamek import BOARDS

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile(r"\.\./shared|(?<![\w-])shared/(?:data|spec|rules|seeds|audits)\b"
                     r"|[\"']shared[\"']\s*/\s*[\"'](?:data|spec|rules|seeds|audits)[\"']")
LICENCES = ("LICENSE", "COPYING")


def tracked_files():
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in listed.decode().split("\0") if name]


def test_no_tracked_file_names_a_folder_outside_the_repository():
    files = tracked_files()
    assert ROOT / "README.md" in files
    found = []
    for path in files:
        if not path.is_file() or path == Path(__file__):
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:  # binary
            continue
        text = data.decode("utf-8", "replace")
        found += [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group()}"
                  for m in OUTSIDE.finditer(text)]
    assert found == []


def readme_paths():
    text = (COMMUNITY / "README.md").read_text()
    return [m for m in re.findall(r"^\| `([^`]+)`", text, re.M)]


def test_every_file_the_community_readme_names_is_there_and_every_file_is_named():
    named = readme_paths()
    assert len(named) > 40
    assert [path for path in named if not (COMMUNITY / path).exists()] == []
    listed = {COMMUNITY / path for path in named}
    data = [p for p in COMMUNITY.rglob("*") if p.is_file() and p.name not in ("README.md", "SOURCE.md")
            and not p.name.startswith(LICENCES)]
    assert [p.relative_to(COMMUNITY).as_posix() for p in data
            if p not in listed and p.parent not in listed] == []


def test_every_community_folder_has_its_licence_and_its_source():
    folders = [p for p in COMMUNITY.iterdir() if p.is_dir()]
    assert len(folders) >= 9
    for folder in folders:
        assert any((folder / name).is_file() for name in LICENCES), folder.name
        assert (folder / "SOURCE.md").is_file(), folder.name
        assert f"`{folder.name}/" in (COMMUNITY / "README.md").read_text(), folder.name


def outcome(result):
    """The outcome as docs/importing.md words it, up to the first error's message."""
    errors = [f for f in result.findings if f.severity == "error"]
    if errors:
        return f"refused: {errors[0].code}"
    grid = result.doc["grid"]
    warnings = sorted({f.code for f in result.findings if f.severity == "warning"})
    return (f"imports ({result.source_format}, {grid['columns']}×{grid['rows']} {grid['orientation']}, stagger "
            f"{grid['stagger']})" + (f"; warnings: {', '.join(warnings)}" if warnings else ""))


def documented():
    text = (ROOT / "docs" / "importing.md").read_text()
    section = text[text.index("## The community corpus"):]
    rows = re.findall(r"^\| (`[^`]+`|[^|`]+\.board) \| ([^|]+?)(?: — [^|]*)? \|$", section, re.M)
    return {name.strip("`"): said for name, said in rows}


def test_docs_importing_says_what_each_community_file_and_board_gives():
    said = documented()
    files = sorted(p for p in COMMUNITY.rglob("*") if p.is_file())
    assert set(said) == {p.relative_to(COMMUNITY).as_posix() for p in files} | set(BOARDS)
    for path in files:
        result = convert(path.name, path.read_bytes(), files=DiskFiles(path.parent))
        assert said[path.relative_to(COMMUNITY).as_posix()] == outcome(result), path
    for name, data in BOARDS.items():
        assert said[name] == outcome(convert(name, data)), name


@pytest.mark.parametrize("text", ["see ../shared/spec/los.md", "(`shared/audits/catalogue-audit.md`)",
                                  'ROOT.parent / "shared" / "data" / "community"'])
def test_the_check_catches_a_path_outside(text):
    assert OUTSIDE.search(text)
