"""What other features hear of the games, and what they add to them: hooks they register in their
init_app, which the games call. The games import no feature above them; a feature that must react
to a game's change (mail a seat, feed a player's stream, make a series' next game) or open a seat
another way (a mail link's token, a player's token) registers here.

    changed       hook(change, read), inside every change's transaction, after it was saved and
                  every seat's view stored (change.actor None: the join that dealt the first
                  hand); `read` is what the hook's `reads` (a SQL scalar) found in the move's one
                  locked read, so that a hook with nothing to do costs no statement
    seat_taken    hook(game, match, seat, args, moment, invites) at creation and at each join: the
                  fields of the request (contact settings, invitations) are acted on, and what the
                  hook returns is added to the answer
    seat_openers  opener(game_id, token_hash): a SQL scalar giving the seat of `game_id` that a
                  token with this hash opens besides the seat's first token, if any
    seat_closers  SeatCloser: a SQL truth value under which a seat opens to no token at all (its
                  player is suspended), and the problem its tokens are answered with then
    forfeiting    hook(game_id) -> seats whose holder may be claimed against at once (a
                  suspended player's), whoever is to move and whatever the clock says
    after_the_end hook(game_id, seat) -> AfterTheEnd: what a finished game's stream still has
                  for a seat (a rematch offered to it), and whether more may come (it stays open)
    message_hiders  hook(game_id, seat) -> seats whose messages `seat` does not see (a player
                  who blocked another: players/blocks.py)
    message_posted  hook(game, message), in the transaction that stored a message (the players'
                  streams hear of it)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable

from ..core.extensions import db
from ..core.hooks import Registry
from .models import Game


@dataclass(frozen=True)
class ChangeHook:
    call: Callable  # call(change, read)
    reads: Callable | None = None  # reads(game_id_column) -> SQL scalar read with the move's lock; None: none


@dataclass
class Change:
    """A change to a game as its hooks see it, inside the change's transaction: what the engine did
    (`events`, each with its `seq`, by `actor`; None: the join that dealt the first hand), the
    match after it, every seat's view at the new version, and the transaction's connection
    (core.driver_sql.Driver) for hooks that write in driver SQL. A hook that needs the ORM asks for
    `game()`: the session then works in the same transaction (games/move_transaction.py)."""

    game_id: str
    version: int
    match: Any  # the engine's Match, or a TableGame
    actor: int | None
    events: list[dict]
    moment: datetime
    views: dict[int, dict]
    connection: Any
    _game: Game | None = field(default=None, repr=False)
    # The seats whose standing orders moved in this change (games/standing.py), each with what its
    # orders played, in words for that seat alone: such a seat to move has not seen its turn yet,
    # though it is the actor's seat.
    ordered: dict = field(default_factory=dict)

    def game(self) -> Game:
        """The game's row as the change left it (loaded once, through the session)."""
        if self._game is None:
            self._game = db.session.get(Game, self.game_id, populate_existing=True)
        return self._game


changed = Registry("ChangeHooks, called with every change to a game")
seat_taken = Registry("hook(game, match, seat, args, moment, invites) -> members of the answer")
seat_openers = Registry("opener(game_id, token_hash) -> SQL scalar: the seat the token opens")
seat_closers = Registry("SeatClosers: seats no token opens, and the problem their tokens get")
forfeiting = Registry("hook(game_id) -> set of seats a waiting opponent may claim against at once")
after_the_end = Registry("hook(game_id, seat) -> AfterTheEnd: a finished game's stream's last words to a seat")
message_hiders = Registry("hook(game_id, seat) -> set of seats whose messages that seat does not see")
message_posted = Registry("hook(game, message) in the transaction that stored a message of the game")
seat_names = Registry("hook(name): raise a Problem for a name an anonymous seat may not take (the house bot's, a player's)")


@dataclass(frozen=True)
class SeatCloser:
    closed: Callable  # closed(game_id_column, seat_column) -> SQL truth value: no token opens the seat
    problem: Callable  # problem() -> the Problem a token of a closed seat is answered with


@dataclass(frozen=True)
class AfterTheEnd:
    """What a finished game's stream still tells a seat: `events` (each a frame's data, naming its
    type in `event`, sent after the final view), and whether one may still come (`may_come`: the
    stream stays open for it rather than ending with the match)."""
    events: tuple[dict, ...] = ()
    may_come: bool = False


def what_follows(game_id: str, seat: int) -> AfterTheEnd:
    """The after_the_end hooks' answers for this seat, joined."""
    answers = [hook(game_id, seat) for hook in after_the_end()]
    return AfterTheEnd(tuple(event for answer in answers for event in answer.events),
                       any(answer.may_come for answer in answers))


def on_change(call, reads=None, first: bool = False) -> None:
    """Have call(change, read) called inside every change's transaction, `read` being what
    reads(game_id_column), a SQL scalar, found in the move's locked read (None without `reads`):
    what the hook needs to know whether it has work, so that it costs nothing when it has none.
    Once per `call`. With `first`, before every hook registered so far: for a hook that takes the
    locks later hooks' writes need, in the one order every transaction takes them."""
    if all(hook.call is not call for hook in changed()):
        changed.register(ChangeHook(call, reads), first=first)


def after_change(change: Change, reads: dict[int, Any]) -> None:
    """Call the change hooks in the order they were registered, each with its read (by its place)."""
    for n, hook in enumerate(changed()):
        hook.call(change, reads.get(n))


def after_seat_taken(game, match, seat: int, args: dict, moment, invites: dict[int, str] | None = None) -> dict:
    """Call the seat-taken hooks; the members they return, for the answer."""
    answer = {}
    for hook in seat_taken():
        answer.update(hook(game, match, seat, args, moment, invites) or {})
    return answer


def check_seat_name(name: str) -> None:
    """Before an anonymous seat (POST /games, /join) takes `name`: each feature's objections (players:
    the house bot's name, a player's, or one that looks like them)."""
    for check in seat_names():
        check(name)
