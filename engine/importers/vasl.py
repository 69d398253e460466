"""VASL boards (a board archive ``bdXX``, a zip, or its ``BoardMetadata.xml`` with the board image beside it) into
maps ready to trace: the grid of the board, all open ground, with the board image lying under it.

VASL (the VASSAL module for Advanced Squad Leader) keeps a board's terrain as a per-pixel raster (``LOSData``: gzip
and Java serialisation, two bytes a pixel) drawn from the board art; it is not read, and the import says so with a
warning, so that nobody takes the open ground it gives for the board's terrain.

The geometry is VASL's own (``BoardArchive`` and ``Map.getHexCenterPoint`` in VASL's LOS code, and ``ASLHexGrid``
on the VASSAL side). Flat-topped hexes in columns ``hexWidth`` apart (1800 / 32 = 56.25 px on a geomorphic board)
and ``hexHeight`` apart within a column (645 / 10 = 64.5 px); the centre of A1 at ``(A1CenterX, A1CenterY)``
(0, 32.25). Column c's hex n sits at ``x = A1CenterX + c * hexWidth``, ``y = A1CenterY + (n - 1) * hexHeight`` in
columns A, C, E.. and half a hex lower in B, D, F.. (``altHexGrain``: half a hex higher). A legacy archive without
BoardMetadata.xml gives the same from its ``data`` file (``x0``, ``y0``, ``dx``, ``dy``, ``alternate``).

The map is ``width`` x ``height`` hexes (33 x 10), labelled letter-number: A1 .. GG10, VASL's own names (its
columns run A..Z, AA, BB..; the map format's letter-number labels do too). A map is whole rows, so the half hexes
VASL has beyond them in the shifted columns (B0, D0 .. FF0 along the top edge; B11.. with ``altHexGrain``) are
left out, with a warning naming them.

Hexside's hexes are regular and VASL's are a little wide (56.25 / 64.5 is 0.7% off √3/2), so the background's
scale and origin are the least-squares fit of every hex centre; the largest remaining offset is kept in
``extensions.vasl.max_offset_px`` (some 3 px on a geomorphic board).
"""

import math
import posixpath

from engine.hexgrid import Grid
from engine.importers.common import MapBuilder, SiblingTooLarge, check_image, integer, number, parse_xml
from engine.importers.vassal import stored_scan
from engine.importers.zips import read_zip

METADATA = "BoardMetadata.xml"
LEGACY_DATA = "data"
LOS_DATA = "LOSData"
# VASL's BoardArchive.GEO_*: a standard geomorphic board.
GEO_WIDTH, GEO_HEIGHT = 33, 10
GEO_HEX_WIDTH = 1800 / (GEO_WIDTH - 1)
GEO_HEX_HEIGHT = 645 / GEO_HEIGHT
GEO_A1_CENTRE = (0.0, GEO_HEX_HEIGHT / 2)
SQRT3 = math.sqrt(3)
MAX_BUILDING_TYPES = 5000  # per-hex building overrides kept in extensions.vasl
MAX_PIXELS = 100_000  # a hex's size and A1's place, in image pixels (a board image is at most 60 megapixels)


def convert(data, context):
    if data[:4] == b"PK\x03\x04":
        board = read_archive(data, context)
    else:
        board = {"metadata": data, "legacy": None, "image": lambda name: context.sibling(name)[1],
                 "los": beside(LOS_DATA, context)}
    if board["metadata"] is not None:
        info = read_metadata(board["metadata"], context)
    else:
        info = read_legacy(board["legacy"], context)
    return build_map(info, board, context)


def beside(name, context):
    """Is the file beside the metadata? Only asked (LOSData is not read), so one too large to read is there."""
    try:
        return context.resolve(name) in context.files
    except SiblingTooLarge:
        return True


def read_archive(data, context):
    """The parts of a board archive: its metadata (or legacy data file), a reader of its image, and whether it
    holds LOS data."""
    entries, problems = read_zip(data, context.limits)
    if entries is None:
        context.refuse("$", f"the VASL board archive cannot be opened: {problems[0].message}", code=problems[0].code)
    for path, problem in problems:
        context.warn("$", f"{path}: {problem.message}", code=problem.code)
    metadata = entries.get(METADATA)
    legacy = entries.get(LEGACY_DATA) if metadata is None else None
    if metadata is None and legacy is None:
        listed = ", ".join(sorted(entries)[:10]) or "nothing"
        context.refuse("$", f"the zip has no {METADATA} (nor a legacy 'data' file) at its top level, so it is not a "
                            f"VASL board archive (it holds {listed})", code="bad-board-archive")
    return {"metadata": metadata, "legacy": legacy, "image": entries.get, "los": LOS_DATA in entries}


def read_metadata(data, context):
    root = parse_xml(data, context, "the VASL board metadata")
    if root.tag != "boardMetadata":
        context.refuse("$", f"the root element is <{root.tag}>, not <boardMetadata>: not VASL board metadata",
                       code="bad-board-metadata")
    attrs = {key.strip(): value for key, value in root.attrib.items()}

    def optional(key, default):
        return number(attrs[key], context, f"boardMetadata.{key}", f"the board's {key}") if key in attrs else default

    buildings = {}
    for element in root.iter("buildingType"):
        if len(buildings) >= MAX_BUILDING_TYPES:
            break
        if element.get("hexName") and element.get("buildingTypeName"):
            buildings[element.get("hexName")] = element.get("buildingTypeName")  # a later one wins, as in VASL
    return {
        "name": attrs.get("name") or context.stem, "version": attrs.get("version"),
        "version_date": attrs.get("versionDate"), "author": attrs.get("author"),
        # VASL looks the image up by its name at the archive's top level: a path in it is not followed.
        "image": posixpath.basename((attrs.get("boardImageFileName") or "").replace("\\", "/"))
        or f"{context.stem}.gif",
        "has_hills": (attrs.get("hasHills") or "").strip().lower() == "true",
        "width": integer(attrs.get("width", GEO_WIDTH), context, "boardMetadata.width", "the board's width in hexes",
                         1, 500),
        "height": integer(attrs.get("height", GEO_HEIGHT), context, "boardMetadata.height",
                          "the board's height in hexes", 1, 500),
        "hex_width": optional("hexWidth", GEO_HEX_WIDTH), "hex_height": optional("hexHeight", GEO_HEX_HEIGHT),
        "a1": (optional("A1CenterX", GEO_A1_CENTRE[0]), optional("A1CenterY", GEO_A1_CENTRE[1])),
        "alternate": (attrs.get("altHexGrain") or "").strip().lower() == "true",
        "grid_config": attrs.get("HexGridConfig"), "building_types": buildings,
    }


def read_legacy(data, context):
    """A VASL 5 archive's ``data`` file: ``key value`` lines (VASL's DataFile), the grid in VASSAL's names."""
    values = {}
    for line in data.decode("latin-1").splitlines():
        parts = line.split()
        if len(parts) >= 2:
            values[parts[0].lower()] = parts[1]

    def optional(key, default):
        return number(values[key], context, f"data.{key}", f"the data file's {key}") if key in values else default

    name = context.stem[2:] if context.stem.lower().startswith("bd") else context.stem
    return {
        "name": name, "version": values.get("version"), "version_date": None, "author": None,
        "image": f"bd{name}.gif", "has_hills": None, "width": GEO_WIDTH, "height": GEO_HEIGHT,
        "hex_width": optional("dx", GEO_HEX_WIDTH), "hex_height": optional("dy", GEO_HEX_HEIGHT),
        "a1": (optional("x0", GEO_A1_CENTRE[0]), optional("y0", GEO_A1_CENTRE[1])),
        "alternate": values.get("alternate", "").lower() == "true", "grid_config": None, "building_types": {},
    }


def hex_centre(col, row, info):
    """The pixel of the centre of the map's hex (col, row), VASL's hex letters(col) + (row + 1): VASL's
    Map.getHexCenterPoint (its row counts from B0 in the shifted columns) and ASLHexGrid.getLocation."""
    x0, y0 = info["a1"]
    dx, dy = info["hex_width"], info["hex_height"]
    x0 = max(x0, 0.0)  # VASL: "if the A1 x offset is negative (e.g. boards 1b+), assume it's zero"
    y0 = dy / 2 if y0 < 0 else y0
    shift = (dy / 2 if col % 2 else 0.0) * (-1 if info["alternate"] else 1)
    return x0 + dx * col, y0 + dy * row + shift


def fit(grid, info):
    """(origin, hex_px, largest offset in pixels) of the least-squares fit of map space onto VASL's centres."""
    points = [(grid.centre(col, row), hex_centre(col, row, info)) for col, row in grid.hexes()]
    n = len(points)
    mx = sum(m[0] for m, _ in points) / n
    my = sum(m[1] for m, _ in points) / n
    px = sum(p[0] for _, p in points) / n
    py = sum(p[1] for _, p in points) / n
    spread = sum((m[0] - mx) ** 2 + (m[1] - my) ** 2 for m, _ in points)
    if spread == 0:  # one hex: the scale is VASL's along the columns
        scale = info["hex_width"] / 1.5
    else:
        scale = sum((m[0] - mx) * (p[0] - px) + (m[1] - my) * (p[1] - py) for m, p in points) / spread
    origin = (px - scale * mx, py - scale * my)
    worst = max(math.hypot(origin[0] + scale * m[0] - p[0], origin[1] + scale * m[1] - p[1]) for m, p in points)
    return origin, scale, worst


def build_map(info, board, context):
    dx, dy = info["hex_width"], info["hex_height"]
    if not (0 < dx <= MAX_PIXELS and 0 < dy <= MAX_PIXELS):
        context.refuse("boardMetadata", f"the hex width and height should be above 0 and at most {MAX_PIXELS:,} px, "
                                        f"got {dx:g} and {dy:g}", code="bad-grid")
    if max(abs(v) for v in info["a1"]) > MAX_PIXELS:
        context.refuse("boardMetadata", f"the centre of A1 should lie within {MAX_PIXELS:,} px of the image's corner, "
                                        f"got {info['a1'][0]:g}, {info['a1'][1]:g}", code="bad-grid")
    columns, rows = info["width"], info["height"]
    grid_kwargs = {"orientation": "flat", "columns": columns, "rows": rows,
                   "stagger": "even" if info["alternate"] else "odd", "labels": "letter-number"}
    builder = MapBuilder(context, grid_kwargs, name=f"VASL board {info['name']}")
    grid = Grid(**grid_kwargs)

    image_name, image = info["image"], None
    data = board["image"](image_name)
    if data is None:
        context.warn("$", f"the board image {image_name!r} is not in the upload; the map's background names it and "
                          "can be supplied in the painter", code="image-missing")
    else:
        image = check_image(data, context, f"the board image {image_name!r}")

    hills = " This board has hills (hasHills), so its levels must be painted too." if info["has_hills"] else ""
    raster = " (its LOSData file)" if board["los"] else ""
    context.warn("$", f"VASL's LOS data{raster} is not read: that per-pixel raster is where a VASL board keeps its "
                      "terrain and elevations, so every hex comes in as open ground at level 0. Paint the terrain "
                      f"over the board image in the painter.{hills}", code="los-not-read")
    unusual = []
    if info["a1"][0] < 0:
        unusual.append(f"A1CenterX {info['a1'][0]:g} (VASL takes 0; boards such as 1b name their hexes otherwise)")
    if info["a1"][1] <= 0 or info["a1"][1] == 65:
        unusual.append(f"A1CenterY {info['a1'][1]:g} (VASL places this board's hexes by a rule of its own)")
    if info["grid_config"] and info["grid_config"] != "Normal":
        unusual.append(f"HexGridConfig {info['grid_config']!r}")
    if unusual:
        context.warn("$", "the board's geometry is not a geomorphic board's: " + "; ".join(unusual) + ". The grid "
                          "follows VASL's plain rule and may sit half a hex off or be named otherwise: check it "
                          "against the board image", code="unusual-geometry")
    shifted = range(1, columns, 2)
    if shifted:
        row = rows + 1 if info["alternate"] else 0
        names = [grid.label(col, 0)[:-1] + str(row) for col in shifted]
        edge = "bottom" if info["alternate"] else "top"
        shown = ", ".join(names[:3]) + (f" .. {names[-1]}" if len(names) > 3 else "")
        context.warn("$", f"the {len(names)} half hex{'es' * (len(names) != 1)} along the {edge} edge ({shown}) "
                          "are not on the map: a map is whole rows, and its rows are VASL's 1 to "
                          f"{rows}", code="half-hexes-left-out")

    origin, hex_px, worst = fit(grid, info)
    off = (dx / 1.5) / (dy / SQRT3) - 1
    if abs(off) > 0.02:
        context.warn("$", f"the board's hexes are not regular (hexWidth {dx:g}, hexHeight {dy:g}: a regular hex has "
                          f"hexWidth = hexHeight x {SQRT3 / 2:.4f}, and these are {abs(off) * 100:.0f}% off); the "
                          f"background is the closest fit, up to {worst:.0f} px from VASL's hex centres",
                     code="irregular-hexes")
    stored = stored_scan(context, image, image_name)
    builder.background = {"image": stored, "origin": [round(origin[0], 3), round(origin[1], 3)],
                          "hex_px": round(hex_px, 4), "rotation": 0.0, "opacity": 0.5}
    builder.extensions["vasl"] = {
        "board": info["name"], "version": info["version"], "version_date": info["version_date"],
        "author": info["author"], "image": image_name, "has_hills": info["has_hills"],
        "width": columns, "height": rows, "legacy": board["metadata"] is None,
        "geometry": {"hex_width": dx, "hex_height": dy, "a1_center": list(info["a1"]),
                     "alt_hex_grain": info["alternate"]},
        "max_offset_px": round(worst, 2), "building_types": info["building_types"],
    }
    return builder.build()
