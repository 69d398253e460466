"""MegaMek ``.board`` files into the map format.

Read: ``size W H``; one ``hex XXYY ELEVATION "TERRAINS" "THEME"`` line per hex, row by row (the order is what
counts, as in MegaMek: the XXYY field is ignored, and it is ambiguous past 99); each terrain item
``type:level[:exits]``. Hexes are flat-topped in columns; 0-based odd columns (the sheet's 02xx, 04xx..) sit half a
hex lower, so the stagger is ``odd`` and MegaMek's hex XXYY is the map's hex XXYY.

The mapping is asked for ``type:level`` (``woods:2``, ``building:3``, ``water:1``; patterns such as ``woods:*``);
the hex's ELEVATION is its level (scaled by the mapping's ``levels``); ``bldg_elev`` gives a building's storeys;
water depth (the ``water`` level: the hex's elevation is the water's surface) is kept in
``extensions.megamek.water_depth`` by hex. Roads and pavement map to the ruleset's road terrain; their exits
(hexside masks) are not read, continuity comes from the hexes. Not read: themes, ``tag``/``option`` lines
(kept in extensions), bridges' elevation, fluff images.
"""

import re

from engine.hexgrid import MAX_SIZE
from engine.importers.common import MapBuilder, decode_text

MAX_LINES = 2 * (MAX_SIZE * MAX_SIZE + 10_000)  # a hex line each, tags and comments, twice over (\r\n)

# Numbers of at most 9 digits: a longer one is no board's (and Python refuses to read 4,300 digits as one).
SIZE = re.compile(r"^size\s+(\d{1,9})\s+(\d{1,9})\s*$")
HEX = re.compile(r'^hex\s+(\S+)\s+(-?\d{1,9})\s+"([^"]*)"(?:\s+"([^"]*)")?(?:\s+"([^"]*)")?\s*$')
ITEM = re.compile(r"^([a-z_]+):(-?\d{1,9})(?::(-?\d{1,9}))?$")
KEPT = ("tag", "option", "description", "background", "roadsautoexit")


def convert(data, context):
    text = decode_text(data, context)
    if text.count("\n") + text.count("\r") > MAX_LINES:
        context.refuse("$", f"the file has more than {MAX_LINES:,} lines; a MegaMek board of the largest size "
                            f"Hexside reads ({MAX_SIZE} x {MAX_SIZE}) has a line a hex", code="map-too-large")
    size, hexes, notes = None, [], {}
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    last = max((i for i, line in enumerate(lines, start=1) if line.strip()), default=0)
    for number, line in enumerate(lines, start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word = line.split(None, 1)[0].lower()
        if word == "size":
            m = SIZE.match(line)
            if not m:
                context.refuse(f"line {number}", f"expected 'size WIDTH HEIGHT', got {line!r}", code="bad-line")
            size = (int(m.group(1)), int(m.group(2)))
            if not (1 <= size[0] <= MAX_SIZE and 1 <= size[1] <= MAX_SIZE):
                # Refused on the declared size, before any hex line is kept.
                context.refuse(f"line {number}", f"the board is {size[0]} x {size[1]} hexes; Hexside maps are 1 to "
                                                 f"{MAX_SIZE} hexes each way", code="map-too-large")
        elif word == "hex":
            m = HEX.match(line)
            if not m:
                context.refuse(f"line {number}", f"expected 'hex XXYY ELEVATION \"TERRAINS\" \"THEME\"', got "
                                                 f"{line[:80]!r}" + ("; the file ends here: is it truncated?"
                                                                     if number == last else ""), code="bad-line")
            if len(hexes) >= (size[0] * size[1] if size else MAX_SIZE * MAX_SIZE):
                context.refuse(f"line {number}", "the board has more hex lines than its size "
                                                 f"({f'{size[0]} x {size[1]}' if size else 'none given yet'}) holds",
                               code="bad-board")
            hexes.append((number, int(m.group(2)), m.group(3)))
        elif word == "end":
            break
        elif word in KEPT:
            notes.setdefault(word, []).append(line.split(None, 1)[1].strip().strip('"') if " " in line else "")
        else:
            context.warn(f"line {number}", f"unknown line {line[:60]!r} skipped", code="unknown-line")
    if size is None:
        context.refuse("$", "the board has no 'size WIDTH HEIGHT' line; is it a MegaMek board?", code="bad-board")
    width, height = size
    if len(hexes) != width * height:
        context.refuse("$", f"the board says size {width} x {height} ({width * height} hexes) but has {len(hexes)} hex "
                            "lines; is it truncated?", code="bad-board")
    builder = MapBuilder(context, {"orientation": "flat", "columns": width, "rows": height, "stagger": "odd",
                                   "labels": "xxyy"})
    depths, elevations = {}, []
    for i, (number, elevation, terrains) in enumerate(hexes):
        col, row = i % width, i // width
        codes, storeys = [], None
        for item in filter(None, (t.strip() for t in terrains.split(";"))):
            m = ITEM.match(item)
            if not m:
                context.refuse(f"line {number}", f"{item!r} is not a terrain item 'type:level[:exits]'",
                               code="bad-line")
            kind, level = m.group(1), int(m.group(2))
            if kind == "bldg_elev":
                storeys = level
                continue
            if kind == "water":
                depths[builder.label(col, row)] = level
            codes.append(f"{kind}:{level}")
        elevations.append(elevation)
        builder.place(col, row, codes, elevation=elevation, storeys=storeys)
    builder.extensions["megamek"] = {"elevations": [min(elevations), max(elevations)],
                                     "water_depth": depths, **{k: v for k, v in sorted(notes.items())}}
    return builder.build()
