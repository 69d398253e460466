"""Tiled hex maps (TMX and JSON) into the map format.

Read: ``orientation="hexagonal"`` maps, staggeraxis x (flat-topped hexes in columns) or y (pointy-topped hexes
in rows), staggerindex odd/even, layer data as csv, XML tiles, or base64 raw/zlib/gzip (zstd is refused with a
finding: Python cannot read it without an extra library), flip and rotation flags (masked off: the terrain does
not turn), embedded and external tilesets (.tsx, .tsj/.json), tile layers inside groups, infinite maps (their
chunks, cropped to the tiles used). Each hex's source codes are the codes of its tiles, bottom layer first; a
tile's code is, in order: its ``terrain`` property, its ``type``/``class`` property or attribute, its old-style
terrain corners when all four agree, the first enum ``:variant`` of a class property, its own image's name, or
``<tileset name>#<tile id>``. A tile's ``level`` (or ``elevation``) property gives the hex's elevation, its
``storeys`` property the hex's storeys; a tile that has one of them and names no terrain (a levels layer's tile)
gives only those. Objects of class (or type) ``hexside`` with a ``terrain`` property are hexsides: the edge nearest
the middle of the object's line. The map's own ``ruleset``, ``labels``, ``hex_metres`` and ``name`` properties
(what engine/exports/tiled.py writes) are taken when the import does not name a ruleset.
Not read: other objects, image layers, Wang sets, tile animations.

Geometry: a Tiled hex (x, y) keeps its place: column x, row y (less the chunks' origin on an infinite map), and
Tiled's stagger becomes the map's stagger, so each hex's neighbours are Tiled's. Tiled draws hexes that need not
be regular (a tile width, height and side length in pixels); Hexside's are regular, so the pixel scale along each
axis is kept in ``extensions.tiled`` and a map whose hexes are far from regular gets a warning.
"""

import base64
import binascii
import json
import math
import posixpath
import sys
import zlib
from array import array

from engine import rulesets
from engine.hexgrid import LABEL_SCHEMES, MAX_SIZE
from engine.importers.common import MapBuilder, counted, fit_level, integer, parse_json, parse_xml
from engine.importers.pictures import tile_pictures
from engine.importers.tiled_objects import Objects, lay, overlays
from engine.mapfile.document import OVERLAY_NAMES

FLAGS = 0xF0000000  # flip horizontal, flip vertical, diagonal / rotate 60, rotate 120 (hex maps)
MAX_DEPTH = 32  # nested groups and class properties
# A layer's tiles are held as 4-byte gids (array "I"), never as one Python object per tile: 500 x 500 tiles are
# 1 MB a layer, and the limits (ImportLimits.max_tile_layers, max_tiles) bound the layers and tiles decoded.
GIDS = "I" if array("I").itemsize == 4 else "L"


class Tileset:
    def __init__(self, name, firstgid, source=None):
        self.name = name
        self.firstgid = firstgid
        self.source = source
        self.missing = False
        self.tiles = {}  # local id -> (code, level, storeys)
        self.tilecount = None
        self.atlas = None  # (image, tile width, tile height, spacing, margin, columns) of a tileset image
        self.images = {}  # local id -> image of an image-collection tile
        self.base = None  # the tileset file's path, which its images are relative to (None: the map's)

    def code(self, local):
        """(code, level, storeys) of a tile; a tile that gives a level or storeys and no terrain has code None."""
        code, level, storeys = self.tiles.get(local, (None, None, None))
        if code is None and level is None and storeys is None:
            code = f"{self.name}#{local}"
        return code, level, storeys


class Layer:
    def __init__(self, name):
        self.name = name
        self.overlay = None  # the id of the overlay a layer shows (its ``overlay`` property: Hexside's export)
        self.chunks = []  # (x, y, width, height, gids row by row): the whole map, or an infinite map's chunks


def convert(data, context):
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{":
        reader = JsonReader(parse_json(data, context, "the Tiled map"), context)
    else:
        reader = XmlReader(parse_xml(data, context, "the Tiled map"), context)
    reader.read()
    return build(reader, context)


# -- the map's header, shared by both readers ------------------------------------------------------------

class Reader:
    def __init__(self, root, context):
        self.root = root
        self.context = context
        self.tilesets = []
        self.layers = []
        self.ignored = {}
        self.tiles = 0  # tiles declared by the layers and chunks read so far
        self.external = {}  # path -> (name, tiles, tilecount, missing) of each external tileset read
        self.tile_definitions = 0  # tiles the tilesets define, each file counted once
        self.properties = {}  # the map's own properties
        self.objects = Objects(context)  # what the object layers hold (engine/importers/tiled_objects.py)

    def claim(self, count, where):
        """Count a layer's (or chunk's) declared tiles against the limit before they are decoded."""
        limit = self.context.limits.max_tiles
        self.tiles += count
        if self.tiles > limit:
            self.context.refuse(where, f"the map's layers hold more than {limit:,} tiles in all (this layer "
                                       f"brings them to {self.tiles:,}); merge or delete layers in Tiled",
                                code="too-many-tiles")

    def new_layer(self, name):
        """A tile layer, refused past the layer limit before any of its data is read."""
        limit = self.context.limits.max_tile_layers
        if len(self.layers) >= limit:
            self.context.refuse(f"layer {name!r}", f"the map has more than {limit} tile layers; Hexside reads at "
                                                   f"most {limit}", code="too-many-layers")
        return Layer(name)

    def header(self, get):
        context = self.context
        orientation = get("orientation")
        if orientation != "hexagonal":
            context.refuse("map.orientation", f"this Tiled map's orientation is {orientation!r}; Hexside reads "
                                              "hexagonal Tiled maps only", code="not-hexagonal")
        self.staggeraxis = get("staggeraxis") or "y"
        self.staggerindex = get("staggerindex") or "odd"
        if self.staggeraxis not in ("x", "y") or self.staggerindex not in ("odd", "even"):
            context.refuse("map", f"staggeraxis {self.staggeraxis!r} / staggerindex {self.staggerindex!r}: expected "
                                  "x or y and odd or even", code="bad-value")
        self.infinite = str(get("infinite") or "0").lower() in ("1", "true")
        self.width = integer(get("width"), context, "map.width", "the map's width", 1, None)
        self.height = integer(get("height"), context, "map.height", "the map's height", 1, None)
        if not self.infinite and (self.width > MAX_SIZE or self.height > MAX_SIZE):
            # Refused on the declared size, before any layer is decoded (an infinite map: by its chunks' tiles).
            context.refuse("map", f"the map is {self.width} x {self.height} tiles; Hexside maps are at most "
                                  f"{MAX_SIZE} x {MAX_SIZE} hexes", code="map-too-large")
        self.tilewidth = integer(get("tilewidth"), context, "map.tilewidth", "the tile width", 1, 1_000_000)
        self.tileheight = integer(get("tileheight"), context, "map.tileheight", "the tile height", 1, 1_000_000)
        self.hexsidelength = integer(get("hexsidelength") or 0, context, "map.hexsidelength",
                                     "the hex side length", 0, 1_000_000)

    def add_tileset(self, firstgid, source, read_inline):
        context = self.context
        if len(self.tilesets) >= context.limits.max_tilesets:
            context.refuse("map.tileset", f"the map names more than {context.limits.max_tilesets} tilesets",
                           code="too-many-tilesets")
        if source:
            tileset = Tileset(posixpath.basename(source), firstgid, source)
            path = context.resolve(source)
            if path in self.external:  # a tileset named again (by another firstgid) is read once
                (tileset.name, tileset.tiles, tileset.tilecount, tileset.missing, tileset.atlas, tileset.images,
                 tileset.base) = self.external[path]
                self.tilesets.append(tileset)
                return
            path, data = context.sibling(source)
            tileset.base = path
            if data is None:
                tileset.missing = True
            else:
                sub = type(context)(name=path, files=context.files, limits=context.limits, source=context.source)
                try:
                    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{":
                        read_json_tileset(parse_json(data, sub, f"the tileset {source}"), tileset)
                    else:
                        read_xml_tileset(parse_xml(data, sub, f"the tileset {source}"), tileset, sub)
                except Exception:  # noqa: BLE001 - the sub-context's findings say what went wrong
                    tileset.missing = True
                for f in sub.findings:
                    context.error(f"tileset {source}", f.message, code=f.code)
            self.external[path] = (tileset.name, tileset.tiles, tileset.tilecount, tileset.missing, tileset.atlas,
                                   tileset.images, tileset.base)
        else:
            tileset = Tileset("tileset", firstgid)
            read_inline(tileset)
        self.tile_definitions += len(tileset.tiles)
        limit = context.limits.max_tile_definitions
        if self.tile_definitions > limit:
            context.refuse(f"tileset {source or tileset.name}", f"the map's tilesets define more than {limit:,} tiles "
                                                                "in all", code="too-many-tile-definitions")
        self.tilesets.append(tileset)


class XmlReader(Reader):
    def read(self):
        root = self.root
        if root.tag != "map":
            self.context.refuse("$", f"a TMX file's root should be <map>, not <{root.tag}>", code="not-a-map")
        self.header(root.get)
        self.properties = dict(xml_properties(root.find("properties"), 0))
        for element in root.findall("tileset"):
            firstgid = integer(element.get("firstgid"), self.context, "map.tileset", "a tileset's firstgid", 1, None)
            self.add_tileset(firstgid, element.get("source"),
                             lambda ts, el=element: read_xml_tileset(el, ts, self.context))
        self.read_layers(root, 0)

    def read_layers(self, parent, depth):
        if depth > MAX_DEPTH:
            self.context.refuse("map", "layer groups nest too deeply", code="too-deep")
        for element in parent:
            if element.tag == "layer":
                self.layers.append(self.read_layer(element))
            elif element.tag == "group":
                self.read_layers(element, depth + 1)
            elif element.tag == "objectgroup" and self.objects.read_group(
                    element.get("name") or "", element.get("class"),
                    [(o.attrib, xml_properties(o.find("properties"), 0), xml_points(o), xml_shape(o))
                     for o in element.findall("object")]):
                continue
            elif element.tag in ("objectgroup", "imagelayer"):
                self.ignored[element.tag] = self.ignored.get(element.tag, 0) + 1

    def read_layer(self, element):
        context = self.context
        layer = self.new_layer(element.get("name") or "")
        layer.overlay = dict(xml_properties(element.find("properties"), 0)).get("overlay")
        data = element.find("data")
        if data is None:
            return layer
        encoding, compression = data.get("encoding"), data.get("compression")
        chunks = data.findall("chunk")
        if chunks:
            for chunk, (x, y, w, h) in chunk_boxes(chunks, context, layer.name):
                self.claim(w * h, f"layer {layer.name!r}")
                layer.chunks.append((x, y, w, h, decode(encoding, compression, chunk, w * h, context, layer.name)))
        else:
            self.claim(self.width * self.height, f"layer {layer.name!r}")
            layer.chunks.append((0, 0, self.width, self.height,
                                 decode(encoding, compression, data, self.width * self.height, context, layer.name)))
        return layer


def xml_points(element):
    """The points of an object's polyline (or polygon), relative to the object, as text pairs."""
    line = element.find("polyline")
    if line is None:
        line = element.find("polygon")
    return [] if line is None else [p.split(",", 1) for p in (line.get("points") or "").split()]


def xml_shape(element):
    """What an object is drawn as: polygon, polyline, ellipse, point, or None (a rectangle or a tile)."""
    return next((tag for tag in ("polygon", "polyline", "ellipse", "point") if element.find(tag) is not None), None)


def chunk_boxes(chunks, context, layer_name):
    """(chunk, (x, y, width, height)) for each chunk of an infinite map's layer (XML element or JSON object)."""
    where = f"layer {layer_name}"
    for chunk in chunks:
        box = (integer(chunk.get("x"), context, where, "a chunk's x", -2**31, 2**31),
               integer(chunk.get("y"), context, where, "a chunk's y", -2**31, 2**31),
               integer(chunk.get("width"), context, where, "a chunk's width", 1, 4096),
               integer(chunk.get("height"), context, where, "a chunk's height", 1, 4096))
        yield chunk, box


def decode(encoding, compression, element, count, context, layer_name):
    """The gids of one layer or chunk as an array (``element`` is its XML element or, for JSON, its data value).
    Nothing is expanded past ``count`` tiles: csv is counted before it is split, compressed data is inflated
    with a bounded output, so a small file cannot declare its way to a large allocation."""
    where = f"layer {layer_name!r}"
    gids = array(GIDS)
    if encoding in (None, "") and not isinstance(element, (str, list)):
        for i, tile in enumerate(element.iterfind("tile")):
            if i > count:
                break
            gids.append(integer(tile.get("gid") or 0, context, where, "a tile's gid", 0, 2**32 - 1))
    elif encoding == "csv" or isinstance(element, list):
        if isinstance(element, list):
            values = element[:count + 1]
        else:
            text = element.text or ""
            if text.count(",") > 2 * count + 16:
                context.refuse(where, f"the layer's csv data holds more than the {count:,} tiles it should",
                               code="bad-layer-data")
            values = [v for v in text.replace("\n", "").split(",") if v.strip()][:count + 1]
        gids.extend(integer(v, context, where, "a tile's gid", 0, 2**32 - 1) for v in values)
    elif encoding == "base64":
        text = element if isinstance(element, str) else (element.text or "")
        # Whitespace dropped in one pass (splitting on it made one string per piece: a million for 5 MB).
        text = text.encode("ascii", "replace").translate(None, b" \t\r\n\f\v")
        if compression in (None, "") and len(text) > 4 * (count * 4 + 2) // 3 + 4:
            context.refuse(where, f"the layer's base64 data holds more than the {count:,} tiles it should",
                           code="bad-layer-data")
        try:
            raw = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            context.refuse(where, "the layer's base64 data is broken", code="bad-layer-data")
        if compression in ("zlib", "gzip"):
            try:
                inflater = zlib.decompressobj(wbits=47)  # zlib or gzip header, detected
                raw = inflater.decompress(raw, count * 4 + 1)  # never more than the layer's tiles and one byte
            except zlib.error as exc:
                context.refuse(where, f"the layer's {compression} data is corrupt ({exc})", code="bad-layer-data")
            if len(raw) > count * 4:
                context.refuse(where, f"the layer's {compression} data expands past the {count:,} tiles the layer "
                                      "holds; it is not read further (a compression bomb, or the wrong size)",
                               code="layer-data-too-large")
        elif compression == "zstd":
            context.refuse(where, "the layer is zstd-compressed, which Hexside cannot read; save the map from "
                                  "Tiled with zlib, gzip or csv layer data", code="zstd-unsupported")
        elif compression not in (None, ""):
            context.refuse(where, f"unknown compression {compression!r}", code="bad-layer-data")
        if len(raw) != count * 4:
            context.refuse(where, f"the layer holds {len(raw) // 4} tiles, expected {count}; is it truncated?",
                           code="bad-layer-data")
        gids.frombytes(raw)
        if sys.byteorder == "big":
            gids.byteswap()  # Tiled writes little-endian
    else:
        context.refuse(where, f"unknown layer encoding {encoding!r}", code="bad-layer-data")
    if len(gids) != count:
        context.refuse(where, f"the layer holds {len(gids)} tiles, expected {count}; is it truncated?",
                       code="bad-layer-data")
    return gids


def read_xml_tileset(element, tileset, context):
    if element.tag != "tileset":
        context.refuse("$", f"a tileset's root should be <tileset>, not <{element.tag}>", code="bad-tileset")
    tileset.name = element.get("name") or tileset.name
    if element.get("tilecount"):
        tileset.tilecount = integer(element.get("tilecount"), context, "tileset", "the tile count", 0, None)
    atlas = element.find("image")
    if atlas is not None and atlas.get("source"):
        tileset.atlas = (atlas.get("source"), *(_int(element.get(k)) for k in ("tilewidth", "tileheight", "spacing",
                                                                               "margin", "columns")))
    terrains = [t.get("name") for t in element.findall("terraintypes/terrain")]
    for tile in element.findall("tile"):
        local = integer(tile.get("id"), context, "tileset", "a tile id", 0, None)
        props = xml_properties(tile.find("properties"), 0)
        corners = (tile.get("terrain") or "").split(",")
        corner = None
        if len(corners) == 4 and len(set(corners)) == 1 and corners[0].isdecimal() and len(corners[0]) < 7 and \
                int(corners[0]) < len(terrains):
            corner = terrains[int(corners[0])]
        image = tile.find("image")
        if image is not None and image.get("source"):
            tileset.images[local] = image.get("source")
        tileset.tiles[local] = tile_code(props, tile.get("type") or tile.get("class"), corner,
                                         image.get("source") if image is not None else None)


def xml_properties(element, depth):
    """[(name, value)] of a properties element, class properties flattened depth first."""
    out = []
    if element is None or depth > MAX_DEPTH:
        return out
    for prop in element.findall("property"):
        name = prop.get("name") or ""
        nested = prop.find("properties")
        if nested is not None:
            out.append((name, None))
            out.extend(xml_properties(nested, depth + 1))
        else:
            out.append((name, prop.get("value") if prop.get("value") is not None else (prop.text or "")))
    return out


def json_properties(items, depth):
    out = []
    if depth > MAX_DEPTH:
        return out
    if isinstance(items, dict):  # Tiled 1.2's {"name": value}, or a class property's value
        items = [{"name": k, "value": v} for k, v in items.items()]
    for prop in items if isinstance(items, list) else []:
        if not isinstance(prop, dict):
            continue
        name, value = str(prop.get("name", "")), prop.get("value")
        if isinstance(value, dict):
            out.append((name, None))
            out.extend(json_properties(value, depth + 1))
        else:
            out.append((name, value))
    return out


def tile_code(props, type_attr, corner, image):
    """(code, level, storeys) of one tile, from the first of its properties that names a terrain (module
    docstring)."""
    top = {}
    for name, value in props:
        top.setdefault(name.lower(), value)
    level = storeys = None
    for key in ("level", "elevation"):
        if top.get(key) is not None:
            level = _whole(top[key])
            break
    if top.get("storeys") is not None:
        storeys = _whole(top["storeys"])
    for key in ("terrain", "type", "class"):
        if isinstance(top.get(key), str) and top[key].strip():
            return top[key].strip(), level, storeys
    if type_attr:
        return type_attr.strip(), level, storeys
    if corner:
        return corner, level, storeys
    for name, value in props:
        if name == ":variant" and isinstance(value, str) and value:
            return value, level, storeys
    if image:
        stem = posixpath.basename(image.replace("\\", "/"))
        return (stem.rsplit(".", 1)[0] if "." in stem else stem), level, storeys
    return None, level, storeys


def _whole(value):
    try:
        return int(str(value))
    except ValueError:
        return None


class JsonReader(Reader):
    def read(self):
        root = self.root
        context = self.context
        if not isinstance(root, dict):
            context.refuse("$", "a Tiled JSON map should be an object", code="not-a-map")
        if root.get("type") == "tileset":
            context.refuse("$", "a Tiled tileset, not a map: it is read when a map that uses it is imported beside it",
                           code="not-a-map")
        self.header(lambda key: _text(root.get(key)))
        self.properties = dict(json_properties(root.get("properties") or [], 0))
        for ts in root.get("tilesets") or []:
            if not isinstance(ts, dict):
                context.refuse("tilesets", "a tileset entry should be an object", code="bad-tileset")
            firstgid = integer(ts.get("firstgid"), context, "tilesets", "a tileset's firstgid", 1, None)
            self.add_tileset(firstgid, ts.get("source"), lambda t, data=ts: read_json_tileset(data, t))
        self.read_layers(root.get("layers") or [], 0)

    def read_layers(self, layers, depth):
        if depth > MAX_DEPTH:
            self.context.refuse("layers", "layer groups nest too deeply", code="too-deep")
        for item in layers if isinstance(layers, list) else []:
            if not isinstance(item, dict):
                continue
            kind = item.get("type")
            if kind == "tilelayer":
                self.layers.append(self.read_layer(item))
            elif kind == "group":
                self.read_layers(item.get("layers") or [], depth + 1)
            elif kind == "objectgroup" and self.objects.read_group(
                    str(item.get("name") or ""), item.get("class"),
                    [(o, json_properties(o.get("properties") or [], 0),
                      [(p.get("x"), p.get("y")) for p in (o.get("polyline") or o.get("polygon") or [])
                       if isinstance(p, dict)], json_shape(o))
                     for o in item.get("objects") or [] if isinstance(o, dict)]):
                continue
            elif kind in ("objectgroup", "imagelayer"):
                self.ignored[kind] = self.ignored.get(kind, 0) + 1

    def read_layer(self, item):
        context = self.context
        layer = self.new_layer(str(item.get("name") or ""))
        overlay = dict(json_properties(item.get("properties") or [], 0)).get("overlay")
        layer.overlay = overlay if isinstance(overlay, str) else None
        encoding = item.get("encoding") or ("base64" if isinstance(item.get("data"), str) else "csv")
        compression = item.get("compression")
        if item.get("chunks"):
            chunks = item["chunks"] if isinstance(item["chunks"], list) else []
            if not all(isinstance(chunk, dict) for chunk in chunks):
                context.refuse(f"layer {layer.name}", "a chunk should be an object", code="bad-layer-data")
            for chunk, (x, y, w, h) in chunk_boxes(chunks, context, layer.name):
                self.claim(w * h, f"layer {layer.name!r}")
                layer.chunks.append((x, y, w, h, decode(encoding, compression, chunk.get("data") or [], w * h,
                                                        context, layer.name)))
        elif item.get("data") is not None:
            data = item["data"]
            if not isinstance(data, (list, str)):
                context.refuse(f"layer {layer.name}", "the layer's data should be a list or a base64 string",
                               code="bad-layer-data")
            self.claim(self.width * self.height, f"layer {layer.name!r}")
            layer.chunks.append((0, 0, self.width, self.height,
                                 decode(encoding, compression, data, self.width * self.height, context, layer.name)))
        return layer


def json_shape(item):
    return next((key for key in ("polygon", "polyline", "ellipse", "point") if item.get(key)), None)


def _text(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    return None if value is None else str(value)


def read_json_tileset(data, tileset):
    if not isinstance(data, dict):
        return
    tileset.name = str(data.get("name") or tileset.name)
    if isinstance(data.get("tilecount"), int):
        tileset.tilecount = data["tilecount"]
    if isinstance(data.get("image"), str):
        tileset.atlas = (data["image"], *(_int(data.get(k)) for k in ("tilewidth", "tileheight", "spacing", "margin",
                                                                       "columns")))
    terrains = [t.get("name") for t in data.get("terrains") or [] if isinstance(t, dict)]
    legacy = data.get("tileproperties") if isinstance(data.get("tileproperties"), dict) else {}
    for key, props in legacy.items():
        if str(key).isdecimal() and len(str(key)) < 11:
            tileset.tiles[int(key)] = tile_code(json_properties(props, 0), None, None, None)
    tiles = data.get("tiles") or []
    if isinstance(tiles, dict):  # Tiled 1.1's {"id": {...}}
        tiles = [dict(v, id=int(k)) for k, v in tiles.items() if str(k).isdecimal() and len(str(k)) < 11 and
                 isinstance(v, dict)]
    for tile in tiles:
        if not isinstance(tile, dict) or not isinstance(tile.get("id"), int):
            continue
        corners = tile.get("terrain") or []
        corner = None
        if isinstance(corners, list) and len(corners) == 4 and len(set(corners)) == 1 and \
                isinstance(corners[0], int) and 0 <= corners[0] < len(terrains):
            corner = terrains[corners[0]]
        if isinstance(tile.get("image"), str):
            tileset.images[tile["id"]] = tile["image"]
        tileset.tiles[tile["id"]] = tile_code(json_properties(tile.get("properties") or [], 0),
                                              tile.get("type") or tile.get("class"), corner, tile.get("image"))


# -- from Tiled's cells to the map --------------------------------------------------------------------

def render_params(reader):
    """Tiled's own numbers for a hexagonal map (HexagonalRenderer::RenderParams)."""
    tile_w, tile_h = reader.tilewidth & ~1, reader.tileheight & ~1
    stagger_x = reader.staggeraxis == "x"
    side_x = reader.hexsidelength if stagger_x else 0
    side_y = 0 if stagger_x else reader.hexsidelength
    side_offset_x, side_offset_y = (tile_w - side_x) // 2, (tile_h - side_y) // 2
    return {"tile_w": tile_w, "tile_h": tile_h, "side_x": side_x, "side_y": side_y,
            "column_width": side_offset_x + side_x, "row_height": side_offset_y + side_y}


def pixel_scale(reader):
    """Pixels per map-space unit along x and y (map space: circumradius 1)."""
    p = render_params(reader)
    if reader.staggeraxis == "x":  # flat: columns 1.5 apart, rows sqrt(3) apart
        return p["column_width"] / 1.5, p["tile_h"] / math.sqrt(3)
    return p["tile_w"] / math.sqrt(3), p["row_height"] / 1.5  # pointy


def layer_grids(reader, context):
    """(origin, columns, rows, [(the overlay a layer shows or None, its gids row by row over the map)]). An
    infinite map is cropped to its tiles, and refused before its grids are laid out when they span more than the
    largest map."""
    if not reader.infinite:
        # the grids are all that is kept
        grids = [(layer.overlay, layer.chunks.pop()[4]) for layer in reader.layers if layer.chunks]
        return (0, 0), reader.width, reader.height, grids
    low_x = low_y = high_x = high_y = None
    for layer in reader.layers:
        for x, y, w, _h, gids in layer.chunks:
            for i, gid in enumerate(gids):
                if gid:
                    cx, cy = x + i % w, y + i // w
                    if low_x is None:
                        low_x, low_y, high_x, high_y = cx, cy, cx, cy
                    low_x, low_y, high_x, high_y = min(low_x, cx), min(low_y, cy), max(high_x, cx), max(high_y, cy)
    if low_x is None:
        context.refuse("map", "the infinite map has no tiles", code="empty-map")
    columns, rows = high_x - low_x + 1, high_y - low_y + 1
    if columns > MAX_SIZE or rows > MAX_SIZE:
        context.refuse("map", f"the infinite map's tiles span {columns} x {rows} hexes; Hexside maps are at most "
                              f"{MAX_SIZE} x {MAX_SIZE} hexes", code="map-too-large")
    grids = []
    for layer in reader.layers:
        grid = array(GIDS, bytes(4 * columns * rows))
        for x, y, w, _h, gids in layer.chunks:
            for i, gid in enumerate(gids):
                if gid:  # a later chunk over an earlier one: its tiles win, its empty cells do not erase
                    grid[(y + i // w - low_y) * columns + x + i % w - low_x] = gid
        layer.chunks = []
        grids.append((layer.overlay, grid))
    return (low_x, low_y), columns, rows, grids


def map_properties(reader, context):
    """The grid's labels and hex size and the map's name from the map's own properties (as engine/exports/tiled.py
    writes them), and its ruleset when the import names none; a value that is not one is left with a warning."""
    props = reader.properties
    grid, name = {"labels": "xxyy"}, None
    if props.get("labels") in LABEL_SCHEMES:
        grid["labels"] = props["labels"]
    elif props.get("labels") is not None:
        context.warn("map.properties.labels", f"labels {props['labels']!r} is not one of {', '.join(LABEL_SCHEMES)}; "
                                              "hexes are named xxyy", code="bad-value")
    try:
        metres = float(props["hex_metres"]) if props.get("hex_metres") is not None else None
    except (TypeError, ValueError):
        metres = None
    if metres is not None and math.isfinite(metres) and metres > 0:
        grid["hex_metres"] = metres
    if isinstance(props.get("name"), str) and props["name"].strip():
        name = props["name"].strip()[:200]
    wanted = props.get("ruleset")
    if isinstance(wanted, str) and context.ruleset is None and not (context.mapping or {}).get("ruleset"):
        try:
            context.ruleset = rulesets.get(wanted).id
        except KeyError:
            context.warn("map.properties.ruleset", f"the map names ruleset {wanted!r}, which this server does not "
                                                   "have; its terrain is mapped to the default", code="bad-value")
    return grid, name


def map_point(reader, builder, origin, x, y):
    """A point in Tiled's pixels as a map-space point: Tiled's centre of the cell that became column 0, row 0 is
    the map's centre of that hex, and pixel_scale() the pixels per unit along each axis."""
    p = render_params(reader)
    ox, oy = origin
    if reader.staggeraxis == "x":
        shifted = (ox & 1) ^ (reader.staggerindex == "even")
        cx, cy = ox * p["column_width"], oy * p["tile_h"] + (p["row_height"] if shifted else 0)
    else:
        shifted = (oy & 1) ^ (reader.staggerindex == "even")
        cx, cy = ox * (p["tile_w"] + p["side_x"]) + (p["column_width"] if shifted else 0), oy * p["row_height"]
    cx, cy = cx + p["tile_w"] / 2, cy + p["tile_h"] / 2
    sx, sy = pixel_scale(reader)
    mx, my = builder.grid.centre(0, 0)
    return mx + (x - cx) / sx, my + (y - cy) / sy


def _stack(key, tile, laid=()):
    """One hex's tiles, bottom layer first, as (codes, level, storeys, flipped tiles, [what was not a tile]):
    the highest level and storeys any of its tiles gives. A tile of a layer in ``laid`` (an overlay's, Hexside's
    export, not rebuilt) replaces the terrain under it, as the overlay did."""
    codes, level, storeys, flips, lost = [], None, None, 0, []
    for index, raw in enumerate(key):
        if not raw:
            continue
        if index in laid:
            codes = []
        flips += bool(raw & FLAGS)
        kind, what, *rest = tile(raw)
        if kind != "code":
            lost.append((kind, what))
            continue
        if what is not None:  # None: a levels layer's tile, which names no terrain
            codes.append(what)
        if rest[0] is not None:  # the highest level any of the hex's tiles gives (below 0 too)
            level = rest[0] if level is None else max(level, rest[0])
        if rest[1] is not None:
            storeys = rest[1] if storeys is None else max(storeys, rest[1])
    return tuple(codes), level or 0, storeys, flips, lost


def build(reader, context):
    origin, columns, rows, grids = layer_grids(reader, context)
    shift = origin[0] if reader.staggeraxis == "x" else origin[1]
    stagger = reader.staggerindex if shift % 2 == 0 else ("even" if reader.staggerindex == "odd" else "odd")
    orientation = "flat" if reader.staggeraxis == "x" else "pointy"
    grid_kwargs, name = map_properties(reader, context)
    builder = MapBuilder(context, {"orientation": orientation, "columns": columns, "rows": rows,
                                   "stagger": stagger, **grid_kwargs}, name=name)
    builder.overlays, names = overlays(reader.objects, builder, reader.properties.get("ruleset"), context)
    builder.defaults = _defaults(reader, builder, context)
    restored = {entry["id"] for entry in builder.overlays}
    grids, laid = _terrain_layers(grids, restored)
    tilesets = sorted(reader.tilesets, key=lambda t: t.firstgid)
    tiles = {}  # gid with flags -> ("code", code, level) | ("missing", source) | ("orphan", gid)
    seen = {}  # code -> (tileset, local id) of its first tile, for its picture in a proposed mapping

    def tile(raw):
        if raw not in tiles:
            gid = raw & ~FLAGS
            tileset = next((t for t in reversed(tilesets) if t.firstgid <= gid), None)
            if tileset is None:
                tiles[raw] = ("orphan", gid)
            elif tileset.missing:
                tiles[raw] = ("missing", tileset.source)
            else:
                tiles[raw] = ("code", *tileset.code(gid - tileset.firstgid))
                code = tiles[raw][1]
                if code is not None and code not in seen and len(seen) < MAX_PICTURES:
                    seen[code] = (tileset, gid - tileset.firstgid)
        return tiles[raw]

    stacks = {}  # one hex's gids, bottom layer first -> (codes, level, storeys, flipped, [("missing"|"orphan", ..)])
    missing, orphans, flipped = {}, {}, 0
    for col in range(columns):
        for row in range(rows):
            i = row * columns + col
            key = tuple(grid[i] for grid in grids)
            if not any(key):
                continue
            found = stacks.get(key)
            if found is None:
                found = _stack(key, tile, laid)
                if len(stacks) < 100_000:
                    stacks[key] = found
            codes, level, storeys, flips, lost = found
            flipped += flips
            for kind, what in lost:
                (missing if kind == "missing" else orphans).setdefault(what, []).append(builder.label(col, row))
            builder.place(col, row, codes, elevation=level, storeys=storeys)
    grids.clear()
    for source, labels in missing.items():
        context.error("$", f"the tileset {source!r} is not in the upload (or cannot be read), so the tiles of "
                           f"{counted(labels)} have no terrain; upload it beside the map", labels[0],
                      code="missing-tileset")
    for gid, labels in orphans.items():
        context.error("$", f"tile {gid} belongs to no tileset of the map ({counted(labels)})", labels[0],
                      code="unknown-tile")
    lay(reader.objects, builder, lambda x, y: map_point(reader, builder, origin, x, y), restored, reader.ignored)
    sx, sy = pixel_scale(reader)
    if abs(sx / sy - 1) > 0.02:
        context.warn("$", f"Tiled draws these hexes {reader.tilewidth} x {reader.tileheight} px with "
                          f"{reader.hexsidelength} px sides, which is not a regular hexagon; Hexside's hexes are "
                          "regular, so every hex keeps its place and neighbours but the map is "
                          f"{abs(sx / sy - 1) * 100:.0f}% {'wider' if sx > sy else 'taller'} in Tiled",
                     code="irregular-hexes")
    builder.extensions["tiled"] = {
        "tilewidth": reader.tilewidth, "tileheight": reader.tileheight, "hexsidelength": reader.hexsidelength,
        "staggeraxis": reader.staggeraxis, "staggerindex": reader.staggerindex, "origin": list(origin),
        "pixels_per_unit": [round(sx, 6), round(sy, 6)], "flipped_tiles": flipped,
        "ignored_layers": dict(sorted(reader.ignored.items())),
    }
    doc = builder.build()
    doc["extensions"].update(_extensions(reader, context), **({OVERLAY_NAMES: names} if names else {}))
    if context.survey is not None:
        context.survey["pictures"] = tile_pictures(seen, context)
    return doc


def _terrain_layers(grids, restored):
    """The layers read as terrain (an overlay's only when it is not rebuilt) and which of them an overlay's."""
    kept = [(overlay, gids) for overlay, gids in grids if overlay is None or overlay not in restored]
    return [gids for _, gids in kept], {index for index, (overlay, _) in enumerate(kept) if overlay is not None}


def _defaults(reader, builder, context):
    """(terrain, level) of the map's ``defaults`` property, as Hexside exported it, when they are the ruleset's
    (imported to another game, the ruleset's open ground at level 0 is the default)."""
    text = reader.properties.get("defaults")
    if not isinstance(text, str) or builder.mapping.catalogue.id != reader.properties.get("ruleset"):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    catalogue = builder.mapping.catalogue
    terrain, level = (data.get("terrain"), data.get("level")) if isinstance(data, dict) else (None, None)
    if not (isinstance(terrain, list) and terrain and all(t in catalogue.terrain_ids("hex") for t in terrain)
            and isinstance(level, int) and fit_level(level, catalogue) == level):
        context.warn("map.properties.defaults", "the map's defaults property is not terrain and a level of "
                                                f"{catalogue.name}; hexes with nothing listed are open ground",
                     code="bad-value")
        return None
    return list(terrain), level


def _extensions(reader, context):
    """The map's free data as Hexside exported it (its ``extensions`` property, JSON), less what an import
    writes itself."""
    text = reader.properties.get("extensions")
    if not isinstance(text, str):
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        context.warn("map.properties.extensions", "the map's extensions property is not a JSON object; it was "
                                                  "not read", code="bad-value")
        return {}
    return {k: v for k, v in data.items() if k not in ("imported", "tiled", OVERLAY_NAMES)}


MAX_PICTURES = 200  # source codes given a picture in a proposed mapping


def _int(value):
    try:
        return max(0, int(value))
    except (TypeError, ValueError):
        return 0
