"""How the card lays text out (reportlab's Platypus): its papers, fonts and styles, paragraphs, a long text
cut into runs of bounded size, small tables and the victory sentences."""

import re
from functools import cache, lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Paragraph, Table, TableStyle

FONT_DIR = Path(__file__).resolve().parents[1] / "fonts"
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


@lru_cache(maxsize=1)
def register_fonts():
    """Register the bundled DejaVu Sans faces once per process (reportlab embeds a subset in each PDF)."""
    # The map's image goes into the file as binary, not ASCII85 text: a quarter smaller, and encoding it was a
    # third of a large map's card's time (reportlab's pure-Python encoder; bench/bench_kit.py).
    rl_config.useA85 = 0
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


@cache
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


def victory_lines(lines):
    """A victory sentence one item a line (victory.lines), each level indented under its "either:" or "both:",
    a wrapped item hanging under its label: which "or" binds which "and" reads at a glance."""
    return [Paragraph(escape(line["text"]), _victory_style(line["depth"])) for line in lines]


@cache
def _victory_style(depth):
    hang = 5 * mm if depth else 0
    return ParagraphStyle(f"victory-{depth}", styles()["body"], leftIndent=depth * 5 * mm + hang,
                          firstLineIndent=-hang, spaceAfter=1.5)
