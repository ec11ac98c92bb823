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


def nullable_enum(converter, field, ret: dict, **_kwargs) -> dict:
    """apispec attribute function: a nullable enum as `anyOf: [the enum, null]`, the enum titled
    after its field (openapi-python-client names the class after the schema and the title:
    ChallengeReason). Written as marshmallow would (`type: [string, null]` with null among the
    values), that generator makes three identical enum classes of one field."""
    if not field.allow_none or None not in ret.get("enum", ()):
        return {}
    kinds = ret.pop("type")
    kinds = [kind for kind in (kinds if isinstance(kinds, list) else [kinds]) if kind != "null"]
    values = [value for value in ret.pop("enum") if value is not None]
    title = "".join(part.title() for part in (field.data_key or field.name).split("_"))
    return {"anyOf": [{"title": title, "type": kinds[0] if len(kinds) == 1 else kinds, "enum": values},
                      {"type": "null"}]}


def union(converter, name: str, members: dict[str, type[ma.Schema]], description: str,
          discriminator: str = "type") -> dict:
    """Register `name` as a oneOf of `members` (discriminator value -> schema, a schema class or a
    component's name) and return its $ref."""
    refs = {value: ref(schema)["$ref"] if isinstance(schema, str) else converter.resolve_nested_schema(schema)["$ref"]
            for value, schema in members.items()}
    distinct = list(dict.fromkeys(refs.values()))
    converter.spec.components.schema(name, component={
        "description": description,
        "oneOf": [{"$ref": ref} for ref in distinct],
        "discriminator": {"propertyName": discriminator, "mapping": refs},
    })
    return {"$ref": f"#/components/schemas/{name}"}


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}
