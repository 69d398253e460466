"""A map or a scenario as a VASSAL module (``.vmod``), for VASSAL 3.7 (written against 3.7.26, see vassal_grid).

A module is a zip: ``buildFile.xml`` (the module's components as XML, one element per VASSAL class),
``moduledata`` (name, version, description, the VASSAL version), and the files it names under ``images/``.

- ``map_module``: one Map window with one Board, whose image is the map's print (engine/render/printing.py) and
  whose ZonedGrid holds the HexGrid naming every hex with its Hexside label (vassal_grid.py).
- ``scenario_module`` (vassal_scenario.py): the module both sides play; see there.
"""

import importlib
import io
import time
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass

from engine.exports import vassal_encoding as enc
from engine.exports import vassal_grid, vassal_table, vassal_zones
from engine.los.engine import compile_map
from engine.render.printing import render_print

# The lowest VASSAL a module needs (its VassalVersion): every class, attribute and trait field it writes reads the
# same at tag 3.7.0 as at 3.7.26 (vassal_grid.SOURCE_VERSION, the source it was written against).
VASSAL_VERSION = "3.7.0"
# The map opens at 100 %: Zoomer's zoomStart is one-based and counts from the most zoomed-in level (Zoomer.java).
ZOOM_LEVELS = (0.25, 0.333, 0.5, 0.667, 1.0, 1.5, 2.0)
ZOOM_START = str(sorted(ZOOM_LEVELS, reverse=True).index(1.0) + 1)
# Parts another module adds to every module: each, a function or "package.module:function" (imported when a module
# is packed, so that a part may import this module), is called with the Built (root, files, board, map document,
# main map window) before the module is packed. The LOS extension adds its own here.
EXTRA_PARTS: tuple = ("engine.exports.vassal_los:add_part",)
OFF_MAP = "Off the map"
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


# -- the module's parts --------------------------------------------------------------------------------------

@dataclass
class Built:
    """What an extra part of a module reads and adds to (EXTRA_PARTS)."""

    root: ET.Element
    files: dict
    board: vassal_grid.Board
    map_doc: object
    window: ET.Element


def game_module(name, version, description):
    root = ET.Element(P + "GameModule", ModuleOther1="", ModuleOther2="", VassalVersion=VASSAL_VERSION,
                      description=enc.check_text(description, "the description"),
                      name=enc.check_text(name, "the module's name"), nextPieceSlotId="0", version=version)
    ET.SubElement(root, P + "module.BasicCommandEncoder")
    vassal_table.add_global_options(root)
    return root


def add_map_window(root, map_name, board_name, image, size, launch=False, tag="module.Map"):
    """A Map window holding one board; returns (map element, board element)."""
    map_name, board_name = enc.check_text(map_name, "a window's name"), enc.check_text(board_name, "a board's name")
    window = ET.SubElement(root, P + tag, allowMultiple="false", backgroundcolor="255,255,255",
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
    ET.SubElement(window, P + "module.map.Zoomer", zoomLevels=",".join(str(z) for z in ZOOM_LEVELS),
                  zoomStart=ZOOM_START)
    return window, board


def add_grid(board_element, b, size):
    """The board's ZonedGrid with the HexGrid and its numbering as its background grid, and the board outside the
    map's hexes as a Zone without a grid ("Off the map"): a counter dropped there stays where it is dropped, and
    never snaps to a centre of the grid's next column or row, which is no hex of the map (ZonedGrid.snapTo asks
    the zone first; a zone without a grid returns the point)."""
    zoned = ET.SubElement(board_element, P + "module.map.boardPicker.board.ZonedGrid")
    ET.SubElement(zoned, P + "module.map.boardPicker.board.mapgrid.ZonedGridHighlighter")
    off = vassal_zones.off_map_path(b.grid, b, size)
    if off:
        ET.SubElement(zoned, P + "module.map.boardPicker.board.mapgrid.Zone", highlightProperty="",
                      locationFormat="$name$", name=OFF_MAP, path=off, useHighlight="false", useParentGrid="false")
    hexgrid = ET.SubElement(zoned, P + "module.map.boardPicker.board.HexGrid", vassal_grid.hex_grid(b))
    ET.SubElement(hexgrid, P + "module.map.boardPicker.board.mapgrid.HexGridNumbering", vassal_grid.numbering(b.grid))
    return zoned


def add_zone(zoned, name, path, colour):
    """A named Zone, drawn: its ZoneHighlight (a border in the side's colour) chosen by the zone's own property
    (Zone.setup finds ``highlightProperty`` on the zone, and its value names the highlight); a location in it
    reports as "German setup zone C4"."""
    name = enc.check_text(name, "a zone's name")
    highlighter = zoned.find(P + "module.map.boardPicker.board.mapgrid.ZonedGridHighlighter")
    ET.SubElement(highlighter, P + "module.map.boardPicker.board.mapgrid.ZoneHighlight", color=colour,
                  coverage="Zone Border", image="", name=name, opacity="60", style="Plain", width="4")
    zone = ET.Element(P + "module.map.boardPicker.board.mapgrid.Zone", highlightProperty="Highlight",
                      locationFormat="$name$ $gridLocation$", name=name, path=path, useHighlight="true",
                      useParentGrid="true")
    ET.SubElement(zone, P + "module.properties.ZoneProperty", description="", initialValue=name,
                  isNumeric="false", max="100", min="0", name="Highlight", wrap="false")
    zoned.insert(len(zoned) - 1, zone)  # zones before the background grid, as VASSAL's editor writes them
    return zone


def add_help(root, files, title, file_name, html):
    docs = root.find(P + "module.Documentation")
    if docs is None:
        docs = ET.Element(P + "module.Documentation")
        root.insert(1, docs)
    files[file_name] = html.encode("utf-8")
    ET.SubElement(docs, P + "module.documentation.HelpFile", fileName=file_name, fileType="archive",
                  title=enc.check_text(title, "a help page's title"))


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


def pack(root, name, version, description, files, built=None):
    for part in EXTRA_PARTS if built is not None else ():
        if isinstance(part, str):
            module_name, _, function = part.partition(":")
            part = getattr(importlib.import_module(module_name), function)
        part(built)
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
    add_grid(board_element, b, size)
    return pack(root, name, "1.0", description, files, Built(root, files, b, map_doc, window))
