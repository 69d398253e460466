"""A viewshed packed for the wire and the job's store: one small entry per distinct answer and two arrays of
one number per hex, deflated and base64-encoded.

As JSON with one object per hex, a 500 x 500 map's viewshed is about 40 MB; packed it is a few hundred KB (never
more than about 1.4 MB: two bytes of answer and two of level per hex before deflate). The page decodes it with
the browser's DecompressionStream (static/js/canvas/results.js, unpackViewshed); unpack() here gives back the
per-hex answers, as Viewshed.as_dict() has them.

    {"from": "C4", "level": 0, "encoding": "packed-1", "columns": 10, "rows": 8, "count": 80,
     "answers": [{"result": "clear", "hindrances": 0, "blind": false, "term": "Clear"}, ...],
     "hexes": "<base64 of zlib: count little-endian uint16 answer indexes, then count int16 to_levels>"}

Hex i of the arrays is column i // rows, row i % rows (Grid.index).
"""

import base64
import zlib

import numpy as np

from engine.los.answer import RESULTS

ENCODING = "packed-1"


def pack(shed):
    """A Viewshed (engine.los.engine) as the packed dict: answers worded once each, the hexes as two arrays."""
    keys = np.stack([shed.result.astype(np.int64), shed.hindrances.astype(np.int64),
                     shed.blind.astype(np.int64)], axis=1)
    distinct, index = np.unique(keys, axis=0, return_inverse=True)
    answers = [{"result": RESULTS[result], "hindrances": hindrances, "blind": bool(blind),
                "term": shed.rules.describe(RESULTS[result], hindrances, bool(blind))}
               for result, hindrances, blind in distinct.tolist()]
    raw = (np.asarray(index, dtype="<u2").reshape(-1).tobytes()
           + np.asarray(shed.to_levels, dtype="<i2").tobytes())
    grid = shed.cmap.grid
    return {"from": shed.from_label, "level": shed.level, "encoding": ENCODING, "columns": grid.columns,
            "rows": grid.rows, "count": int(shed.cmap.n), "answers": answers,
            "hexes": base64.b64encode(zlib.compress(raw, 6)).decode("ascii")}


def unpack(packed, label):
    """The packed dict back as {"from", "level", "hexes": {label: answer}}, as Viewshed.as_dict() gives it;
    ``label(i)`` names hex i (CompiledMap.label)."""
    if packed.get("encoding") != ENCODING:
        raise ValueError(f"not a packed viewshed: encoding {packed.get('encoding')!r}, expected {ENCODING!r}")
    n = packed["count"]
    raw = zlib.decompress(base64.b64decode(packed["hexes"]))
    if len(raw) != 4 * n:
        raise ValueError(f"a packed viewshed of {n} hexes holds {len(raw)} bytes, expected {4 * n}")
    index = np.frombuffer(raw, dtype="<u2", count=n).tolist()
    levels = np.frombuffer(raw, dtype="<i2", count=n, offset=2 * n).tolist()
    answers = packed["answers"]
    hexes = {}
    for i in range(n):
        name = label(i)
        hexes[name] = {"from": packed["from"], "to": name, "from_level": packed["level"], "to_level": levels[i],
                       **answers[index[i]]}
    return {"from": packed["from"], "level": packed["level"], "hexes": hexes}
