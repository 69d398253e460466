"""NATO unit symbols (MIL-STD-2525 / APP-6) for counters, drawn by milsymbol (a port of milsymbol.js): the
library lays the symbol out as SVG from its symbol code (SIDC); this module only reads that SVG's shapes into the
print scene's (shapes.Scene: polygons, lines, ellipses, in millimetres), so the same symbol goes to the PDF
sheets and the module's PNG pieces. A game names a unit type's code in its catalogue (``symbol``, TOCS)."""

import math
import re
import xml.etree.ElementTree as ET
from functools import lru_cache

from engine.render.styles import rgb

TOKEN = re.compile(r"[MmLlHhVvCcQqZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4, "Z": 0}
CURVE_STEPS = 8
SIDC = re.compile(r"^\d{20}$")


class SymbolError(ValueError):
    """A symbol code the library cannot draw, or SVG this reader does not know."""


def is_code(code):
    """Whether ``code`` is a 20-digit symbol code (2525D / APP-6D), the form a catalogue names."""
    return isinstance(code, str) and bool(SIDC.match(code))


@lru_cache(maxsize=256)
def svg(code):
    """The library's SVG of a symbol code."""
    if not is_code(code):
        raise SymbolError(f"{code!r} is not a 20-digit NATO symbol code")
    import milsymbol  # noqa: PLC0415 - only a counter with a symbol needs the library (its data: 2 MB)

    text = milsymbol.Symbol(code, size=100).as_svg()
    if 'fill="red">?' in text:  # the library's mark for a code it does not know
        raise SymbolError(f"the symbol library does not know the code {code}")
    return text


@lru_cache(maxsize=256)
def outline(code):
    """(viewbox (x, y, w, h), [shape in the SVG's units]) of a symbol: ("poly", points, fill, stroke, width,
    closed), ("line", points, stroke, width, False), ("ellipse", box, fill, stroke, width)."""
    root = ET.fromstring(svg(code))
    box = tuple(float(v) for v in root.get("viewBox").split())
    shapes = []
    _walk(root, {"fill": "black", "stroke": None, "stroke-width": "1"}, (1.0, 0.0, 0.0), shapes)
    return box, tuple(shapes)


def _walk(node, style, transform, shapes):
    style = {**style, **{k: node.get(k) for k in ("fill", "stroke", "stroke-width") if node.get(k) is not None}}
    transform = _transform(node.get("transform"), transform)
    tag = node.tag.rsplit("}", 1)[-1]
    fill = None if style["fill"] in (None, "none") else rgb_of(style["fill"])
    stroke = None if style["stroke"] in (None, "none") else rgb_of(style["stroke"])
    width = float(style["stroke-width"]) * transform[0]
    if tag == "path":
        for points, closed in _subpaths(node.get("d") or ""):
            points = [_apply(transform, p) for p in points]
            if closed or (fill is not None and len(points) > 2):
                shapes.append(("poly", points, fill, stroke, width, closed))
            elif stroke is not None:
                shapes.append(("line", points, stroke, width, False))
    elif tag == "circle":
        (cx, cy), r = _apply(transform, (float(node.get("cx")), float(node.get("cy")))), float(node.get("r"))
        r *= transform[0]
        shapes.append(("ellipse", (cx - r, cy - r, cx + r, cy + r), fill, stroke, width))
    elif tag == "text":
        if (node.text or "").strip():
            x, y = _apply(transform, (float(node.get("x") or 0), float(node.get("y") or 0)))
            size = float(node.get("font-size") or 30) * transform[0]
            if node.get("dominant-baseline") != "middle":
                y -= size * 0.35  # from its baseline to its middle, where the scene anchors text
            anchor = {"start": "lm", "end": "rm"}.get(node.get("text-anchor"), "mm")
            shapes.append(("text", x, y, node.text.strip(), size, fill or (0, 0, 0), anchor,
                           node.get("font-weight") == "bold", 0.0, 0))
    elif tag not in ("svg", "g"):
        raise SymbolError(f"the symbol's SVG has a <{tag}> this reader does not draw")
    for child in node:
        _walk(child, style, transform, shapes)


def rgb_of(value):
    match = re.match(r"rgb\((\d+),\s*(\d+),\s*(\d+)\)", value)
    if match:
        return tuple(int(v) for v in match.groups())
    return rgb(value, (0, 0, 0)) if value.startswith("#") else {"black": (0, 0, 0), "white": (255, 255, 255)}.get(
        value, (0, 0, 0))


def _transform(text, outer):
    """(scale, dx, dy) of a translate/scale transform composed with the outer one."""
    if not text:
        return outer
    scale, dx, dy = 1.0, 0.0, 0.0
    for name, args in re.findall(r"(\w+)\(([^)]*)\)", text):
        values = [float(v) for v in re.split(r"[\s,]+", args.strip()) if v]
        if name == "translate":
            dx, dy = dx + values[0] * scale, dy + (values[1] if len(values) > 1 else 0) * scale
        elif name == "scale":
            scale *= values[0]
        else:
            raise SymbolError(f"the symbol's SVG has a {name} transform this reader does not apply")
    s, ox, oy = outer
    return s * scale, ox + dx * s, oy + dy * s


def _apply(transform, point):
    s, dx, dy = transform
    return point[0] * s + dx, point[1] * s + dy


def _subpaths(d):
    """[(points, closed)] of a path's data: lines as they are, curves flattened."""
    tokens = TOKEN.findall(d)
    out, points, x, y, start, command, k = [], None, 0.0, 0.0, (0.0, 0.0), None, 0
    while k < len(tokens):
        if tokens[k].isalpha():
            command = tokens[k]
            k += 1
            if command in "Zz":
                if points:
                    out.append((points, True))
                points, (x, y) = None, start
                continue
        if command is None:
            raise SymbolError("the symbol's path data starts without a command")
        upper, relative = command.upper(), command.islower()
        n = ARITY[upper]
        args = [float(v) for v in tokens[k:k + n]]
        k += n
        if upper == "M":
            if points:
                out.append((points, False))
            x, y = (x + args[0], y + args[1]) if relative else (args[0], args[1])
            start, points = (x, y), [(x, y)]
            command = "l" if relative else "L"  # further pairs are lines
            continue
        if points is None:
            points = [(x, y)]
        if upper == "L":
            x, y = (x + args[0], y + args[1]) if relative else (args[0], args[1])
            points.append((x, y))
        elif upper == "H":
            x = x + args[0] if relative else args[0]
            points.append((x, y))
        elif upper == "V":
            y = y + args[0] if relative else args[0]
            points.append((x, y))
        else:
            base = (x, y) if relative else (0.0, 0.0)
            ctrl = [(base[0] + args[i], base[1] + args[i + 1]) for i in range(0, n, 2)]
            points += _curve([(x, y)] + ctrl)
            x, y = ctrl[-1]
    if points and len(points) > 1:
        out.append((points, False))
    return out


def _curve(control):
    """A Bezier curve (quadratic or cubic) through its control points as CURVE_STEPS points after the first."""
    n = len(control) - 1
    out = []
    for step in range(1, CURVE_STEPS + 1):
        t = step / CURVE_STEPS
        x = y = 0.0
        for i, (px, py) in enumerate(control):
            weight = math.comb(n, i) * (1 - t) ** (n - i) * t ** i
            x, y = x + weight * px, y + weight * py
        out.append((x, y))
    return out


def place(code, x, y, w, h):
    """The symbol's shapes scaled to fit the box (x, y, w, h) in millimetres, centred: shapes.Scene shapes."""
    (bx, by, bw, bh), shapes = outline(code)
    scale = min(w / bw, h / bh)
    ox, oy = x + (w - bw * scale) / 2 - bx * scale, y + (h - bh * scale) / 2 - by * scale

    def at(point):
        return ox + point[0] * scale, oy + point[1] * scale

    out = []
    for shape in shapes:
        if shape[0] == "poly":
            _, points, fill, stroke, width, closed = shape
            out.append(("poly", [at(p) for p in points], fill, stroke, width * scale, closed))
        elif shape[0] == "line":
            _, points, stroke, width, cap = shape
            out.append(("line", [at(p) for p in points], stroke, width * scale, cap))
        elif shape[0] == "text":
            _, tx, ty, text, size, fill, anchor, bold, halo, rotate = shape
            out.append(("text", *at((tx, ty)), text, size * scale, fill, anchor, bold, halo, rotate))
        else:
            _, (x0, y0, x1, y1), fill, stroke, width = shape
            out.append(("ellipse", (*at((x0, y0)), *at((x1, y1))), fill, stroke, width * scale))
    return out
