"""The band under a printed map: a legend naming each terrain shown (and the scenario's sides) and a scale bar."""

import math

from engine.render import roads
from engine.render.canvas import is_drawn
from engine.render.marks import PERIMETER_INK
from engine.render.patterns import hex_points, paste_pattern
from engine.render.styles import GRID_LINE, INK, SQRT3, font, rgb, style_of


def _legend_unit(canvas):
    return max(11.0, canvas.s * 0.22)


def legend_entries(cmap, canvas, scenario):
    """(name, kind, style) of every terrain the image shows, in catalogue order, then the scenario's sides."""
    used = set(t for terrain in {cmap.terrain[i] for i in canvas.drawn} for t in terrain)
    drawn = is_drawn(canvas)
    used |= {tid for (col, row, side), tid in cmap.hexsides.items()
             if any(cmap.grid.contains(*h) and drawn[cmap.grid.index(*h)]
                    for h in ((col, row), cmap.grid.step(col, row, side)))}
    entries = []
    for entry in cmap.catalogue.terrain.values():
        if entry["id"] in used:
            # A road or railroad is drawn as a line (roads.py), and its swatch is one too.
            layer = entry.get("linear") if entry["layer"] == "hex" and entry.get("linear") else entry["layer"]
            entries.append((entry["name"], layer, style_of(cmap.catalogue, entry["id"])))
    if scenario is not None:
        shown = set()
        for marker in scenario.markers:  # a scenario's markers by their catalogue names (a wreck, a trench)
            kind = marker["kind"]
            if kind not in shown and kind not in used and kind in cmap.catalogue.terrain:
                shown.add(kind)
                entries.append((cmap.catalogue.terrain[kind]["name"], "hex", style_of(cmap.catalogue, kind)))
        for side, colour in scenario.side_colours.items():
            entries.append((side, "side", {"fill": colour}))
        if scenario.perimeter:
            entries.append(("Perimeter", "hexside", {"stroke": "#{:02x}{:02x}{:02x}".format(*PERIMETER_INK),
                                                     "stroke_width": 0.06}))
    return entries


def _legend_layout(cmap, canvas, scenario):
    u = _legend_unit(canvas)
    entries = legend_entries(cmap, canvas, scenario)
    longest = max((font(u).getlength(name) for name, _, _ in entries), default=0)
    col_w = max(u * 10, longest + u * 3.5)
    cols = max(1, int((canvas.map_w) // col_w))
    rows = math.ceil(len(entries) / cols) if entries else 0
    return u, entries, col_w, cols, rows


def legend_height(cmap, canvas, scenario):
    u, _, _, _, rows = _legend_layout(cmap, canvas, scenario)
    return int(math.ceil(u * (1.5 + rows * 2.2 + 4.5)))


def draw_legend(image, draw, canvas, cmap, scenario, top, legend, scale_bar, hex_mm, dpi):
    u, entries, col_w, cols, rows = _legend_layout(cmap, canvas, scenario)
    x0 = canvas.margin
    y = top + u * 0.5
    f = font(u)
    orientation = cmap.grid.orientation
    if legend:
        for k, (name, layer, style) in enumerate(entries):
            x = x0 + (k % cols) * col_w
            yy = y + (k // cols) * u * 2.2
            r = u * 0.9
            cx, cy = x + r, yy + r
            if layer == "hexside":
                draw.polygon(hex_points(orientation, r, cx, cy), fill=(240, 238, 230), outline=GRID_LINE)
                draw.line([(cx - r, cy + r * 0.6), (cx + r, cy + r * 0.6)], fill=rgb(style.get("stroke"), INK),
                          width=max(2, round((style.get("stroke_width") or 0.06) * SQRT3 * r * 2.5)))
            elif layer in ("road", "railroad"):
                draw.polygon(hex_points(orientation, r, cx, cy), fill=(240, 238, 230), outline=GRID_LINE)
                ends = [(cx - r, cy), (cx + r, cy)]
                if layer == "railroad":
                    draw.line(ends, fill=roads.RAIL_INK, width=max(1, round(r * 2 * roads.RAIL_WIDTH)))
                    for tie in roads.ties(tuple(ends), r):
                        draw.line(tie, fill=roads.RAIL_INK, width=max(1, round(r * roads.RAIL_WIDTH)))
                else:
                    core = max(2, round(r * roads.ROAD_WIDTH * 1.5))
                    draw.line(ends, fill=roads.CASING, width=core + 2 * max(1, round(r * 0.08)))
                    draw.line(ends, fill=rgb(style.get("fill"), (220, 200, 160)), width=core)
            else:
                draw.polygon(hex_points(orientation, r, cx, cy), fill=rgb(style.get("fill"), (200, 200, 200)),
                             outline=GRID_LINE)
                if style.get("pattern"):
                    paste_pattern(image, style["pattern"], rgb(style.get("pattern_colour"), INK), orientation, r,
                                   cx, cy)
            draw.text((x + 2.5 * r, cy), name, fill=INK, font=f, anchor="lm")
    if scale_bar:
        _draw_scale_bar(draw, canvas, cmap, x0, top + u * (1.2 + rows * 2.2), u, hex_mm, dpi)


def scale_bar(canvas, cmap):
    """(metres a hex, units of the image per metre, metres a step of the bar's four): the bar spans at most six
    hexes and 40% of the map's width, in round steps."""
    metres = float(cmap.grid.hex_metres or 0) or 50.0
    px_per_metre = canvas.s * SQRT3 / metres
    target = min(canvas.map_w * 0.4, canvas.s * SQRT3 * 6)
    nice = [10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000]
    step = max([n for n in nice if n * 4 * px_per_metre <= target] or [nice[0]])
    return metres, px_per_metre, step


def scale_text(metres, step, k, hex_mm, dpi):
    """The label under the bar's k-th tick (k = 0..4), or with k None the sentence beside the bar."""
    if k is not None:
        return "0" if k == 0 else (f"{step * k / 1000:g} km" if step * 4 >= 2000 else f"{step * k:g} m")
    text = f"one hex = {metres:g} m"
    if hex_mm:
        text += f", {hex_mm:g} mm across the flats"
    if dpi:
        text += f", {dpi:g} dpi"
    return text


def _draw_scale_bar(draw, canvas, cmap, x0, y, u, hex_mm, dpi):
    metres, px_per_metre, step = scale_bar(canvas, cmap)
    h = u * 0.6
    f = font(u * 0.9)
    for k in range(4):
        x = x0 + k * step * px_per_metre
        draw.rectangle([x, y, x + step * px_per_metre, y + h], fill=INK if k % 2 == 0 else (255, 255, 255),
                       outline=INK)
    for k in range(5):
        x = x0 + k * step * px_per_metre
        draw.text((x, y + h + u * 0.2), scale_text(metres, step, k, hex_mm, dpi), fill=INK, font=f, anchor="mt")
    text = scale_text(metres, step, None, hex_mm, dpi)
    draw.text((x0 + 4 * step * px_per_metre + u * 2, y + h / 2), text, fill=INK, font=f, anchor="lm")

