"""Cards and their text notation: rank (A 2 3 4 5 6 7 8 9 T J Q K) then suit (C D H S)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Ordered by suit (C, D, H, S), then rank, ace low."""

    rank: int  # 1 (ace) .. 13 (king)
    suit: str  # one of "CDHS"
    # Precomputed for the meld search, which runs on every request.
    suit_index: int = field(init=False, repr=False, compare=False)
    bit: int = field(init=False, repr=False, compare=False)
    points: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not 1 <= self.rank <= 13 or self.suit not in SUITS:
            raise ValueError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")
        object.__setattr__(self, "suit_index", SUITS.index(self.suit))
        object.__setattr__(self, "bit", 1 << (self.rank - 1))
        object.__setattr__(self, "points", min(self.rank, 10))

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read `TD`, `10d`, `as`: rank then suit, any case; the bad text is named on error."""
        if not isinstance(text, str):
            raise ValueError(f"not a card: {text!r}")
        cleaned = text.strip().upper()
        if cleaned.startswith("10"):
            cleaned = "T" + cleaned[2:]
        card = _BY_TEXT.get(cleaned)
        if card is None:
            raise ValueError(f"not a card: {text!r} (write rank then suit, like 7H, TD or 10D)")
        return card

    @property
    def index(self) -> int:
        """0..51, suit-major; a stable compact key."""
        return self.suit_index * 13 + self.rank - 1

    @property
    def symbol(self) -> str:
        return RANKS[self.rank - 1] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __lt__(self, other: "Card") -> bool:
        return (self.suit_index, self.rank) < (other.suit_index, other.rank)

    def __le__(self, other: "Card") -> bool:
        return (self.suit_index, self.rank) <= (other.suit_index, other.rank)

    def __gt__(self, other: "Card") -> bool:
        return other < self

    def __ge__(self, other: "Card") -> bool:
        return other <= self


_ALL = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
_BY_TEXT = {str(card): card for card in _ALL}
_BY_INDEX = _ALL


def full_deck() -> list[Card]:
    """The 52 cards in a fixed order (clubs A..K, diamonds, hearts, spades). Shuffling is the caller's."""
    return list(_ALL)


def card_from_index(index: int) -> Card:
    return _BY_INDEX[index]


def parse_cards(cards: str | Iterable[str | Card]) -> list[Card]:
    """Parse "AS 2S 3S" (spaces or commas) or a list of texts/cards."""
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    known = _BY_TEXT.get  # the canonical text ("7H"), as every stored state writes it: one lookup
    return [c if isinstance(c, Card) else (known(c) if isinstance(c, str) else None) or Card.parse(c)
            for c in cards]
