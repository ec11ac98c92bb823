"""Waiting that costs nothing: K clients wait for their turn while a mover plays on another game.

    .venv/bin/python bench/bench_waiting.py [--db sqlite|postgresql|both] [--waiters 0,1000,10000]
        [--seconds 10] [--rate 20] [--wakeups 100] [--pg-url URL]

For each database it serves the Procfile's web line (gunicorn -c python:service.core.server, 2 gevent
workers) and, for each K, opens K waiting connections (half long-polls `?wait=60`, half streams)
on 200 idle games from one asyncio process, then a mover plays `--rate` moves a second on another
game for `--seconds`. Printed per K: the mover's POST p50/p99 and their ratio to K = 0, the
workers' RSS per 1,000 waiters, and at the largest K the servers' CPU over 10 s with nobody
moving. Then the wake-up latency: `--wakeups` waiters (half long-polls, half streams) on their
own games, each game moved once; the time from sending the move to the waiter's answer, p50/p99,
with waiter and mover on one server process, and on two (two single-worker servers, one database).

The waiting caps are raised for the run (WAIT_PER_TOKEN, WAIT_ADDRESS_SHARE): every waiter comes
from 127.0.0.1, and the point is to measure the host, not the limits.
"""
from __future__ import annotations

import argparse
import asyncio
import math
import multiprocessing
import os
import resource
import shlex
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import start_gunicorn, stop_gunicorn  # noqa: E402
from tests.hardening.torture import database_url  # noqa: E402

ENV = {"RATELIMIT_ENABLED": "false", "WAIT_PER_TOKEN": "100000", "WAIT_ADDRESS_SHARE": "1",
       "WAIT_PER_PROCESS": "100000"}


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q / 100 * len(values)))] if values else float("nan")


def new_game(base: str, session: requests.Session) -> dict:
    created = session.post(f"{base}/games", json={"name": "Ann"}, timeout=30).json()
    joined = session.post(f"{base}/games/{created['game_id']}/join",
                          json={"invite_code": created["invite_code"], "name": "Bob"}, timeout=30).json()
    return {"id": created["game_id"], "tokens": [created["token"], joined["token"]],
            "version": joined["game"]["version"], "to_move": joined["game"]["to_move"]}


def play_one(base: str, session: requests.Session, game: dict) -> float:
    """One legal move by the seat to move (the first listed: pass, draw or discard); its POST's seconds."""
    seat = game["to_move"]
    auth = {"Authorization": f"Bearer {game['tokens'][seat]}"}
    view = session.get(f"{base}/games/{game['id']}", headers=auth, timeout=60).json()
    if view["status"] == "finished":
        game.update(new_game(base, session))
        return play_one(base, session, game)
    action = next((a for a in view["legal_actions"] if a["type"] in ("pass", "draw")), view["legal_actions"][0])
    started = time.perf_counter()
    answer = session.post(f"{base}/games/{game['id']}/actions", json=action, headers=auth, timeout=60)
    took = time.perf_counter() - started
    answer.raise_for_status()
    game["version"], game["to_move"] = answer.json()["version"], answer.json()["to_move"]
    return took


def mover(base: str, seconds: float, rate: float) -> list[float]:
    session, game, latencies = requests.Session(), None, []
    game = new_game(base, session)
    ends, gap = time.monotonic() + seconds, 1 / rate
    next_at = time.monotonic()
    while time.monotonic() < ends:
        latencies.append(play_one(base, session, game))
        next_at += gap
        time.sleep(max(0.0, next_at - time.monotonic()))
    return latencies


# -- the waiters: raw sockets on one asyncio loop -----------------------------------------------

def request_bytes(host: str, path: str, token: str, extra: str = "") -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n{extra}"
            f"Connection: close\r\n\r\n").encode()


async def hold(host, port, path, token, extra, stream: bool, ready: asyncio.Queue, answered: asyncio.Queue):
    """Open one waiting request; report when it is known to wait (or failed to), and when it
    gets its answer."""
    told = False

    async def tell(outcome):
        nonlocal told
        if not told:
            told = True
            await ready.put(outcome)
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as exc:
        await tell(exc)
        return
    writer.write(request_bytes(f"{host}:{port}", path, token, extra))
    try:
        if not stream:
            await tell(True)  # a long-poll says nothing until the game moves
            await reader.read(1)
            await answered.put(time.perf_counter())
        else:
            status = await reader.readuntil(b"\r\n")
            if b" 200 " not in status:
                raise ConnectionError(status.decode(errors="replace").strip())
            await reader.readuntil(b"event: view")  # the view now: the stream is open and waiting
            await reader.readuntil(b"\n\n")
            await tell(True)
            await reader.readuntil(b"event: view")
            await answered.put(time.perf_counter())
    except (asyncio.IncompleteReadError, ConnectionError, OSError) as exc:
        await tell(exc)
        await answered.put(None)
    finally:
        writer.close()


class Waiters:
    """K waiting connections on `games`, in a background asyncio loop."""

    def __init__(self, base: str, games: list[dict], count: int):
        host, port = base.removeprefix("http://").split(":")
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.tasks = []
        self.answered = None

        async def open_all():
            self.ready, self.answered = asyncio.Queue(), asyncio.Queue()
            for n in range(count):
                game = games[n % len(games)]
                seat = 1 - game["to_move"]
                stream = n % 2 == 1
                path = f"/games/{game['id']}/stream" if stream else f"/games/{game['id']}?wait=60"
                extra = "" if stream else f'If-None-Match: "{game["version"]}"\r\n'
                self.tasks.append(asyncio.ensure_future(
                    hold(host, int(port), path, game["tokens"][seat], extra, stream, self.ready, self.answered)))
                if n % 100 == 99:
                    await asyncio.sleep(0.1)  # 1,000 new connections a second: a busy host, not a flood
            failures = []
            for _ in range(count):
                outcome = await self.ready.get()
                if outcome is not True:
                    failures.append(outcome)
            if failures:
                print(f"  {len(failures)} waiters failed to open, e.g. {failures[0]!r}")
            return len(failures)
        self.failures = asyncio.run_coroutine_threadsafe(open_all(), self.loop).result(600)

    def answers(self, count: int, timeout: float = 30) -> list[float | None]:
        async def take():
            return [await asyncio.wait_for(self.answered.get(), timeout) for _ in range(count)]
        return asyncio.run_coroutine_threadsafe(take(), self.loop).result(timeout * count + 10)

    def close(self):
        async def cancel():
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)
        asyncio.run_coroutine_threadsafe(cancel(), self.loop).result(120)
        self.loop.call_soon_threadsafe(self.loop.stop)


# -- the server's processes ---------------------------------------------------------------------

def workers_of(master_pid: int) -> list[int]:
    children = Path(f"/proc/{master_pid}/task/{master_pid}/children")
    return [int(pid) for pid in children.read_text().split()] if children.exists() else []


def rss_mb(pids) -> float:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def cpu_seconds(pids) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


@contextmanager
def served(url: str, directory: Path, workers: int, name: str, env: dict | None = None):
    log = directory / f"{name}.log"
    process, base = start_gunicorn(url, workers=workers, log_path=log, env=env or ENV)
    try:
        yield process, base
    finally:
        stop_gunicorn(process)
        errors = [line for line in log.read_text(errors="replace").splitlines() if "Error" in line]
        if errors:
            print(f"  the server logged {len(errors)} error lines, e.g. {errors[0][:300]}")


def load_phase(kind: str, url: str, directory: Path, options) -> None:
    with served(url, directory, 2, f"{kind}-load") as (process, base):
        session = requests.Session()
        games = [new_game(base, session) for _ in range(200)]
        baseline = None
        print(f"\n{kind}: mover at {options.rate} moves/s for {options.seconds:g} s while K clients wait "
              f"(half long-polls, half streams), Procfile web line, 2 gevent workers")
        print("| K waiting | refused | mover POST p50 / p99 | ratio to K=0 (p50 / p99) | workers' RSS | RSS per 1,000 waiters |")
        print("| --- | --- | --- | --- | --- | --- |")
        rss_zero = None
        for count in options.waiters:
            waiters = Waiters(base, games, count) if count else None
            time.sleep(1)
            pids = workers_of(process.pid)
            rss = rss_mb(pids)
            latencies = mover(base, options.seconds, options.rate)
            p50, p99 = pct(latencies, 50) * 1000, pct(latencies, 99) * 1000
            if baseline is None:
                baseline, rss_zero = (p50, p99), rss
            per_thousand = (rss - rss_zero) / count * 1000 if count else 0
            print(f"| {count:,} | {waiters.failures if waiters else 0} | {p50:.1f} / {p99:.1f} ms | "
                  f"{p50 / baseline[0]:.2f} / {p99 / baseline[1]:.2f} | {rss:.0f} MB | {per_thousand:.1f} MB |")
            if waiters and count == max(options.waiters):
                before, started = cpu_seconds(pids), time.monotonic()
                time.sleep(10)
                used = cpu_seconds(pids) - before
                print(f"\nidle with {count:,} waiting: the workers used {used / (time.monotonic() - started) * 100:.1f}% "
                      "of one core (fallback poll and keep-alives)\n")
            if waiters:
                waiters.close()
            time.sleep(1)


def wakeup_phase(kind: str, url: str, directory: Path, options) -> None:
    print(f"{kind}: wake-up latency, move sent -> waiter answered ({options.wakeups} waiters, half streams)")
    print("| waiter and mover | p50 | p99 | max | lost |")
    print("| --- | --- | --- | --- | --- |")
    with served(url, directory, 1, f"{kind}-a") as (_, one), served(url, directory, 1, f"{kind}-b") as (_, two):
        for label, wait_on, move_on in (("one process", one, one), ("two processes", one, two)):
            session = requests.Session()
            games = [new_game(move_on, session) for _ in range(options.wakeups)]
            waiters = Waiters(wait_on, games, len(games))
            time.sleep(1)
            latencies, lost = [], 0
            for game in games:
                sent = time.perf_counter()
                play_one(move_on, session, game)
                answered = waiters.answers(1)[0]
                if answered is None:
                    lost += 1
                else:
                    latencies.append(answered - sent)
                time.sleep(1 / options.rate)
            waiters.close()
            print(f"| {label} | {pct(latencies, 50) * 1000:.1f} ms | {pct(latencies, 99) * 1000:.1f} ms | "
                  f"{max(latencies) * 1000:.1f} ms | {lost} |")



# -- issue 37: many addresses, 80% streams, the pool, a reconnect storm -------------------------

STORM_ENV = {"RATELIMIT_ENABLED": "false", "WAIT_PER_TOKEN": "100000", "WAIT_PER_PROCESS": "30000"}


def source(n: int, addresses: int) -> str:
    """The waiter's loopback address: 127.1.x.y, `addresses` of them (the mover is 127.0.0.1)."""
    a = n % addresses
    return f"127.1.{a // 250}.{a % 250 + 1}"


def scrape(base: str) -> dict:
    """Summed over the workers: clients waiting, pool connections in use."""
    from prometheus_client.parser import text_string_to_metric_families
    text = requests.get(f"{base}/metrics", timeout=30).text
    found = {"gin_waiting_clients": 0.0, "gin_db_pool_in_use": 0.0}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name in found:
                found[sample.name] += sample.value
    return found


class CrowdLoop:
    """Some of a crowd's waiters (`indices` of N) from many addresses (a `share` of streams, the rest
    long-polls re-polling on 304), on one asyncio loop in a thread: counts held, refused (by
    status), cut (a stream ended unasked), and each wake-up's moment per game. It runs in a client
    process of its own (see Crowd), so the mover never shares a GIL with the waiters' loop."""

    def __init__(self, base: str, games: list[dict], indices: list[int], share: float, addresses: int):
        self.host, port = base.removeprefix("http://").split(":")
        self.port, self.games, self.indices, self.share, self.addresses = int(port), games, indices, share, addresses
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.tasks, self.refused, self.cut, self.held, self.closing = [], {}, 0, 0, False
        self.woken: dict[str, list[float]] = {}

    def open(self, seconds: float) -> float:
        """Open all of ours within about `seconds`; return when each is held or refused (its time taken)."""
        started = time.perf_counter()

        async def open_all():
            self.settled = asyncio.Queue()
            per_step = max(1, int(len(self.indices) / max(seconds, 0.1) / 20))
            for step, n in enumerate(self.indices):
                game = self.games[n % len(self.games)]
                self.tasks.append(asyncio.ensure_future(self.wait(n, game, n % 10 < self.share * 10)))
                if step % per_step == per_step - 1:
                    await asyncio.sleep(0.05)
            for _ in self.indices:
                await self.settled.get()
        asyncio.run_coroutine_threadsafe(open_all(), self.loop).result(900)
        return time.perf_counter() - started

    async def wait(self, n: int, game: dict, stream: bool):
        seat, settled, counted = 1 - game["to_move"], False, False
        version = game["version"]
        path = f"/games/{game['id']}/stream" if stream else f"/games/{game['id']}?wait=60"
        extra = f"Last-Event-ID: {version}\r\n" if stream else f'If-None-Match: "{version}"\r\n'

        async def settle(held: bool):
            nonlocal settled, counted
            if held != counted:
                self.held += 1 if held else -1
                counted = held
            if not settled:
                settled = True
                await self.settled.put(n)
        while True:
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port,
                                                               local_addr=(source(n, self.addresses), 0))
            except OSError as exc:
                self.refused[type(exc).__name__] = self.refused.get(type(exc).__name__, 0) + 1
                await settle(False)
                return
            try:
                writer.write(request_bytes(f"{self.host}:{self.port}", path, game["tokens"][seat], extra))
                if not stream:
                    await settle(True)  # a long-poll says nothing until the game moves (or 429s at once)
                status = (await reader.readuntil(b"\r\n")).split()[1].decode()
                if status == "304":  # a long-poll's timeout: poll again, as a client does
                    continue
                if status != "200":
                    self.refused[status] = self.refused.get(status, 0) + 1
                    await settle(False)
                    await asyncio.sleep(5)  # Retry-After
                    continue
                if stream:
                    await reader.readuntil(b"retry: 2000\n\n")
                    await settle(True)
                await reader.readuntil(b"event: view" if stream else b"\r\n\r\n")
                self.woken.setdefault(game["id"], []).append(time.perf_counter())
                return
            except (asyncio.IncompleteReadError, ConnectionError, OSError) as exc:
                if self.closing:
                    pass
                elif counted and (stream or settled):  # held, then ended unasked
                    self.cut += 1
                else:  # reset before the server took it (a full accept queue), never answered
                    name = f"reset before answered ({type(exc).__name__})"
                    self.refused[name] = self.refused.get(name, 0) + 1
                await settle(False)
                return
            finally:
                writer.close()

    def close(self):
        self.closing = True

        async def cancel():
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)
        asyncio.run_coroutine_threadsafe(cancel(), self.loop).result(300)
        self.tasks, self.held, self.closing = [], 0, False


def crowd_part(connection, base: str, games: list[dict], indices: list[int], share: float, addresses: int):
    """A client process: its part of the crowd, driven by commands from the bench over a pipe."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    crowd = CrowdLoop(base, games, indices, share, addresses)
    while True:
        command, argument = connection.recv()
        if command == "open":
            connection.send(crowd.open(argument))
        elif command == "status":
            connection.send((crowd.held, dict(crowd.refused), crowd.cut))
        elif command == "woken":
            connection.send({game: list(moments) for game, moments in crowd.woken.items()})
        elif command == "close":
            crowd.close()
            connection.send(None)
            return


class Crowd:
    """N waiters split over `processes` client processes (one process's open files cannot hold
    20,000 sockets here, and one loop's GIL would slow the mover): waiter n is in part n % processes.
    time.perf_counter is CLOCK_MONOTONIC, one clock for every process, so wake-up moments compare."""

    def __init__(self, base: str, games: list[dict], count: int, share: float, addresses: int, processes: int):
        self.count = count
        context = multiprocessing.get_context("spawn")
        self.parts = []
        for part in range(processes):
            ours, theirs = context.Pipe()
            process = context.Process(target=crowd_part, daemon=True, args=(
                theirs, base, games, list(range(part, count, processes)), share, addresses))
            process.start()
            self.parts.append((process, ours))

    def ask(self, command: str, argument=None) -> list:
        for _, connection in self.parts:
            connection.send((command, argument))
        return [connection.recv() for _, connection in self.parts]

    def open(self, seconds: float) -> float:
        return max(self.ask("open", seconds))

    def status(self) -> tuple[int, dict, int]:
        held, refused, cut = 0, {}, 0
        for part_held, part_refused, part_cut in self.ask("status"):
            held, cut = held + part_held, cut + part_cut
            for reason, times in part_refused.items():
                refused[reason] = refused.get(reason, 0) + times
        return held, refused, cut

    def woken(self, game_id: str) -> list[float]:
        return [moment for part in self.ask("woken") for moment in part.get(game_id, ())]

    def until_held(self, timeout: float) -> float:
        """Seconds until all N are held (a refused one retries after 5 s), at most `timeout`."""
        started = time.monotonic()
        while self.status()[0] < self.count and time.monotonic() - started < timeout:
            time.sleep(0.1)
        return time.monotonic() - started

    def close(self):
        self.ask("close")
        for process, _ in self.parts:
            process.join(60)


def storm_phase(kind: str, url: str, directory: Path, options) -> None:
    count = options.storm
    processes = options.client_processes or math.ceil(count / 8000)
    # A gevent worker takes at most WORKER_CONNECTIONS (10,000 by default) at once: room for the
    # crowd however the two workers' accepts fall (an operator sets it the same way).
    env = {**STORM_ENV, "WORKER_CONNECTIONS": str(max(10000, count * 6 // 10))}
    print(f"  {kind}: {processes} client process(es); WORKER_CONNECTIONS={env['WORKER_CONNECTIONS']}", flush=True)
    with served(url, directory, 2, f"{kind}-storm", env=env) as (process, base):
        session = requests.Session()
        games = [new_game(base, session) for _ in range(options.games)]
        mover_games = [new_game(base, session)]
        pids = workers_of(process.pid)
        idle_rss = rss_mb(pids)
        alone = mover(base, options.seconds, options.rate)
        crowd = Crowd(base, games, count, options.share, options.addresses, processes)
        took = crowd.open(count / 2000)
        held, refused, cut = crowd.status()
        print(f"  {kind}: opened {count:,} in {took:.1f} s: held {held:,}, refused {refused}, cut {cut}", flush=True)
        time.sleep(2)
        rss, gauges = rss_mb(pids), scrape(base)
        in_use, samples = [], []

        def sample():
            while not samples:
                in_use.append(scrape(base)["gin_db_pool_in_use"])
                time.sleep(0.5)
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        crowded = mover(base, options.seconds, options.rate)
        samples.append(True)
        sampler.join()
        # Wake-ups: moves on games the crowd waits on; each waiter's answer after its game's move.
        wake = []
        for game in games[:options.wake_games]:
            sent = time.perf_counter()
            play_one(base, session, game)
            deadline = time.monotonic() + 5
            expected = sum(1 for n in range(count) if n % len(games) == games.index(game))
            while len(crowd.woken(game["id"])) < expected and time.monotonic() < deadline:
                time.sleep(0.01)
            wake += [moment - sent for moment in crowd.woken(game["id"])]
        held, refused, cut = crowd.status()
        print(f"  moves p99 {pct(alone, 99) * 1000:.1f} ms alone, {pct(crowded, 99) * 1000:.1f} ms crowded; "
              f"wake-up p99 {pct(wake, 99) * 1000:.1f} ms; RSS {idle_rss:.0f} -> {rss:.0f} MB", flush=True)
        crowd.close()
        time.sleep(2)
        while scrape(base)["gin_waiting_clients"] > 0 and time.monotonic() < deadline + 120:
            time.sleep(1)  # the server has seen them all leave
        # The reconnect storm: all N again within 5 s, a mover playing meanwhile.
        for game in games:
            game["version"] = session.get(f"{base}/games/{game['id']}", timeout=60,
                                          headers={"Authorization": f"Bearer {game['tokens'][0]}"}).json()["version"]
        storm_moves = []
        moving = threading.Thread(target=lambda: storm_moves.extend(mover(base, options.seconds * 2, options.rate)))
        moving.start()
        storm = Crowd(base, games, count, options.share, options.addresses, processes)
        served_again = storm.open(5)
        served_again += storm.until_held(30)
        moving.join()
        storm_held, storm_refused, storm_cut = storm.status()
        storm.close()
        print(f"\n{kind}: {count:,} waiters ({options.share:.0%} streams, {1 - options.share:.0%} long-polls) from "
              f"{options.addresses} loopback addresses, {options.games} games; Procfile web line, 2 gevent workers")
        print("| figure | value |\n| --- | --- |")
        rows = [
            ("held / refused / cut", f"{held:,} / {sum(refused.values())} {refused or ''} / {cut}"),
            ("opened in", f"{took:.1f} s"),
            ("clients waiting (gin_waiting_clients)", f"{gauges['gin_waiting_clients']:.0f}"),
            ("pool connections in use while they wait (gin_db_pool_in_use, max of samples)",
             f"{max(in_use or [gauges['gin_db_pool_in_use']]):.0f} (at rest: {gauges['gin_db_pool_in_use']:.0f})"),
            ("move POST p50 / p99, nobody waiting", f"{pct(alone, 50) * 1000:.1f} / {pct(alone, 99) * 1000:.1f} ms"),
            ("move POST p50 / p99, all waiting", f"{pct(crowded, 50) * 1000:.1f} / {pct(crowded, 99) * 1000:.1f} ms"),
            ("p99 ratio (waiting / none)", f"{pct(crowded, 99) / pct(alone, 99):.2f}"),
            (f"wake-up p50 / p99 ({len(wake)} waiters on {options.wake_games} games moved)",
             f"{pct(wake, 50) * 1000:.1f} / {pct(wake, 99) * 1000:.1f} ms"),
            ("workers' RSS: idle / waiting; per waiter", f"{idle_rss:.0f} / {rss:.0f} MB; "
             f"{(rss - idle_rss) * 1024 / max(held, 1):.1f} KB"),
            ("storm: all reconnecting within 5 s, served again in", f"{served_again:.1f} s"),
            ("storm: held / refused / cut", f"{storm_held:,} / {sum(storm_refused.values())} {storm_refused or ''} "
                                            f"/ {storm_cut}"),
            ("storm: move POST p50 / p99 / max", f"{pct(storm_moves, 50) * 1000:.1f} / "
             f"{pct(storm_moves, 99) * 1000:.1f} / {max(storm_moves) * 1000:.1f} ms"),
        ]
        del mover_games
        for name, value in rows:
            print(f"| {name} | {value} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--waiters", default="0,1000,10000")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rate", type=float, default=20)
    parser.add_argument("--wakeups", type=int, default=100)
    parser.add_argument("--storm", type=int, default=0,
                        help="issue 37's run instead: N waiters from many addresses, then their reconnect storm")
    parser.add_argument("--share", type=float, default=0.8, help="the streams' share of --storm's waiters")
    parser.add_argument("--addresses", type=int, default=200, help="loopback addresses the waiters come from")
    parser.add_argument("--client-processes", type=int, default=0,
                        help="client processes holding --storm's waiters (default: one per 8,000)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--wake-games", type=int, default=10)
    parser.add_argument("--pg-url", default=os.environ.get("TEST_DATABASE_URL",
                                                           "postgresql+psycopg://postgres@127.0.0.1:5432/test"))
    options = parser.parse_args()
    options.waiters = [int(n) for n in options.waiters.split(",")]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:  # one socket per waiter, here and in the server (20,000 waiters need more than 20,000)
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(hard, 65536), max(hard, 65536)))
    except (ValueError, OSError):  # not allowed to raise the hard limit
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    os.environ["TEST_DATABASE_URL"] = options.pg_url
    print("command:", shlex.join([".venv/bin/python", "bench/bench_waiting.py", *sys.argv[1:]]))
    print("load average at start:", " ".join(f"{x:.2f}" for x in os.getloadavg()), "| cores:", os.cpu_count())
    kinds = ["sqlite", "postgresql"] if options.db == "both" else [options.db]
    for kind in kinds:
        with tempfile.TemporaryDirectory() as folder, database_url(kind, Path(folder)) as url:
            if options.storm:
                storm_phase(kind, url, Path(folder), options)
                continue
            load_phase(kind, url, Path(folder), options)
            wakeup_phase(kind, url, Path(folder), options)


if __name__ == "__main__":
    main()
