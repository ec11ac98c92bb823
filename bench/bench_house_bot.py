"""The house bot under load (issue 38, item 5): games held at once, and the bot's reply per decision.

    .venv/bin/python bench/bench_house_bot.py [--players 10,30,60] [--thinkers 1,0] [--seconds 60]
        [--think-seconds 0.5] [--level 5]

One service on loopback (gunicorn with the Procfile's gevent workers, 2 of them, on a scratch
SQLite file; rate limits off: the bench measures the bot, not the limiter). For each --thinkers
setting (0 stands for gin-bot's default, the CPUs) and each crowd of --players: gin-bot started as
the Procfile starts it (--register House --take-open, the default --max-games) with that
--thinkers; each player account challenges the house bot at --level (one game at a time; a
finished match is followed by a new challenge) and plays the reference bot's move
(gin_client.bots.reference.decide) the moment its turn comes, for --seconds; then every player
resigns and the bot is stopped.

Measured, per cell:
- games held: the bot's active games, sampled every second (the most, and the mean after the first
  game began);
- the bot's reply per decision, from the answer to the player's move that gave the bot the turn
  (or the arrival of the bot's previous move) to the player's long-poll seeing the bot's next move:
  p50, p90, p99 and the decisions made. When one long-poll answer brings two of the bot's moves,
  the time is split evenly between them.
Each thinkers setting's figures are also given as ratios against --thinkers 1 in the same run.
Figures only: nothing here asserts on time. The machine's other load moves them: say so.
"""
from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["RATELIMIT_ENABLED"] = "false"  # the bench measures the bot, not the limiter

from gin_client.bots import reference  # noqa: E402
from tests.conftest import start_gunicorn, stop_gunicorn  # noqa: E402

GIN_BOT = str(Path(sys.executable).parent / "gin-bot")


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


class Crowd:
    """The players of one cell: each in a thread of its own, long-polling its game."""

    def __init__(self, base: str, tokens: list[str], level: int):
        self.base, self.tokens, self.level = base, tokens, level
        self.stop = threading.Event()
        self.replies: list[float] = []
        self.lock = threading.Lock()
        self.errors: list[str] = []  # what went wrong for a player (it then carries on)
        self.games: dict[str, str] = {}  # token -> its game now

    def record(self, seconds: float, steps: int) -> None:
        with self.lock:
            self.replies.extend([seconds / steps] * steps)

    def play(self, token: str) -> None:
        session = requests.Session()
        session.headers.update(bearer(token))
        while not self.stop.is_set():
            try:
                game_id = self.active(session) or self.challenge(session)
                if game_id:
                    self.games[token] = game_id
                    self.play_game(session, game_id)
            except (requests.RequestException, ValueError, KeyError) as exc:
                with self.lock:
                    self.errors.append(repr(exc)[:300])
                self.stop.wait(1.0)

    def active(self, session: requests.Session) -> str | None:
        games = session.get(f"{self.base}/me/games", params={"limit": 200}, timeout=30).json()["games"]
        return next((g["game_id"] for g in games if g["status"] == "active"), None)

    def challenge(self, session: requests.Session) -> str | None:
        offer = session.post(f"{self.base}/challenges", json={"to": "House", "level": self.level}, timeout=30)
        if offer.status_code != 201:
            raise ValueError(offer.text)
        while not self.stop.is_set():
            if game_id := self.active(session):
                return game_id
            if not session.get(f"{self.base}/challenges", timeout=30).json()["mine"] and not self.active(session):
                raise ValueError("the challenge was declined")  # (not accepted between the two looks)
            self.stop.wait(0.2)
        return None

    def play_game(self, session: requests.Session, game_id: str) -> None:
        version, bot_since, view = None, None, None
        while not self.stop.is_set():
            if view is None:
                waiting = {"If-None-Match": f'"{version}"'} if version is not None else {}
                response = session.get(f"{self.base}/games/{game_id}" + ("?wait=5" if version is not None else ""),
                                       headers=waiting, timeout=40)
                if response.status_code == 304:
                    continue
                view = response.json()
            arrived = time.perf_counter()
            if version is not None and view["version"] > version:
                if bot_since is not None:
                    self.record(arrived - bot_since, view["version"] - version)
                bot_since = None
            version = view["version"]
            if view["status"] != "active":
                return
            if view["to_move"] != view["seat"]:
                bot_since = bot_since or arrived  # the bot's turn: its next move is timed from here
                view = None
                continue
            answer = session.post(f"{self.base}/games/{game_id}/actions", json=reference.decide(view).action,
                                  headers={"If-Match": f'"{version}"'}, timeout=30)
            if answer.status_code != 200:
                raise ValueError(answer.text)
            view = answer.json()  # the view after the move: the bot's turn now, or still ours (a draw)
            version, bot_since = view["version"], None
            if view["status"] == "active" and view["to_move"] != view["seat"]:
                bot_since, view = time.perf_counter(), None

    def resign_all(self) -> None:
        """Every game still on is resigned: the next cell's bot starts with none held."""
        for token in self.tokens:
            games = requests.get(f"{self.base}/me/games", params={"limit": 200}, headers=bearer(token),
                                 timeout=30).json()["games"]
            for game in games:
                if game["status"] == "active":
                    requests.post(f"{self.base}/games/{game['game_id']}/actions", json={"type": "resign"},
                                  headers=bearer(token), timeout=30)


def held(base: str, bot_token: str) -> int:
    games = requests.get(f"{base}/me/games", params={"limit": 200}, headers=bearer(bot_token), timeout=30).json()
    return sum(g["status"] == "active" for g in games["games"])


def cell(base: str, token_file: Path, folder: Path, thinkers: int, players: int, args, serial: list[int]) -> dict:
    command = [GIN_BOT, "--server", base, "--token-file", str(token_file), "--register", "House", "--take-open",
               "--think-seconds", str(args.think_seconds)] + (["--thinkers", str(thinkers)] if thinkers else [])
    log = open(folder / f"bot-{thinkers}-{players}.log", "w")
    bot = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        while not token_file.exists():
            time.sleep(0.05)
        bot_token = token_file.read_text().strip()
        tokens = []
        for _ in range(players):
            serial[0] += 1
            answer = requests.post(f"{base}/players", json={"name": f"Crowd{serial[0]}"}, timeout=30)
            tokens.append(answer.json()["token"])
        crowd = Crowd(base, tokens, args.level)
        threads = [threading.Thread(target=crowd.play, args=(token,), daemon=True) for token in tokens]
        for thread in threads:
            thread.start()
        counts, started = [], time.monotonic()
        while time.monotonic() - started < args.seconds:
            counts.append(held(base, bot_token))
            time.sleep(1.0)
        crowd.stop.set()
        for thread in threads:
            thread.join(timeout=60)
        crowd.resign_all()
    finally:
        bot.terminate()
        bot.wait(timeout=60)
    replies = sorted(crowd.replies)
    counted = [c for c in counts if c] or [0]

    def at(q: float) -> float:
        return replies[min(len(replies) - 1, int(q * len(replies)))] if replies else float("nan")
    return {"thinkers": thinkers or os.cpu_count(), "players": players, "held_max": max(counts or [0]),
            "held_mean": statistics.mean(counted), "decisions": len(replies), "per_second": len(replies) / args.seconds,
            "p50": at(0.5), "p90": at(0.9), "p99": at(0.99), "errors": len(crowd.errors),
            "first_errors": crowd.errors[:3]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="10,30,60")
    parser.add_argument("--thinkers", default="1,0", help="thinkers settings, 0 for gin-bot's default (the CPUs)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think-seconds", type=float, default=0.5)
    parser.add_argument("--level", type=int, default=5)
    parser.add_argument("--logs", help="keep the database and the logs in this folder (default: a scratch one)")
    args = parser.parse_args()
    crowds = [int(n) for n in args.players.split(",")]
    settings = [int(n) for n in args.thinkers.split(",")]
    print("$ " + shlex.join([sys.executable, *sys.argv]))
    print(f"{os.cpu_count()} CPUs; level {args.level}; --think-seconds {args.think_seconds}; {args.seconds:.0f} s a cell")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.logs or scratch)  # the database, gunicorn's log and each cell's bot log
        folder.mkdir(parents=True, exist_ok=True)
        process, base = start_gunicorn(f"sqlite:///{folder / 'bench.sqlite3'}", log_path=folder / "gunicorn.log",
                                       env={"RATELIMIT_ENABLED": "false", "HOUSE_BOT_NAME": "House"})
        try:
            rows, serial = [], [0]
            for players in crowds:
                for thinkers in settings:
                    row = cell(base, folder / "house.token", folder, thinkers, players, args, serial)
                    rows.append(row)
                    print(f"thinkers {row['thinkers']:>2}  players {players:>3}  held max {row['held_max']:>3} "
                          f"mean {row['held_mean']:6.1f}  decisions {row['decisions']:>5} ({row['per_second']:5.1f}/s)  "
                          f"reply p50 {row['p50']:6.3f} s  p90 {row['p90']:6.3f} s  p99 {row['p99']:6.3f} s"
                          f"  player errors {row['errors']}", flush=True)
                    for error in row["first_errors"]:
                        print("    e.g.", error, flush=True)
        finally:
            stop_gunicorn(process)
    print("\nratios against --thinkers 1 in the same run (decisions/s: higher is better; replies: lower is better)")
    for players in crowds:
        base_row = next((r for r in rows if r["players"] == players and r["thinkers"] == 1 and r["decisions"]), None)
        for row in rows:
            if base_row is None or row["players"] != players or row is base_row:
                continue
            print(f"thinkers {row['thinkers']:>2}  players {players:>3}  decisions/s x{row['per_second'] / base_row['per_second']:.2f}"
                  f"  held max x{row['held_max'] / max(1, base_row['held_max']):.2f}"
                  + "".join(f"  {q} x{row[q] / base_row[q]:.2f}" for q in ("p50", "p90", "p99")))


if __name__ == "__main__":
    main()
