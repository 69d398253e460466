"""Counter sheets of a scenario for print (docs/print-and-play.md): every counter a sheet's reader may hold, at
the size the designer picks, fronts on one page and backs on the next, mirrored for duplex printing.

- what: each OOB line's counters (count of them) with its values, quality and side colour, the back its reduced
  face where the unit has steps (TOCS) and its front again otherwise; a dummy's front is its FOW side, its back
  says it is a dummy; each marker at start (count of them); each objective;
- how: the one counter drawing (engine/render/counters.py, NATO symbols by the library where a unit type names a
  code), a bleed of the counter's colour round each, cut lines along every counter edge that run into the
  margins, a calibration page first (a 100 mm rule each way, a square of the counter size, a duplex cross);
- duplex: a back sits where its front is, mirrored about the page's vertical middle (long-edge flip), moved by
  the printer's x/y offset the calibration page measures.

``sheet_pdf`` answers (pdf bytes, placements): each placement says which counter went where on which page, so a
test reads the file's rectangles back against it.
"""

import io
from dataclasses import dataclass

from engine import rulesets
from engine.render import counters, vector
from engine.scenarios import unittypes

PT = 72 / 25.4
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
SIZES = {"1/2in": 12.7, "5/8in": 15.875, "3/4in": 19.05, "1in": 25.4}
SIZE_RANGE = (8.0, 40.0)
MARGIN_MM = 12.0
MARKER_COLOUR = "#d9d4c0"
OBJECTIVE_COLOUR = "#f2c94c"


class SheetError(ValueError):
    """A counter sheet that cannot be made as asked (a size, paper or offset out of range)."""


@dataclass(frozen=True)
class Counter:
    """One counter to print: what it is (``what``: "unit", "dummy", "marker", "objective"), whose line, and its
    two faces."""

    what: str
    ref: str
    front: counters.Face
    back: counters.Face


@dataclass(frozen=True)
class Placed:
    counter: Counter
    page: int  # the front's page (0-based, after the calibration page); its back is on page + 1
    front: tuple  # (x, y) mm of the counter's top left from the page's top left
    back: tuple


def counter_size(size):
    """A size in mm from a name ("5/8in") or a number of mm; SheetError out of range."""
    if isinstance(size, str) and size in SIZES:
        return SIZES[size]
    try:
        value = float(size)
    except (TypeError, ValueError):
        raise SheetError(f"counter size must be one of {', '.join(SIZES)} or millimetres, got {size!r}") from None
    if not SIZE_RANGE[0] <= value <= SIZE_RANGE[1]:
        raise SheetError(f"counter size must be from {SIZE_RANGE[0]:g} to {SIZE_RANGE[1]:g} mm, got {value:g}")
    return value


def symbol_of(doc, unit):
    """The NATO symbol code the unit's type names in its game's catalogue (TOCS), or None."""
    return (unittypes.of(doc, unit) or {}).get("symbol")


def scenario_counters(doc, side_ids, common=True):
    """Every counter of the sides ``side_ids`` (their whole OOB as ``doc`` holds it: a view for a side's
    reader), their markers, and with ``common`` the markers of no side and the objectives, in OOB order."""
    data, out = doc.data, []
    for side in data["sides"]:
        if side["id"] not in side_ids:
            continue
        colour = side.get("colour") or "#777777"
        for unit in side["oob"]:
            out += [_unit_counter(doc, side, unit, colour)] * (unit.get("count") or 1)
    found = _catalogue(doc)
    for marker in data.get("markers") or []:
        if (marker["side"] not in side_ids) if marker.get("side") else not common:
            continue
        name = found.marker_name(marker["kind"]) if found is not None else marker["kind"]
        face = counters.face({"unit": name, "name": marker["hex"]}, MARKER_COLOUR)
        out += [Counter("marker", marker["kind"], face, face)] * (marker.get("count") or 1)
    for objective in (data.get("objectives") or []) if common else []:
        vp = objective.get("vp")
        face = counters.face({"unit": "Objective", "name": objective.get("name") or objective["hex"],
                              "vp": vp if isinstance(vp, int) else None}, OBJECTIVE_COLOUR)
        out.append(Counter("objective", objective["id"], face, face))
    return out


def _catalogue(doc):
    try:
        return rulesets.get(doc.ruleset)
    except KeyError:
        return None


def _unit_counter(doc, side, unit, colour):
    if unit.get("dummy"):
        # ATS 3.5.2: a dummy is the FOW side of a counter of its type; its back says it is a dummy
        front = counters.face({"unit": "FOW", "name": unit.get("unit") or ""}, colour)
        back = counters.face({"unit": "Dummy", "name": "remove when revealed"}, colour)
        return Counter("dummy", unit["id"], front, back)
    symbol = symbol_of(doc, unit)
    front = counters.face(unit, colour, symbol=symbol)
    back = counters.face(unit, colour, symbol=symbol, reduced=True) if counters.has_steps(unit) else front
    return Counter("unit", unit["id"], front, back)


def layout(items, size, paper, bleed, offset):
    """Placed counters: a grid of ``size`` + 2 x ``bleed`` pitch within the margins, page after page; each back
    mirrored about the page's middle and moved by ``offset`` (x, y) mm."""
    page_w, page_h = PAPERS[paper]
    pitch = size + 2 * bleed
    cols = int((page_w - 2 * MARGIN_MM) // pitch)
    rows = int((page_h - 2 * MARGIN_MM - 6) // pitch)
    if cols < 1 or rows < 1:
        raise SheetError(f"a {size:g} mm counter does not fit the page")
    left = (page_w - cols * pitch) / 2 + bleed
    out = []
    for k, item in enumerate(items):
        page, cell = divmod(k, cols * rows)
        row, col = divmod(cell, cols)
        x, y = left + col * pitch, MARGIN_MM + 6 + bleed + row * pitch
        out.append(Placed(item, page * 2, (x, y), (page_w - x - size + offset[0], y + offset[1])))
    return out, cols, rows


def sheet_pdf(doc, side_ids, size="5/8in", paper="a4", bleed=1.0, offset=(0.0, 0.0), title="Counters",
              common=True):
    """The counter sheets: (pdf bytes, [Placed]) (pages: calibration front and back, then fronts and backs)."""
    from reportlab.pdfgen.canvas import Canvas as PdfCanvas  # noqa: PLC0415 - reportlab, only when a PDF is written

    if paper not in PAPERS:
        raise SheetError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    size = counter_size(size)
    if not 0 <= bleed <= 3:
        raise SheetError(f"bleed must be from 0 to 3 mm, got {bleed:g}")
    if not all(-10 <= v <= 10 for v in offset):
        raise SheetError("the printer's x and y offsets must each be from -10 to 10 mm")
    items = scenario_counters(doc, side_ids, common)
    placed, cols, rows = layout(items, size, paper, bleed, offset)
    page_w, page_h = PAPERS[paper]
    regular, bold = vector.pdf_fonts()
    out = io.BytesIO()
    pdf = PdfCanvas(out, pagesize=(page_w * PT, page_h * PT), pageCompression=1)
    pdf.setTitle(title)
    pdf.setCreator("Hexside")
    _calibration(pdf, page_w, page_h, size, offset, regular, bold)
    pages = max((p.page for p in placed), default=-2) // 2 + 1
    scenes = {}
    for number in range(pages):
        here = [p for p in placed if p.page == number * 2]
        for back in (False, True):
            pdf.setFont(bold, 9)
            pdf.drawString(MARGIN_MM * PT, (page_h - MARGIN_MM) * PT,
                           f"{title} · {'backs (print on the back of the page before)' if back else 'fronts'} · "
                           f"sheet {number + 1} of {pages} · counters {size:g} mm")
            for p in here:
                face = p.counter.back if back else p.counter.front
                x, y = p.back if back else p.front
                _bleed(pdf, face, x, y, size, bleed, page_h)
                key = (id(face), size)
                if key not in scenes:
                    scenes[key] = counters.scene(face, size)
                counters.draw_pdf(pdf, scenes[key], x, y, page_h)
            _cut_lines(pdf, here, size, page_w, page_h, back)
            pdf.showPage()
    pdf.save()
    return out.getvalue(), placed


def _bleed(pdf, face, x, y, size, bleed, page_h):
    """The counter's colour beyond its edge, so that a cut a little off leaves no white."""
    if bleed <= 0:
        return
    pdf.setFillColorRGB(*(c / 255 for c in face.colour[:3]))
    pdf.rect((x - bleed) * PT, (page_h - y - size - bleed) * PT, (size + 2 * bleed) * PT, (size + 2 * bleed) * PT,
             stroke=0, fill=1)


def _cut_lines(pdf, here, size, page_w, page_h, back):
    """Hairlines along every counter edge, running out into the margins: cut along them."""
    if not here:
        return
    spots = [p.back if back else p.front for p in here]
    xs = sorted({round(x, 3) for x, _ in spots} | {round(x + size, 3) for x, _ in spots})
    ys = sorted({round(y, 3) for _, y in spots} | {round(y + size, 3) for _, y in spots})
    pdf.saveState()
    pdf.setStrokeColorRGB(0.35, 0.35, 0.35)
    pdf.setLineWidth(0.25)
    top, bottom = min(ys) - 6, max(ys) + 6
    left, right = min(xs) - 6, max(xs) + 6
    for x in xs:
        pdf.line(x * PT, (page_h - top) * PT, x * PT, (page_h - bottom) * PT)
    for y in ys:
        pdf.line(left * PT, (page_h - y) * PT, right * PT, (page_h - y) * PT)
    pdf.restoreState()


def _calibration(pdf, page_w, page_h, size, offset, regular, bold):
    """Page one: rules of 100 mm each way, a square of the counter size, a cross to line up with its back's;
    page two, its back: the cross mirrored and moved by the offset, as every counter's back is."""
    cross = (page_w * 0.3, page_h * 0.6)
    for back in (False, True):
        pdf.setFont(bold, 12)
        pdf.drawString(MARGIN_MM * PT, (page_h - MARGIN_MM - 4) * PT,
                       "Calibration (back)" if back else "Calibration: print at 100 %, no fit to page")
        pdf.setFont(regular, 8.5)
        lines = ([f"This side's cross should fall on the front's; printer offset now x {offset[0]:g} mm, "
                  f"y {offset[1]:g} mm."] if back else
                 ["Each rule must measure 100 mm and the square the counter size exactly.",
                  "Print this page two-sided (flip on the long edge) and hold it to the light: the back's cross",
                  "should fall on this one. If it lands x mm right and y mm down, set the printer offset to -x, -y."])
        for k, text in enumerate(lines):
            pdf.drawString(MARGIN_MM * PT, (page_h - MARGIN_MM - 12 - k * 4.5) * PT, text)
        if not back:
            y0 = MARGIN_MM + 40
            pdf.setLineWidth(0.3)
            pdf.line(MARGIN_MM * PT, (page_h - y0) * PT, (MARGIN_MM + 100) * PT, (page_h - y0) * PT)
            pdf.line(MARGIN_MM * PT, (page_h - y0 - 5) * PT, MARGIN_MM * PT, (page_h - y0 - 105) * PT)
            for mm_ in range(0, 101, 10):
                pdf.line((MARGIN_MM + mm_) * PT, (page_h - y0) * PT, (MARGIN_MM + mm_) * PT, (page_h - y0 + 3) * PT)
                pdf.line((MARGIN_MM - 3) * PT, (page_h - y0 - 5 - mm_) * PT, MARGIN_MM * PT,
                         (page_h - y0 - 5 - mm_) * PT)
            pdf.rect((MARGIN_MM + 20) * PT, (page_h - y0 - 20 - size) * PT, size * PT, size * PT, stroke=1, fill=0)
            pdf.drawString((MARGIN_MM + 22 + size) * PT, (page_h - y0 - 20 - size / 2) * PT, f"{size:g} mm")
        x, y = cross if not back else (page_w - cross[0] + offset[0], cross[1] + offset[1])
        pdf.setLineWidth(0.4)
        pdf.circle(x * PT, (page_h - y) * PT, 6 * PT, stroke=1, fill=0)
        pdf.line((x - 9) * PT, (page_h - y) * PT, (x + 9) * PT, (page_h - y) * PT)
        pdf.line(x * PT, (page_h - y - 9) * PT, x * PT, (page_h - y + 9) * PT)
        pdf.showPage()
