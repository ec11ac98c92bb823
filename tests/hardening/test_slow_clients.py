"""Slow clients hold no server capacity (issue 17, finding 4): connections that send part of a
request and then nothing do not delay anyone's turn, and the server closes them; a header too
large gets a problem document. Against a real gunicorn as the Procfile runs it (gevent workers,
service/core/server.py). The database plays no part: SQLite only."""
from __future__ import annotations

import socket
import time

import requests

from ..conftest import start_gunicorn, stop_gunicorn

SLOW = 120  # well past the 16 waiting requests that froze 2 gthread workers x 8 threads


def test_half_sent_requests_delay_no_turn_and_are_closed(tmp_path):
    process, base = start_gunicorn(f"sqlite:///{tmp_path / 'slow.sqlite3'}", workers=2,
                                   log_path=tmp_path / "gunicorn.log", env={"KEEPALIVE": "2"})
    host, port = base.removeprefix("http://").split(":")
    slow = []
    try:
        for n in range(SLOW):  # a few bytes of a request line or of the headers, then silence
            sock = socket.create_connection((host, int(port)), timeout=10)
            sock.sendall(b"GET /games/x HTTP/1.1\r\nHo" if n % 2 else b"POST /ga")
            slow.append(sock)
        # A player's whole turn goes through meanwhile.
        created = requests.post(f"{base}/games", json={"name": "Ann"}, timeout=10)
        assert created.status_code == 201
        game = created.json()
        joined = requests.post(f"{base}/games/{game['game_id']}/join",
                               json={"invite_code": game["invite_code"], "name": "Bob"}, timeout=10)
        assert joined.status_code == 201
        seat = joined.json()["game"]["to_move"]
        token = game["token"] if seat == 0 else joined.json()["token"]
        moved = requests.post(f"{base}/games/{game['game_id']}/actions", json={"type": "pass"},
                              headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert moved.status_code == 200, moved.text
        # The server gives up on each of them (a request's head must arrive within KEEPALIVE s).
        closed = 0
        for sock in slow:
            sock.settimeout(30)
            try:
                closed += sock.recv(1) == b""
            except ConnectionResetError:
                closed += 1
        assert closed == SLOW
    finally:
        for sock in slow:
            sock.close()
        stop_gunicorn(process)


def test_an_oversized_header_gets_a_problem_document(tmp_path):
    process, base = start_gunicorn(f"sqlite:///{tmp_path / 'big.sqlite3'}", workers=1,
                                   log_path=tmp_path / "gunicorn.log")
    try:
        answer = requests.get(f"{base}/games/x", headers={"Authorization": "Bearer " + "a" * 9000}, timeout=10)
        assert answer.status_code == 431
        assert answer.headers["Content-Type"] == "application/problem+json"
        assert answer.json()["code"] == "header-too-large" and answer.json()["status"] == 431
        long_line = requests.get(f"{base}/games/{'x' * 9000}", timeout=10)
        assert long_line.status_code == 414 and long_line.json()["code"] == "uri-too-long"
        assert requests.get(f"{base}/health", timeout=10).status_code == 200
    finally:
        stop_gunicorn(process)
