"""Marks the scenario layer draws over a map, shared by the PNG (scenario.py) and the vector print (vector.py):
the perimeter's ink, a facing's arrowhead and where a marker sits in its hex."""

import math

PERIMETER_INK = (140, 20, 20)  # the line between the hexes of different owners (the legend's "Perimeter")


def facing_arrow(cx, cy, angle, start, reach):
    """An arrowhead pointing ``angle`` degrees (y down) from a piece at (cx, cy): from ``start`` out to ``reach``
    from its centre, at the hexside or vertex it faces."""
    a = math.radians(angle)
    half = (reach - start) * 0.55
    base = (cx + math.cos(a) * start, cy + math.sin(a) * start)
    tip = (cx + math.cos(a) * reach, cy + math.sin(a) * reach)
    nx, ny = -math.sin(a) * half, math.cos(a) * half
    return [tip, (base[0] + nx, base[1] + ny), (base[0] - nx, base[1] - ny)]


def marker_spot(canvas, centre, marker):
    """Where a marker is drawn: toward the hexside or vertex it faces, else the hex's lower left."""
    cx, cy = centre
    s = canvas.s
    if marker.get("facing") is None:
        return cx - s * 0.45, cy + s * 0.38
    a = math.radians(marker["facing"])
    return cx + math.cos(a) * s * 0.55, cy + math.sin(a) * s * 0.55
