"""A game's mail text, whatever its size: the subject and body of a seat's mail, a refusal in the
reader's words, the daily digest. A table's (three or more seats) is table_mail.py's, a two-seat
game's compose.py's; the rest of notify asks here."""
from __future__ import annotations

from . import compose, table_mail
from .scene import Scene, game_subject, game_tag


def matchup(names: dict[int, str], seat: int) -> str:
    """Who plays whom, the reader first ("Ann v Bob"): the subject without the game's tag (a push's title)."""
    return (table_mail if len(names) > 2 else compose).matchup(names, seat)


def subject(scene: Scene, kind: str = "") -> str:
    """Every mail of a game has this subject (scene.game_subject); `kind` changes the body."""
    return game_subject(scene.game_id)


def body(scene: Scene, kind: str = "update", answer: list[str] | None = None) -> str:
    """The plain-text body. `answer`: lines reporting on a reply's commands, shown first; then the
    messages written since the seat's last mail (scene.said), each on its own line."""
    lines = (answer or []) + ([""] if answer and scene.said else []) + scene.said
    if scene.orders_played:  # what the seat's own orders played for it: only ever in its own mails
        lines += ([""] if lines else []) + [f"Your standing orders played: {played}." for played in scene.orders_played]
    if scene.orders:
        lines += ([""] if lines and not scene.orders_played else []) + [f"Your standing orders: {scene.orders}."]
    return (table_mail if scene.is_table else compose).body(scene, kind, lines or None)


def refusal(text: str, scene: Scene) -> str:
    """An engine refusal in the reader's words: names for seats, the phase said as a phase."""
    return (table_mail if scene.is_table else compose).refusal(text, scene)


def digest_body(scenes: list[Scene], unsubscribe: str | None) -> str:
    out = [f"Your Gin Rummy games today ({len(scenes)}):"]
    for scene in scenes:
        # Each game headed by its tag and who plays whom: the subject alone would not tell them apart.
        out += ["", "=" * 60, f"{game_tag(scene.game_id)} {matchup(scene.names, scene.seat)}", body(scene).rstrip()]
    if unsubscribe:
        out += ["", "-- ", f"To stop this digest, send a mail to {unsubscribe}."]
    return "\n".join(out) + "\n"
