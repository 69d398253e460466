"""The printable scenario card: a PDF (reportlab) a player prints and plays from.

Everything flows through reportlab's Platypus (paragraphs and tables that split across pages), so long text
wraps and a long OOB continues on the next page with its header row repeated: nothing is drawn at fixed
positions except the footer. The fonts are DejaVu Sans, shipped in engine/scenarios/fonts/ and embedded (subset) in
every PDF, so accented names print (Ste-Mère-Église, Łódź).

TOCS scenarios are not one card but several sheets: a public sheet both players see, and one secret brief per
side. A brief holds only its own side's forces, zones, reinforcements, mission and victory condition; the
public sheet holds no unit at all. ``sheets(doc)`` names them; ``card_pdf(doc, sheet=...)`` draws one.
"""

import dataclasses
import io
import re
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    CondPageBreak,
    Image,
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from engine import render, rulesets
from engine.los.engine import compile_map
from engine.scenarios import checks as scenario_checks
from engine.scenarios import victory
from engine.scenarios.scenariofile import inches_per_hex

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT, BOLD, ITALIC = "CardSans", "CardSans-Bold", "CardSans-Italic"
PAPERS = {"a4": A4, "letter": LETTER}
MARGIN = 14 * mm
MAP_DPI = 200  # the map image's resolution as printed on the card
MAP_HEX_MM = 19.0  # the hex size the map is drawn at when it fits the page width
MAP_MAX_HEIGHT = 0.5  # of the frame: the map leaves room for the text on page one
TURNS_PER_ROW = 10
CHUNK = 1_200  # characters of a text laid out as one paragraph (cards.texts)
TABLE_W = min(A4[0], LETTER[0]) - 2 * MARGIN  # the widest a small table may be, on either paper
CHAR_PT = 5.2  # a character of a table cell, on average, in points
SMALL_CELL = 400  # characters of a small table's cell (a game's figures, objectives, markers); more are cut
CELL_HEXES = 12  # hexes named in a table cell; the rest are counted ("and 40 more")
CELL_ARRIVALS = 6  # a unit's arrivals named in its setup cell
INLINE_NOTES = 160  # characters of weapons and notes kept beside a unit's name; longer ones get a row of their own
TABLE_START = 22 * mm  # a small table's heading goes to the next page with its table unless this much room is left
BLANK_LINE = re.compile(r"\n\s*\n")
INK = colors.HexColor("#222222")
RULE = colors.HexColor("#999988")
SHADE = colors.HexColor("#efece0")
# An overlay's printed ID: a letter-number ID, as ATS identifies its overlays (001 L138, 3.3.1); the painter's
# copies of one add "-2", "-3". Any other id (the painter's "sel-1") is Hexside's own and not printed.
OVERLAY_ID = re.compile(r"^([A-Za-z]{1,4}\d{1,4})(?:-\d+)?$")


class CardError(ValueError):
    """The card cannot be drawn as asked (an unknown paper or sheet)."""


@lru_cache(maxsize=1)
def register_fonts():
    """Register the bundled DejaVu Sans faces once per process (reportlab embeds a subset in each PDF)."""
    for name, filename in ((FONT, "DejaVuSans.ttf"), (BOLD, "DejaVuSans-Bold.ttf"),
                           (ITALIC, "DejaVuSans-Oblique.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / filename)))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=ITALIC, boldItalic=BOLD)
    return True


@lru_cache(maxsize=1)
def styles():
    register_fonts()
    base = ParagraphStyle("body", fontName=FONT, bulletFontName=FONT, fontSize=9, leading=11.5, textColor=INK,
                          spaceAfter=3)
    return {
        "title": ParagraphStyle("title", base, fontName=BOLD, fontSize=20, leading=24, spaceAfter=2),
        "subtitle": ParagraphStyle("subtitle", base, fontName=ITALIC, fontSize=11, leading=14, spaceAfter=2),
        "meta": ParagraphStyle("meta", base, fontSize=9.5, leading=12, textColor=colors.HexColor("#555548")),
        "h2": ParagraphStyle("h2", base, fontName=BOLD, fontSize=12.5, leading=15, spaceBefore=7, spaceAfter=3),
        "h3": ParagraphStyle("h3", base, fontName=BOLD, fontSize=10, leading=12.5, spaceBefore=4, spaceAfter=2),
        "body": base,
        "cell": ParagraphStyle("cell", base, fontSize=8.5, leading=10.5, spaceAfter=0),
        "head": ParagraphStyle("head", base, fontName=BOLD, fontSize=8.5, leading=10.5, spaceAfter=0),
        "turn": ParagraphStyle("turn", base, fontName=BOLD, fontSize=9, leading=10, alignment=TA_CENTER, spaceAfter=0),
        "mark": ParagraphStyle("mark", base, fontSize=6.5, leading=7.5, alignment=TA_CENTER, spaceAfter=0),
        "secret": ParagraphStyle("secret", base, fontName=BOLD, fontSize=11, leading=14,
                                 textColor=colors.HexColor("#9b1c1c")),
    }


def p(text, style="body"):
    """A paragraph of plain text (escaped: a designer's '<' or '&' is text, not markup)."""
    return Paragraph(escape(str(text)), styles()[style])


def rich(markup, style="body"):
    return Paragraph(markup, styles()[style])


def pieces(text, size=CHUNK):
    """A text cut where it can be: at blank lines (its paragraphs), then each paragraph into runs of at most
    ``size`` characters ending at a space (or at ``size`` within a word longer than that). Linear in the text."""
    out = []
    for para in BLANK_LINE.split(str(text)):
        para = para.strip()
        runs, start = [], 0
        while len(para) - start > size:
            cut = para.rfind(" ", start + 1, start + size + 1)
            cut = cut if cut > start else start + size
            runs.append(para[start:cut])
            start = cut + (para[cut:cut + 1] == " ")
        runs.append(para[start:])
        if para:
            out.append(runs)
    return out


@lru_cache(maxsize=None)
def _run_style(style):
    """The style of a run that another run of its paragraph follows: no space after it."""
    return ParagraphStyle(f"{style}-run", styles()[style], spaceAfter=0)


def texts(text, style="body", lead=""):
    """A designer's long text as flowables of bounded size: reportlab lays a paragraph out again for each page
    it continues on, so one long Paragraph costs the square of its length; runs of at most CHUNK characters
    (cards.pieces) cost each the same, whatever the text. ``lead`` (markup) starts the first run."""
    out = []
    for runs in pieces(text):
        for k, run in enumerate(runs):
            markup = (lead if not out else "") + escape(run)
            out.append(Paragraph(markup, styles()[style] if k == len(runs) - 1 else _run_style(style)))
    return out


# -- what the card shows ---------------------------------------------------------------------------------------

def sheet_choices(data):
    """(sheet, label) of a scenario document's card: the one card, or for TOCS the public sheet and one secret
    brief per side. Reads only the ruleset and the sides, so a page can list them without parsing the maps."""
    if data.get("ruleset") == "tocs":
        return [("public", "Public sheet")] + [(side["id"], f"{side['name']}: secret brief")
                                               for side in data.get("sides", [])]
    return [("card", "Card")]


def sheets(doc):
    """The sheets of a scenario's card: ["card"], or for TOCS ["public", side id, ...]."""
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
    try:
        return found.get(kind)["name"] if found is not None else kind
    except KeyError:
        return kind


def printed_map(doc):
    """The main map as the card draws it: each overlay labelled with its printed ID, or with nothing where its
    id is Hexside's own (OVERLAY_ID)."""
    mapdoc = doc.maps[doc.main_key]
    if not mapdoc.overlays:
        return mapdoc
    overlays = [dataclasses.replace(overlay, id=overlay_id(overlay.id)) for overlay in mapdoc.overlays]
    return dataclasses.replace(mapdoc, overlays=overlays)


def overlay_id(given):
    """An overlay's printed letter-number ID ("P3", also for the painter's copy "P3-2"), or "" (OVERLAY_ID)."""
    match = OVERLAY_ID.match(str(given))
    return match.group(1) if match else ""


def on_main(ref):
    return ":" not in ref


def scenario_layer(doc, side_ids):
    """What the map shows of the scenario: setup zones, units and entry edges of ``side_ids``, and objectives.
    Sides are keyed by their names, which the map's legend prints."""
    data = doc.data
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
        units, name = doc.units(side), side["name"]
        layer.setup_zones[name] = [h for h in side["setup_zone"] if on_main(h)]
        layer.units.extend({"hex": pl["hex"], "side": name, "label": units[pl["unit"]]["unit"]}
                           for pl in side["placements"] if on_main(pl["hex"]) and pl["unit"] in units)
        edges = sorted({r["edge"] for r in side["reinforcements"] if r.get("edge")})
        if edges:
            layer.entry_edges[name] = edges
        hexes = [h for r in side["reinforcements"] for h in r.get("hexes") or [] if on_main(h)]
        if hexes:
            layer.entry_hexes[name] = hexes
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
    image = render.render_print(cmap, dpi=dpi, hex_mm=hex_mm, crop=crop, scenario=scenario_layer(doc, side_ids))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    w, h = image.width / dpi * 25.4, image.height / dpi * 25.4
    shrink = min(1.0, width_mm / w, height_mm / h)
    return out.getvalue(), w * shrink, h * shrink


def setup_or_entry(doc, side, unit):
    """Where a unit starts: its setup hexes, its entry turns, else its side's setup zone."""
    hexes = [pl["hex"] for pl in side["placements"] if pl["unit"] == unit["id"]]
    arrivals = [turn_label(doc, r["turn"]) + (f", {victory.EDGE_NAMES[r['edge']]} edge" if r.get("edge") else "")
                + (f", {hex_list(r['hexes'], CELL_HEXES)}" if r.get("hexes") else "")
                for r in side["reinforcements"] for g in r["units"] if g["unit"] == unit["id"]]
    if len(arrivals) > CELL_ARRIVALS:
        arrivals = arrivals[:CELL_ARRIVALS] + [f"and {len(arrivals) - CELL_ARRIVALS} more times (see the "
                                               "reinforcements)"]
    parts = []
    if hexes:
        parts.append("sets up in " + hex_list(dict.fromkeys(hexes), CELL_HEXES))
    if arrivals:
        parts.append("enters " + "; ".join(arrivals))
    if not parts:
        parts.append("sets up in the setup zone" if side["setup_zone"] else "off map")
    if unit.get("hidden"):
        parts.append("hidden")
    return "; ".join(parts)


def forces_table(doc, side, frame_w):
    """The side's OOB: one row per line, header repeated when it continues on the next page."""
    game = doc.ruleset
    extra = {"assault": ("Formation", "formation"), "miniatures": ("Platoon", "formation")}.get(game)
    head = ["Unit", "Count", "Quality"] + ([extra[0]] if extra else []) + ["Setup or entry"]
    rows, spans = [[p(h, "head") for h in head]], []
    for unit in side["oob"]:
        weapons = ", ".join(unit.get("weapons") or [])
        more = (f"— {weapons}" if weapons else "") + (f". {unit['notes']}" if unit.get("notes") else "")
        inline = len(more) <= INLINE_NOTES
        name = unit_name(unit) + (" " + more if inline and more else "")
        row = [p(name, "cell"), p(unit["count"], "cell"), p(unit.get("quality") or "—", "cell")]
        if extra:
            row.append(p(unit.get(extra[1]) or "—", "cell"))
        row.append(p(setup_or_entry(doc, side, unit), "cell"))
        rows.append(row)
        if not inline:
            # Long weapons and notes go under the unit across the whole table, so that no row outgrows a page.
            spans.append(len(rows))
            rows.append([p(more.lstrip("—. "), "cell")] + [""] * (len(head) - 1))
    widths = [0.34, 0.08, 0.12] + ([0.18] if extra else []) + [0.46 - (0.18 if extra else 0)]
    table = Table(rows, colWidths=[w * frame_w for w in widths], repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle([
        ("BACKGROUND", (0, 0), (-1, 0), SHADE), ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, RULE), ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ] + [("SPAN", (0, r), (-1, r)) for r in spans]))
    return table


def hex_list(hexes, limit=24):
    hexes = list(hexes)
    if len(hexes) <= limit:
        return ", ".join(hexes)
    return ", ".join(hexes[:limit]) + f" and {len(hexes) - limit} more ({len(hexes)} hexes, shaded on the map)"


def track_box(turns, played):
    """The box of the turn record track that shows turn ``played`` (1 = the first turn played, as reinforcements
    and victory count): on a track counting up from ``first``, first + played - 1; counting down, the first
    turn is the highest box, so a 14-turn OST track (1.3: "place a counter on the 10 square and a counter on the 4
    square for the initial turn") shows turn 3 in box 12."""
    first = turns.get("first")
    first = 1 if first is None else first
    if turns.get("counts") == "down":
        return first + turns["count"] - played
    return first + played - 1


def turn_label(doc, played, capital=False):
    """ "turn 3", and the box that shows it where the track's number differs: "turn 3 (box 12 of the track)"."""
    turns = doc.data["turns"]
    box = track_box(turns, played)
    text = f"{'T' if capital else 't'}urn {played}"
    if not 1 <= played <= turns["count"]:
        return text + " (not on the track)"
    return text + (f" (box {box} of the track)" if box != played else "")


def turn_track(doc, side_ids, frame_w):
    """The turn record track: a box per turn, the boxes of the turns reinforcements arrive shaded and marked
    with who arrives."""
    data = doc.data
    turns = data["turns"]
    first, count = turns.get("first"), turns["count"]
    first = 1 if first is None else first
    numbers = list(range(first, first + count))
    if turns.get("counts") == "down":
        numbers.reverse()
    arriving = {}
    for side in data["sides"]:
        if side["id"] in side_ids:
            for r in side["reinforcements"]:
                arriving.setdefault(track_box(turns, r["turn"]), []).append(side["name"])
    cells, marks = [], []
    for n in numbers:
        cells.append(p(n, "turn"))
        marks.append(p(" + ".join(dict.fromkeys(arriving.get(n, []))) or " ", "mark"))
    rows, shading = [], []
    for start in range(0, len(cells), TURNS_PER_ROW):
        r = len(rows)
        rows += [cells[start:start + TURNS_PER_ROW], marks[start:start + TURNS_PER_ROW]]
        shading += [("BACKGROUND", (c, r), (c, r + 1), SHADE)
                    for c, n in enumerate(numbers[start:start + TURNS_PER_ROW])
                    if n in arriving]
    width = frame_w / TURNS_PER_ROW
    table = Table(rows, colWidths=[width] * min(TURNS_PER_ROW, len(cells)), hAlign="LEFT")
    table.setStyle(TableStyle([("BOX", (0, 0), (-1, -1), 0.8, INK), ("INNERGRID", (0, 0), (-1, -1), 0.4, RULE),
                               ("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("FONTNAME", (0, 0), (-1, -1), FONT)] + shading))
    note = "Shaded boxes bring reinforcements." if arriving else ""
    if turns.get("counts") == "down":
        note = (f"The track counts down: the first turn is box {numbers[0]}, the last box {numbers[-1]}. "
                + note).strip()
    return [table] + ([p(note, "meta")] if note else [])


def game_block(doc, side_ids):
    """Each game's own numbers, as a small table or a few lines."""
    data, game = doc.data, doc.ruleset
    rules = data.get("rules") or {}
    shown = [s for s in data["sides"] if s["id"] in side_ids]
    out = []
    if game == "ost":
        rows = [["Side", "Gut check", "Impulse points", "Casualty points in the OOB"]]
        for side in shown:
            f = side["fields"]
            rows.append([side["name"], f.get("gut_check", "—"), f.get("impulse", "—"),
                         sum(u["count"] * (u.get("casualty_points") or 0) for u in side["oob"])])
        out += [CondPageBreak(TABLE_START), p("Gut check and impulse points", "h3"), small_table(rows)]
        extras = []
        if rules.get("luck_cards") is not None:
            luck = rules["luck_cards"]
            extras.append(f"Each player draws {luck} luck card{'s' if luck != 1 else ''}.")
        if "extended_play" in rules:
            extras.append("Extended play is " + ("in use." if rules["extended_play"] else "not used."))
        out += [p(" ".join(extras))] if extras else []
    elif game == "miniatures":
        rows = [["Side", "Platoons", "Local FOOs", "Elite commanders", "Company commanders", "Deck"]]
        for side in shown:
            d = scenario_checks.deck_cards(side)
            given = side["fields"].get("deck")
            rows.append([side["name"], d["platoons"], d["foos"], d["elite_commanders"], d["company_commanders"],
                         given if given is not None else d["total"]])
        inches = inches_per_hex(doc)
        metres = doc.maps[doc.main_key].grid.hex_metres
        out += [CondPageBreak(TABLE_START), p("Activation deck", "h3"), small_table(rows)]
        if inches is not None:
            out.append(p(f"Scale: one hex is {metres:g} m of ground, {inches:g} inches on the table "
                         f"(1 inch = 25 yards); measure ranges in hexes × {inches:g}."
                         + (" Distances in inches are rounded down." if rules.get("rounding") == "floor" else "")))
    elif game == "assault":
        rows = [["Side", "Formations", "Selection", "Command cards", "TA/OAs", "Smoke", "Points"]]
        for side in shown:
            f = side["fields"]
            formations = ", ".join(f"{n} {deck}" for deck, n in (f.get("formations") or {}).items()) or "—"
            rows.append([side["name"], formations, f.get("selection", "—"), f.get("command_cards", "—"),
                         f.get("ta_oas", "—"), f.get("smoke", "—"),
                         sum(u["count"] * (u.get("points") or 0) for u in side["oob"])])
        groups = []
        for side in shown:
            names = list(dict.fromkeys(u["formation"] for u in side["oob"] if u.get("formation")))
            if names:
                groups.append(f"{side['name']}: {', '.join(names)}.")
        out += [CondPageBreak(TABLE_START), p("Formations and points", "h3"), small_table(rows)]
        out += [p(g) for g in groups]
        extras = [f"Hand limit {rules['hand_limit']} cards." if rules.get("hand_limit") else "",
                  "Early victory is in use." if rules.get("early_victory") else "",
                  "Minefields are in use." if rules.get("minefields") else ""]
        out += [p(" ".join(e for e in extras if e))] if any(extras) else []
    elif game == "ats":
        overlays = rules.get("overlays") or []
        out.append(p("Overlays", "h3"))
        if overlays:
            rows = [["Overlay", "X hex", "Y hex"]] + [[overlay_id(o.get("id")) or "—", o.get("x", "—"),
                                                       o.get("y", "—")] for o in overlays]
            out.append(small_table(rows))
        else:
            out.append(p("The scenario's rules place no overlays."))
        on_map = [i for i in dict.fromkeys(overlay_id(o.id) for o in doc.maps[doc.main_key].overlays) if i]
        if on_map:
            out.append(p(f"Drawn on the map already: overlay{'s' if len(on_map) > 1 else ''} {', '.join(on_map)}."))
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
    elif game == "tocs":
        rows = [["Side", "OP minimum", "OP reserve"]]
        for side in shown:
            rows.append([side["name"], side["fields"].get("op_minimum", "—"), side["fields"].get("op_reserve", "—")])
        lines = [f"Module: {rules['module']}." if rules.get("module") else "",
                 f"Each turn is {rules['turn_hours']} hours." if rules.get("turn_hours") else ""]
        out += [CondPageBreak(TABLE_START), p("Operations points", "h3"), small_table(rows)] if shown else []
        out += [p(" ".join(x for x in lines if x))] if any(lines) else []
    return out


def small_table(rows):
    """A small table, each column as wide as its longest text (up to 40 characters), all of them within the
    narrower paper's frame: a long name wraps in its cell instead of squeezing the others to nothing."""
    rows = [[str(c) if len(str(c)) <= SMALL_CELL else str(c)[:SMALL_CELL] + " …" for c in row] for row in rows]
    register_fonts()

    def width(text, r):
        return pdfmetrics.stringWidth(text, BOLD if r == 0 else FONT, 8.5)

    natural = []
    for c in range(len(rows[0])):
        # The longest text up to 40 characters' worth, and never narrower than its longest word ("German" broke
        # as "Germa n" when characters were counted instead of measured).
        longest = max(width(row[c], r) for r, row in enumerate(rows))
        word = max((width(w, r) for r, row in enumerate(rows) for w in row[c].split()), default=0)
        natural.append(max(min(longest, 40 * CHAR_PT), min(word, TABLE_W / 2), 18) + 14)
    shrink = min(1.0, TABLE_W / sum(natural))
    table = Table([[p(c, "head" if r == 0 else "cell") for c in row] for r, row in enumerate(rows)],
                  colWidths=[w * shrink for w in natural], repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle([("BACKGROUND", (0, 0), (-1, 0), SHADE), ("BOX", (0, 0), (-1, -1), 0.5, RULE),
                               ("INNERGRID", (0, 0), (-1, -1), 0.25, RULE), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("FONTNAME", (0, 0), (-1, -1), FONT)]))
    return table


def side_section(doc, side, frame_w, sentences):
    """A side's forces, setup zone, reinforcements and victory condition."""
    units = doc.units(side)
    heading = escape(side["name"]) + (f" <font size=9>({escape(side['nationality'])})</font>"
                                      if side.get("nationality") and side["nationality"] != side["name"] else "")
    colour = side.get("colour") or "#777777"
    out = [CondPageBreak(60 * mm), rich(f'<font color="{colour}">■</font> {heading}', "h2"),
           forces_table(doc, side, frame_w)]
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


def victory_lines(lines):
    """A victory sentence one item a line (victory.lines), each level indented under its "either:" or "both:",
    a wrapped item hanging under its label: which "or" binds which "and" reads at a glance."""
    return [Paragraph(escape(line["text"]), _victory_style(line["depth"])) for line in lines]


@lru_cache(maxsize=None)
def _victory_style(depth):
    hang = 5 * mm if depth else 0
    return ParagraphStyle(f"victory-{depth}", styles()["body"], leftIndent=depth * 5 * mm + hang,
                          firstLineIndent=-hang, spaceAfter=1.5)


def header(doc, side_ids, frame_w, frame_h, secret_side=None):
    data = doc.data
    out = []
    if secret_side:
        out.append(p(f"SECRET — {secret_side['name']} brief. Show it to no other player.", "secret"))
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
    for key, verb in (("sets_up_first", "sets up first"), ("moves_first", "moves first")):
        if data.get(key) in names:
            lines.append(f"{names[data[key]]} {verb}.")
        elif found is not None and found.play_order(key):
            lines.append(found.play_order(key))
        else:
            lines.append(f"The scenario does not say who {verb}.")
    return lines


def general(doc):
    """Setup order, who moves first, weather and light."""
    data = doc.data
    lines = play_order(doc)
    env = data.get("environment") or {}
    if env.get("weather"):
        lines.append(f"Weather: {env['weather']}.")
    if env.get("night"):
        lines.append("It is night.")
    if env.get("visibility"):
        lines.append(f"Visibility: {env['visibility']} hexes.")
    return [p(" ".join(lines))] if lines else []


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
    rows = [["Marker", "Hex", "Side", "Count"]] + [[marker_name(doc, m["kind"]), m["hex"],
                                                    names.get(m.get("side"), "—"), m.get("count") or 1]
                                                   for m in markers]
    return [CondPageBreak(TABLE_START), p("Markers at start", "h3"), small_table(rows)]


def special_rules(doc):
    rules = doc.data.get("special_rules") or []
    if not rules:
        return []
    out = [p("Special rules", "h2")]
    for n, text in enumerate(rules, 1):
        out += texts(text, lead=f"<b>{n}.</b> ")
    return out


def story(doc, sheet, frame_w, frame_h):
    """The flowables of one sheet."""
    data = doc.data
    sentences = victory.lines_for(doc)
    if doc.ruleset == "tocs" and sheet != "public":
        side = doc.side(sheet)
        out = header(doc, {side["id"]}, frame_w, frame_h, secret_side=side) + [p(" ".join(play_order(doc)))]
        brief = side.get("brief") or {}
        if brief.get("mission"):
            out += [p("Mission", "h3")] + texts(brief["mission"])
        if brief.get("intelligence"):
            out += [p("Intelligence", "h3")] + texts(brief["intelligence"])
        out += game_block(doc, {side["id"]})
        out += side_section(doc, side, frame_w, sentences)
        out += markers_block(doc, {side["id"]})
        return out
    public = sheet == "public"
    side_ids = sheet_sides(doc, sheet)
    out = header(doc, side_ids, frame_w, frame_h)
    out += [p("Turn record track", "h3")] + turn_track(doc, side_ids, frame_w)
    out += general(doc) + objectives_block(doc) + game_block(doc, side_ids)
    if public:
        out.append(p("Each side's forces, setup, reinforcements and victory conditions are on its secret brief.",
                     "meta"))
    for side in data["sides"]:
        if side["id"] in side_ids:
            out += side_section(doc, side, frame_w, sentences)
    out += markers_block(doc, side_ids) + special_rules(doc)
    return out


def card_pdf(doc, paper="a4", sheet=None):
    """One sheet of the card as PDF bytes. ``sheet``: "card" (every game but TOCS), "public" or a side id (TOCS);
    None: the first sheet."""
    if paper not in PAPERS:
        raise CardError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    names = sheets(doc)
    sheet = sheet or names[0]
    if sheet not in names:
        raise CardError(f"this scenario's sheets are {', '.join(names)}; there is no sheet {sheet!r}")
    register_fonts()
    size = PAPERS[paper]
    out = io.BytesIO()
    title = doc.data["title"]
    label = "" if sheet in ("card", "public") else f" · SECRET: {doc.side(sheet)['name']}"
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
    return f"{safe_name(doc.data['title'])}{'' if sheet in ('card', 'public', None) else '-' + sheet}.{ext}"


def sheet_sides(doc, sheet):
    """The sides a sheet may show: every side on a card, none on a TOCS public sheet, one on a brief."""
    if sheet == "card":
        return {s["id"] for s in doc.data["sides"]}
    return set() if sheet == "public" else {sheet}


def scenario_map_png(doc, sheet, dpi, hex_mm):
    """The scenario's map for print as PNG bytes: the play area with what the sheet may show drawn on it."""
    if sheet not in sheets(doc):
        raise CardError(f"this scenario's sheets are {', '.join(sheets(doc))}; there is no sheet {sheet!r}")
    cmap = compile_map(printed_map(doc))
    image = render.render_print(cmap, dpi=dpi, hex_mm=hex_mm, crop=crop_of(doc),
                                scenario=scenario_layer(doc, sheet_sides(doc, sheet)))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1, dpi=(dpi, dpi))
    return out.getvalue()
