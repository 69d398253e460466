"""ATS's numbers on the card: the overlays, the setup order, friendly edges and VP values."""

from engine import mapfile
from engine.scenarios import victory
from engine.scenarios.cards.layout import p, small_table
from engine.scenarios.cards.mapimage import overlay_id


def block(doc, side_ids):
    """The game's own part of the card, for the sides shown."""
    data = doc.data
    rules = data.get("rules") or {}
    shown = [s for s in data["sides"] if s["id"] in side_ids]
    out = []
    overlays = rules.get("overlays") or []
    out.append(p("Overlays", "h3"))
    if overlays:
        rows = [["Overlay", "X hex", "Y hex"]] + [[overlay_id(o.get("id")) or "—", o.get("x", "—"),
                                                   o.get("y", "—")] for o in overlays]
        out.append(small_table(rows))
    else:
        out.append(p("The scenario's rules place no overlays."))
    main = doc.maps[doc.main_key]
    on_map = [i for i in dict.fromkeys(mapfile.overlay_title(main, o) for o in main.overlays) if i]
    placed = {overlay_id(o.get("id")) for o in overlays}
    drawn = [i for i in on_map if overlay_id(i) in placed]
    unplaced = [i for i in on_map if overlay_id(i) not in placed]
    if drawn:
        out.append(p(f"Drawn on the map at {'their' if len(drawn) > 1 else 'its'} placement: "
                     f"overlay{'s' if len(drawn) > 1 else ''} {', '.join(drawn)}."))
    if unplaced:
        # ATS 3.3.1 (001 L138): "Unless the use of overlays is specified via SSR, none are used."
        out.append(p(f"The map shows overlay{'s' if len(unplaced) > 1 else ''} {', '.join(unplaced)}, which no "
                     "special rule places: unless an SSR says so, no overlay is used (3.3.1)."))
    lines = []
    if rules.get("setup_order"):
        names = {s["id"]: s["name"] for s in data["sides"]}
        lines.append("Setup order: " + ", then ".join(names.get(s, s) for s in rules["setup_order"]) + ".")
    edges = [f"{s['name']} {victory.EDGE_NAMES.get(s['fields']['friendly_edge'], '?')}" for s in shown
             if s["fields"].get("friendly_edge")]
    if edges:
        lines.append("Friendly edges: " + ", ".join(edges) + ".")
    if rules.get("vp_values"):
        lines.append("VP for eliminated units: " + ", ".join(f"{k} {v}" for k, v in rules["vp_values"].items())
                     + ".")
    if rules.get("conditions"):
        lines.append(f"Conditions: {rules['conditions']}.")
    out += [p(line) for line in lines]
    return out
