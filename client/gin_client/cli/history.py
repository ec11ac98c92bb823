"""What happened in a game, in words: each event as a line (the moves, a hand's end with both hands
laid out), the news since the seat last looked (as the mails tell it), and the score sheet."""
from __future__ import annotations

import re

from ..api import Api, NetworkError, ServiceError
from .cards import card_sort_key
from .display import Style, describe_hand_result, score_totals, seat_names
from .store import Store


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
        if event.get("count", 1) > 1:  # Mahjong gin: several from the pile
            return f"{who} took {style.cards(event.get('cards') or [])} from the discard pile"
        return f"{who} drew from the {source}" + (f": {style.card(card)}" if card else "")
    if kind == "meld":
        return f"{who} laid {style.cards(event.get('cards') or [])} on the table (meld {event.get('meld', 0) + 1})"
    if kind == "add_on":
        return f"{who} added {style.card(card)} to meld {event.get('meld', 0) + 1}"
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
    seat = entry.get("seat", view.get("seat", 0))
    said = message_news(api, game_id, entry, seat)
    if not events and not said:
        return []
    names = seat_names(view)
    lines = []
    for event in events:
        lines.append(_sentence(describe_event(event, seat, names, style)))
        if event.get("type") in ("hand_end", "hand_void") and isinstance(event.get("record"), dict):
            lines.extend(hand_layout(event["record"], seat, names, style))
    lines.extend(said)
    entry["seen_seq"] = events[-1].get("seq", seen) if events else seen
    store.save()
    if len(lines) > limit:
        lines = [f"({len(lines) - limit} earlier lines: gin history -g {game_id[:8]})"] + lines[-limit:]
    return lines


_NOT_PRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def message_news(api: Api, game_id: str, entry: dict, seat: int) -> list[str]:
    """"Bob wrote: ..." for the other seats' messages since this seat last looked (an older server
    without messages: none). Marks them seen in `entry`; the caller saves the store."""
    try:
        found = api.messages(game_id, after=entry.get("seen_message", 0))
    except (ServiceError, NetworkError):
        return []
    if found:
        entry["seen_message"] = found[-1]["id"]
    # Shown as text on a terminal: nothing in it may move the cursor or recolour what follows.
    return [f"{m.get('name') or 'seat ' + str(m.get('seat'))} wrote: {_NOT_PRINTABLE.sub('', m.get('text', ''))}"
            for m in found if m.get("seat") != seat]


def _sentence(text: str) -> str:
    return (text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")) if text else text


def print_news(args, api: Api, store: Store, game_id: str, entry: dict, view: dict) -> None:
    if args.json:
        return
    lines = news(api, store, game_id, entry, view, args.style)
    if lines:
        print("Since you looked:\n  " + "\n  ".join(lines))


def table_score_sheet(view: dict, seat: int | None = None) -> str:
    """A table's sheet: each decided hand (its board, who played, who won) and the sides' totals."""
    names = seat_names(view)
    sides = view.get("sides") or []
    label = ["+".join(names.get(s, str(s)) + (" (you)" if s == seat else "") for s in side) for side in sides]
    lines = [f"{'hand':>4}  {'board':5}  {'players':24}  {'won by':14}  {'points':>6}"]
    for row in (view.get("scores") or {}).get("sheet") or []:
        if row.get("hand") is None:  # a team bonus
            lines.append(f"{'':>4}  round {row.get('round', 0) + 1}: team bonus to {label[row['side']]}: "
                         f"{row.get('team_bonus')}")
            continue
        a, b = row.get("seats") or (None, None)
        winner = row.get("winner")
        lines.append(f"{row['hand']:>4}  {row.get('board', 0):<5}  {(names.get(a, '?') + ' v ' + names.get(b, '?'))[:24]:24}  "
                     f"{(names.get(winner, '-') if winner is not None else '-')[:14]:14}  {row.get('points', 0):>6}")
    totals = score_totals(view)
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
    names = seat_names(view)
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
