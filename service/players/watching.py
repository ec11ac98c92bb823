"""Watch links: a read-only key to what anyone may see of a game, never a hand in play.

The public view is built from a whitelist of the engine's view (what the table shows: the discard
pile, counts, scores, finished hands' records), not by removing the private parts, so that a field
the engine adds later stays hidden until someone decides it is public."""
from __future__ import annotations

import base64
import hashlib
import hmac

from sqlalchemy import bindparam, func, select

from ..core.database import begin_read_only
from ..core.errors import Problem
from ..core.extensions import db
from ..core.hooks import Registry
from ..core.settings import register, setting
from ..core.tokens import hash_secret, new_token
from ..games import store, views
from ..games.models import Game, utcnow
from .models import Player, PlayerSeat, WatchLink

PUBLIC_KEYS = ("phase", "to_move", "dealer", "hand_number", "discard_pile", "stock_count", "knock_limit",
               "multiplier", "scores", "last_hand", "result", "rules")
ENVELOPE_KEYS = ("kind", "game_id", "version", "status", "players", "deadline", "deal_commitment", "revealed_deals")
# A table of three or four: what every seat sees alike (not its own board, side or moves).
TABLE_KEYS = ("format", "seats", "sides", "to_move", "needs_deal", "on_clock", "scores", "last_hand", "result",
              "rules", "sitting_out", "round", "team_size")
BOARD_KEYS = ("board", "seats", "phase", "to_move", "dealer", "hand_number", "card_counts", "discard_pile",
              "stock_count", "knock_limit", "deal", "deal_commitment", "deadline")


register({"WATCH_LINKS_PER_GAME": 10}, {"WATCH_LINKS_PER_GAME": int})


def invalid_watch_key() -> Problem:
    return Problem("invalid-watch-key", "missing, revoked or invalid watch key for this game")


def create(game: Game, seat: int) -> tuple[WatchLink, str]:
    """A new link, under the game's lock (the caller's): at most WATCH_LINKS_PER_GAME live at once."""
    most = setting("WATCH_LINKS_PER_GAME")
    held = db.session.execute(select(func.count()).select_from(WatchLink).where(WatchLink.game_id == game.id)).scalar()
    if held >= most:
        raise Problem("too-many-watch-links", f"this game has {held} watch links, the most allowed is {most}: "
                                              "revoke one (DELETE /games/{id}/watch-links/{link_id}) first")
    key = new_token()
    link = WatchLink(game_id=game.id, key_hash=hash_secret(key), created_by_seat=seat, created_at=utcnow())
    db.session.add(link)
    db.session.flush()
    return link, key


def listing(game: Game) -> list[dict]:
    links = db.session.execute(select(WatchLink).where(WatchLink.game_id == game.id)
                               .order_by(WatchLink.id)).scalars()
    return [describe(link) for link in links]


def describe(link: WatchLink) -> dict:
    return {"id": str(link.id), "created_by_seat": link.created_by_seat, "created_at": link.created_at.isoformat()}


def revoke(game: Game, link_id: str) -> None:
    link = db.session.get(WatchLink, int(link_id)) if link_id.isascii() and link_id.isdigit() \
        and len(link_id) <= 12 else None
    if link is None or link.game_id != game.id:
        raise Problem("not-found", "this game has no watch link with that id")
    db.session.delete(link)


def public_key(secret: str, game_id: str) -> str:
    """The watch key a profile shows for a game of a player whose games are public: HMAC-SHA256 of
    the game id under the player's secret, so no key is stored and none outlives the setting."""
    digest = hmac.new(secret.encode(), game_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


# The secrets of the game's players whose games are public (an erased or suspended one's open nothing).
_PUBLIC_SECRETS = (select(Player.public_games_secret).join(PlayerSeat, PlayerSeat.player_id == Player.id)
                   .where(PlayerSeat.game_id == bindparam("game"), Player.public_games_secret.is_not(None),
                          Player.erased_at.is_(None), Player.suspended_at.is_(None)))


# Features above players whose games are public by nature (a tournament's: its crosstable links
# every replay) register hook(game_id) -> the secrets whose public_key opens the game.
public_secrets = Registry("hook(game_id) -> secrets whose public_key(secret, game_id) opens the game to watchers")


def _opens_publicly(game_id: str, key: str) -> bool:
    secrets = [*db.session.execute(_PUBLIC_SECRETS, {"game": game_id}).scalars(),
               *(secret for hook in public_secrets() for secret in hook(game_id))]
    sent = key.encode("utf-8", "replace")  # as bytes: compare_digest refuses str that is not ASCII
    return any(hmac.compare_digest(public_key(secret, game_id).encode(), sent) for secret in secrets)


_GAME_BY_KEY = select(Game).where(Game.id == bindparam("game"), Game.id.in_(
    select(WatchLink.game_id).where(WatchLink.key_hash == bindparam("key_hash"))))


def game_by_key(game_id: str, key: str) -> Game | None:
    """The game a watch key opens (a watch link's, or the public key of a player's game), or None."""
    if not store.could_be_game_id(game_id):
        return None
    game = db.session.execute(_GAME_BY_KEY, {"game": game_id, "key_hash": hash_secret(key)}).scalar()
    if game is None and _opens_publicly(game_id, key):
        game = db.session.get(Game, game_id)
    return game


def public_view(game_id: str, key: str) -> dict:
    if not store.could_be_game_id(game_id):
        raise invalid_watch_key()
    begin_read_only()
    game = game_by_key(game_id, key)
    if game is None:
        raise invalid_watch_key()
    match = store.load_match(game)
    seat_view = views.views_for(game, match, seats=(0,))[0]
    if len(game.seats) > 2:
        return public_table(seat_view)
    public = {name: seat_view.get(name) for name in (*ENVELOPE_KEYS, *PUBLIC_KEYS)}
    public["card_counts"] = [len(hand) for hand in match.hands] if match is not None else [0, 0]
    if "table" in seat_view:  # Mahjong gin's melds on the table are everyone's to see
        public["table"] = seat_view["table"]
    return public


def public_table(seat_view: dict) -> dict:
    """A table's public view from a seat's, key by key: each board's public part, never `my_board`."""
    public = {name: seat_view[name] for name in (*ENVELOPE_KEYS, *TABLE_KEYS) if name in seat_view}
    public["boards"] = [None if board is None else {name: board[name] for name in BOARD_KEYS}
                        for board in seat_view["boards"]]
    return public
