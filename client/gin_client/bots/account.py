"""The reference bot in account mode: one player token, one stream, every game at once.

    gin-bot --server http://127.0.0.1:8000 --token-file bot.token --register RoboBot \\
        --presets standard,oklahoma --max-move-hours 72 --max-games 100 --thinkers 2

It listens on GET /me/stream (resuming with Last-Event-ID after a dropped connection or a server
restart), accepts the challenges that fit its settings (declining the others with a reason code),
accepts rematches, and plays every `your_turn` at the level the challenger chose (levels.py: the
level is on the bot's seat in the view's `players`; 3, the reference bot's reference.decide, when
none is), logging one line per decision with its level, and one line per finished match with what
it did to its rating. Level 5 thinks --think-seconds per decision; the decisions of different games
are made at once by a pool of --thinkers processes (thinking.py), first come first served, while
the stream goes on being read: --max-games (100) is sized for it in docs/operations.md. With --tournaments it also
enters the open tournaments that admit bots and fit its settings (looking every minute), and plays
their games like any other. The `gin-bot` command (`python -m gin_client.bots.account`), installed
with the client (`pip install ./client`: needs only `requests`). With --register NAME and no token
in --token-file yet, it makes its own bot account first and keeps the token in that file (the
Procfile's `bot:` line runs the house bot this way).
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
import threading
import time
import uuid
from datetime import datetime, timezone

import requests
import urllib3  # installed with requests: a stream read raw raises its errors

from .. import api as http
from . import levels, model, reference
from .thinking import ThinkingPool, decide_move

log = logging.getLogger("gin.account_bot")
DEFAULT_MAX_GAMES = 100  # games held for all players together; docs/operations.md sizes it


class AccountBot:
    def __init__(self, server: str, token: str, presets: set[str] | None = None, max_move_hours: int | None = None,
                 max_games: int = DEFAULT_MAX_GAMES, take_open: bool = False, knock_at: int | None = None,
                 think_seconds: float = levels.DEFAULT_THINK_SECONDS, thinkers: int | None = None):
        self.server, self.presets, self.max_move_hours = server.rstrip("/"), presets, max_move_hours
        self.tournaments_seen: set[str] = set()  # open tournaments considered once each (--tournaments)
        self.max_games, self.take_open, self.knock_at = max_games, take_open, knock_at
        self.think_seconds = think_seconds
        self.memories: dict[str, model.Memory] = {}  # per game: what levels 4 and 5 saw and did in the hand
        self.thinking = ThinkingPool(default_thinkers() if thinkers is None else thinkers, self.move)
        self.session = requests.Session()
        self.session.headers.update({"Authorization": f"Bearer {token}", "User-Agent": "gin-account-bot/0.1"})
        self.last_event_id: int | None = None
        self.stop = threading.Event()

    # -- HTTP ----------------------------------------------------------------------------------

    def call(self, method: str, path: str, **kwargs) -> requests.Response:
        return self.session.request(method, self.server + path, timeout=kwargs.pop("timeout", 30), **kwargs)

    def active_games(self) -> int:
        games = self.call("GET", "/me/games", params={"limit": 200}).json().get("games", [])
        return sum(game["status"] == "active" for game in games)

    # -- deciding ------------------------------------------------------------------------------

    def refusal(self, challenge: dict) -> str | None:
        """The decline reason code for a challenge that does not fit, or None to accept it."""
        if not self.fits(challenge):
            return "rules" if self.presets is not None and challenge["rules"].get("preset") not in self.presets \
                else "move-time"
        if self.active_games() >= self.max_games:
            return "busy"
        return None

    def fits(self, offer: dict) -> bool:
        """Whether a challenge's or a tournament's rules preset and move time fit the bot's settings."""
        hours = offer.get("move_time_hours")
        return (self.presets is None or offer["rules"].get("preset") in self.presets) and \
            (self.max_move_hours is None or hours is not None and hours <= self.max_move_hours)

    def join_open_tournaments(self) -> None:
        """Enter each open tournament that admits bots (anyone, or bots only) and fits the settings."""
        listing = self.call("GET", "/tournaments", params={"status": "open", "limit": 200}).json()
        for t in listing.get("tournaments", []):
            if t["tournament_id"] in self.tournaments_seen or t["entry"] not in ("anyone", "bots"):
                continue
            self.tournaments_seen.add(t["tournament_id"])
            if self.fits(t):
                answer = self.call("POST", f"/tournaments/{t['tournament_id']}/join")
                log.info("tournament=%s %r: %s", t["tournament_id"][:8], t["name"],
                         "entered" if answer.ok else answer.json().get("code"))

    def poll_tournaments(self, every: float = 60.0) -> None:
        """Tournaments opening make no event: look for ones to enter now and then (at once first)."""
        while True:
            try:
                self.join_open_tournaments()
            except (requests.RequestException, ValueError) as exc:
                log.warning("could not read open tournaments: %s", exc)
            if self.stop.wait(every):
                return

    def consider(self, challenge: dict, named: bool) -> None:
        challenge_id = challenge["challenge_id"]
        reason = self.refusal(challenge)
        if reason is None:
            answer = self.call("POST", f"/challenges/{challenge_id}/accept")
            log.info("challenge=%s from=%s accepted: %s", challenge_id[:8], challenge["from"],
                     answer.json().get("game_id") or answer.json().get("code"))
        elif named:  # an open challenge that does not fit is simply left for someone else
            self.call("POST", f"/challenges/{challenge_id}/decline", json={"reason": reason})
            log.info("challenge=%s from=%s declined: %s", challenge_id[:8], challenge["from"], reason)

    def play(self, game_id: str, view: dict) -> None:
        """Queue this game's decision for the thinking pool: the stream's thread never waits on one."""
        if view.get("to_move") != view.get("seat") or not view.get("legal_actions"):
            return
        self.thinking.submit(game_id, view)

    def move(self, game_id: str, view: dict) -> None:
        """Decide (in a thinking process) and make the move: run by the pool, one game at a time."""
        level = level_of(view)
        memory = None if level == levels.DEFAULT_LEVEL else self.memories.setdefault(game_id, model.Memory())
        decision, learned = self.thinking.run_decision(
            decide_move, view, level, f"{game_id}:{view.get('version')}", memory, self.think_seconds, self.knock_at)
        if memory is not None and self.memories.get(game_id) is memory:  # (not if the game ended meanwhile)
            self.memories[game_id] = learned
        log.info("level=%d %s", level, reference.describe(game_id, view, decision))
        try:
            answer = self.call("POST", f"/games/{game_id}/actions", json=decision.action,
                               headers={"If-Match": f'"{view["version"]}"', "Idempotency-Key": uuid.uuid4().hex})
        except requests.RequestException as exc:
            return self.retry(game_id, view, f"the move was not sent ({exc})")
        if answer.status_code == 429 or answer.status_code >= 500:
            return self.retry(game_id, view, f"the server answered {answer.status_code}",
                              float(answer.headers.get("Retry-After") or 5))
        if answer.status_code != 200:  # a stale view (a backlog replayed): the stream brings the current one
            log.warning("game=%s refused: %s", game_id[:8], answer.json().get("code"))

    def retry(self, game_id: str, view: dict, why: str, after: float = 5.0) -> None:
        """The same view decided again later (the same seeded decision): no new event would bring it."""
        log.warning("game=%s %s; trying again in %.0f s", game_id[:8], why, after)
        timer = threading.Timer(min(after, 120.0), self.thinking.submit, (game_id, view), {"again": True})
        timer.daemon = True
        timer.start()

    def handle(self, event: dict) -> None:
        kind = event["type"]
        if kind == "challenge_received":
            self.consider(event["challenge"], named=True)
        elif kind == "rematch_offered" and "challenge" in event:  # (a seat rematch: a seat's offer, not a player's)
            self.consider(event["challenge"], named=True)
        elif kind == "your_turn":
            self.play(event["game_id"], event["view"])
        elif kind == "round_started":
            log.info("tournament=%s round %d: %s", event["tournament_id"][:8], event["round"],
                     f"game={event['game_id'][:8]} against {event['opponent']}" if event["game_id"] else "a bye")
        elif kind == "tournament_over":
            log.info("tournament=%s over: place %d of %d", event["tournament_id"][:8], event["place"],
                     event["entrants"])
        elif kind == "game_over":
            self.memories.pop(event["game_id"], None)
            self.thinking.forget(event["game_id"])
            log.info("game=%s over: %s", event["game_id"][:8], json.dumps(event.get("result")))
            self.report_rating(event)

    def report_rating(self, event: dict) -> None:
        """One line after each match: what it did to the rating (the event says so when it was rated)."""
        game = event["game_id"][:8]
        table = "table_rating_change" in event
        change = event.get("table_rating_change") if table else event.get("rating_change")
        if change is not None:
            log.info("game=%s %s %s -> %s (%+.2f)", game, "table rating" if table else "rating", change["before"],
                     change["after"], change["delta"])
            return
        try:
            me = self.call("GET", "/me").json()
            log.info("game=%s not rated: rating %s, table rating %s", game, me["rating"]["value"],
                     me["table_rating"]["ordinal"])
        except (requests.RequestException, ValueError, KeyError) as exc:
            log.warning("game=%s not rated; could not read the rating: %s", game, exc)

    def catch_up(self) -> None:
        """What waited before the stream was open: challenges to us, and games where it is our turn."""
        pending = self.call("GET", "/challenges").json()
        for challenge in pending.get("to_me", []):
            self.consider(challenge, named=True)
        if self.take_open:
            for challenge in pending.get("open", []):
                self.consider(challenge, named=False)
        for game in self.call("GET", "/me/games", params={"limit": 200}).json().get("games", []):
            if game["your_turn"]:
                self.play(game["game_id"], self.call("GET", game["links"]["game"]).json())

    # -- the stream ----------------------------------------------------------------------------

    def run(self) -> None:
        """Listen until stopped, reconnecting with Last-Event-ID, backing off while the server is away."""
        delay, caught_up = 1.0, False
        while not self.stop.is_set():
            try:
                headers = {"Accept": "text/event-stream"}
                if self.last_event_id is not None:
                    headers["Last-Event-ID"] = str(self.last_event_id)
                with self.call("GET", "/me/stream", headers=headers, stream=True, timeout=(10, 60)) as response:
                    if response.status_code == 401:
                        raise SystemExit("gin-bot: the player token was refused (rotated or revoked?)")
                    if response.status_code != 200:
                        raise requests.ConnectionError(f"stream answered {response.status_code}")
                    delay = 1.0
                    if not caught_up:  # the stream's start was fixed when the server answered:
                        self.catch_up()  # nothing from here on can be missed
                        caught_up = True
                    for event_id, _event, data in http.sse_frames(http.lines_as_they_come(response)):
                        if self.stop.is_set():
                            return
                        self.handle(json.loads(data))
                        self.last_event_id = int(event_id)
            except (requests.RequestException, urllib3.exceptions.HTTPError, ValueError) as exc:
                log.warning("stream lost (%s); reconnecting in %.0f s", exc, delay)
                self.stop.wait(delay)
                delay = min(delay * 2, 30.0)

    def claim_overdue(self, now: datetime | None = None) -> list[str]:
        """Claim on time each game whose opponent let its move deadline pass: a game left alone frees
        the bot's place for another player (the server gives every game with the house bot a deadline).
        Returns the games claimed."""
        now, claimed = now or datetime.now(timezone.utc), []
        for game in self.call("GET", "/me/games", params={"limit": 200}).json().get("games", []):
            deadline = game.get("deadline")
            if game["status"] != "active" or game["your_turn"] or not deadline or utc(deadline) > now:
                continue
            answer = self.call("POST", f"/games/{game['game_id']}/actions", json={"type": "claim_timeout"},
                               headers={"Idempotency-Key": uuid.uuid4().hex})
            log.info("game=%s claimed on time: %s", game["game_id"][:8],
                     "won" if answer.status_code == 200 else answer.json().get("code"))
            if answer.status_code == 200:
                claimed.append(game["game_id"])
        return claimed

    def poll_deadlines(self, every: float = 60.0) -> None:
        """Deadlines passing make no event for the waiting side: look now and then."""
        while not self.stop.wait(every):
            try:
                self.claim_overdue()
            except (requests.RequestException, ValueError, KeyError) as exc:
                log.warning("could not claim overdue games: %s", exc)
            except Exception:  # anything else: said, and the thread looks again next time
                log.exception("could not claim overdue games")

    def poll_open_challenges(self, every: float = 15.0) -> None:
        """Open challenges make no event: look for ones to take now and then."""
        while not self.stop.wait(every):
            try:
                for challenge in self.call("GET", "/challenges").json().get("open", []):
                    self.consider(challenge, named=False)
            except (requests.RequestException, ValueError) as exc:
                log.warning("could not read open challenges: %s", exc)


def utc(moment: str) -> datetime:
    """An ISO 8601 moment from the server; one without an offset is UTC (the server's SQLite keeps
    none: its deadlines came naive, and comparing them with an aware now stopped the claims)."""
    parsed = datetime.fromisoformat(moment.replace("Z", "+00:00"))
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=timezone.utc)


def default_thinkers() -> int:
    return os.cpu_count() or 1


def level_of(view: dict) -> int:
    """The level this game is played at: on the bot's own seat in `players` (the challenger chose
    it), else 3 (a game from before levels, or a challenge that did not say)."""
    seat = view.get("seat")
    for player in view.get("players") or []:
        if player.get("seat") == seat and player.get("level") in levels.LEVELS:
            return player["level"]
    return levels.DEFAULT_LEVEL


def token_from(server: str, token_file: str | None, register: str | None) -> str:
    """The player token: $GIN_PLAYER_TOKEN, else the file's, else a new bot account's (kept in the file)."""
    if os.environ.get("GIN_PLAYER_TOKEN"):
        return os.environ["GIN_PLAYER_TOKEN"]
    if token_file and os.path.exists(token_file):
        with open(token_file) as handle:
            return handle.read().strip()
    if not (register and token_file):
        raise SystemExit("gin-bot: give --token-file with a token in it, or --register NAME to make one")
    delay = 1.0
    while True:  # the server may still be starting (the Procfile starts every process at once)
        try:
            answer = requests.post(f"{server.rstrip('/')}/players", json={"name": register, "bot": True}, timeout=30)
            break
        except requests.RequestException as exc:
            log.warning("cannot register yet (%s); retrying in %.0f s", exc, delay)
            time.sleep(delay)
            delay = min(delay * 2, 30.0)
    if answer.status_code != 201:
        raise SystemExit(f"gin-bot: could not register {register!r}: {answer.json().get('detail')}")
    token = answer.json()["token"]
    directory = os.path.dirname(os.path.abspath(token_file))
    os.makedirs(directory, exist_ok=True)
    descriptor = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # a secret: owner only
    with os.fdopen(descriptor, "w") as handle:
        handle.write(token + "\n")
    log.info("registered the bot account %r; its token is in %s", register, token_file)
    return token


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gin-bot", description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default=os.environ.get("GIN_SERVER", "http://127.0.0.1:8000"))
    parser.add_argument("--token-file", help="where the player token is (or is kept, with --register)")
    parser.add_argument("--register", metavar="NAME", help="make a bot account of this name if there is no token yet")
    parser.add_argument("--presets", help="accept only these presets, comma-separated (default: any)")
    parser.add_argument("--max-move-hours", type=int, help="accept only challenges with at most this move time")
    parser.add_argument("--max-games", type=int, default=DEFAULT_MAX_GAMES,
                        help=f"active games at most, for all players together (default {DEFAULT_MAX_GAMES}: "
                             "see --thinkers)")
    parser.add_argument("--take-open", action="store_true", help="also take open challenges that fit")
    parser.add_argument("--tournaments", action="store_true",
                        help="enter open tournaments that admit bots and fit --presets and --max-move-hours")
    parser.add_argument("--knock-at", type=int, default=None, help="as the reference bot's --knock-at (level 3 games)")
    parser.add_argument("--think-seconds", type=float, default=levels.DEFAULT_THINK_SECONDS,
                        help="level 5's time per decision, in seconds (default 0.5; the Procfile passes "
                             "$BOT_THINK_SECONDS)")
    parser.add_argument("--thinkers", type=int, default=default_thinkers(),
                        help="decisions made at once, each in a process of its own (default: the CPUs, "
                             f"{default_thinkers()} here; 1: one at a time in this process; 0: in the stream's "
                             "thread). The pool makes about THINKERS / THINK_SECONDS level-5 decisions a second; "
                             "a decision waits about THINK_SECONDS x (1 + decisions queued / THINKERS)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    account = AccountBot(args.server, token_from(args.server, args.token_file, args.register),
                         set(args.presets.split(",")) if args.presets else None, args.max_move_hours,
                         args.max_games, args.take_open, args.knock_at, args.think_seconds, args.thinkers)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stopped (systemd, a test): close the pool below
    threading.Thread(target=account.poll_deadlines, daemon=True).start()  # games left alone end on time
    if args.take_open:
        threading.Thread(target=account.poll_open_challenges, daemon=True).start()
    if args.tournaments:
        threading.Thread(target=account.poll_tournaments, daemon=True).start()
    try:
        account.run()
    except KeyboardInterrupt:
        return 130
    finally:
        account.stop.set()
        account.thinking.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
