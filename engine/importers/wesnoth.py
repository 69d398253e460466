"""Battle for Wesnoth ``.map`` files into the map format.

Both formats are read: the 1.8-era one (a ``border_size=`` / ``usage=`` header, a blank line, then padded cells)
and the current one (no header, cells ``Gg^Fp, Hh, ..``). One line is one row, one field one column; the file
includes a border of ``border_size`` hexes (1 in current files), which is dropped: the map is the playable area.
Wesnoth's hexes are flat-topped in columns, and its 0-based playable columns 1, 3, 5.. sit half a hex lower, so
the map's stagger is ``odd`` and Wesnoth's hex (x, y) (1-based, as its editor shows) is column x, row y here.

A code is ``Base^Overlay``; the mapping is asked for the whole code first (an exact key), then for the base and
the overlay (``^Fp``) each. The overlay is what the hex is, as Wesnoth means it (snowy pine forest ``Aa^Fpa`` is
forest; a forest on hills ``Hh^Fp`` is forest on a hill): a mapped overlay gives the hex its terrain and the base
only its level; an overlay that maps to nothing (``^Do``) leaves the base's terrain, and one that maps to a road
(a bridge, ``Ww^Bsb``) keeps it: the bridge crosses the water. Wesnoth has no numeric
elevation: the mapping gives hills and mountains their levels. A field ``N Code`` is player N's starting
position: kept in ``extensions.wesnoth.starts`` (by hex label, or by file position for a start on the border). Not
read: the border's terrain, ``.mask`` files (refused: a mask overlays another map), scenario WML.
"""

import re

from engine.hexgrid import MAX_SIZE
from engine.importers.common import MapBuilder, decode_text

HEADER = re.compile(r"^\s*([a-z_]+)\s*=\s*(.*?)\s*$")
START = re.compile(r"^(\S+)\s+(\S+)$")
MAX_LINES = 20_000  # the largest map's rows and border, a header and blank lines, twice over (\r\n)
CODE = re.compile(r"^[A-Za-z0-9_^/\\|+'-]+$")


def convert(data, context):
    text = decode_text(data, context)
    if text.count("\n") + text.count("\r") > MAX_LINES:
        context.refuse("$", f"the file has more than {MAX_LINES:,} lines; a Wesnoth map of the largest size Hexside "
                            "reads has a few hundred", code="map-too-large")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    header, body_start = _header(lines)
    if header.get("usage") == "mask":
        context.refuse("$", "a Wesnoth mask (usage=mask): it overlays another map and is not a map itself",
                       code="not-a-map")
    border = _border(header, context)
    rows = _rows(lines, body_start, border, context)
    width = len(rows[0][1])
    columns, height = width - 2 * border, len(rows) - 2 * border
    if columns < 1 or height < 1:
        context.refuse("$", f"the map is {width} x {len(rows)} hexes with a border of {border}: nothing is left "
                            "to play on", code="empty-map")
    builder = MapBuilder(context, {"orientation": "flat", "columns": columns, "rows": height,
                                   "stagger": "odd", "labels": "xxyy"})
    builder.overlay_decides = True
    starts = _place(builder, rows, border, context)
    builder.extensions["wesnoth"] = {"format": "1.8" if header else "current", "border_size": border,
                                     "starts": dict(sorted(starts.items()))}
    return builder.build()


def _header(lines):
    """The ``key=value`` lines of a 1.8 map's header, and the index of the first map line."""
    header, body_start = {}, 0
    for i, line in enumerate(lines):
        m = HEADER.match(line) if len(line) < 1000 else None  # a header line is short; a long one is a row
        if m and "," not in line:
            header[m.group(1)] = m.group(2)
            body_start = i + 1
        elif not line.strip() and header:
            body_start = i + 1
        else:
            break
    return header, body_start


def _border(header, context):
    try:
        border = int(header.get("border_size", "1"))
    except ValueError:
        context.refuse("$", f"border_size should be a whole number, got {header['border_size']!r}", code="bad-value")
    if not 0 <= border <= 10:
        context.refuse("$", f"border_size {border} is not 0 to 10", code="bad-value")
    return border


def _rows(lines, body_start, border, context):
    """The map's rows as (line number, fields), refused past the largest map or when ragged."""
    rows = []
    for number, line in enumerate(lines[body_start:], start=body_start + 1):
        if not line.strip():
            continue
        # Counted before a line is split or kept: the largest map and its border, each way.
        for count, way in ((line.count(",") + 1, "wide"), (len(rows) + 1, "tall")):
            if count > MAX_SIZE + 2 * border:
                context.refuse(f"line {number}", f"the map is more than {MAX_SIZE} hexes {way} (with its border of "
                                                 f"{border}); Hexside maps are 1 to {MAX_SIZE} hexes each way",
                               code="map-too-large")
        rows.append((number, [f.strip() for f in line.split(",")]))
    if not rows:
        context.refuse("$", "the file has no map lines (expected rows of codes such as Gg, Hh^Fp, Wwf)",
                       code="empty-map")
    width = len(rows[0][1])
    for number, fields in rows:
        if len(fields) != width:
            context.refuse(f"line {number}", f"this row has {len(fields)} hexes but the first has {width}; is the "
                                             "file truncated?", code="ragged-map")
    return rows


def _place(builder, rows, border, context):
    """Each field's codes placed on its hex (the border left out); the players' starting hexes, by player."""
    columns, height = builder.grid.columns, builder.grid.rows
    starts = {}
    for y, (number, fields) in enumerate(rows):
        for x, field in enumerate(fields):
            m = START.match(field)
            code = field
            if m:
                player, code = m.group(1), m.group(2)
            if not code:
                context.refuse(f"line {number}", f"column {x + 1} is empty; is the file truncated?",
                               code="ragged-map")
            if not CODE.match(code):
                context.refuse(f"line {number}", f"column {x + 1}: {field!r} is not a Wesnoth terrain code",
                               code="bad-code")
            col, row = x - border, y - border
            inside = 0 <= col < columns and 0 <= row < height
            if m:
                starts[player] = builder.label(col, row) if inside else f"file {x},{y} (border)"
            if inside:
                builder.place(col, row, codes(code, builder.mapping))
    return starts


def codes(code, mapping):
    """The codes asked of the mapping for one field: the whole code when it is mapped, else base and overlay."""
    if "^" not in code or code in mapping.exact:
        return [code]
    base, overlay = code.split("^", 1)
    return [c for c in (base, "^" + overlay) if c and c != "^"]
