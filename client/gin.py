#!/usr/bin/env python3
"""gin: a command-line client for the correspondence Gin Rummy service.

A single file that needs only Python 3.11+ and `requests`; it speaks the service's HTTP API and
imports nothing of the service, so it can be copied anywhere. Seat tokens are kept per game in
a JSON file readable only by you (~/.config/gin-rummy/games.json, or $GIN_CONFIG).

    gin new --name Ann                 # create a game; prints the invite for your opponent
    gin join GAME_ID INVITE --name Bob # take the second seat
    gin show                           # your hand, the discard pile, what you may do now
    gin draw stock ; gin discard 7H    # play
    gin watch                          # wait (politely) until it is your turn again
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import uuid
from datetime import datetime, timezone
from functools import lru_cache

import requests
import urllib3  # installed with requests: its exceptions tell a refused connection apart

DEFAULT_SERVER = "http://127.0.0.1:8000"  # where `make run` serves
USER_AGENT = "gin-client/0.1"

# Exit statuses, so a script can tell the kinds of failure apart.
EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_RULES, EXIT_AUTH, EXIT_NETWORK, EXIT_NOT_FOUND = 0, 1, 2, 3, 4, 5, 6
EXIT_STATUSES = """exit status: 0 done, 1 other error, 2 usage (bad arguments, unknown game, bad card text),
3 rejected by the rules or the game's state, 4 bad or missing token, 5 network failure, 6 no such game"""


# ---------------------------------------------------------------------------------------------
# Cards and melds (the API's notation: rank A 2..9 T J Q K, then suit C D H S)

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


class UsageError(Exception):
    """Bad input the user can fix; exit status 2."""


def normalize_card(text: str) -> str:
    """'10d', 'td', ' 7h ' -> 'TD', 'TD', '7H'; anything else raises UsageError."""
    cleaned = str(text).strip().upper()
    if cleaned.startswith("10"):
        cleaned = "T" + cleaned[2:]
    if len(cleaned) != 2 or cleaned[0] not in RANKS or cleaned[1] not in SUITS:
        raise UsageError(f"not a card: {text!r} (write rank then suit, like 7H, TD or 10D)")
    return cleaned


def card_rank(card: str) -> int:
    return RANKS.index(card[0]) + 1


def card_points(card: str) -> int:
    return min(card_rank(card), 10)


def card_sort_key(card: str) -> tuple[int, int]:
    return SUITS.index(card[1]), card_rank(card)


def _all_melds(cards: tuple[str, ...]) -> list[int]:
    """Every set and run among `cards`, as bit masks over their positions."""
    melds = []
    by_rank: dict[str, list[int]] = {}
    by_suit: dict[str, list[tuple[int, int]]] = {}
    for i, card in enumerate(cards):
        by_rank.setdefault(card[0], []).append(i)
        by_suit.setdefault(card[1], []).append((card_rank(card), i))
    for group in by_rank.values():
        if len(group) >= 3:
            full = sum(1 << i for i in group)
            melds.append(full)
            if len(group) == 4:
                melds.extend(full & ~(1 << i) for i in group)
    for ranked in by_suit.values():
        ranked.sort()
        for start in range(len(ranked)):
            mask, length = 1 << ranked[start][1], 1
            for k in range(start + 1, len(ranked)):
                if ranked[k][0] != ranked[k - 1][0] + 1:
                    break
                mask |= 1 << ranked[k][1]
                length += 1
                if length >= 3:
                    melds.append(mask)
    return melds


@lru_cache(maxsize=65536)
def _best(cards: tuple[str, ...]) -> tuple[int, tuple[int, ...]]:
    """(lowest deadwood count, meld masks) by exact search: the lowest card is either deadwood
    or in one of the melds that contain it."""
    melds = _all_melds(cards)
    memo: dict[int, tuple[int, tuple[int, ...]]] = {}

    def solve(mask: int) -> tuple[int, tuple[int, ...]]:
        if mask == 0:
            return 0, ()
        if mask in memo:
            return memo[mask]
        low = (mask & -mask).bit_length() - 1
        rest_points, rest_melds = solve(mask & ~(1 << low))
        best = (rest_points + card_points(cards[low]), rest_melds)
        for meld in melds:
            if meld >> low & 1 and meld & mask == meld:
                points, used = solve(mask & ~meld)
                if points < best[0]:
                    best = (points, (meld,) + used)
        memo[mask] = best
        return best

    return solve((1 << len(cards)) - 1)


def arrange(cards) -> tuple[list[list[str]], list[str], int]:
    """Best arrangement of any cards: (melds, deadwood, deadwood count), each sorted."""
    ordered = tuple(sorted({normalize_card(c) for c in cards}, key=card_sort_key))
    points, masks = _best(ordered)
    melds = [[c for i, c in enumerate(ordered) if m >> i & 1] for m in masks]
    in_melds = {c for meld in melds for c in meld}
    melds.sort(key=lambda m: card_sort_key(m[0]))
    return melds, [c for c in ordered if c not in in_melds], points


def deadwood(cards) -> int:
    ordered = tuple(sorted(cards, key=card_sort_key))
    return _best(ordered)[0]


def deadwood_after_discard(cards, discard: str) -> int:
    return deadwood([c for c in cards if c != discard])


# ---------------------------------------------------------------------------------------------
# The service's HTTP API

class ServiceError(Exception):
    """The service said no: a problem+json answer with `code` and `detail`."""

    def __init__(self, status: int, code: str, detail: str, body: dict | None = None):
        super().__init__(detail)
        self.status, self.code, self.detail, self.body = status, code, detail, body or {}

    @property
    def exit_status(self) -> int:
        if self.status in (401, 403):
            return EXIT_AUTH
        if self.status == 404:
            return EXIT_NOT_FOUND
        if self.status in (409, 412, 422):
            return EXIT_RULES
        if self.status == 400:
            return EXIT_USAGE
        return EXIT_ERROR


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
    return ServiceError(response.status_code, code, " ".join(str(detail).split()), body)


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

    def events(self, game_id: str) -> list[dict]:
        """The whole history this seat may see, following `next_after` pages."""
        events, after = [], 0
        while True:
            page = self.request("GET", f"/games/{game_id}/events", params={"after": after, "limit": 200}).json()
            events.extend(page.get("events", []))
            after = page.get("next_after")
            if after is None or not page.get("events"):
                return events


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


# ---------------------------------------------------------------------------------------------
# The token file

def config_path(override: str | None = None) -> str:
    if override:
        return override
    if os.environ.get("GIN_CONFIG"):
        return os.environ["GIN_CONFIG"]
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "gin-rummy", "games.json")


class Store:
    """Per-game seat tokens in a JSON file only its owner can read (0600, folder 0700)."""

    def __init__(self, path: str):
        self.path = path
        self.data = {"games": {}}
        if os.path.exists(path):
            try:
                with open(path, encoding="utf-8") as f:
                    self.data = json.load(f)
            except (OSError, ValueError) as exc:
                raise UsageError(f"cannot read {path}: {exc}") from None
            self.data.setdefault("games", {})

    @property
    def games(self) -> dict[str, dict]:
        return self.data["games"]

    def save(self) -> None:
        folder = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(folder):
            os.makedirs(folder, mode=0o700)
            os.chmod(folder, 0o700)  # makedirs' mode is filtered by the umask
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".games-", suffix=".tmp")  # created 0600
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.data, f, indent=2, sort_keys=True)
                f.write("\n")
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

    def find(self, ref: str | None) -> tuple[str, dict]:
        """A game by id, unique id prefix, or the only known game when `ref` is None."""
        if not self.games:
            raise UsageError("no games yet: create one with `gin new` or join one with `gin join`")
        if ref is None:
            if len(self.games) == 1:
                return next(iter(self.games.items()))
            raise UsageError(f"you have {len(self.games)} games; name one with -g ID (ids: "
                             + ", ".join(sorted(g[:8] for g in self.games)) + ")")
        if ref in self.games:
            return ref, self.games[ref]
        matches = [g for g in self.games if g.startswith(ref)]
        if len(matches) == 1:
            return matches[0], self.games[matches[0]]
        if not matches:
            raise UsageError(f"no game of yours starts with {ref!r} (see `gin list`)")
        raise UsageError(f"{ref!r} matches {len(matches)} games; give more of the id")


# ---------------------------------------------------------------------------------------------
# Display

class Style:
    def __init__(self, symbols: bool):
        self.symbols = symbols

    def card(self, card: str) -> str:
        return card[0] + SUIT_SYMBOLS[card[1]] if self.symbols else card

    def cards(self, cards) -> str:
        return " ".join(self.card(c) for c in cards) or "-"


def symbols_supported(stream) -> bool:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "♣♦♥♠".encode(encoding)
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def _seat_names(view: dict) -> dict[int, str]:
    names = {0: "seat 0", 1: "seat 1"}
    players = view.get("players") or []
    if isinstance(players, dict):
        players = [players.get(str(i)) or players.get(i) for i in (0, 1)]
    for seat, player in enumerate(players[:2]):
        name = player.get("name") if isinstance(player, dict) else player
        if name:
            names[seat] = str(name)
    return names


def _scores(view: dict) -> list[int]:
    """Each seat's points in the (first) game still being scored."""
    scores = view.get("scores")
    if isinstance(scores, dict) and isinstance(scores.get("games"), list) and scores["games"]:
        open_games = [g for g in scores["games"] if not g.get("closed")] or scores["games"][-1:]
        game = open_games[0]
        return list((game.get("final") or game).get("totals") or [0, 0])
    if isinstance(scores, dict) and isinstance(scores.get("totals"), list):
        return scores["totals"]
    return list(scores) if isinstance(scores, list) else [0, 0]


def _score_text(view: dict, seat: int) -> str:
    """'34-12', or for Hollywood scoring each of the three games: 'g1 34-12, g2 10-0, g3 0-0'."""
    games = (view.get("scores") or {}).get("games") if isinstance(view.get("scores"), dict) else None
    if isinstance(games, list) and len(games) > 1:
        parts = []
        for i, game in enumerate(games, 1):
            totals = (game.get("final") or game).get("totals") or [0, 0]
            parts.append(f"g{i} {totals[seat]}-{totals[1 - seat]}{'*' if game.get('closed') else ''}")
        return ", ".join(parts)
    totals = _scores(view) + [0, 0]
    return f"{totals[seat]}-{totals[1 - seat]}"


def describe_action(action: dict, style: Style) -> str:
    kind = action.get("type")
    if kind == "draw":
        return f"draw {action.get('from')}"
    if kind == "discard":
        return f"discard {style.card(action['card'])}"
    if kind == "knock":
        return f"knock {style.card(action['discard'])}"
    return {"take_upcard": "take", "pass": "pass", "big_gin": "gin (Big Gin)",
            "claim_timeout": "claim the match on time"}.get(kind, str(kind))


def summarize_legal(view: dict, style: Style) -> str:
    """What this seat may do now, as commands."""
    legal = [a for a in view.get("legal_actions") or [] if a.get("type") != "resign"]
    if not legal:
        return ""
    hand = view.get("hand") or []
    parts = []
    kinds = [a["type"] for a in legal]
    if "take_upcard" in kinds:
        top = (view.get("discard_pile") or [None])[-1]
        parts.append(f"take ({style.card(top)})" if top else "take")
    if "pass" in kinds:
        parts.append("pass")
    draws = [a["from"] for a in legal if a["type"] == "draw"]
    if draws:
        parts.append("draw " + "|".join(draws))
    discards = [a["card"] for a in legal if a["type"] == "discard"]
    if discards:
        best = min(discards, key=lambda c: (deadwood_after_discard(hand, c), -card_points(c)))
        parts.append(f"discard CARD (best {style.card(best)}: leaves {deadwood_after_discard(hand, best)})")
    knocks = [a["discard"] for a in legal if a["type"] == "knock"]
    if knocks:
        best = min(knocks, key=lambda c: (deadwood_after_discard(hand, c), -card_points(c)))
        left = deadwood_after_discard(hand, best)
        parts.append("gin" if left == 0 else f"knock CARD (best {style.card(best)}: leaves {left})")
    if "big_gin" in kinds:
        parts.append("gin (Big Gin!)")
    return " | ".join(parts)


def format_deadline(text: str | None, now: datetime | None = None) -> str:
    """'2026-11-25T06:05:24+00:00' -> '25 Nov 06:05 UTC, in 2d 23h' (or 'overdue')."""
    if not text:
        return "-"
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return text
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    when = when.astimezone(timezone.utc)
    left = (when - (now or datetime.now(timezone.utc))).total_seconds()
    if left <= 0:
        remaining = "overdue"
    elif left >= 86400:
        remaining = f"in {int(left // 86400)}d {int(left % 86400 // 3600)}h"
    else:
        remaining = f"in {int(left // 3600)}h {int(left % 3600 // 60)}m"
    return f"{when:%d %b %H:%M} UTC, {remaining}"


def render_view(view: dict, seat: int, style: Style, game_id: str, invite: str | None = None) -> str:
    names = _seat_names(view)
    me, them = names[seat], names[1 - seat]
    target = (view.get("rules") or {}).get("target")
    lines = [f"Game {game_id[:8]}  hand {view.get('hand_number', '-')}  {me} (you) v {them}  "
             f"score {_score_text(view, seat)}" + (f" (to {target})" if target else "")]
    status, phase, to_move = view.get("status"), view.get("phase"), view.get("to_move")
    if status == "waiting_for_opponent":
        lines.append("Waiting for an opponent to join."
                     + (f" Give them: gin join {game_id} {invite}" if invite else ""))
        return "\n".join(lines)
    if status == "finished" or phase == "match_over":
        lines.append(_render_result(view, seat, names))
    else:
        deadline = f" (deadline {format_deadline(view['deadline'])})" if view.get("deadline") else ""
        lines.append(("Your turn" if to_move == seat else f"{them}'s turn") + deadline + ".")
    hand = view.get("hand") or []
    if hand:
        melds, dead, points = arrange(hand)
        grouped = "  ".join("[" + style.cards(m) + "]" for m in melds)
        lines.append(f"Hand:      {grouped}{'  ' if grouped else ''}deadwood {style.cards(dead)} = {points}")
    pile = view.get("discard_pile") or []
    top = style.card(pile[-1]) if pile else "(empty)"
    lines.append(f"Discard:   {top} on top ({len(pile)} card{'s' if len(pile) != 1 else ''})   "
                 f"Stock: {view.get('stock_count', '-')}   Knock at: {view.get('knock_limit', '-')}")
    opponent = view.get("opponent") or {}
    if opponent:
        known = opponent.get("known_cards") or []
        lines.append(f"{them}: {opponent.get('card_count', '?')} cards"
                     + (f", known to hold {style.cards(known)}" if known else ""))
    last = view.get("last_hand")
    if last and view.get("phase") in ("upcard_offer", "match_over") or (last and status == "finished"):
        # Right after a hand ends: how it ended and what the opponent held.
        lines.append("Last hand: " + describe_hand_result(last, seat, names, style))
        theirs = describe_hand_cards(last, seat, style)
        if theirs:
            lines.append("           " + theirs)
    may = summarize_legal(view, style)
    if may:
        lines.append(f"You may:   {may}")
    return "\n".join(lines)


def _render_result(view: dict, seat: int, names: dict) -> str:
    result = view.get("result") or {}
    winner = result.get("winner") if isinstance(result, dict) else None
    if winner is None:
        return "The match is over."
    who = "You win" if winner == seat else f"{names[winner]} wins"
    extra = []
    for key in ("margin", "difference", "points"):
        if isinstance(result.get(key), int):
            extra.append(f"by {result[key]}")
            break
    if result.get("reason") and result["reason"] != "target":
        extra.append(f"({'by resignation' if result['reason'] == 'resign' else result['reason']})")
    return f"The match is over: {who} " + " ".join(extra)


def describe_hand_result(record: dict, seat: int, names: dict, style: Style) -> str:
    """One line for a finished hand, from the engine's hand record."""
    result = record.get("result")
    if result == "void":
        return "void (the stock ran out); the same dealer deals again"

    def who(s):
        return "you" if s == seat else names.get(s, f"seat {s}")

    knocker, winner, points = record.get("knocker"), record.get("winner"), record.get("points")
    text = ""
    if knocker is not None:
        text = f"{who(knocker)} " + {"gin": "went gin", "big_gin": "declared Big Gin"}.get(result, "knocked")
        if result not in ("gin", "big_gin") and record.get("knocker_points") is not None:
            text += f" with {record['knocker_points']}"
        if record.get("defender_points") is not None:
            layoffs = record.get("defender_layoffs") or []
            text += f", {who(1 - knocker)} had {record['defender_points']}"
            text += f" after laying off {style.cards(layoffs)}" if layoffs else ""
        if result == "undercut":
            text += " (undercut)"
    if winner is not None:
        text += f"{'; ' if text else ''}{who(winner)} scored {points}"
    elif result == "tie":
        text += "; a tie: nobody scores"
    return text or str(result or "over")


def describe_hand_cards(record: dict, seat: int, style: Style) -> str | None:
    """The opponent's cards as they were laid out at the end of the last hand."""
    knocker = record.get("knocker")
    if knocker is None:
        hands = record.get("hands") or {}
        cards = hands.get(str(1 - seat))
        return f"their cards were {style.cards(cards)}" if cards else None
    role = "knocker" if knocker != seat else "defender"
    melds = record.get(f"{role}_melds") or []
    dead = record.get(f"{role}_deadwood") or []
    shown = "  ".join("[" + style.cards(m) + "]" for m in melds)
    return f"their cards were {shown}{'  ' if shown else ''}deadwood {style.cards(dead)}"


def describe_event(event: dict, seat: int, names: dict, style: Style) -> str:
    kind = event.get("type")
    who_seat = event.get("seat")
    who = "you" if who_seat == seat else names.get(who_seat, "?") if who_seat is not None else ""
    card = event.get("card") or event.get("discard")
    if kind == "deal":
        dealt = event.get("cards")
        hand = dealt.get(str(seat)) if isinstance(dealt, dict) else dealt
        text = f"hand {event.get('hand')} dealt"
        if event.get("dealer") is not None:
            text += f" by {'you' if event['dealer'] == seat else names[event['dealer']]}"
        if event.get("upcard"):
            text += f"; upcard {style.card(event['upcard'])}"
        if isinstance(hand, list):
            text += f"; your cards {style.cards(sorted(hand, key=card_sort_key))}"
        return text
    if kind == "draw":
        source = event.get("from") or event.get("source")
        return f"{who} drew from the {source}" + (f": {style.card(card)}" if card else "")
    if kind in ("discard", "knock"):
        verb = "discarded" if kind == "discard" else "knocked, discarding"
        return f"{who} {verb} {style.card(card)}" if card else f"{who} {kind}ed"
    if kind == "take_upcard":
        return f"{who} took the upcard" + (f" {style.card(card)}" if card else "")
    if kind == "pass":
        return f"{who} passed"
    if kind == "big_gin":
        return f"{who} declared Big Gin"
    if kind == "hand_end":
        record = event.get("record") or event
        return f"hand {event.get('hand')} over: " + describe_hand_result(record, seat, names, style)
    if kind == "hand_void":
        return f"hand {event.get('hand')} void: the stock ran out"
    if kind == "resign":
        return f"{who} resigned"
    if kind == "match_end":
        winner = event.get("winner")
        return "match over" + (f": {'you win' if winner == seat else names.get(winner, '?') + ' wins'}"
                               if winner is not None else "")
    return f"{who} {kind}".strip()


def score_sheet(view: dict, seat: int | None = None) -> str:
    """The match's score sheet, hand by hand with running totals, then the bonuses once a game closes."""
    names = _seat_names(view)
    label = {s: names[s] + (" (you)" if s == seat else "") for s in (0, 1)}
    scores = view.get("scores") or {}
    sheet = scores.get("sheet") or []
    games = scores.get("games") or []
    width = max(8, *(len(label[s]) for s in (0, 1)))
    lines = [f"{'hand':>4}  {'dealer':{width}}  {'result':22}  {'points':>6}  {label[0]:>{width}}  {label[1]:>{width}}"]
    running = [0, 0]
    for row in sheet:
        result, winner, knocker = row.get("result"), row.get("winner"), row.get("knocker")
        if winner is not None and (0 in (row.get("games_credited") or [0])):
            running[winner] += row.get("points", 0)
        what = result or "?"
        if knocker is not None:
            what = f"{names[knocker]}: {result}" if result in ("gin", "big_gin") else f"{names[knocker]} knocked"
            if result == "undercut":
                what += ", undercut"
            elif result == "tie":
                what += ", tie"
        won = f"{row.get('points', 0):>6}" if winner is not None else f"{'-':>6}"
        lines.append(f"{row.get('hand', '?'):>4}  {names.get(row.get('dealer'), '?'):{width}}  {what[:22]:22}  {won}  "
                     f"{running[0]:>{width}}  {running[1]:>{width}}")
    for index, game in enumerate(games, 1):
        final = game.get("final")
        if not final:
            continue
        title = f"game {index}" if len(games) > 1 else "game"
        lines.append(f"{title} over, {names[final['winner']]} reached the target:")
        for key, what in (("hand_points", "hand points"), ("shutout_bonus", "shutout"),
                          ("game_bonus", "game bonus"), ("box_bonus", "boxes (hands won)"), ("totals", "total")):
            values = final.get(key) or [0, 0]
            lines.append(f"      {what:{width + 32}}  {values[0]:>{width}}  {values[1]:>{width}}")
    result = view.get("result")
    if result and result.get("winner") is not None:
        lines.append(f"{names[result['winner']]} wins the match by {result.get('margin')}"
                     + ("" if result.get("reason") in (None, "target") else f" ({result['reason']})") + ".")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Commands

def _print_json(data) -> None:
    print(json.dumps(data, indent=2, sort_keys=True))


def _server_for(args, entry: dict | None = None) -> str:
    # An explicit --server wins; then the server the game was made on; then $GIN_SERVER.
    return args.server or (entry or {}).get("server") or os.environ.get("GIN_SERVER") or DEFAULT_SERVER


def _api_for(args, entry: dict) -> Api:
    return Api(_server_for(args, entry), entry["token"], retries=args.retries)


def _remember(args, store: Store, game_id: str, view: dict | None) -> None:
    if view and "version" in view:
        entry = store.games[game_id]
        entry["version"] = view["version"]
        entry["status"] = view.get("status")
        store.save()


def _show(args, game_id: str, entry: dict, view: dict) -> None:
    if args.json:
        _print_json(view)
    else:
        print(render_view(view, entry.get("seat", view.get("seat", 0)), args.style, game_id,
                          entry.get("invite_code") if view.get("status") == "waiting_for_opponent" else None))


_UNSET = object()


def _move_hours(text: str) -> int | None:
    if text.strip().lower() in ("none", "null", "off"):
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of hours or 'none', not {text!r}") from None


def _parse_option(text: str) -> tuple[str, object]:
    if "=" not in text:
        raise UsageError(f"--option takes key=value, not {text!r}")
    key, raw = text.split("=", 1)
    value: object = raw
    if raw.lower() in ("true", "yes", "on"):
        value = True
    elif raw.lower() in ("false", "no", "off"):
        value = False
    elif raw.lower() in ("null", "none"):
        value = None
    else:
        try:
            value = int(raw)
        except ValueError:
            pass
    return key.strip(), value


def cmd_new(args, store: Store) -> int:
    rules: dict = {"preset": args.preset}
    for option in args.option or []:
        key, value = _parse_option(option)
        rules[key] = value
    body: dict = {"name": args.name, "rules": rules}
    if args.move_hours is not _UNSET:
        body["move_time_hours"] = args.move_hours
    if args.email:
        body["email"] = args.email
    server = _server_for(args)
    created = Api(server, retries=args.retries).create_game(body)
    game_id = created["game_id"]
    store.games[game_id] = {"server": server, "token": created["token"], "seat": created.get("seat", 0),
                            "name": args.name, "invite_code": created.get("invite_code"),
                            "version": (created.get("game") or {}).get("version"),
                            "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    store.save()
    if args.json:
        _print_json(created if args.show_token else {k: v for k, v in created.items() if k != "token"})
        return EXIT_OK
    print(f"Created game {game_id} on {server}.")
    print(f"Your opponent joins with:\n  gin join {game_id} {created.get('invite_code')}"
          + (f" --server {server}" if server != DEFAULT_SERVER else ""))
    if args.show_token:
        print(f"Your token: {created['token']}")
    return EXIT_OK


def cmd_join(args, store: Store) -> int:
    game_id, code = args.game_id, args.invite_code
    if code is None:
        if ":" not in game_id:
            raise UsageError("join takes GAME_ID INVITE_CODE (or GAME_ID:INVITE_CODE)")
        game_id, code = game_id.split(":", 1)
    body: dict = {"invite_code": code, "name": args.name}
    if args.email:
        body["email"] = args.email
    server = _server_for(args)
    joined = Api(server, retries=args.retries).join_game(game_id, body)
    game_id = joined.get("game_id", game_id)
    view = joined.get("game") or {}
    store.games[game_id] = {"server": server, "token": joined["token"], "seat": joined.get("seat", 1),
                            "name": args.name, "version": view.get("version"),
                            "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    store.save()
    if args.json:
        _print_json(joined if args.show_token else {k: v for k, v in joined.items() if k != "token"})
        return EXIT_OK
    print(f"Joined game {game_id} as seat {joined.get('seat', 1)}.")
    if args.show_token:
        print(f"Your token: {joined['token']}")
    if view:
        print(render_view(view, joined.get("seat", 1), args.style, game_id))
    return EXIT_OK


def cmd_list(args, store: Store) -> int:
    rows, out = [], []
    for game_id, entry in sorted(store.games.items(), key=lambda kv: kv[1].get("created", "")):
        try:
            view, _ = _api_for(args, entry).view(game_id)
            error = None
            _remember(args, store, game_id, view)
        except (ServiceError, NetworkError) as exc:
            view, error = None, str(exc)
        out.append({"game_id": game_id, "seat": entry.get("seat"), "server": _server_for(args, entry),
                    "view": view, "error": error})
        rows.append(_list_row(game_id, entry, view, error))
    if args.json:
        _print_json(out)
    elif not rows:
        print("No games yet: `gin new` creates one, `gin join GAME_ID INVITE` joins one.")
    else:
        print(f"{'GAME':10} {'PLAYERS':24} {'HAND':>4} {'SCORE':>9}  {'TURN':16} DEADLINE")
        print("\n".join(rows))
    return EXIT_OK


def _list_row(game_id: str, entry: dict, view: dict | None, error: str | None) -> str:
    if view is None:
        return f"{game_id[:8]:10} {entry.get('name', ''):24} {'':>4} {'':>9}  unreachable: {error}"
    seat = entry.get("seat", view.get("seat", 0))
    names = _seat_names(view)
    if view.get("status") == "waiting_for_opponent":
        turn = "waiting to join"
    elif view.get("status") == "finished" or view.get("phase") == "match_over":
        winner = (view.get("result") or {}).get("winner")
        turn = "over: " + ("you won" if winner == seat else "you lost" if winner is not None else "-")
    else:
        turn = "YOUR TURN" if view.get("to_move") == seat else f"{names[1 - seat]}'s turn"
    players = f"{names[seat]} v {names[1 - seat]}"
    return (f"{game_id[:8]:10} {players[:24]:24} {view.get('hand_number', '-'):>4} "
            f"{_score_text(view, seat):>9}  {turn:16} {format_deadline(view.get('deadline'))}")


def cmd_show(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    view, _ = _api_for(args, entry).view(game_id)
    _remember(args, store, game_id, view)
    _show(args, game_id, entry, view)
    return EXIT_OK


def _act(args, store: Store, action: dict) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    version = current_version(api, game_id, entry)
    view = api.act(game_id, action, version=version, key=uuid.uuid4().hex)
    _remember(args, store, game_id, view)
    if not args.json:
        print(f"Done: {describe_action(action, args.style)}.")
    _show(args, game_id, entry, view)
    return EXIT_OK


def current_version(api: Api, game_id: str, entry: dict):
    """The version a move is made against: the game as it is now (a conditional GET, so usually a
    bodiless 304). If-Match with it makes the move fail rather than land on a game changed since."""
    known = entry.get("version")
    view, _ = api.view(game_id, etag=etag_of(known) if known is not None else None)
    return known if view is None else view.get("version")


def cmd_take(args, store):
    return _act(args, store, {"type": "take_upcard"})


def cmd_pass(args, store):
    return _act(args, store, {"type": "pass"})


def cmd_draw(args, store):
    return _act(args, store, {"type": "draw", "from": args.source})


def cmd_discard(args, store):
    return _act(args, store, {"type": "discard", "card": normalize_card(args.card)})


def cmd_knock(args, store):
    return _act(args, store, {"type": "knock", "discard": normalize_card(args.card)})


def gin_action(view: dict) -> dict | None:
    """The action that goes gin now: Big Gin with 11 melded cards, or the knock whose discard
    leaves 0 deadwood; None when there is none."""
    legal = view.get("legal_actions") or []
    if any(a.get("type") == "big_gin" for a in legal):
        return {"type": "big_gin"}
    hand = view.get("hand") or []
    for action in legal:
        if action.get("type") == "knock" and deadwood_after_discard(hand, action["discard"]) == 0:
            return {"type": "knock", "discard": action["discard"]}
    return None


def cmd_gin(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    view, _ = api.view(game_id)
    action = gin_action(view)
    if action is None:
        hand = view.get("hand") or []
        if view.get("to_move") != view.get("seat", entry.get("seat")):
            raise ServiceError(409, "not-your-turn", "it is not your turn")
        left = min((deadwood_after_discard(hand, c) for c in hand), default=deadwood(hand)) \
            if len(hand) == 11 else deadwood(hand)
        raise ServiceError(422, "no-gin", f"no gin in this hand now: the best you can leave is {left} deadwood")
    entry["version"] = view.get("version")
    return _act(args, store, action)


def cmd_resign(args, store: Store) -> int:
    if not args.yes:
        raise UsageError("resigning ends the match (your opponent wins); add --yes to confirm")
    return _act(args, store, {"type": "resign"})


def cmd_claim(args, store: Store) -> int:
    return _act(args, store, {"type": "claim_timeout"})


def cmd_vacation(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    # Not resent after a lost answer: the server would count the days twice.
    body = api.request("POST", f"/games/{game_id}/vacation", json_body={"days": args.days},
                       replayable=False).json()
    if args.json:
        _print_json(body)
    else:
        print(f"Your clock is paused until {body.get('on_vacation_until')}; "
              f"{body.get('days_left')} vacation day(s) left in this game.")
        if body.get("deadline"):
            print(f"Deadline of the player to move: {body['deadline']}.")
    return EXIT_OK


def cmd_history(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    events = api.events(game_id)
    if args.json:
        _print_json({"events": events})
        return EXIT_OK
    view, _ = api.view(game_id)
    names = _seat_names(view)
    seat = entry.get("seat", 0)
    for event in events:
        print(f"{event.get('seq', ''):>4}  {describe_event(event, seat, names, args.style)}")
    return EXIT_OK


def cmd_watch(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    seat = entry.get("seat", 0)
    deadline = None if args.timeout is None else time.monotonic() + args.timeout
    view, etag = api.view(game_id)
    if not _worth_waking(view, seat) and not args.json:
        print(f"Waiting for {_seat_names(view)[1 - seat]}...", file=sys.stderr, flush=True)
    pause = 1.0
    while not _worth_waking(view, seat):
        try:
            changed, etag = wait_for_change(api, game_id, etag, wait=args.wait, deadline=deadline)
        except NetworkError as exc:  # a server restart or a network outage: watching outlasts it
            if deadline is not None and time.monotonic() + pause > deadline:
                raise
            print(f"gin: {exc}; still watching, next try in {pause:.0f} s", file=sys.stderr, flush=True)
            time.sleep(pause)
            pause = min(pause * 2, 60.0)
            continue
        pause = 1.0
        if changed is None:
            _remember(args, store, game_id, view)
            raise ServiceError(408, "watch-timeout", f"still not your turn after {args.timeout:g} s")
        view = changed
    _remember(args, store, game_id, view)
    _show(args, game_id, entry, view)
    return EXIT_OK


def _worth_waking(view: dict, seat: int) -> bool:
    return (view.get("to_move") == seat or view.get("status") == "finished"
            or view.get("phase") == "match_over")


def cmd_score(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    view, _ = _api_for(args, entry).view(game_id)
    if args.json:
        _print_json({"scores": view.get("scores"), "result": view.get("result")})
    else:
        print(score_sheet(view, entry.get("seat")))
    return EXIT_OK


def cmd_token(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    if args.json:
        _print_json({"game_id": game_id, "seat": entry.get("seat"), "token": entry["token"],
                     "server": _server_for(args, entry)})
    else:
        print(entry["token"])
    return EXIT_OK


def cmd_forget(args, store: Store) -> int:
    game_id, _ = store.find(args.game)
    del store.games[game_id]
    store.save()
    if args.json:
        _print_json({"forgotten": game_id})
    else:
        print(f"Forgot game {game_id} (its token is gone from {store.path}).")
    return EXIT_OK


# ---------------------------------------------------------------------------------------------
# Arguments

class Parser(argparse.ArgumentParser):
    def error(self, message: str):
        # One line, like every other error; the full usage is one --help away.
        if "unrecognized arguments: -" in message or "expected one argument" in message:
            # Ids issued before ids avoided a leading '-' look like options to argparse.
            message += "; an id or code that begins with '-' goes after `--`: gin join -- -Xy9... CODE"
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _common(parser: argparse.ArgumentParser, top: bool) -> None:
    # Accepted before or after the command; SUPPRESS keeps a subcommand from overwriting a value
    # given before it.
    default = None if top else argparse.SUPPRESS
    group = parser.add_argument_group("common options")
    group.add_argument("--server", default=default, help="service URL (env GIN_SERVER; default: the game's own, "
                       f"else {DEFAULT_SERVER})")
    group.add_argument("--config", default=default, help="token file (env GIN_CONFIG; default "
                       "$XDG_CONFIG_HOME/gin-rummy/games.json)")
    group.add_argument("--json", action="store_true", default=False if top else argparse.SUPPRESS,
                       help="print the server's JSON (for scripts)")
    group.add_argument("--plain", action="store_true", default=False if top else argparse.SUPPRESS,
                       help="letters (C D H S) instead of suit symbols")
    group.add_argument("--show-token", action="store_true", default=False if top else argparse.SUPPRESS,
                       help="print the seat token where a command has one (new, join)")
    group.add_argument("--retries", type=int, default=4 if top else argparse.SUPPRESS,
                       help="network retries before giving up (default 4)")


COMMANDS = [
    # name, handler, help, example, arguments
    ("new", cmd_new, "create a game and take the first seat",
     "gin new --name Ann --preset standard --option target=150 --move-hours 72", "new"),
    ("join", cmd_join, "take the second seat of a game with its invite code",
     "gin join 3Yx9kQ... 8Fj2... --name Bob", "join"),
    ("list", cmd_list, "the games you know: whose turn, scores, deadline", "gin list", ""),
    ("show", cmd_show, "your hand in melds and deadwood, the discard pile, what you may do",
     "gin show 3Yx9", "game"),
    ("take", cmd_take, "take the upcard (the first turn's offer)", "gin take", "game"),
    ("pass", cmd_pass, "pass on the upcard", "gin pass", "game"),
    ("draw", cmd_draw, "draw from the stock or the discard pile", "gin draw stock", "draw"),
    ("discard", cmd_discard, "discard a card and end your turn", "gin discard 7H", "card"),
    ("knock", cmd_knock, "knock, discarding CARD (deadwood at most the knock limit)", "gin knock KS", "card"),
    ("gin", cmd_gin, "go gin: knock with the card that leaves 0 deadwood, or declare Big Gin", "gin gin",
     "game"),
    ("resign", cmd_resign, "resign the match (your opponent wins)", "gin resign --yes", "resign"),
    ("claim", cmd_claim, "claim the match when your opponent's move deadline has passed", "gin claim", "game"),
    ("vacation", cmd_vacation, "pause your own move clock for DAYS days (capped per game)", "gin vacation 3",
     "vacation"),
    ("history", cmd_history, "every move so far, as your seat may see it", "gin history", "game"),
    ("watch", cmd_watch, "wait until it is your turn (or the match ends), then show the game",
     "gin watch --timeout 3600", "watch"),
    ("score", cmd_score, "the score sheet, hand by hand, with the bonuses", "gin score", "game"),
    ("token", cmd_token, "print the seat token of a game (keep it secret)", "gin token 3Yx9", "game"),
    ("forget", cmd_forget, "remove a game and its token from the token file", "gin forget 3Yx9", "game"),
]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="gin", description="Play correspondence Gin Rummy from the command line.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example:\n  gin new --name Ann\n  gin show\n  gin draw stock && gin discard KS\n\n"
               "Cards are rank then suit: A 2..9 T J Q K and C D H S (7H, TD, 10d).\n"
               "A game is named by its id, a prefix of it, or left out when you have only one.\n\n"
               + EXIT_STATUSES)
    _common(parser, top=True)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, handler, help_text, example, kind in COMMANDS:
        sub = commands.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".",
                                  formatter_class=argparse.RawDescriptionHelpFormatter,
                                  epilog=f"example:\n  {example}\n\n{EXIT_STATUSES}")
        sub.set_defaults(handler=handler)
        if kind == "new":
            sub.add_argument("--name", default=os.environ.get("USER") or "Player", help="your display name")
            sub.add_argument("--preset", default="standard",
                             help="rules preset: standard, straight, oklahoma, hollywood, classic")
            sub.add_argument("--option", action="append", metavar="KEY=VALUE",
                             help="override one rule, e.g. target=150 or knock_limit=7 (repeatable)")
            sub.add_argument("--move-hours", type=_move_hours, default=_UNSET, metavar="HOURS",
                             help="hours each player has per move, or 'none' for no deadline "
                                  "(default: the service's, 72)")
            sub.add_argument("--email", help="email address for notifications")
        elif kind == "join":
            sub.add_argument("game_id", metavar="GAME_ID", help="the game's id (or GAME_ID:INVITE_CODE)")
            sub.add_argument("invite_code", metavar="INVITE_CODE", nargs="?", help="the invite code")
            sub.add_argument("--name", default=os.environ.get("USER") or "Player", help="your display name")
            sub.add_argument("--email", help="email address for notifications")
        elif kind == "draw":
            sub.add_argument("source", choices=["stock", "discard"], help="where to draw from")
        elif kind == "card":
            sub.add_argument("card", metavar="CARD", help="a card in your hand, e.g. 7H, TD, 10d")
        elif kind == "watch":
            sub.add_argument("game_pos", metavar="GAME", nargs="?", help="game id or prefix")
            sub.add_argument("--timeout", type=float, default=None, help="give up after this many seconds")
            sub.add_argument("--wait", type=int, default=30,
                             help="long-poll seconds per request (default 30; 0: plain polling with backoff)")
        elif kind == "resign":
            sub.add_argument("--yes", action="store_true", help="really resign")
        elif kind == "vacation":
            sub.add_argument("days", type=int, metavar="DAYS", help="whole days, from now")
        if kind in ("game", "resign", "vacation"):
            sub.add_argument("game_pos", metavar="GAME", nargs="?", help="game id or prefix (default: your only game)")
        if kind not in ("new", "join", ""):
            sub.add_argument("-g", "--game", dest="game_opt", metavar="GAME", help="game id or prefix")
        _common(sub, top=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.game = getattr(args, "game_opt", None) or getattr(args, "game_pos", None)
    args.style = Style(symbols=not args.plain and symbols_supported(sys.stdout))
    try:
        store = Store(config_path(args.config))
        return args.handler(args, store)
    except UsageError as exc:
        print(f"gin: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ServiceError as exc:
        hint = " (the game changed while you moved: run `gin show`)" if exc.code == "version-mismatch" else ""
        print(f"gin: {exc.detail} [{exc.code}]{hint}", file=sys.stderr)
        return exc.exit_status
    except NetworkError as exc:
        print(f"gin: {exc} [network]", file=sys.stderr)
        return EXIT_NETWORK
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
