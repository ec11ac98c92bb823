"""A finished match, move by move (issue 24; a table's in table_replay.py): replayed through the
engine from its first dealer, its stored decks and the action stored on each event, so the replay is what the rules made
of those moves, never a second account of them. Offered once the match is over (before, it would
show cards nobody may see yet); `replay` checks that it ends in the state the game stored."""
from __future__ import annotations

from sqlalchemy import select

from ..core.errors import Problem
from ..core.extensions import db
from ..rules import Match, Rules, action_from_dict
from . import second_deck
from .models import Deal, Event, Game
from .store import is_table_state
from .table_game import in_the_open
from .table_replay import replay_table
from .views import player_entry


def replay(game: Game) -> dict:
    """Every step of the match: each deal, then each move, with both hands as they stood after it."""
    if game.status != "finished":
        raise Problem("match-not-over", "a match is replayed once it is over: until then the replay would "
                                        "show cards nobody may see yet")
    decks = dict(db.session.execute(select(Deal.hand, Deal.deck).where(Deal.game_id == game.id)).all())
    rows = db.session.execute(select(Event.seq, Event.seat, Event.payload, Event.action)
                              .where(Event.game_id == game.id).order_by(Event.seq)).all()
    # Named as the views name them: the house bot's seat also says its level ("House (level 3)").
    common = {"game_id": game.id, "rules": game.rules,
              "players": [player_entry(seat.seat, seat.name, seat.bot_level) for seat in game.seats]}
    if is_table_state(game.state):
        return {**common, **replay_table(game, decks, rows)}
    cuts = [row.payload["cards"] for row in rows if row.payload.get("type") == "cut"]
    match = Match.new(Rules.from_dict(game.rules), None if cuts else game.first_dealer)
    steps: list[dict] = [_step(match, None, None, match.cut(cut["0"], cut["1"])) for cut in cuts]
    for row in rows:
        if row.action is None:
            continue  # made with the action before it (a deal, a hand's end) or by the join (a cut)
        _deal_if_due(game, match, decks, steps)
        kind = row.action.get("type")
        if kind == "claim_timeout":
            events = match.forfeit(row.payload.get("seat", match.to_move), "timeout")  # the seat that lost
        else:
            action = action_from_dict(row.action)
            events = match.forfeit(row.seat, "resign") if kind == "resign" else match.apply(row.seat, action)
        steps.append(_step(match, row.seat, row.action, events))
    _deal_if_due(game, match, decks, steps)
    if match.to_dict() != game.state:  # the engine and the stored game must agree, or this is no replay
        raise Problem("replay-not-available", "this game's stored moves do not replay to its end")
    return {"kind": "game", **common, "first_dealer": game.first_dealer, "steps": steps, "result": match.result}


def _deal_if_due(game: Game, match: Match, decks: dict, steps: list[dict]) -> None:
    while match.needs_deal and not match.is_over:
        hand = match.hand_number + 1
        knock = second_deck.knock_card(game.id, hand) if second_deck.uses_second_deck(game.rules) else None
        steps.append(_step(match, None, None, match.deal(decks[hand], knock)))


def _step(match: Match, seat: int | None, action: dict | None, events: list[dict]) -> dict:
    """Where the match stood after one deal or move: the events it made (their private parts are
    everyone's now), both hands, the pile, the stock's size and the sheet so far."""
    return {"hand": match.hand_number, "seat": seat, "action": action,
            "events": [in_the_open(event) for event in events],
            "hands": {str(s): [str(card) for card in match.hands[s]] for s in (0, 1)},
            "discard_pile": [str(card) for card in match.discard_pile], "stock_count": len(match.stock),
            "sheet": list(match.sheet)}
