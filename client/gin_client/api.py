"""The service's HTTP API for Python programs: the `gin` command (cli/) and the bots (bots/) use it,
and so can yours: `pip install ./client`, then `from gin_client.api import Api, views`.

Needs Python 3.11+ and `requests`, nothing of the service. What it does for you:

- one `Api` per server and seat token; every refusal raised as `ServiceError` with the problem
  document's stable `code`, `status` and `detail`; an unreachable server as `NetworkError`;
- retries: every request after a connection failure or a 429/502/503/504 (honouring Retry-After),
  a move always with the same `Idempotency-Key`, so a retry is never applied twice; creating and
  joining (whose tokens are shown once) only when they surely never reached the server;
- `If-Match` with the version a move was chosen from, ETags (`If-None-Match` answers 304);
- waiting for a change: `views()` follows `GET /games/{id}/stream` (Server-Sent Events) where the
  server offers it, reconnecting with `Last-Event-ID` after a dropped connection or a server
  restart, and falls back to the long-poll `GET /games/{id}?wait=N` where it does not (404).

    api = Api("http://127.0.0.1:8000", token)
    view, etag = api.view(game_id)
    for view in views(api, game_id, view["version"]):   # each new view, as it happens
        if view["to_move"] == view["seat"]:
            api.act(game_id, view["legal_actions"][0], version=view["version"])
"""
from __future__ import annotations

import json
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator

import requests
import urllib3  # installed with requests: its exceptions tell a refused connection apart

USER_AGENT = "gin-client/0.3"
STREAM_READ_TIMEOUT = 60.0  # the server sends a keep-alive comment every 15 s: silence this long is a dead line



class ServiceError(Exception):
    """The service said no: a problem+json answer with `code` and `detail` (and `retry_after`
    seconds, when the answer said Retry-After)."""

    def __init__(self, status: int, code: str, detail: str, body: dict | None = None,
                 retry_after: float | None = None):
        super().__init__(detail)
        self.status, self.code, self.detail, self.body = status, code, detail, body or {}
        self.retry_after = retry_after


class NetworkError(Exception):
    """The service could not be reached (after retries)."""


def _problem(response: requests.Response) -> ServiceError:
    try:
        body = response.json()
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    detail = body.get("detail") or body.get("title") or response.reason or f"HTTP {response.status_code}"
    code = body.get("code") or f"http-{response.status_code}"
    retry_after = response.headers.get("Retry-After", "")
    return ServiceError(response.status_code, code, " ".join(str(detail).split()), body,
                        float(retry_after) if retry_after.isdigit() else None)


def etag_of(version) -> str:
    return f'"{version}"'


class Api:
    """One server, optionally one seat's token. Retries what is safe to retry: every request on
    a connection failure or a 502/503/504/429, POSTs only with the same Idempotency-Key."""

    def __init__(self, server: str, token: str | None = None, retries: int = 4, backoff: float = 0.5,
                 session: requests.Session | None = None, sleep=time.sleep):
        self.server = server.rstrip("/")
        self.token = token
        self.retries = retries
        self.backoff = backoff
        self.session = session or requests.Session()
        self.sleep = sleep

    def request(self, method: str, path: str, *, json_body=None, params=None, headers=None,
                timeout: float = 20.0, replayable: bool = True) -> requests.Response:
        """`replayable=False` for a POST the server cannot recognise when sent again (creating a
        game, taking a seat): it is retried only when it surely never reached the server."""
        headers = {"User-Agent": USER_AGENT, "Accept": "application/json", **(headers or {})}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        delay = self.backoff
        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            try:
                response = self.session.request(method, self.server + path, json=json_body, params=params,
                                                headers=headers, timeout=(5, timeout))
            except (requests.ConnectionError, requests.Timeout) as exc:
                if not replayable and not _never_sent(exc):
                    raise NetworkError(f"the answer from {self.server} was lost ({type(exc).__name__}) and "
                                       "this request cannot be safely repeated: it may have been done. "
                                       "The token is shown only once; ask for a new game or invite if "
                                       "this one now says it is taken") from None
                if last:
                    raise NetworkError(f"cannot reach {self.server}: {type(exc).__name__}") from None
                self.sleep(delay)
                delay = min(delay * 2, 30)
                continue
            if response.status_code in (429, 502, 503, 504) and not last:
                retry_after = response.headers.get("Retry-After", "")
                self.sleep(min(float(retry_after), 30) if retry_after.isdigit() else delay)
                delay = min(delay * 2, 30)
                continue
            if response.status_code >= 400:
                raise _problem(response)
            return response
        raise AssertionError("unreachable")

    # -- endpoints --
    # Creating a game and taking a seat answer with a token that the server keeps only as a hash,
    # so it cannot replay a lost answer: these two are not retried once they may have arrived.
    def create_game(self, body: dict) -> dict:
        return self.request("POST", "/games", json_body=body, replayable=False).json()

    def join_game(self, game_id: str, body: dict) -> dict:
        return self.request("POST", f"/games/{game_id}/join", json_body=body, replayable=False).json()

    def view(self, game_id: str, etag: str | None = None, wait: int | None = None) -> tuple[dict | None, str | None]:
        """The seat's view and its ETag; (None, etag) when unchanged since `etag` (304).
        With `wait`, ask the server to hold the answer until something changes (long-poll);
        a server that ignores it simply answers at once."""
        headers = {"If-None-Match": etag} if etag else {}
        params = {"wait": wait} if wait else None
        response = self.request("GET", f"/games/{game_id}", headers=headers, params=params,
                                timeout=20.0 + (wait or 0))
        new_etag = response.headers.get("ETag")
        if response.status_code == 304:
            return None, new_etag or etag
        view = response.json()
        return view, new_etag or (etag_of(view["version"]) if "version" in view else None)

    def act(self, game_id: str, action: dict, version=None, key: str | None = None) -> dict:
        headers = _idempotency(key)
        if version is not None:
            headers["If-Match"] = etag_of(version)
        return self.request("POST", f"/games/{game_id}/actions", json_body=action, headers=headers).json()

    def events(self, game_id: str, after: int = 0) -> list[dict]:
        """The history this seat may see after event `after` (0: all of it), following `next_after` pages."""
        events = []
        while True:
            page = self.request("GET", f"/games/{game_id}/events", params={"after": after, "limit": 200}).json()
            events.extend(page.get("events", []))
            after = page.get("next_after")
            if after is None or not page.get("events"):
                return events

    def messages(self, game_id: str, after: int = 0) -> list[dict]:
        """The game's messages this seat may see after message `after` (0: all), oldest first."""
        found = []
        while True:
            page = self.request("GET", f"/games/{game_id}/messages", params={"after": after, "limit": 200}).json()
            found.extend(page.get("messages", []))
            after = page.get("next_after")
            if after is None or not page.get("messages"):
                return found

    def review(self, game_id: str) -> dict:
        """The computer's review of a finished match, or its status while queued or running."""
        return self.request("GET", f"/games/{game_id}/review").json()

    def hint(self, game_id: str) -> dict:
        """The best option at this seat's decision now (unrated games against the house bot)."""
        return self.request("GET", f"/games/{game_id}/hint").json()

    def say(self, game_id: str, text: str) -> dict:
        """Write a message to the game's other seats (not sent again after a lost answer: it would show twice)."""
        return self.request("POST", f"/games/{game_id}/messages", json_body={"text": text}, replayable=False).json()

    # -- players (the token is then the player token): accounts, challenges, rematches, watch links --
    # A POST that makes something (an account, a challenge, a game by accepting) is not sent again
    # after a lost answer: a second one would make a second thing, or be refused as already done.
    def register(self, name: str, email: str | None = None, bot: bool = False) -> dict:
        body = {"name": name, "bot": bot, **({"email": email} if email else {})}
        return self.request("POST", "/players", json_body=body, replayable=False).json()

    def me(self) -> dict:
        return self.request("GET", "/me").json()

    def my_games(self, limit: int = 50, offset: int = 0) -> dict:
        return self.request("GET", "/me/games", params={"limit": limit, "offset": offset}).json()

    def player(self, name: str) -> dict:
        """A player's public profile with its rating (404 player-not-found)."""
        from urllib.parse import quote
        return self.request("GET", f"/players/{quote(name, safe='')}").json()

    def leaderboard(self, limit: int = 50, offset: int = 0) -> dict:
        """A page of the leaderboard: {"players": [{"rank", "name", "bot", "rating", ...}], "next_offset"}."""
        return self.request("GET", "/players", params={"sort": "rating", "limit": limit, "offset": offset}).json()

    def block(self, name: str) -> dict:
        from urllib.parse import quote
        return self.request("PUT", f"/me/blocks/{quote(name, safe='')}").json()

    def unblock(self, name: str) -> None:
        from urllib.parse import quote
        self.request("DELETE", f"/me/blocks/{quote(name, safe='')}")

    def blocks(self) -> list[dict]:
        return self.request("GET", "/me/blocks").json()["blocks"]

    def house_bot(self) -> dict:
        """{"name", "bot", "levels"} of the server's own bot, the computer to challenge, with each level's label and
        rating (404 no-house-bot: none)."""
        return self.request("GET", "/house-bot").json()

    def challenge(self, body: dict) -> dict:
        return self.request("POST", "/challenges", json_body=body, replayable=False).json()

    def challenges(self) -> dict:
        return self.request("GET", "/challenges").json()

    def accept(self, challenge_id: str) -> dict:
        return self.request("POST", f"/challenges/{challenge_id}/accept", replayable=False).json()

    def decline(self, challenge_id: str, reason: str) -> dict:
        return self.request("POST", f"/challenges/{challenge_id}/decline", json_body={"reason": reason},
                            replayable=False).json()

    def cancel(self, challenge_id: str) -> dict:
        return self.request("POST", f"/challenges/{challenge_id}/cancel", replayable=False).json()

    def offer_rematch(self, game_id: str) -> dict:
        return self.request("POST", f"/games/{game_id}/rematch", replayable=False).json()

    def rematch(self, game_id: str) -> dict:
        return self.request("GET", f"/games/{game_id}/rematch").json()

    def create_watch_link(self, game_id: str) -> dict:
        return self.request("POST", f"/games/{game_id}/watch-links", replayable=False).json()

    def watch_links(self, game_id: str) -> list[dict]:
        return self.request("GET", f"/games/{game_id}/watch-links").json()["links"]

    def revoke_watch_link(self, game_id: str, link_id: str) -> None:
        self.request("DELETE", f"/games/{game_id}/watch-links/{link_id}")

    def webhook_deliveries(self, game_id: str, limit: int = 20, cursor: str | None = None) -> dict:
        """A page of the seat's webhook calls, newest first: {"deliveries": [...], "next_cursor"}."""
        params = {"limit": limit, **({"cursor": cursor} if cursor else {})}
        return self.request("GET", f"/games/{game_id}/webhook-deliveries", params=params).json()

    def redeliver_webhook(self, game_id: str, webhook_id: str) -> dict:
        """Send a call again, same body and webhook-id (a receiver drops it if it has it already)."""
        return self.request("POST", f"/games/{game_id}/webhook-deliveries/{webhook_id}/redeliver").json()

    def series(self, series_id: str) -> dict:
        """A series (GET /series/{id}): its games and standings; the player token opens it."""
        return self.request("GET", f"/series/{series_id}").json()

    def tournaments(self, status: str | None = None, format: str | None = None, entry: str | None = None,
                    limit: int = 50, offset: int = 0) -> dict:
        """Tournaments, newest first (GET /tournaments): {"tournaments": [...], "next_offset"}."""
        params = {name: value for name, value in (("status", status), ("format", format), ("entry", entry),
                                                  ("limit", limit), ("offset", offset)) if value is not None}
        return self.request("GET", "/tournaments", params=params).json()

    def tournament(self, tournament_id: str) -> dict:
        """One tournament (GET /tournaments/{id}): entrants, rounds, standings, crosstable."""
        return self.request("GET", f"/tournaments/{tournament_id}").json()

    def tournament_action(self, tournament_id: str, verb: str) -> dict:
        """join, leave or withdraw (POST /tournaments/{id}/<verb>) with the player token."""
        return self.request("POST", f"/tournaments/{tournament_id}/{verb}").json()


def _never_sent(exc: Exception) -> bool:
    """True when the request cannot have reached the server: the connection was never made."""
    if isinstance(exc, requests.ConnectTimeout):
        return True
    cause = exc.args[0] if exc.args else None
    cause = getattr(cause, "reason", cause)  # urllib3 wraps the cause in MaxRetryError
    return isinstance(cause, (urllib3.exceptions.NewConnectionError, urllib3.exceptions.ConnectTimeoutError))


def _idempotency(key: str | None = None) -> dict:
    # One key per command: a retry after a lost answer is recognised and not applied twice.
    return {"Idempotency-Key": key or uuid.uuid4().hex}


def wait_for_change(api: Api, game_id: str, etag: str | None, wait: int = 30, max_delay: float = 30.0,
                    sleep=time.sleep, clock=time.monotonic, deadline: float | None = None, min_delay: float = 1.0):
    """Poll until the view differs from `etag`; returns (view, etag), or (None, etag) at `deadline`.

    Conditional GETs (If-None-Match) cost the server almost nothing; `?wait=` lets a server that
    supports long-polling hold the request open. When the server answers 304 quickly (it ignores
    `wait`), back off `min_delay` (1), 2, 4 ... `max_delay` seconds between polls."""
    delay = min_delay
    while True:
        started = clock()
        remaining = None if deadline is None else deadline - started
        if remaining is not None and remaining <= 0:
            return None, etag
        this_wait = wait if remaining is None or not wait else max(1, min(wait, int(remaining)))
        view, etag = api.view(game_id, etag=etag, wait=this_wait or None)
        if view is not None:
            return view, etag
        if not this_wait or clock() - started < this_wait / 2:  # answered at once: no long-poll here
            pause = delay if remaining is None else min(delay, max(0.0, deadline - clock()))
            sleep(pause)
            delay = min(delay * 2, max_delay)


class StreamUnavailable(Exception):
    """The server has no stream for games (404): wait by long-poll instead."""


class StreamEnded(Exception):
    """The server says nothing more will come (204): the match is over and its last view was seen."""


# docs/api.md's "Reading the streams" shows this function as it is here (tests/client/test_stream_reader.py
# holds the two equal): one reader of Server-Sent Events for the docs, the CLI and the bots.
def sse_frames(lines, last_id=None):
    """(id, event, data) for each frame of a text/event-stream, from its lines; comments are skipped."""
    event, data = "message", []
    for line in lines:
        if line == "":  # a blank line ends a frame
            if data:
                yield last_id, event, "\n".join(data)
            event, data = "message", []
        elif not line.startswith(":"):  # ": keep-alive" is a comment
            field, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if field == "id":
                last_id = value  # kept until the next id: what Last-Event-ID sends on reconnecting
            elif field == "event":
                event = value
            elif field == "data":
                data.append(value)


def lines_as_they_come(response: requests.Response) -> Iterator[str]:
    """The body's lines as soon as each is complete. requests' iter_lines waits for a whole chunk
    (512 bytes) before it yields, which would hold an event back until enough keep-alives came."""
    raw = response.raw
    read = raw.read1 if hasattr(raw, "read1") else lambda amount: raw.read(1)  # urllib3 < 2.1: a byte at a time
    pending = b""
    while True:
        data = read(65536)
        if not data:
            break
        pending += data
        *lines, pending = pending.split(b"\n")
        for line in lines:
            yield line.rstrip(b"\r").decode("utf-8")
    if pending:
        yield pending.rstrip(b"\r").decode("utf-8")


def stream(api: "Api", game_id: str, last_event_id: int | None = None, until: float | None = None) -> Iterator[dict]:
    """The views the server streams for this seat, from the one after `last_event_id`. Returns when
    the server closes the stream, or at `until` (a time.monotonic() value); raises
    StreamUnavailable (404), StreamEnded (204), ServiceError (another refusal, 429
    too-many-waiters among them) or NetworkError."""
    headers = {"User-Agent": USER_AGENT, "Accept": "text/event-stream"}
    if api.token:
        headers["Authorization"] = f"Bearer {api.token}"
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    try:
        response = api.session.get(f"{api.server}/games/{game_id}/stream", headers=headers, stream=True,
                                   timeout=(5, STREAM_READ_TIMEOUT))
    except (requests.ConnectionError, requests.Timeout) as exc:
        raise NetworkError(f"cannot reach {api.server}: {type(exc).__name__}") from None
    with response:
        if response.status_code == 404:
            raise StreamUnavailable(game_id)
        if response.status_code == 204:
            raise StreamEnded(game_id)
        if response.status_code >= 400:
            raise _problem(response)
        # A stream may stay silent but for keep-alives: at `until`, closing it ends the reading.
        timer = threading.Timer(max(0.0, until - time.monotonic()), response.close) if until is not None else None
        if timer is not None:
            timer.daemon = True
            timer.start()
        try:
            for _event_id, event, data in sse_frames(lines_as_they_come(response)):
                if event == "view":
                    yield json.loads(data)
        except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError,
                urllib3.exceptions.HTTPError, AttributeError, ValueError) as exc:
            if until is not None and time.monotonic() >= until:
                return  # closed by the timer
            raise NetworkError(f"the stream from {api.server} broke off: {type(exc).__name__}") from None
        finally:
            if timer is not None:
                timer.cancel()


def views(api: "Api", game_id: str, version: int | None = None, *, wait: int = 30, use_stream: bool = True,
          deadline: float | None = None, on_retry: Callable[[Exception, float], None] | None = None,
          sleep=time.sleep, clock=time.monotonic, max_delay: float = 30.0) -> Iterator[dict]:
    """Every new view of the game after `version` (None: the current one first), until the match
    ends or `deadline` (a `clock()` value) passes. A dropped connection or a restarting server is
    waited out with backoff (each pause reported to `on_retry`) and the stream resumed with
    Last-Event-ID, so no change is lost and none is seen twice."""
    delay = 1.0
    while deadline is None or clock() < deadline:
        try:
            if use_stream:
                for view in stream(api, game_id, version, until=deadline if clock is time.monotonic else None):
                    if version is None or view.get("version", 0) > version:
                        version = view.get("version")
                        delay = 1.0
                        yield view
                    if view.get("status") == "finished":
                        return  # (a seat's stream may stay open for a rematch offer: not views)
                    if deadline is not None and clock() >= deadline:
                        return
                continue  # the server ended the stream (an hour passed, or it restarts): resume
            etag = etag_of(version) if version is not None else None
            remaining = None if deadline is None else max(1, int(deadline - clock()))
            view, _ = wait_for_change(api, game_id, etag, wait=wait if remaining is None else min(wait, remaining),
                                      sleep=sleep, clock=clock, deadline=deadline, max_delay=max_delay)
            if view is None:
                return
            version = view.get("version")
            delay = 1.0
            yield view
        except StreamUnavailable:
            use_stream = False  # an older server: long-poll instead
        except StreamEnded:
            return
        except (NetworkError, ServiceError) as exc:
            if isinstance(exc, ServiceError) and exc.status not in (429, 502, 503, 504):
                raise
            pause = delay
            if isinstance(exc, ServiceError) and exc.retry_after is not None:
                pause = min(exc.retry_after, max_delay)
            if deadline is not None and clock() + pause > deadline:
                raise
            if on_retry:
                on_retry(exc, pause)
            sleep(pause)
            delay = min(delay * 2, max_delay)


def _hang_up(response: requests.Response) -> None:
    """End a stream another thread is reading: shutting the socket down wakes a read blocked on it
    at once (closing alone would leave it waiting for the next keep-alive)."""
    connection = getattr(response.raw, "connection", None)
    sock = getattr(connection, "sock", None)
    try:
        if sock is not None:
            sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    response.close()


def player_events(api: "Api", last_event_id: int | None = None, until: float | None = None,
                  on_open: Callable[[], None] | None = None) -> Iterator[dict]:
    """The player's stream (GET /me/stream, the player token in `api`): each event as a dict with
    its `seq`, from the one after `last_event_id` (None: from now on). `on_open` is called once the
    server is listening, so what the caller does from then on cannot be missed. A dropped connection
    is reconnected with Last-Event-ID; returns at `until` (a time.monotonic() value)."""
    delay, opened = 1.0, False
    while until is None or time.monotonic() < until:
        headers = {"User-Agent": USER_AGENT, "Accept": "text/event-stream", "Authorization": f"Bearer {api.token}"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        try:
            response = api.session.get(f"{api.server}/me/stream", headers=headers, stream=True,
                                       timeout=(5, STREAM_READ_TIMEOUT))
        except (requests.ConnectionError, requests.Timeout):
            response = None
        if response is not None and response.status_code >= 400 and response.status_code not in (429, 502, 503, 504):
            raise _problem(response)
        if response is not None and response.status_code == 200:
            with response:
                if not opened and on_open is not None:
                    on_open()  # the stream's start was fixed when the server answered
                opened, delay = True, 1.0
                timer = threading.Timer(max(0.0, until - time.monotonic()), _hang_up, (response,)) if until else None
                if timer is not None:
                    timer.daemon = True
                    timer.start()
                try:
                    for event_id, _event, data in sse_frames(lines_as_they_come(response)):
                        event = json.loads(data)
                        last_event_id = int(event_id) if event_id and event_id.isdigit() else last_event_id
                        yield event
                except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError,
                        urllib3.exceptions.HTTPError, AttributeError, ValueError):
                    pass  # broke off (or closed at `until`): resume after the last event seen
                finally:
                    if timer is not None:
                        timer.cancel()
            continue  # with no event seen yet, it resumes from "now": the caller checks what it waits for
        if until is not None and time.monotonic() + delay > until:
            return
        api.sleep(delay)
        delay = min(delay * 2, 30.0)
