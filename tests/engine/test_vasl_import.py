"""VASL boards against VASL's own geometry: the corpus's BoardMetadata.xml files (tests/data/community/
vasl-developers+vasl/) and board archives built here in tmp_path with a small generated image."""

import io
import math
import zipfile

import pytest
from PIL import Image

from engine import mapfile
from engine.hexgrid import Grid
from engine.importers import DiskFiles, convert, detect, expand
from tests.data import COMMUNITY

VASL = COMMUNITY / "vasl-developers+vasl"
BD01 = VASL / "boards" / "src" / "bd01" / "BoardMetadata.xml"
SAMPLE = VASL / "dev documentation" / "BoardMetadata - sample.xml"


def import_file(path):
    return convert(path.name, path.read_bytes(), files=DiskFiles(path.parent))


def vasl_hexes(width, height, hex_width, hex_height, a1x, a1y):
    """{name: (x, y)} of every hex of a board, written after VASL's LOS Map (Map.getHexCenterPoint and
    Map.getGEOHexName, "Normal" configuration): column c holds height + c % 2 hexes, row 0 of an odd column is
    its half hex B0, D0 ..; names are the column's letters (A..Z, AA, BB..) and row + 1 in even columns."""
    out = {}
    for col in range(width):
        letters = chr(ord("A") + col % 26) * (col // 26 + 1)
        for row in range(height + col % 2):
            name = f"{letters}{row + (1 if col % 2 == 0 else 0)}"
            out[name] = (max(a1x, 0.0) + hex_width * col,
                         (hex_height / 2 if a1y < 0 else a1y) + hex_height * row - hex_height / 2 * (col % 2))
    return out


def grid_of(doc):
    return Grid(**{k: doc["grid"][k] for k in ("orientation", "columns", "rows", "stagger", "labels")})


def pixel(doc, col, row):
    """Where the map's hex (col, row) lies on the board image, by the map format's background rule."""
    grid, background = grid_of(doc), doc["background"]
    (mx, my), (cx, cy) = grid.centre(col, row), grid.centre(0, 0)
    return background["origin"][0] + background["hex_px"] * (mx - cx), \
        background["origin"][1] + background["hex_px"] * (my - cy)


def on_map(grid, name):
    try:
        return grid.contains(*grid.parse_label(name))
    except ValueError:
        return False


@pytest.mark.parametrize("path, geometry", [
    (BD01, (56.25, 64.5, 0.0, 32.25)),  # no geometry attributes: VASL's BoardArchive.GEO_* constants
    (SAMPLE, (56.25, 64.47, 22.0, 32.25)),  # hexWidth, hexHeight, A1CenterX and A1CenterY given
])
def test_every_vasl_hex_lies_on_the_board_image_where_vasl_puts_it(path, geometry):
    result = import_file(path)
    assert result.ok, result.findings
    doc = result.doc
    mapfile.parse(doc)
    grid = grid_of(doc)
    assert (grid.orientation, grid.columns, grid.rows, grid.labels) == ("flat", 33, 10, "letter-number")
    vasl = vasl_hexes(33, 10, *geometry)
    assert len(vasl) == 346  # 33 x 10 and the 16 half hexes B0 .. FF0
    left_out = sorted(name for name in vasl if not on_map(grid, name))
    assert left_out == sorted(f"{chr(ord('A') + c % 26) * (c // 26 + 1)}0" for c in range(1, 33, 2))
    assert {grid.label(col, row) for col, row in grid.hexes()} == set(vasl) - set(left_out)
    worst = 0.0
    for name, (vx, vy) in vasl.items():
        if name in left_out:
            continue
        x, y = pixel(doc, *grid.parse_label(name))
        worst = max(worst, math.hypot(x - vx, y - vy))
    # VASL's hexes are 0.7% wider than regular ones: the fit keeps every centre within 3 px (a hex is 56 px wide).
    assert worst < 3.0
    assert doc["extensions"]["vasl"]["max_offset_px"] == pytest.approx(worst, abs=0.01)


def test_a_corpus_board_comes_in_all_open_with_what_is_not_read_said():
    result = import_file(BD01)
    doc = result.doc
    assert result.source_format == "vasl" and doc["hexes"] == [] and doc["hexsides"] == []
    codes = [f.code for f in result.findings]
    assert codes == ["image-missing", "los-not-read", "half-hexes-left-out"]
    missing, los, half = result.findings
    assert "'bd01.gif'" in missing.message and doc["background"]["image"] == "bd01.gif" and result.files == {}
    assert "LOSData" in los.message and "open ground" in los.message and "Paint the terrain" in los.message
    assert "B0, D0, F0 .. FF0" in half.message
    assert doc["name"] == "VASL board 01"
    # VASL's building overrides name hexes by VASL's names, which are the map's labels.
    buildings = doc["extensions"]["vasl"]["building_types"]
    assert buildings["E4"] == "Stone Building, 2 Level"
    grid = grid_of(doc)
    assert all(on_map(grid, name) for name in buildings)


def test_a_board_with_hills_says_its_levels_must_be_painted():
    los = next(f for f in import_file(SAMPLE).findings if f.code == "los-not-read")
    assert "hasHills" in los.message
    assert "hasHills" not in next(f for f in import_file(BD01).findings if f.code == "los-not-read").message


def test_a_vasl_los_raster_alone_is_refused_with_the_way_in():
    result = import_file(BD01.parent / "LOSData")
    assert result.doc is None and [f.code for f in result.findings] == ["not-a-map"]
    assert "BoardMetadata.xml" in result.findings[0].message


# -- a board archive built here ----------------------------------------------------------------------------

def metadata(**attrs):
    base = {"name": "T", "version": "1.0", "boardImageFileName": "bdT.gif", "hasHills": "FALSE", "width": "5",
            "height": "4", "hexWidth": "30", "hexHeight": "34.64", "A1CenterX": "0", "A1CenterY": "17.32"}
    base.update(attrs)
    fields = " ".join(f'{k}="{v}"' for k, v in base.items() if v is not None)
    return (f'<?xml version="1.0"?>\n<!-- test board -->\n<boardMetadata {fields}>\n<buildingTypes>'
            '<buildingType hexName="C2" buildingTypeName="Wooden Building"/></buildingTypes>\n</boardMetadata>\n')


def board_image(fmt="GIF"):
    image = Image.new("RGB", (121, 139), (200, 190, 150))
    out = io.BytesIO()
    image.save(out, fmt)
    return out.getvalue()


def archive(entries):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return out.getvalue()


def test_a_board_archive_gives_the_grid_and_its_image_as_the_background(tmp_path):
    path = tmp_path / "bdT"
    path.write_bytes(archive({"BoardMetadata.xml": metadata(), "bdT.gif": board_image(),
                              "LOSData": b"\x1f\x8b not read", "data": "version 1.0\n"}))
    data = path.read_bytes()
    assert detect(path.name, data) == "vasl"
    uploads = expand(path.name, data)
    assert [u.name for u in uploads] == ["bdT"]
    result = convert(path.name, data)
    assert result.ok and result.source_format == "vasl", result.findings
    assert [f.code for f in result.findings] == ["los-not-read", "half-hexes-left-out"]
    assert "(its LOSData file)" in result.findings[0].message
    doc = result.doc
    assert (doc["grid"]["columns"], doc["grid"]["rows"], doc["grid"]["stagger"]) == (5, 4, "odd")
    (name, stored), = result.files.items()
    assert doc["background"]["image"] == name and name.startswith("scan-") and name.endswith(".png")
    assert Image.open(io.BytesIO(stored)).size == (121, 139)  # the GIF, re-encoded as PNG
    assert doc["background"]["opacity"] == 0.5 and doc["background"]["rotation"] == 0.0
    grid = grid_of(doc)
    vasl = vasl_hexes(5, 4, 30, 34.64, 0, 17.32)
    for col, row in grid.hexes():
        vx, vy = vasl[grid.label(col, row)]
        x, y = pixel(doc, col, row)
        assert math.hypot(x - vx, y - vy) < 0.01  # these hexes are regular: the fit is exact
        assert 0 <= x <= 121 and 0 <= y <= 139
    assert doc["extensions"]["vasl"]["building_types"] == {"C2": "Wooden Building"}


def test_the_archive_inside_a_zip_and_the_metadata_beside_its_image(tmp_path):
    bundle = archive({"boards/bdT": archive({"BoardMetadata.xml": metadata(), "bdT.gif": board_image()})})
    uploads = expand("boards.zip", bundle)
    assert [u.name for u in uploads] == ["boards.zip!boards/bdT"]
    from engine.importers import convert_upload

    result = convert_upload(uploads[0])
    assert result.ok and result.source_format == "vasl" and len(result.files) == 1, result.findings
    (tmp_path / "BoardMetadata.xml").write_text(metadata())
    (tmp_path / "bdT.gif").write_bytes(board_image())
    beside = import_file(tmp_path / "BoardMetadata.xml")
    assert beside.ok and set(beside.files.values()) == set(result.files.values())
    assert beside.doc["background"] == result.doc["background"]


def test_a_zip_of_a_board_and_another_map_gives_both():
    uploads = expand("mixed.zip", archive({"BoardMetadata.xml": metadata(), "bdT.gif": board_image(),
                                           "other.map": "Gg, Gg\nGg, Gg\n"}))
    assert [u.name for u in uploads] == ["mixed.zip!BoardMetadata.xml", "mixed.zip!other.map"]
    from engine.importers import convert_upload

    board = convert_upload(uploads[0])
    assert board.ok and board.source_format == "vasl" and len(board.files) == 1, board.findings


def test_an_image_name_with_a_path_is_looked_up_at_the_top_level_as_vasl_does(tmp_path):
    (tmp_path / "inner").mkdir()
    (tmp_path / "inner" / "BoardMetadata.xml").write_text(metadata(boardImageFileName="../bdT.gif"))
    (tmp_path / "bdT.gif").write_bytes(board_image())
    result = import_file(tmp_path / "inner" / "BoardMetadata.xml")
    assert result.files == {} and result.doc["background"]["image"] == "bdT.gif"
    assert "'bdT.gif' is not in the upload" in next(f for f in result.findings if f.code == "image-missing").message


def test_without_the_image_the_grid_still_comes_in_naming_it():
    result = convert("bdT", archive({"BoardMetadata.xml": metadata(boardImageFileName="bdT.png")}))
    assert result.ok and result.files == {}
    missing = next(f for f in result.findings if f.code == "image-missing")
    assert "'bdT.png'" in missing.message and result.doc["background"]["image"] == "bdT.png"
    assert "(its LOSData file)" not in next(f for f in result.findings if f.code == "los-not-read").message


def test_alternate_hex_grain_shifts_the_other_columns_up():
    result = convert("bdT", archive({"BoardMetadata.xml": metadata(altHexGrain="TRUE")}))
    doc = result.doc
    assert doc["grid"]["stagger"] == "even"
    half = next(f for f in result.findings if f.code == "half-hexes-left-out")
    assert "bottom edge (B5, D5)" in half.message
    # ASLHexGrid.getLocation with alternate: B1 lies half a hex above A1.
    grid = grid_of(doc)
    a1, b1 = pixel(doc, *grid.parse_label("A1")), pixel(doc, *grid.parse_label("B1"))
    assert b1[0] - a1[0] == pytest.approx(30, abs=0.01) and a1[1] - b1[1] == pytest.approx(17.32, abs=0.01)


def worst_offset(doc, geometry):
    vasl, grid = vasl_hexes(doc["grid"]["columns"], doc["grid"]["rows"], *geometry), grid_of(doc)
    return max(math.hypot(*(a - b for a, b in zip(pixel(doc, col, row), vasl[grid.label(col, row)], strict=True)))
               for col, row in grid.hexes())


def test_a_legacy_archive_reads_its_data_file():
    data = "version 5.1\nx0 0\ny0 17.32\ndx 30\ndy 34.64\n"
    result = convert("bdL", archive({"data": data, "bdL.gif": board_image()}))
    assert result.ok and "irregular-hexes" not in {f.code for f in result.findings}, result.findings
    doc = result.doc
    assert (doc["grid"]["columns"], doc["grid"]["rows"]) == (33, 10)
    assert doc["extensions"]["vasl"]["legacy"] and doc["extensions"]["vasl"]["version"] == "5.1"
    assert worst_offset(doc, (30, 34.64, 0, 17.32)) < 0.01


def test_irregular_hexes_are_fitted_as_closely_as_they_can_be_and_said():
    result = convert("bdT", archive({"BoardMetadata.xml": metadata(hexWidth="30", hexHeight="40",
                                                                    A1CenterY="20")}))
    irregular = next(f for f in result.findings if f.code == "irregular-hexes")
    worst = worst_offset(result.doc, (30, 40, 0, 20))
    assert worst == pytest.approx(result.doc["extensions"]["vasl"]["max_offset_px"], abs=0.01)
    assert f"up to {worst:.0f} px" in irregular.message and "13% off" in irregular.message


@pytest.mark.parametrize("entries, code", [
    ({"BoardMetadata.xml": "<map orientation='hexagonal'/>"}, "bad-board-metadata"),
    ({"BoardMetadata.xml": metadata(width="0")}, "bad-value"),
    ({"BoardMetadata.xml": metadata(hexWidth="wide")}, "bad-value"),
    ({"BoardMetadata.xml": metadata(hexHeight="-3")}, "bad-grid"),
    ({"BoardMetadata.xml": metadata(hexWidth="1e300")}, "bad-grid"),
    ({"BoardMetadata.xml": metadata(A1CenterY="1e300")}, "bad-grid"),
    ({"BoardMetadata.xml": "<boardMetadata"}, "bad-xml"),
])
def test_a_broken_board_is_refused_with_its_reason(entries, code):
    result = convert("bdT", archive(entries))
    assert result.doc is None and code in {f.code for f in result.findings if f.severity == "error"}


def test_a_special_vasl_geometry_is_flagged():
    result = convert("bdT", archive({"BoardMetadata.xml": metadata(A1CenterX="-901", A1CenterY="0")}))
    unusual = next(f for f in result.findings if f.code == "unusual-geometry")
    assert "A1CenterX -901" in unusual.message and "A1CenterY 0" in unusual.message


def test_detection_leaves_other_zips_and_xml_alone():
    assert detect("maps.zip", archive({"a.tmx": "<map/>"})) == "zip"
    assert detect("bdX", archive({"notes.txt": "x"})) == "zip"  # a bd name alone is not a board archive
    assert detect("bdX", archive({"data": "version 5"})) == "vasl"  # but with a legacy data file it is
    assert detect("BoardMetadata.xml", b"<boardMetadata width='33'/>") == "vasl"
    assert detect("buildFile.xml", b"<VASSAL.launch.BasicModule/>") == "vassal"
    assert detect("other.xml", b"<something/>") is None


# -- hostile boards ----------------------------------------------------------------------------------------

def test_a_truncated_metadata_file_and_entities_are_refused():
    data = BD01.read_bytes()
    cut = convert("BoardMetadata.xml", data[: len(data) // 2])
    assert cut.doc is None and "bad-xml" in {f.code for f in cut.findings} and "truncated" in cut.findings[0].message
    laughs = (b'<?xml version="1.0"?><!DOCTYPE boardMetadata [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
              b'<boardMetadata name="&b;" width="33" height="10"/>')
    refused = convert("BoardMetadata.xml", laughs)
    assert refused.doc is None and [f.code for f in refused.findings] == ["xml-entities"]


def test_a_board_image_that_is_a_pixel_bomb_gives_the_grid_without_it():
    from tests.engine.test_importers_hostile import png_claiming

    result = convert("bdT", archive({"BoardMetadata.xml": metadata(boardImageFileName="bdT.png"),
                                     "bdT.png": png_claiming(30_000, 30_000)}))
    assert "image-too-large" in {f.code for f in result.findings if f.severity == "error"}
    assert result.files == {}


def test_a_zip_bomb_archive_leaves_the_entry_out():
    from engine.importers import ImportLimits

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("BoardMetadata.xml", metadata())
        z.writestr("bdT.gif", b"\0" * 5_000_000)
    result = convert("bdT", out.getvalue(), limits=ImportLimits(max_zip_ratio=50))
    assert "zip-bomb" in {f.code for f in result.findings} and result.files == {}
    assert result.doc is not None and "image-missing" in {f.code for f in result.findings}


def test_damaged_boards_never_crash_the_importer():
    """A fixed sample of random damage to the corpus metadata and a board archive: a finding or a valid map."""
    import random

    from engine.importers import convert_upload
    from tests.engine.test_importers_hostile import codes, mutated

    rng = random.Random(19)
    bd = archive({"BoardMetadata.xml": metadata(), "bdT.gif": board_image(), "data": "version 1\n"})
    sources = [(BD01.name, BD01.read_bytes()), (SAMPLE.name, SAMPLE.read_bytes()), ("bdT", bd)]
    for _ in range(150):
        name, data = rng.choice(sources)
        for upload in expand(name, mutated(data, rng)):
            result = convert_upload(upload)
            assert "import-failed" not in codes(result.findings), (name, result.findings)
            if result.doc is not None:
                mapfile.parse(result.doc)
