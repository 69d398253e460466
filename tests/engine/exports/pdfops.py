"""Reading a PDF's drawing back in its own coordinates (pypdf's content streams): the paths each page paints, with
the current transformation matrix applied, in millimetres from the page's lower left corner. The print-and-play
tests measure hexes, counters and marks with it rather than trusting the code that drew them."""

import io

import pypdf

MM = 25.4 / 72


def reader(pdf):
    """A strict pypdf reader; the warnings it logs fail the caller's test through ``caplog``."""
    return pypdf.PdfReader(io.BytesIO(pdf), strict=True)


def _multiply(a, b):
    """The matrix product a x b of PDF matrices [a b c d e f]."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4]) * MM, (m[1] * x + m[3] * y + m[5]) * MM


def painted(page):
    """[(operator, [subpath, ...], dashed)] of every path the page paints: each subpath a list of (x, y) mm in
    page space (curves by their end points), the painting operator (b"S", b"f*", b"B*", ...)."""
    ctm, stack, dash = [1, 0, 0, 1, 0, 0], [], False
    subpaths, current, out = [], None, []
    for operands, op in page.get_contents().operations:
        if op == b"q":
            stack.append((ctm, dash))
        elif op == b"Q":
            ctm, dash = stack.pop()
        elif op == b"cm":
            ctm = _multiply([float(v) for v in operands], ctm)
        elif op == b"d":
            dash = bool(operands[0])
        elif op == b"m":
            current = [_apply(ctm, float(operands[0]), float(operands[1]))]
            subpaths.append(current)
        elif op in (b"l", b"c") and current is not None:
            current.append(_apply(ctm, float(operands[-2]), float(operands[-1])))
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            subpaths.append([_apply(ctm, x, y), _apply(ctm, x + w, y), _apply(ctm, x + w, y + h),
                             _apply(ctm, x, y + h)])
            current = None
        elif op in (b"S", b"s", b"f", b"f*", b"F", b"B", b"B*", b"b", b"b*", b"n"):
            if op != b"n" and subpaths:
                out.append((op, subpaths, dash))
            subpaths, current = [], None
    return out


def hexes(page):
    """The hex outlines of the page's grid (the stroked path of many six-corner subpaths)."""
    found = []
    for op, subpaths, _ in painted(page):
        if op == b"S" and len(subpaths) > 1 and all(len(s) == 6 for s in subpaths):
            found += subpaths
    return found
