"""A seat's place at a table of 3 to 8, read from its table view: its own board, its opponent and
partners, the sides, who sits out; and seats and sides in the reader's words (table_mail.py)."""
from __future__ import annotations

from .scene import Scene, name_of


def rotation(scene: Scene) -> bool:
    return scene.view.get("format") == "rotation"


def own_board(scene: Scene) -> dict | None:
    return scene.view.get("my_board")


def board_view(scene: Scene) -> dict:
    """The seat's own board as a two-player view ({} while it plays on no board)."""
    return (own_board(scene) or {}).get("view") or {}


def playing(scene: Scene) -> bool:
    return board_view(scene).get("phase") not in (None, "awaiting_deal", "match_over")


def opponent(scene: Scene) -> int | None:
    board = own_board(scene)
    return None if board is None else board["seats"][1 - board["local_seat"]]


def own_deal(scene: Scene) -> int | None:
    board = own_board(scene)
    public = (scene.view.get("boards") or [])[board["board"]] if board else None
    return public.get("deal") if public else None


def partners(scene: Scene) -> list[int]:
    return list(scene.view.get("partners") or [])


def name(scene: Scene, seat: int) -> str:
    return name_of(scene.names, seat)


def pair(scene: Scene, seats) -> str:
    """Two seats as "you v Bob" (the reader first when one of them)."""
    a, b = seats
    if b == scene.seat:
        a, b = b, a
    return f"{scene.who(a)} v {scene.who(b)}"


def team_size(scene: Scene) -> int:
    return scene.view.get("team_size") or 2


def side_name(scene: Scene, side: int, you: bool = False) -> str:
    seats = (scene.view.get("sides") or [])[side]
    words = [scene.who(s) if you else name(scene, s) for s in seats]
    if you and "you" in words:
        words.remove("you")
        words.insert(0, "you")
    return " and ".join(words)


def sitting_out(scene: Scene) -> int | None:
    return scene.view.get("sitting_out") if rotation(scene) else None
