"""What the plan and orders routes take and answer (plan_routes.py, docs/plans.md): a plan or
orders in words (a mail reply's) or in their JSON form, and a settlement, for the seat only."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields as f

from ..core.fields import StrictSchema, doc
from ..core.openapi import ref
from .fields import Documented

_RULE = {"type": "object", "description": "A discard rule (docs/plans.md): `do` discard, knock, gin or big_gin",
         "required": ["do"], "properties": {
             "do": {"type": "string", "enum": ["discard", "knock", "gin", "big_gin"]},
             "card": {"type": "string", "description": "A card like 7H; for discard also `worst` or `drawn`"},
             "unless": {"type": "string", "enum": ["it_melds"]},
             "if": {"type": "string", "enum": ["possible"]},
             "if_deadwood_at_most": {"type": "integer", "minimum": 0, "maximum": 10}}}
PLAN_OBJECT = {
    "type": "object", "title": "PlanObject",
    "description": "A plan's JSON form: the draw, Mahjong gin's table moves, the discard rules in order",
    "properties": {
        "type": {"type": "string", "enum": ["plan"]},
        "draw": {"type": ["string", "null"], "enum": ["stock", "pile", "pass", None]},
        "count": {"type": "integer", "minimum": 1, "maximum": 52},
        "card": {"type": "string", "description": "With draw pile: the card the pile's top must be"},
        "table": {"type": "array", "items": ref("Action")},
        "then": {"type": "array", "items": _RULE}},
    "additionalProperties": False}
ORDERS_OBJECT = {
    "type": "object", "title": "OrdersObject", "description": "Standing orders' JSON form (docs/plans.md)",
    "properties": {
        "type": {"type": "string", "enum": ["orders"]},
        "upcard": {"type": ["string", "null"], "enum": ["pass_unless_it_melds", None]},
        "draw": {"type": ["string", "null"], "enum": ["pile_if_it_melds", None]},
        "gin": {"type": ["string", "null"], "enum": ["always", None]},
        "knock": {"anyOf": [
            {"type": "null"},
            {"type": "object", "required": ["if"], "properties": {"if": {"type": "string", "enum": ["possible"]}},
             "additionalProperties": False},
            {"type": "object", "required": ["if_deadwood_at_most"], "properties": {
                "if_deadwood_at_most": {"type": "integer", "minimum": 0, "maximum": 10}},
             "additionalProperties": False}]},
        "until": {"type": "string", "enum": ["hand_end", "cancelled"]}},
    "additionalProperties": False}
ORDERS_SET = {**ORDERS_OBJECT, "title": "OrdersSet", "required": list(ORDERS_OBJECT["properties"])}
_WORDS = {"type": "string", "minLength": 1, "maxLength": 2000}
PLAN_EXAMPLE = "draw stock, discard drawn unless it melds, else 7H"
ORDERS_EXAMPLE = "pass unless it melds; take the pile's top if it melds, else draw stock; always go gin"


class PlanRequestSchema(StrictSchema):
    plan = Documented({"oneOf": [_WORDS, PLAN_OBJECT]}, required=True, metadata={
        "description": "The plan: its words, as a mail reply writes them, or its JSON form. Unreadable: 400 "
                       "`invalid-plan`; not saying one thing: 422 `ambiguous-plan`; not playable now (for any "
                       "card you might draw): the engine's code, with `legal_actions`. Nothing is played then",
        "example": PLAN_EXAMPLE})


class OrdersRequestSchema(StrictSchema):
    orders = Documented({"oneOf": [_WORDS, ORDERS_OBJECT]}, required=True, metadata={
        "description": "The orders: their words (one a line, or separated by semicolons) or their JSON form. "
                       "Unreadable: 400 `invalid-orders`. They replace the seat's orders",
        "example": ORDERS_EXAMPLE})


class DecisionSchema(ma.Schema):
    rule = f.String(required=True, **doc("The rule, in its canonical words", example="discard drawn unless it melds"))
    played = f.Boolean(required=True, **doc("Whether this rule made the turn's last move"))
    why = f.String(required=True, **doc("What it decided and why"))


class PlanSettlementSchema(ma.Schema):
    plan = f.String(required=True, **doc("The plan, in its canonical words", example=PLAN_EXAMPLE))
    actions = Documented({"type": "array", "items": ref("Action")}, required=True,
                         metadata={"description": "The moves played, in order"})
    drawn = f.String(required=True, allow_none=True, **doc("The card the stock gave (null: no stock draw)",
                                                           example="7H"))
    decisions = f.List(f.Nested(DecisionSchema), required=True, **doc("What each rule tried decided"))
    answer = f.String(required=True, **doc("All of it in a sentence"))


class PlanAnswerSchema(ma.Schema):
    settlement = f.Nested(PlanSettlementSchema, required=True, **doc("For this seat only: the opponent sees the moves"))
    game = Documented(ref("GameView"), required=True, metadata={"description": "The seat's view after the plan "
                                                                              "(and any standing orders' moves)"})


class OrderedSchema(ma.Schema):
    action = Documented(ref("Action"), required=True, metadata={"description": "The move made"})
    order = f.String(required=True, **doc("The order that made it"))
    why = f.String(required=True, **doc("Why"))


class OrdersAnswerSchema(ma.Schema):
    orders = Documented(ORDERS_SET, required=True, metadata={"description": "The seat's orders now"})
    text = f.String(required=True, **doc("The same in words", example="pass unless it melds; until cancelled"))
    played = f.List(f.Nested(OrderedSchema), **doc(
        "PUT only: the move the orders made at once (when it was the seat's turn and they settle it)"))
