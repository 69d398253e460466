"""A side's forces as the card prints them: one row per OOB line with its key on the card's map, what it is,
how many, its quality (a miniatures platoon commander's rating), its steps and parent HQ where the game has them
(TOCS, 004 L187), and where it starts: its hexes with how many set up in each and the way each faces, its entry,
else what its unit type's rules say (the miniatures sniper: "anywhere", QRS L333).

On the public card of a game whose forces are public (the catalogue's ``hidden.forces_public``: OST 3.1.4 with
21.0.1, ATS 3.5.2) a side's hidden lines are listed too, from their public face (visibility.public_face), their
positions hidden; a dummy is listed by its FOW side."""

from collections import Counter

from reportlab.platypus import Table, TableStyle

from engine import rulesets
from engine.render.counters import facing_angle
from engine.scenarios import checks as scenario_checks
from engine.scenarios import unittypes, victory, visibility
from engine.scenarios.cards.layout import CELL_ARRIVALS, CELL_HEXES, FONT, INK, INLINE_NOTES, RULE, SHADE, p
from engine.scenarios.cards.track import turn_label

# Bearings (0 = north, clockwise) by 16 compass points: a vertex of a hex lies between two of the 8 main ones.
COMPASS = ("N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW")
HIDDEN_WHERE = "position hidden (recorded on paper)"
DUMMY_WHERE = "FOW side up; position hidden"


def unit_name(unit):
    return scenario_checks._unit_name({"name": "", **unit})


def listed(doc, side):
    """The public faces of a side's hidden lines the public card lists (forces_public), [] otherwise."""
    withheld = ((doc.data.get("extensions") or {}).get(visibility.WITHHELD) or {}).get(side["id"]) or {}
    return list(withheld.get("listed") or [])


def facing_words(doc, facing):
    """ "facing NW" for a hexside, "facing vertex NNE" for a vertex (Assault 4.8, 002 L440), "" for none."""
    angle = facing_angle(orientation(doc), facing)
    if angle is None:
        return ""
    if isinstance(facing, int) and not isinstance(facing, bool):
        return f"facing vertex {COMPASS[round(((angle + 90) % 360) / 22.5) % 16]}"
    return f"facing {str(facing).upper()}"


def orientation(doc):
    return doc.maps[doc.main_key].grid.orientation


def placed(doc, placement):
    """One placement as the card says it: "06.10", "off map (13.07)", "P8 facing NW", "06.10 (2 steps lost;
    Fatigued; 6-4-8)"."""
    where = f"off map ({placement['hex']})" if placement.get("off_map") else placement["hex"]
    found = _catalogue(doc)
    statuses = found.statuses if found is not None else {}
    state = []
    if placement.get("steps_lost"):
        lost = placement["steps_lost"]
        state.append(f"{lost} step{'s' if lost != 1 else ''} lost")
    state += [(statuses.get(s) or {}).get("name", s) for s in placement.get("status") or ()]
    if placement.get("strength"):
        state.append(placement["strength"])
    facing = facing_words(doc, placement.get("facing"))
    return where + (f" {facing}" if facing else "") + (f" ({'; '.join(state)})" if state else "")


def _catalogue(doc):
    try:
        return rulesets.get(doc.ruleset)
    except KeyError:
        return None


def counted(hexes):
    """Hexes with how many set up in each: "P10 (2), N9, Q8" (a stack of two is not hidden in a list)."""
    counts = Counter(hexes)
    return [h if counts[h] == 1 else f"{h} ({counts[h]})" for h in dict.fromkeys(hexes)]


def setup_or_entry(doc, side, unit):
    """Where a unit starts: its setup hexes (how many in each, the way each faces), off map, its entry turns,
    else what its type's rules say (a sniper "anywhere", QRS L333), else its side's setup zone."""
    hexes = [placed(doc, pl) for pl in side["placements"] if pl["unit"] == unit["id"]]
    arrivals = [turn_label(doc, r["turn"]) + (f", {victory.EDGE_NAMES[r['edge']]} edge" if r.get("edge") else "")
                + (f", {hex_list(r['hexes'], CELL_HEXES)}" if r.get("hexes") else "")
                for r in side["reinforcements"] for g in r["units"] if g["unit"] == unit["id"]]
    if len(arrivals) > CELL_ARRIVALS:
        arrivals = arrivals[:CELL_ARRIVALS] + [f"and {len(arrivals) - CELL_ARRIVALS} more times (see the "
                                               "reinforcements)"]
    parts = []
    on_map = [h for h in hexes if not h.startswith("off map")]
    if on_map:
        parts.append("sets up in " + hex_list(counted(on_map), CELL_HEXES))
    parts += list(dict.fromkeys(h for h in hexes if h.startswith("off map")))
    if arrivals:
        parts.append("enters " + "; ".join(arrivals))
    if not parts:
        kind = unittypes.of(doc, unit) or {}
        if kind.get("setup"):
            parts.append("sets up " + kind["setup"])
        else:
            parts.append("sets up in the setup zone" if side["setup_zone"] else "off map")
    if unit.get("hidden"):
        parts.append("hidden")
    return "; ".join(parts)


def hex_list(hexes, limit=24):
    hexes = list(hexes)
    if len(hexes) <= limit:
        return ", ".join(hexes)
    return ", ".join(hexes[:limit]) + f" and {len(hexes) - limit} more ({len(hexes)} hexes, shaded on the map)"


def quality(unit):
    """The quality cell: the unit's quality, else a commander's rating ("elite commander", QRS L317)."""
    if unit.get("quality"):
        return str(unit["quality"])
    if unit.get("commander"):
        return f"{unit['commander']} commander"
    return "—"


def columns(doc, side, lines):
    """The table's optional columns (title, cell of a line) the side's lines call for."""
    game = doc.ruleset
    out = []
    extra = {"assault": ("Formation", "formation"), "miniatures": ("Platoon", "formation")}.get(game)
    if extra:
        out.append((extra[0], 0.16, lambda u, key=extra[1]: u.get(key) or "—"))
    if any(isinstance(u.get("steps"), int) for u in lines):
        out.append(("Steps", 0.07, lambda u: u.get("steps") if isinstance(u.get("steps"), int) else "—"))
    if any(u.get("parent") for u in lines):
        units = doc.units(side)
        out.append(("Reports to", 0.16, lambda u: unit_name(units[u["parent"]]) if u.get("parent") in units
                    else "—"))
    return out


def forces_table(doc, side, frame_w, public=False):
    """The side's OOB: one row per line, its key the number on its counters on the card's map, the header
    repeated when it continues on the next page; then, on a public card of a game whose forces are public,
    its hidden lines with their positions hidden."""
    lines = list(side["oob"])
    hidden = listed(doc, side) if public else []
    extra = columns(doc, side, lines + hidden)
    head = ["#", "Unit", "Count", "Quality"] + [title for title, _, _ in extra] + ["Setup or entry"]
    rows, spans = [[p(h, "head") for h in head]], []
    for key, unit in enumerate(lines + hidden, 1):
        weapons = ", ".join(unit.get("weapons") or [])
        more = (f"— {weapons}" if weapons else "") + (f". {unit['notes']}" if unit.get("notes") else "")
        inline = len(more) <= INLINE_NOTES
        name = unit_name(unit) + (" (FOW counter)" if unit.get("dummy") else "") + (" " + more if inline and more
                                                                                    else "")
        if key > len(lines):
            where = DUMMY_WHERE if unit.get("dummy") else HIDDEN_WHERE
        else:
            where = setup_or_entry(doc, side, unit)
        row = [p(key, "cell"), p(name, "cell"), p(unit.get("count") or 1, "cell"), p(quality(unit), "cell")]
        row += [p(cell(unit), "cell") for _, _, cell in extra] + [p(where, "cell")]
        rows.append(row)
        if not inline:
            # Long weapons and notes go under the unit across the whole table, so that no row outgrows a page.
            spans.append(len(rows))
            rows.append([""] + [p(more.lstrip("—. "), "cell")] + [""] * (len(head) - 2))
    widths = [0.05, 0.28, 0.085, 0.12] + [w for _, w, _ in extra]
    widths.append(1.0 - sum(widths))
    table = Table(rows, colWidths=[w * frame_w for w in widths], repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle([
        ("BACKGROUND", (0, 0), (-1, 0), SHADE), ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, RULE), ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ] + [("SPAN", (1, r), (-1, r)) for r in spans]))
    return table


def keys(side):
    """unit id -> its key on the card (the forces table's "#"), in OOB order."""
    return {unit["id"]: str(k) for k, unit in enumerate(side["oob"], 1)}
