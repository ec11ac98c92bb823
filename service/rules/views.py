"""Per-seat views and event redaction: nothing a seat may not see ever leaves here."""
from __future__ import annotations

from .errors import IllegalAction, check_seat
from .judgments import throw_key
from .plain import plain_copy


def seat_view(match, seat: int, shared: dict | None = None) -> dict:
    """What `seat` may see. `shared`: shared_parts(match), when several seats' views are made at
    once (Match.views): what every seat sees alike is then copied once, not once per seat."""
    check_seat(seat)
    if shared is None:
        shared = shared_parts(match)
    opponent = 1 - seat
    hand = sorted(match.hands[seat])
    return {
        "seat": seat,
        "phase": match.phase,
        "to_move": match.to_move,
        "dealer": match.dealer,
        "hand_number": match.hand_number,
        "hand": [str(c) for c in hand],
        "arrangement": _arrangement(match, hand) if hand else None,
        "opponent": {"seat": opponent, "card_count": len(match.hands[opponent]),
                     "known_cards": [str(c) for c in sorted(match.known[opponent])]},
        "discard_pile": shared["discard_pile"],
        "stock_count": len(match.stock),
        "knock_limit": match.knock_limit,
        **({"knock_card": str(match.knock_card)} if match.knock_card else {}),
        "multiplier": match.multiplier,
        "legal_actions": [a.to_dict() for a in match.legal_actions(seat)],
        "can_resign": not match.is_over,
        "scores": shared["scores"],
        "last_hand": shared["last_hand"],
        "result": shared["result"],
        "rules": shared["rules"],
        # Under rules that cut for the first dealer, every try of the cut, for both players to see.
        **({"cuts": plain_copy(match.cuts)} if match.rules.first_dealer_by != "random" else {}),
    }


def shared_parts(match) -> dict:
    """The parts of a view every seat sees alike, copied from the match (a view never shares
    the match's own lists)."""
    return {
        "discard_pile": [str(c) for c in match.discard_pile],
        "scores": {"games": plain_copy(match.games), "hands_won": list(match.wins),
                   "sheet": plain_copy(match.sheet)},
        "last_hand": plain_copy(match.last_hand),
        "result": plain_copy(match.result),
        "rules": match.rules.to_dict(),
    }


def _arrangement(match, hand) -> dict:
    scheme = match.scheme
    view = scheme.best(hand).to_dict()
    if len(hand) == 11:
        # Suggest the discard that leaves the least deadwood, among the cards one may discard (not
        # one taken from the pile this turn: Mahjong gin's several too), with the tie-break of a
        # plan's `discard worst` (judgments.py), so the two name the same card.
        taken = {match.taken, *getattr(match, "taken_cards", ())}
        points, card = min(((points, card) for points, card in zip(scheme.deadwood_after_discards(hand), hand)
                            if card not in taken), key=lambda pair: throw_key(scheme, pair[1], pair[0]))
        view["best_discard"] = str(card)
        view["deadwood_after_discard"] = points
    return view


def redact_event(event: dict, viewer_seat: int, reveal_all: bool = False) -> dict:
    """The event as `viewer_seat` may see it: its own private part merged in, the rest dropped;
    with reveal_all (the hand is over and its deck revealed) every private part is shown.
    `viewer_seat` -1 is a viewer with no part (a table seat not on the event's board)."""
    if type(viewer_seat) is not int:  # str(True) names no part, but a bool is no seat all the same
        raise IllegalAction("invalid-seat", f"no seat {viewer_seat!r}: a seat is a whole number")
    public = {k: plain_copy(v) for k, v in event.items() if k != "private"}
    private = event.get("private") or {}
    for seat_key, part in private.items():
        if reveal_all or seat_key == str(viewer_seat):
            _merge(public, part)
    return public


def _merge(target: dict, part: dict) -> None:
    for key, value in part.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            _merge(target[key], value)
        else:
            target[key] = plain_copy(value)
