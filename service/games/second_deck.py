"""Oklahoma's knock card from a second deck (rules knock_card: second_deck), dealt as fairly as the
main deck and as checkable.

000: "a second deck of cards will be used to determine the knock value of a hand". One deck is
shuffled for the game and turned a card a hand: hand h shows card (h - 1) mod 52 of deck
(h - 1) // 52 + 1 (a misdealt hand turns one too). Each deck is committed to when first used,
with the main deck's recipe (deals.commitment: sha256 of salt ":" the 52 cards in the order
turned), and its commitment is in every view from then on (`knock_deck_commitment`). Its order
is revealed only when no card of it is still to come: when the match is over, or when the game
moves on to the next deck; before that it would tell the players every knock card to come.
Revealed decks are in the view as `revealed_knock_decks`, so anyone can check the hash and that
each hand's knock card was the next card of the deck.

Statements on the session's connection only (Core), so the move path (service/games/moves.py) and the
store's ORM path use the same code.
"""
from __future__ import annotations

from sqlalchemy import bindparam, select, update

from ..core.extensions import db
from . import deals
from .models import KnockDeck, utcnow

_decks = KnockDeck.__table__
DECK_SIZE = 52
_DECK = select(_decks.c.deck).where(_decks.c.game_id == bindparam("game"), _decks.c.number == bindparam("number"))
_REVEAL_UP_TO = (update(_decks).where(_decks.c.game_id == bindparam("game"), _decks.c.number <= bindparam("up_to"),
                                      _decks.c.revealed.is_(False)).values(revealed=True))
_ALL = (select(_decks.c.number, _decks.c.deck, _decks.c.salt, _decks.c.commitment, _decks.c.revealed)
        .where(_decks.c.game_id == bindparam("game")).order_by(_decks.c.number))


def uses_second_deck(rules) -> bool:
    """`rules`: a Rules, or a game's stored rules dict."""
    knock_card = rules.get("knock_card") if isinstance(rules, dict) else rules.knock_card
    return knock_card == "second_deck"


def knock_card(game_id: str, hand: int) -> str:
    """The knock card of hand `hand` (1-based): the next card of the game's second deck, shuffled
    and committed to now if the hand is the first of a deck (the deck before it then revealed)."""
    number, index = (hand - 1) // DECK_SIZE + 1, (hand - 1) % DECK_SIZE
    connection = db.session.connection()
    deck = connection.execute(_DECK, {"game": game_id, "number": number}).scalar()
    if deck is None:
        deck, salt = deals.shuffled_deck(), deals.new_salt()
        connection.execute(_decks.insert(), {"game_id": game_id, "number": number, "deck": deck, "salt": salt,
                                             "commitment": deals.commitment(salt, deck), "revealed": False,
                                             "created_at": utcnow()})
        if number > 1:  # every card of the decks before is turned: nothing left to hide
            connection.execute(_REVEAL_UP_TO, {"game": game_id, "up_to": number - 1})
    return deck[index]


def reveal_all(game_id: str) -> None:
    """The match is over: no knock card is to come."""
    db.session.connection().execute(_REVEAL_UP_TO, {"game": game_id, "up_to": 2**31 - 1})


def view_part(game_id: str) -> dict:
    """What every seat's view of a second-deck game adds to the envelope: the commitment of the
    deck in use, and the decks revealed so far."""
    rows = db.session.connection().execute(_ALL, {"game": game_id}).all()
    current = next((row for row in reversed(rows) if not row.revealed), None)
    return {
        "knock_deck_commitment": current.commitment if current else None,
        "revealed_knock_decks": [{"number": row.number, "deck": list(row.deck), "salt": row.salt,
                                  "commitment": row.commitment} for row in rows if row.revealed],
    }
