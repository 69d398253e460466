"""Hexside's LOS inside a VASSAL module: the table of answers its LOS thread reads, and the extension that reads it.

The module's map window gets a ``hexside.vassal.HexsideLosThread`` (vassal/src, built into
engine/exports/vassal_ext/hexside-los.jar by ``make vassal-extension``), a LOS_Thread that, drawn from hex to hex,
shows Hexside's answer with its reasons, read from ``hexside-los.bin`` in the module (docs/exports.md,
"Hexside's LOS in the module").

The table holds every ordered pair of places a unit may stand: each hex at each of its standing levels (its ground
level, the level a unit there stands at, and each storey of its building). Answers (result, hindrances, blind hex,
the game's term) come from the batch path for every pair up to MAX_ANSWERS places squared; the reasons (each hex
and hexside that changed the answer, with its rule, and the assumptions made) come from the reference evaluator,
so they are in the table up to MAX_REASON_ANSWERS pairs. Past a bound the table says which, and the thread says so.

Layout (big-endian, deflated with zlib; strings are a u32 byte count and UTF-8):
    b"HXLOS" u8 version | u8 status (0 reasons, 1 answers only, 2 none) | str message | str game
    u32 hexes, str label each | per hex: u8 levels, u8 default, i16 level each
    u32 answers, (u8 result, u16 hindrances, u8 blind, str term) each | u8 width, answer index of each
        pair p <= q (p * places - p * (p - 1) / 2 + q - p; the batch answers alike both ways)
    status 0: u32 texts, str each | u32 reasons, 6 x i32 (hex, hexside, terrain, effect, rule, where) each
              u32 sets, (u16 n, n x u32 reason, u16 m, m x u32 text) each | u8 width, places**2 set indices
Place p is (hex, level) in hex order; the reasons of pair (p, q) are entry p * places + q.
"""

import struct
import xml.etree.ElementTree as ET
import zipfile
import zlib
from pathlib import Path

import numpy as np

from engine.los.answer import RESULTS
from engine.los.engine import compile_map, rules_for
from engine.los.trace import trace
from engine.mapfile.writing import content_hash

TABLE_FILE = "hexside-los.bin"
THREAD_CLASS = "hexside.vassal.HexsideLosThread"
EXTENSION_JAR = Path(__file__).resolve().parent / "vassal_ext" / "hexside-los.jar"
VERSION = 1
# Ordered pairs of places the table answers: a 60 x 40 map with 600 upper storeys (2,400 hexes, some with two or
# three levels) fits; its 4.5 million one-byte answers (each pair once) deflate to under 2 MB.
MAX_ANSWERS = 3_000 ** 2
# Pairs whose reasons are in the table: the reference evaluator takes about 0.3 ms a pair, so this is about half a
# minute of an export job; every sample map fits (352 hexes at most).
MAX_REASON_ANSWERS = 400 ** 2
CHUNK = 1 << 19  # pairs per batch call
# LOS_Thread's own attributes (VASSAL 3.7.26 LOS_Thread.setAttribute): both ends snap to a hex's centre, the
# range is drawn as VASSAL measures it, and the chat line is the extension's (its own report is left empty).
THREAD_ATTRIBUTES = {"threadName": "Hexside LOS", "hotkey": "", "iconName": "", "label": "LOS",
                     "tooltip": "Hexside's line of sight, with its reasons", "snapStart": "true", "snapEnd": "true",
                     "report": "", "persistence": "Ctrl-Click & Drag", "global": "Always", "losThickness": "2",
                     "threadColor": "255,0,0", "drawRange": "true", "hideCounters": "false", "hideOpacity": "0",
                     "scale": "0", "round": "Up"}


def standing_levels(cmap, rules):
    """Per hex, the levels a unit may stand at (sorted) and the index of the one ``manage.py los`` takes."""
    step = cmap.catalogue.level_step if cmap.catalogue is not None else 1
    out = []
    for i in range(cmap.n):
        ground, unit = int(cmap.level[i]), rules.unit_level(i)
        levels = sorted({ground, unit, *(ground + k * step for k in range(int(cmap.storeys[i])))})
        out.append((levels, levels.index(unit)))
    return out


def places(levels):
    """(hex index, level) of every place, in hex order."""
    return [(i, level) for i, (ls, _) in enumerate(levels) for level in ls]


def answer_codes(rules, hexes, lvls):
    """The batch answers of every pair of places p <= q (the batch's answers are the same both ways, as the
    whole-map analysis has them): (answer index per pair, row by row, [(result, hindrances, blind)])."""
    n = len(hexes)
    hexes, lvls = np.asarray(hexes, np.int32), np.asarray(lvls, np.int32)
    codes = np.empty(n * (n + 1) // 2, np.int64)
    done, start = 0, 0
    while start < n:
        stop, size = start, 0
        while stop < n and (stop == start or size + (n - stop) <= CHUNK):
            size += n - stop
            stop += 1
        a = np.concatenate([np.full(n - p, p) for p in range(start, stop)])
        b = np.concatenate([np.arange(p, n) for p in range(start, stop)])
        result, hindrances, blind = rules.answer_pairs(hexes[a], hexes[b], lvls[a], lvls[b])
        codes[done:done + size] = ((hindrances.astype(np.int64) << 3) | (blind.astype(np.int64) << 2)
                                   | result.astype(np.int64))
        done, start = done + size, stop
    present = np.zeros(int(codes.max()) + 1 if len(codes) else 1, bool)
    present[codes] = True  # the codes are small: a lookup, not a sort
    distinct = np.flatnonzero(present)
    remap = np.cumsum(present) - 1
    index = remap[codes]
    answers = [(int(c) & 3, int(c) >> 3, bool((int(c) >> 2) & 1)) for c in distinct]
    return index, answers


def where(cmap, reason):
    """Where a reason lies, in words: "F4", or "between F5 and F6" for a hexside."""
    if not reason.hexside:
        return reason.hex or ""
    label, _, side = reason.hexside.partition("/")
    grid = cmap.grid
    try:
        col, row = grid.parse_label(label)
        other = grid.neighbour(col, row, side)
    except (ValueError, KeyError):
        return reason.hexside
    return f"between {label} and {grid.label(*other)}" if other else f"on the map's edge of {label}"


class Texts:
    """Strings, reasons and reason sets, each stored once and named by its index."""

    def __init__(self):
        self.texts, self.reasons, self.sets = {}, {}, {}

    def text(self, value):
        return -1 if value is None else self.texts.setdefault(value, len(self.texts))

    def reason(self, cmap, r):
        key = (r.hex, r.hexside, r.terrain, r.effect, r.rule)
        if key not in self.reasons:
            self.reasons[key] = (len(self.reasons), tuple(self.text(v) for v in (*key, where(cmap, r))))
        return self.reasons[key][0]

    def sets_of(self, cmap, answer):
        """The reason sets of a line and of its reverse: the same reasons in the reverse order, the same
        assumptions (every game's reference does: tests/engine/exports/test_vassal_los.py checks 10,000 lines a
        sample map, half of them read backwards; the assumptions may be listed in another order)."""
        reasons = tuple(self.reason(cmap, r) for r in answer.reasons)
        assumptions = tuple(self.text(a) for a in answer.assumptions)
        return (self.sets.setdefault((reasons, assumptions), len(self.sets)),
                self.sets.setdefault((reasons[::-1], assumptions), len(self.sets)))


def reason_sets(cmap, rules, place_list):
    """The reference's reasons of every ordered pair of places (each line evaluated once, its reverse read off
    it): (set index per pair, Texts)."""
    grid, texts = cmap.grid, Texts()
    hexes = [grid.from_index(i) for i in range(cmap.n)]
    n = len(place_list)
    out = np.empty((n, n), np.int64)
    for p, (a, la) in enumerate(place_list):
        for q in range(p, n):
            b, lb = place_list[q]
            out[p, q], out[q, p] = texts.sets_of(cmap, rules.evaluate(trace(grid, hexes[a], hexes[b]), la, lb))
    return out.reshape(-1), texts


def s(value):
    data = value.encode("utf-8")
    return struct.pack(">I", len(data)) + data


def indices(values, count):
    """An index array at the narrowest width that holds ``count`` values: a width byte, then the indices."""
    width = 1 if count <= 1 << 8 else 2 if count <= 1 << 16 else 4
    return bytes([width]) + np.asarray(values).astype(f">u{width}").tobytes()


def game_name(cmap):
    catalogue = cmap.catalogue
    return getattr(catalogue, "name", None) or cmap.ruleset


def table_bytes(map_doc):
    """The deflated table of a map (see the module's docstring)."""
    cmap = compile_map(map_doc)
    rules = rules_for(cmap)
    levels = standing_levels(cmap, rules)
    place_list = places(levels)
    pairs = len(place_list) ** 2
    status = 0 if pairs <= MAX_REASON_ANSWERS else 1 if pairs <= MAX_ANSWERS else 2
    message = ("" if status == 0 else
               f"this map has {len(place_list)} places a unit may stand (hexes and levels): its LOS reasons are "
               f"in the module up to {int(MAX_REASON_ANSWERS ** 0.5)} places" if status == 1 else
               f"this map has {len(place_list)} places a unit may stand (hexes and levels): Hexside's LOS is in "
               f"the module up to {int(MAX_ANSWERS ** 0.5)} places; ask Hexside, the thread measures range only")
    out = [b"HXLOS", bytes([VERSION, status]), s(message), s(game_name(cmap)), struct.pack(">I", cmap.n)]
    out += [s(cmap.label(i)) for i in range(cmap.n)]
    if status < 2:
        for ls, default in levels:
            out.append(struct.pack(f">BB{len(ls)}h", len(ls), default, *ls))
        index, answers = answer_codes(rules, [p[0] for p in place_list], [p[1] for p in place_list])
        out.append(struct.pack(">I", len(answers)))
        for result, hindrances, blind in answers:
            out.append(struct.pack(">BHB", result, min(hindrances, 65535), blind)
                       + s(rules.describe(RESULTS[result], hindrances, blind)))
        out.append(indices(index, len(answers)))
    if status == 0:
        sets, texts = reason_sets(cmap, rules, place_list)
        out.append(struct.pack(">I", len(texts.texts)))
        out += [s(t) for t in texts.texts]
        out.append(struct.pack(">I", len(texts.reasons)))
        out += [struct.pack(">6i", *fields) for _, fields in texts.reasons.values()]
        out.append(struct.pack(">I", len(texts.sets)))
        for reasons, assumptions in texts.sets:
            out.append(struct.pack(f">H{len(reasons)}IH{len(assumptions)}I", len(reasons), *reasons,
                                   len(assumptions), *assumptions))
        out.append(indices(sets, len(texts.sets)))
    return zlib.compress(b"".join(out), 6)


_TABLES: dict[str, bytes] = {}  # content hash -> table, the last few maps exported in this process
_KEEP = 8


def cached_table(map_doc):
    """table_bytes, kept per map content in this process: a map's module and its scenarios' share one table."""
    key = content_hash(map_doc)
    if key not in _TABLES:
        while len(_TABLES) >= _KEEP:
            _TABLES.pop(next(iter(_TABLES)))
        _TABLES[key] = table_bytes(map_doc)
    return _TABLES[key]


def extension_files():
    """The compiled extension's classes, as module files (VASSAL's DataArchive loads classes from the module)."""
    with zipfile.ZipFile(EXTENSION_JAR) as jar:
        return {name: jar.read(name) for name in sorted(jar.namelist()) if name.endswith(".class")}


def add_part(built):
    """The LOS thread as one of every module's extra parts (engine/exports/vassal.py, EXTRA_PARTS)."""
    add_los(built.window, built.files, built.map_doc)


def add_los(window, files, map_doc):
    """Hexside's LOS thread in a map window: the extension's classes and the map's table as files, and the
    thread's element (snapping to hex centres at both ends, drawing the range as VASSAL measures it)."""
    files.update(extension_files())
    files[TABLE_FILE] = cached_table(map_doc)
    return ET.SubElement(window, THREAD_CLASS, THREAD_ATTRIBUTES)
