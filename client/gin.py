#!/usr/bin/env python3
"""gin: a command-line client for the correspondence Gin Rummy service.

Two files side by side, gin.py (this command line) and api.py (the HTTP part, which bots import
without the command line), needing only Python 3.11+ and `requests`; they import nothing of the
service, so they can be copied anywhere. `pip install` of the project puts this on the PATH as
`gin`. Seat tokens are kept per game in a JSON file readable only by you
(~/.config/gin-rummy/games.json, or $GIN_CONFIG).

    gin new --name Ann                 # create a game; prints the invite for your opponent
    gin join GAME_ID INVITE --name Bob # take the second seat
    gin show                           # your hand, the discard pile, what you may do now
    gin draw stock ; gin discard 7H    # play
    gin watch                          # wait (politely) until it is your turn again
    gin play                           # sit at one game: the table, then type moves as they come

With a player account (one token for all your games, kept in the same file):

    gin register Ann                   # once per server
    gin new --vs-bot                   # play the computer (the server's house bot)
    gin challenge Bob ; gin challenges ; gin accept ID   # challenge people, answer challenges
    gin games                          # your games on the server, your turn first
    gin rematch ; gin watch-link       # at the end of a match; a read-only link to share
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import sys
import tempfile
import time
import uuid
from datetime import datetime, timezone
from functools import lru_cache

try:  # as part of the `client` package (the installed `gin` command)
    from . import api as http
except ImportError:  # as a script, or copied somewhere with api.py beside it
    import importlib.util
    _spec = importlib.util.spec_from_file_location(
        "gin_api", os.path.join(os.path.dirname(os.path.abspath(__file__)), "api.py"))
    http = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(http)

# The HTTP part lives in api.py (bots import it too); these names stay importable from here.
Api, ServiceError, NetworkError, etag_of, wait_for_change = (
    http.Api, http.ServiceError, http.NetworkError, http.etag_of, http.wait_for_change)

DEFAULT_SERVER = "http://127.0.0.1:8000"  # where `make run` serves

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

    def player(self, server: str) -> dict | None:
        """The player account held for `server`: {"name", "token", "id"}, or None."""
        return self.data.get("players", {}).get(server.rstrip("/"))

    def set_player(self, server: str, account: dict) -> None:
        self.data.setdefault("players", {})[server.rstrip("/")] = account

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
    for seat, player in enumerate(players):  # two seats, or a table's three or four
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


def seat_view(view: dict) -> dict:
    """A table's view (3 or 4 seats: it has `format`) as the two-seat view of the caller's own
    board, in that board's local seats, so the moves, the hints and the bot read it unchanged.
    A two-seat view is returned as it is."""
    if "format" not in view:
        return view
    own = view.get("my_board")
    board = dict(own["view"]) if own else {"seat": 0, "to_move": None, "phase": None, "hand": []}
    names = {p.get("seat"): p.get("name") for p in view.get("players") or []}
    return {**board, "legal_actions": view.get("legal_actions") or [], "status": view.get("status"),
            "version": view.get("version"), "deadline": view.get("deadline"), "rules": view.get("rules"),
            "players": [{"seat": i, "name": names.get(s)} for i, s in enumerate(own["seats"] if own else [])]}


def render_table_view(view: dict, style: Style, game_id: str, invites: list | None = None) -> str:
    """A table of three (a rotation) or four (two partnerships): the sides' scores, who is to move
    on which board, who sits out, then the caller's own board as a two-seat game."""
    seat = view.get("seat", 0)
    names = {p["seat"]: p.get("name") or f"seat {p['seat']}" for p in view.get("players") or []}
    totals = _scores(view)
    sides = "  ".join("+".join(names.get(s, f"seat {s}") for s in side) + f" {totals[i] if i < len(totals) else 0}"
                      for i, side in enumerate(view.get("sides") or []))
    kind = "three players, one sits out" if view.get("format") == "rotation" else "two partnerships"
    target = (view.get("rules") or {}).get("target")
    lines = [f"Game {game_id[:8]}  {kind}  you: {names.get(seat, seat)}  score {sides}"
             + (f" (to {target})" if target else "")]
    if view.get("status") == "waiting_for_opponent":
        lines.append("Waiting for every seat to be taken." + "".join(
            f"\n  seat {i['seat']}: gin join {game_id} {i['invite_code']}" for i in invites or []))
        return "\n".join(lines)
    result = view.get("result")
    if result:
        winners = result.get("winner_seats") or []
        who = "You win" if seat in winners else " and ".join(names.get(s, str(s)) for s in winners) + " win"
        return "\n".join(lines + [f"The match is over: {who} ({result.get('reason')})."])
    for board in view.get("boards") or []:
        if board:
            a, b = board["seats"]
            mover = board.get("to_move")
            lines.append(f"Board {board['board']}: {names.get(a)} v {names.get(b)}, "
                         + (f"{'you' if mover == seat else names.get(mover)} to move" if mover is not None
                            else "waiting") + f", stock {board.get('stock_count')}")
    if view.get("sitting_out") is not None:
        lines.append(f"Sitting out: {'you' if view['sitting_out'] == seat else names.get(view['sitting_out'])}")
    own = view.get("my_board")
    if own:
        lines += render_view(seat_view(view), own["local_seat"], style, game_id).splitlines()[1:]
    return "\n".join(lines)


def render_view(view: dict, seat: int, style: Style, game_id: str, invite: str | None = None) -> str:
    if "format" in view:  # a table of three or four seats
        return render_table_view(view, style, game_id)
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


def table_event(event: dict) -> dict:
    """A table board's event (it has `board` and `seats`) in table seats: its `seat`, `dealer`, the
    keys of `cards` and its hand record are the board's local seats 0 and 1. Others as they are."""
    seats = event.get("seats")
    if event.get("board") is None or not isinstance(seats, list) or len(seats) != 2:
        return event
    local = {0: seats[0], 1: seats[1]}
    shown = {**event, **{k: local.get(event[k]) for k in ("seat", "dealer") if isinstance(event.get(k), int)}}
    if isinstance(event.get("cards"), dict):
        shown["cards"] = {str(local[int(k)]): v for k, v in event["cards"].items()}
    record = event.get("record")
    if isinstance(record, dict):
        shown["record"] = {**record, **{k: local.get(record[k]) for k in ("winner", "knocker", "dealer")
                                        if isinstance(record.get(k), int)},
                           "hands": {str(local[int(k)]): v for k, v in (record.get("hands") or {}).items()}}
    return shown


def describe_event(event: dict, seat: int, names: dict, style: Style) -> str:
    event = table_event(event)
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
    if kind == "next_pairing":  # a rotation's next hand
        a, b = event.get("seats") or (None, None)
        out = event.get("sitting_out")
        return f"next hand: {names.get(a, '?')} v {names.get(b, '?')}; {'you sit' if out == seat else names.get(out, '?') + ' sits'} out"
    if kind == "round_end":  # a partnership's round: both boards decided
        return f"round {event.get('round', 0) + 1} over"
    if kind == "table_hand_end":  # the board's hand_end said how; this is the table's record of it
        return f"hand {event.get('hand')} scored"
    if kind == "match_end" and isinstance(event.get("result"), dict) and "winner_seats" in event["result"]:
        winners = event["result"]["winner_seats"]
        return "match over: " + ("you win" if seat in winners else " and ".join(names.get(s, "?") for s in winners)
                                 + (" win" if len(winners) > 1 else " wins"))
    if kind == "match_end":
        winner = event.get("winner")
        return "match over" + (f": {'you win' if winner == seat else names.get(winner, '?') + ' wins'}"
                               if winner is not None else "")
    return f"{who} {kind}".strip()


def hand_layout(record: dict, seat: int, names: dict, style: Style) -> list[str]:
    """Both hands of a finished hand, laid out: melds, layoffs and deadwood with its count."""
    knocker = record.get("knocker")
    lines = []
    for s in (0, 1):
        who = "you" if s == seat else names.get(s, f"seat {s}")
        if knocker is None:  # a void hand: the cards as they were
            lines.append(f"  {who}: {style.cards((record.get('hands') or {}).get(str(s)) or [])}")
            continue
        role = "knocker" if s == knocker else "defender"
        melds = "  ".join("[" + style.cards(m) + "]" for m in record.get(f"{role}_melds") or [])
        layoffs = record.get("defender_layoffs") or [] if role == "defender" else []
        dead = record.get(f"{role}_deadwood") or []
        text = f"  {who}: {melds}{'  ' if melds else ''}"
        text += f"laid off {style.cards(layoffs)}  " if layoffs else ""
        text += f"deadwood {style.cards(dead)} = {record.get(f'{role}_points', 0)}"
        lines.append(text)
    return lines


def news(api: Api, store: Store, game_id: str, entry: dict, view: dict, style: Style,
         limit: int = 12) -> list[str]:
    """What happened since this seat last looked (as the mails tell it): the opponent's moves, your
    own (with the card you drew), a hand's end with both hands laid out. Remembers what was told."""
    seen = entry.get("seen_seq", 0)
    try:
        events = api.events(game_id, after=seen)
    except (ServiceError, NetworkError):
        return []  # the view still shows where the game stands
    if not events:
        return []
    seat = entry.get("seat", view.get("seat", 0))
    names = _seat_names(view)
    lines = []
    for event in events:
        lines.append(_sentence(describe_event(event, seat, names, style)))
        if event.get("type") in ("hand_end", "hand_void") and isinstance(event.get("record"), dict):
            lines.extend(hand_layout(event["record"], seat, names, style))
    entry["seen_seq"] = events[-1].get("seq", seen)
    store.save()
    if len(lines) > limit:
        lines = [f"({len(lines) - limit} earlier lines: gin history -g {game_id[:8]})"] + lines[-limit:]
    return lines


def _sentence(text: str) -> str:
    return (text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")) if text else text


def _print_news(args, api: Api, store: Store, game_id: str, entry: dict, view: dict) -> None:
    if args.json:
        return
    lines = news(api, store, game_id, entry, view, args.style)
    if lines:
        print("Since you looked:\n  " + "\n  ".join(lines))


def table_score_sheet(view: dict, seat: int | None = None) -> str:
    """A table's sheet: each decided hand (its board, who played, who won) and the sides' totals."""
    names = _seat_names(view)
    sides = view.get("sides") or []
    label = ["+".join(names.get(s, str(s)) + (" (you)" if s == seat else "") for s in side) for side in sides]
    lines = [f"{'hand':>4}  {'board':5}  {'players':24}  {'won by':14}  {'points':>6}"]
    for row in (view.get("scores") or {}).get("sheet") or []:
        if row.get("hand") is None:  # a team bonus
            lines.append(f"{'':>4}  team bonus to {label[row['side']]}: {row.get('team_bonus')}")
            continue
        a, b = row.get("seats") or (None, None)
        winner = row.get("winner")
        lines.append(f"{row['hand']:>4}  {row.get('board', 0):<5}  {(names.get(a, '?') + ' v ' + names.get(b, '?'))[:24]:24}  "
                     f"{(names.get(winner, '-') if winner is not None else '-')[:14]:14}  {row.get('points', 0):>6}")
    totals = _scores(view)
    lines.append("total: " + ", ".join(f"{label[i]} {totals[i] if i < len(totals) else 0}" for i in range(len(sides))))
    result = view.get("result")
    if result and result.get("winner_seats"):
        winners = result["winner_seats"]
        lines.append(" and ".join(names.get(s, str(s)) for s in winners) + (" win" if len(winners) > 1 else " wins")
                     + " the match"
                     + ("" if result.get("reason") in (None, "target") else f" ({result['reason']})") + ".")
    return "\n".join(lines)


def score_sheet(view: dict, seat: int | None = None) -> str:
    """The match's score sheet, hand by hand with running totals, then the bonuses once a game closes."""
    if "format" in view:  # a table of three or four seats
        return table_score_sheet(view, seat)
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
    """A seat's own token, or for a seat held by your player (a challenge's game) the player token."""
    server = _server_for(args, entry)
    token = entry.get("token")
    if token is None:
        account = args.store.player(server) if getattr(args, "store", None) else None
        if account is None:
            raise UsageError(f"this game is your player's, and no player account for {server} is in "
                             "the token file (gin register NAME)")
        token = account["token"]
    return Api(server, token, retries=args.retries)


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


def _rules(args) -> dict:
    rules: dict = {"preset": args.preset}
    for option in args.option or []:
        key, value = _parse_option(option)
        rules[key] = value
    return rules


def cmd_new(args, store: Store) -> int:
    if args.vs_bot:
        return new_vs_bot(args, store)
    rules = _rules(args)
    body: dict = {"name": args.name, "rules": rules}
    if args.move_hours is not _UNSET:
        body["move_time_hours"] = args.move_hours
    if args.email:
        body["email"] = args.email
    if args.seats != 2:
        body["seats"] = args.seats
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
    where = f" --server {server}" if server != DEFAULT_SERVER else ""
    if created.get("invites"):  # a table: each seat has its own code (seats 0+2 play 1+3 at four)
        print("Each player joins the seat their code opens:")
        for invite in created["invites"]:
            print(f"  seat {invite['seat']}: gin join {game_id} {invite['invite_code']}{where}")
    else:
        print(f"Your opponent joins with:\n  gin join {game_id} {created.get('invite_code')}{where}")
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
    api = _api_for(args, entry)
    view, _ = api.view(game_id)
    _remember(args, store, game_id, view)
    _print_news(args, api, store, game_id, entry, view)
    _show(args, game_id, entry, view)
    return EXIT_OK


def _act(args, store: Store, action: dict) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    version = current_version(api, game_id, entry)
    view = api.act(game_id, action, version=version, key=uuid.uuid4().hex)
    _remember(args, store, game_id, view)
    if not args.json:
        lines = news(api, store, game_id, entry, view, args.style)  # the card drawn, the hand's end...
        print("\n".join(lines) if lines else f"Done: {describe_action(action, args.style)}.")
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
    view = wait_for_turn(args, api, game_id, seat)
    _remember(args, store, game_id, view)
    _print_news(args, api, store, game_id, entry, view)
    _show(args, game_id, entry, view)
    return EXIT_OK


def wait_for_turn(args, api: Api, game_id: str, seat: int) -> dict:
    """The view once it is this seat's turn (or the match is over): by the game's stream where the
    server has one, else by long-poll; a dropped connection or a server restart is waited out."""
    deadline = None if args.timeout is None else time.monotonic() + args.timeout
    view, _ = api.view(game_id)
    if _worth_waking(view, seat):
        return view
    if not args.json:
        waiting = _seat_names(view)[1 - seat] if view.get("status") != "waiting_for_opponent" else "an opponent to join"
        print(f"Waiting for {waiting}...", file=sys.stderr, flush=True)

    def retrying(exc: Exception, pause: float) -> None:
        print(f"gin: {exc}; still watching, next try in {pause:.0f} s", file=sys.stderr, flush=True)

    for changed in http.views(api, game_id, view.get("version"), wait=args.wait,
                              use_stream=args.wait != 0,
                              deadline=deadline, on_retry=retrying):
        view = changed
        if _worth_waking(view, seat):
            return view
    if _worth_waking(view, seat):
        return view
    raise ServiceError(408, "watch-timeout", f"still not your turn after {args.timeout:g} s")


PLAY_HELP = ("moves: take, pass, draw stock|discard, discard CARD, knock CARD, gin, resign; "
             "and: show, history, score, help, quit")


def action_from_words(words: list[str], view: dict) -> dict:
    """A move typed at `gin play` (the same words as the commands and the mail replies)."""
    view = seat_view(view)  # at a table: the seat's own board
    verb, rest = words[0].lower(), words[1:]
    if verb == "take":
        phases_with_upcard = ("upcard_offer", "last_discard_offer")
        return {"type": "take_upcard"} if view.get("phase") in phases_with_upcard else {"type": "draw", "from": "discard"}
    if verb == "pass":
        return {"type": "pass"}
    if verb == "draw":
        if len(rest) != 1 or rest[0].lower() not in ("stock", "discard"):
            raise UsageError("draw stock, or draw discard")
        return {"type": "draw", "from": rest[0].lower()}
    if verb in ("discard", "knock"):
        if len(rest) != 1:
            raise UsageError(f"{verb} takes one card, like {verb} 7H")
        card = normalize_card(rest[0])
        return {"type": "discard", "card": card} if verb == "discard" else {"type": "knock", "discard": card}
    if verb == "gin":
        action = gin_action(view)
        if action is None:
            raise UsageError("no gin in this hand now")
        return action
    close = difflib.get_close_matches(verb, ["take", "pass", "draw", "discard", "knock", "gin", "resign", "show",
                                             "history", "score", "help", "quit"], n=1, cutoff=0.5)
    raise UsageError(f"unknown move {verb!r}" + (f"; did you mean `{close[0]}`?" if close else f" ({PLAY_HELP})"))


def cmd_play(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    seat = entry.get("seat", 0)
    print(f"Playing game {game_id[:8]}. Type a move when it is your turn ({PLAY_HELP}).")
    view, _ = api.view(game_id)
    fresh = True
    while True:
        if fresh:
            _remember(args, store, game_id, view)
            _print_news(args, api, store, game_id, entry, view)
            _show(args, game_id, entry, view)
            fresh = False
        if view.get("status") == "finished" or view.get("phase") == "match_over":
            print(score_sheet(view, seat))
            return EXIT_OK
        if not _worth_waking(view, seat):
            view, fresh = wait_for_turn(args, api, game_id, seat), True
            continue
        try:
            words = input("gin> ").split()
        except EOFError:
            print()
            return EXIT_OK
        if not words:
            continue
        verb = words[0].lower()
        if verb in ("quit", "exit", "q"):
            return EXIT_OK
        if verb in ("help", "?"):
            print(PLAY_HELP)
            continue
        if verb in ("show", "score", "history"):
            view, _ = api.view(game_id)
            if verb == "score":
                print(score_sheet(view, seat))
            elif verb == "history":
                names = _seat_names(view)
                for event in api.events(game_id):
                    print(f"{event.get('seq', ''):>4}  {describe_event(event, seat, names, args.style)}")
            else:
                fresh = True
            continue
        try:
            if verb == "resign":
                if input("Resign the match (your opponent wins)? [y/N] ").strip().lower() not in ("y", "yes"):
                    continue
                action = {"type": "resign"}
            else:
                action = action_from_words(words, view)
            view = api.act(game_id, action, version=view.get("version"), key=uuid.uuid4().hex)
            fresh = True
        except UsageError as exc:
            print(f"gin: {exc}")
        except ServiceError as exc:
            print(f"gin: {exc.detail} [{exc.code}]")
            view, _ = api.view(game_id)
        except EOFError:
            return EXIT_OK


def _worth_waking(view: dict, seat: int) -> bool:
    to_move = view.get("to_move")
    return (to_move == seat or (isinstance(to_move, list) and seat in to_move) or view.get("status") == "finished"
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
    if "token" not in entry:
        raise UsageError("this seat is opened by your player token (gin me --show-token prints it)")
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
# A player account: one token for all the player's games, challenges, rematches, watch links

CHALLENGE_ID_LENGTH = 22  # ids are 16 random bytes, base64url


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number from 1, not {text!r}")
    return value


def _not_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"a whole number from 0, not {text!r}")
    return value


def _player_api(args, store: Store) -> tuple[Api, dict]:
    server = _server_for(args)
    account = store.player(server)
    if account is None:
        raise UsageError(f"no player account for {server} in {store.path}: make one with `gin register NAME`")
    return Api(server, account["token"], retries=args.retries), account


def _keep_seat(store: Store, server: str, game_id: str, seat: int, account: dict, view: dict | None) -> dict:
    """Remember a seat your player holds: no token of its own, the player token opens it."""
    entry = store.games.get(game_id) or {"server": server, "seat": seat, "player": account["name"],
                                         "name": account["name"],
                                         "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    if view and "version" in view:
        entry["version"] = view["version"]
    store.games[game_id] = entry
    store.save()
    return entry


def cmd_register(args, store: Store) -> int:
    server = _server_for(args)
    held = store.player(server)
    if held is not None:
        raise UsageError(f"this token file holds the player {held['name']!r} for {server} already")
    made = Api(server, retries=args.retries).register(args.player_name, args.email, args.bot)
    store.set_player(server, {"name": made["player"]["name"], "token": made["token"], "id": made["player"]["id"]})
    store.save()
    if args.json:
        _print_json(made if args.show_token else {k: v for k, v in made.items() if k != "token"})
        return EXIT_OK
    print(f"Registered {made['player']['name']} on {server}; the player token is kept in {store.path}.")
    if args.show_token:
        print(f"Your player token: {made['token']}")
    return EXIT_OK


def cmd_me(args, store: Store) -> int:
    api, account = _player_api(args, store)
    me = api.me()
    if args.json:
        _print_json({**me, "token": account["token"]} if args.show_token else me)
        return EXIT_OK
    print(f"{me['name']}{' (a bot)' if me['bot'] else ''} on {api.server}"
          + (f", email {me['email']}" if me.get("email") else "") + f", since {me['created_at'][:10]}.")
    if args.show_token:
        print(f"Your player token: {account['token']}")
    return EXIT_OK


def _game_row(game: dict) -> str:
    opponent = game.get("opponent") or {}
    who = opponent.get("player") or opponent.get("name") or "(nobody yet)"
    who += " (bot)" if opponent.get("bot") else ""
    if game["status"] == "finished":
        state = "over"
    elif game["status"] != "active":
        state = "waiting to join"
    else:
        state = "YOUR TURN" if game["your_turn"] else "their turn"
    score = f"{game['score']['you']}-{game['score']['opponent']}"
    deadline = format_deadline(game.get("deadline")) if game["status"] == "active" else ""
    return f"{game['game_id'][:8]:10} {who[:24]:24} {score:>9}  {state:16} {deadline}"


def cmd_games(args, store: Store) -> int:
    api, account = _player_api(args, store)
    page = api.my_games(args.limit, args.offset)
    for game in page["games"]:  # so that `gin show -g ID` and the rest work on them here
        if game["game_id"] not in store.games:
            _keep_seat(store, api.server, game["game_id"], game["seat"], account, None)
    if args.json:
        _print_json(page)
        return EXIT_OK
    if not page["games"]:
        print("No games yet: `gin new --vs-bot` plays the computer, `gin challenge NAME` a person.")
        return EXIT_OK
    print(f"{'GAME':10} {'OPPONENT':24} {'SCORE':>9}  {'STATUS':16} DEADLINE")
    for game in page["games"]:
        print(_game_row(game))
    if page.get("next_offset") is not None:
        print(f"(more: gin games --offset {page['next_offset']})")
    return EXIT_OK


def _challenge_line(challenge: dict) -> str:
    rules = challenge.get("rules") or {}
    hours = challenge.get("move_time_hours")
    to = challenge.get("to") or "anyone" + ("" if challenge.get("opponent") == "any" else f" ({challenge['opponent']}s)")
    return (f"{challenge['challenge_id']}  {challenge['from']} -> {to}: {rules.get('preset', '?')} to "
            f"{rules.get('target', '?')}, {'no deadline' if hours is None else f'{hours} h a move'}"
            + (f", rematch of {challenge['rematch_of'][:8]}" if challenge.get("rematch_of") else "")
            + f"; expires {format_deadline(challenge.get('expires_at'))}")


def _challenge_id(api: Api, ref: str) -> str:
    """A challenge's id from the id or a unique prefix of one that `gin challenges` lists."""
    ref = ref.strip()
    if not ref or not re.fullmatch(r"[A-Za-z0-9_-]+", ref):
        raise UsageError(f"not a challenge id: {ref!r}")
    if len(ref) == CHALLENGE_ID_LENGTH:
        return ref
    listed = api.challenges()
    found = {c["challenge_id"] for part in ("to_me", "open", "mine") for c in listed.get(part, [])
             if c["challenge_id"].startswith(ref)}
    if len(found) != 1:
        raise UsageError(f"no pending challenge starts with {ref!r} (see `gin challenges`)" if not found
                         else f"{ref!r} matches {len(found)} challenges; give more of the id")
    return found.pop()


def wait_for_answer(api: Api, body: dict, timeout: float) -> tuple[dict, dict | None]:
    """Challenge (`body`) and wait on the player's stream for the answer: (challenge, the
    challenge_accepted or _declined event), or (challenge, None) after `timeout` seconds. The stream
    is open before the challenge is made, so a quick answer is never missed."""
    made: dict = {}

    def offer():
        made.update(api.challenge(body))

    for event in http.player_events(api, until=time.monotonic() + timeout, on_open=offer):
        if event.get("challenge_id") == made.get("challenge_id") and event.get("type") in (
                "challenge_accepted", "challenge_declined"):
            return made, event
    if not made:
        raise NetworkError(f"cannot reach the player stream of {api.server}")
    return made, None


def _settle_unanswered(api: Api, challenge: dict) -> str | None:
    """After waiting in vain: withdraw the challenge. If it was answered meanwhile (closed), the game
    it made, if any, is the newest one against that player."""
    try:
        api.cancel(challenge["challenge_id"])
        return None
    except ServiceError as exc:
        if exc.code != "challenge-closed":
            raise
    for game in api.my_games(limit=20)["games"]:
        if (game.get("opponent") or {}).get("player") == challenge.get("to"):
            return game["game_id"]
    return None


def _take_seat(args, store: Store, api: Api, account: dict, game_id: str, opening: str) -> int:
    view, _ = api.view(game_id)
    seat = view.get("seat", 0)
    _keep_seat(store, api.server, game_id, seat, account, view)
    if args.json:
        _print_json({"game_id": game_id, "seat": seat, "game": view})
        return EXIT_OK
    print(f"{opening} Game {game_id}, you are seat {seat}; `gin play -g {game_id[:8]}` sits you at it.")
    print(render_view(view, seat, args.style, game_id))
    return EXIT_OK


def _challenge_body(args, to: str | None, opponent: str) -> dict:
    body: dict = {"to": to, "rules": _rules(args), "opponent": opponent}
    if args.move_hours is not _UNSET:
        body["move_time_hours"] = args.move_hours
    if getattr(args, "expires_hours", None) is not None:
        body["expires_in_hours"] = args.expires_hours
    return body


def _answered(args, store: Store, api: Api, account: dict, challenge: dict, answer: dict | None,
              timeout: float) -> int:
    who = challenge.get("to") or "nobody"
    if answer is None:
        game_id = _settle_unanswered(api, challenge)
        if game_id is None:
            raise ServiceError(408, "challenge-unanswered", f"{who} did not answer within {timeout:g} s; "
                                                            "the challenge is withdrawn")
        return _take_seat(args, store, api, account, game_id, f"{who} accepted.")
    if answer["type"] == "challenge_declined":
        raise ServiceError(409, "challenge-declined", f"{answer.get('by') or who} declined the challenge "
                                                      f"(reason: {answer.get('reason')})")
    return _take_seat(args, store, api, account, answer["game_id"], f"{answer.get('by') or who} accepted.")


def new_vs_bot(args, store: Store) -> int:
    """gin new --vs-bot: challenge the house bot as your player, and take the seat once it accepts."""
    api, account = _player_api(args, store)
    if args.timeout <= 0:
        raise UsageError("--timeout takes a number of seconds above 0")
    bot_name = api.house_bot()["name"]
    if not args.json:
        print(f"Challenging {bot_name}, the computer; waiting for it to accept...", file=sys.stderr, flush=True)
    challenge, answer = wait_for_answer(api, _challenge_body(args, bot_name, "bot"), args.timeout)
    return _answered(args, store, api, account, challenge, answer, args.timeout)


def cmd_challenge(args, store: Store) -> int:
    if bool(args.to) == bool(args.open):
        raise UsageError("name the player to challenge, or give --open for anyone (not both)")
    if args.wait is not None and args.wait <= 0:
        raise UsageError("--wait takes a number of seconds above 0")
    api, account = _player_api(args, store)
    body = _challenge_body(args, args.to, args.opponent)
    if args.wait is not None:
        challenge, answer = wait_for_answer(api, body, args.wait)
        return _answered(args, store, api, account, challenge, answer, args.wait)
    challenge = api.challenge(body)
    if args.json:
        _print_json(challenge)
    else:
        print(f"Challenge made: {_challenge_line(challenge)}")
        print(f"They accept with: gin accept {challenge['challenge_id']}"
              + ("" if args.to else " (anyone)") + f"; you withdraw it with: gin cancel {challenge['challenge_id']}")
    return EXIT_OK


def cmd_challenges(args, store: Store) -> int:
    api, _ = _player_api(args, store)
    listed = api.challenges()
    if args.json:
        _print_json(listed)
        return EXIT_OK
    for part, title in (("to_me", "To you (gin accept ID / gin decline ID)"),
                        ("open", "Open, yours to take (gin accept ID)"),
                        ("mine", "Yours, waiting (gin cancel ID)")):
        rows = listed.get(part) or []
        print(f"{title}: {'none' if not rows else ''}")
        for challenge in rows:
            print("  " + _challenge_line(challenge))
    return EXIT_OK


def cmd_accept(args, store: Store) -> int:
    api, account = _player_api(args, store)
    accepted = api.accept(_challenge_id(api, args.challenge_id))
    return _take_seat(args, store, api, account, accepted["game_id"], "Accepted.")


def cmd_decline(args, store: Store) -> int:
    api, _ = _player_api(args, store)
    declined = api.decline(_challenge_id(api, args.challenge_id), args.reason)
    if args.json:
        _print_json(declined)
    else:
        print(f"Declined {declined['from']}'s challenge ({args.reason}).")
    return EXIT_OK


def cmd_cancel(args, store: Store) -> int:
    api, _ = _player_api(args, store)
    cancelled = api.cancel(_challenge_id(api, args.challenge_id))
    if args.json:
        _print_json(cancelled)
    else:
        print(f"Withdrew the challenge {cancelled['challenge_id']}.")
    return EXIT_OK


def cmd_rematch(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    offered = api.rematch(game_id).get("rematch")
    if offered is None:
        offered = api.offer_rematch(game_id)
        verb = "Offered a rematch"
    else:
        verb = "A rematch was offered already"
    if args.json:
        _print_json(offered)
        return EXIT_OK
    print(f"{verb}: {_challenge_line(offered)} [{offered['status']}]")
    if offered["status"] == "pending":
        print(f"{offered['to']} accepts with: gin accept {offered['challenge_id']}")
    elif offered.get("game_id"):
        print(f"The rematch is game {offered['game_id']} (gin games lists it).")
    return EXIT_OK


def cmd_watch_link(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    if args.revoke:
        if not args.revoke.isdigit():
            raise UsageError(f"a watch link's id is a number (gin watch-link --list), not {args.revoke!r}")
        api.revoke_watch_link(game_id, args.revoke)
        if args.json:
            _print_json({"revoked": args.revoke})
        else:
            print(f"Revoked watch link {args.revoke}: its key shows nothing from now on.")
        return EXIT_OK
    if args.list:
        links = api.watch_links(game_id)
        if args.json:
            _print_json({"links": links})
        else:
            for link in links:
                print(f"{link['id']:>4}  made by seat {link['created_by_seat']} at {link['created_at']}")
            if not links:
                print("No watch links for this game.")
        return EXIT_OK
    made = api.create_watch_link(game_id)
    page = f"{api.server}/watch/{game_id}#key={made['key']}"  # the key in the fragment: never sent to a server
    if args.json:
        _print_json({**made, "page": page})
        return EXIT_OK
    print(f"Share this read-only link (it shows the table, never a hand in play):\n  {page}")
    print(f"Revoke it with: gin watch-link -g {game_id[:8]} --revoke {made['id']}")
    return EXIT_OK


# ---------------------------------------------------------------------------------------------
# Arguments

class Parser(argparse.ArgumentParser):
    def error(self, message: str):
        # One line, like every other error; the full usage is one --help away.
        wrong = re.search(r"invalid choice: '([^']*)'", message)
        if wrong:
            close = difflib.get_close_matches(wrong.group(1), [c[0] for c in COMMANDS], n=1, cutoff=0.5)
            if close:
                message = f"unknown command {wrong.group(1)!r}; did you mean `gin {close[0]}`?"
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
    group.add_argument("-g", "--game", dest="game_opt", metavar="GAME", default=default,
                       help="game id or prefix (default: your only game)")


def format_series(series: dict) -> str:
    """A series: its format, the standings table, and its games in order with their results."""
    fmt = (f"best of {series['matches']}" if series["kind"] == "best_of" else f"first to {series['target']} points")
    target = (series.get("rules") or {}).get("target")
    standings = series["standings"]
    lines = [f"Series {series['series_id']}: {' v '.join(series['players'])}, {fmt}"
             + (f", each game to {target}" if target else "") + f" [{series['status']}]"]
    for row in standings["rows"]:
        lines.append(f"  {row['player'][:20]:20} won {row['won']}  lost {row['lost']}  drawn {row['drawn']}  "
                     f"points {row['points']:>5}  net {row['net']:+}")
    if standings["winner"]:
        lines.append(f"{standings['winner']} won the series"
                     + (" (exactly 50 ahead loses)" if standings.get("exactly_50_rule") else "") + ".")
    elif series["status"] == "playing":
        lines.append(f"{standings['leader']} leads." if standings["leader"] else "Level.")
    for game in series["games"]:
        result = game["result"]
        said = (f"{result['winner'] or 'nobody'} won {'-'.join(map(str, result['totals']))} ({result['reason']})"
                if result else f"in play: gin show -g {game['game_id']}")
        lines.append(f"  {game['number']}. {' v '.join(game['seating'])}  {said}")
    return "\n".join(lines)


def cmd_series(args, store: Store) -> int:
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", args.series_id or ""):
        raise UsageError(f"not a series id: {args.series_id!r}")
    api, _ = _player_api(args, store)
    series = api.series(args.series_id)
    if args.json:
        _print_json(series)
    else:
        print(format_series(series))
    return EXIT_OK


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
    ("play", cmd_play, "sit at one game: show the table, wait for the opponent, take moves as typed",
     "gin play 3Yx9", "play"),
    ("score", cmd_score, "the score sheet, hand by hand, with the bonuses", "gin score", "game"),
    ("token", cmd_token, "print the seat token of a game (keep it secret)", "gin token 3Yx9", "game"),
    ("forget", cmd_forget, "remove a game and its token from the token file", "gin forget 3Yx9", "game"),
    ("register", cmd_register, "make your player account on the server (one token for all your games)",
     "gin register Ann --email ann@example.org", "register"),
    ("me", cmd_me, "your player account", "gin me", ""),
    ("games", cmd_games, "your player's games on the server, your turn first (and remember them here)",
     "gin games", "games"),
    ("challenge", cmd_challenge, "challenge a player by name, or post an open challenge",
     "gin challenge Bob --preset oklahoma --option target=150", "challenge"),
    ("challenges", cmd_challenges, "pending challenges: to you, open ones you may take, your own",
     "gin challenges", ""),
    ("accept", cmd_accept, "accept a challenge (or a rematch): the game starts, your seat is kept here",
     "gin accept c7Hq0tq4", "challenge_id"),
    ("decline", cmd_decline, "decline a challenge made to you, with a reason", "gin decline c7Hq0tq4 --reason busy",
     "decline"),
    ("cancel", cmd_cancel, "withdraw a challenge of yours", "gin cancel c7Hq0tq4", "challenge_id"),
    ("rematch", cmd_rematch, "offer a rematch when the match is over (or show the one offered)",
     "gin rematch 3Yx9", "game"),
    ("watch-link", cmd_watch_link, "a read-only link to share: the table, never a hand in play",
     "gin watch-link 3Yx9", "watch_link"),
    ("series", cmd_series, "a series' standings and its games (your player's series)",
     "gin series sR7q0tq4s8m1PZk2w9lX3A", "series"),
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
            sub.add_argument("--seats", type=int, choices=(2, 3, 4), default=2,
                             help="players: 2, 3 (one sits out each hand) or 4 (two partnerships)")
            sub.add_argument("--vs-bot", action="store_true",
                             help="play the computer: challenge the server's house bot as your player "
                                  "(gin register first) and take your seat once it accepts")
            sub.add_argument("--timeout", type=float, default=60.0,
                             help="with --vs-bot: seconds to wait for the bot to accept (default 60)")
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
                             help="the game's stream, or where the server has none, long-poll seconds per "
                                  "request (default 30); 0: plain polling with backoff, no stream")
        elif kind == "play":
            sub.add_argument("game_pos", metavar="GAME", nargs="?", help="game id or prefix")
            sub.add_argument("--timeout", type=float, default=None, help="stop waiting after this many seconds")
            sub.add_argument("--wait", type=int, default=30, help=argparse.SUPPRESS)
        elif kind == "resign":
            sub.add_argument("--yes", action="store_true", help="really resign")
        elif kind == "vacation":
            sub.add_argument("days", type=int, metavar="DAYS", help="whole days, from now")
        elif kind == "register":
            sub.add_argument("player_name", metavar="NAME", help="your player name (unique on the server)")
            sub.add_argument("--email", help="email address, kept with the account")
            sub.add_argument("--bot", action="store_true", help="the account is a program's")
        elif kind == "games":
            sub.add_argument("--limit", type=_positive, default=50, help="games per page (default 50)")
            sub.add_argument("--offset", type=_not_negative, default=0, help="skip this many (paging)")
        elif kind == "challenge":
            sub.add_argument("to", metavar="NAME", nargs="?", help="the player to challenge (none: --open)")
            sub.add_argument("--open", action="store_true", help="an open challenge anyone may take")
            sub.add_argument("--preset", default="standard", help="rules preset (as for gin new)")
            sub.add_argument("--option", action="append", metavar="KEY=VALUE", help="override one rule (repeatable)")
            sub.add_argument("--move-hours", type=_move_hours, default=_UNSET, metavar="HOURS",
                             help="hours per move, or 'none' (default: the service's, 72)")
            sub.add_argument("--opponent", choices=["any", "bot", "human"], default="any",
                             help="who may take it (default any)")
            sub.add_argument("--expires-hours", type=_positive, default=None, metavar="HOURS",
                             help="the challenge lapses after this many hours (default: the service's, 72)")
            sub.add_argument("--wait", type=float, default=None, metavar="SECONDS",
                             help="wait this long for an answer; accepted, the game is kept here")
        elif kind in ("challenge_id", "decline"):
            sub.add_argument("challenge_id", metavar="CHALLENGE", help="the challenge's id, or a unique prefix "
                                                                       "of one in `gin challenges`")
            if kind == "decline":
                sub.add_argument("--reason", choices=["busy", "rules", "move-time", "opponent", "other"],
                                 default="other", help="the reason code the challenger reads (default other)")
        elif kind == "watch_link":
            sub.add_argument("game_pos", metavar="GAME", nargs="?", help="game id or prefix (default: your only game)")
            sub.add_argument("--list", action="store_true", help="the game's watch links (never their keys)")
            sub.add_argument("--revoke", metavar="LINK_ID", help="revoke this watch link")
        elif kind == "series":
            sub.add_argument("series_id", metavar="SERIES", help="the series' id (POST /series answered it)")
        if kind in ("game", "resign", "vacation"):
            sub.add_argument("game_pos", metavar="GAME", nargs="?", help="game id or prefix (default: your only game)")
        _common(sub, top=False)
    return parser


def exit_status_of(exc: ServiceError) -> int:
    if exc.status in (401, 403):
        return EXIT_AUTH
    if exc.status == 404:
        return EXIT_NOT_FOUND
    if exc.status in (409, 412, 422):
        return EXIT_RULES
    if exc.status == 400:
        return EXIT_USAGE
    return EXIT_ERROR


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.game = getattr(args, "game_opt", None) or getattr(args, "game_pos", None)
    args.style = Style(symbols=not args.plain and symbols_supported(sys.stdout))
    try:
        store = args.store = Store(config_path(args.config))
        return args.handler(args, store)
    except UsageError as exc:
        print(f"gin: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ServiceError as exc:
        hint = {"version-mismatch": " (the game changed while you moved: run `gin show`)",
                "game-not-started": " (your opponent has not joined yet: send them the `gin join ...` line "
                                    "`gin new` printed, then `gin watch` waits for them)"}.get(exc.code, "")
        print(f"gin: {exc.detail} [{exc.code}]{hint}", file=sys.stderr)
        return exit_status_of(exc)
    except NetworkError as exc:
        print(f"gin: {exc} [network]", file=sys.stderr)
        return EXIT_NETWORK
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
