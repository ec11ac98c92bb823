"""docs/api.md's "Reading the streams": its Python reader is the one gin_client/api.py reads every stream
with (the CLI and the bots through it), and it runs as written against a real server, both
streams, reconnecting with Last-Event-ID to the finished game's 204; its TypeScript reader is the
one clients/ts/stream.ts holds (type-checked by test_generated_clients.py)."""
from __future__ import annotations

import inspect
import json
import queue
import threading
from pathlib import Path

from gin_client import api

from ..doc_blocks import block
from .streams import PLAYER_EVENTS, every_player_event

ROOT = Path(__file__).resolve().parents[2]


def test_the_docs_reader_is_the_clients_reader():
    assert inspect.getsource(api.sse_frames) in block("stream-reader")
    assert block("stream-reader-ts") in (ROOT / "clients" / "ts" / "stream.ts").read_text()


def test_frames_are_cut_at_blank_lines_with_comments_skipped_and_the_last_id_kept():
    lines = [": connected", "", "retry: 2000", "", "id: 7", "event: view", "data: {\"a\":", "data:1}", "",
             ": keep-alive", "", "event: note", "data: plain", "", "data", "id: 9", "", "id", ""]
    assert list(api.sse_frames(lines, "5")) == [("7", "view", '{"a":\n1}'), ("7", "note", "plain"),
                                                 ("9", "message", "")]


def docs_reader() -> dict:
    namespace: dict = {}
    exec(block("stream-reader"), namespace)  # noqa: S102 - our own docs
    return namespace


def test_the_docs_reader_follows_both_real_streams(live_server):
    follow = docs_reader()["follow"]
    story = every_player_event(live_server)

    # The game stream: the finished match's last view, the end of the stream, then reconnecting with
    # its id as Last-Event-ID is answered 204, and the reader stops.
    views = list(follow(f"{live_server}/games/{story['game']}/stream", story["ann"]))
    assert [event for event, _ in views] == ["view"]
    assert views[0][1]["event"] == "view" and views[0][1]["status"] == "finished"

    # The player stream, from its first event ("0"), in a thread: it lasts until the reader stops.
    got: queue.Queue = queue.Queue()

    def read():
        for event, data in follow(f"{live_server}/me/stream", story["bob"], "0"):
            got.put((event, data))
            if event == "series_over":
                return

    threading.Thread(target=read, daemon=True).start()
    events = []
    while not events or events[-1][0] != "series_over":
        events.append(got.get(timeout=60))
    assert all(event == data["type"] for event, data in events)
    assert [data["seq"] for _, data in events] == list(range(1, len(events) + 1))  # in order, each once
    told_bob = {"challenge_received", "challenge_cancelled", "game_started", "opponent_moved", "game_over",
                "rematch_offered", "series_offered", "series_over"}  # (your_turn: when the deal leaves him to move)
    assert told_bob <= {event for event, _ in events} <= PLAYER_EVENTS
    assert json.dumps(events[0][1])  # plain JSON, as the server sent it
