"""Transactions, locking, loading and saving: everything the routes do to the database.

Every change to a game happens inside `transaction()` after `lock_seat` (or `join_game`) took
the game's row lock: SELECT ... FOR UPDATE on PostgreSQL; on SQLite every writing transaction
begins with BEGIN IMMEDIATE (see database.configure_sqlite). On top of the lock, the games.version
column is checked in the UPDATE itself (SQLAlchemy's version_id_col), so two changes to one game
can never both be applied.

Every change ends by storing both seats' views at the new version (`publish_views`), so that a
GET, by far the most frequent request, is one indexed read of the seat's row (`read_view`).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from contextlib import contextmanager

from sqlalchemy import bindparam, func, or_, select, update
from sqlalchemy.orm import contains_eager
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from . import deadlines, deals, fastjson, second_deck, table_clocks, wakeup
from .access.models import SeatToken
from .database import begin_read_only
from .driver_sql import one_statement
from .errors import Problem, invalid_token
from .extensions import db
from .models import Deal, Event, Game, IdempotencyRecord, Seat, utcnow
from .players.models import Player, PlayerSeat
from .rules import InvalidRules, Match, Rules, action_from_dict, redact_event
from .table_games import TableGame, is_table_state, redact_table_event
from .tokens import hash_secret, new_game_id, new_invite_code, new_token

WAITING, ACTIVE, FINISHED = "waiting_for_opponent", "active", "finished"


@contextmanager
def transaction():
    """Commit what the block did, or roll all of it back if it raised."""
    try:
        yield
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


# -- what follows a change ----------------------------------------------------------------

# Registered by service.notify when the app is made (the move clock, the outbox's mails and
# webhooks): the store calls them and imports nothing of notify's, so dependencies run
# rules <- store <- routes, with notify beside the routes.
_change_hooks: list = []


def on_change(hook) -> None:
    """Have `hook(game, match, actor, events)` called inside every change's transaction, right
    after the change was saved (actor None: the join that dealt the first hand)."""
    if hook not in _change_hooks:
        _change_hooks.append(hook)


def change_hooks() -> list:
    """The hooks registered, for the move path (service/moves.py), which calls them itself."""
    return list(_change_hooks)


def after_change(game: Game, match: Match, actor: int | None, events: list[dict]) -> None:
    for hook in _change_hooks:
        hook(game, match, actor, events)


# -- loading -----------------------------------------------------------------------------

def could_be_game_id(game_id: str) -> bool:
    """Game ids are URL-safe base64 text. Anything else names no game, and must not reach the
    database: PostgreSQL refuses a NUL in a text parameter with an error (a 500, not a 401)."""
    return 0 < len(game_id) <= 64 and game_id.isascii() and game_id.replace("-", "").replace("_", "").isalnum()


# The hot statements are built once, with bound parameters: building and keying a statement
# anew costs more than running it. The game's move clock comes along (Game.clock): every change
# reads it.
_games, _seats, _events, _deals = Game.__table__, Seat.__table__, Event.__table__, Deal.__table__
_tokens = SeatToken.__table__
_players, _player_seats = Player.__table__, PlayerSeat.__table__
# A token opens a seat as the seat's first token (seats.token_hash) or as one of its further tokens
# (seat_tokens, from mail links): both are unique-index probes inside the same one statement.
_FURTHER_TOKEN_SEAT = (select(_tokens.c.seat).where(_tokens.c.game_id == bindparam("game"),
                                                     _tokens.c.token_hash == bindparam("token_hash"))
                       .scalar_subquery())
# A player token opens the seats bound to its player (player_seats: at most one per game).
_PLAYER_SEAT = (select(_player_seats.c.seat)
                .select_from(_player_seats.join(_players, _players.c.id == _player_seats.c.player_id))
                .where(_player_seats.c.game_id == bindparam("game"), _players.c.token_hash == bindparam("token_hash"))
                .scalar_subquery())
_TOKEN_OPENS_SEAT = or_(_seats.c.token_hash == bindparam("token_hash"), _seats.c.seat == _FURTHER_TOKEN_SEAT,
                        _seats.c.seat == _PLAYER_SEAT)
_SEAT_QUERY = (select(Game, Seat.seat).join(Seat, Seat.game_id == Game.id)
               .outerjoin(Game.clock).options(contains_eager(Game.clock))
               .where(Game.id == bindparam("game"), _TOKEN_OPENS_SEAT))
_LOCK_SEAT_QUERY = _SEAT_QUERY.with_for_update(of=Game)


def _seat_params(game_id: str, token: str) -> dict:
    if not could_be_game_id(game_id):
        raise invalid_token()
    return {"game": game_id, "token_hash": hash_secret(token)}


def lock_seat(game_id: str, token: str) -> tuple[Game, int]:
    """The game the token opens, locked until the transaction ends, and the token's seat."""
    row = db.session.execute(_LOCK_SEAT_QUERY, _seat_params(game_id, token)).first()
    if row is None:
        raise invalid_token()
    return row[0], row[1]


def read_seat(game_id: str, token: str) -> tuple[Game, int]:
    """Like lock_seat, for reading only: no lock, so readers never wait for writers."""
    params = _seat_params(game_id, token)
    begin_read_only()
    row = db.session.execute(_SEAT_QUERY, params).first()
    if row is None:
        raise invalid_token()
    return row[0], row[1]


def load_match(game: Game) -> Match | TableGame | None:
    """The game's match: a `Match` for two seats, a `TableGame` for three or four (table_games.py)."""
    if game.state is None:
        return None
    return TableGame.from_dict(game.state) if is_table_state(game.state) else Match.from_dict(game.state)


def started_match(game: Game) -> Match:
    match = load_match(game)
    if match is None:
        raise Problem("game-not-started", "the game starts when every seat is taken with its invite code")
    return match


# -- creating and joining ----------------------------------------------------------------

def create_game(rules: Rules, name: str, move_time_hours: int | None = deadlines.DEFAULT_MOVE_TIME_HOURS
                ) -> tuple[Game, str, str]:
    """A new two-seat game with the creator in seat 0; returns it, the creator's token and the invite code."""
    game, token, invites = open_game(rules, name, 2, move_time_hours)
    return game, token, invites[1]


def check_seats(rules: Rules, seats: int) -> None:
    """InvalidRules (or ValueError) when these rules cannot be played by `seats` players."""
    if seats > 2:
        if rules.knock_card == "second_deck":  # its knock decks are numbered by hand: two seats only
            raise InvalidRules("knock_card", "a second-deck knock card is offered for two seats only")
        TableGame.new(rules, seats)  # what a table refuses (Mahjong gin), refused before anything is stored


def open_game(rules: Rules, name: str, seats: int = 2,
              move_time_hours: int | None = deadlines.DEFAULT_MOVE_TIME_HOURS) -> tuple[Game, str, dict[int, str]]:
    """A new game of `seats` seats (2, 3 or 4) with the creator in seat 0; returns it, the
    creator's token and an invite code per other seat ({seat: code}): each opens its own seat."""
    check_seats(rules, seats)
    token, invites = new_token(), {seat: new_invite_code() for seat in range(1, seats)}
    game = Game(id=new_game_id(), status=WAITING, rules=rules.to_dict(), state=None)
    game.seats = [Seat(seat=0, name=name, token_hash=hash_secret(token), joined_at=utcnow())] + [
        Seat(seat=seat, invite_hash=hash_secret(invite)) for seat, invite in invites.items()]
    db.session.add(game)
    db.session.flush()
    deadlines.start_clock(game.id, move_time_hours)
    return game, token, invites


def join_game(game_id: str, invite_code: str, name: str, first_dealer: int | None = None
              ) -> tuple[Game, Match, str]:
    """Seat 1 of a two-seat game takes its place with the invite code (see take_seat). Its callers
    (players, challenges, mail invitations) know two seats only: a table's invite is refused here,
    and the caller's transaction undoes the seat taken."""
    game, match, token, seat = take_seat(game_id, invite_code, name, first_dealer)
    if len(game.seats) != 2:
        raise Problem("invalid-invite", "this invite opens a seat at a table of three or four: join it with "
                                        "POST /games/{game_id}/join")
    return game, match, token


def _invited_seat(game: Game | None, invite_code: str) -> Seat | None:
    hashed = hash_secret(invite_code)
    return next((s for s in (game.seats[1:] if game is not None else [])
                 if hmac.compare_digest(s.invite_hash or "", hashed)), None)


def seat_of_invite(game: Game, invite_code: str) -> int | None:
    """The free seat the invite code opens in `game` (locked by the caller), if any."""
    seat = _invited_seat(game, invite_code)
    return seat.seat if seat is not None and seat.joined_at is None else None


def take_seat(game_id: str, invite_code: str, name: str, first_dealer: int | None = None
              ) -> tuple[Game, Match | TableGame | None, str, int]:
    """The seat the invite code opens is taken; when that was the last free seat the first hand is
    dealt (by `first_dealer`, else a seat drawn at random: a rematch gives the first deal to the
    other side). Returns the game, its match (None while seats are free), the token and the seat."""
    game = db.session.execute(select(Game).where(Game.id == game_id).with_for_update()).scalar() \
        if could_be_game_id(game_id) else None
    seat = _invited_seat(game, invite_code)
    if seat is None:
        raise Problem("invalid-invite", "this invite code does not open a seat in this game")
    if seat.joined_at is not None:  # not the token: a seat may have revoked its first token
        raise Problem("game-full", "this invite's seat is taken already: an invite code works once")
    token = new_token()
    seat.name, seat.token_hash, seat.joined_at = name, hash_secret(token), utcnow()
    if any(s.joined_at is None for s in game.seats):  # seats still free: the deal waits for them
        game.updated_at = utcnow()  # a change of the game's row: its version (the ETag) moves on
        db.session.flush()
        return game, None, token, seat.seat
    rules = Rules.from_dict(game.rules)
    first_dealer = secrets.randbelow(2) if first_dealer is None else first_dealer
    match = TableGame.new(rules, len(game.seats), first_dealer) if len(game.seats) > 2 \
        else Match.new(rules, first_dealer=first_dealer)
    recorded = _append_events(game, _deal(game, match))
    _save(game, match)
    after_change(game, match, None, recorded)  # the first turn's clock and mails
    return game, match, token, seat.seat


# -- recording actions -------------------------------------------------------------------

def record_action(game: Game, match: Match, seat: int, action: dict, events: list[dict]) -> dict[int, str]:
    """Store an action the engine accepted, with everything that follows from it (the hand's
    deck revealed if it ended, the next hand dealt), in the caller's transaction.

    This is the one place for work that must commit atomically with a move: notification rows
    for the outbox, the next move deadline and both seats' stored views belong here. Returns
    the views' JSON texts by seat.
    """
    ended = match.take_ended() if isinstance(match, TableGame) else \
        [match.hand_number] if match.needs_deal or match.is_over else []
    if ended:  # those hands are over: their decks are shown to every seat
        db.session.execute(update(Deal).where(Deal.game_id == game.id, Deal.hand.in_(ended))
                           .values(revealed=True))
    if match.is_over and second_deck.uses_second_deck(match.rules):
        second_deck.reveal_all(game.id)
    recorded = _append_events(game, events, action=action)
    if match.needs_deal:
        recorded += _append_events(game, _deal(game, match))
    _save(game, match)
    after_change(game, match, seat, recorded)  # the move clock, and the outbox's mails and webhooks
    return publish_views(game, match)


def lock_game(game_id: str) -> Game | None:
    """The game, locked until the transaction ends (for callers that know the seat already,
    like a move by email)."""
    return db.session.execute(select(Game).where(Game.id == game_id).with_for_update()).scalar()


def play(game: Game, seat: int, body) -> dict[int, str]:
    """Apply one action (the engine's JSON form, or claim_timeout) for `seat` on the locked game,
    and record it. The one path for every move: HTTP and email alike. Returns both seats' new
    views as JSON texts."""
    match = started_match(game)
    if isinstance(body, dict) and body.get("type") == "claim_timeout" and len(body) == 1:
        events = deadlines.claim_timeout(game.id, match, seat, deadlines.now())
    else:
        events = match.apply(seat, action_from_dict(body))
    return record_action(game, match, seat, body, events)


def play_table(game_id: str, seat: int, body) -> tuple[int, dict, str]:
    """A move at a table of three or four seats, for the move path (moves.py), on the game it
    locked: the store's path, every seat's view stored. Returns the version, the seat's view and
    its JSON text."""
    game = db.session.get(Game, game_id, populate_existing=True)
    text = play(game, seat, body)[seat]
    return game.version, json.loads(text), text


def deal_until_playable(match: Match, game_id: str | None = None) -> list[tuple[int, list[str], str, list[dict]]]:
    """Deal (hand number, deck, salt, events) until a hand is under way: a misdeal (a dealt hand
    that could knock, where the rules say so) voids the hand and asks for the next deal at once.
    With a second-deck knock card, each hand's comes from the game's own (service/second_deck.py)."""
    dealt = []
    while match.needs_deal:
        deck, salt = deals.shuffled_deck(), deals.new_salt()
        if isinstance(match, TableGame):  # each board waiting for cards, from a deck of its own
            hand, events = match.deal_next(deck)
            dealt.append((hand, deck, salt, events))
            continue
        knock = second_deck.knock_card(game_id, match.hand_number + 1) \
            if second_deck.uses_second_deck(match.rules) else None
        dealt.append((match.hand_number + 1, deck, salt, match.deal(deck, knock)))
    return dealt


def _deal(game: Game, match: Match) -> list[dict]:
    events = []
    for hand, deck, salt, dealt in deal_until_playable(match, game.id):
        db.session.add(Deal(game_id=game.id, hand=hand, deck=deck, salt=salt, commitment=deals.commitment(salt, deck),
                            revealed=over_already(match, hand)))  # a misdealt hand is over: shown at once
        events += dealt
    return events


_SAVED_COLUMNS = {name: bindparam(f"new_{name}") for name in
                  ("version", "state", "first_dealer", "to_move", "status", "updated_at")}
_SAVE_GAME = (update(_games).where(_games.c.id == bindparam("game"), _games.c.version == bindparam("read"))
              .values(_SAVED_COLUMNS))


def _save(game: Game, match: Match) -> None:
    """UPDATE games ... WHERE version = <the version read>, bumping it: one Core statement (the
    ORM's unit of work costs more than the statement), then the loaded object brought up to date."""
    values = {"version": game.version + 1, "state": match.to_dict(), "first_dealer": match.first_dealer,
              "to_move": match.to_move, "status": FINISHED if match.is_over else ACTIVE, "updated_at": utcnow()}
    db.session.flush()  # anything pending first (a new deal's row)
    result = db.session.connection().execute(
        _SAVE_GAME, {"game": game.id, "read": game.version, **{f"new_{k}": v for k, v in values.items()}})
    if result.rowcount != 1:  # cannot happen under the row lock; the version check guards it anyway
        raise StaleDataError(f"game {game.id} changed while it was locked (version {game.version})")
    for name, value in values.items():
        set_committed_value(game, name, value)


_LAST_SEQ = select(func.max(_events.c.seq)).where(_events.c.game_id == bindparam("game"))
_INSERT_EVENT = _events.insert()


def _append_events(game: Game, events: list[dict], action: dict | None = None) -> list[dict]:
    last = db.session.connection().execute(_LAST_SEQ, {"game": game.id}).scalar() or 0
    rows = event_rows(game.id, last, events, action)
    db.session.connection().execute(_INSERT_EVENT, rows)  # one executemany, no ORM objects
    return [{"seq": row["seq"], **event} for row, event in zip(rows, events)]


def event_rows(game_id: str, last: int, events: list[dict], action: dict | None = None) -> list[dict]:
    """The events table's rows for `events`, numbered after event `last`; the action that caused
    them goes on the first one."""
    moment = utcnow()
    return [{"game_id": game_id, "seq": last + offset, "seat": event.get("seat"), "type": event["type"],
             "hand": event.get("hand"), "payload": event, "action": action if offset == 1 else None,
             "created_at": moment} for offset, event in enumerate(events, start=1)]


# -- idempotency ---------------------------------------------------------------------------

def body_hash(body) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


def earlier_answer(game: Game, seat: int, key: str | None, body) -> IdempotencyRecord | None:
    """The stored first answer to this seat's request with this Idempotency-Key, if any."""
    if key is None:
        return None
    record = db.session.execute(select(IdempotencyRecord).filter_by(
        game_id=game.id, seat=seat, key=key)).scalar()
    if record is not None and record.request_hash != body_hash(body):
        raise Problem("idempotency-key-reused",
                      "this Idempotency-Key was used for a different request; use a new key per action")
    return record


def remember_answer(game: Game, seat: int, key: str | None, body, status: int, response: str) -> None:
    if key is not None:
        db.session.add(IdempotencyRecord(game_id=game.id, seat=seat, key=key, request_hash=body_hash(body),
                                         status=status, response=json.loads(response), version=game.version))


# -- what a seat sees ----------------------------------------------------------------------

def view_for(game: Game, seat: int, match: Match | None) -> dict:
    """The engine's view for this seat, plus the game's envelope."""
    return views_for(game, match, seats=(seat,))[seat]


def over_already(match: Match | TableGame, hand: int) -> bool:
    """Whether the hand just dealt is over already (a misdeal: voided as it was dealt)."""
    return match.dealt_over(hand) if isinstance(match, TableGame) else hand != match.hand_number


_DEALS = (select(_deals.c.hand, _deals.c.deck, _deals.c.salt, _deals.c.commitment, _deals.c.revealed)
          .where(_deals.c.game_id == bindparam("game")).order_by(_deals.c.hand))
_NAMES = select(_seats.c.seat, _seats.c.name).where(_seats.c.game_id == bindparam("game")).order_by(_seats.c.seat)


def views_for(game: Game, match: Match | TableGame | None, seats=None) -> dict[int, dict]:
    """The views of `seats` (default: every seat), sharing one read of the deals, the seats and the clock."""
    connection = db.session.connection()
    game_deals = connection.execute(_DEALS, {"game": game.id}).all()
    names = connection.execute(_NAMES, {"game": game.id}).all()
    seats = [seat for seat, _ in names] if seats is None else seats
    table = isinstance(match, TableGame) or (match is None and len(names) > 2)
    current = next((d for d in game_deals if match and not table and d.hand == match.hand_number), None)
    common = envelope(game.id, game.version, game.status, names, deadlines.deadline_of(game.id),
                      current.commitment if current else None,
                      [(d.hand, d.deck, d.salt, d.commitment) for d in game_deals if d.revealed])
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
             revealed: list[tuple]) -> dict:
    """What every seat's view carries besides the engine's view: the one place it is built, for
    views_for and the move path (service/moves.py) alike. `names`: (seat, name) in seat order;
    `revealed`: (hand, deck, salt, commitment) of each finished hand, in hand order."""
    return {
        "game_id": game_id,
        "version": version,
        "status": status,
        "players": [{"seat": seat, "name": name} for seat, name in names],
        "deadline": _iso(deadline),
        "deal_commitment": commitment,
        "revealed_deals": [{"hand": hand, "deck": deck, "salt": salt, "commitment": committed}
                           for hand, deck, salt, committed in revealed],
    }


def view_text(view: dict) -> str:
    """A view as the JSON text the API answers with (compact, as Flask writes it)."""
    return fastjson.compact(view)


_STORE_VIEW = (update(_seats).where(_seats.c.game_id == bindparam("game"), _seats.c.seat == bindparam("which"))
               .values(view_version=bindparam("version"), view_body=bindparam("body")))


def publish_views(game: Game, match: Match | None) -> dict[int, str]:
    """Both seats' views at the game's new version, stored with the change (seats.view_body) so
    that GET answers from one row; returns their JSON texts. Call it last in a change's
    transaction: the views must show everything the change did, deadline included."""
    db.session.flush()  # the game's UPDATE has run: game.version is final
    texts = {seat: view_text(view) for seat, view in views_for(game, match).items()}
    db.session.connection().execute(_STORE_VIEW, [
        {"game": game.id, "which": seat, "version": game.version, "body": text} for seat, text in texts.items()])
    wakeup.game_changed(game.id, game.version)  # its waiters, on every process, wake when this commits
    return texts


_STORED_VIEW = (select(_games.c.version, _seats.c.seat, _seats.c.view_version, _seats.c.view_body)
                .select_from(_games.join(_seats, _seats.c.game_id == _games.c.id))
                .where(_games.c.id == bindparam("game"), _TOKEN_OPENS_SEAT))


def read_view(game_id: str, token: str) -> tuple[int, int, str]:
    """(version, seat, view JSON text) for the seat the token opens: the stored view when it is
    the current version's (one indexed read, no match loaded), else computed now."""
    if not could_be_game_id(game_id):
        raise invalid_token()
    # A pooled DBAPI connection of its own and one statement in driver SQL, alone (on PostgreSQL in
    # autocommit): the session's (and a Core connection's) transaction machinery, and on
    # PostgreSQL a BEGIN and a ROLLBACK, cost more than the read.
    with one_statement(db.engine) as connection:
        row = connection.execute(_STORED_VIEW, {"game": game_id, "token_hash": hash_secret(token)}).first()
    if row is None:
        raise invalid_token()
    if row.view_version == row.version and row.view_body is not None:
        return row.version, row.seat, row.view_body
    # A game last changed before views were stored: compute it, from one consistent read.
    begin_read_only()
    row = db.session.execute(_SEAT_QUERY, _seat_params(game_id, token)).first()
    if row is None:  # the token was revoked since the read above
        raise invalid_token()
    game, seat = row[0], row[1]
    return game.version, seat, view_text(view_for(game, seat, load_match(game)))


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
