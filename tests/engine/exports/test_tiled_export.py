"""The Tiled export read back by the project's own Tiled importer and by pytiled-parser: every sample map, in both
orientations and both staggers, gives back its terrain, levels, storeys and hexsides, and as it is (with named
overlays) the same map document; the TMX says hexagonal with Tiled's stagger
axis and index for the grid, and its tileset carries the ruleset's terrain."""

import copy
import io
import json
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
import pytiled_parser  # the third-party reader (requirements/dev.in)
from PIL import Image

from engine import mapfile, rulesets
from engine.exports import tiled
from engine.hexgrid import SIDES
from engine.importers import ImportLimits, convert, convert_upload, expand

SAMPLES = sorted((Path(__file__).resolve().parents[3] / "maps" / "samples").glob("*.json"))


def turned(data, orientation, stagger):
    """A sample laid out in another orientation and stagger: hexsides keep their side index, art is dropped
    (its polygons belong to the old hexes' places)."""
    out = copy.deepcopy(data)
    before = out["grid"]["orientation"]
    out["grid"].update(orientation=orientation, stagger=stagger)
    for entry in out["hexes"]:
        entry.pop("art", None)
    for entry in out["hexsides"] + [h for overlay in out["overlays"] for h in overlay["hexsides"]]:
        entry["side"] = SIDES[orientation][SIDES[before].index(entry["side"])]
    return out


def layout(doc):
    """What the round trip must keep: each hex's terrain, level and storeys (overlays laid), and the hexsides."""
    cells, hexsides = doc.resolved()
    default = doc.default_cell()
    everything = {(c, r): cells.get((c, r), default) for c, r in doc.grid.hexes()}
    return ({h: (tuple(c.terrain), c.level, c.storeys) for h, c in everything.items()}, hexsides)


def round_trip(doc):
    uploads = expand("exported.zip", tiled.archive(doc))
    assert [u.name.rsplit("!", 1)[-1] for u in uploads] == [f"{tiled.safe_stem(doc.name)}.tmx"]
    result = convert_upload(uploads[0])
    assert result.ok, [str(f) for f in result.findings]
    assert result.source_format == "tiled"
    return mapfile.parse(result.doc), result


CASES = [(path, orientation, stagger) for path in SAMPLES for orientation in ("flat", "pointy")
         for stagger in ("odd", "even")]


@pytest.mark.parametrize("path,orientation,stagger", CASES,
                         ids=[f"{p.stem}-{o}-{s}" for p, o, s in CASES])
def test_every_sample_comes_back_from_tiled_the_same(path, orientation, stagger):
    data = json.loads(path.read_text())
    doc = mapfile.parse(turned(data, orientation, stagger))
    back, result = round_trip(doc)
    assert back.ruleset == doc.ruleset and back.name == doc.name
    assert back.grid == doc.grid  # orientation, size, stagger, labels and hex size
    assert layout(back) == layout(doc)
    assert not [f for f in result.findings if f.severity == "warning"]  # regular hexes, nothing left unread


def test_the_samples_as_they_are_include_both_orientations_hexsides_levels_and_storeys():
    docs = [mapfile.parse(p.read_text()) for p in SAMPLES]
    assert {d.grid.orientation for d in docs} == {"flat", "pointy"}
    assert all(d.hexsides for d in docs)
    for doc in docs:
        back, _ = round_trip(doc)
        assert layout(back) == layout(doc)
        levels = {c.level for c in doc.resolved()[0].values()}
        assert levels != {0} and {c.level for c in back.resolved()[0].values()} == levels
    assert any(c.storeys > 1 for d in docs for c in d.hexes.values())
    assert any(d.overlays for d in docs)  # an ATS overlay's terrain travels in the tiles


@pytest.mark.parametrize("orientation,axis", [("flat", "x"), ("pointy", "y")])
@pytest.mark.parametrize("stagger", ["odd", "even"])
def test_the_tmx_header_tilesets_and_layers(orientation, axis, stagger):
    data = turned(json.loads(SAMPLES[1].read_text()), orientation, stagger)  # hill-112, OST
    doc = mapfile.parse(data)
    root = ET.fromstring(tiled.tmx(doc))
    assert root.get("orientation") == "hexagonal"
    assert root.get("staggeraxis") == axis and root.get("staggerindex") == stagger
    assert (root.get("width"), root.get("height")) == (str(doc.grid.columns), str(doc.grid.rows))
    w, h, side = int(root.get("tilewidth")), int(root.get("tileheight")), int(root.get("hexsidelength"))
    assert w % 2 == 0 and h % 2 == 0
    across, along = (h, w) if orientation == "flat" else (w, h)
    assert along == 2 * side and abs(across - 3 ** 0.5 * side) <= 1  # a regular hexagon, to a pixel
    catalogue = rulesets.get(doc.ruleset)
    terrain_set, levels_set = root.findall("tileset")
    tiles = {t.find("properties/property[@name='terrain']").get("value") for t in terrain_set.findall("tile")}
    assert tiles == set(catalogue.terrain_ids("hex"))
    assert {p.get("value") for p in levels_set.findall("tile/properties/property[@name='level']")} == \
        {str(c.level) for c in doc.hexes.values() if (c.level, c.storeys) != (0, 1)}
    assert [layer.get("name") for layer in root.findall("layer")] == ["terrain", "levels"]
    assert [g.get("name") for g in root.findall("objectgroup")] == ["hexsides", "art", "notes", "overlays"]
    hexsides = root.findall("objectgroup[@name='hexsides']/object")
    assert len(hexsides) == len(doc.hexsides) and all(o.get("type") == "hexside" for o in hexsides)
    props = {p.get("name"): p.get("value") for p in root.findall("properties/property")}
    assert props["ruleset"] == "ost" and props["labels"] == doc.grid.labels


def test_the_zip_holds_the_tmx_and_the_tileset_images_it_names():
    doc = mapfile.parse(SAMPLES[3].read_text())  # oosterbeek, ATS, with art and an overlay
    with zipfile.ZipFile(io.BytesIO(tiled.archive(doc))) as zf:
        names = zf.namelist()
        root = ET.fromstring(zf.read(next(n for n in names if n.endswith(".tmx"))))
        for tileset in root.findall("tileset"):
            image = tileset.find("image")
            assert image.get("source") in names
            picture = Image.open(io.BytesIO(zf.read(image.get("source"))))
            assert picture.size == (int(image.get("width")), int(image.get("height")))
    art = root.findall("objectgroup[@name='art']/object")
    assert len(art) == sum(len(c.art) for c in doc.hexes.values() if c.art)
    overlays = root.findall("objectgroup[@name='overlays']/object")
    assert [o.get("name") for o in overlays] == [o.id for o in doc.overlays]


def test_several_terrains_a_hex_are_layers_and_negative_levels_come_back():
    data = json.loads(SAMPLES[1].read_text())
    data["hexes"][0]["terrain"] = ["stream", "brush"]
    data["hexes"][1]["level"] = -1
    doc = mapfile.parse(data)
    root = ET.fromstring(tiled.tmx(doc))
    assert [layer.get("name") for layer in root.findall("layer")] == ["terrain", "terrain 2", "levels"]
    back, _ = round_trip(doc)
    assert layout(back) == layout(doc)


def test_a_hexside_object_of_an_unknown_terrain_is_named_where_it_is():
    doc = mapfile.parse(SAMPLES[1].read_text())
    text = tiled.tmx(doc).replace(b'value="hedge"', b'value="hedgerow"', 1)
    result = convert("map.tmx", text)
    bad = [f for f in result.findings if f.code == "unmapped-terrain"]
    assert len(bad) == 1 and "'hedgerow'" in bad[0].message and bad[0].hex and "hexsides" in bad[0].path


def json_map(objects):
    """A 3 x 2 flat Tiled JSON map of Hexside's pixel sizes, every hex woods, with these objects."""
    return json.dumps({
        "type": "map", "orientation": "hexagonal", "staggeraxis": "x", "staggerindex": "odd", "width": 3,
        "height": 2, "tilewidth": 120, "tileheight": 104, "hexsidelength": 60, "infinite": False,
        "properties": [{"name": "ruleset", "type": "string", "value": "ost"}],
        "tilesets": [{"firstgid": 1, "name": "t", "tilecount": 2, "tiles": [
            {"id": 0, "properties": [{"name": "terrain", "value": "woods"}]},
            {"id": 1, "properties": [{"name": "level", "type": "int", "value": -1}]}]}],
        "layers": [{"type": "tilelayer", "name": "terrain", "width": 3, "height": 2, "data": [1] * 6},
                   {"type": "tilelayer", "name": "levels", "width": 3, "height": 2, "data": [2, 0, 0, 0, 0, 0]},
                   {"type": "objectgroup", "name": "walls", "objects": objects}]}).encode()


def test_a_tiled_json_map_gives_its_hexside_objects_and_levels_layer():
    # Column 0 is not shifted (stagger odd): hex 0101's centre is at (60, 52); its S edge runs from (30, 104) to
    # (90, 104): a line from the object's position (30, 104), 60 px to the right.
    wall = {"id": 1, "name": "wall", "type": "hexside", "x": 30, "y": 104,
            "polyline": [{"x": 0, "y": 0}, {"x": 60, "y": 0}], "properties": [{"name": "terrain", "value": "hedge"}]}
    lost = {"id": 2, "name": "far", "class": "hexside", "x": 1e9, "y": 1e9,
            "polyline": [{"x": 0, "y": 0}, {"x": 60, "y": 0}], "properties": [{"name": "terrain", "value": "hedge"}]}
    spawn = {"id": 3, "name": "spawn", "type": "spawn", "x": 10, "y": 10, "point": True}
    result = convert("map.tmj", json_map([wall, lost, spawn]))
    doc = result.doc
    # 0101's S edge, named from 0102 (the map format names an edge by its N, NE or SE side)
    assert doc["ruleset"] == "ost" and doc["hexsides"] == [{"hex": "0102", "side": "N", "terrain": "hedge"}]
    assert {h["hex"]: (h["terrain"], h.get("level", 0)) for h in doc["hexes"]}["0101"] == (["woods"], -1)
    assert [f.code for f in result.findings] == ["hexside-off-map"] and "far" in result.findings[0].path
    assert doc["extensions"]["tiled"]["ignored_layers"] == {}  # the object layer held hexsides: it was read


def with_named_overlays(data):
    """A sample with two more overlays as the painter makes them (ids "sel-1", "sel-2", one named), laid over a
    hex of the map's middle with a terrain the map already uses, and a hex's label note."""
    out = copy.deepcopy(data)
    grid = mapfile.parse(data).grid
    terrain = next(h["terrain"] for h in out["hexes"] if h.get("terrain"))
    for k, rotation in ((1, 0), (2, 3)):
        anchor = grid.label(grid.columns // 2 + k, grid.rows // 2)
        out["overlays"].append({"id": f"sel-{k}", "anchor": anchor, "rotation": rotation, "hexsides": [],
                                "hexes": [{"hex": [0, 0], "terrain": terrain, "level": 0},
                                          {"hex": [0, 1], "terrain": terrain, "level": 0}]})
    out.setdefault("extensions", {})["overlay_names"] = {"sel-1": "Farmhouse copse"}
    out["hexes"][0]["label_note"] = "ford"  # a label note, on a hex of the map's own
    return out


def document(doc):
    """The canonical document, less what an import adds about itself."""
    out = mapfile.to_dict(doc)
    for key in ("imported", "tiled"):
        out["extensions"].pop(key, None)
    return out


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_every_sample_reads_back_as_the_same_map_document_overlays_and_names_included(path):
    doc = mapfile.parse(with_named_overlays(json.loads(path.read_text())))
    back, result = round_trip(doc)
    assert document(back) == document(doc)  # hexes, art, hexsides, overlays (id, anchor, rotation), extensions
    assert [o.id for o in back.overlays] == [o.id for o in doc.overlays] and len(back.overlays) >= 2
    assert mapfile.overlay_names(back) == {"sel-1": "Farmhouse copse"}
    assert not [f for f in result.findings if f.severity == "warning"]


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_pytiled_parser_reads_every_export_with_its_layers_objects_and_properties(path, tmp_path):
    doc = mapfile.parse(with_named_overlays(json.loads(path.read_text())))
    for name, content in tiled.files(doc).items():
        (tmp_path / name).write_bytes(content)
    parsed = pytiled_parser.parse_map(next(tmp_path.glob("*.tmx")))
    assert parsed.orientation == "hexagonal"
    assert (parsed.map_size.width, parsed.map_size.height) == (doc.grid.columns, doc.grid.rows)
    assert parsed.properties["ruleset"] == doc.ruleset and parsed.properties["name"] == doc.name
    layers = {layer.name: layer for layer in parsed.layers}
    overlay_layers = [layer for layer in parsed.layers if (layer.properties or {}).get("overlay")]
    assert [layer.properties["overlay"] for layer in overlay_layers] == [o.id for o in doc.overlays]
    assert "overlay: Farmhouse copse" in layers  # the name, never "sel-1"
    objects = layers["overlays"].tiled_objects
    assert [o.name for o in objects][-2:] == ["Farmhouse copse", f"overlay {len(doc.overlays)}"]
    for obj, overlay in zip(objects, doc.overlays, strict=True):
        assert obj.class_ == "overlay" and obj.properties["id"] == overlay.id
        assert json.loads(obj.properties["definition"])["hexes"] == overlay.hexes
    assert [o.properties["note"] for o in layers["notes"].tiled_objects] == ["ford"]
    hexsides = layers["hexsides"].tiled_objects
    assert len([o for o in hexsides if "overlay" not in o.properties]) == len(doc.hexsides)
    terrain = next(ts for ts in parsed.tilesets.values() if ts.name.endswith("terrain"))
    hex_terrain = set(rulesets.get(doc.ruleset).terrain_ids("hex"))
    assert {t.properties["terrain"] for t in terrain.tiles.values()} == hex_terrain


def test_an_overlay_imported_to_another_game_is_laid_into_the_terrain_with_a_warning():
    doc = mapfile.parse(SAMPLES[3].read_text())  # oosterbeek, ATS, overlay P3
    result = convert("map.tmx", tiled.tmx(doc), ruleset="ost")
    assert result.doc is not None and result.doc["overlays"] == []
    assert [f.code for f in result.findings if f.code == "overlays-laid"] == ["overlays-laid"]


def test_an_object_layer_named_for_a_terrain_is_read_as_that_terrain_through_the_mapping():
    # A rectangle over the centres of 0101 (60, 52) and 0102 (60, 156), and a point on 0301 (210, 104): Liqiduan's
    # "forest" layer. "Object Layer 1" (a spawn point) is no terrain and stays unread.
    forest = [{"id": 1, "name": "", "x": 40, "y": 30, "width": 40, "height": 150},
              {"id": 2, "name": "", "x": 270, "y": 60, "point": True}]
    data = json.loads(json_map([]))
    data["tilesets"][0]["tiles"][0]["properties"][0]["value"] = "open"
    data["layers"][2:] = [{"type": "objectgroup", "name": "forest", "objects": forest},
                          {"type": "objectgroup", "name": "Object Layer 1",
                           "objects": [{"id": 3, "name": "spawn", "x": 10, "y": 10, "point": True}]}]
    result = convert("map.tmj", json.dumps(data).encode())
    assert result.ok, [str(f) for f in result.findings]
    terrain = {h["hex"]: h.get("terrain") for h in result.doc["hexes"]}
    assert {label for label, t in terrain.items() if t == ["woods"]} == {"0101", "0102", "0301"}
    assert result.survey["codes"]["forest"]["count"] == 3  # in the mapping step's table, with its hexes
    assert result.doc["extensions"]["tiled"]["ignored_layers"] == {"objectgroup": 1}


def test_terrain_objects_are_tested_against_a_bound_on_the_hexes_they_cover():
    data = json.loads(json_map([]))
    cover = [{"id": k, "name": "", "x": 0, "y": 0, "width": 400, "height": 300} for k in range(1, 6)]
    data["layers"][2:] = [{"type": "objectgroup", "name": "forest", "objects": cover}]
    result = convert("map.tmj", json.dumps(data).encode(), limits=ImportLimits(max_tiles=20))
    assert result.doc is None and [f.code for f in result.findings] == ["too-many-objects"]
    assert "merge them in Tiled" in result.findings[0].message


def test_an_overlay_whose_definition_was_broken_in_tiled_is_read_from_its_layer_with_a_warning():
    data = json.loads(SAMPLES[3].read_text())  # oosterbeek, ATS, overlay P3 at K6 (woods), laid over brush here
    data["hexes"] = [h for h in data["hexes"] if h["hex"] != "K6"] + [{"hex": "K6", "terrain": ["brush"], "level": 0}]
    doc = mapfile.parse(data)
    root = ET.fromstring(tiled.tmx(doc))
    prop = root.find("objectgroup[@name='overlays']/object/properties/property[@name='definition']")
    prop.set("value", "{not json")
    result = convert("map.tmx", ET.tostring(root))
    assert result.doc is not None and result.doc["overlays"] == []
    assert [f.code for f in result.findings if f.severity == "warning"] == ["bad-value"]
    back = mapfile.parse(result.doc)
    terrain = {h: cell[0] for h, cell in layout(doc)[0].items()}
    # the overlay's terrain, from its layer, in place of what it covers (K6 is woods, not brush and woods)
    assert {h: cell[0] for h, cell in layout(back)[0].items()} == terrain


def test_a_map_whose_hexes_default_to_another_terrain_and_level_reads_back_as_the_same_document():
    data = json.loads(SAMPLES[1].read_text())  # hill-112, OST
    data["defaults"] = {"terrain": ["woods"], "level": 1}
    data["hexes"] = [h for h in data["hexes"] if (h.get("terrain"), h.get("level", 0), h.get("storeys", 1),
                                                  h.get("art")) != (["woods"], 1, 1, None)]
    doc = mapfile.parse(data)
    back, result = round_trip(doc)
    assert (back.default_terrain, back.default_level) == (("woods",), 1)
    assert document(back) == document(doc)
    root = ET.fromstring(tiled.tmx(doc))
    assert json.loads(root.find("properties/property[@name='defaults']").get("value")) == data["defaults"]
