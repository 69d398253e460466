"""VASSAL module boards (a ``.vmod`` zip, or its ``buildFile.xml`` / ``buildFile`` beside an ``images/`` folder)
into maps ready to trace: the grid matches the board's HexGrid and the board image lies under it.

Read, per board with a HexGrid: ``dx`` (the distance between columns' centres), ``dy`` (between centres within a
column), the origin ``x0``/``y0`` (the centre of VASSAL's hex 0, 0), ``sideways`` (rows instead of columns:
pointy-topped hexes) and the HexGridNumbering (kept in ``extensions.vassal``; the map's labels follow its letter
or number style, not its offsets). VASSAL's columns 1, 3, 5.. sit half a hex lower (``hexY`` in VASSAL's
HexGrid). The map covers the hexes whose centres lie on the board: the grid's Zone when it is in one (VASSAL
places a zone's grid from the zone's top-left corner), else the board image, else the board's width and height.

The image: checked with Pillow within the pixel limit (a PNG or JPEG is kept as it is; another format is
re-encoded as PNG) and returned in ``ImportResult.files`` under the name the map's ``background`` entry gives it,
``scan-<first 20 hex digits of its SHA-256>.<png|jpg>``: the name ``maps.scans.store`` gives a scan, so the caller
stores the bytes beside the map and the entry already points at them. Nothing is written by the importer. A
buildFile whose image is not in the upload still gives the map, with a warning and the image's own name; a board
with no image (its width and height only) gives a map with no background.

A module with several hex boards: each is one map; ``NAME.vmod#Board name`` picks one (``expand`` lists them),
and without it the first is taken with a warning naming the others. Not read: square grids, counters, decks,
zones' own names and highlighting, board overlays (VASSAL "Overlay" images).
"""

import hashlib
import math
import posixpath

from engine.importers.common import SAFE_NAME, MapBuilder, Refused, check_image, integer, number, parse_xml
from engine.importers.zips import read_zip

SQRT3 = math.sqrt(3)


def convert(data, context):
    name, _, wanted = context.name.partition("#")
    entries = None
    if name.lower().endswith(".vmod") or data[:4] == b"PK\x03\x04":
        build_name, build, entries = open_module(data, context)
    else:
        build_name, build = name, data
    root = parse_xml(build, context, "the VASSAL buildFile")
    boards = hex_boards(root)
    if not boards:
        context.refuse("$", "the module has no board with a hex grid (Hexside reads VASSAL boards with a HexGrid)",
                       code="no-hex-board")
    names = [b["name"] for b in boards]
    if wanted:
        chosen = next((b for b in boards if b["name"] == wanted), None)
        if chosen is None:
            context.refuse("$", f"no hex board named {wanted!r}; the module's hex boards are: {', '.join(names)}",
                           code="no-hex-board")
    else:
        chosen = boards[0]
        if len(boards) > 1:
            context.warn("$", f"the module has {len(boards)} hex boards ({', '.join(names)}); this is "
                              f"{chosen['name']!r}. Import another as FILE#BOARD NAME", code="several-boards")
    module = str(root.get("name") or "").strip()[:120] or context.stem
    name = module if len(boards) == 1 else f"{module} – {chosen['name']}"
    return build_map(chosen, context, entries, build_name, name)


def board_names(data, context):
    """The names of a module's (or buildFile's) hex boards, for expand()."""
    try:
        if data[:4] == b"PK\x03\x04":
            _, build, _ = open_module(data, context)
        else:
            build = data
        return [b["name"] for b in hex_boards(parse_xml(build, context, "the VASSAL buildFile"))]
    except Refused:
        return []


def open_module(data, context):
    entries, problems = read_zip(data, context.limits)
    if entries is None:
        context.refuse("$", f"the module cannot be opened: {problems[0].message}", code=problems[0].code)
    for path, problem in problems:
        context.warn("$", f"{path}: {problem.message}", code=problem.code)
    for build_name in ("buildFile.xml", "buildFile"):
        if build_name in entries:
            return build_name, entries[build_name], entries
    context.refuse("$", "the .vmod has no buildFile.xml (or buildFile) at its top level; is it a VASSAL module?",
                   code="bad-module")


def short(tag):
    return tag.rsplit(".", 1)[-1]


def hex_boards(root):
    """[{name, image, width, height, grid, numbering, zone}] for every board holding a HexGrid."""
    out = []
    for board in root.iter():
        if short(board.tag) != "Board":
            continue
        found = find_grid(board, None)
        if found is None:
            continue
        grid, zone = found
        numbering = next((e for e in grid if short(e.tag) == "HexGridNumbering"), None)
        out.append({"name": board.get("name") or f"board {len(out) + 1}", "image": board.get("image"),
                    "width": board.get("width"), "height": board.get("height"), "grid": grid,
                    "numbering": dict(numbering.attrib) if numbering is not None else {}, "zone": zone})
    return out


def find_grid(element, zone):
    for child in element:
        tag = short(child.tag)
        if tag == "HexGrid":
            return child, zone
        if tag in ("ZonedGrid", "Zone"):
            found = find_grid(child, child if tag == "Zone" else zone)
            if found is not None:
                return found
    return None


MAX_ZONE_CORNERS = 10_000


def zone_bounds(zone, context):
    path = zone.get("path") or ""
    if path.count(";") >= MAX_ZONE_CORNERS:  # counted before it is split: a zone is a polygon of a few corners
        context.refuse("zone.path", f"the zone has more than {MAX_ZONE_CORNERS:,} corners", code="bad-grid")
    points = []
    for pair in path.split(";"):
        if "," in pair:
            x, y = pair.split(",", 1)
            points.append((number(x, context, "zone.path", "a zone corner"), number(y, context, "zone.path",
                                                                                     "a zone corner")))
    if len(points) < 3:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def grid_numbers(board, context):
    """(dx, dy, x0, y0, sideways) of a board's HexGrid, refused when they cannot make a grid."""
    grid = board["grid"]
    where = f"board {board['name']!r}"
    dx = number(grid.get("dx", "64"), context, where, "the grid's dx")
    dy = number(grid.get("dy", "72"), context, where, "the grid's dy")
    x0 = number(grid.get("x0", "0"), context, where, "the grid's x0")
    y0 = number(grid.get("y0", "32"), context, where, "the grid's y0")
    if dx <= 0 or dy <= 0:
        context.refuse(where, f"the hex grid's dx and dy should be above 0, got {dx} and {dy}", code="bad-grid")
    return dx, dy, x0, y0, (grid.get("sideways") or "false").lower() == "true"


def board_extent(board, context, image_size):
    """(offset, (width, height)) the map covers: the grid's zone, else the image (its size), else the board's
    width and height; None when none of them is known."""
    bounds = zone_bounds(board["zone"], context) if board["zone"] is not None else None
    if bounds is not None:
        return (bounds[0], bounds[1]), (bounds[2] - bounds[0], bounds[3] - bounds[1])
    if image_size is not None:
        return (0.0, 0.0), image_size
    if board["width"] and board["height"]:
        where = f"board {board['name']!r}"
        return (0.0, 0.0), (integer(board["width"], context, where, "the board's width", 1, 1_000_000),
                            integer(board["height"], context, where, "the board's height", 1, 1_000_000))
    return None


def hex_span(numbers, extent):
    """(first column, first row, lines, hexes per line, whether the first line is shifted) of the grid's hexes
    whose centres lie on ``extent``."""
    dx, dy, x0, y0, sideways = numbers
    # VASSAL's grid frame: "across" is x (y when sideways), the axis along which columns follow each other.
    across_extent, along_extent = (extent[1], extent[0]) if sideways else extent
    n0 = math.ceil(-x0 / dx - 1e-9)
    n1 = math.floor((across_extent - x0) / dx + 1e-9)
    k0 = math.ceil(-y0 / dy - 1e-9)
    lines = n1 - n0 + 1
    first_shifted = n0 % 2 == 1
    # Every line holds as many hexes; the lines VASSAL shifts by half a hex must end on the board too.
    shift = dy / 2 if lines > 1 or first_shifted else 0
    k1 = math.floor((along_extent - y0 - shift) / dy + 1e-9)
    return n0, k0, lines, k1 - k0 + 1, first_shifted


def build_map(board, context, entries, build_name, name):
    where = f"board {board['name']!r}"
    dx, dy, x0, y0, sideways = grid = grid_numbers(board, context)

    image_name, image = board["image"], None
    if image_name:
        path = posixpath.join("images", image_name)
        data = entries.get(path) if entries is not None else context.sibling(path, base=build_name)[1]
        if data is None:
            context.warn("$", f"the board image {image_name!r} is not in the upload; the map's background names it "
                              "and can be supplied in the painter", code="image-missing")
        else:
            image = check_image(data, context, f"the board image {image_name!r}")

    found = board_extent(board, context, image[2] if image is not None else None)
    if found is None:
        context.refuse("$", f"the size of {where} cannot be known: its image is not in the upload and it has no "
                            "zone, width or height", code="board-size-unknown")
    offset, extent = found
    n0, k0, lines, per_line, first_shifted = hex_span(grid, extent)
    if lines < 1 or per_line < 1:
        context.refuse(where, "no hex centre of the grid lies on the board", code="bad-grid")
    stagger = "even" if first_shifted else "odd"
    across0 = x0 + n0 * dx
    along0 = y0 + k0 * dy + (dy / 2 if first_shifted else 0)
    scale_across, scale_along = dx / 1.5, dy / SQRT3
    if sideways:
        kwargs = {"orientation": "pointy", "columns": per_line, "rows": lines}
        origin = (offset[0] + along0, offset[1] + across0)
    else:
        kwargs = {"orientation": "flat", "columns": lines, "rows": per_line}
        origin = (offset[0] + across0, offset[1] + along0)
    numbering = board["numbering"]
    labels = "xxyy"
    if (numbering.get("hType") == "A") != (numbering.get("vType") == "A"):
        labels = "letter-number"
    elif numbering.get("sep") == ".":
        labels = "xx.yy"
    builder = MapBuilder(context, {**kwargs, "stagger": stagger, "labels": labels},
                         name=name)
    if abs(scale_across / scale_along - 1) > 0.02:
        context.warn("$", f"the board's hexes are not regular (dx {dx:g}, dy {dy:g}: a regular hex has dx = dy x "
                          f"{SQRT3 / 2:.4f}); the grid keeps VASSAL's centres along one axis and drifts up to "
                          f"{abs(scale_across / scale_along - 1) * 100:.0f}% along the other", code="irregular-hexes")
    hex_px = round((scale_across + scale_along) / 2, 4)
    # A board with no image (its width and height only) gets no background: none names a file that is not there.
    if image_name:
        stored = stored_scan(context, image, image_name)
        builder.background = {"image": stored, "origin": [round(origin[0], 3), round(origin[1], 3)],
                              "hex_px": hex_px, "rotation": 0.0, "opacity": 0.5}
    builder.extensions["vassal"] = {
        "board": board["name"], "image": image_name, "sideways": sideways,
        "grid": {"dx": dx, "dy": dy, "x0": x0, "y0": y0},
        "first_hex": [n0, k0], "zone_offset": list(offset), "numbering": numbering,
    }
    return builder.build()


def stored_scan(context, image, image_name):
    """The file name a board's scan is kept under: the image read from the upload, stored by its content's hash,
    else the name the board gives, made safe (the VASSAL and VASL importers alike)."""
    if image is None:
        return safe_image_name(image_name)
    data, extension, _size = image
    stored = f"scan-{hashlib.sha256(data).hexdigest()[:20]}.{extension}"
    context.out_files[stored] = data
    return stored


def safe_image_name(name):
    """A board image's own name as the map format allows it in ``background.image``."""
    cleaned = SAFE_NAME.sub("-", posixpath.basename(name)).strip("-.") or "board.png"
    return cleaned[:200]
