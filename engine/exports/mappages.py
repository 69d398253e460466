"""The map at true scale on ordinary pages (docs/print-and-play.md): A4 or Letter, portrait or landscape, whichever
takes fewer pages; hexes ``hex_mm`` across the flats in the PDF's own units (a page printed at 100 % holds hexes
of the size asked); an overlap strip on each edge that joins another page, crop marks at each page's corners and
alignment marks across each joining edge, and each page labelled with its place in a small page index.

The map is the print map's vector scene (engine/render/vector.py: the same hexes, terrain, labels and, for a
scenario, its zones and counters), drawn once per page translated to the page's window and clipped to it; only
the shapes that reach the window are written, so a page costs what it shows.
"""

import io
import math
from dataclasses import dataclass

from engine.render import vector

PT = 72 / 25.4  # PDF points per millimetre
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 10.0  # each edge of the page: most printers print no nearer the edge; the marks and label go here
OVERLAP_MM = 10.0  # the strip a joining page repeats, to glue one page under the next
MARK_MM = 5.0  # crop marks' length
INK = (0.15, 0.15, 0.15)


class PagesError(ValueError):
    """The map cannot be laid out on pages as asked (an unknown paper)."""


@dataclass(frozen=True)
class Layout:
    """The pages a map takes: paper (w, h) in mm as printed, its columns and rows, and each page's window
    (the part of the map it prints) size and step between windows."""

    paper: str
    page_w: float
    page_h: float
    cols: int
    rows: int
    window_w: float
    window_h: float

    @property
    def pages(self):
        return self.cols * self.rows

    @property
    def landscape(self):
        return self.page_w > self.page_h

    def origin(self, col, row):
        """The map point (mm) at the top left of page (col, row)'s window."""
        return col * (self.window_w - OVERLAP_MM), row * (self.window_h - OVERLAP_MM)


def tiles(length, window):
    """How many windows of ``window`` mm, each overlapping the next by OVERLAP_MM, cover ``length`` mm."""
    if length <= window:
        return 1
    return math.ceil((length - OVERLAP_MM) / (window - OVERLAP_MM))


def layout(width, height, paper="a4"):
    """The fewest pages of ``paper`` (portrait or landscape) that hold a map ``width`` x ``height`` mm."""
    if paper not in PAPERS:
        raise PagesError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    short, long = PAPERS[paper]
    best = None
    for page_w, page_h in ((short, long), (long, short)):
        window_w, window_h = page_w - 2 * MARGIN_MM, page_h - 2 * MARGIN_MM
        found = Layout(paper, page_w, page_h, tiles(width, window_w), tiles(height, window_h), window_w, window_h)
        if best is None or found.pages < best.pages:
            best = found
    return best


def page_name(col, row):
    """A page's place: its column's letter and row's number ("B2"), as a map's hexes are named."""
    letters = ""
    n = col
    while True:
        letters = chr(ord("A") + n % 26) + letters
        n = n // 26 - 1
        if n < 0:
            return f"{letters}{row + 1}"


def map_area(scene):
    """(x0, y0, x1, y1) of the map's hexes in the scene (the grid's corners), without the print margin."""
    xs, ys = [], []
    for shape in scene.shapes:
        if shape[0] == "grid":
            for corners in shape[1]:
                xs += [x for x, _ in corners]
                ys += [y for _, y in corners]
    if not xs:
        return 0.0, 0.0, scene.width, scene.height
    return min(xs), min(ys), max(xs), max(ys)


def pages_pdf(cmap, hex_mm, paper="a4", scenario=None, title="map"):
    """The map as a PDF of pages at true scale: (pdf bytes, Layout)."""
    scene = vector.scene(cmap, hex_mm, labels=True, legend=False, scale_bar=False,
                         crop=None if scenario is None else scenario.get("crop"),
                         scenario=None if scenario is None else scenario["layer"])
    return write_pages(scene, hex_mm, paper, title)


def write_pages(scene, hex_mm, paper, title):
    """A scene laid out on pages (pages_pdf); the map's own margin is cut off, the overlap strips added."""
    from reportlab.pdfgen.canvas import Canvas as PdfCanvas  # noqa: PLC0415 - reportlab, only when a PDF is written

    x0, y0, x1, y1 = map_area(scene)
    plan = layout(x1 - x0, y1 - y0, paper)
    regular, bold = vector.pdf_fonts()
    out = io.BytesIO()
    pdf = PdfCanvas(out, pagesize=(plan.page_w * PT, plan.page_h * PT), pageCompression=1)
    pdf.setTitle(f"{title}: map at {hex_mm:g} mm hexes")
    pdf.setCreator("Hexside")
    forms = _forms(pdf, scene, regular, bold)
    boxes = [_box(shape, scene) for shape in scene.shapes]
    for row in range(plan.rows):
        for col in range(plan.cols):
            ox, oy = plan.origin(col, row)
            window = (x0 + ox, y0 + oy, x0 + ox + plan.window_w, y0 + oy + plan.window_h)
            _page(pdf, plan, scene, boxes, window, forms, (col, row), regular, bold)
            _marks(pdf, plan, col, row)
            _label(pdf, plan, col, row, title, hex_mm, regular, bold)
            pdf.showPage()
    pdf.save()
    return out.getvalue(), plan


def _forms(pdf, scene, regular, bold):
    """The scene's patterns as form XObjects, defined once for every page."""
    for key, (pieces, clip) in scene.patterns.items():
        reach = max(max(abs(x), abs(y)) for x, y in clip) * 1.1
        pdf.beginForm(key, lowerx=-reach, lowery=-reach, upperx=reach, uppery=reach)
        path = pdf.beginPath()
        vector._pdf_path(path, clip, True)
        pdf.clipPath(path, stroke=0, fill=0)
        for kind, geometry, width, colour in pieces:
            if kind == "line":
                vector._pdf_shape(pdf, ("line", geometry, colour, width, False), regular, bold)
            elif kind == "ellipse":
                vector._pdf_shape(pdf, ("ellipse", geometry, colour, None, 0.0), regular, bold)
            else:
                vector._pdf_shape(pdf, ("poly", geometry, colour, None, 0.0, True), regular, bold)
        pdf.endForm()
    return set(scene.patterns)


def _box(shape, scene):
    """A shape's bounding box in the scene (mm), generous for text and patterns."""
    kind = shape[0]
    if kind in ("poly", "line"):
        xs, ys = [x for x, _ in shape[1]], [y for _, y in shape[1]]
        pad = shape[4] if kind == "poly" else shape[3]
        return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
    if kind == "ellipse":
        return shape[1]
    if kind == "text":
        _, x, y, text, size = shape[:5]
        reach = size * (len(text) + 1)
        return x - reach, y - reach, x + reach, y + reach
    if kind == "use":
        return shape[2] - 40, shape[3] - 40, shape[2] + 40, shape[3] + 40
    return 0.0, 0.0, scene.width, scene.height


def _meets(box, window):
    return box[0] <= window[2] and box[2] >= window[0] and box[1] <= window[3] and box[3] >= window[1]


def _page(pdf, plan, scene, boxes, window, forms, place, regular, bold):
    """The map's window on one page: mm, y downward, clipped to the window; the grid cut to the hexes there."""
    pdf.saveState()
    pdf.translate(MARGIN_MM * PT, (plan.page_h - MARGIN_MM) * PT)
    pdf.scale(PT, -PT)
    clip = pdf.beginPath()
    clip.rect(0, 0, plan.window_w, plan.window_h)
    pdf.clipPath(clip, stroke=0, fill=0)
    pdf.translate(-window[0], -window[1])
    for shape, box in zip(scene.shapes, boxes, strict=True):
        if shape[0] == "grid":
            hexes = [c for c in shape[1] if _meets(_box(("poly", c, None, None, 0.0, True), scene), window)]
            if hexes:
                vector._pdf_shape(pdf, ("grid", hexes, shape[2], shape[3]), regular, bold)
        elif _meets(box, window):
            vector._pdf_shape(pdf, shape, regular, bold)
    pdf.restoreState()
    col, row = place
    pdf.saveState()
    pdf.setStrokeColorRGB(0.55, 0.1, 0.1)
    pdf.setLineWidth(0.5)
    pdf.setDash(3, 2)
    left, top = MARGIN_MM, plan.page_h - MARGIN_MM
    right, bottom = MARGIN_MM + plan.window_w, plan.page_h - MARGIN_MM - plan.window_h
    # The overlap strip on each joining edge: the part the next page repeats, its inner edge dashed.
    if col + 1 < plan.cols:
        pdf.line((right - OVERLAP_MM) * PT, bottom * PT, (right - OVERLAP_MM) * PT, top * PT)
    if row + 1 < plan.rows:
        pdf.line(left * PT, (bottom + OVERLAP_MM) * PT, right * PT, (bottom + OVERLAP_MM) * PT)
    pdf.restoreState()


def joining_edges(plan, col, row):
    """The edges of page (col, row) that join another page: "left", "right", "top", "bottom"."""
    return [edge for edge, joins in (("left", col > 0), ("right", col + 1 < plan.cols), ("top", row > 0),
                                     ("bottom", row + 1 < plan.rows)) if joins]


def _marks(pdf, plan, col, row):
    """Crop marks at the window's four corners, outside it; an alignment mark (a circled cross) in the middle of
    the overlap strip of each joining edge, the same spot of the map on both pages."""
    left, top = MARGIN_MM, plan.page_h - MARGIN_MM
    right, bottom = left + plan.window_w, top - plan.window_h
    pdf.saveState()
    pdf.setStrokeColorRGB(*INK)
    pdf.setLineWidth(0.3)
    for x, y, dx, dy in ((left, top, -1, 1), (right, top, 1, 1), (left, bottom, -1, -1), (right, bottom, 1, -1)):
        pdf.line(x * PT, (y + dy * 1) * PT, x * PT, (y + dy * (1 + MARK_MM)) * PT)
        pdf.line((x + dx * 1) * PT, y * PT, (x + dx * (1 + MARK_MM)) * PT, y * PT)
    half = OVERLAP_MM / 2
    spots = {"left": (left + half, (top + bottom) / 2), "right": (right - half, (top + bottom) / 2),
             "top": ((left + right) / 2, top - half), "bottom": ((left + right) / 2, bottom + half)}
    for edge in joining_edges(plan, col, row):
        x, y = spots[edge]
        pdf.circle(x * PT, y * PT, 2.5 * PT, stroke=1, fill=0)
        pdf.line((x - 3.5) * PT, y * PT, (x + 3.5) * PT, y * PT)
        pdf.line(x * PT, (y - 3.5) * PT, x * PT, (y + 3.5) * PT)
    pdf.restoreState()


def _label(pdf, plan, col, row, title, hex_mm, regular, bold):
    """The page's place in the bottom margin: "Page B2 of 3 x 2 (5 of 6)", a small index with it shaded."""
    pdf.saveState()
    pdf.setFillColorRGB(*INK)
    pdf.setFont(bold, 8)
    number = row * plan.cols + col + 1
    y = MARGIN_MM * 0.35 * PT
    pdf.drawString(MARGIN_MM * PT, y, f"Page {page_name(col, row)} ({number} of {plan.pages})")
    pdf.setFont(regular, 7)
    pdf.drawString((MARGIN_MM + 34) * PT, y, f"{title} · hexes {hex_mm:g} mm across the flats: print at 100 % "
                                             f"(no fit to page)")
    cell = min(2.2, 6.5 / max(plan.rows, 1))
    x0 = (plan.page_w - MARGIN_MM) - plan.cols * cell
    y0 = MARGIN_MM * 0.15
    pdf.setLineWidth(0.2)
    for r in range(plan.rows):
        for c in range(plan.cols):
            pdf.setFillColorRGB(*(INK if (c, r) == (col, row) else (1, 1, 1)))
            pdf.rect((x0 + c * cell) * PT, (y0 + (plan.rows - 1 - r) * cell) * PT, cell * PT, cell * PT,
                     stroke=1, fill=1)
    pdf.restoreState()
