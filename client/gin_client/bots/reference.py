"""The reference bot: plays one or more seats of the Gin Rummy service to the end of their matches.

    python -m gin_client.bots.reference --server http://127.0.0.1:8000 GAME_ID:TOKEN [GAME_ID:TOKEN ...]

Part of the gin_client package (`pip install ./client`, which needs only `requests`). The decision
is a pure function, `choose_action(view) -> action`, of the view the service returns; the loop
around it finds out that it is the bot's turn from the game's stream (Server-Sent Events, resumed
with Last-Event-ID; a long-poll where the server has no stream, conditional polling with --wait 0),
and rides out a server restart by retrying with backoff.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
import time
import uuid
from dataclasses import dataclass

from ..api import Api, NetworkError, ServiceError, etag_of, views, wait_for_change
from ..cli.cards import RANKS, arrange, card_points, card_rank, deadwood
from ..cli.common import DEFAULT_SERVER, exit_status_of
from ..cli.display import score_totals, seat_view

log = logging.getLogger("gin.bot")
MAX_REFUSALS = 8  # moves refused in a row before the bot gives up on a game rather than loop


# ---------------------------------------------------------------------------------------------
# The decision: a pure function of the view

@dataclass(frozen=True)
class Decision:
    action: dict
    deadwood_before: int
    deadwood_after: int | None  # None when it depends on an unseen card (a stock draw)
    reason: str


def choose_action(view: dict, knock_at: int | None = None) -> dict:
    """The bot's move for this view (one of view["legal_actions"], unchanged)."""
    return decide(view, knock_at).action


def decide(view: dict, knock_at: int | None = None) -> Decision:
    legal = [a for a in view.get("legal_actions") or [] if a.get("type") != "resign"]
    if not legal:
        raise ValueError("no legal action for this seat now")
    hand = list(view.get("hand") or [])
    kinds = {a["type"] for a in legal}
    before = held_deadwood(hand)
    if "big_gin" in kinds:
        return Decision({"type": "big_gin"}, before, 0, "all 11 cards meld")
    if "choose_dealer" in kinds:  # 002's cut won: the non-dealer has the first look at the upcard
        return Decision({"type": "choose_dealer", "deal": False}, before, None, "the non-dealer sees the upcard first")
    mahjong = _decide_mahjong(view, hand, legal, before) if "table" in view else None
    if mahjong is not None:
        return mahjong
    if kinds & {"discard", "knock"}:
        return _decide_discard(view, hand, legal, before, knock_at)
    top = (view.get("discard_pile") or [None])[-1]
    last_chance = view.get("phase") == "last_discard_offer"
    gain = _take_gain(hand, top, view, last_chance) if top else None
    if gain is not None and "take_upcard" in kinds:
        return Decision({"type": "take_upcard"}, before, gain, f"the upcard {top} helps")
    draws = {a.get("from"): a for a in legal if a["type"] == "draw"}
    if gain is not None and "discard" in draws:
        return Decision(draws["discard"], before, gain, f"{top} helps")
    if "stock" in draws:
        return Decision(draws["stock"], before, None, "nothing to take")
    if "pass" in kinds:
        return Decision({"type": "pass"}, before, before, f"{top} does not help")
    return Decision(legal[0], before, None, "the only move")


def held_deadwood(hand: list[str]) -> int:
    if len(hand) == 11:  # about to discard: count what the best discard would leave
        return min(deadwood([c for c in hand if c != d]) for d in hand)
    return deadwood(hand)


def _take_gain(hand: list[str], card: str, view: dict, last_chance: bool) -> int | None:
    """The deadwood left after taking `card` and discarding well, if taking it is worth it:
    it goes into a meld, or lowers the deadwood by a fair margin. None otherwise."""
    if not hand:
        return None
    current = deadwood(hand)
    with_card = hand + [card]
    after, discard = min((deadwood([c for c in with_card if c != d]), d) for d in hand)
    if last_chance:  # take_to_finish: only worth it when it lets us knock at once
        return after if after <= view.get("knock_limit", 10) else None
    melds, _, _ = arrange([c for c in with_card if c != discard])
    builds_meld = any(card in meld for meld in melds)
    if builds_meld and after < current:
        return after
    if after <= current - 6 and card_points(card) <= 3:  # a low card replacing a high one
        return after
    return None


def _decide_mahjong(view: dict, hand: list[str], legal: list[dict], before: int) -> Decision | None:
    """Mahjong gin (a view with a `table`): every card on the table scores for its owner and every
    card in hand counts against it, so go gin when allowed, lay each meld of the best arrangement
    and add on whatever fits (the deepest card taken first), and take several discards when that
    lowers the deadwood. None: decide as in the two-player game (draw, take one, discard)."""
    knocks = [a for a in legal if a["type"] == "knock"]
    if knocks:  # straight gin: every knock allowed is a gin
        return Decision(knocks[0], before, 0, "gin")
    placing = [a for a in legal if a["type"] in ("meld", "add_on")]
    if placing:
        must, best = view.get("must_use"), [sorted(m) for m in arrange(hand)[0]]

        def rank(action: dict) -> tuple:
            cards = action.get("cards") or [action.get("card")]
            return (must in cards, sorted(cards) in best, len(cards))
        action = max(placing, key=rank)
        what = f"meld {' '.join(action['cards'])}" if action["type"] == "meld" else f"add {action['card']}"
        return Decision(action, before, None, f"{what} scores on the table")
    pile = view.get("discard_pile") or []
    several = [a for a in legal if a["type"] == "draw" and a.get("count", 1) > 1]
    if several:
        def left_after(action: dict) -> int:
            taken = pile[-action["count"]:]
            kept = hand + taken
            return min((deadwood([c for c in kept if c != d]) for d in kept if d not in taken), default=deadwood(kept))
        action = min(several, key=lambda a: (left_after(a), -a["count"]))
        if left_after(action) < before:
            return Decision(action, before, left_after(action), f"take {action['count']}: {pile[-action['count']]} goes down")
    return None


def _decide_discard(view: dict, hand: list[str], legal: list[dict], before: int, knock_at: int | None) -> Decision:
    knocks = {a["discard"]: a for a in legal if a["type"] == "knock"}
    discards = {a["card"]: a for a in legal if a["type"] == "discard"}
    if knocks:
        card = min(knocks, key=lambda c: (deadwood([x for x in hand if x != c]), -card_points(c)))
        left = deadwood([x for x in hand if x != card])
        if left == 0:
            return Decision(knocks[card], before, 0, "gin")
        if should_knock(left, view, knock_at):
            return Decision(knocks[card], before, left, f"knock with {left}")
    if not discards:  # only knocks are allowed (e.g. straight gin after a take-to-finish)
        card = min(knocks, key=lambda c: deadwood([x for x in hand if x != c]))
        return Decision(knocks[card], before, deadwood([x for x in hand if x != card]), "must knock")
    card = min(discards, key=lambda c: discard_cost(c, hand, view))
    return Decision(discards[card], before, deadwood([x for x in hand if x != card]), f"least useful: {card}")


def should_knock(left: int, view: dict, knock_at: int | None) -> bool:
    """Knock with `left` deadwood (already within the knock limit)? With knock_at set: when
    left <= knock_at. By default: in the first turns of a hand (stock >= 27), before the opponent's
    hand has taken shape, and on the last turn before the stock runs out (stock <= 2, when the
    alternative is a void hand); in between, play on for gin. Against itself this won 59% of
    matches against "knock whenever allowed" and 62% against "knock at 4 or less"
    (bench/bot_strength.py, 200 seeded matches)."""
    if knock_at is not None:
        return left <= knock_at
    stock = view.get("stock_count", 0)
    return left == 0 or stock >= 27 or stock <= 2


def discard_cost(card: str, hand: list[str], view: dict) -> float:
    """How much keeping `card` is worth less than throwing it (lower = throw this one):
    the deadwood left, less a bonus for each live near-meld partner, plus a penalty for feeding
    a card the opponent is known to want."""
    rest = [c for c in hand if c != card]
    _, dead, left = arrange(rest)  # breaking a meld shows here as a higher count
    dead_cards = set(view.get("discard_pile") or [])
    partners = sum(1 for other in dead if _near(card, other) and _live(card, other, dead_cards))
    known = (view.get("opponent") or {}).get("known_cards") or []
    feeds = any(_near(card, k) or _same_rank(card, k) for k in known)
    return left + 2.5 * partners + (4 if feeds else 0) - 0.01 * card_points(card)


def _same_rank(a: str, b: str) -> bool:
    return a[0] == b[0]


def _near(a: str, b: str) -> bool:
    """Two cards that a third could turn into a meld."""
    if a == b:
        return False
    return a[0] == b[0] or (a[1] == b[1] and abs(card_rank(a) - card_rank(b)) <= 2)


def _live(a: str, b: str, gone: set[str]) -> bool:
    """Whether some card that would complete a and b into a meld is not already discarded."""
    if a[0] == b[0]:
        return any(a[0] + s not in gone for s in "CDHS" if s not in (a[1], b[1]))
    low, high = sorted((card_rank(a), card_rank(b)))
    needed = [low + 1] if high - low == 2 else [low - 1, high + 1]
    return any(1 <= r <= 13 and RANKS[r - 1] + a[1] not in gone for r in needed)


# ---------------------------------------------------------------------------------------------
# The loop: poll, decide, act, repeat until the match is over

def describe(game_id: str, view: dict, decision: Decision) -> str:
    after = "?" if decision.deadwood_after is None else decision.deadwood_after
    action = decision.action
    what = action["type"] + "".join(f" {action[k]}" for k in ("from", "card", "discard") if k in action)
    return (f"game={game_id[:8]} hand={view.get('hand_number')} cards=[{' '.join(view.get('hand') or [])}] "
            f"action={what.replace(' ', ':', 1) if ' ' in what else what} "
            f"deadwood={decision.deadwood_before}->{after} ({decision.reason})")


def my_turn(view: dict) -> bool:
    """Whether the seat may act now: at a table (3 or 4 seats) `to_move` lists a seat per board."""
    to_move, seat = view.get("to_move"), view.get("seat")
    mine = seat in to_move if isinstance(to_move, list) else to_move == seat
    return mine and bool(view.get("legal_actions"))


def _finished(view: dict) -> bool:
    return view.get("status") == "finished" or view.get("phase") == "match_over"


def play(server: str, game_id: str, token: str, knock_at: int | None = None, wait: int = 30,
         max_delay: float = 30.0, stop: threading.Event | None = None, sleep=time.sleep,
         poll_delay: float = 1.0) -> dict:
    """Play one seat until its match ends; returns the final view. Network failures (a server
    restart) are waited out with backoff; an action the server refuses is looked at again."""
    api = Api(server, token, retries=2)
    etag, view, delay, refusals = None, None, 1.0, 0
    while not (stop and stop.is_set()):
        try:
            if view is None:
                view, etag = api.view(game_id)
            if _finished(view):
                return view
            if not my_turn(view):
                if wait:  # the game's stream where the server has one (else long-poll), restarts waited out
                    view = next(views(api, game_id, view.get("version"), wait=wait, max_delay=max_delay,
                                      sleep=sleep, on_retry=lambda exc, pause: log.warning(
                                          "game=%s %s; retrying in %.0f s", game_id[:8], exc, pause)),
                                None)  # None: the stream ended with the match; look again
                    continue
                changed, etag = wait_for_change(api, game_id, etag, wait=wait, max_delay=max_delay,
                                                sleep=sleep, min_delay=poll_delay)
                view = changed or view
                continue
            decision = decide(seat_view(view), knock_at)  # a table's seat plays its own board
            log.info(describe(game_id, seat_view(view), decision))
            view = api.act(game_id, decision.action, version=view.get("version"), key=uuid.uuid4().hex)
            etag = etag_of(view["version"]) if "version" in view else None
            delay, refusals = 1.0, 0
        except NetworkError as exc:
            log.warning("game=%s %s; retrying in %.0f s", game_id[:8], exc, delay)
            sleep(delay)
            delay = min(delay * 2, max_delay)
            view = None
        except ServiceError as exc:
            refusals += 1
            if exc.status in (401, 403, 404) or refusals >= MAX_REFUSALS:
                raise  # a lost seat, or a move refused again and again: a person must look
            # A stale view (412), not our turn after all (409), or a refused move: look again.
            log.warning("game=%s refused: %s [%s]; looking again", game_id[:8], exc.detail, exc.code)
            view = None
            sleep(min(delay, 2.0))
            delay = min(delay * 2, max_delay)
    return view or {}


def play_all(server: str, specs: list[tuple[str, str]], knock_at: int | None = None, wait: int = 30,
             poll_delay: float = 1.0, max_delay: float = 30.0) -> dict[str, dict]:
    """Play every seat at once, one thread each; returns the final views by game id."""
    results: dict[str, dict] = {}
    errors: list[BaseException] = []

    def run(game_id: str, token: str) -> None:
        try:
            results[game_id + ":" + token[:6]] = play(server, game_id, token, knock_at, wait, max_delay=max_delay,
                                                        poll_delay=poll_delay)
        except BaseException as exc:  # reported below, with the game named
            log.error("game=%s stopped: %s", game_id[:8], exc)
            errors.append(exc)

    threads = [threading.Thread(target=run, args=spec, daemon=True) for spec in specs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results


def parse_spec(text: str) -> tuple[str, str]:
    game_id, sep, token = text.partition(":")
    if not sep or not game_id or not token:
        raise argparse.ArgumentTypeError(f"expected GAME_ID:TOKEN, not {text[:12]!r}...")
    return game_id, token


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m gin_client.bots.reference", description="Play Gin Rummy seats to the end of their matches.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example:\n  python -m gin_client.bots.reference --server http://127.0.0.1:8000 3Yx9kQ...:Zt8v...\n\n"
               "Get a seat's token with `gin token GAME`.")
    parser.add_argument("specs", nargs="+", type=parse_spec, metavar="GAME_ID:TOKEN", help="seats to play")
    parser.add_argument("--server", default=os.environ.get("GIN_SERVER", DEFAULT_SERVER),
                        help="service URL (env GIN_SERVER)")
    parser.add_argument("--knock-at", type=int, default=None,
                        help="knock only with at most this deadwood (default: decide by the hand's stage)")
    parser.add_argument("--wait", type=int, default=30,
                        help="long-poll seconds per request (default 30; 0: plain polling with backoff)")
    parser.add_argument("--poll-delay", type=float, default=1.0,
                        help="first pause between polls when the server answers at once (default 1 s)")
    parser.add_argument("--max-poll-delay", type=float, default=30.0,
                        help="longest pause between polls, and between retries while the server is down (30 s)")
    parser.add_argument("--quiet", action="store_true", help="log only warnings")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO,
                        format="%(asctime)s %(message)s", stream=sys.stderr)
    try:
        results = play_all(args.server, args.specs, args.knock_at, args.wait, args.poll_delay, args.max_poll_delay)
    except ServiceError as exc:
        print(f"reference bot: {exc.detail} [{exc.code}]", file=sys.stderr)
        return exit_status_of(exc)
    except KeyboardInterrupt:
        return 130
    for key, view in results.items():
        winner = (view.get("result") or {}).get("winner")
        mine = view.get("side") if "format" in view else view.get("seat")  # a table's winner is a side
        outcome = "won" if winner == mine else "lost" if winner is not None else "ended"
        print(f"game {key.split(':')[0]}: {outcome}, scores {score_totals(view)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
