"""webargs' parser for every blueprint, minus the work of reading an empty query string.

Most GETs (a seat's view, a page of events) come without a query: webargs would still build its
location loader, load an empty mapping through the schema and validate it, about a tenth of a
GET's server time. The answer for no query is the same every time for a schema whose defaults
are plain values and that has no hooks, so it is loaded once per schema and handed out as a copy.
Any query, any other location, and schemas with callable defaults or hooks take webargs' path.
"""
from __future__ import annotations

import marshmallow as ma
from flask import request
from flask_smorest import Blueprint
from webargs.flaskparser import FlaskParser


class LeanParser(FlaskParser):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._no_query: dict[int, tuple[ma.Schema, dict]] = {}  # id(schema) -> (schema, its load of {})

    def parse(self, argmap, req=None, *, location=None, validate=None, **kwargs):
        plain = location == "query" and validate is None and isinstance(argmap, ma.Schema) \
            and not request.query_string
        if plain and (known := self._no_query.get(id(argmap))) is not None and known[0] is argmap:
            return dict(known[1])
        result = super().parse(argmap, req, location=location, validate=validate, **kwargs)
        if plain and isinstance(result, dict) and _constant(argmap):
            self._no_query[id(argmap)] = (argmap, dict(result))
        return result


def _constant(schema: ma.Schema) -> bool:
    """Whether loading {} gives the same answer every time: no callable default, no hooks."""
    return not any(callable(field.load_default) for field in schema.fields.values()) \
        and not any(getattr(schema, "_hooks", {}).values())


Blueprint.ARGUMENTS_PARSER = LeanParser()  # before any blueprint's @arguments binds the parser
