"""Counter sheets (engine/exports/countersheets.py) read back from the PDF: every counter's square on the fronts
page, its back mirrored about the page's middle within 0.1 mm (and moved by the printer's offset), every OOB
line's counters, markers and objectives counted, the TOCS symbols the library's own, and the file opened by pypdf
and poppler without a warning."""

import json
import re
import subprocess
from collections import Counter
from pathlib import Path

import milsymbol
import pytest

from engine.exports import countersheets
from engine.scenarios import scenariofile
from tests.engine.exports.pdfops import painted, reader

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = sorted((ROOT / "authoring" / "samples").glob("*.json"))


@pytest.fixture(scope="module")
def maps():
    return scenariofile.folder_maps(ROOT / "maps" / "samples")


def load(maps, path):
    return scenariofile.parse(json.loads(path.read_text()), maps)


def squares(page, size):
    """Top-left corners (mm from the page's top left) of the filled squares ``size`` mm wide: the counters."""
    height = float(page.mediabox.height) * 25.4 / 72
    out = []
    for op, subpaths, _ in painted(page):
        if op not in (b"f", b"f*", b"B", b"B*"):
            continue
        for points in subpaths:
            xs, ys = [x for x, _ in points], [y for _, y in points]
            if len(points) == 4 and abs(max(xs) - min(xs) - size) < 0.01 and abs(max(ys) - min(ys) - size) < 0.01:
                out.append((min(xs), height - max(ys)))
    return sorted(out)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.7)])
def test_every_back_mirrors_its_front(maps, path, offset, caplog):
    doc = load(maps, path)
    size = countersheets.SIZES["5/8in"]
    pdf, placed = countersheets.sheet_pdf(doc, {s["id"] for s in doc.data["sides"]}, "5/8in", "a4", bleed=1.0,
                                          offset=offset)
    pages = reader(pdf).pages
    width = float(pages[0].mediabox.width) * 25.4 / 72
    assert len(pages) == 2 + 2 * (max(p.page for p in placed) // 2 + 1)
    for number in range(2, len(pages), 2):
        fronts, backs = squares(pages[number], size), squares(pages[number + 1], size)
        here = [p for p in placed if p.page == number - 2]
        assert len(fronts) == len(backs) == len(here)
        for (fx, fy), (lx, ly) in zip(fronts, sorted(p.front for p in here), strict=True):
            assert abs(fx - lx) < 0.01 and abs(fy - ly) < 0.01  # the file holds what the layout says
        mirrored = sorted((width - x - size + offset[0], y + offset[1]) for x, y in fronts)
        for (mx, my), (bx, by) in zip(mirrored, sorted(backs), strict=True):
            assert abs(mx - bx) <= 0.1 and abs(my - by) <= 0.1
    assert not [r for r in caplog.records if r.name.startswith("pypdf")]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_every_oob_line_marker_and_objective_has_its_counters(maps, path):
    doc = load(maps, path)
    sides = {s["id"] for s in doc.data["sides"]}
    pdf, placed = countersheets.sheet_pdf(doc, sides, 12.7, "letter")
    made = Counter(p.counter.ref for p in placed if p.counter.what in ("unit", "dummy"))
    for side in doc.data["sides"]:
        for unit in side["oob"]:
            assert made[unit["id"]] >= unit["count"], (side["id"], unit["id"])
    expected = sum(u["count"] for s in doc.data["sides"] for u in s["oob"])
    assert sum(made.values()) == expected
    markers = sum(m.get("count") or 1 for m in doc.data.get("markers") or [])
    assert sum(1 for p in placed if p.counter.what == "marker") == markers
    assert sum(1 for p in placed if p.counter.what == "objective") == len(doc.data.get("objectives") or [])
    size = 12.7
    assert sum(len(squares(page, size)) for page in reader(pdf).pages[2::2]) == len(placed)


def test_a_side_sheet_holds_only_that_sides_counters(maps):
    doc = load(maps, ROOT / "authoring" / "samples" / "hill-112.json")
    _, placed = countersheets.sheet_pdf(doc, {"british"}, "1in")
    british = {u["id"] for u in doc.side("british")["oob"]}
    german_only = {u["id"] for u in doc.side("german")["oob"]} - british
    units = [p.counter.ref for p in placed if p.counter.what == "unit"]
    assert units and not german_only & set(units)
    assert not [p for p in placed if p.counter.what == "marker"]  # every Hill 112 marker is the German side's


def fills(pdf):
    """Every fill colour set in the pages' content streams, as 0-255 triples."""
    out = Counter()
    for page in reader(pdf).pages:
        for operands, op in page.get_contents().operations:
            if op == b"rg":
                out[tuple(round(float(v) * 255) for v in operands)] += 1
    return out


def test_tocs_symbols_are_the_librarys(maps):
    doc = load(maps, ROOT / "authoring" / "samples" / "groesbeek-heights.json")
    pdf, placed = countersheets.sheet_pdf(doc, {"allied", "german"}, "3/4in")
    with_symbol = [p for p in placed if p.counter.front.symbol]
    assert len(with_symbol) == sum(u["count"] for s in doc.data["sides"] for u in s["oob"])  # every unit's type
    frames = Counter()
    for p in with_symbol:
        svg = milsymbol.Symbol(p.counter.front.symbol, size=100).as_svg()  # the library, asked directly
        frame = tuple(int(v) for v in re.search(r'fill="rgb\((\d+),(\d+),(\d+)\)"', svg).groups())
        frames[frame] += 2  # its front and its back
    found = fills(pdf)
    for colour, count in frames.items():
        assert found[colour] >= count, colour
    # the HQ's symbol is the library's headquarters symbol: a staff below the frame (2525D "HQ" digit 2)
    hq = next(p for p in with_symbol if p.counter.ref == "hq505").counter.front.symbol
    assert hq[7] == "2"


def test_reduced_backs_for_units_with_steps(maps):
    doc = load(maps, ROOT / "authoring" / "samples" / "groesbeek-heights.json")
    _, placed = countersheets.sheet_pdf(doc, {"allied"}, "5/8in")
    for p in placed:
        if p.counter.what == "unit":
            steps = doc.units(doc.side("allied"))[p.counter.ref]["steps"]
            assert p.counter.back.reduced == (steps > 1)
            assert ("reduced" in p.counter.back.values) == (steps > 1)


def test_poppler_reads_the_sheets(maps, tmp_path):
    doc = load(maps, ROOT / "authoring" / "samples" / "oosterbeek-crossroads.json")
    pdf, _ = countersheets.sheet_pdf(doc, {"british", "german"}, "1/2in", "letter")
    path = tmp_path / "counters.pdf"
    path.write_bytes(pdf)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    shown = subprocess.run(["pdftoppm", "-r", "20", "-png", str(path), str(tmp_path / "c")], capture_output=True,
                           text=True, check=True)
    assert info.stderr == "" and shown.stderr == ""
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    assert "FOW" in text and "Dummy" in text  # the AFV dummy: its FOW front and its back (ATS 3.5.2)


@pytest.mark.parametrize(("size", "message"), [("2in", "counter size must be one of"), (80, "from 8 to 40 mm")])
def test_a_bad_size_is_refused_in_words(maps, size, message):
    doc = load(maps, ROOT / "authoring" / "samples" / "hill-112.json")
    with pytest.raises(countersheets.SheetError, match=message):
        countersheets.sheet_pdf(doc, {"german"}, size)
