"""The JSON type checks of the scenario format, with the messages they give. No Django.

A scenario arrives as decoded JSON, so any field can hold any JSON value. Where a value is looked up (a unit id
in the OOB, an objective id, a victory kind) it is checked to be text first: a list or an object there is a
format error naming its path ("sides[0].placements[2].unit: expected a unit id (text), got a list"), never a
crash of the lookup.
"""

from engine.mapfile import _kind

__all__ = ["kind_of", "wrong_text"]


def kind_of(value):
    """How a JSON value is named in a message: "a list", "an object", "a number", "null"..."""
    return "text" if isinstance(value, str) else _kind(value)


def wrong_text(value, what):
    """None when ``value`` is text; else the message saying that ``what`` (e.g. "a unit id") is text."""
    if isinstance(value, str):
        return None
    return f"expected {what} (text), got {kind_of(value)}"
