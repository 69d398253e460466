"""The importers against the real community files in tests/data/community/ (its README for sources and
licences) and the MegaMek boards of tests/data/megamek.py: every file imports or is refused with its reason;
geometry against Tiled's and VASSAL's own formulas; sizes, terrain and elevations against the files' own text."""

import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from engine import checks, mapfile, rulesets
from engine.hexgrid import Grid
from engine.importers import DiskFiles, ImportLimits, convert, expand, mappings
from tests.data import COMMUNITY
from tests.data.megamek import BOARDS, CITYTECH, DEEP

ALL_FILES = sorted(p for p in COMMUNITY.rglob("*") if p.is_file())

# What each file the corpus holds must give: "ok" (imports, no error) or the code of the error that refuses it.
REFUSED = {
    "Yanrishatum+cherry-jam/hexagonal-2.tmx": "missing-tileset",  # names hexagonal.tsx, absent
    "wesnoth+wesnoth/data/multiplayer/maps/3p_Elevation_Example.map": "unmapped-terrain",  # ^Qhh.. undefined
    "netorcai+hexabomb/tiny.json": "not-a-map",  # hexabomb's own cell list
    # The MegaMek boards written here (tests/data/megamek.py) whose levels do not fit OST's -1 to 3:
    "16x17 Sinkhole.board": "level-out-of-range",  # -3
    "16x17 Archipelago.board": "level-out-of-range",  # 4
    "14x14 Ravine.board": "level-out-of-range",  # -6..4
    "10x10 Pits and Wall.board": "level-out-of-range",  # -3..20
    "100x100 Battle.board": "level-out-of-range",  # -2..9
    "35x35 Crater and Rock.board": "level-out-of-range",  # -20..40
}
MAP_ENDINGS = (".tmx", ".json", ".map", ".board", "buildFile.xml", "BoardMetadata.xml", "BoardMetadata - sample.xml")


def rel(path):
    return path.relative_to(COMMUNITY).as_posix()


def import_file(path, **options):
    return convert(path.name, path.read_bytes(), files=DiskFiles(path.parent), **options)


def test_the_corpus_is_there():
    assert len(ALL_FILES) > 60, f"expected the community corpus at {COMMUNITY}"


def check_outcome(name, result):
    errors = [f for f in result.findings if f.severity == "error"]
    assert all(f.message and f.code for f in result.findings)
    if name in REFUSED:
        assert REFUSED[name] in {f.code for f in errors}, result.findings
    elif name.endswith(MAP_ENDINGS) and "SOURCE" not in name:
        assert result.ok, result.findings
        mapfile.parse(result.doc)  # what an importer gives, the map format accepts
    else:  # images, tilesets, documents, licences, VASL's LOS raster, Wesnoth's mask and terrain.cfg
        assert result.doc is None and [f.code for f in errors] == ["not-a-map"], result.findings


@pytest.mark.parametrize("path", ALL_FILES, ids=rel)
def test_every_community_file_imports_or_is_refused_with_its_reason(path):
    check_outcome(rel(path), import_file(path))


@pytest.mark.parametrize("name", BOARDS)
def test_every_megamek_board_imports_or_is_refused_with_its_reason(name):
    check_outcome(name, convert(name, BOARDS[name]))


# -- Tiled: geometry against Tiled's own formula, terrain against its tilesets -------------------------------

TILED_MAPS = [p for p in ALL_FILES if p.suffix == ".tmx" and rel(p) not in REFUSED]


def tiled_pixel_centre(x, y, attrs):
    """Tiled's HexagonalRenderer::tileToScreenCoords (with RenderParams) plus half a tile: a hex's centre."""
    tile_w, tile_h = int(attrs["tilewidth"]) & ~1, int(attrs["tileheight"]) & ~1
    side = int(attrs.get("hexsidelength", 0))
    stagger_x = attrs.get("staggeraxis", "y") == "x"
    stagger_even = attrs.get("staggerindex", "odd") == "even"
    side_x, side_y = (side, 0) if stagger_x else (0, side)
    column_width = (tile_w - side_x) // 2 + side_x
    row_height = (tile_h - side_y) // 2 + side_y
    if stagger_x:
        py = y * (tile_h + side_y) + (row_height if bool(x & 1) ^ stagger_even else 0)
        px = x * column_width
    else:
        px = x * (tile_w + side_x) + (column_width if bool(y & 1) ^ stagger_even else 0)
        py = y * row_height
    return px + tile_w / 2, py + tile_h / 2


def tmx_cells(path):
    """{(x, y): gid} of every non-empty tile of a csv/base64 TMX, read here independently of the importer."""
    import base64
    import zlib

    root = ET.parse(path).getroot()
    cells = {}
    for layer in root.iter("layer"):
        data = layer.find("data")
        blocks = data.findall("chunk") or [data]
        for block in blocks:
            x0, y0 = int(block.get("x", 0)), int(block.get("y", 0))
            width = int(block.get("width", layer.get("width")))
            if data.get("encoding") == "csv":
                gids = [int(v) for v in block.text.replace("\n", "").split(",") if v.strip()]
            else:
                raw = zlib.decompress(base64.b64decode(block.text.strip()))
                gids = [int.from_bytes(raw[i:i + 4], "little") for i in range(0, len(raw), 4)]
            for i, gid in enumerate(gids):
                if gid:
                    cells.setdefault((x0 + i % width, y0 + i // width), []).append(gid & 0x0FFFFFFF)
    return root.attrib, cells


@pytest.mark.parametrize("path", TILED_MAPS, ids=rel)
def test_tiled_hex_centres_follow_tileds_own_formula(path):
    result = import_file(path)
    assert result.ok, result.findings
    doc = mapfile.parse(result.doc)
    attrs, cells = tmx_cells(path)
    grid = doc.grid
    assert grid.orientation == ("flat" if attrs["staggeraxis"] == "x" else "pointy")
    ox, oy = result.doc["extensions"]["tiled"]["origin"]
    if attrs.get("infinite") == "1":
        assert (ox, oy) == (min(x for x, _ in cells), min(y for _, y in cells))
    else:
        assert (grid.columns, grid.rows) == (int(attrs["width"]), int(attrs["height"]))

    # One scale per axis maps the map's centres onto Tiled's, for every hex (Tiled's hexes need not be regular).
    def tiled(c, r):
        return tiled_pixel_centre(c + ox, r + oy, attrs)

    base_t, base_m = tiled(0, 0), grid.centre(0, 0)
    sx = (tiled(2, 0)[0] - base_t[0]) / (grid.centre(2, 0)[0] - base_m[0])
    sy = (tiled(0, 2)[1] - base_t[1]) / (grid.centre(0, 2)[1] - base_m[1])
    for col in range(grid.columns):
        for row in range(grid.rows):
            tx, ty = tiled(col, row)
            mx, my = grid.centre(col, row)
            assert math.isclose(tx, base_t[0] + sx * (mx - base_m[0]), abs_tol=1e-6), (col, row)
            assert math.isclose(ty, base_t[1] + sy * (my - base_m[1]), abs_tol=1e-6), (col, row)
    # Every tile used is inside the map.
    assert all(grid.contains(x - ox, y - oy) for x, y in cells)


BEVY = COMMUNITY / "adrien-bon+bevy_ecs_tiled"


@pytest.mark.parametrize("name", ["finite_flat_top_even.tmx", "finite_flat_top_odd.tmx"])
def test_tiled_terrain_comes_from_each_tiles_image_name_through_the_mapping(name):
    path = BEVY / "maps" / "hexagonal" / name
    result = import_file(path)
    doc = mapfile.parse(result.doc)
    tsx = ET.parse(BEVY / "tiles" / "simple hex flat top.tsx").getroot()
    images = {int(t.get("id")): Path(t.find("image").get("source")).stem for t in tsx.iter("tile")}
    table = json.loads(mappings.default_path("tiled", "ost").read_text())["terrain"]
    _attrs, cells = tmx_cells(path)
    assert cells
    for (x, y), gids in cells.items():
        expected = table[images[gids[-1] - 1]]
        terrain = expected["terrain"] if isinstance(expected, dict) else expected
        cell = doc.cell(x, y)
        assert cell.terrain == (terrain,), (x, y)
        assert cell.level == (expected.get("level", 0) if isinstance(expected, dict) else 0)
    assert result.doc["grid"]["stagger"] == ("even" if "even" in name else "odd")


def test_tiled_base64_zlib_type_properties_and_json_agree_with_the_tmx():
    final = import_file(COMMUNITY / "Yanrishatum+cherry-jam" / "hex-final.tmx")
    doc = mapfile.parse(final.doc)
    types = {int(t.get("id")): t.find("properties/property").get("value")
             for t in ET.parse(COMMUNITY / "Yanrishatum+cherry-jam" / "hex-tileset.tsx").getroot().iter("tile")}
    _attrs, cells = tmx_cells(COMMUNITY / "Yanrishatum+cherry-jam" / "hex-final.tmx")
    woods = {pos for pos, gids in cells.items() if types[gids[0] - 1] in ("Forest", "SnowForest")}
    assert woods and all(doc.cell(*pos).terrain == ("woods",) for pos in woods)
    assert all(doc.cell(*pos).terrain != ("woods",) for pos in cells if pos not in woods)
    # hexabomb's map saved as TMX and as JSON imports to the same hexes.
    tmx = import_file(COMMUNITY / "netorcai+hexabomb" / "editor" / "tiny.tmx").doc
    js = import_file(COMMUNITY / "netorcai+hexabomb" / "editor" / "tiny_tiled.json").doc
    assert tmx["hexes"] == js["hexes"] and tmx["grid"] == js["grid"]


def test_tiled_flip_flags_do_not_change_the_terrain():
    path = COMMUNITY / "mapeditor+tiled" / "libtiled-java" / "test_hexagonal_tile" / "test_hexagonal_tile_60x60x30.tmx"
    result = import_file(path)
    assert result.ok
    assert result.doc["extensions"]["tiled"]["flipped_tiles"] == 12
    _attrs, cells = tmx_cells(path)
    assert len(cells) == 14 and set(g for gids in cells.values() for g in gids) == {1}


def tmx(body, **attrs):
    head = {"version": "1.10", "orientation": "hexagonal", "width": "2", "height": "2", "tilewidth": "16",
            "tileheight": "16", "hexsidelength": "8", "staggeraxis": "y", "staggerindex": "odd", **attrs}
    attributes = " ".join(f'{k}="{v}"' for k, v in head.items())
    return (f'<?xml version="1.0"?><map {attributes}>'
            '<tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="2" columns="2">'
            '<tile id="0"><properties><property name="terrain" value="wood"/><property name="level" type="int" '
            'value="2"/></properties></tile><tile id="1" type="field"/></tileset>' + body + "</map>").encode()


def test_tiled_encodings_terrain_properties_and_levels():
    import base64
    import gzip
    import struct
    import zlib

    raw = struct.pack("<4I", 1, 2, 0, 1 | 0x80000000)
    variants = {
        "csv": '<data encoding="csv">1,2,0,2147483649</data>',
        "xml": '<data><tile gid="1"/><tile gid="2"/><tile/><tile gid="2147483649"/></data>',
        "base64": f'<data encoding="base64">{base64.b64encode(raw).decode()}</data>',
        "zlib": f'<data encoding="base64" compression="zlib">{base64.b64encode(zlib.compress(raw)).decode()}</data>',
        "gzip": f'<data encoding="base64" compression="gzip">{base64.b64encode(gzip.compress(raw)).decode()}</data>',
    }
    mapping = {"terrain": {"wood": "woods", "field": "wheatfield"}}
    for kind, data in variants.items():
        result = convert("m.tmx", tmx(f'<layer name="g" width="2" height="2">{data}</layer>'), mapping=mapping)
        assert result.ok, (kind, result.findings)
        hexes = {h["hex"]: h for h in result.doc["hexes"]}
        assert hexes["0101"] == {"hex": "0101", "terrain": ["woods"], "level": 2}, kind
        assert hexes["0201"]["terrain"] == ["wheatfield"] and "0102" not in hexes, kind
        assert hexes["0202"]["terrain"] == ["woods"], kind
    zstd = convert("m.tmx", tmx('<layer name="g" width="2" height="2"><data encoding="base64" '
                                'compression="zstd">KLUv/SAQgQAAAQ==</data></layer>'))
    assert [f.code for f in zstd.findings] == ["zstd-unsupported"] and zstd.doc is None


def test_tiled_orthogonal_maps_are_refused():
    result = convert("o.tmx", tmx("", orientation="orthogonal"))
    assert result.doc is None and [f.code for f in result.findings] == ["not-hexagonal"]


# -- Wesnoth ---------------------------------------------------------------------------------------------

WESNOTH_18 = COMMUNITY / "cjhopman+Battle-for-Wesnoth-on-Android" / "wesnoth-1.8.5" / "data" / "multiplayer" / "maps"
WESNOTH_NOW = COMMUNITY / "wesnoth+wesnoth" / "data" / "multiplayer" / "maps"


def wesnoth_rows(path):
    lines = path.read_text().splitlines()
    rows = [[f.strip() for f in line.split(",")] for line in lines if "," in line]
    return rows


@pytest.mark.parametrize("path", [WESNOTH_18 / "2p_Hamlets.map", WESNOTH_18 / "5p_The_Wilderlands.map",
                                  WESNOTH_NOW / "2p_Hamlets.map"], ids=lambda p: rel(p))
def test_wesnoth_sizes_terrain_levels_and_starts_as_the_file_says(path):
    result = import_file(path)
    assert result.ok, result.findings
    doc = mapfile.parse(result.doc)
    rows = wesnoth_rows(path)
    assert (doc.grid.columns, doc.grid.rows) == (len(rows[0]) - 2, len(rows) - 2)  # the border dropped
    assert doc.grid.orientation == "flat" and doc.grid.stagger == "odd"
    starts = {}
    for y, row in enumerate(rows[1:-1]):
        for x, field in enumerate(row[1:-1]):
            player, _, code = field.rpartition(" ")
            if player:
                starts[player] = doc.grid.label(x, y)
            cell = doc.cell(x, y)
            base, _, overlay = code.partition("^")
            if overlay.startswith("V"):
                assert "light-structure" in cell.terrain, (x, y, code)
            if overlay.startswith("F"):
                assert "woods" in cell.terrain, (x, y, code)
            if base.startswith("H") and not overlay.startswith("X"):
                assert cell.level == 1, (x, y, code)
            if base.startswith("M") and not overlay:
                assert cell.level == 2, (x, y, code)
            if base == "Wwf":
                assert cell.terrain == ("stream",), (x, y, code)
    assert starts and result.doc["extensions"]["wesnoth"]["starts"] == dict(sorted(starts.items()))


def test_wesnoth_header_and_border():
    old = import_file(WESNOTH_18 / "3p_Morituri.map").doc
    new = import_file(WESNOTH_NOW / "2p_Hamlets.map").doc
    assert old["extensions"]["wesnoth"]["format"] == "1.8" and new["extensions"]["wesnoth"]["format"] == "current"
    assert (old["grid"]["columns"], old["grid"]["rows"]) == (20, 20)
    assert (new["grid"]["columns"], new["grid"]["rows"]) == (27, 28)


# -- MegaMek ---------------------------------------------------------------------------------------------

HEX_LINE = re.compile(r'^hex (\S+) (-?\d+) "([^"]*)"')


def board_lines(name):
    """The board's size and (XXYY, elevation, terrains) per hex line, read here independently of the importer."""
    text = BOARDS[name].decode()
    size = tuple(int(v) for v in re.search(r"^size (\d+) (\d+)", text, re.M).groups())
    return size, [HEX_LINE.match(line).groups() for line in text.splitlines() if line.startswith("hex ")]


@pytest.fixture
def battletech():
    """A profile whose levels fit MegaMek's boards (-20 to 40), and a designer's mapping to it."""
    profile = rulesets.from_dict({"id": "bt-levels", "name": "BattleTech levels", "base": "ost", "extends_base": True,
                                  "level_min": -20, "level_max": 40, "terrain": []})
    rulesets.register(profile)
    mapping = json.loads(mappings.default_path("megamek", "ost").read_text())
    mapping["ruleset"] = "bt-levels"
    yield mapping
    rulesets.unregister("bt-levels")


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_megamek_sizes_elevations_buildings_and_water_as_the_file_says(name, battletech):
    result = convert(name, BOARDS[name], mapping=battletech)
    assert result.ok, result.findings[:3]
    doc = mapfile.parse(result.doc)
    (width, height), lines = board_lines(name)
    assert (doc.grid.columns, doc.grid.rows) == (width, height) and len(lines) == width * height
    depths = result.doc["extensions"]["megamek"]["water_depth"]
    for i, (_coord, elevation, terrains) in enumerate(lines):
        col, row = i % width, i // width
        cell = doc.cell(col, row)
        assert cell.level == int(elevation), (col, row)
        items = dict(t.split(":")[:2] for t in terrains.split(";") if t)
        if "building" in items:
            assert {"light-structure", "heavy-structure"} & set(cell.terrain)
            assert cell.storeys == min(int(items.get("bldg_elev", 1)), 10)
        if "woods" in items:
            assert "woods" in cell.terrain
        if "water" in items:
            assert depths[doc.grid.label(col, row)] == int(items["water"])
        if "road" in items or "pavement" in items:
            assert "road" in cell.terrain


def test_megamek_levels_outside_the_ruleset_are_refused_naming_hexes():
    result = convert(DEEP, BOARDS[DEEP])
    (finding,) = [f for f in result.findings if f.code == "level-out-of-range"]
    assert "20 → 3" in finding.message and finding.hex == "0402"


# -- VASSAL ----------------------------------------------------------------------------------------------

VASSAL = COMMUNITY / "jzedwards+vassal-hex-n-counters-template"


def vassal_snap(px, py, dx, dy, x0, y0):
    """VASSAL's HexGrid.snapToHex (hexX, hexY) for a board that is not sideways."""
    nx = math.floor((px - x0 + dx / 2) / dx)
    sx = dx * nx + x0
    sy = dy * math.floor((py - y0 + dy / 2) / dy) + y0 if nx % 2 == 0 else dy * math.floor((py - y0) / dy) + dy / 2 + y0
    return sx, sy


def module_bytes(image=None):
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("buildFile.xml", (VASSAL / "template" / "buildFile.xml").read_bytes())
        z.writestr("images/map.jpg", image if image is not None else (VASSAL / "template" / "images" /
                                                                      "map.jpg").read_bytes())
    return out.getvalue()


@pytest.mark.parametrize("source", ["buildFile", "vmod"])
def test_vassal_board_grid_matches_vassals_own_hex_centres(source):
    if source == "vmod":
        result = convert("template.vmod", module_bytes())
    else:
        result = import_file(VASSAL / "template" / "buildFile.xml")
    assert result.ok, result.findings
    doc = result.doc
    background = doc.get("background") or doc["extensions"]["background"]
    (name, image), = result.files.items()
    assert background["image"] == name and image == (VASSAL / "template" / "images" / "map.jpg").read_bytes()
    assert mapfile.BACKGROUND_IMAGE.match(name) if hasattr(mapfile, "BACKGROUND_IMAGE") else name.endswith(".jpg")
    grid = Grid(**{k: doc["grid"][k] for k in ("orientation", "columns", "rows", "stagger", "labels")})
    assert (grid.orientation, grid.columns, grid.rows) == ("flat", 8, 7)  # 750 x 750 px board
    dx, dy, x0, y0 = 94.48337155288225, 109.1, 15, 26
    ox, oy = background["origin"]
    hex_px = background["hex_px"]
    cx0, cy0 = grid.centre(0, 0)
    for col, row in grid.hexes():
        mx, my = grid.centre(col, row)
        px, py = ox + hex_px * (mx - cx0), oy + hex_px * (my - cy0)
        sx, sy = vassal_snap(px, py, dx, dy, x0, y0)
        assert math.hypot(px - sx, py - sy) < 0.05, (col, row)  # a VASSAL hex centre, to 1/20 px
        assert 0 <= px <= 750 and 0 <= py <= 750


def test_vassal_sideways_board_without_its_image():
    result = import_file(VASSAL / "ragnarok" / "vassal" / "buildFile.xml")
    assert result.ok and result.doc["grid"]["orientation"] == "pointy"
    assert [f.code for f in result.findings] == ["image-missing"]
    background = result.doc.get("background") or result.doc["extensions"]["background"]
    assert background["image"] == "map.jpg" and result.files == {}


# -- mappings --------------------------------------------------------------------------------------------

def test_a_designers_mapping_is_laid_over_the_default_and_checked():
    path = WESNOTH_NOW / "3p_Elevation_Example.map"
    refused = import_file(path)
    codes = {f.message.split("'")[1] for f in refused.findings if f.code == "unmapped-terrain"}
    assert {"^Qhh", "^Qhu", "^_mh"} <= codes
    mapping = {"terrain": {"^Q*": {"terrain": [], "level": -1}, "^_m*": [], "Gg": "brush"}}
    result = import_file(path, mapping=mapping)
    assert result.ok, result.findings
    assert result.doc["extensions"]["imported"]["mapping"] == "mappings/wesnoth-ost.json + designer's mapping"
    brush = [h for h in result.doc["hexes"] if h.get("terrain") == ["brush"]]
    assert brush  # the designer's Gg wins over the default G*
    bad = import_file(path, mapping={"terrain": {"Gg": "lava"}})
    assert bad.doc is None and [f.code for f in bad.findings] == ["bad-mapping"]
    assert "'lava' is not a hex terrain of 'ost'" in bad.findings[0].message
    other = import_file(path, mapping={"source": "megamek", "terrain": {}})
    assert [f.code for f in other.findings] == ["bad-mapping"]


def test_every_shipped_mapping_names_only_its_rulesets_terrain():
    from engine.importers.common import Context

    shipped = mappings.shipped()
    assert {("tiled", "ost"), ("wesnoth", "ost"), ("megamek", "ost")} <= set(shipped)
    for source, ruleset in shipped:
        data = json.loads(mappings.default_path(source, ruleset).read_text())
        assert (data["source"], data["ruleset"]) == (source, ruleset)
        context = Context(name="x", files={}, limits=ImportLimits(), source=source, ruleset=ruleset)
        mapping = mappings.resolve(context)  # refuses a mapping naming terrain the ruleset lacks
        assert context.findings == [] and len(mapping.exact) + len(mapping.patterns) == len(data["terrain"])


def test_the_other_shipped_rulesets():
    city = convert(CITYTECH, BOARDS[CITYTECH], ruleset="ats")
    assert city.ok, city.findings
    (_, height), lines = board_lines(CITYTECH)
    doc = mapfile.parse(city.doc)
    for i, (_coord, elevation, _terrains) in enumerate(lines):
        assert doc.cell(i % 16, i // 16).level == 5 * int(elevation)  # one MegaMek level is an ATS step of 5
    hamlets = import_file(WESNOTH_18 / "2p_Hamlets.map", ruleset="tocs")
    assert hamlets.ok and {"village", "forest", "lake"} <= {t for h in hamlets.doc["hexes"] for t in h.get(
        "terrain", [])}


# -- expand ----------------------------------------------------------------------------------------------

def test_a_zip_of_community_maps_expands_to_each_map_with_its_tilesets():
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for path in (BEVY / "maps" / "hexagonal").glob("*.tmx"):
            z.write(path, f"bevy/maps/hexagonal/{path.name}")
        for path in (BEVY / "tiles").rglob("*"):
            if path.is_file():
                z.write(path, f"bevy/tiles/{path.relative_to(BEVY / 'tiles').as_posix()}")
        z.writestr("CityTech.board", BOARDS[CITYTECH])
        z.writestr("readme.txt", "hello")
    uploads = expand("maps.zip", out.getvalue(), ImportLimits())
    names = sorted(u.name for u in uploads)
    assert names == sorted(["maps.zip!CityTech.board"] + [f"maps.zip!bevy/maps/hexagonal/{p.name}"
                                                           for p in (BEVY / "maps" / "hexagonal").glob("*.tmx")])
    for upload in uploads:
        result = convert(upload.name.split("!")[1], upload.data, files=upload.files)
        assert result.ok, (upload.name, result.findings)


def test_tiled_json_infinite_groups_external_tsj_and_classes():
    tsj = {"type": "tileset", "name": "ext", "tilecount": 3, "tiles": [
        {"id": 0, "class": "Forest"},
        {"id": 1, "properties": [{"name": "terrain", "type": "string", "value": "Road"}]},
        {"id": 2, "image": "art/house.png"}]}
    layer = {"type": "tilelayer", "name": "ground", "chunks": [
        {"x": -3, "y": -2, "width": 2, "height": 2, "data": [1, 0, 0, 2]},
        {"x": 0, "y": 0, "width": 2, "height": 1, "data": [3, 0]}]}
    doc = {"orientation": "hexagonal", "infinite": True, "width": 4, "height": 4, "tilewidth": 32, "tileheight": 28,
           "hexsidelength": 14, "staggeraxis": "x", "staggerindex": "odd",
           "tilesets": [{"firstgid": 1, "source": "sets/ext.tsj"}, {"firstgid": 10, "name": "inline", "tiles": [],
                                                                   "tileproperties": {"0": {"type": "Grass"}}}],
           "layers": [{"type": "group", "name": "g", "layers": [layer]},
                      {"type": "tilelayer", "name": "top", "chunks": [
                          {"x": 0, "y": 0, "width": 1, "height": 1, "data": [10]}]},
                      {"type": "objectgroup", "name": "spawns", "objects": []}]}
    mapping = {"terrain": {"Forest": "woods", "Road": "road", "house": "light-structure", "Grass": "brush"}}
    result = convert("maps/m.tmj", json.dumps(doc).encode(), mapping=mapping,
                     files={"maps/sets/ext.tsj": json.dumps(tsj).encode()})
    assert result.ok, result.findings
    out = result.doc
    assert out["extensions"]["tiled"]["origin"] == [-3, -2]
    assert out["extensions"]["tiled"]["ignored_layers"] == {"objectgroup": 1}
    # Cropped by 3 columns (odd) along the stagger axis: Tiled's odd columns are the map's even ones.
    assert (out["grid"]["columns"], out["grid"]["rows"], out["grid"]["stagger"]) == (4, 3, "even")
    hexes = {h["hex"]: h["terrain"] for h in out["hexes"]}
    assert hexes == {"0101": ["woods"], "0202": ["road"], "0403": ["light-structure", "brush"]}


def test_tiled_tmx_class_attribute_and_terrain_corners():
    body = ('<tileset firstgid="1" name="c" tilewidth="16" tileheight="16" tilecount="2" columns="2">'
            '<terraintypes><terrain name="Swamp" tile="0"/></terraintypes>'
            '<tile id="0" class="Hill"/><tile id="1" terrain="0,0,0,0"/></tileset>'
            '<group name="g"><layer name="l" width="2" height="1"><data encoding="csv">1,2</data></layer></group>')
    data = (b'<?xml version="1.0"?><map version="1.10" orientation="hexagonal" width="2" height="1" tilewidth="16" '
            b'tileheight="16" hexsidelength="8" staggeraxis="y" staggerindex="even">' + body.encode() + b"</map>")
    result = convert("c.tmx", data, mapping={"terrain": {"Hill": {"terrain": [], "level": 1}, "Swamp": "marsh"}})
    assert result.ok, result.findings
    assert result.doc["hexes"] == [{"hex": "0101", "level": 1}, {"hex": "0201", "terrain": ["marsh"]}]


RAGNAROK = VASSAL / "ragnarok" / "vassal" / "buildFile.xml"


def test_vassal_sideways_zoned_grid_matches_vassals_own_hex_centres():
    result = import_file(RAGNAROK)
    doc = result.doc
    background = doc.get("background") or doc["extensions"]["background"]
    grid = Grid(**{k: doc["grid"][k] for k in ("orientation", "columns", "rows", "stagger", "labels")})
    zone_x, zone_y = doc["extensions"]["vassal"]["zone_offset"]
    assert (zone_x, zone_y) == (12, 34)  # the zone "map": 12,34;3081,34;3074,1760;17,1757
    dx, dy, x0, y0 = 97.71978541535786, 112.39999999999895, 21, 24
    ox, oy = background["origin"]
    n0, k0 = doc["extensions"]["vassal"]["first_hex"]
    cx0, cy0 = grid.centre(0, 0)
    for col, row in grid.hexes():
        mx, my = grid.centre(col, row)
        px, py = ox + background["hex_px"] * (mx - cx0), oy + background["hex_px"] * (my - cy0)
        # Sideways: VASSAL swaps x and y and places the grid from the zone's corner. The map's row is VASSAL's
        # column n, its column VASSAL's k; VASSAL's own centre of that hex:
        n, k = n0 + row, k0 + col
        u, v = x0 + n * dx, y0 + k * dy + (dy / 2 if n % 2 else 0)
        assert vassal_snap(py - zone_y, px - zone_x, dx, dy, x0, y0) == pytest.approx((u, v)), (col, row)
        # One hex_px serves both axes; this grid is 0.4% off regular, so it may drift by that much.
        drift = math.hypot(u - (py - zone_y), v - (px - zone_x))
        assert drift <= 0.005 * math.hypot(px - ox, py - oy) + 0.05, (col, row)
        assert 12 <= px <= 3081 and 34 <= py <= 1760


def test_a_module_with_several_hex_boards_expands_to_one_map_each():
    import io
    import zipfile

    build = (VASSAL / "template" / "buildFile.xml").read_text()
    board = build[build.index("<VASSAL.build.module.map.boardPicker.Board image=\"map.jpg\""):]
    board = board[:board.index("</VASSAL.build.module.map.boardPicker.Board>") + 44]
    second = board.replace('name="Map"', 'name="North"').replace('x0="15"', 'x0="40"')
    build = build.replace(board, board + second, 1)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("buildFile.xml", build)
        z.writestr("images/map.jpg", (VASSAL / "template" / "images" / "map.jpg").read_bytes())
    uploads = expand("two.vmod", out.getvalue(), ImportLimits())
    assert [u.name for u in uploads] == ["two.vmod#Map", "two.vmod#North"]
    north = convert(uploads[1].name, uploads[1].data)
    assert north.ok and north.doc["extensions"]["vassal"]["board"] == "North"
    assert (north.doc.get("background") or north.doc["extensions"]["background"])["origin"][0] == 40
    whole = convert("two.vmod", out.getvalue())
    assert whole.ok and [f.code for f in whole.findings] == ["several-boards"]
    missing = convert("two.vmod#South", out.getvalue())
    assert missing.doc is None and "Map, North" in missing.findings[0].message


def test_a_wesnoth_overlay_is_the_hex_s_terrain_its_base_giving_the_level_and_water_is_shallow():
    # Aa^Fpa: snowy pine forest, as Wesnoth means it (woods, not open and woods); Hh^Fp: forest on a hill;
    # Gg^Do: an overlay mapped to nothing leaves the base; Ww^Bsb: a bridge over shallow water; Ww: shallow water,
    # OST's stream; Wo: deep water.
    row = ", ".join(["Gg"] + ["Aa^Fpa"] * 3 + ["Ww^Bsb", "Hh^Fp", "Gg^Do", "Ww", "Wo"] + ["Gg"])  # border each side
    text = "\n".join([row] * 13).encode()
    result = convert("snow.map", text)
    assert result.ok, [str(f) for f in result.findings]
    doc = mapfile.parse(result.doc)
    cells = {doc.grid.label(*pos): (c.terrain, c.level) for pos, c in doc.hexes.items()}
    row1 = [cells.get(f"{col:02d}01", (("open",), 0)) for col in range(1, 9)]
    assert row1 == [(("woods",), 0)] * 3 + [(("stream", "road"), 0), (("woods",), 1), (("open",), 0),
                                            (("stream",), 0), (("marsh",), 0)]  # a bridge keeps its water
    findings = checks.run(doc, los_pairs=0)
    assert not [f for f in findings if f.code == "terrain-mix"]  # not one "mixes Open, Woods" per hex
    assert not [f for f in result.findings if f.severity == "warning"]


def test_a_vassal_board_with_no_image_gives_a_map_with_no_background():
    """Issue 32, bug 3: a board given by its width and height only names no image; the map names none either (no
    background a painter would ask for and not find)."""
    build = (VASSAL / "template" / "buildFile.xml").read_text()
    build = build.replace('<VASSAL.build.module.map.boardPicker.Board image="map.jpg" name="Map"',
                          '<VASSAL.build.module.map.boardPicker.Board width="900" height="700" name="Board"', 1)
    result = convert("buildFile.xml", build.encode())
    assert result.ok and result.findings == [] and result.files == {}
    assert "background" not in result.doc and "background" not in result.doc.get("extensions", {})
    assert result.doc["grid"]["columns"] > 5 and result.doc["extensions"]["vassal"]["image"] is None
