"""Named errors of the engine, each with a stable machine code."""
from __future__ import annotations

# The HTTP status a service should answer with for each code (the engine itself knows no HTTP;
# this table keeps the mapping next to the codes so the two cannot drift apart).
STATUS_BY_CODE = {
    "not-your-turn": 409,
    "game-over": 409,
    "invalid-action": 400,
    "invalid-seat": 400,
    "invalid-plan": 400,  # a plan's words or JSON unreadable (plans.py); ambiguous-plan is a 422
    "invalid-orders": 400,
}


class IllegalAction(Exception):
    """An action the rules do not allow now. `code` is stable; `message` names card and phase."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def status(self) -> int:
        return STATUS_BY_CODE.get(self.code, 422)

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"


class InvalidRules(ValueError):
    """An unknown option or preset, or a value out of range."""

    code = "invalid-option"

    def __init__(self, option: str, message: str):
        super().__init__(message)
        self.option = option
        self.message = message


def check_seat(seat, seats: int = 2) -> int:
    """`seat` if it is a seat of `seats` players: an int 0..seats-1. A bool is refused although
    Python counts it an int: True would otherwise play as seat 1."""
    if type(seat) is not int or not 0 <= seat < seats:
        raise IllegalAction("invalid-seat", f"no seat {seat!r}: a seat is a whole number from 0 to {seats - 1}")
    return seat
