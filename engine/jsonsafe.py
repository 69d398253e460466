"""JSON that every part of Hexside can hold, store and send back. No Django.

Python's json module reads more than a database, a browser or another JSON reader will take: NaN and Infinity
(and 1e999, which becomes Infinity), lone UTF-16 surrogates such as \\ud800 (they cannot be written as UTF-8),
NUL characters (PostgreSQL refuses them in text and in jsonb), integers of any size (a database column holds 64
bits), and nesting as deep as the interpreter's stack (100,000 levels crash the reader or whatever walks the
value next). :func:`loads` refuses each of them, naming where it is and what is wrong, so that a request
carrying one is answered 400 instead of failing half-way through being stored.
"""

import json
import math

MAX_DEPTH = 64
# Decoded, JSON takes far more room than its text: 18 MB of "{}," is 6 million dicts, 1.4 GB. The objects and
# arrays and the values (commas and colons) are counted on the text before it is decoded; a full 500 x 500 map
# under the 20 MB upload limit holds about 800,000 of the first (its hexes, their terrain lists and 300,000
# hexsides) and 3 million of the second.
MAX_CONTAINERS = 800_000
MAX_VALUES = 4_000_000
MAX_INT = 2**63 - 1
_MAX_INT_DIGITS = len(str(MAX_INT))


class UnsafeJSON(ValueError):
    """The text is not JSON, or holds a value Hexside cannot keep; ``path`` says where ($ for the whole)."""

    def __init__(self, path, message, code="unsafe-json"):
        self.path = path
        self.message = message
        self.code = code
        super().__init__(f"{path}: {message}" if path != "$" else message)


def loads(text):
    """The value of a JSON text (str or UTF-8 bytes), refusing what :func:`check` refuses; UnsafeJSON otherwise."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UnsafeJSON("$", f"not UTF-8 text ({exc.reason} at byte {exc.start})", "not-utf8") from None
    containers, values = text.count("{") + text.count("["), text.count(",") + text.count(":")
    if containers > MAX_CONTAINERS or values > MAX_VALUES:
        raise UnsafeJSON("$", f"holds about {containers:,} objects and arrays and {values:,} values; at most "
                              f"{MAX_CONTAINERS:,} and {MAX_VALUES:,} are read", "json-too-large")
    try:
        value = json.loads(text, parse_constant=_constant, parse_int=_int, parse_float=_float)
    except json.JSONDecodeError as exc:
        raise UnsafeJSON("$", f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
                         "bad-json") from None
    except RecursionError:
        raise UnsafeJSON("$", f"nested deeper than {MAX_DEPTH} levels") from None
    # Lone surrogates and NUL can only come in as \u escapes (raw ones are not UTF-8, or not allowed in JSON).
    check(value, strings="\\u" in text)
    return value


def check(value, strings=True):
    """Refuse nesting past MAX_DEPTH, integers past 64 bits, non-finite numbers and, with ``strings``, text holding
    NUL or a lone surrogate (in values and in keys). Walks without recursion, so any depth is safe to check; the
    path of an item is worked out only when it is refused."""
    if not isinstance(value, (dict, list)):
        value = {"$": value}  # a lone value: its path is $
    stack = [(value, 0, None)]  # (item, depth, trail); a trail is (parent trail, key or index)
    while stack:
        item, depth, trail = stack.pop()
        if depth >= MAX_DEPTH:
            raise UnsafeJSON(_path(trail), f"nested deeper than {MAX_DEPTH} levels")
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        for key, child in pairs:
            if strings and isinstance(key, str):
                _text(key, trail, "key", key)
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1, (trail, key)))
            elif isinstance(child, str):
                if strings:
                    _text(child, (trail, key), "text")
            elif isinstance(child, bool) or child is None:
                continue
            elif isinstance(child, int):
                if abs(child) > MAX_INT:
                    raise UnsafeJSON(_path((trail, key)), f"the number is too large (at most {MAX_INT} either way)")
            elif isinstance(child, float) and not math.isfinite(child):
                raise UnsafeJSON(_path((trail, key)), f"{child} is not a number JSON can hold; give a finite number")


def _path(trail):
    """A trail as the map format writes paths: $ for the whole, else e.g. hexes[3].terrain[0]."""
    parts = []
    while trail is not None:
        trail, key = trail
        parts.append(f"[{key}]" if isinstance(key, int) else f".{_printable(key)}")
    return "".join(reversed(parts)).lstrip(".") or "$"


def _printable(text):
    """Text as it can be shown in a message: NUL and lone surrogates written as escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\u0000")


def _text(text, trail, what, name=None):
    if text.isascii() and "\x00" not in text:
        return
    what = f"{what} {_printable(name)!r}" if name is not None else what
    if "\x00" in text:
        raise UnsafeJSON(_path(trail), f"the {what} holds a NUL character (\\u0000), which cannot be stored")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        raise UnsafeJSON(_path(trail), f"the {what} holds a lone UTF-16 surrogate (\\u{code:04x}) at character "
                               f"{exc.start}: it is not a character and cannot be stored") from None


def _constant(name):
    raise UnsafeJSON("$", f"{name} is not JSON: give a finite number")


def _int(digits):
    if len(digits.lstrip("-")) > _MAX_INT_DIGITS or abs(int(digits)) > MAX_INT:
        raise UnsafeJSON("$", f"the number {digits[:30]}{'…' if len(digits) > 30 else ''} is too large "
                              f"(at most {MAX_INT} either way)")
    return int(digits)


def _float(digits):
    value = float(digits)
    if not math.isfinite(value):
        raise UnsafeJSON("$", f"the number {digits[:30]} is too large to hold; give a finite number")
    return value
