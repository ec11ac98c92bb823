"""Mail text for a seat at a table of 3, 4, 6 or 8 (issue 14), from that seat's table view alone.

The view (games/table_schemas.py) holds the seat's own board as an ordinary two-player view
(`my_board.view`: its own hand only), every board's public state and the scores per side; this
module puts them in words. The seat's own board reads as a two-seat mail does (hand, melds, pile,
commands); the other boards of a partnership, or the board in play while the seat sits out, shows
only what is public of it (who plays, who is to move, the top of its discard pile). A partner's
hand in play never appears: no view carries it.

Laid out so a reader (and the hidden-information test) can tell what each line is about:
- lines that begin `  Board N (` or `  This hand (` are about that board's public state;
- blocks that begin `Hand N (` at the start of a line are the records of hands that are over;
- everything else is about the seat's own board (its hand, the moves on it) or has no card.
"""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta

from ..table_dispatch import local_to_table
from . import compose, mail_pieces
from .scene import Scene, cards, duration, name_of
from .table_seats import (
    board_view,
    name,
    opponent,
    own_board,
    own_deal,
    pair,
    partners,
    playing,
    rotation,
    side_name,
    sitting_out,
    team_size,
)

PHASES = mail_pieces.PHASES
VOID_WHY = {"stock": "the stock ran out", "misdeal": "a misdeal: it was dealt again",
            "no_stock_draw": "too many turns without a draw from the stock"}



# -- the table in plain words -------------------------------------------------------------------

def format_line(scene: Scene) -> str:
    if rotation(scene):
        return ("The table: three players, one sitting out each hand; the winner of a hand plays "
                "the one who sat out.")
    size = team_size(scene)
    mine, theirs = side_name(scene, scene.view.get('side', 0), you=True), side_name(scene, 1 - scene.view.get('side', 0))
    if size == 2:
        return (f"The table: two partnerships, {mine} against {theirs}, on two boards at once; partners' "
                "points count together.")
    bonus = (scene.view.get("rules") or {}).get("team_bonus", 25) * (size - 2)
    return (f"The table: two teams of {size}, {mine} against {theirs}, on {size} boards at once; each "
            f"round everyone plays another of the other team. Round {scene.view.get('round', 0) + 1}. "
            f"Team points count together, and a team all of whose players win a round scores {bonus} more.")


def board_lines(scene: Scene) -> list[str]:
    """Each board in play: who plays whom and who is to move; the public pile of a board the
    reader does not play on."""
    mine = own_board(scene)
    lines = []
    for board in scene.view.get("boards") or []:
        if board is None:
            continue
        label = "This hand" if rotation(scene) else f"Board {board['board'] + 1}"
        text = f"  {label} ({pair(scene, board['seats'])}, hand {board.get('deal')}):"
        mover = board.get("to_move")
        text += f" {scene.who(mover)} to move" if mover is not None else " nobody to move"
        if mine is None or mine["board"] != board["board"]:
            pile = board.get("discard_pile") or []
            text += f"; discard pile top {pile[-1] if pile else '(empty)'}, stock {board.get('stock_count')} cards"
        out = sitting_out(scene)
        if out is not None:
            text += f"; {scene.who(out)} sit{'' if out == scene.seat else 's'} out"
        lines.append(text + ".")
    return lines


def side_totals(scene: Scene) -> list[str]:
    """Per game (one, or three with Hollywood scoring): each side's points."""
    games = (scene.view.get("scores") or {}).get("games") or []
    sides = range(len(scene.view.get("sides") or []))
    parts = []
    for index, game in enumerate(games, 1):
        totals = (game.get("final") or game).get("totals") or [0] * len(sides)
        label = f"game {index}: " if len(games) > 1 else ""
        closed = " (closed)" if game.get("closed") else ""
        parts.append(label + ", ".join(f"{side_name(scene, s)} {totals[s]}" for s in sides) + closed)
    return parts


def score_lines(scene: Scene) -> list[str]:
    scores = scene.view.get("scores") or {}
    target = (scene.view.get("rules") or {}).get("target")
    won = scores.get("hands_won") or []
    label = "Standings" if rotation(scene) else "Score"
    wins = ", ".join(f"{side_name(scene, s)} {n}" for s, n in enumerate(won))
    return [f"  {label} (first to {target}): {'; '.join(side_totals(scene)) or '-'}.", f"  Hands won: {wins}."]


def table_lines(scene: Scene) -> list[str]:
    return [format_line(scene)] + board_lines(scene) + score_lines(scene)


# -- the seat's own board (as a two-seat mail shows it) -----------------------------------------

def own_board_lines(scene: Scene) -> list[str]:
    view = board_view(scene)
    lines = mail_pieces.arrangement_lines(view)
    pile = view.get("discard_pile") or []
    lines.append(f"Discard pile top: {pile[-1] if pile else '(empty)'}    "
                 f"Stock: {view.get('stock_count')} cards    Knock limit: {view.get('knock_limit')}")
    known = (view.get("opponent") or {}).get("known_cards") or []
    if known:
        lines.append(f"{name(scene, opponent(scene))} holds (taken from the pile): {cards(known)}")
    return lines


# -- events and records ------------------------------------------------------------------------------

def event_line(event: dict, scene: Scene) -> str | None:
    """A line for an event of the reader's own board's current hand, or for what the whole
    table hears (a hand's end, the next pairing, a round's end, the match's end); moves on other
    boards and in earlier hands are not told move by move."""
    kind = event.get("type")
    if kind == "table_hand_end":
        record = event.get("record") or {}
        return f"Hand {record.get('hand')} ({pair(scene, record.get('seats'))}) is over: " \
               f"{mail_pieces.hand_outcome(record, scene)}."
    if kind == "hand_void":
        why = VOID_WHY.get((event.get("record") or {}).get("void_reason"), "the stock ran out")
        return f"Hand {event.get('hand')} ({pair(scene, event.get('seats'))}) is void ({why}): nobody scores."
    if kind == "next_pairing":
        out = event.get("sitting_out")
        return f"Next hand: {pair(scene, event.get('seats'))}; {scene.who(out)} " \
               f"sit{'' if out == scene.seat else 's'} out."
    if kind == "round_end":
        bonus = event.get("team_bonus")
        extra = f"; {side_name(scene, bonus['side'])} score a team bonus of {bonus['points']}" if bonus else ""
        return f"Round {event.get('round', 0) + 1} is over{extra}."
    if kind in ("resign", "timeout", "match_end"):
        return mail_pieces.describe_event(event, scene)
    board = own_board(scene)
    if board is None or event.get("board") != board["board"] or event.get("hand") != own_deal(scene):
        return None
    if kind == "hand_end":
        return None  # told by the table's own table_hand_end, in table seats
    return mail_pieces.describe_event(local_to_table(event), scene)


def record_blocks(scene: Scene) -> list[list[str]]:
    """Both hands of each hand that ended (public once over), in table seats."""
    blocks = []
    for event in scene.events:
        if event.get("type") == "table_hand_end":
            blocks.append(record_lines(event.get("record") or {}, scene))
        elif event.get("type") == "hand_void":  # its record names the board's local seats 0 and 1
            record = event.get("record") or {}
            hands = {str(event["seats"][int(k)]): v for k, v in (record.get("hands") or {}).items()}
            blocks.append([f"Hand {event.get('hand')} ({pair(scene, event.get('seats'))}): void."]
                          + [f"  {scene.who(int(s))}: {cards(h)}" for s, h in sorted(hands.items())])
    return blocks


def record_lines(record: dict, scene: Scene) -> list[str]:
    seats = record.get("seats") or []
    return mail_pieces.hand_record_lines(
        record, scene, seats, heading=f"Hand {record.get('hand')} ({pair(scene, seats)}): "
                                      f"{mail_pieces.hand_outcome(record, scene)}.")


def score_sheet_lines(scene: Scene) -> list[str]:
    scores = scene.view.get("scores") or {}
    sides = scene.view.get("sides") or []
    width = 8 if len(sides) > 2 else 12
    heads = ["+".join(name(scene, s) for s in side)[:width] for side in sides]
    lines = [f"{'#':>4}  {'played':17}  {'winner':8}  {'points':>6}" + "".join(f"  {h:>{width}}" for h in heads)]
    running = [0] * len(sides)
    for row in scores.get("sheet") or []:
        side, points = row.get("side"), row.get("points") or row.get("team_bonus") or 0
        if side is not None and 0 in (row.get("games_credited") or [0]):
            running[side] += points
        if row.get("hand") is None:
            what, played, winner = "bonus", "team bonus", side_name(scene, side)[:8] if side is not None else "-"
        else:
            a, b = row.get("seats") or (None, None)
            played = f"{name(scene, a)[:7]} v {name(scene, b)[:7]}" if a is not None else "?"
            winner = name(scene, row["winner"])[:8] if row.get("winner") is not None else "-"
            what = row.get("hand")
        shown = points if side is not None else "-"
        lines.append(f"{what:>4}  {played:17}  {winner:8}  {shown:>6}" + "".join(f"  {r:>{width}}" for r in running))
    if not scores.get("sheet") and not rotation(scene):
        lines.append("  (a round's hands count once every board of the round is over)")
    for index, game in enumerate(scores.get("games") or [], 1):
        final = game.get("final")
        if not final:
            continue
        lines.append(f"game {index} closed, won by {side_name(scene, final['winner'])}:")
        for key, label in (("hand_points", "hand points"), ("shutout_bonus", "shutout"),
                           ("game_bonus", "game bonus"), ("box_bonus", "boxes"), ("totals", "total")):
            values = final.get(key) or [0] * len(sides)
            lines.append(f"  {label:39}" + "".join(f"  {v:>{width}}" for v in values))
    return lines


def result_lines(scene: Scene) -> list[str]:
    result = scene.view.get("result") or {}
    winner = result.get("winner")
    reason = {"resign": " (by resignation)", "timeout": " (on time)"}.get(result.get("reason"), "")
    if winner is None:
        head = f"Match over: nobody wins{reason}."
    else:
        who = side_name(scene, winner, you=True)
        head = f"Match over: {who} win{'' if who.startswith('you') or ' and ' in who else 's'}{reason}."
    reached = result.get("target_reached_by")
    ahead = (result.get("net") or {}).get("leader")
    if result.get("exactly_50_rule") and ahead is not None:
        head += f" {side_name(scene, ahead)} finished exactly 50 ahead, which loses under these rules."
    elif reached is not None and reached != winner:
        head += f" ({side_name(scene, reached)} reached the target.)"
    totals = result.get("totals") or []
    lines = [head, "Final totals: " + ", ".join(f"{side_name(scene, s)} {t}" for s, t in enumerate(totals)) + "."]
    owed = [f"{side_name(scene, p['payer'])} pay{'' if len((scene.view.get('sides') or [[]])[p['payer']]) > 1 else 's'} "
            f"{side_name(scene, p['payee'])} {p['points']}" for p in result.get("settlement") or [] if p.get("points")]
    if owed:
        lines.append("Settlement: " + "; ".join(owed) + ".")
    return lines


# -- whole mails -----------------------------------------------------------------------------------

def headline(scene: Scene) -> list[str]:
    if scene.over:
        return result_lines(scene)
    view, opp = board_view(scene), opponent(scene)
    if scene.my_turn:
        return [f"Your turn, {scene.me}: you play {name(scene, opp)} (hand {own_deal(scene)}), "
                f"{PHASES.get(view.get('phase'), 'your move')}."]
    if playing(scene):
        return [f"Waiting for {name(scene, opp)} to move: you play {name(scene, opp)} (hand {own_deal(scene)})."]
    if sitting_out(scene) == scene.seat:
        board = next((b for b in scene.view.get("boards") or [] if b is not None), None)
        playing_now = f": {pair(scene, board['seats'])} play it" if board else ""
        return [f"You sit out this hand, {scene.me}{playing_now}. The winner plays you next."]
    others = "the other board" if team_size(scene) == 2 else "the other boards"
    return [f"Your hand of this round is over, {scene.me}: waiting for {others}."]


def opening_lines(scene: Scene, kind: str) -> list[str]:
    if kind == "reminder":
        left = duration(scene.deadline - scene.now) if scene.deadline else "little time"
        return [f"Reminder, {scene.me}: it is your move and {left} of your time is left.", ""]
    if kind == "expired":
        late = name(scene, scene.view.get("on_clock")) if scene.view.get("on_clock") is not None else "The player"
        return [f"{late}'s time is up: {late} did not move in time. Reply `claim` to win the match on time, "
                "or just wait: the game goes on if nobody claims.", ""]
    if scene.over:
        return []
    if kind == "hand_end":
        after = ": your turn in the next one" if scene.my_turn else \
            ": you sit out the next one" if sitting_out(scene) == scene.seat else ""
        return [f"Hand over{after}.", ""]
    if kind == "start" and not scene.my_turn:
        return ["The game has begun.", ""]
    if kind == "dealt" and not scene.my_turn:
        return ["A new hand is dealt.", ""]
    return []


def deadline_lines(scene: Scene) -> list[str]:
    clock = scene.view.get("on_clock")
    if scene.deadline is None or scene.over or clock is None:
        return []
    whose = "your" if clock == scene.seat else f"{name(scene, clock)}'s"
    when = scene.deadline.strftime("%Y-%m-%d %H:%M UTC")
    left = scene.deadline - scene.now
    line = f"Deadline for {whose} move: {when} " + \
        ("(passed)." if left <= timedelta(0) else f"(in {duration(left)}).")
    return [line]


def may_claim(scene: Scene) -> bool:
    clock = scene.view.get("on_clock")
    return (clock is not None and clock != scene.seat and clock not in partners(scene)
            and scene.deadline is not None and scene.now > scene.deadline)


def reply_lines(scene: Scene) -> list[str]:
    out = []
    if not scene.over and scene.reply_address:
        if scene.my_turn:
            example = compose.example(replace(scene, view=board_view(scene)))
            out += ["", f"To play, reply to this mail with commands, one per line (e.g. {example}):"]
            out += [f"  {line}" for line in mail_pieces.legal_commands(board_view(scene))]
            if may_claim(scene):  # another board's mover let its own deadline pass
                out.append(f"  claim           win the match on time ({name(scene, scene.view['on_clock'])} is late)")
        elif may_claim(scene):
            out += ["", f"{name(scene, scene.view['on_clock'])}'s deadline has passed. You may reply with:",
                    "  claim           win the match on time"]
        elif playing(scene):
            out += ["", f"Nothing to play until {name(scene, opponent(scene))} moves; you will get a mail then. "
                        "You may reply with:"]
        else:
            out += ["", "Nothing to play until your next hand; you will get a mail when it starts. "
                        "You may reply with:"]
        whole = "" if rotation(scene) else f" (for {side_name(scene, scene.view.get('side', 0), you=True)})"
        out.append(f"  resign          give up the match{whole}")
        out.append("  stop            never get mail from this service again (at this address)")
        out.append(f"Replies go to {scene.reply_address}; it plays until the next move on your board "
                   "(then reply to the newer mail), and only from your own address.")
    if scene.link:
        out += ["", f"Play in your browser: {scene.link}",
                "(the link opens your seat once; every mail brings a fresh one)"]
    return out


def body(scene: Scene, kind: str = "update", answer: list[str] | None = None) -> str:
    out: list[str] = []
    if answer:
        out += answer + [""]
    out += opening_lines(scene, kind)
    out += headline(scene)
    happened = [line for line in (event_line(e, scene) for e in scene.events) if line]
    if happened:
        label = "What happened:" if kind == "answer" else "Since your last move:" if scene.moved else "So far:"
        out += ["", label] + [f"  {line}" for line in happened]
    blocks = record_blocks(scene) if kind in ("hand_end", "match_end", "answer") else []
    for block in blocks:
        out += [""] + block
    if blocks or scene.over:
        out += ["", "Score sheet:"] + score_sheet_lines(scene)
    if not scene.over:
        out += [""] + table_lines(scene)
        if playing(scene):
            out += [""] + own_board_lines(scene)
        out += deadline_lines(scene)
    out += reply_lines(scene)
    return "\n".join(out).rstrip() + "\n"


def refusal(text: str, scene: Scene) -> str:
    """An engine refusal in the reader's words. A board's refusals name its local seats 0 and 1
    (`my_board.seats` maps them); the table's own name the table seat."""
    text = text.replace(f"seat {scene.seat} plays on no board now", "you play on no board now")
    seats = (own_board(scene) or {}).get("seats")
    if seats:
        text = re.sub(r"\bseat ([01])'s turn", lambda m: "your turn" if seats[int(m.group(1))] == scene.seat
                      else f"{name(scene, seats[int(m.group(1))])}'s turn", text)
    return compose._PHASE_SUFFIX.sub(lambda m: compose.PHASE_WORDS[m.group(1)], text)


def matchup(names: dict[int, str], seat: int) -> str:
    """Who plays whom, the reader first. Three seats: "Ann v Bob v Carl"; four, six or eight, by
    team (seats 0, 2.. against 1, 3..): "Ann & Carl v Bob & Dan"."""
    seats = sorted(names)
    if len(seats) > 3:
        mine = [s for s in seats if s % 2 == seat % 2]
        mine.sort(key=lambda s: s != seat)
        theirs = [s for s in seats if s % 2 != seat % 2]
        return f"{' & '.join(name_of(names, s) for s in mine)} v {' & '.join(name_of(names, s) for s in theirs)}"
    order = [seat] + [s for s in seats if s != seat]
    return " v ".join(name_of(names, s) for s in order)
