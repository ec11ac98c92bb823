"""The move path: every move of every game, two seats or a table, by HTTP, by mail or by a bot, is
made by `make`, and every change the engine makes (a move, or the join that deals the first hand)
is recorded by `record`, once, in one transaction (move_transaction.py), in the statements it needs.

A change is, in one transaction:
  1. the game's lock (BEGIN IMMEDIATE on SQLite; on PostgreSQL a SELECT ... FOR UPDATE of its
     own), then one read bringing everything the move reads (move_reads.py): the game's row, the
     seat, the names, the last event number, the deals' commitments, the move clock, what each
     change hook needs to know whether it has work, whether the game has vacations; with an
     Idempotency-Key, its first answer;
  2. at a hand's end only: the deal revealed, the next one stored;
  3. the events, the games UPDATE (versioned: WHERE version = <read>; its RETURNING sends
     PostgreSQL's wake-up NOTIFY, which goes out at the commit), the clock when a new turn began,
     and every seat's view (move_writes.save: on PostgreSQL one statement, held back to go with
     the COMMIT);
  4. the change hooks (games.changes: the outbox's mails and webhooks, players' streams and
     ratings, a series' next game), each told what its read found, so that a hook with nothing
     to do costs no statement;
  5. the idempotency record, with a key.
A table of 3 to 8 seats differs in 3: its seats' clocks and views go through the ORM
(table_clocks.py, views.publish_views), in the same transaction.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable

from ..core import metrics
from ..core.errors import Problem
from ..core.extensions import db
from ..rules import action_from_dict
from . import changes, clocks, deadlines, deals, move_reads, move_writes, second_deck, store, views
from .action_schemas import action_errors
from .models import Game, utcnow
from .move_reads import is_claim
from .move_transaction import move_transaction
from .standing import Standing
from .table_game import TableGame


@dataclass(frozen=True)
class Made:
    """A move made: the seat's view at the new version (as JSON text), the answer's status and version."""
    text: str
    status: int
    version: int


@dataclass(frozen=True)
class Preconditions:
    """What an HTTP request adds to a move, checked once the seat is known, in this order: a
    header refused for its form (`refused`: a malformed Idempotency-Key or If-Match), the first
    answer under the same Idempotency-Key (`key`), the action's form, and the game's version
    (`version(version)` raises when If-Match names another)."""
    key: str | None = None
    refused: Problem | None = None
    version: Callable[[int], None] = lambda version: None


NONE = Preconditions()


class Moves(tuple):
    """What a `decide` returns for several moves of its seat, made in order in one change: a plan
    (issue 39), judged whole before the first is played. Only a decide may ask for several."""


def make(game_id: str, body: dict | None = None, *, token: str | None = None, seat: int | None = None,
         decide: Callable | None = None, pre: Preconditions = NONE) -> Made:
    """Make one move in the game for the seat `token` opens (or `seat`, for a caller that knows it:
    a reply by mail): the action `body`, or the one decide(match, seat) chooses from the locked
    state (or the Moves it chooses: a plan's). Then the standing orders of the seat to move play
    what they settle, in the same change (standing.py). Its own transaction, or the caller's when
    the session is in one (move_transaction)."""
    with move_transaction() as connection:
        row = move_reads.lock(connection, game_id, token, pre.key) if token is not None else \
            move_reads.lock_seat(connection, game_id, seat)
        if pre.refused is not None:
            raise pre.refused
        if (earlier := move_reads.earlier_answer(row, pre.key, body)) is not None:
            answer, status, version = earlier
            return Made(views.view_text(answer), status, version)  # a view, sent as first answered
        if decide is not None:
            body = decide(_started(row), row.seat)
        bodies = list(body) if isinstance(body, Moves) else [body]
        for each in bodies:
            if (fault := action_errors(each)) is not None:
                raise Problem("invalid-action", fault)
        pre.version(row.version)
        version, view, text = play(connection, row, body)
        move_writes.remember_answer(connection, row, pre.key, body, version, view)
    return Made(text, 200, version)


def _started(row):
    if row.state is None:
        raise Problem("game-not-started", "the game starts when every seat is taken with its invite code")
    return store.match_from_state(row.state)


def play(connection, row, body) -> tuple[int, dict, str]:
    """Apply the action (the engine's JSON form, or claim_timeout; or Moves, in order) for the
    row's seat and record it with everything that follows, the standing orders' moves included.
    Returns the new version, the seat's new view and its JSON text."""
    match, moment = _started(row), deadlines.now()
    made = []
    for each in (body if isinstance(body, Moves) else [body]):
        if is_claim(each):
            made.append((row.seat, each, clocks.claim_timeout(row.id, match, row.seat, moment)))
        else:
            made.append((row.seat, each, match.apply(row.seat, action_from_dict(each))))
        metrics.move(each.get("type", "unknown"))
    standing = Standing({0: getattr(row, "orders0", None), 1: getattr(row, "orders1", None)})
    first = made[0] if made else (row.seat, None, [])  # none: the orders just set move (plans.set_orders)
    return record(connection, row, match, row.seat, first[1], first[2], moment, made[1:], standing)


def record(connection, row, match, actor: int | None, action, events: list[dict], moment, more=(),
           standing: Standing | None = None) -> tuple[int, dict, str]:
    """Store a change the engine made (`events`, by `actor`; actor None: the join that deals the
    first hand, which happened to a match that was not stored yet) with everything that follows:
    the hands that ended revealed, the next hand dealt and committed to, the events, the move
    clock, the game's row under its version check, every seat's view, the change hooks. Returns
    the new version, the row's seat's view and its JSON text. `more`: the moves made after the
    first in the same change, as (seat, action, events); `standing`: the seats' orders, which
    play once the moves are made (a two-seat game's)."""
    made = [(actor, action, events), *more]
    if isinstance(match, TableGame):
        return _record_table(connection, row, match, actor, made, moment)
    return _record_game(connection, row, match, actor, made, moment, standing)


def _record_game(connection, row, match, actor, made, moment, standing=None) -> tuple[int, dict, str]:
    """Two seats: one clock, the views built from the read (views.envelope)."""
    revealed, commitment, rows, events = _hands(connection, row, match, made, standing)
    recorded = [{"seq": r["seq"], **event} for r, event in zip(rows, events)]
    version, status = row.version + 1, store.FINISHED if match.is_over else store.ACTIVE
    ordered = standing.told() if standing else {}
    deadline, clock = move_writes.move_clock(row, match, actor, recorded, moment, ordered)
    common = views.envelope(row.id, version, status, [(0, row.name0, row.level0), (1, row.name1, row.level1)],
                            deadline, commitment, revealed, kind="game")
    if second_deck.uses_second_deck(match.rules):
        common.update(second_deck.view_part(row.id))
    seat_views = {each: {**common, **view} for each, view in match.views().items()}
    texts = {each: views.view_text(view) for each, view in seat_views.items()}
    move_writes.save(connection, row, match, version, status, clock, texts, rows)
    changes.after_change(changes.Change(row.id, version, match, actor, recorded, moment, seat_views, connection,
                                        ordered=ordered),
                         move_reads.hook_reads(row))
    return version, seat_views[row.seat], texts[row.seat]


def _record_table(connection, row, match, actor, made, moment) -> tuple[int, dict, str]:
    """Three to eight seats: every seat to move has a clock of its own (table_clocks.py), which the
    views show, so the clocks move before the views are built."""
    revealed, commitment, rows, events = _hands(connection, row, match, made)
    recorded = [{"seq": r["seq"], **event} for r, event in zip(rows, events)]
    version, status = row.version + 1, store.FINISHED if match.is_over else store.ACTIVE
    move_writes.save(connection, row, match, version, status, None, events=rows)
    clocks.after_change(row.id, match, actor, recorded, moment)
    game = db.session.get(Game, row.id, populate_existing=True)
    texts = views.publish_views(game, match)
    seat_views = {seat: json.loads(text) for seat, text in texts.items()}
    change = changes.Change(row.id, version, match, actor, recorded, moment, seat_views, connection, game)
    changes.after_change(change, move_reads.hook_reads(row))
    return version, seat_views[row.seat], texts[row.seat]


def _hands(connection, row, match, made: list[tuple], standing: Standing | None = None
           ) -> tuple[list[tuple], str | None, list[dict], list]:
    """The hands this change ended revealed, the next ones dealt (several after a misdeal) and the
    events' rows numbered (each move's action on its first event), then the standing orders'
    moves, each followed the same way: (the revealed deals, the current hand's commitment, the
    rows, the events with the deals')."""
    revealed = move_reads.revealed_of(row.revealed)
    commitment = row.latest_commitment if row.latest_hand == match.hand_number else None
    rows: list[dict] = []
    events: list = []
    started = row.state is not None
    while True:
        for _seat, action, moved in made:
            rows += move_writes.event_rows(row.id, rows[-1]["seq"] if rows else row.last_seq or 0, moved,
                                           action=action)
            events = [*events, *moved]
        commitment = _deal(connection, row, match, started, revealed, rows, commitment, events)
        ordered = standing.next_move(match) if standing else None
        if ordered is None:
            return revealed, commitment, rows, events
        made, started = [ordered], True


def _deal(connection, row, match, started: bool, revealed: list, rows: list[dict], commitment, events: list):
    """Reveal the hands that ended, deal until a hand is under way; the deals' event rows and
    events are appended to `rows` and `events`. Returns the current hand's commitment."""
    ended = [] if not started else match.take_ended() if isinstance(match, TableGame) else \
        [match.hand_number] if match.needs_deal or match.is_over else []
    for hand in ended:  # those hands are over: their decks are shown to every seat
        shown = connection.execute(move_writes.REVEAL_DEAL, {"game": row.id, "ended_hand": hand}).all()
        revealed += [tuple(deal) for deal in shown]
    if match.is_over and second_deck.uses_second_deck(match.rules):
        second_deck.reveal_all(row.id)
    for hand, deck, salt, dealt in move_writes.deal_until_playable(match, row.id):
        commitment = deals.commitment(salt, deck)
        over = views.over_already(match, hand)  # misdealt: over already, its deck shown with this change
        dealt_row = {"game_id": row.id, "hand": hand, "deck": deck, "salt": salt, "commitment": commitment,
                     "revealed": over, "created_at": utcnow()}
        connection.write(move_writes.INSERT_DEAL, dealt_row, tuple(dealt_row))
        rows += move_writes.event_rows(row.id, rows[-1]["seq"] if rows else row.last_seq or 0, dealt)
        events += dealt
        if over:
            revealed.append((hand, deck, salt, commitment))
    return commitment
