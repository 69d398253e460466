"""The scenario's map for print in vectors: the card's map (the play area, with what the sheet may show drawn on
it, as scenario_map_png draws it) as SVG or PDF at true hex size (engine/render/vector.py, docs/exports.md)."""

from engine.los.engine import compile_map
from engine.render import vector
from engine.scenarios.cards import CardError, sheet_sides, sheet_view, sheets
from engine.scenarios.cards.mapimage import crop_of, printed_map, scenario_layer

FORMATS = ("svg", "pdf")


def scenario_map_vector(doc, sheet, hex_mm, format="svg"):
    """The scenario's map as SVG or PDF bytes, hexes ``hex_mm`` across the flats, drawn from the sheet's view."""
    if sheet not in sheets(doc):
        raise CardError(f"this scenario's sheets are {', '.join(sheets(doc))}; there is no sheet {sheet!r}")
    if format not in FORMATS:
        raise CardError(f"format {format!r}: the scenario's map is printed in vectors as svg or pdf")
    doc = sheet_view(doc, sheet)
    cmap = compile_map(printed_map(doc))
    layout = vector.scene(cmap, hex_mm, crop=crop_of(doc), scenario=scenario_layer(doc, sheet_sides(doc, sheet)))
    return vector.write_svg(layout) if format == "svg" else vector.write_pdf(layout)
