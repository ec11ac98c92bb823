"""JSON on the hot paths with orjson (written in Rust, some 5-10x the standard library's speed).

A move writes its views' JSON text, the match state and the events' payloads, and reads the state
back: with the standard library's json that was about a sixth of a move's server time
(bench/README.md). Two uses:

- `compact(value)`: exactly `json.dumps(value, separators=(",", ":"))`, byte for byte (the views'
  stored text, service/views.view_text). orjson writes the same text for plain ASCII strings,
  ints, booleans, null, lists and dicts with string keys; where it would differ (any escape,
  non-ASCII or DEL, which json writes as \\u escapes; a float with a negative exponent) or
  cannot write the value (int keys, an unpaired surrogate, an int past 64 bits), the standard
  library writes it instead.
- `serialize` / `deserialize`: the database's JSON columns (create_app gives them to the engine).
  Their stored text is compact JSON now, not json's spaced form: the same values either way.
"""
from __future__ import annotations

import json

import orjson

_SEPARATORS = (",", ":")
# Floats are written alike (the shortest repr, 1e+16 both) except negative exponents: json pads
# them to two digits (1.5e-07), orjson does not (1.5e-7). Text holding "e-" goes to json (a float
# has it; so may a string, rarely). NaN and Infinity, which json writes (not JSON) and orjson
# writes as null, never occur: the engine's values are ints, and bodies refuse them
# (service/web.parse_json_body).


def compact(value) -> str:
    """json.dumps(value, separators=(",", ":")), the same text, faster."""
    try:
        data = orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError: int keys, unpaired surrogates, huge ints, other types
        return json.dumps(value, separators=_SEPARATORS)
    if b"\\" in data or not data.isascii() or b"\x7f" in data or b"e-" in data:
        return json.dumps(value, separators=_SEPARATORS)  # its escapes (and float forms), not orjson's
    return data.decode("ascii")


def serialize(value) -> str:
    """A JSON column's text (SQLAlchemy's json_serializer)."""
    try:
        return orjson.dumps(value).decode("utf-8")
    except TypeError:
        return json.dumps(value)


def deserialize(text):
    """A JSON column's value (SQLAlchemy's json_deserializer): orjson, else json for what only it
    reads (NaN, Infinity in rows written by hand)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
