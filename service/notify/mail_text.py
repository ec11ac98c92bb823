"""A game's mail text, whatever its size: the subject and body of a seat's mail, a refusal in the
reader's words, the daily digest. A table's (three or more seats) is table_mail.py's, a two-seat
game's compose.py's; the rest of notify asks here."""
from __future__ import annotations

from . import compose, table_mail
from .scene import Scene


def game_subject(game_id: str, names: dict[int, str], seat: int) -> str:
    """The one subject of every mail about one game to one seat: what changes goes in the body,
    so clients that thread by subject keep the game in one conversation."""
    if len(names) > 2:
        return table_mail.subject(game_id, names, seat)
    return compose.game_subject(game_id, names, seat)


def subject(scene: Scene, kind: str = "") -> str:
    """Every mail of a game to a seat has this subject (game_subject); `kind` changes the body."""
    return game_subject(scene.game_id, scene.names, scene.seat)


def body(scene: Scene, kind: str = "update", answer: list[str] | None = None) -> str:
    """The plain-text body. `answer`: lines reporting on a reply's commands, shown first; then the
    messages written since the seat's last mail (scene.said), each on its own line."""
    lines = (answer or []) + ([""] if answer and scene.said else []) + scene.said
    return (table_mail if scene.is_table else compose).body(scene, kind, lines or None)


def refusal(text: str, scene: Scene) -> str:
    """An engine refusal in the reader's words: names for seats, the phase said as a phase."""
    return (table_mail if scene.is_table else compose).refusal(text, scene)


def digest_body(scenes: list[Scene], unsubscribe: str | None) -> str:
    out = [f"Your Gin Rummy games today ({len(scenes)}):"]
    for scene in scenes:
        out += ["", "=" * 60, subject(scene), body(scene).rstrip()]
    if unsubscribe:
        out += ["", "-- ", f"To stop this digest, send a mail to {unsubscribe}."]
    return "\n".join(out) + "\n"
