"""The printable scenario card: a PDF (reportlab) a player prints and plays from.

Everything flows through reportlab's Platypus (paragraphs and tables that split across pages), so long text
wraps and a long OOB continues on the next page with its header row repeated: nothing is drawn at fixed
positions except the footer. The fonts are DejaVu Sans, shipped in engine/scenarios/fonts/ and embedded (subset) in
every PDF, so accented names print (Ste-Mère-Église, Łódź).

A scenario's card is several sheets, in every game: the public card both players see, and one secret sheet per
side. The public card is drawn from the scenario's public part (visibility.view with no side), whoever prints
it, owner included: it never prints a hidden unit, its hex, a hidden marker (a real or a dummy minefield) or a
secret victory condition. A side's sheet is drawn from what that side holds: its brief, its whole OOB with its
hidden units and their hexes, its hidden markers, its victory condition. On a double-blind game (TOCS: its
catalogue's ``hidden.double_blind``) the public sheet holds no unit at all and a side's sheet is its secret
brief. ``sheets(doc)`` names them; ``card_pdf(doc, sheet=...)`` draws one.

The layers, each a module: layout (papers, fonts, styles, paragraphs, small tables), mapimage (the map with
the scenario drawn on it), track (the turn record track), games (each game's own numbers); this module puts
them together into the sheets of the card.
"""

import dataclasses
import io
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    Image,
    KeepTogether,
    SimpleDocTemplate,
    Spacer,
)

from engine import render, rulesets
from engine.los.engine import compile_map
from engine.scenarios import checks as scenario_checks
from engine.scenarios import terrain_rules, victory, visibility
from engine.scenarios.cards.forces import forces_table, hex_list, placed, setup_or_entry
from engine.scenarios.cards.games import game_block
from engine.scenarios.cards.layout import (
    CELL_ARRIVALS,
    CHUNK,
    FONT,
    MAP_MAX_HEIGHT,
    MARGIN,
    PAPERS,
    TABLE_START,
    p,
    pieces,
    register_fonts,
    rich,
    small_table,
    texts,
    victory_lines,
)
from engine.scenarios.cards.mapimage import crop_of, map_png, overlay_id, printed_map, scenario_layer
from engine.scenarios.cards.track import track_box, turn_label, turn_track

__all__ = [
    "hex_list", "placed", "setup_or_entry",
    "CELL_ARRIVALS", "CHUNK", "PAPERS", "PUBLIC", "CardError", "card_pdf", "crop_of", "escape", "game_name",
    "map_png", "overlay_id", "pieces", "printed_map", "reader_of", "rich", "safe_name", "scenario_layer",
    "scenario_map_png", "sheet_choices", "sheet_filename", "sheet_name", "sheet_sides", "sheet_view", "sheets",
    "special_rules", "texts", "track_box", "turn_track",
]


class CardError(ValueError):
    """The card cannot be drawn as asked (an unknown paper or sheet)."""


# -- what the card shows ---------------------------------------------------------------------------------------

PUBLIC = "public"
OLD_PUBLIC = "card"  # the public card's name before every game had side sheets: still read, as "public"


def double_blind(ruleset):
    """Whether a game keeps every part of a side from the other (its catalogue's ``hidden.double_blind``)."""
    return bool(visibility.hidden_rules(ruleset).get("double_blind"))


def sheet_choices(data):
    """(sheet, label) of a scenario document's card: the public card, then one secret sheet per side (on a
    double-blind game, TOCS, the public sheet and each side's secret brief). Reads only the ruleset and the
    sides, so a page can list them without parsing the maps."""
    blind = double_blind(data.get("ruleset"))
    first = (PUBLIC, "Public sheet" if blind else "Public card")
    return [first] + [(side["id"], f"{side['name']}: {'secret brief' if blind else 'side sheet (secret)'}")
                      for side in data.get("sides", [])]


def sheet_name(sheet):
    """A sheet as asked (None: the public one; "card", its old name) as sheets() names it."""
    return PUBLIC if sheet in (None, OLD_PUBLIC) else sheet


def sheets(doc):
    """The sheets of a scenario's card: ["public", side id, ...]."""
    return [sheet for sheet, _ in sheet_choices(doc.data)]


def unit_name(unit):
    return scenario_checks._unit_name(unit)


def catalogue(doc):
    """The scenario's game catalogue, or None for a ruleset no longer known."""
    try:
        return rulesets.get(doc.ruleset)
    except KeyError:
        return None


def game_name(doc):
    """The game's name as its catalogue spells it (the rulebook's: "Advanced Tobruk System", 001 L114)."""
    found = catalogue(doc)
    return found.name if found is not None else doc.ruleset


def marker_name(doc, kind):
    """A marker by its catalogue name (Foxholes), not its terrain id (foxholes)."""
    found = catalogue(doc)
    return found.marker_name(kind) if found is not None else kind


def side_section(doc, side, frame_w, sentences, public=False):
    """A side's forces, setup zone, reinforcements and victory condition."""
    units = doc.units(side)
    heading = escape(side["name"]) + (f" <font size=9>({escape(side['nationality'])})</font>"
                                      if side.get("nationality") and side["nationality"] != side["name"] else "")
    colour = side.get("colour") or "#777777"
    out = [CondPageBreak(60 * mm), rich(f'<font color="{colour}">■</font> {heading}', "h2"),
           forces_table(doc, side, frame_w, public=public)]
    if side["setup_zone"]:
        out.append(rich(f"<b>Setup zone:</b> {escape(hex_list(side['setup_zone']))}."))
    if side["reinforcements"]:
        out.append(p("Reinforcements", "h3"))
        for r in sorted(side["reinforcements"], key=lambda r: r["turn"]):
            what = ", ".join(f"{g['count']} × {unit_name(units[g['unit']]) if g['unit'] in units else g['unit']}"
                             for g in r["units"])
            where = []
            if r.get("edge"):
                where.append(f"along the {victory.EDGE_NAMES[r['edge']]} edge")
            if r.get("hexes"):
                where.append("at " + hex_list(r["hexes"]))
            note = f" {r['note']}" if r.get("note") else ""
            out += texts(f"{what} {' or '.join(where)}.{note}", lead=f"<b>{turn_label(doc, r['turn'], True)}:</b> ")
    if side["id"] in sentences:
        out.append(KeepTogether([p("Victory", "h3")] + victory_lines(sentences[side["id"]])))
    return out


def header(doc, side_ids, frame_w, frame_h, secret_side=None):
    data = doc.data
    out = []
    if secret_side:
        what = "brief" if double_blind(doc.ruleset) else "sheet"
        out.append(p(f"SECRET — {secret_side['name']} {what}. Show it to no other player.", "secret"))
    out.append(p(data["title"], "title"))
    if data.get("subtitle"):
        out.append(p(data["subtitle"], "subtitle"))
    meta = [x for x in (data.get("date"), data.get("place")) if x]
    line = " · ".join(meta + [game_name(doc)])
    if data.get("designer"):
        line += f" · by {data['designer']}"
    out.append(p(line, "meta"))
    if data.get("introduction") and not secret_side:
        out += texts(data["introduction"])
    png, w, h = map_png(doc, side_ids, frame_w / mm, frame_h / mm * MAP_MAX_HEIGHT)
    out += [Spacer(1, 2 * mm), Image(io.BytesIO(png), width=w * mm, height=h * mm), Spacer(1, 2 * mm)]
    return out


def play_order(doc):
    """Who sets up first and who moves first: the side the scenario names, else what the game's rules say
    (the catalogue's scenario.play_order, each sentence citing its rule)."""
    data = doc.data
    names = {s["id"]: s["name"] for s in data["sides"]}
    found = catalogue(doc)
    lines = []
    for key, verb, lead in (("sets_up_first", "sets up first", "Sets up first"),
                            ("moves_first", "moves first", "Moves first")):
        if data.get(key) in names:
            lines.append(f"{lead}: {names[data[key]]}.")
        elif found is not None and found.play_order(key):
            lines.append(found.play_order(key))
        else:
            lines.append(f"The scenario does not say who {verb}.")
    return lines


def general(doc):
    """Setup order, who moves first, weather and light."""
    data = doc.data
    lines = play_order(doc) + modules_line(doc)
    env = data.get("environment") or {}
    if env.get("weather"):
        lines.append(f"Weather: {env['weather']}.")
    if env.get("night"):
        lines.append("It is night.")
    if env.get("visibility"):
        lines.append(f"Visibility: {env['visibility']} hexes.")
    return [p(" ".join(lines))] if lines else []


def modules_line(doc):
    """The rule modules in play, by their names and rules (Assault's training scenarios: 002 2.1)."""
    chosen = doc.data.get("modules") or []
    if not chosen:
        return []
    found = catalogue(doc)
    known = found.modules if found is not None else {}
    names = [(known.get(m) or {}).get("name", m) + (f" ({known[m]['rule']})" if (known.get(m) or {}).get("rule")
                                                    else "") for m in chosen]
    return [f"Rule modules in play: {', '.join(names)}."]


def objectives_block(doc):
    objectives = doc.data.get("objectives") or []
    if not objectives:
        return []
    names = {s["id"]: s["name"] for s in doc.data["sides"]}
    rows = [["Objective", "Hex", "Held at start by", "VP"]]
    for o in objectives:
        rows.append([o.get("name") or "—", o["hex"], names.get(o.get("owner"), "nobody"),
                     o["vp"] if o.get("vp") is not None else "—"])
    return [CondPageBreak(TABLE_START), p("Objectives", "h3"), small_table(rows)]


def markers_block(doc, side_ids):
    markers = [m for m in doc.data.get("markers") or [] if m.get("side") in side_ids or not m.get("side")]
    if not markers:
        return []
    names = {s["id"]: s["name"] for s in doc.data["sides"]}
    rows = [["Marker", "Hex", "Side", "Count", "Details"]] + [[marker_name(doc, m["kind"]), m["hex"],
                                                               names.get(m.get("side"), "—"), m.get("count") or 1,
                                                               marker_details(doc, m) or "—"]
                                                              for m in markers]
    return [CondPageBreak(TABLE_START), p("Markers at start", "h3"), small_table(rows)]


def marker_details(doc, marker):
    """A marker's details and note as the card prints them, in the order its kind declares them: "name: Grave
    Bridge; construction: metal; lanes: 2; capacity: all vehicle weights"."""
    found = catalogue(doc)
    specs = found.marker_details(marker["kind"]) if found is not None else {}
    given = marker.get("details") or {}
    parts = [f"{key.replace('_', ' ')}: {given[key]}" for key in specs if key in given]
    parts += [f"{key.replace('_', ' ')}: {value}" for key, value in given.items() if key not in specs]
    if marker.get("note"):
        parts.append(marker["note"])
    return "; ".join(str(x) for x in parts)


def special_rules(doc):
    rules = doc.data.get("special_rules") or []
    if not rules:
        return []
    out = [p("Special rules", "h2")]
    for n, rule in enumerate(rules, 1):
        out += texts(terrain_rules.rule_text(rule), lead=f"<b>{n}.</b> ")
    return out


def side_sheet(doc, side, frame_w, frame_h, sentences):
    """A side's secret sheet: its brief, the objectives as its victory scores them, its game numbers, its forces
    with its hidden units and their hexes, and its markers with the hidden ones (on every game; on TOCS it is
    the side's secret brief)."""
    out = header(doc, {side["id"]}, frame_w, frame_h, secret_side=side) + [p(" ".join(play_order(doc)))]
    brief = side.get("brief") or {}
    if brief.get("mission"):
        out += [p("Mission", "h3")] + texts(brief["mission"])
    if brief.get("intelligence"):
        out += [p("Intelligence", "h3")] + texts(brief["intelligence"])
    # the objectives with the VP this side's own victory condition gives them (a secret victory's public sheet
    # has none)
    out += objectives_block(doc) + game_block(doc, {side["id"]})
    out += side_section(doc, side, frame_w, sentences)
    out += markers_block(doc, {side["id"]})
    return out


def story(doc, sheet, frame_w, frame_h):
    """The flowables of one sheet (of a document already viewed as the sheet's reader: sheet_view)."""
    data = doc.data
    sentences = victory.lines_for(doc)
    if sheet != PUBLIC:
        return side_sheet(doc, doc.side(sheet), frame_w, frame_h, sentences)
    side_ids = sheet_sides(doc, sheet)
    out = header(doc, side_ids, frame_w, frame_h)
    out += [p("Turn record track", "h3")] + turn_track(doc, side_ids, frame_w)
    out += general(doc) + objectives_block(doc) + game_block(doc, side_ids)
    if not side_ids:
        out.append(p("Each side's forces, setup, reinforcements and victory conditions are on its secret brief.",
                     "meta"))
    for side in data["sides"]:
        if side["id"] in side_ids:
            out += side_section(doc, side, frame_w, sentences, public=True)
    out += markers_block(doc, side_ids) + special_rules(doc)
    return out


def card_pdf(doc, paper="a4", sheet=None):
    """One sheet of the card as PDF bytes. ``sheet``: "public" (None, or "card" as it was called), or a side's id
    (that side's secret sheet)."""
    if paper not in PAPERS:
        raise CardError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    sheet = known_sheet(doc, sheet)
    doc = sheet_view(doc, sheet)
    register_fonts()
    size = PAPERS[paper]
    out = io.BytesIO()
    title = doc.data["title"]
    label = "" if sheet == PUBLIC else f" · SECRET: {doc.side(sheet)['name']}"
    pdf = SimpleDocTemplate(out, pagesize=size, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                            bottomMargin=MARGIN + 4 * mm, title=title + label, author=doc.data.get("designer") or "",
                            creator="Hexside", initialFontName=FONT, initialFontSize=9)
    # (the canvas starts in our font, not Helvetica, so every font in the file is embedded)

    def footer(canvas, document):
        canvas.saveState()
        canvas.setFont(FONT, 7.5)
        canvas.setFillColor(colors.HexColor("#666660"))
        canvas.drawString(MARGIN, MARGIN - 2 * mm, f"{title}{label}")
        canvas.drawRightString(size[0] - MARGIN, MARGIN - 2 * mm, f"page {document.page}")
        canvas.restoreState()

    pdf.build(story(doc, sheet, pdf.width, pdf.height), onFirstPage=footer, onLaterPages=footer)
    return out.getvalue()


def safe_name(text):
    """A file name from a title: letters (accents kept; the file endpoint encodes them), digits and dashes."""
    base = "".join(c if c.isalnum() or c in "-_'" else " " for c in text).strip()
    return "-".join(base.split())[:80] or "scenario"


def sheet_filename(doc, sheet, ext="pdf"):
    sheet = sheet_name(sheet)
    return f"{safe_name(doc.data['title'])}{'' if sheet == PUBLIC else '-' + sheet}.{ext}"


def known_sheet(doc, sheet):
    """The sheet's name (sheet_name), or CardError when the scenario has no such sheet."""
    sheet, names = sheet_name(sheet), sheets(doc)
    if sheet not in names:
        raise CardError(f"this scenario's sheets are {', '.join(names)}; there is no sheet {sheet!r}")
    return sheet


def sheet_sides(doc, sheet):
    """The sides whose sections a sheet prints: on the public card every side (their public part), on a
    double-blind game's public sheet none, on a side's sheet that side."""
    sheet = sheet_name(sheet)
    if sheet != PUBLIC:
        return {sheet}
    return set() if double_blind(doc.ruleset) else {s["id"] for s in doc.data["sides"]}


def reader_of(sheet):
    """The sides a sheet's reader holds (visibility): none for the public card, the side for its sheet."""
    sheet = sheet_name(sheet)
    return set() if sheet == PUBLIC else {sheet}


def sheet_view(doc, sheet):
    """What a sheet is drawn from: the document as a reader holding the sheet's side sees it (visibility.view),
    whoever prints it, so that the public card the owner hands both players holds nothing hidden (no hidden
    unit or its hex, no real or dummy minefield, no objective's secret VP, 004 L140) and a side's sheet nothing
    of the other side's private part."""
    return dataclasses.replace(doc, data=visibility.view(doc.data, reader_of(sheet)))


def scenario_map_png(doc, sheet, dpi, hex_mm):
    """The scenario's map for print as PNG bytes: the play area with what the sheet may show drawn on it."""
    sheet = known_sheet(doc, sheet)
    doc = sheet_view(doc, sheet)
    cmap = compile_map(printed_map(doc))
    image = render.render_print(cmap, dpi=dpi, hex_mm=hex_mm, crop=crop_of(doc),
                                scenario=scenario_layer(doc, sheet_sides(doc, sheet)))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1, dpi=(dpi, dpi))
    return out.getvalue()
