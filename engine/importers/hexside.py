"""Hexside's own map format: read as it is; the map format's reader reports its problems."""

from engine.importers.common import parse_json


def convert(data, context):
    doc = parse_json(data, context)
    if isinstance(doc, dict) and "format" not in doc and "grid" not in doc and "hexes" not in doc:
        keys = ", ".join(sorted(map(str, doc))[:8]) or "nothing"
        context.refuse("$", f"JSON that is neither a Hexside map nor a Tiled map (its keys: {keys})",
                       code="not-a-map")
    return doc
