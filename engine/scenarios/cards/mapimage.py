"""The map as the card prints it: the main map cropped to the play area, each overlay labelled with its name or
printed ID, and what the sheet may show of the scenario drawn on it (setup zones, units, entries, objectives,
perimeter)."""

import io

from engine import mapfile, render
from engine.los.engine import compile_map
from engine.render.counters import facing_angle
from engine.scenarios.cards.forces import keys
from engine.scenarios.cards.layout import MAP_DPI, MAP_HEX_MM

# The smallest text the card's map prints (about 5 pt): a map shrunk to fit the page has its labels enlarged to
# it where they fit their hexes, and left out where they do not, rather than printed unreadably small.
MIN_TEXT_MM = 1.8


def printed_map(doc):
    """The main map as the card draws it. Its overlays are labelled by the renderer with their names or printed
    letter-number IDs, never with Hexside's own ids (engine.mapfile.overlay_title)."""
    return doc.maps[doc.main_key]


def overlay_id(given):
    """An overlay's printed letter-number ID ("P3", also for the painter's copy "P3-2"), or "" (ATS 3.3.1, 001
    L138: "Each overlay is identified by a letter-number ID")."""
    match = mapfile.PRINTED_OVERLAY_ID.match(str(given))
    return match.group(1) if match else ""


def on_main(ref):
    return ":" not in ref


def scenario_layer(doc, side_ids, keyed=False):
    """What the map shows of the scenario: setup zones, units (each with the way it faces) and entry edges of
    ``side_ids``, objectives, and the markers the sheet may show (a wreck, a fortification with its facing).
    Sides are keyed by their names, which the map's legend prints. ``keyed``: a unit's counter says its key in
    the card's forces table ("3"), which stays legible on a map shrunk to the page, rather than its name."""
    data = doc.data
    orientation = doc.maps[doc.main_key].grid.orientation
    shown = [s for s in data["sides"] if s["id"] in side_ids]
    names = {s["id"]: s["name"] for s in shown}
    layer = render.ScenarioLayer(side_colours={s["name"]: s.get("colour") for s in shown})
    for o in data.get("objectives", []):
        if on_main(o["hex"]):
            entry = {"hex": o["hex"], "label": o.get("name") or ""}
            if o.get("owner") in names:
                entry["side"] = names[o["owner"]]
            layer.objectives.append(entry)
    for side in shown:
        units, name, key = doc.units(side), side["name"], keys(side)
        layer.setup_zones[name] = [h for h in side["setup_zone"] if on_main(h)]
        layer.units.extend({"hex": pl["hex"], "side": name,
                            "label": key[pl["unit"]] if keyed else units[pl["unit"]]["unit"],
                            "facing": facing_angle(orientation, pl.get("facing"))}
                           for pl in side["placements"]
                           if on_main(pl["hex"]) and pl["unit"] in units and not pl.get("off_map"))
        edges = sorted({r["edge"] for r in side["reinforcements"] if r.get("edge")})
        if edges:
            layer.entry_edges[name] = edges
        hexes = [h for r in side["reinforcements"] for h in r.get("hexes") or [] if on_main(h)]
        if hexes:
            layer.entry_hexes[name] = hexes
    shown_ids = {s["id"] for s in shown}
    for marker in data.get("markers") or []:
        # The view already left out what the sheet's reader may not see; a side's marker is drawn on the maps
        # that show the side (the public card shows every side, a side's sheet its own and no side's).
        if on_main(marker["hex"]) and (not marker.get("side") or marker["side"] in shown_ids):
            layer.markers.append({"hex": marker["hex"], "kind": marker["kind"],
                                  "facing": facing_angle(orientation, marker.get("facing"))})
    for sid, hexes in sorted((data.get("perimeter") or {}).items()):
        # The perimeter is known to both players (TOCS: "the perimeter on both maps should be the same", 004
        # L362): every sheet draws it, each side's hexes in its colour, the public sheet included.
        side = doc.side(sid)
        if side is not None:
            layer.side_colours.setdefault(side["name"], side.get("colour"))
            layer.perimeter[side["name"]] = [h for h in hexes if on_main(h)]
    return layer


def crop_of(doc):
    """The play area as a label rectangle "A1:F10" on the main map, or None (the whole map)."""
    area = doc.data.get("play_area")
    corners = (area or {}).get("corners") or []
    if len(corners) == 2 and all(on_main(c) for c in corners):
        return f"{corners[0]}:{corners[1]}"
    return None


def map_png(doc, side_ids, width_mm, height_mm, dpi=MAP_DPI):
    """The main map cropped to the play area with the scenario drawn on it, sized to fit width x height mm:
    (png bytes, width mm, height mm) as it goes on the page."""
    cmap = compile_map(printed_map(doc))
    crop = crop_of(doc)
    area = render.play_area(cmap, crop) if crop else None
    natural_w, natural_h = render.printed_size(cmap.grid, dpi, MAP_HEX_MM, area=area, cmap=cmap)
    natural_h *= 1.25  # the legend and scale bar under the map
    fit = min(1.0, width_mm / (natural_w / dpi * 25.4), height_mm / (natural_h / dpi * 25.4))
    hex_mm = MAP_HEX_MM * fit
    if hex_mm < render.HEX_MM_RANGE[0]:  # a very large map: the smallest hexes, at a lower dpi, still fit the page
        dpi = max(10, round(dpi * hex_mm / render.HEX_MM_RANGE[0]))
        hex_mm = render.HEX_MM_RANGE[0]
    image = render.render_print(cmap, dpi=dpi, hex_mm=hex_mm, crop=crop,
                                scenario=scenario_layer(doc, side_ids, keyed=True),
                                min_text_mm=MIN_TEXT_MM)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    w, h = image.width / dpi * 25.4, image.height / dpi * 25.4
    shrink = min(1.0, width_mm / w, height_mm / h)
    return out.getvalue(), w * shrink, h * shrink
