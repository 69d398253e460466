"""What a scenario draws over its map: setup zones, entry edges and hexes, control, objectives, unit counters."""

from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from engine.render import counters
from engine.render.canvas import hex_index, is_drawn
from engine.render.marks import PERIMETER_INK, facing_arrow, marker_spot
from engine.render.patterns import draw_marker
from engine.render.styles import INK, font, rgb, style_of


@dataclass
class ScenarioLayer:
    """What a scenario draws over its map. Hexes are labels or [column, row]; sides are named by the scenario.

    side_colours: side -> "#rrggbb". setup_zones and control: side -> hexes. objectives: [{"hex", "label"}],
    optionally "side" when one side holds it. units: [{"hex", "side", "label"}], several in a hex are a stack,
    drawn fanned. entry_hexes: side -> hexes. entry_edges: side -> map edges ("N", "E", "S", "W"). perimeter:
    side -> the hexes it owns at the start (TOCS), each side's tinted and the line between owners drawn.
    A unit's "facing" and a marker's are degrees (y down, 0 east) or None; markers: [{"hex", "kind",
    "facing"}], drawn in their catalogue style at the hexside or vertex they face.
    """

    side_colours: dict = field(default_factory=dict)
    setup_zones: dict = field(default_factory=dict)
    objectives: list = field(default_factory=list)
    control: dict = field(default_factory=dict)
    units: list = field(default_factory=list)
    entry_hexes: dict = field(default_factory=dict)
    entry_edges: dict = field(default_factory=dict)
    perimeter: dict = field(default_factory=dict)
    markers: list = field(default_factory=list)

    def colour(self, side, alpha=255):
        return (*rgb(self.side_colours.get(side), (120, 120, 120)), alpha)


def draw_ground(image, draw, canvas, layer):
    """Setup zones tinted and outlined per side, entry edges and hexes, control hexes: under the counters."""
    cmap, grid, s = canvas.cmap, canvas.grid, canvas.s
    drawn = is_drawn(canvas)
    width = max(2, round(s * 0.08))
    _draw_perimeter(draw, canvas, layer)
    for side, hexes in layer.setup_zones.items():
        zone = {hex_index(cmap, h) for h in hexes}
        for i in zone:
            if drawn[i]:
                draw.polygon(canvas.corners(i), fill=layer.colour(side, 70))
        for i in zone:
            if not drawn[i]:
                continue
            col, row = grid.from_index(i)
            for k in range(6):
                n = grid.step(col, row, k)
                if not grid.contains(*n) or grid.index(*n) not in zone:
                    a, b = canvas.edge(i, k)
                    draw.line([a, b], fill=layer.colour(side), width=width)
    for side, edges in layer.entry_edges.items():
        for edge in edges:
            _draw_entry_edge(image, draw, canvas, layer, side, edge)
    for side, hexes in layer.entry_hexes.items():
        for h in hexes:
            i = hex_index(cmap, h)
            if drawn[i]:
                cx, cy = canvas.centre_px[i]
                r = s * 0.55
                draw.polygon([(cx - r * 0.6, cy - r * 0.5), (cx + r * 0.7, cy), (cx - r * 0.6, cy + r * 0.5)],
                             fill=layer.colour(side, 200), outline=INK)
    for side, hexes in layer.control.items():
        for h in hexes:
            i = hex_index(cmap, h)
            if drawn[i]:
                cx, cy = canvas.centre_px[i]
                x, y = cx - s * 0.55, cy - s * 0.35
                draw.line([(x, y + s * 0.35), (x, y - s * 0.1)], fill=INK, width=max(1, round(s * 0.03)))
                draw.polygon([(x, y - s * 0.1), (x + s * 0.28, y), (x, y + s * 0.1)], fill=layer.colour(side),
                             outline=INK)


def _draw_perimeter(draw, canvas, layer):
    """Each side's owned hexes lightly tinted, and a line along every hexside between hexes of different owners
    (a hex nobody owns is no man's land): the perimeter both players keep on their maps (TOCS, 004 L362)."""
    if not layer.perimeter:
        return
    cmap, grid = canvas.cmap, canvas.grid
    drawn = is_drawn(canvas)
    owner = {}
    for side, hexes in layer.perimeter.items():
        for h in hexes:
            owner[hex_index(cmap, h)] = side
    for i, side in owner.items():
        if drawn[i]:
            draw.polygon(canvas.corners(i), fill=layer.colour(side, 60))
    width = max(2, round(canvas.s * 0.12))
    for i, side in owner.items():
        if not drawn[i]:
            continue
        col, row = grid.from_index(i)
        for k in range(6):
            n = grid.step(col, row, k)
            if grid.contains(*n) and owner.get(grid.index(*n)) != side:
                draw.line(canvas.edge(i, k), fill=PERIMETER_INK, width=width)


def _draw_entry_edge(image, draw, canvas, layer, side, edge):
    x0, y0 = canvas.margin, canvas.margin
    x1, y1 = x0 + canvas.map_w, y0 + canvas.map_h
    t = max(4, round(canvas.s * 0.22))
    box = {"N": (x0, y0, x1, y0 + t), "S": (x0, y1 - t, x1, y1), "W": (x0, y0, x0 + t, y1),
           "E": (x1 - t, y0, x1, y1)}.get(str(edge).upper())
    if box is None:
        return
    draw.rectangle(box, fill=layer.colour(side, 220))
    f = font(t * 0.8, bold=True)
    text = f"{side} enters"
    length = int(draw.textlength(text, font=f)) + 4
    label = Image.new("RGBA", (length, t), (0, 0, 0, 0))
    ImageDraw.Draw(label).text((length / 2, t / 2), text, fill=(255, 255, 255, 255), font=f, anchor="mm")
    if str(edge).upper() in ("W", "E"):
        label = label.rotate(90, expand=True)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    image.paste(label, (int(cx - label.width / 2), int(cy - label.height / 2)), label)


def draw_pieces(draw, canvas, layer):
    """Objectives and units as labelled counters; a stack fans up and to the right."""
    cmap, s = canvas.cmap, canvas.s
    drawn = is_drawn(canvas)
    for objective in layer.objectives:
        i = hex_index(cmap, objective["hex"])
        if not drawn[i]:
            continue
        cx, cy = canvas.centre_px[i]
        r = s * 0.62
        colour = layer.colour(objective["side"]) if objective.get("side") else (230, 180, 20, 255)
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=colour, width=max(2, round(s * 0.09)))
        draw_marker(draw, "star", cx, cy - r, s * 0.18, colour, INK)
        if objective.get("label"):
            draw.text((cx, cy + r), objective["label"], fill=INK, font=font(max(s * 0.22, canvas.min_text), bold=True),
                      anchor="mm",
                      stroke_width=max(1, round(s * 0.03)), stroke_fill=(255, 255, 255))
    for marker in layer.markers:
        i = hex_index(cmap, marker["hex"])
        if drawn[i]:
            _draw_marker_piece(draw, canvas, canvas.centre_px[i], marker)
    stacks = {}
    for unit in layer.units:
        stacks.setdefault(hex_index(cmap, unit["hex"]), []).append(unit)
    side = s * 0.8
    fan = s * 0.22
    for i, units in stacks.items():
        if not drawn[i]:
            continue
        cx, cy = canvas.centre_px[i]
        n = len(units)
        for k, unit in enumerate(units):
            ox = (k - (n - 1) / 2) * fan
            x, y = cx + ox - side / 2, cy - ox - side / 2
            fill = layer.colour(unit.get("side"))
            draw.rectangle([x + 2, y + 2, x + side + 2, y + side + 2], fill=(0, 0, 0, 90))
            # the one counter drawing (render/counters.py), its label (the card's key) as large as it fits
            piece = counters.scene(counters.face({}, "#{:02x}{:02x}{:02x}".format(*fill[:3]),
                                                 label=unit.get("label", "")), 10.0)
            counters.draw_png(draw, piece, x, y, side / 10.0, least=canvas.min_text)
            if unit.get("facing") is not None:
                draw.polygon(facing_arrow(x + side / 2, y + side / 2, unit["facing"], side * 0.5, s * 0.95),
                             fill=INK, outline=(255, 255, 255))


def _draw_marker_piece(draw, canvas, centre, marker):
    """A scenario marker (a wreck, a trench, sandbags): its catalogue style's shape and colours, with a tick to
    the vertex or hexside it is aligned to (Assault 002 L904)."""
    style = style_of(canvas.cmap.catalogue, marker["kind"])
    x, y = marker_spot(canvas, centre, marker)
    r = canvas.s * 0.2
    fill = rgb(style.get("fill") or style.get("stroke"), (200, 200, 200))
    draw_marker(draw, style.get("marker") or "square", x, y, r, fill, INK)
    if marker.get("facing") is not None:
        draw.polygon(facing_arrow(centre[0], centre[1], marker["facing"], canvas.s * 0.72, canvas.s * 0.98),
                     fill=INK)
