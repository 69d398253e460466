"""A map as a Tiled map (TMX), for the tools that read Tiled's format (docs/exports.md, "Tiled"). No Django.

What is written, and how the project's Tiled importer (engine/importers/tiled.py) reads it back to the same
terrain, levels, storeys and hexsides:

- the grid: ``orientation="hexagonal"``; flat-topped hexes in columns are ``staggeraxis="x"``, pointy-topped
  hexes in rows ``staggeraxis="y"``; Hexside's stagger (which columns or rows sit lower or further right) is
  Tiled's ``staggerindex`` (odd/even mean the same in both), so Tiled's cell (x, y) is the hex at column x, row
  y. Hexes are TILE_R pixels to a side, with tile sizes rounded to even pixels as Tiled's renderer wants them;
- a tileset of the ruleset's hex terrain, drawn from its styles (engine/render), each tile carrying its terrain
  id as the ``terrain`` property; one tile layer per place in the hexes' own terrain lists, overlays not laid
  ("terrain", then "terrain 2" for a hex with a second terrain..);
- a tileset of the levels the map uses and a "levels" tile layer: each tile carries ``level`` (and
  ``storeys`` when a building has more than one); a hex at level 0 with one storey has no tile there;
- one tile layer per overlay, above the map's own ("overlay: <its name>"), its ``overlay`` property the overlay's
  id: what the overlay lays, so that Tiled shows the map as it is played;
- object layers: "hexsides" (a polyline along each hexside, of type ``hexside``, its terrain as ``terrain``; an
  overlay's hexsides carry ``overlay`` too), "art" (each hex's art polygons, type ``art``, with their exact
  map-space ``points`` as JSON), "notes" (a point on each hex with a label note, type ``label_note``, the
  note as ``note``) and "overlays" (a point on each overlay's anchor, type ``overlay``, named as the
  overlay is, with its ``id``, ``name``, ``anchor``, ``rotation`` and its ``definition``: the overlay's hexes and
  hexsides as the map format writes them, JSON). The importer rebuilds each overlay from its definition;
- the map's properties: ``name``, ``ruleset``, ``labels``, ``hex_metres``, ``extensions`` (the map's free
  data, JSON; overlay names travel on the overlays' objects) and ``defaults`` (JSON, when a hex with nothing listed
  is not the ruleset's open ground at level 0).

The tilesets are embedded in the TMX; their images are PNG files beside it: ``archive()`` gives the three as a
zip, ``files()`` as a dict of name to bytes.
"""

import io
import json
import math
import re
import xml.etree.ElementTree as ET
import zipfile

from PIL import Image, ImageDraw

from engine import mapfile, rulesets
from engine.mapfile.document import OVERLAY_NAMES
from engine.render.patterns import hex_points, paste_pattern
from engine.render.styles import CONTOUR, GRID_LINE, HILL, HOLLOW, font, hex_look, level_steps

TILE_R = 60  # a hex's side in Tiled's pixels: 120 x 104 tiles (flat), near enough regular once rounded to even
TILED_VERSION = "1.10"  # the TMX format version written (Tiled 1.10 reads and writes it; older Tiled reads it too)
COLUMNS = 8  # tiles per row of a tileset image
SQRT3 = math.sqrt(3)


class Geometry:
    """Tiled's pixels for one grid: the tile sizes, and a map-space point as a Tiled pixel (the centre of Tiled's
    cell (0, 0) is the map's centre of column 0, row 0; HexagonalRenderer's own sizes give the scale)."""

    def __init__(self, grid):
        self.grid = grid
        across = 2 * round(SQRT3 * TILE_R / 2)  # the width across the flats, to an even pixel
        if grid.orientation == "flat":
            self.tile_w, self.tile_h, self.axis = 2 * TILE_R, across, "x"
            column_width, row_height = (self.tile_w - TILE_R) // 2 + TILE_R, self.tile_h // 2
            self.scale = (column_width / 1.5, self.tile_h / SQRT3)
            first = (self.tile_w / 2, self.tile_h / 2 + (row_height if grid.shifted(0) else 0))
        else:
            self.tile_w, self.tile_h, self.axis = across, 2 * TILE_R, "y"
            column_width, row_height = self.tile_w // 2, (self.tile_h - TILE_R) // 2 + TILE_R
            self.scale = (self.tile_w / SQRT3, row_height / 1.5)
            first = (self.tile_w / 2 + (column_width if grid.shifted(0) else 0), self.tile_h / 2)
        mx, my = grid.centre(0, 0)
        self.offset = (first[0] - mx * self.scale[0], first[1] - my * self.scale[1])

    def px(self, point):
        return (self.offset[0] + point[0] * self.scale[0], self.offset[1] + point[1] * self.scale[1])


def tmx(doc):
    """The map as TMX text (bytes); its tileset images are in files()."""
    doc = _parse(doc)
    return _build(doc, safe_stem(doc.name))[0]


def files(doc, stem=None):
    """{file name: bytes}: the TMX and the two tileset images it names beside it."""
    doc = _parse(doc)
    stem = stem or safe_stem(doc.name)
    text, images = _build(doc, stem)
    return {f"{stem}.tmx": text, **images}


def archive(doc, stem=None):
    """The TMX and its tileset images as one zip (what the export job and ``export_map --format tiled`` give)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, content in files(doc, stem).items():
            zf.writestr(name, content)
    return out.getvalue()


def safe_stem(name):
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name or "map").strip("-.") or "map"


def _parse(doc):
    return doc if isinstance(doc, mapfile.MapDoc) else mapfile.parse(doc)


def _build(doc, stem):
    grid, catalogue = doc.grid, rulesets.get(doc.ruleset)
    geo = Geometry(grid)
    cells = {pos: doc.cell(*pos) for pos in grid.hexes()}  # the map's own hexes, overlays not laid
    terrain_ids = catalogue.terrain_ids("hex")
    gid_of = {tid: 1 + k for k, tid in enumerate(terrain_ids)}
    level_keys = sorted({(c.level, c.storeys) for c in cells.values()} - {(0, 1)})
    level_gid = {key: len(terrain_ids) + 1 + k for k, key in enumerate(level_keys)}

    root = ET.Element("map", {
        "version": TILED_VERSION, "tiledversion": "1.10.2", "orientation": "hexagonal", "renderorder": "right-down",
        "width": str(grid.columns), "height": str(grid.rows), "tilewidth": str(geo.tile_w),
        "tileheight": str(geo.tile_h), "infinite": "0", "hexsidelength": str(TILE_R), "staggeraxis": geo.axis,
        "staggerindex": grid.stagger})
    extensions = {k: v for k, v in (doc.extensions or {}).items() if k not in (OVERLAY_NAMES, "imported", "tiled")}
    _properties(root, [("name", "string", doc.name), ("ruleset", "string", doc.ruleset),
                       ("labels", "string", grid.labels)]
                + ([("hex_metres", "float", f"{grid.hex_metres:g}")] if grid.hex_metres else [])
                + ([("extensions", "string", json.dumps(extensions, sort_keys=True))] if extensions else [])
                + _defaults(doc, catalogue))
    images = {f"{stem}-terrain.png": _terrain_image(catalogue, terrain_ids, geo)}
    _tileset(root, 1, f"{catalogue.id} terrain", geo, f"{stem}-terrain.png", len(terrain_ids),
             [[("terrain", "string", tid), ("name", "string", catalogue.get(tid)["name"])] for tid in terrain_ids])
    if level_keys:
        images[f"{stem}-levels.png"] = _levels_image(catalogue, level_keys, geo)
        _tileset(root, len(terrain_ids) + 1, "levels", geo, f"{stem}-levels.png", len(level_keys),
                 [[("level", "int", str(level))] + ([("storeys", "int", str(storeys))] if storeys != 1 else [])
                  for level, storeys in level_keys])
    writer = _Writer(root, grid)
    depth = max(len(c.terrain) for c in cells.values())
    for place in range(depth):
        writer.layer("terrain" if place == 0 else f"terrain {place + 1}", {
            pos: gid_of.get(c.terrain[place], 0) for pos, c in cells.items() if place < len(c.terrain)})
    if level_keys:
        writer.layer("levels", {pos: level_gid.get((c.level, c.storeys), 0) for pos, c in cells.items()})
    titles = _overlay_titles(doc)
    for overlay in doc.overlays:
        laid = {pos: gid_of.get(c.terrain[0], 0) for pos, c in mapfile.overlay_cells(grid, overlay, doc.default_cell())
                if grid.contains(*pos) and c.terrain}
        writer.layer(f"overlay: {titles[overlay.id]}", laid, [("overlay", "string", overlay.id)])
    _objects(doc, writer, geo, titles)
    root.set("nextlayerid", str(writer.layer_id + 1))
    root.set("nextobjectid", str(writer.object_id + 1))
    ET.indent(root, " ")
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8") + b"\n", images


def _defaults(doc, catalogue):
    """The ``defaults`` property (JSON) when a hex with nothing listed is not the ruleset's open ground at level 0."""
    defaults = {"terrain": list(doc.default_terrain), "level": doc.default_level}
    if defaults == {"terrain": [catalogue.open_hex()], "level": 0}:
        return []
    return [("defaults", "string", json.dumps(defaults))]


def _overlay_titles(doc):
    """{overlay id: what Tiled shows it as}: its name or printed ID, else "overlay N" (never an internal id)."""
    names = mapfile.overlay_names(doc)
    return {o.id: mapfile.overlay_title(doc, o, names) or f"overlay {k + 1}" for k, o in enumerate(doc.overlays)}


class _Writer:
    """The TMX's layers and objects, numbered as Tiled numbers them."""

    def __init__(self, root, grid):
        self.root, self.grid = root, grid
        self.layer_id = self.object_id = 0

    def layer(self, name, gids, props=()):
        """A tile layer: {(column, row): gid}, 0 (no tile) elsewhere."""
        self.layer_id += 1
        grid = self.grid
        element = ET.SubElement(self.root, "layer", {"id": str(self.layer_id), "name": name,
                                                     "width": str(grid.columns), "height": str(grid.rows)})
        _properties(element, list(props))
        data = ET.SubElement(element, "data", {"encoding": "csv"})
        rows = [[gids.get((col, row), 0) for col in range(grid.columns)] for row in range(grid.rows)]
        data.text = "\n" + ",\n".join(",".join(str(g) for g in row) for row in rows) + "\n"

    def group(self, name):
        self.layer_id += 1
        return ET.SubElement(self.root, "objectgroup", {"id": str(self.layer_id), "name": name})

    def obj(self, parent, name, kind, x, y, props):
        self.object_id += 1
        # "type": TMX 1.10's name for an object's class (Tiled 1.9 alone wrote "class"; the importer reads both)
        element = ET.SubElement(parent, "object", {"id": str(self.object_id), "name": name, "type": kind,
                                                   "x": _n(x), "y": _n(y)})
        _properties(element, props)
        return element


def _objects(doc, writer, geo, titles):
    """The hexsides, art and overlays object layers."""
    grid = doc.grid
    layer = writer.group("hexsides")
    own = [(key, terrain, None) for key, terrain in sorted(doc.hexsides.items(), key=lambda kv: kv[0])]
    laid = [(key, terrain, overlay.id) for overlay in doc.overlays
            for key, terrain in mapfile.overlay_hexsides(grid, overlay)]
    for key, terrain, overlay_id in own + laid:
        col, row, side = grid.hexside_name(key)
        a, b = (geo.px(p) for p in grid.side_endpoints(col, row, side))
        label = grid.label(col, row)
        element = writer.obj(layer, f"{label} {side}", "hexside", a[0], a[1],
                             [("terrain", "string", terrain), ("hex", "string", label), ("side", "string", side)]
                             + ([("overlay", "string", overlay_id)] if overlay_id else []))
        ET.SubElement(element, "polyline", {"points": f"0,0 {_n(b[0] - a[0])},{_n(b[1] - a[1])}"})
    layer = writer.group("art")
    for (col, row), c in sorted(doc.hexes.items()):
        for polygon in c.art or ():
            points = [geo.px(p) for p in polygon]
            element = writer.obj(layer, grid.label(col, row), "art", points[0][0], points[0][1],
                                 [("hex", "string", grid.label(col, row)), ("terrain", "string", c.terrain[0]),
                                  ("points", "string", json.dumps([list(p) for p in polygon]))])
            ET.SubElement(element, "polygon", {"points": " ".join(
                f"{_n(x - points[0][0])},{_n(y - points[0][1])}" for x, y in points)})
    layer = writer.group("notes")
    for (col, row), c in sorted(doc.hexes.items()):
        if c.label_note is not None:
            x, y = geo.px(grid.centre(col, row))
            element = writer.obj(layer, grid.label(col, row), "label_note", x, y,
                                 [("hex", "string", grid.label(col, row)), ("note", "string", c.label_note)])
            ET.SubElement(element, "point")
    layer = writer.group("overlays")
    names = mapfile.overlay_names(doc)
    for overlay in doc.overlays:
        x, y = geo.px(grid.centre(*overlay.anchor))
        definition = {"hexes": overlay.hexes, "hexsides": overlay.hexsides}
        element = writer.obj(layer, titles[overlay.id], "overlay", x, y,
                             [("id", "string", overlay.id), ("anchor", "string", grid.label(*overlay.anchor)),
                              ("rotation", "int", str(overlay.rotation))]
                             + ([("name", "string", names[overlay.id])] if overlay.id in names else [])
                             + [("definition", "string", json.dumps(definition, sort_keys=True))])
        ET.SubElement(element, "point")


def _n(value):
    """A pixel coordinate, to a hundredth (Tiled keeps floats)."""
    return f"{round(value, 2):g}"


def _properties(parent, props):
    if not props:
        return
    element = ET.SubElement(parent, "properties")
    for name, kind, value in props:
        attributes = {"name": name, "value": value}
        if kind != "string":
            attributes["type"] = kind
        ET.SubElement(element, "property", attributes)


def _tileset(root, firstgid, name, geo, image, count, tile_props):
    rows = math.ceil(count / COLUMNS)
    columns = min(count, COLUMNS)
    element = ET.SubElement(root, "tileset", {
        "firstgid": str(firstgid), "name": name, "tilewidth": str(geo.tile_w), "tileheight": str(geo.tile_h),
        "tilecount": str(count), "columns": str(columns)})
    ET.SubElement(element, "image", {"source": image, "width": str(columns * geo.tile_w),
                                     "height": str(rows * geo.tile_h)})
    for local, props in enumerate(tile_props):
        _properties(ET.SubElement(element, "tile", {"id": str(local)}), props)


def _sheet(geo, count):
    columns = min(count, COLUMNS)
    return Image.new("RGBA", (columns * geo.tile_w, math.ceil(count / COLUMNS) * geo.tile_h), (0, 0, 0, 0))


def _tile_centre(geo, k):
    return (k % COLUMNS) * geo.tile_w + geo.tile_w / 2, (k // COLUMNS) * geo.tile_h + geo.tile_h / 2


def _terrain_image(catalogue, terrain_ids, geo):
    """Each hex terrain as a hex the size of a tile, in its print style (fill and pattern)."""
    orientation = geo.grid.orientation
    sheet = _sheet(geo, len(terrain_ids))
    draw = ImageDraw.Draw(sheet)
    for k, tid in enumerate(terrain_ids):
        cx, cy = _tile_centre(geo, k)
        fill, patterns, _ = hex_look(catalogue, (tid,))
        points = hex_points(orientation, TILE_R, cx, cy)
        draw.polygon(points, fill=fill + (255,))
        for pattern, colour in patterns:
            paste_pattern(sheet, pattern, colour, orientation, TILE_R, cx, cy)
        draw.line(points + points[:1], fill=GRID_LINE + (255,), width=1)
    return _png(sheet)


def _levels_image(catalogue, level_keys, geo):
    """Each (level, storeys) the map uses as a see-through hex tinted up or down, its level written on it."""
    orientation = geo.grid.orientation
    sheet = _sheet(geo, len(level_keys))
    draw = ImageDraw.Draw(sheet)
    f = font(TILE_R * 0.35, bold=True)
    for k, (level, storeys) in enumerate(level_keys):
        cx, cy = _tile_centre(geo, k)
        steps = level_steps(catalogue, level)
        tint = (HILL if steps >= 0 else HOLLOW) + (min(150, 40 * abs(steps)),)
        points = hex_points(orientation, TILE_R, cx, cy, inset=2)
        draw.polygon(points, fill=tint)
        draw.line(points + points[:1], fill=CONTOUR + (255,), width=3)
        text = f"{level:+d}" + (f" ({storeys})" if storeys != 1 else "")
        draw.text((cx, cy), text, fill=(70, 45, 20, 255), font=f, anchor="mm", stroke_width=2,
                  stroke_fill=(255, 255, 255, 255))
    return _png(sheet)


def _png(image):
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
