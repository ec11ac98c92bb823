"""Issue 38, item 5: the house bot claims on time each game whose opponent let the deadline pass,
so a player who never moves cannot keep the bot's games for ever (the server gives each a deadline)."""
from __future__ import annotations

from datetime import datetime, timezone

from gin_client.bots.account import AccountBot

NOW = datetime(2031, 1, 1, 12, tzinfo=timezone.utc)


class Answer:
    def __init__(self, status: int, body: dict):
        self.status_code, self.body = status, body

    def json(self) -> dict:
        return self.body


def test_overdue_games_are_claimed_and_no_others():
    games = [
        {"game_id": "overdue-their-turn", "status": "active", "your_turn": False, "deadline": "2031-01-01T11:00:00+00:00"},
        {"game_id": "overdue-my-turn", "status": "active", "your_turn": True, "deadline": "2031-01-01T11:00:00+00:00"},
        {"game_id": "not-yet", "status": "active", "your_turn": False, "deadline": "2031-01-01T13:00:00+00:00"},
        {"game_id": "no-clock", "status": "active", "your_turn": False, "deadline": None},
        {"game_id": "over", "status": "finished", "your_turn": False, "deadline": "2031-01-01T10:00:00+00:00"},
    ]
    calls = []
    bot = AccountBot("http://gin.invalid", "token")

    def call(method, path, **kwargs):
        calls.append((method, path, kwargs.get("json")))
        return Answer(200, {"games": games}) if method == "GET" else Answer(200, {"status": "finished"})
    bot.call = call
    assert bot.claim_overdue(NOW) == ["overdue-their-turn"]
    assert calls[1:] == [("POST", "/games/overdue-their-turn/actions", {"type": "claim_timeout"})]


def test_a_deadline_without_an_offset_is_read_as_utc():
    """The service on SQLite answers deadlines without an offset (`2031-01-01T11:00:00`): they are UTC,
    and one passed is claimed (before: comparing it with an aware now raised, and the bot's
    deadline thread died on its first look)."""
    games = [{"game_id": "naive-overdue", "status": "active", "your_turn": False, "deadline": "2031-01-01T11:00:00"},
             {"game_id": "naive-not-yet", "status": "active", "your_turn": False, "deadline": "2031-01-01T12:30:00"}]
    bot = AccountBot("http://gin.invalid", "token")
    bot.call = lambda method, path, **kwargs: Answer(200, {"games": games} if method == "GET" else {})
    assert bot.claim_overdue(NOW) == ["naive-overdue"]
