"""A map in another tool's format: the one table of what each export format is, its size bounds, and the call
that writes it, shared by ``export_map`` and the map export job (docs/exports.md). No Django.

The print PNG stays with the print renderer (engine/render/printing.py); the formats here are the Tiled map (a
zip of the TMX and its tileset images, engine/exports/tiled.py), the vector print (SVG or PDF,
engine/render/vector.py) and the VASSAL module (the vassal module of this package).
"""

from dataclasses import dataclass

from engine.exports import tiled, vassal, vassal_grid
from engine.los.engine import compile_map
from engine.render import vector
from engine.render.printing import HEX_MM_RANGE, printed_size, too_large
from engine.render.styles import SQRT3

# A vector print's bounds: its hexes (the SVG is about 600 bytes a hex, so 40,000 hexes are some 25 MB), and a PDF
# page's side, which Acrobat and most readers take up to 200 inches (14,400 points).
MAX_VECTOR_HEXES = 40_000
MAX_PDF_MM = 5080.0
MARGIN_MM = 10.0  # the print margins (5 mm a side), for the page size checked before anything is drawn


class Refused(ValueError):
    """An export refused before anything is drawn; ``option`` names what to change: "format" or "hex_mm"."""

    def __init__(self, option, message):
        super().__init__(message)
        self.option = option


@dataclass(frozen=True)
class Format:
    extension: str
    media_type: str
    label: str


FORMATS = {
    "tiled": Format("zip", "application/zip", "Tiled map"),
    "svg": Format("svg", "image/svg+xml", "vector print (SVG)"),
    "pdf": Format("pdf", "application/pdf", "vector print (PDF)"),
    "vassal": Format("vmod", "application/octet-stream", "VASSAL module"),
}


def check(grid, format, hex_mm):
    """Refused (a ValueError) naming what is wrong, before anything is drawn: an unknown format, a hex size out
    of range, a vector print past its bounds."""
    if format not in FORMATS:
        raise Refused("format", f"format {format!r} is not one of {', '.join(FORMATS)}")
    if not HEX_MM_RANGE[0] <= hex_mm <= HEX_MM_RANGE[1]:
        raise Refused("hex_mm", f"hex size must be from {HEX_MM_RANGE[0]:g} to {HEX_MM_RANGE[1]:g} mm, got {hex_mm:g}")
    if format in ("svg", "pdf") and grid.size > MAX_VECTOR_HEXES:
        raise Refused("format", f"the map has {grid.size:,} hexes; a vector print holds at most {MAX_VECTOR_HEXES:,}: "
                         "print the PNG, or a smaller map")
    if format == "vassal":
        check_board(grid, hex_mm)
    if format == "pdf":
        width, height = page_mm(grid, hex_mm)
        if max(width, height) > MAX_PDF_MM:
            raise Refused("hex_mm", f"the PDF page would be {width:,.0f} x {height:,.0f} mm; PDF readers take pages "
                                    f"up to {MAX_PDF_MM:,.0f} mm (200 inches) a side: choose smaller hexes or print "
                                    "the SVG")


def check_board(grid, hex_mm):
    """A VASSAL module's board is the print at VASSAL's dpi: past the print's pixel bound it is refused here,
    naming the largest hex size that fits, not in the worker."""
    def problem(mm):
        try:
            board = vassal_grid.board(grid, mm, vassal.DEFAULT_DPI)
        except ValueError as exc:
            raise Refused("hex_mm", str(exc)) from None
        return too_large(*printed_size(grid, board.dpi, mm))

    if problem(hex_mm) is None:
        return
    fits = next((mm / 2 for mm in range(int(hex_mm * 2) - 1, int(HEX_MM_RANGE[0] * 2) - 1, -1)
                 if problem(mm / 2) is None), None)
    advice = (f"choose hexes of at most {fits:g} mm" if fits is not None else
              "the map is too large for one VASSAL board at any hex size: export a smaller map")
    raise Refused("hex_mm", f"the VASSAL board at {hex_mm:g} mm hexes: {problem(hex_mm).split(':')[0]}; {advice}")


def page_mm(grid, hex_mm):
    """The map's printed width and height in millimetres without its legend (the hexes and margins)."""
    min_x, min_y, max_x, max_y = grid.extent()
    unit = hex_mm / SQRT3
    return (max_x - min_x) * unit + MARGIN_MM, (max_y - min_y) * unit + MARGIN_MM


def export(doc, format, hex_mm=19.0):
    """The map ``doc`` (a MapDoc) in ``format``, as bytes; Refused when check() refuses it."""
    check(doc.grid, format, hex_mm)
    if format == "tiled":
        return tiled.archive(doc)
    if format == "vassal":
        return vassal.map_module(doc, hex_mm=hex_mm)
    cmap = compile_map(doc)
    return vector.svg(cmap, hex_mm) if format == "svg" else vector.pdf(cmap, hex_mm)
