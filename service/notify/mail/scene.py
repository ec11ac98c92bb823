"""One seat's picture of one game at one version (`Scene`), from which every mail about it is
written, and the small helpers all mail text shares (names, the game's tag, cards, durations)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass
class Scene:
    """One seat's picture of one game at one version: everything a mail about it may show."""

    game_id: str
    version: int
    seat: int
    names: dict[int, str]
    view: dict  # match.view(seat)
    now: datetime
    events: list[dict] = field(default_factory=list)  # redacted for `seat`, oldest first
    deadline: datetime | None = None  # of the seat to move
    reply_address: str | None = None
    link: str | None = None
    moved: bool = True  # the seat has made a move in this game already
    said: list[str] = field(default_factory=list)  # "Bob wrote: ..." lines: the messages since the last mail
    orders: str | None = None  # the seat's standing orders in words (issue 39), None when none stand
    orders_played: list[str] = field(default_factory=list)  # what they played in this change, and why

    @property
    def me(self) -> str:
        return name_of(self.names, self.seat)

    @property
    def them(self) -> str:
        return name_of(self.names, 1 - self.seat)

    def who(self, seat) -> str:
        if seat is None:
            return "nobody"
        return "you" if seat == self.seat else name_of(self.names, seat)

    @property
    def is_table(self) -> bool:
        """A game of three or four seats (its view is a table's: table_mail.py writes its text)."""
        return "format" in self.view

    @property
    def my_turn(self) -> bool:
        to_move = self.view.get("to_move")  # at a table: every seat to move, one per board
        return self.seat in to_move if isinstance(to_move, list) else to_move == self.seat

    @property
    def over(self) -> bool:
        return self.view.get("phase") == "match_over" or (self.is_table and self.view.get("result") is not None)


def name_of(names: dict[int, str], seat: int) -> str:
    return names.get(seat) or ("the opponent" if seat == 1 else "the host")


def tag(scene: Scene) -> str:
    return game_tag(scene.game_id)


def game_tag(game_id: str) -> str:
    return f"[Gin {game_id[:8]}]"


def game_subject(game_id: str) -> str:
    """The one subject of every mail about one game, from the invitation or the first mail to the
    match's end: what changes goes in the body, so clients that thread by subject keep the game in
    one conversation. Names stay out: a seat's is unknown until it joins (the first mails would say
    "v the opponent" and later ones "v Bob", splitting the thread), and an inviter's is a stranger's words."""
    return f"{game_tag(game_id)} A game of Gin Rummy by mail"


def cards(items) -> str:
    return " ".join(items) if items else "-"


def duration(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} day{'s' * (days != 1)} {hours} h"
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"
