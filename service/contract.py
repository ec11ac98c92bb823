"""What openapi.yaml says that marshmallow fields cannot say alone: unions (`oneOf` with a
discriminator on `type`), fields that load loosely but are documented as a precise schema, and
enums taken from the catalogues at spec time. The service checks bodies against the same
marshmallow schemas the spec is generated from, so the two cannot disagree.

A field documents itself as something else through metadata {"openapi": X}, where X is a JSON
schema, a marshmallow Schema class (referenced as its component), or a callable giving either.
"""
from __future__ import annotations

import copy

import marshmallow as ma
from werkzeug.routing import Rule

DOC_KEY = "openapi"
KEPT = ("description", "example", "examples", "default", "readOnly", "writeOnly", "title")


def documented_as(converter, field, ret: dict, **_kwargs) -> dict:
    """apispec attribute function: replace a field's generated schema by the one it names."""
    target = field.metadata.get(DOC_KEY)
    if target is None:
        return {}
    if callable(target) and not isinstance(target, type):
        target = target()
    if isinstance(target, type) and issubclass(target, ma.Schema):
        target = converter.resolve_nested_schema(target)
    target = copy.deepcopy(target)
    if field.allow_none:
        target = {"anyOf": [target, {"type": "null"}]}
    kept = {key: ret[key] for key in KEPT if key in ret}
    ret.clear()  # the loose type marshmallow would have documented goes
    return {**target, **kept}


def union(converter, name: str, members: dict[str, type[ma.Schema]], description: str) -> dict:
    """Register `name` as a oneOf of `members` (discriminator value -> schema) and return its $ref."""
    refs = {value: converter.resolve_nested_schema(schema)["$ref"] for value, schema in members.items()}
    distinct = list(dict.fromkeys(refs.values()))
    converter.spec.components.schema(name, component={
        "description": description,
        "oneOf": [{"$ref": ref} for ref in distinct],
        "discriminator": {"propertyName": "type", "mapping": refs},
    })
    return {"$ref": f"#/components/schemas/{name}"}


def register(spec, ma_plugin) -> None:
    """Called once per app when flask-smorest builds the spec (errors.ProblemApi)."""
    from .schemas import ACTION_SCHEMAS, EVENT_SCHEMAS, rules_schema

    converter = ma_plugin.converter
    converter.add_attribute_function(documented_as)
    spec.components.schema("Rules", component={
        **rules_schema(all_required=True), "description": "Every rules option's value, plus the preset"})
    spec.components.schema("RulesChoice", component={
        **rules_schema(all_required=False),
        "description": "A preset and the options to change; each option left out takes the preset's value"})
    spec.path(rule=Rule("/openapi.json"), operations={"get": {  # served by flask-smorest itself
        "operationId": "getOpenapiJson", "tags": ["service"],
        "summary": "The contract as JSON: the same document as /openapi.yaml.",
        "responses": {"200": {"description": "This OpenAPI document",
                              "content": {"application/json": {"schema": {"type": "object"}}}},
                      "default": {"$ref": "#/components/responses/DEFAULT_ERROR"}}}})
    from .schemas import GameViewSchema
    from .schemas import MatchResultSchema
    from .table_schemas import TableResultSchema, TableViewSchema
    from .players.schemas import PublicTableViewSchema, PublicViewSchema
    for schema in (GameViewSchema, TableViewSchema, MatchResultSchema, TableResultSchema, PublicViewSchema,
                   PublicTableViewSchema):
        converter.resolve_nested_schema(schema)  # named by VIEW_DOC, PUBLIC_VIEW_DOC and match_end's result
    union(converter, "Action", ACTION_SCHEMAS,
          "One move, in the engine's JSON form: `type` says which, and each type takes exactly its own "
          "fields. Every entry of a view's legal_actions is one of these and can be posted unchanged.")
    union(converter, "Event", EVENT_SCHEMAS,
          "One event of the history as this seat may see it: `type` says which, and which fields it has. "
          "Cards the seat may not see yet (the opponent's stock draws, the knocker's face-down discard, "
          "the opponent's dealt cards) are left out until the hand is over.")


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}
