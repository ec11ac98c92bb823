"""Who hears what at a table of three or four seats (service/games/table_game.py), and when a reply
for one of its seats is stale.

A two-seat game mails the seat whose turn began, both seats when a hand ends or the match does.
A table follows the same rule per seat, with the seat's own board in place of "the game":

- the match is over: every seat (match_end);
- the hand the seat played ended (a knock, gin or a void stock): that seat (hand_end); in a
  rotation every hand's end changes who plays whom, so all three seats hear it (the one who sat
  out plays next, the loser sits out);
- the seat's turn began: it is to move on its board and its board opponent just moved, or its
  board was dealt (turn); several seats can be to move at once, one per board;
- its board was dealt a new hand and the opponent moves first (dealt): a partnership's round
  begins for the seats whose hand ended earlier in the round;
- anything else (a move on another board, the opponent's draw before the discard): no mail, as a
  two-seat player hears nothing until it is their move. The seat sitting out a hand in a
  rotation therefore hears nothing of the moves of that hand, only how it ended.

Board events name their board and its two table seats (`seats`); their own `seat`, `dealer` and
`cards` keys are the board's local seats 0 and 1, mapped back with `local_to_table`.
"""
from __future__ import annotations

from sqlalchemy import select

from ..core.extensions import db
from ..games import table_clocks
from ..games.models import Event
from ..games.table_game import TableGame


def is_table(match) -> bool:
    return isinstance(match, TableGame)  # (a Mahjong gin Match has a `table` of its own: melds)


def local_to_table(event: dict) -> dict:
    """A board event with its local seats (seat, dealer, the keys of `cards`) as table seats;
    any other event unchanged."""
    seats = event.get("seats")
    if event.get("board") is None or not seats:
        return event
    shown = dict(event)
    for key in ("seat", "dealer"):
        if isinstance(shown.get(key), int) and shown[key] in (0, 1):
            shown[key] = seats[shown[key]]
    if isinstance(shown.get("cards"), dict):
        shown["cards"] = {str(seats[int(k)]): v for k, v in shown["cards"].items()}
    return shown


def own_move(event: dict, seat: int) -> bool:
    """Whether a stored table event is a move `seat` made itself (a timeout is claimed by another)."""
    if event.get("type") == "timeout" or event.get("seat") is None:
        return False
    return local_to_table(event).get("seat") == seat


def hand_ended_for(event: dict, seat: int, rotation: bool) -> bool:
    if event.get("type") == "table_hand_end":
        return rotation or seat in ((event.get("record") or {}).get("seats") or ())
    return event.get("type") == "hand_void" and seat in (event.get("seats") or ())


def reasons(match, actor: int | None, events: list[dict]) -> dict[int, str | None]:
    """Each seat's reason for a mail (and a webhook) after a change, or None (module's rules)."""
    rotation = match.table.format == "rotation"
    out: dict[int, str | None] = {}
    for seat in range(match.seats):
        dealt = any(e.get("type") == "deal" and seat in (e.get("seats") or ()) for e in events)
        if match.is_over:
            out[seat] = "match_end"
        elif actor is None:
            out[seat] = "turn" if seat in match.table.to_move else "start"
        elif any(hand_ended_for(e, seat, rotation) for e in events):
            out[seat] = "hand_end"
        elif table_clocks.turn_began(match, seat, actor, events):
            out[seat] = "turn"
        elif dealt:
            out[seat] = "dealt"
        else:
            out[seat] = None
    return out


# -- reading a table's stored events -------------------------------------------------------------

def last_own_seq(game_id: str, seat: int) -> int:
    """The seq of `seat`'s own last move. The events' seat column holds a board's local seat, so
    the payloads say whose move it was; newest first, stopping at the first found."""
    rows = db.session.execute(select(Event.seq, Event.payload).where(
        Event.game_id == game_id, Event.seat.is_not(None), Event.type != "timeout")
        .order_by(Event.seq.desc()).execution_options(yield_per=100))
    for seq, payload in rows:
        if own_move(payload, seat):
            return seq
    return 0


def concerns(event: dict, seat: int) -> bool:
    """Whether an event changes what a reply for `seat` would play against: a move or deal on its
    own board, a hand's end it played, or anything of the whole table (a new pairing or round, a
    resignation, the end). Another board's moves leave the seat's board as it was."""
    if event.get("board") is not None:
        return seat in (event.get("seats") or ())
    if event.get("type") == "table_hand_end":
        return seat in ((event.get("record") or {}).get("seats") or ())
    return True


def moved_since(game_id: str, seat: int, event_seq: int) -> bool:
    """A reply for `seat` issued when the game's last event was `event_seq` is stale when an event
    since concerns that seat (a move on its own board, its hand's end, a new round...)."""
    payloads = db.session.scalars(select(Event.payload).where(Event.game_id == game_id, Event.seq > event_seq))
    return any(concerns(payload, seat) for payload in payloads)
