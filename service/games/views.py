"""What a seat sees: its view (the engine's, plus the game's envelope), stored with every change so
that a GET is one indexed read of the seat's row, and the history as the seat may see it."""
from __future__ import annotations

import functools

from sqlalchemy import bindparam, func, select, update

from ..core import fastjson, wakeup
from ..core.database import begin_read_only
from ..core.driver_sql import one_statement
from ..core.errors import invalid_token
from ..core.extensions import db
from ..core.tokens import hash_secret
from ..rules import Match, Rules, redact_event
from . import deadlines, second_deck, store, table_clocks
from .models import Deal, Event, Game, GameMessage, Seat
from .table_game import TableGame, is_table_state, redact_table_event

_games, _seats, _deals = Game.__table__, Seat.__table__, Deal.__table__


def view_for(game: Game, seat: int, match: Match | None) -> dict:
    """The engine's view for this seat, plus the game's envelope."""
    return views_for(game, match, seats=(seat,))[seat]


def over_already(match: Match | TableGame, hand: int) -> bool:
    """Whether the hand just dealt is over already (a misdeal: voided as it was dealt)."""
    return match.dealt_over(hand) if isinstance(match, TableGame) else hand != match.hand_number


_DEALS = (select(_deals.c.hand, _deals.c.deck, _deals.c.salt, _deals.c.commitment, _deals.c.revealed)
          .where(_deals.c.game_id == bindparam("game")).order_by(_deals.c.hand))
_NAMES = (select(_seats.c.seat, _seats.c.name, _seats.c.bot_level).where(_seats.c.game_id == bindparam("game"))
          .order_by(_seats.c.seat))


def views_for(game: Game, match: Match | TableGame | None, seats=None) -> dict[int, dict]:
    """The views of `seats` (default: every seat), sharing one read of the deals, the seats and the clock."""
    connection = db.session.connection()
    game_deals = connection.execute(_DEALS, {"game": game.id}).all()
    names = connection.execute(_NAMES, {"game": game.id}).all()
    seats = [row.seat for row in names] if seats is None else seats
    table = isinstance(match, TableGame) or (match is None and len(names) > 2)
    current = next((d for d in game_deals if match and not table and d.hand == match.hand_number), None)
    common = envelope(game.id, game.version, game.status, names, deadlines.deadline_of(game.id),
                      current.commitment if current else None,
                      [(d.hand, d.deck, d.salt, d.commitment) for d in game_deals if d.revealed],
                      kind="table" if table else "game")
    if second_deck.uses_second_deck(game.rules):
        common.update(second_deck.view_part(game.id))
    if table:  # each board's deal has its own commitment, in the board's public part
        commitments = {d.hand: d.commitment for d in game_deals if not d.revealed}
        shown = match or TableGame.new(Rules.from_dict(game.rules), len(names))  # not dealt yet: as it will start
        on_clock, due = table_clocks.clock_part(game.id)  # every board's mover has a deadline of its own
        return {seat: table_clocks.with_deadlines({**common, **shown.view(seat, commitments)}, on_clock, due)
                for seat in seats}
    if match is None:
        # Not dealt yet: the view of an empty match, with no dealer (chosen when seat 1 joins).
        empty = Match.new(Rules.from_dict(game.rules), 0)
        return {seat: {**common, **view, "dealer": None} for seat, view in empty.views(seats).items()}
    return {seat: {**common, **view} for seat, view in match.views(seats).items()}


def envelope(game_id: str, version: int, status: str, names: list[tuple], deadline, commitment: str | None,
             revealed: list[tuple], *, kind: str) -> dict:
    """What every seat's view carries besides the engine's view: the one place it is built, for
    views_for and the move path (service/games/moves.py) alike. `names`: (seat, name, house bot's
    level or None) in seat order;
    `revealed`: (hand, deck, salt, commitment) of each finished hand, in hand order; `kind`: "game"
    (two seats, a GameView) or "table" (a TableView), what a client switches on."""
    return {
        "kind": kind,
        "game_id": game_id,
        "version": version,
        "status": status,
        "players": [player_entry(*named) for named in names],
        "deadline": _iso(deadline),
        "deal_commitment": commitment,
        "revealed_deals": [{"hand": hand, "deck": deck, "salt": salt, "commitment": committed}
                           for hand, deck, salt, committed in revealed],
    }


def player_entry(seat: int, name: str | None, level: int | None = None) -> dict:
    """A seat's entry in `players`; the house bot's seat also says the level it plays at."""
    return {"seat": seat, "name": name} if level is None else {"seat": seat, "name": name, "level": level}


def view_text(view: dict) -> str:
    """A view as the JSON text the API answers with (compact, as Flask writes it)."""
    return fastjson.compact(view)


STORE_VIEW = (update(_seats).where(_seats.c.game_id == bindparam("game"), _seats.c.seat == bindparam("which"))
               .values(view_version=bindparam("version"), view_body=bindparam("body")))


def publish_views(game: Game, match: Match | None) -> dict[int, str]:
    """Both seats' views at the game's new version, stored with the change (seats.view_body) so
    that GET answers from one row; returns their JSON texts. Call it last in a change's
    transaction: the views must show everything the change did, deadline included."""
    db.session.flush()  # the game's UPDATE has run: game.version is final
    texts = {seat: view_text(view) for seat, view in views_for(game, match).items()}
    db.session.connection().execute(STORE_VIEW, [
        {"game": game.id, "which": seat, "version": game.version, "body": text} for seat, text in texts.items()])
    wakeup.game_changed(game.id, game.version)  # its waiters, on every process, wake when this commits
    return texts


_NEWEST_MESSAGE = (select(func.coalesce(func.max(GameMessage.id), 0)).where(GameMessage.game_id == _games.c.id)
                   .correlate(_games).scalar_subquery().label("newest_message"))


@functools.cache
def _stored_view(opens_seat, newest_message: bool = False):
    columns = [_games.c.version, _seats.c.seat, _seats.c.view_version, _seats.c.view_body]
    return (select(*columns, *([_NEWEST_MESSAGE] if newest_message else []))
            .select_from(_games.join(_seats, _seats.c.game_id == _games.c.id))
            .where(_games.c.id == bindparam("game"), opens_seat))


def read_view(game_id: str, token: str, newest_message: bool = False) -> tuple:
    """(version, seat, view JSON text) for the seat the token opens: the stored view when it is
    the current version's (one indexed read, no match loaded), else computed now. With
    `newest_message`, the stored view's tuple also ends with the game's newest message id."""
    if not store.could_be_game_id(game_id):
        raise invalid_token()
    # A pooled DBAPI connection of its own and one statement in driver SQL, alone (on PostgreSQL in
    # autocommit): the session's (and a Core connection's) transaction machinery, and on
    # PostgreSQL a BEGIN and a ROLLBACK, cost more than the read.
    params = {"game": game_id, "token_hash": hash_secret(token)}
    with one_statement(db.engine) as connection:
        row = connection.execute(_stored_view(store.token_opens_seat(), newest_message), params).first()
    if row is None:
        raise store.refusal(params)
    if row.view_version == row.version and row.view_body is not None:
        return (row.version, row.seat, row.view_body, *([row.newest_message] if newest_message else []))
    # A game last changed before views were stored: compute it, from one consistent read.
    begin_read_only()
    row = db.session.execute(store.seat_query(), store.seat_params(game_id, token)).first()
    if row is None:  # the token was revoked since the read above
        raise invalid_token()
    game, seat = row[0], row[1]
    return game.version, seat, view_text(view_for(game, seat, store.load_match(game)))


def events_page(game: Game, seat: int, after: int, limit: int) -> dict:
    """Events after `after`, as this seat may see them: a finished hand's events in full."""
    rows = db.session.execute(select(Event).where(Event.game_id == game.id, Event.seq > after)
                              .order_by(Event.seq).limit(limit + 1)).scalars().all()
    revealed = set(db.session.execute(select(Deal.hand).where(Deal.game_id == game.id,
                                                              Deal.revealed)).scalars())
    page = rows[:limit]
    redact = redact_table_event if is_table_state(game.state) else redact_event  # a table's: per board
    return {
        "events": [{"seq": row.seq, **redact(row.payload, seat, reveal_all=row.hand in revealed)}
                   for row in page],
        "next_after": page[-1].seq if len(rows) > limit else None,
    }


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None
