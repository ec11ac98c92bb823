"""What gin shows of a game: a seat's view (the hand in melds, the pile, whose turn, what you may do
now), a table of three or four seats, how the last hand ended, deadlines."""
from __future__ import annotations

import re
from datetime import datetime, timezone

from .cards import SUIT_SYMBOLS, arrange, card_points, deadwood_after_discard


class Style:
    def __init__(self, symbols: bool):
        self.symbols = symbols

    def card(self, card: str) -> str:
        return card[0] + SUIT_SYMBOLS[card[1]] if self.symbols else card

    def cards(self, cards) -> str:
        return " ".join(self.card(c) for c in cards) or "-"

    def text(self, words: str) -> str:
        """A server's (or our own) sentence with its cards in this style: errors say 8♠ as the
        hand does, never 8S beside it."""
        return CARD_IN_TEXT.sub(lambda m: self.card(m.group(0)), words) if self.symbols else words


CARD_IN_TEXT = re.compile(r"(?<![\w'])[2-9TJQKA][CDHS](?![\w'])")  # "8S" as a word, not in a code or name


def symbols_supported(stream) -> bool:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "♣♦♥♠".encode(encoding)
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def seat_names(view: dict) -> dict[int, str]:
    names = {0: "seat 0", 1: "seat 1"}
    players = view.get("players") or []
    if isinstance(players, dict):
        players = [players.get(str(i)) or players.get(i) for i in (0, 1)]
    for seat, player in enumerate(players):  # two seats, or a table's three or four
        name = player.get("name") if isinstance(player, dict) else player
        if name:
            level = player.get("level") if isinstance(player, dict) else None
            names[seat] = str(name) + (f" (level {level})" if level else "")  # the house bot's level
    return names


def score_totals(view: dict) -> list[int]:
    """Each seat's points in the (first) game still being scored."""
    scores = view.get("scores")
    if isinstance(scores, dict) and isinstance(scores.get("games"), list) and scores["games"]:
        open_games = [g for g in scores["games"] if not g.get("closed")] or scores["games"][-1:]
        game = open_games[0]
        return list((game.get("final") or game).get("totals") or [0, 0])
    if isinstance(scores, dict) and isinstance(scores.get("totals"), list):
        return scores["totals"]
    return list(scores) if isinstance(scores, list) else [0, 0]


def score_label(view: dict) -> str:
    """What score_text's numbers are: the hands' points while the game is played, then the one
    final score, its bonuses counted ('total')."""
    games = (view.get("scores") or {}).get("games") if isinstance(view.get("scores"), dict) else None
    closed = isinstance(games, list) and games and all(g.get("final") for g in games)
    return "total (bonuses in)" if closed else "hand points"


def score_text(view: dict, seat: int) -> str:
    """'34-12', or for Hollywood scoring each of the three games: 'g1 34-12, g2 10-0, g3 0-0'."""
    games = (view.get("scores") or {}).get("games") if isinstance(view.get("scores"), dict) else None
    if isinstance(games, list) and len(games) > 1:
        parts = []
        for i, game in enumerate(games, 1):
            totals = (game.get("final") or game).get("totals") or [0, 0]
            parts.append(f"g{i} {totals[seat]}-{totals[1 - seat]}{'*' if game.get('closed') else ''}")
        return ", ".join(parts)
    totals = score_totals(view) + [0, 0]
    return f"{totals[seat]}-{totals[1 - seat]}"


def describe_action(action: dict, style: Style) -> str:
    kind = action.get("type")
    if kind == "draw":
        return f"draw {action.get('from')}"
    if kind == "discard":
        return f"discard {style.card(action['card'])}"
    if kind == "knock":
        return f"knock {style.card(action['discard'])}"
    if kind == "meld":
        return f"meld {style.cards(action['cards'])}"
    if kind == "add_on":
        return f"add {style.card(action['card'])} to {action['meld'] + 1}"
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
    draws = [a["from"] for a in legal if a["type"] == "draw" and a.get("count", 1) == 1]
    if draws:
        parts.append("draw " + "|".join(draws))
    counts = [str(a["count"]) for a in legal if a["type"] == "draw" and a.get("count", 1) > 1]
    if counts:
        parts.append(f"take {'|'.join(counts)} (from the pile)")
    parts += [f"meld {style.cards(a['cards'])}" for a in legal if a["type"] == "meld"]
    parts += [f"add {style.card(a['card'])} to {a['meld'] + 1}" for a in legal if a["type"] == "add_on"]
    discards = [a["card"] for a in legal if a["type"] == "discard"]
    server = view.get("arrangement") or {}
    if discards and "table" in view and server.get("best_discard") in discards:  # Mahjong gin's values
        parts.append(f"discard CARD (best {style.card(server['best_discard'])}: leaves "
                     f"{server['deadwood_after_discard']})")
    elif discards:
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
    """A table's view (3, 4, 6 or 8 seats: it has `format`) as the two-seat view of the caller's own
    board, in that board's local seats, so the moves, the hints and the bot read it unchanged.
    A two-seat view is returned as it is."""
    if "format" not in view:
        return view
    own = view.get("my_board")
    board = dict(own["view"]) if own else {"seat": 0, "to_move": None, "phase": None, "hand": []}
    names = {p.get("seat"): p.get("name") for p in view.get("players") or []}
    public = next((b for b in view.get("boards") or [] if b and own and b.get("board") == own["board"]), None)
    deadline = public.get("deadline", view.get("deadline")) if public else view.get("deadline")  # its mover's own
    return {**board, "legal_actions": view.get("legal_actions") or [], "status": view.get("status"),
            "version": view.get("version"), "deadline": deadline, "rules": view.get("rules"),
            "players": [{"seat": i, "name": names.get(s)} for i, s in enumerate(own["seats"] if own else [])]}


def render_table_view(view: dict, style: Style, game_id: str, invites: list | None = None) -> str:
    """A table of three (a rotation), or two teams of 2, 3 or 4 (4, 6 or 8 seats): the sides' scores, who is to move
    on which board, who sits out, then the caller's own board as a two-seat game."""
    seat = view.get("seat", 0)
    names = {p["seat"]: p.get("name") or f"seat {p['seat']}" for p in view.get("players") or []}
    totals = score_totals(view)
    sides = "  ".join("+".join(names.get(s, f"seat {s}") for s in side) + f" {totals[i] if i < len(totals) else 0}"
                      for i, side in enumerate(view.get("sides") or []))
    kind = "three players, one sits out" if view.get("format") == "rotation" else "two partnerships"
    if (view.get("team_size") or 2) > 2:  # Tedesco's teams: a board per pair at once, round by round
        kind = f"two teams of {view['team_size']}, round {view.get('round', 0) + 1}"
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
                            else "waiting") + f", stock {board.get('stock_count')}"
                         + (f" (deadline {format_deadline(board['deadline'])})" if board.get("deadline") else ""))
    bonus = next((row for row in reversed((view.get("scores") or {}).get("sheet") or []) if row.get("hand") is None), None)
    if bonus:  # the last round a whole team won
        team = "+".join(names.get(s, str(s)) for s in (view.get("sides") or [[]])[bonus["side"]])
        lines.append(f"Team bonus: {team} +{bonus.get('team_bonus')} (round {bonus.get('round', 0) + 1}, all won)")
    if view.get("sitting_out") is not None:
        lines.append(f"Sitting out: {'you' if view['sitting_out'] == seat else names.get(view['sitting_out'])}")
    own = view.get("my_board")
    if own:
        lines += render_view(seat_view(view), own["local_seat"], style, game_id).splitlines()[1:]
    return "\n".join(lines)


def render_view(view: dict, seat: int, style: Style, game_id: str, invite: str | None = None) -> str:
    if "format" in view:  # a table of three or four seats
        return render_table_view(view, style, game_id)
    names = seat_names(view)
    me, them = names[seat], names[1 - seat]
    target = (view.get("rules") or {}).get("target")
    lines = [f"Game {game_id[:8]}  hand {view.get('hand_number', '-')}  {me} (you) v {them}  "
             f"{score_label(view)} {score_text(view, seat)}" + (f" (to {target})" if target else "")]
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
        if "table" in view and view.get("arrangement"):  # Mahjong gin counts A 15, 2-9 5, 10-K 10:
            server = view["arrangement"]  # the server's grouping and count, not standard values
            melds, dead, points = server["melds"], server["deadwood"], server["deadwood_points"]
        grouped = "  ".join("[" + style.cards(m) + "]" for m in melds)
        lines.append(f"Hand:      {grouped}{'  ' if grouped else ''}deadwood {style.cards(dead)} = {points}")
    pile = view.get("discard_pile") or []
    top = style.card(pile[-1]) if pile else "(empty)"
    lines.append(f"Discard:   {top} on top ({len(pile)} card{'s' if len(pile) != 1 else ''})   "
                 f"Stock: {view.get('stock_count', '-')}   Knock at: {view.get('knock_limit', '-')}")
    lines += table_meld_lines(view, seat, names, style)
    if view.get("must_use") and to_move == seat:
        lines.append(f"           {style.card(view['must_use'])}, the deepest card taken, must go on the table first")
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


def table_meld_lines(view: dict, seat: int, names: dict, style: Style) -> list[str]:
    """Mahjong gin's melds on the table, numbered as `add 6H to 2` names them, with whose cards."""
    table = view.get("table") or []
    if not table:
        return []
    lines = ["Table:"]
    for number, meld in enumerate(table, 1):
        groups: dict = {}
        for card, owner in zip(meld.get("cards") or [], meld.get("owners") or []):
            groups.setdefault(owner, []).append(card)
        who = ["you" if owner == seat else names.get(owner, f"seat {owner}") for owner in groups]
        owners = who[0] if len(who) == 1 else "; ".join(f"{w}: {style.cards(c)}" for w, c in zip(who, groups.values()))
        lines.append(f"  {number}. {style.cards(meld.get('cards') or [])}  ({owners})")
    return lines


def _render_result(view: dict, seat: int, names: dict) -> str:
    result = view.get("result") or {}
    winner = result.get("winner") if isinstance(result, dict) else None
    if winner is None:
        return "The match is over."
    who = "You win" if winner == seat else f"{names[winner]} wins"
    totals = result.get("totals")
    extra = [f"{totals[seat]}-{totals[1 - seat]} in total (bonuses in)"] if isinstance(totals, list) and len(totals) == 2 else []
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
    if "table_points" in record:  # Mahjong gin: each scores the table less the hand
        text += "; " + ", ".join(f"{who(s)} {record['table_points'][s]} - {record['hand_points'][s]}"
                                 f" = {record['scores'][s]}" for s in (seat, 1 - seat)) + " (table - hand"
        text += f", +{record['scores'][winner] - record['table_points'][winner] + record['hand_points'][winner]}" \
                " for gin)" if winner is not None else ")"
        return text
    if winner is not None:
        text += f"{'; ' if text else ''}{who(winner)} scored {points}"
    elif result == "tie":
        text += "; a tie: nobody scores"
    return text or str(result or "over")


def describe_hand_cards(record: dict, seat: int, style: Style) -> str | None:
    """The opponent's cards as they were laid out at the end of the last hand."""
    knocker = record.get("knocker")
    if knocker is None or "table_points" in record:  # a void hand, or Mahjong gin's hand left over
        hands = record.get("hands") or {}
        cards = hands.get(str(1 - seat))
        return f"their cards were {style.cards(cards)}" if cards else None
    role = "knocker" if knocker != seat else "defender"
    melds = record.get(f"{role}_melds") or []
    dead = record.get(f"{role}_deadwood") or []
    shown = "  ".join("[" + style.cards(m) + "]" for m in melds)
    return f"their cards were {shown}{'  ' if shown else ''}deadwood {style.cards(dead)}"
