#!/usr/bin/env python3
"""The reference bot in account mode: one player token, one stream, every game at once.

    python client/account_bot.py --server http://127.0.0.1:8000 --token-file bot.token --register RoboBot \\
        --presets standard,oklahoma --max-move-hours 72 --max-games 10

It listens on GET /me/stream (resuming with Last-Event-ID after a dropped connection or a server
restart), accepts the challenges that fit its settings (declining the others with a reason code),
accepts rematches, and plays every `your_turn` at the level the challenger chose (bot_levels.py:
the level is on the bot's seat in the view's `players`; 3, the reference bot's bot.decide, when
none is), logging one line per decision with its level, and one line per finished match with what
it did to its rating. Level 5 thinks --think-seconds per decision. Needs only `requests`, and beside this file bot.py, gin.py, its
gin_*.py modules and api.py. With --register NAME and no token in --token-file yet, it makes its own
bot account first and keeps the token in that file (the Procfile's `bot:` line runs the house bot
this way).
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import threading
import time
import uuid

import requests
import urllib3  # installed with requests: a stream read raw raises its errors

if __package__:  # as part of the `client` package
    from . import api as http, bot, bot_levels, bot_model
else:  # as a script, with bot.py (and gin.py, its gin_*.py modules, api.py) beside it
    _here = os.path.dirname(os.path.abspath(__file__))
    if _here not in sys.path:  # python -P or -I, or loaded by its path from elsewhere
        sys.path.insert(0, _here)
    import api as http
    import bot  # by name: in sys.modules, where dataclasses look their module up
    import bot_levels
    import bot_model

log = logging.getLogger("gin.account_bot")


class AccountBot:
    def __init__(self, server: str, token: str, presets: set[str] | None = None, max_move_hours: int | None = None,
                 max_games: int = 10, take_open: bool = False, knock_at: int | None = None,
                 think_seconds: float = bot_levels.DEFAULT_THINK_SECONDS):
        self.server, self.presets, self.max_move_hours = server.rstrip("/"), presets, max_move_hours
        self.max_games, self.take_open, self.knock_at = max_games, take_open, knock_at
        self.think_seconds = think_seconds
        self.memories: dict[str, bot_model.Memory] = {}  # per game: what levels 4 and 5 saw and did in the hand
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
        if self.presets is not None and challenge["rules"].get("preset") not in self.presets:
            return "rules"
        hours = challenge.get("move_time_hours")
        if self.max_move_hours is not None and (hours is None or hours > self.max_move_hours):
            return "move-time"
        if self.active_games() >= self.max_games:
            return "busy"
        return None

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
        if view.get("to_move") != view.get("seat") or not view.get("legal_actions"):
            return
        level = level_of(view)
        if level == bot_levels.DEFAULT_LEVEL:  # the reference bot, --knock-at and all
            decision = bot.decide(view, self.knock_at)
        else:  # seeded by the game and version: a retried decision is the same one
            rng = random.Random(f"{game_id}:{view.get('version')}")
            decision = bot_levels.decide(view, level, rng, self.memories.setdefault(game_id, bot_model.Memory()),
                                         self.think_seconds)
        log.info("level=%d %s", level, bot.describe(game_id, view, decision))
        answer = self.call("POST", f"/games/{game_id}/actions", json=decision.action,
                           headers={"If-Match": f'"{view["version"]}"', "Idempotency-Key": uuid.uuid4().hex})
        if answer.status_code != 200:  # a stale view (a backlog replayed): the stream brings the current one
            log.warning("game=%s refused: %s", game_id[:8], answer.json().get("code"))

    def handle(self, event: dict) -> None:
        kind = event["type"]
        if kind == "challenge_received":
            self.consider(event["challenge"], named=True)
        elif kind == "rematch_offered" and "challenge" in event:  # (a seat rematch: a seat's offer, not a player's)
            self.consider(event["challenge"], named=True)
        elif kind == "your_turn":
            self.play(event["game_id"], event["view"])
        elif kind == "game_over":
            self.memories.pop(event["game_id"], None)
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
                        raise SystemExit("account_bot: the player token was refused (rotated or revoked?)")
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

    def poll_open_challenges(self, every: float = 15.0) -> None:
        """Open challenges make no event: look for ones to take now and then."""
        while not self.stop.wait(every):
            try:
                for challenge in self.call("GET", "/challenges").json().get("open", []):
                    self.consider(challenge, named=False)
            except (requests.RequestException, ValueError) as exc:
                log.warning("could not read open challenges: %s", exc)


def level_of(view: dict) -> int:
    """The level this game is played at: on the bot's own seat in `players` (the challenger chose
    it), else 3 (a game from before levels, or a challenge that did not say)."""
    seat = view.get("seat")
    for player in view.get("players") or []:
        if player.get("seat") == seat and player.get("level") in bot_levels.LEVELS:
            return player["level"]
    return bot_levels.DEFAULT_LEVEL


def token_from(server: str, token_file: str | None, register: str | None) -> str:
    """The player token: $GIN_PLAYER_TOKEN, else the file's, else a new bot account's (kept in the file)."""
    if os.environ.get("GIN_PLAYER_TOKEN"):
        return os.environ["GIN_PLAYER_TOKEN"]
    if token_file and os.path.exists(token_file):
        with open(token_file) as handle:
            return handle.read().strip()
    if not (register and token_file):
        raise SystemExit("account_bot: give --token-file with a token in it, or --register NAME to make one")
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
        raise SystemExit(f"account_bot: could not register {register!r}: {answer.json().get('detail')}")
    token = answer.json()["token"]
    directory = os.path.dirname(os.path.abspath(token_file))
    os.makedirs(directory, exist_ok=True)
    descriptor = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # a secret: owner only
    with os.fdopen(descriptor, "w") as handle:
        handle.write(token + "\n")
    log.info("registered the bot account %r; its token is in %s", register, token_file)
    return token


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="account_bot.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default=os.environ.get("GIN_SERVER", "http://127.0.0.1:8000"))
    parser.add_argument("--token-file", help="where the player token is (or is kept, with --register)")
    parser.add_argument("--register", metavar="NAME", help="make a bot account of this name if there is no token yet")
    parser.add_argument("--presets", help="accept only these presets, comma-separated (default: any)")
    parser.add_argument("--max-move-hours", type=int, help="accept only challenges with at most this move time")
    parser.add_argument("--max-games", type=int, default=10, help="active games at most (default 10)")
    parser.add_argument("--take-open", action="store_true", help="also take open challenges that fit")
    parser.add_argument("--knock-at", type=int, default=None, help="as bot.py's --knock-at (level 3 games)")
    parser.add_argument("--think-seconds", type=float, default=bot_levels.DEFAULT_THINK_SECONDS,
                        help="level 5's time per decision, in seconds (default 0.5; the Procfile passes "
                             "$BOT_THINK_SECONDS)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    account = AccountBot(args.server, token_from(args.server, args.token_file, args.register),
                         set(args.presets.split(",")) if args.presets else None, args.max_move_hours,
                         args.max_games, args.take_open, args.knock_at, args.think_seconds)
    if args.take_open:
        threading.Thread(target=account.poll_open_challenges, daemon=True).start()
    try:
        account.run()
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
