"""Real streams for the stream-reading tests: a scenario between two players that puts every event
type of the player stream on their streams, and the frames of a stream read with the client's one
reader (gin_client/api.py's sse_frames, docs/api.md's)."""
from __future__ import annotations

import threading
import uuid

import requests

from gin_client.api import lines_as_they_come, sse_frames

PLAYER_EVENTS = {"challenge_received", "challenge_accepted", "challenge_declined", "challenge_cancelled",
                 "game_started", "your_turn", "opponent_moved", "game_over", "rematch_offered",
                 "series_offered", "series_declined", "series_over", "message", "tournament_started",
                 "round_started", "tournament_over", "tournament_cancelled"}


def bearer(token: str, **headers) -> dict:
    return {"Authorization": f"Bearer {token}", **headers}


def post(base: str, path: str, token: str | None = None, body: dict | None = None, status: int = 201) -> dict:
    answer = requests.post(f"{base}{path}", json=body if body is not None else {},
                           headers=bearer(token) if token else {}, timeout=30)
    assert answer.status_code == status, (path, answer.status_code, answer.text)
    return answer.json()


def every_player_event(base: str) -> dict:
    """Ann and Bob, players, go through every kind of event: a challenge declined, one withdrawn, one
    accepted and its game played (a message, a move, a resignation), a rematch offered, a tournament cancelled
    and one played (its games resigned), a series declined and a series of one game played to its end
    (series_over, the last event of each stream).
    Answers {"ann", "bob": player tokens, "game": the finished game's id}."""
    suffix = uuid.uuid4().hex[:6]
    ann = post(base, "/players", body={"name": f"Ann{suffix}"})["token"]
    bob_name = f"Bob{suffix}"
    bob = post(base, "/players", body={"name": bob_name})["token"]
    offer = {"to": bob_name, "rules": {"preset": "standard", "target": 10}}
    declined = post(base, "/challenges", ann, offer)["challenge_id"]
    post(base, f"/challenges/{declined}/decline", bob, {"reason": "busy"}, status=200)
    withdrawn = post(base, "/challenges", ann, offer)["challenge_id"]
    post(base, f"/challenges/{withdrawn}/cancel", ann, status=200)
    taken = post(base, "/challenges", ann, offer)["challenge_id"]
    game = post(base, f"/challenges/{taken}/accept", bob)["game_id"]
    post(base, f"/games/{game}/messages", ann, {"text": "good luck"})
    view = requests.get(f"{base}/games/{game}", headers=bearer(ann), timeout=30).json()
    mover = ann if view["to_move"] == view["seat"] else bob
    view = requests.get(f"{base}/games/{game}", headers=bearer(mover), timeout=30).json()
    post(base, f"/games/{game}/actions", mover, view["legal_actions"][0], status=200)
    post(base, f"/games/{game}/actions", bob if mover == ann else ann, {"type": "resign"}, status=200)
    post(base, f"/games/{game}/rematch", ann)
    play_a_tournament(base, ann, bob, suffix)
    series = {"to": bob_name, "kind": "best_of", "matches": 1}
    refused = post(base, "/series", ann, series)["series_id"]
    post(base, f"/series/{refused}/decline", bob, status=200)
    played = post(base, "/series", ann, series)["series_id"]
    first = post(base, f"/series/{played}/accept", bob)["games"][0]["game_id"]
    post(base, f"/games/{first}/actions", ann, {"type": "resign"}, status=200)
    return {"ann": ann, "bob": bob, "game": game}


def play_a_tournament(base: str, ann: str, bob: str, suffix: str) -> None:
    """Bob enters a tournament Ann cancels; then Ann, Bob and Cid play a round robin all at once, each
    game resigned by its first player."""
    made = {"name": "Cup", "format": "knockout", "min_entrants": 3, "rules": {"preset": "standard", "target": 10}}
    cancelled = post(base, "/tournaments", ann, made)["tournament_id"]
    post(base, f"/tournaments/{cancelled}/join", bob, status=200)
    post(base, f"/tournaments/{cancelled}/cancel", ann, status=200)
    cid = post(base, "/players", body={"name": f"Cid{suffix}"})["token"]
    played = post(base, "/tournaments", ann, {**made, "format": "round_robin", "pace": "all_at_once"})["tournament_id"]
    tokens = {}
    for token in (ann, bob, cid):
        tokens[requests.get(f"{base}/me", headers=bearer(token), timeout=30).json()["name"]] = token
        post(base, f"/tournaments/{played}/join", token, status=200)
    started = post(base, f"/tournaments/{played}/start", ann, status=200)
    for pairing in (p for r in started["rounds_played"] for p in r["pairings"]):
        post(base, f"/games/{pairing['games'][0]['game_id']}/actions", tokens[pairing["first"]], {"type": "resign"},
             status=200)


def frames(url: str, token: str, last_id: str | None = None, stop_at: str | None = None, seconds: float = 60):
    """(id, event, data) of each frame of a real stream, until the server ends it, a frame whose
    event is `stop_at` has come, or `seconds` have passed (the stream is then closed)."""
    headers = bearer(token, Accept="text/event-stream", **({"Last-Event-ID": last_id} if last_id else {}))
    with requests.get(url, headers=headers, stream=True, timeout=(5, 60)) as response:
        assert response.status_code == 200, response.text
        timer = threading.Timer(seconds, response.close)
        timer.daemon = True
        timer.start()
        try:
            for frame in sse_frames(lines_as_they_come(response)):
                yield frame
                if frame[1] == stop_at:
                    return
        finally:
            timer.cancel()
