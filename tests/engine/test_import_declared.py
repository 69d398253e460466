"""Issue 27, point 4: what an upload declares, read from its headers (engine.importers.declared), bounds the work
its conversion does: never fewer hexes than the maps it gives, from a read that converts and decodes nothing."""

import io
import zipfile

import pytest

from engine.importers import ImportLimits, convert_upload, declared, expand
from tests.data import COMMUNITY
from tests.data.megamek import BOARDS
from tests.engine.test_import_memory import tmx

ROOT = COMMUNITY.parents[2]
BOARD = "VASSAL.build.module.map.boardPicker"
FILES = {
    "hex-final.tmx": COMMUNITY / "Yanrishatum+cherry-jam" / "hex-final.tmx",
    "2p_Hamlets.map": COMMUNITY / "cjhopman+Battle-for-Wesnoth-on-Android" / "wesnoth-1.8.5" / "data"
                      / "multiplayer" / "maps" / "2p_Hamlets.map",
    "hill-112.json": ROOT / "maps" / "samples" / "hill-112.json",
}


def module(boards, width=32000, height=36000, image=None):
    """A .vmod of ``boards`` boards, each width x height pixels of 64 x 72 px hexes (500 x 500 by default), all
    naming one board image when ``image`` is given."""
    named = ' image="map.png"' if image is not None else f' width="{width}" height="{height}"'
    board = f'<{BOARD}.Board name="B{{i}}"{named}><{BOARD}.board.HexGrid dx="64" dy="72"/></{BOARD}.Board>'
    build = (f"<VASSAL.launch.BasicModule><VASSAL.build.module.Map><{BOARD}.BoardPicker>"
             + "".join(board.format(i=i) for i in range(boards))
             + f"</{BOARD}.BoardPicker></VASSAL.build.module.Map></VASSAL.launch.BasicModule>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("buildFile.xml", build)
        if image is not None:
            archive.writestr("images/map.png", image)
    return out.getvalue()


def files():
    found = {name: path.read_bytes() for name, path in FILES.items()}
    found["14x14 Ravine.board"] = BOARDS["14x14 Ravine.board"]
    return found


@pytest.mark.parametrize("name", [*FILES, "14x14 Ravine.board"])
def test_each_format_declares_at_least_the_hexes_its_conversion_gives(name):
    data = files()[name]
    work = declared.declared(name, data, ImportLimits())
    (upload,) = expand(name, data)
    grid = convert_upload(upload, ruleset="ost").doc["grid"]
    assert grid["columns"] * grid["rows"] <= work.hexes <= 4 * grid["columns"] * grid["rows"]


def test_a_zip_declares_the_sum_of_its_maps_and_what_cannot_be_known_costs_nothing():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files().items():
            archive.writestr(f"maps/{name}", data)
        archive.writestr("big.tmx", tmx(1000, 1000, 12))  # refused from its header by the importer: no work
        archive.writestr("notes.txt", "not a map")
    alone = sum(declared.declared(name, data, ImportLimits()).hexes for name, data in files().items())
    assert declared.declared("maps.zip", out.getvalue(), ImportLimits()).hexes == alone


def test_a_tiled_map_is_counted_as_the_layers_and_tiles_the_importer_would_read():
    work = declared.declared("deep.tmx", tmx(500, 500, 60), ImportLimits())
    assert work.parts == {"layer": [24, 250_000, 6_000_000]} and work.unit == "tiles"  # max_tiles: 24 layers
    assert work.describe() == "24 layers of 250,000 tiles"
