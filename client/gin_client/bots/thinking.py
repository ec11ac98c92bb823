"""The account bot's thinking pool: decisions for many games at once, off the stream's thread.

One stream brings every game's `your_turn`; deciding each in the thread that reads it made every
game wait for every other (nine level-5 games thinking 0.5 s each: a tenth player's move waited
some 7 s). Here the stream's thread only queues the game, and `thinkers` threads take the queue
first come first served across games, each deciding in a worker process of its own (a level-5
decision is pure Python: threads alone would share one core) and then making the move.

At most one decision per game is in flight: a newer `your_turn` for a game still queued takes the
queued one's place (its turn in the queue kept), and one for a game being decided waits for that
decision to end. A stale view decided anyway is harmless: the server refuses the move (If-Match)
and the stream brings the current view.

Sizing: a decision takes about `think_seconds` at level 5 (less at the other levels), so the pool
makes about thinkers / think_seconds decisions a second, and a decision waits about
think_seconds x (1 + decisions queued ahead of it / thinkers). docs/operations.md has the rule.
"""
from __future__ import annotations

import logging
import multiprocessing
import random
import threading
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable

from . import levels, reference
from .model import Memory
from .reference import Decision

log = logging.getLogger("gin.account_bot")


def decide_move(view: dict, level: int, seed: str, memory: Memory | None, think_seconds: float,
                knock_at: int | None) -> tuple[Decision, Memory | None]:
    """One decision and the game's memory after it: run in a thinking process (both cross it pickled).
    Seeded by the game and version: a retried decision is the same one."""
    if level == levels.DEFAULT_LEVEL:  # the reference bot, --knock-at and all
        return reference.decide(view, knock_at), memory
    return levels.decide(view, level, random.Random(seed), memory, think_seconds), memory


class ThinkingPool:
    """`thinkers` threads running work(game_id, view) for queued games, first come first served.

    thinkers >= 2: each decision runs in a worker process (run_decision sends it there);
    thinkers == 1: one thread, deciding in this process (the stream still never waits);
    thinkers == 0: no thread: work runs in the caller's thread (the stream's, as before the pool)."""

    def __init__(self, thinkers: int, work: Callable[[str, dict], None]):
        self.thinkers, self.work = max(0, thinkers), work
        self.queued: OrderedDict[str, dict] = OrderedDict()  # game -> the newest view to decide, in arrival order
        self.in_flight: set[str] = set()
        self.newest: dict[str, int] = {}  # game -> the newest version queued or decided: older views are stale
        self.lock = threading.Condition()
        self.closed = False
        self.processes = self._processes() if self.thinkers >= 2 else None
        for n in range(self.thinkers):
            threading.Thread(target=self._thinker, name=f"thinker-{n}", daemon=True).start()

    def _processes(self) -> ProcessPoolExecutor:
        # spawn: a fork of a process with threads (the stream's, the pollers') may copy a held lock
        return ProcessPoolExecutor(self.thinkers, mp_context=multiprocessing.get_context("spawn"))

    def submit(self, game_id: str, view: dict, again: bool = False) -> None:
        """Queue a decision for this view, unless one for the same or a newer version was already
        queued or decided (`again`: retry this very view, e.g. after its move could not be sent)."""
        version = view.get("version") or 0
        with self.lock:
            newest = self.newest.get(game_id, -1)
            if version < newest or version == newest and not again:
                return
            self.newest[game_id] = max(version, self.newest.get(game_id, -1))
            if self.thinkers == 0:
                inline = True
            else:
                inline = False
                self.queued[game_id] = view  # a queued older view is superseded, its place kept
                self.lock.notify()
        if inline:
            self.work(game_id, view)

    def forget(self, game_id: str) -> None:
        """The game is over: drop what is queued for it."""
        with self.lock:
            self.queued.pop(game_id, None)
            self.newest.pop(game_id, None)

    def waiting(self) -> int:
        with self.lock:
            return len(self.queued)

    def _next(self) -> tuple[str, dict] | None:
        with self.lock:
            while not self.closed:
                for game_id in self.queued:  # the oldest queued game not being decided already
                    if game_id not in self.in_flight:
                        self.in_flight.add(game_id)
                        return game_id, self.queued.pop(game_id)
                self.lock.wait()
            return None

    def _thinker(self) -> None:
        while (taken := self._next()) is not None:
            game_id, view = taken
            try:
                self.work(game_id, view)
            except Exception:  # one game's failure must not stop the thinker serving the others
                if self.closed:  # (the pool closed under it: the bot is stopping, nothing failed)
                    return
                log.exception("game=%s: the decision failed", game_id[:8])
            finally:
                with self.lock:
                    self.in_flight.discard(game_id)
                    self.lock.notify_all()

    def run_decision(self, function: Callable, *args):
        """function(*args) in a worker process when the pool has them, else here. A worker lost
        (killed, out of memory) breaks the executor: a new one is made and the decision tried again."""
        executor = self.processes
        if executor is None:
            return function(*args)
        try:
            return executor.submit(function, *args).result()
        except BrokenProcessPool:
            with self.lock:
                if self.processes is executor:  # the first thinker to see it replaces it
                    log.warning("a thinking process died; starting new ones")
                    self.processes = self._processes()
                    executor.shutdown(wait=False)
            return self.processes.submit(function, *args).result()

    def close(self) -> None:
        with self.lock:
            self.closed = True
            self.lock.notify_all()
        if self.processes is not None:
            # Waits for the decisions already running (a think time at most) and the executor's own
            # thread: one still ending at exit has its wake-up pipe closed under concurrent.futures'
            # exit hook, which then prints "OSError: Bad file descriptor" (CPython 3.11).
            self.processes.shutdown(wait=True, cancel_futures=True)
