"""The Hexside map format, version 1 (docs/map-format.md): read, check and write. No Django.

Its checks give the **format errors** (docs/validation.md): what makes a file not a map at all.

``parse(data)`` takes the JSON text or the decoded object and gives a :class:`MapDoc`, or raises
:class:`MapFormatError` listing every problem found, each with its JSON path, its hex and what was expected.
``dumps(doc)`` writes it back deterministically, so an unchanged map exports byte for byte the same.

The layers, each a module: document (the map as read, its keys and limits, findings), reading (parse: every
problem found), writing (dumps: deterministic). Callers use this package: ``from engine import mapfile``.
"""

from engine.mapfile.document import (  # noqa: F401
    ART_TOLERANCE,
    BACKGROUND_IMAGE,
    BACKGROUND_KEYS,
    FORMAT,
    GRID_KEYS,
    HEX_KEYS,
    HEXSIDE_KEYS,
    MAX_STOREYS,
    OVERLAY_HEX_KEYS,
    OVERLAY_KEYS,
    OVERLAY_NAME_LENGTH,
    OVERLAY_NAMES,
    PRINTED_OVERLAY_ID,
    TERRAIN_ID,
    TOP_KEYS,
    VERSION,
    Cell,
    Finding,
    FormatError,
    MapDoc,
    MapFormatError,
    Overlay,
    _fmt_point,
    _is_int,
    _is_number,
    _is_point,
    _kind,
    _overlay_place,
    overlay_cells,
    overlay_hexsides,
    overlay_names,
    overlay_title,
    rotate_axial,
)
from engine.mapfile.reading import (  # noqa: F401
    MAX_FINDINGS,
    MAX_TEXT,
    Findings,
    Reader,
    _default_open,
    _Reader,
    decode,
    parse,
    shorten,
)
from engine.mapfile.writing import (  # noqa: F401
    _ENCODER,
    _compact,
    content_hash,
    dumps,
    hex_entry,
    hexside_entry,
    hexside_order,
    line,
    to_dict,
    write,
)
