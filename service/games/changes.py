"""What other features hear of the games, and what they add to them: hooks they register in their
init_app, which the games call. The games import no feature above them; a feature that must react
to a game's change (mail a seat, feed a player's stream, make a series' next game) or open a seat
another way (a mail link's token, a player's token) registers here.

    changed       hook(game, match, actor, events), inside every change's transaction, after it
                  was saved (actor None: the join that dealt the first hand); with `wanted`, the
                  SQL truth value under which the hook has work, read with the move (moves.py)
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

from dataclasses import dataclass
from typing import Callable

from ..core.hooks import Registry


@dataclass(frozen=True)
class ChangeHook:
    call: Callable  # call(game, match, actor, events)
    wanted: Callable | None = None  # wanted(game_id_column) -> SQL truth value; None: always called


changed = Registry("ChangeHooks, called with every change to a game")
seat_taken = Registry("hook(game, match, seat, args, moment, invites) -> members of the answer")
seat_openers = Registry("opener(game_id, token_hash) -> SQL scalar: the seat the token opens")
seat_closers = Registry("SeatClosers: seats no token opens, and the problem their tokens get")
forfeiting = Registry("hook(game_id) -> set of seats a waiting opponent may claim against at once")
after_the_end = Registry("hook(game_id, seat) -> AfterTheEnd: a finished game's stream's last words to a seat")
message_hiders = Registry("hook(game_id, seat) -> set of seats whose messages that seat does not see")
message_posted = Registry("hook(game, message) in the transaction that stored a message of the game")


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


def on_change(call, wanted=None) -> None:
    """Have call(game, match, actor, events) called inside every change's transaction; `wanted`
    lets a move skip it when the game gives it nothing to do (see ChangeHook). Once per `call`."""
    if all(hook.call is not call for hook in changed()):
        changed.register(ChangeHook(call, wanted))


def after_change(game, match, actor: int | None, events: list[dict], hooks: tuple | None = None) -> None:
    """Call the change hooks (all, or those given) in the order they were registered."""
    for hook in changed() if hooks is None else hooks:
        hook.call(game, match, actor, events)


def after_seat_taken(game, match, seat: int, args: dict, moment, invites: dict[int, str] | None = None) -> dict:
    """Call the seat-taken hooks; the members they return, for the answer."""
    answer = {}
    for hook in seat_taken():
        answer.update(hook(game, match, seat, args, moment, invites) or {})
    return answer
