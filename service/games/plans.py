"""Plans and standing orders for the routes and for mail (issue 39, docs/plans.md): a plan read
from its words or its JSON, settled on the locked game and played through the one move path
(moves.make with a decide returning moves.Moves: one change, judged whole first); a seat's
standing orders read, set and cancelled, and played at once when they settle the seat's turn.
The settlement (the card drawn, what each rule decided) is returned to the seat alone."""
from __future__ import annotations

from sqlalchemy import select

from ..core.errors import Problem
from ..core.extensions import db
from ..rules import IllegalAction, Ordered, Orders, Settlement, check_orders, order_move, settle_plan
from ..rules.plans import Plan
from . import moves, standing, store
from .models import Seat
from .table_game import TableGame


def read_plan(value) -> Plan:
    """A plan from its words (a string) or its JSON form (an object); invalid-plan otherwise."""
    return Plan.parse(value) if isinstance(value, str) else Plan.from_dict(value)


def read_orders(value) -> Orders:
    """Orders from their words or their JSON form; invalid-orders otherwise (blank words too:
    `no orders`, or DELETE, says none)."""
    if isinstance(value, str) and not value.strip():
        raise IllegalAction("invalid-orders", "no orders written: write them, or 'no orders' to cancel them")
    return Orders.parse(value) if isinstance(value, str) else Orders.from_dict(value)


def refused(exc: IllegalAction, match, seat: int) -> Problem:
    """The problem a refused plan answers with: the engine's code and reason, and what is legal now."""
    legal = []
    if not isinstance(match, TableGame) and match.to_move == seat:
        legal = [action.to_dict() for action in match.legal_actions(seat)]
    return Problem(exc.code, exc.message, legal_actions=legal)


def plan_decider(plan: Plan, settled: list, told: list | None = None):
    """A decide for moves.make: the plan settled on the locked match (refused whole, before
    anything is played, when any part cannot be), its moves in order; the settlement appended to
    `settled`, its answer's words to `told` (a mail's answer, written during the change)."""
    def decide(match, seat: int) -> moves.Moves:
        if isinstance(match, TableGame):
            raise Problem("wrong-phase", "plans are played at two-seat games")
        try:
            settlement = settle_plan(match, seat, plan)
        except IllegalAction as exc:
            raise refused(exc, match, seat) from None
        settled.append(settlement)
        if told is not None:
            told.append(settlement.answer())
        return moves.Moves(action.to_dict() for action in settlement.actions)
    return decide


def play_plan(game_id: str, plan: Plan, *, token: str | None = None, seat: int | None = None
              ) -> tuple[moves.Made, Settlement]:
    """Play `plan` for the seat (by its token, or its number): one change through the move path."""
    settled: list[Settlement] = []
    made = moves.make(game_id, token=token, seat=seat, decide=plan_decider(plan, settled))
    return made, settled[-1]


# -- standing orders ------------------------------------------------------------------------------

def orders_of(seat_row: Seat, match) -> Orders:
    """The orders that stand for the seat now (none: Orders())."""
    return standing.active(seat_row.orders, match) or Orders()


def _seat_row(game_id: str, seat: int) -> Seat:
    return db.session.scalars(select(Seat).where(Seat.game_id == game_id, Seat.seat == seat)).one()


def show_orders(game_id: str, token: str) -> dict:
    game, seat = store.read_seat(game_id, token)
    match = store.load_match(game)
    return orders_answer(orders_of(_seat_row(game_id, seat), match))


def set_orders(game_id: str, seat: int, orders: Orders) -> tuple[Orders, list[Ordered]]:
    """Store the seat's orders (Orders() cancels them), in the caller's transaction with the game
    locked; when they settle the seat's decision now, play it (and what follows) through the move
    path. Returns the orders and what they played for the seat now."""
    game = store.lock_game(game_id)
    match = store.started_match(game)
    if isinstance(match, TableGame):
        raise Problem("wrong-phase", "standing orders are for two-seat games")
    try:
        check_orders(match, orders)
    except IllegalAction as exc:
        raise refused(exc, match, seat) from None
    _seat_row(game_id, seat).orders = standing.stored(orders, match.hand_number)
    db.session.flush()
    played: list[Ordered] = []
    first = order_move(match, seat, orders) if not orders.empty else None
    if first is not None:  # no move of the seat's own: its orders play, as at any change (standing.py)
        played.append(first)
        moves.make(game_id, seat=seat, decide=lambda locked, mover: moves.Moves())
    return orders, played


def orders_answer(orders: Orders, played: list[Ordered] | None = None) -> dict:
    answer = {"orders": orders.to_dict(), "text": str(orders)}
    if played is not None:
        answer["played"] = [each.to_dict() for each in played]
    return answer
