"""A map or a scenario as a VASSAL module (``.vmod``), for VASSAL 3.7 (written against 3.7.26, see vassal_grid).

A module is a zip: ``buildFile.xml`` (the module's components as XML, one element per VASSAL class),
``moduledata`` (name, version, description, the VASSAL version), and the files it names under ``images/``.

- ``map_module``: one Map window with one Board, whose image is the map's print (engine/render/printing.py) and
  whose ZonedGrid holds the HexGrid naming every hex with its Hexside label (vassal_grid.py).
- ``scenario_module``: the main map's board as above, each side's setup zone as a named Zone (a polygon in board
  pixels), each placed unit in an at-start stack (SetupStack) on its hex with a counter drawn from its OOB line,
  one at-start window per side holding its reinforcements grouped by turn and the units that set up anywhere in
  its zone, and the card as a help file. What goes in is what a reader holding ``side`` may see
  (engine/scenarios/visibility.view): with no side, the public view, so a hidden unit is never in it.
"""

import io
import time
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import replace

from engine.exports import vassal_grid, vassal_los
from engine.exports.counters import counter_png
from engine.exports.vassal_sheets import rows_png, sheet_html, side_rows
from engine.exports.vassal_zones import zone_path
from engine.los.engine import compile_map
from engine.render.printing import render_print
from engine.scenarios import cards, visibility, writing

VASSAL_VERSION = vassal_grid.VASSAL_VERSION
DEFAULT_HEX_MM = 19.0
# VASSAL shows a board one image pixel to a screen pixel at 100%: 100 dpi gives 19 mm hexes 74 pixels across
# the flats, near VASSAL's own default hex (64).
DEFAULT_DPI = 100
COUNTER_SHARE = 0.72  # a counter's width, in hex widths across the flats

P = "VASSAL.build."
MAP_PARTS = ("module.map.StackMetrics", "module.map.ForwardToKeyBuffer", "module.map.Scroller",
             "module.map.ForwardToChatter", "module.map.MenuDisplayer", "module.map.MapCenterer",
             "module.map.StackExpander", "module.map.PieceMover", "module.map.KeyBufferer",
             "module.map.ImageSaver", "module.map.CounterDetailViewer", "module.map.SelectionHighlighters",
             "module.map.HighlightLastMoved")


class ModuleError(ValueError):
    """The module cannot be made as asked; the message says what, ``path`` names the option."""

    def __init__(self, message, path="$"):
        super().__init__(message)
        self.path = path


# -- VASSAL's own encodings ----------------------------------------------------------------------------------

def encode(values, delim):
    """VASSAL's SequenceEncoder: values joined by ``delim``, each delimiter inside a value escaped with a
    backslash, a value starting with a backslash (or quoted) put in quotes."""
    out = []
    for value in values:
        value = "" if value is None else str(value)
        escaped = value.replace(delim, "\\" + delim)
        if value and (value[0] == "\\" or (value[0] == "'" and value[-1] == "'")):
            escaped = f"'{escaped}'"
        out.append(escaped)
    return delim.join(out)


def piece_definition(name, image, gpid):
    """A PieceSlot's text: the AddPiece command of a BasicPiece (``piece;clone;delete;image;name``, no keys) with its
    state (map, x, y, gpid, no properties), as BasicCommandEncoder writes it."""
    piece_type = "piece;" + encode(["", "", image, name], ";")
    state = encode(["null", 0, 0, gpid, 0], ";")
    return "+/" + encode(["null", piece_type, state], "/")


class Pieces:
    """The counter images and piece slots of one module: one image per (line, facing), one gpid per slot."""

    def __init__(self, files, size, orientation):
        self.files, self.size, self.orientation = files, size, orientation
        self.images, self.gpid = {}, 0

    def image(self, side, unit, facing=None):
        key = (side["id"], unit["id"], facing)
        if key not in self.images:
            name = f"counter-{len(self.images) + 1}.png"
            self.files[f"images/{name}"] = counter_png(unit, side.get("colour"), self.size, self.orientation, facing)
            self.images[key] = name
        return self.images[key]

    def slot(self, parent, side, unit, facing=None):
        self.gpid += 1
        name = unit_label(unit)
        ET.SubElement(parent, P + "widget.PieceSlot", entryName=name, gpid=str(self.gpid),
                      height=str(self.size), width=str(self.size)).text = piece_definition(
                          name, self.image(side, unit, facing), self.gpid)


def unit_label(unit):
    name = unit.get("name") or ""
    return f"{unit['unit']} {name}".strip() if name and name != unit["unit"] else unit["unit"]


# -- the module's parts --------------------------------------------------------------------------------------

def game_module(name, version, description):
    root = ET.Element(P + "GameModule", ModuleOther1="", ModuleOther2="", VassalVersion=VASSAL_VERSION,
                      description=description, name=name, nextPieceSlotId="0", version=version)
    ET.SubElement(root, P + "module.BasicCommandEncoder")
    return root


def add_map_window(root, map_name, board_name, image, size, launch=False):
    """A Map window holding one board; returns (map element, zoned grid element)."""
    window = ET.SubElement(root, P + "module.Map", allowMultiple="false", backgroundcolor="255,255,255",
                           buttonName=map_name if launch else "", changeFormat="$message$", color="0,0,0",
                           createFormat="$pieceName$ created in $location$ *", edgeHeight="0", edgeWidth="0",
                           hideKey="", hotkey="", icon="", launch="true" if launch else "false", mapName=map_name,
                           markMoved="Never", moveKey="",
                           moveToFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
                           moveWithinFormat="$pieceName$ moves $previousLocation$ -> $location$ *", showKey="",
                           thickness="3")
    picker = ET.SubElement(window, P + "module.map.BoardPicker", addColumnText="Add column", addRowText="Add row",
                           boardPrompt="Select board", slotHeight="125", slotScale="0.2", slotWidth="350",
                           title="Choose Boards")
    board = ET.SubElement(picker, P + "module.map.boardPicker.Board", image=image, name=board_name,
                          reversible="false", width=str(size[0]), height=str(size[1]))
    for part in MAP_PARTS:
        ET.SubElement(window, P + part)
    ET.SubElement(window, P + "module.map.Zoomer", zoomLevels="0.25,0.333,0.5,0.667,1.0,1.5,2.0", zoomStart="5")
    return window, board


def add_grid(board_element, b):
    """The board's ZonedGrid with the HexGrid and its numbering as its background grid."""
    zoned = ET.SubElement(board_element, P + "module.map.boardPicker.board.ZonedGrid")
    ET.SubElement(zoned, P + "module.map.boardPicker.board.mapgrid.ZonedGridHighlighter")
    hexgrid = ET.SubElement(zoned, P + "module.map.boardPicker.board.HexGrid", vassal_grid.hex_grid(b))
    ET.SubElement(hexgrid, P + "module.map.boardPicker.board.mapgrid.HexGridNumbering", vassal_grid.numbering(b.grid))
    return zoned


def add_zone(zoned, name, path):
    zone = ET.Element(P + "module.map.boardPicker.board.mapgrid.Zone", highlightProperty="",
                      locationFormat="$gridLocation$", name=name, path=path, useHighlight="false",
                      useParentGrid="true")
    zoned.insert(len(zoned) - 1, zone)  # zones before the background grid, as VASSAL's editor writes them
    return zone


def add_setup_stack(window, name, board_name, point, location=None):
    attrs = {"name": name, "owningBoard": board_name, "x": str(point[0]), "y": str(point[1]),
             "useGridLocation": "true" if location else "false"}
    if location:
        attrs["location"] = location
    return ET.SubElement(window, P + "module.map.SetupStack", attrs)


def add_help(root, files, title, file_name, html):
    docs = root.find(P + "module.Documentation")
    if docs is None:
        docs = ET.Element(P + "module.Documentation")
        root.insert(1, docs)
    files[file_name] = html.encode("utf-8")
    ET.SubElement(docs, P + "module.documentation.HelpFile", fileName=file_name, fileType="archive", title=title)


def module_data(name, version, description):
    root = ET.Element("data", version="1")
    for tag, text in (("version", version), ("extra1", ""), ("extra2", ""), ("VassalVersion", VASSAL_VERSION),
                      ("dateSaved", str(int(time.time() * 1000))), ("description", description), ("name", name)):
        ET.SubElement(root, tag).text = text
    return xml_bytes(root)


def xml_bytes(root):
    ET.indent(root, space="  ")
    return b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(root, encoding="utf-8",
                                                                                     xml_declaration=False)


def pack(root, name, version, description, files):
    root.set("nextPieceSlotId", str(sum(1 for _ in root.iter(P + "widget.PieceSlot")) + 1))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", xml_bytes(root))
        z.writestr("moduledata", module_data(name, version, description))
        for path, data in files.items():
            # images are PNG already: stored, not compressed twice
            z.writestr(path, data, compress_type=zipfile.ZIP_STORED if path.endswith(".png") else zipfile.ZIP_DEFLATED)
    return out.getvalue()


def board_png(map_doc, b, scenario=None):
    """The map's print at the board's dpi, without legend, trimmed to the board's margin: PNG bytes and size."""
    image = render_print(compile_map(map_doc), dpi=b.dpi, hex_mm=b.hex_mm, legend=False, scale_bar=False,
                         scenario=scenario)
    if b.trim:
        image = image.crop((b.trim, b.trim, image.width - b.trim, image.height - b.trim))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1, dpi=(b.dpi, b.dpi))
    return out.getvalue(), image.size


def make_board(grid, hex_mm, dpi):
    try:
        return vassal_grid.board(grid, hex_mm, dpi)
    except ValueError as exc:
        raise ModuleError(str(exc), "hex_mm" if "hex size" in str(exc) else "dpi") from None


# -- a map alone ---------------------------------------------------------------------------------------------

def map_module(map_doc, hex_mm=DEFAULT_HEX_MM, dpi=DEFAULT_DPI):
    """A module of one map: its board (the print at ``hex_mm`` across the flats) with its grid. Bytes."""
    b = make_board(map_doc.grid, hex_mm, dpi)
    files = {}
    files["images/board.png"], size = board_png(map_doc, b)
    name = map_doc.name or "Map"
    description = f"{name}: a Hexside map, {map_doc.grid.columns} x {map_doc.grid.rows} hexes of {hex_mm:g} mm"
    root = game_module(name, "1.0", description)
    window, board_element = add_map_window(root, name, name, "board.png", size)
    add_grid(board_element, b)
    vassal_los.add_los(window, files, map_doc)
    return pack(root, name, "1.0", description, files)


# -- a scenario ----------------------------------------------------------------------------------------------

def scenario_module(scenario_doc, side=None, hex_mm=DEFAULT_HEX_MM, dpi=DEFAULT_DPI):
    """A module of a scenario as the public sees it, or as the holder of ``side`` (a side id) does. Bytes."""
    data = scenario_doc.data
    if side is not None and scenario_doc.side(side) is None:
        known = ", ".join(f"{s['id']} ({s['name']})" for s in data["sides"]) or "none"
        raise ModuleError(f"the scenario has no side {side!r}; its sides are: {known}", "side")
    held = set() if side is None else {side}
    doc = replace(scenario_doc, data=visibility.view(data, held))
    data = doc.data
    main = doc.maps[doc.main_key]
    b = make_board(main.grid, hex_mm, dpi)
    files = {}
    files["images/board.png"], size = board_png(cards.printed_map(doc), b)

    title = data["title"]
    name = title + (f" ({doc.side(side)['name']})" if side else "")
    # the content it was made from names the version: an edit makes a new one (the hash of what the module
    # shows, never of the whole document, which would let a hidden placement be confirmed by guessing)
    version = f"1.0+{writing.content_hash(doc)[:10]}"
    description = " · ".join(x for x in (data.get("subtitle"), data.get("date"), data.get("place"),
                                         cards.game_name(doc)) if x)
    root = game_module(name, version, description)
    roster = ET.SubElement(root, P + "module.PlayerRoster", buttonKeyStroke="", buttonText="Retire",
                           buttonToolTip="Switch sides, become observer, or release faction")
    for s in data["sides"]:
        ET.SubElement(roster, "entry").text = s["name"]
    for sheet in (cards.PUBLIC,) if side is None else (cards.PUBLIC, side):  # the public card; a side's sheet
        if sheet in cards.sheets(doc):
            add_help(root, files, sheet_title(doc, sheet), f"{sheet_file(sheet)}.html", sheet_html(doc, sheet))

    board_name = main.name or title
    window, board_element = add_map_window(root, "Main Map", board_name, "board.png", size)
    zoned = add_grid(board_element, b)
    vassal_los.add_los(window, files, main)
    across = b.across_px
    pieces = Pieces(files, max(16, round(across * COUNTER_SHARE)), main.grid.orientation)
    for s in data["sides"]:
        zone = [h for h in s["setup_zone"] if ":" not in h]
        if zone:
            add_zone(zoned, f"{s['name']} setup zone", zone_path(main.grid, b, zone))
    for s in data["sides"]:
        units = doc.units(s)
        stacks = {}
        for pl in s["placements"]:
            if ":" in pl["hex"] or pl["unit"] not in units:
                continue
            if pl["hex"] not in stacks:
                col, row = main.grid.parse_label(pl["hex"])
                stacks[pl["hex"]] = add_setup_stack(window, f"{s['name']} {pl['hex']}", board_name,
                                                    vassal_point(b, col, row), location=pl["hex"])
            pieces.slot(stacks[pl["hex"]], s, units[pl["unit"]], pl.get("facing"))
        add_side_window(root, files, doc, s, pieces)
    return pack(root, name, version, description, files)


def sheet_title(doc, sheet):
    """The sheet's name as the card names it (cards.sheet_choices: "Public card", "German: side sheet (secret)";
    on TOCS "Public sheet", "German: secret brief")."""
    return dict(cards.sheet_choices(doc.data)).get(sheet, sheet)


def sheet_file(sheet):
    """The help file of a sheet: card.html for the public card, brief-<side>.html for a side's sheet."""
    return "card" if sheet == "public" else "brief-" + "".join(c if c.isalnum() else "-" for c in sheet)


def vassal_point(b, col, row):
    """The pixel VASSAL's numbering gives a hex's label (HexGridNumbering.getCenterPoint, the grid unrotated)."""
    attrs = vassal_grid.hex_grid(b)
    dx, dy, x0, y0 = float(attrs["dx"]), float(attrs["dy"]), int(attrs["x0"]), int(attrs["y0"])
    k = 0 if b.grid.stagger == "odd" else 1
    line, along = (col, row) if b.grid.orientation == "flat" else (row, col)
    nx = line + k
    x = int(nx * dx) + x0
    y = (int(along * dy) if nx % 2 == 0 else int(along * dy + dy / 2)) + y0
    return (y, x) if b.grid.orientation == "pointy" else (x, y)


def add_side_window(root, files, doc, side, pieces):
    """The side's at-start window: a row per turn of arrival (its reinforcements), and a row for the units that
    set up anywhere in the side's zone or on another of the scenario's maps."""
    rows = side_rows(doc, side)
    if not rows:
        return
    image_name = f"window-{len(files)}.png"
    png, size, points = rows_png(rows, pieces.size, side.get("colour"))
    files[f"images/{image_name}"] = png
    title = f"{side['name']}: reinforcements and set-up"
    window, _ = add_map_window(root, title, title, image_name, size, launch=True)
    units = doc.units(side)
    for (label, entries), point in zip(rows, points, strict=False):
        stack = add_setup_stack(window, f"{side['name']} {label}", title, point)
        for unit_id, count in entries:
            for _ in range(count):
                pieces.slot(stack, side, units[unit_id])
