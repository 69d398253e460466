"""Print shapes in millimetres (y downward) and their PDF writer: the scene the vector map print lays out
(vector.py) and the counter drawing (counters.py) both draw with, kept below both so neither imports the other's
callers. No Django."""

from dataclasses import dataclass, field
from functools import lru_cache

from engine.render.styles import FONT_DIR, font

PT_PER_MM = 72 / 25.4


@dataclass
class Scene:
    """A map laid out for print: its size and shapes in millimetres (y downward), and the pattern definitions
    its shapes place: {key: (pieces around (0, 0), clip polygon)}."""

    width: float
    height: float
    shapes: list = field(default_factory=list)
    patterns: dict = field(default_factory=dict)
    title: str = ""

    def poly(self, points, fill=None, stroke=None, width=0.0, closed=True):
        self.shapes.append(("poly", [tuple(map(float, p)) for p in points], fill, stroke, float(width), closed))

    def line(self, points, stroke, width, round_cap=False):
        self.shapes.append(("line", [tuple(map(float, p)) for p in points], stroke, float(width), round_cap))

    def ellipse(self, box, fill=None, stroke=None, width=0.0):
        self.shapes.append(("ellipse", tuple(map(float, box)), fill, stroke, float(width)))

    def text(self, x, y, text, size, fill, anchor="mm", bold=False, halo=0.0, rotate=0):
        """Text at (x, y) by its anchor (PIL's: "mm" centre, "mt" middle top, "lm" left middle), ``rotate``
        degrees clockwise about that point, with a white ``halo`` round it."""
        self.shapes.append(("text", float(x), float(y), str(text), float(size), fill, anchor, bold, float(halo),
                            rotate))

    def use(self, key, x, y):
        self.shapes.append(("use", key, float(x), float(y)))


def text_width(text, size, bold=False):
    """A text's width at ``size`` (any unit), measured with the DejaVu font the print and the PNG use."""
    return font(100, bold).getlength(text) * size / 100


@lru_cache(maxsize=1)
def pdf_fonts():
    """(regular, bold) font names: DejaVu Sans embedded when the system has it (as the PNG draws), else
    Helvetica."""
    from reportlab.pdfbase import pdfmetrics  # noqa: PLC0415 - reportlab, only when a PDF is written
    from reportlab.pdfbase.ttfonts import TTFont  # noqa: PLC0415 - reportlab, only when a PDF is written

    try:
        pdfmetrics.registerFont(TTFont("DejaVuSans", str(FONT_DIR / "DejaVuSans.ttf")))
        pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", str(FONT_DIR / "DejaVuSans-Bold.ttf")))
        return "DejaVuSans", "DejaVuSans-Bold"
    except Exception:  # noqa: BLE001 - a missing or unreadable font file: the standard font instead
        return "Helvetica", "Helvetica-Bold"


def _pdf_path(path, points, closed):
    path.moveTo(*points[0])
    for x, y in points[1:]:
        path.lineTo(x, y)
    if closed:
        path.close()


def _rgb(colour):
    return tuple(c / 255 for c in colour[:3])


def _pdf_paint(page, fill, stroke, width):
    if fill is not None:
        page.setFillColorRGB(*_rgb(fill), alpha=(fill[3] / 255 if len(fill) > 3 else 1))
    if stroke is not None and width > 0:
        page.setStrokeColorRGB(*_rgb(stroke), alpha=(stroke[3] / 255 if len(stroke) > 3 else 1))
        page.setLineWidth(width)
    return int(fill is not None), int(stroke is not None and width > 0)


def _pdf_shape(page, shape, regular, bold):
    kind = shape[0]
    if kind == "poly":
        _, points, fill, stroke, width, closed = shape
        fills, strokes = _pdf_paint(page, fill, stroke, width)
        if fills or strokes:
            path = page.beginPath()
            _pdf_path(path, points, closed)
            page.drawPath(path, fill=fills, stroke=strokes)
    elif kind == "line":
        _, points, stroke, width, round_cap = shape
        _pdf_paint(page, None, stroke, width)
        page.setLineCap(1 if round_cap else 0)
        path = page.beginPath()
        _pdf_path(path, points, False)
        page.drawPath(path, fill=0, stroke=1)
        page.setLineCap(0)
    elif kind == "ellipse":
        _, (x0, y0, x1, y1), fill, stroke, width = shape
        fills, strokes = _pdf_paint(page, fill, stroke, width)
        page.ellipse(x0, y0, x1, y1, fill=fills, stroke=strokes)
    elif kind == "text":
        _, x, y, text, size, fill, anchor, is_bold, halo, rotate = shape
        name = bold if is_bold else regular
        width = page.stringWidth(text, name, size)
        dx = {"m": -width / 2, "l": 0, "r": -width}[anchor[0]]
        dy = {"m": 0.36 * size, "t": 0.76 * size}[anchor[1]]  # the baseline under a centre or a top edge
        page.saveState()
        page.translate(x, y)
        if rotate:
            page.rotate(rotate)  # clockwise on the page, its y running down
        page.translate(dx, dy)
        page.scale(1, -1)
        text_object = page.beginText(0, 0)
        text_object.setFont(name, size)
        if halo:  # the outline in its own graphics state: the text render mode is part of it
            page.saveState()
            page.setStrokeColorRGB(1, 1, 1)
            page.setLineWidth(2 * halo)
            page.setLineJoin(1)
            text_object.setTextRenderMode(1)
            text_object.textOut(text)
            page.drawText(text_object)
            page.restoreState()
            text_object = page.beginText(0, 0)
            text_object.setFont(name, size)
        page.setFillColorRGB(*_rgb(fill))
        text_object.textOut(text)
        page.drawText(text_object)
        page.restoreState()
    elif kind == "use":
        _, key, x, y = shape
        page.saveState()
        page.translate(x, y)
        page.doForm(key)
        page.restoreState()
    elif kind == "grid":
        _, hexes, stroke, width = shape
        page.setStrokeColorRGB(*_rgb(stroke), alpha=0.78)
        page.setLineWidth(width)
        page.setLineJoin(1)
        path = page.beginPath()
        for corners in hexes:
            _pdf_path(path, corners, True)
        page.drawPath(path, fill=0, stroke=1)
        page.setLineJoin(0)
