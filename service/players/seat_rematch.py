"""A rematch for seats that are not both players' (issue 24): the end of every match offers the next
one. Between players a rematch is a challenge (challenges.py); here, where a seat may be anyone
holding its token, the seat that offers gets the new game's first seat at once, and the other seat,
proving itself with its token of the finished game, takes the second by accepting: the server
invites it afresh and it joins as by an invite, so the join path (the deal, its hooks) is the one
every game takes. The first deal goes to the other side, as after a challenge's rematch.

The other seat hears of the offer on its page, by mail, on the finished game's stream (which stays
open for it: `after_the_end`) and, when a player holds it, on the player's stream: each time as
`rematch_offered`, with what accepting takes (never the offering seat's token). It may decline
instead (a reason code optional, as a challenge's): the offering seat's stream, open while its
offer waits for an answer, hears `rematch_declined`, its page says so, and its mail (as the offer
was mailed). The new game stays open, as any game with an invite is: the offering seat may send its
invite link to someone else."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from ..core.errors import Problem
from ..core.extensions import db
from ..core.tokens import hash_secret, new_token
from ..games import changes, deadlines, seating, store, views
from ..games.models import Game
from ..notify import contacts, dispatch
from ..notify.consent import confirm
from ..notify.mail.channel import MAIL
from ..notify.mail.scene import game_subject
from ..rules import Rules
from . import feed
from .models import SeatRematch


def describe(game: Game) -> dict:
    """Whether this game offers a seat rematch, and the one offered: its game, by whom, taken up."""
    row = db.session.get(SeatRematch, game.id)
    rematch = db.session.get(Game, row.rematch_id) if row else None
    return {"available": _available(game), "game_id": row.rematch_id if row else None,
            "offered_by": row.offered_by if row else None,
            "accepted": rematch is not None and rematch.status != store.WAITING,
            "declined": row is not None and row.declined_at is not None,
            "reason": row.decline_reason if row else None}


def decline(game: Game, seat: int, reason: str | None, now: datetime) -> None:
    """The seat the rematch was offered to says no: the offer is answered (neither seat may take it
    up any more), and the finished game's version moves on, so the offering seat's stream wakes and
    hears `rematch_declined` (after_the_end)."""
    _check(game)
    row = db.session.get(SeatRematch, game.id)
    if row is None:
        raise Problem("rematch-not-offered", "no rematch of this game was offered: nothing to decline")
    if row.offered_by == seat:
        raise Problem("rematch-own-offer", "this seat offered the rematch: only the other seat may decline it")
    if row.declined_at is not None or _taken(row):
        raise Problem("rematch-answered", "the rematch was " + ("declined" if row.declined_at else "accepted")
                      + " already")
    row.declined_at, row.decline_reason = now, reason
    moved_on(game, now)
    why = f" ({reason.replace('-', ' ')})" if reason else ""
    _tell_by_mail(game, row.offered_by, lambda link: (
        f"{_name(game, seat)} declined the rematch{why}.\n\nThe new game stays open: its invite link, on your "
        f"page, still lets someone else take the seat.\n\nYour game: {link}\n"), now)


def moved_on(game: Game, now: datetime) -> None:
    """A change of the finished game (an offer made or answered): its version moves on, so its
    streams wake, on every process, and hear what after_the_end now has for them."""
    game.updated_at = now
    views.publish_views(game, store.load_match(game))


def offer(game: Game, seat: int, now: datetime) -> tuple[Game, str, dict[int, str]]:
    """The new game with this seat's player in its seat 0: (game, their token, the invite codes)."""
    _check(game)
    if db.session.get(SeatRematch, game.id) is not None:
        raise Problem("rematch-unavailable", "a rematch of this game was offered already")
    clock = deadlines.clock_of(game.id)
    rematch, token, invites = seating.open_game(Rules.from_dict(game.rules), _name(game, seat), 2,
                                                clock.move_time_hours if clock else None)
    row = SeatRematch(game_id=game.id, rematch_id=rematch.id, offered_by=seat, created_at=now)
    db.session.add(row)
    # The other seat's stream tells it of the offer (after_the_end); the offering seat's waits for the answer.
    moved_on(game, now)
    _tell_by_mail(game, 1 - seat, lambda link: (
        f"{_name(game, seat)} offers a rematch: the same rules and move time. Accept or decline?\n\n"
        f"Answer in your browser: {link}\n"), now)
    _tell_the_player(game, 1 - seat, row)
    return rematch, token, invites


def offer_made(game: Game, row: SeatRematch) -> dict:
    """What the other seat needs to accept: the rematch's game, who offered it, and where to accept
    (with its own token of the finished game, or its player's token)."""
    return {"game_id": row.rematch_id, "offered_by": row.offered_by, "by": _name(game, row.offered_by),
            "accept": f"/games/{game.id}/seat-rematch/accept"}


def _tell_the_player(game: Game, seat: int, row: SeatRematch) -> None:
    player = feed.bound_seats(game.id).get(seat)
    if player is not None:
        feed.lock_players([player])
        feed.add(player, "rematch_offered", game_id=game.id, seat=seat, seat_rematch=offer_made(game, row))


def after_the_end(game_id: str, seat: int) -> changes.AfterTheEnd:
    """The games.changes.after_the_end hook: a finished two-seat game's stream tells the other seat
    of the offer once made, and stays open for it while none is (and one may be) made."""
    row = db.session.get(SeatRematch, game_id)
    game = db.session.get(Game, game_id)
    if row is None:
        return changes.AfterTheEnd(may_come=game is not None and _available(game))
    if row.declined_at is not None:  # answered: the offering seat hears it, then nothing more comes
        if row.offered_by != seat:
            return changes.AfterTheEnd()
        return changes.AfterTheEnd(events=({"event": "rematch_declined", "game_id": game_id, "seat": seat,
                                            "by": _name(game, 1 - seat), "reason": row.decline_reason},))
    taken = _taken(row)
    if row.offered_by == seat:  # its stream stays open for the answer while none came
        return changes.AfterTheEnd(may_come=not taken)
    if taken:
        return changes.AfterTheEnd()
    return changes.AfterTheEnd(events=({"event": "rematch_offered", "game_id": game_id, "seat": seat,
                                        "seat_rematch": offer_made(game, row)},))


def _taken(row: SeatRematch) -> bool:
    return any(s.seat == 1 and s.joined_at is not None for s in db.session.get(Game, row.rematch_id).seats)


def _tell_by_mail(game: Game, seat: int, text: Callable[[str], str], now: datetime) -> None:
    """A seat hears of the offer (the other seat) or of its decline (the offering seat) by mail,
    when it gave a confirmed address and wants mail, in the game's thread: `text(link)`, with the
    link that opens its seat of the finished game."""
    contact = contacts.contact_of(game.id, seat)
    if contact is None or contact.mail_mode == "off" or not confirm.may_mail(contact.email):
        return
    to = contact.email
    with dispatch.composing(MAIL, "rematch", to, now, game.id, seat, game.version):
        scene = dispatch.scene_for(game, store.load_match(game), seat, now)
        dispatch.enqueue_mail(scene, "rematch", to, game_subject(game.id),  # the game's thread
                              text(scene.link), now)


def invite_back(game: Game, seat: int) -> tuple[str, str, str, int]:
    """For the other seat accepting: (the rematch's id, a fresh invite code to its second seat, the
    seat's name, the first dealer: the side that did not deal first in this game)."""
    _check(game)
    row = db.session.get(SeatRematch, game.id)
    if row is None or row.offered_by == seat:
        raise Problem("rematch-unavailable", "no rematch was offered to this seat: offer one "
                                             "(POST /games/{game_id}/seat-rematch)")
    if row.declined_at is not None:
        raise Problem("rematch-unavailable", "the rematch was declined")
    rematch = db.session.get(Game, row.rematch_id)
    second = next(s for s in rematch.seats if s.seat == 1)
    if second.joined_at is not None:
        raise Problem("rematch-unavailable", "the rematch was accepted already")
    code = new_token()
    second.invite_hash = hash_secret(code)  # the offer's own invite (if shared) gives way to this one
    first_dealer = 1 if game.first_dealer == row.offered_by else 0
    return rematch.id, code, _name(game, seat), first_dealer


def _available(game: Game) -> bool:
    return game.status == store.FINISHED and len(game.seats) == 2 and len(feed.bound_seats(game.id)) < 2


def _check(game: Game) -> None:
    if not _available(game):
        raise Problem("rematch-unavailable", "a seat rematch is offered when a two-seat match is over and its "
                                             "seats are not both players' (between players: POST /games/{game_id}/rematch)")


def _name(game: Game, seat: int) -> str:
    return next(s.name for s in game.seats if s.seat == seat) or f"seat {seat}"
