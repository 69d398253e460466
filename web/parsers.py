"""The JSON reader of every API request (settings: REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"])."""

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from engine import jsonsafe


class StrictJSONParser(JSONParser):
    """DRF's JSON parser, reading with engine.jsonsafe: deep nesting, NaN/Infinity, lone surrogates, NUL and
    integers past 64 bits are refused with a 400 naming where they are, before any view sees the data."""

    def parse(self, stream, media_type=None, parser_context=None):
        text = stream.read() if stream is not None else b""
        if not text:
            raise ParseError("the body is empty: expected JSON")
        try:
            return jsonsafe.loads(text)
        except jsonsafe.UnsafeJSON as exc:
            raise ParseError(f"JSON parse error: {exc}") from None
