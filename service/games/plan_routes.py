"""The routes of plans and standing orders (issue 39, plans.py): a whole turn in one request, and
a seat's orders shown, set and cancelled. Each answer is the seat's alone."""
from __future__ import annotations

from flask import Response
from flask_smorest import Blueprint

from ..core import fastjson
from ..core.errors import ENGINE_CODES
from ..core.web import BEARER, ETAG_HEADER, bearer_token, etag_headers, problems, require_json_body
from . import plans, store
from .plan_schemas import (ORDERS_EXAMPLE, PLAN_EXAMPLE, OrdersAnswerSchema, OrdersRequestSchema,
                           PlanAnswerSchema, PlanRequestSchema)

planning = Blueprint("plans", __name__, description="Plans (a whole turn in one request) and standing orders")
planning.before_request(require_json_body)
SETTLED_EXAMPLE = {"plan": "draw stock, discard drawn unless it melds, else discard 7H",
                   "actions": [{"type": "draw", "from": "stock"}, {"type": "discard", "card": "KS"}],
                   "drawn": "KS", "decisions": [{"rule": "discard drawn unless it melds", "played": True,
                                                 "why": "KS does not lower your deadwood (keeping it: 41, without "
                                                        "it: 31), so you threw it"}],
                   "answer": "You drew KS from the stock; KS does not lower your deadwood (keeping it: 41, "
                             "without it: 31), so you threw it."}
ORDERS_ANSWER = {"orders": {"type": "orders", "upcard": "pass_unless_it_melds", "draw": "pile_if_it_melds",
                            "gin": "always", "knock": None, "until": "cancelled"},
                 "text": f"{ORDERS_EXAMPLE}; until cancelled"}
PLAN_CODES = ("invalid-plan", "ambiguous-plan", *ENGINE_CODES)


@planning.route("/games/<game_id>/plans", methods=["POST"])
@planning.doc(operationId="postPlan", security=BEARER)
@planning.arguments(PlanRequestSchema, examples={
    "words": {"value": {"plan": PLAN_EXAMPLE}},
    "object": {"value": {"plan": {"type": "plan", "draw": "stock", "then": [
        {"do": "discard", "card": "drawn", "unless": "it_melds"}, {"do": "discard", "card": "7H"}]}}},
    "knock": {"value": {"plan": "draw stock, gin if possible, else knock if deadwood at most 5, else worst"}}})
@planning.response(200, PlanAnswerSchema, headers=ETAG_HEADER)
@problems(planning, "malformed-json", "invalid-token", "account-suspended", "payload-too-large",
          "unsupported-media-type", "validation-error", "game-not-started", *PLAN_CODES)
def post_plan(args, game_id):
    """Play a whole turn said in advance (docs/plans.md): judged whole against every card you might
    draw, refused whole (nothing played) with the reason and the legal actions, else played as
    your moves in one change. The answer says what you drew and what each rule decided: yours
    alone; the other seat sees only the moves."""
    plan = plans.read_plan(args["plan"])
    made, settlement = plans.play_plan(game_id, plan, token=bearer_token())
    body = '{"settlement":' + fastjson.compact(settlement.to_dict()) + ',"game":' + made.text + "}"
    return Response(body + "\n", status=200, mimetype="application/json", headers=etag_headers(made.version))


@planning.route("/games/<game_id>/orders", methods=["GET"])
@planning.doc(operationId="getOrders", security=BEARER)
@planning.response(200, OrdersAnswerSchema, example=ORDERS_ANSWER)
@problems(planning, "invalid-token", "account-suspended")
def get_orders(game_id):
    """Your standing orders (no other seat sees them)."""
    return plans.show_orders(game_id, bearer_token())


@planning.route("/games/<game_id>/orders", methods=["PUT"])
@planning.doc(operationId="putOrders", security=BEARER)
@planning.arguments(OrdersRequestSchema, examples={
    "words": {"value": {"orders": ORDERS_EXAMPLE}},
    "object": {"value": {"orders": {"type": "orders", "upcard": "pass_unless_it_melds", "draw": None,
                                    "gin": "always", "knock": {"if_deadwood_at_most": 4}, "until": "hand_end"}}}})
@planning.response(200, OrdersAnswerSchema, example={**ORDERS_ANSWER, "played": []})
@problems(planning, "malformed-json", "invalid-token", "account-suspended", "payload-too-large",
          "unsupported-media-type", "validation-error", "game-not-started", "invalid-orders", "wrong-phase",
          "knocking-not-allowed")
def put_orders(args, game_id):
    """Set your standing orders (they replace any): they answer the upcard offer, the draw and a
    gin (a knock only with a knock order) as your own moves whenever your turn comes, played at
    once when it is your turn now, until the hand ends or you cancel them."""
    orders = plans.read_orders(args["orders"])
    with store.transaction():
        _game, seat = store.lock_seat(game_id, bearer_token())
        orders, played = plans.set_orders(game_id, seat, orders)
    return plans.orders_answer(orders, played)


@planning.route("/games/<game_id>/orders", methods=["DELETE"])
@planning.doc(operationId="deleteOrders", security=BEARER)
@planning.response(200, OrdersAnswerSchema, example={"orders": {
    "type": "orders", "upcard": None, "draw": None, "gin": None, "knock": None, "until": "cancelled"},
    "text": "no orders; until cancelled"})
@problems(planning, "invalid-token", "account-suspended", "game-not-started")
def delete_orders(game_id):
    """Cancel your standing orders: every decision is asked of you again."""
    with store.transaction():
        _game, seat = store.lock_seat(game_id, bearer_token())
        orders, _played = plans.set_orders(game_id, seat, plans.Orders())
    return plans.orders_answer(orders)
