"""Mail text, built only from what a seat may see: the engine's view(seat) and redacted events.

Nothing here reads the database or the clock; the caller hands in a `Scene` (one seat's view of a
game at one version) and gets plain text back. `message.py` wraps the text in headers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .commands import HELP


@dataclass
class Scene:
    """One seat's picture of one game at one version: everything a mail about it may show."""

    game_id: str
    version: int
    seat: int
    names: dict[int, str]
    view: dict  # match.view(seat)
    now: datetime
    events: list[dict] = field(default_factory=list)  # redacted for `seat`, oldest first
    deadline: datetime | None = None  # of the seat to move
    reply_address: str | None = None
    link: str | None = None
    moved: bool = True  # the seat has made a move in this game already

    @property
    def me(self) -> str:
        return name_of(self.names, self.seat)

    @property
    def them(self) -> str:
        return name_of(self.names, 1 - self.seat)

    def who(self, seat) -> str:
        if seat is None:
            return "nobody"
        return "you" if seat == self.seat else name_of(self.names, seat)

    @property
    def is_table(self) -> bool:
        """A game of three or four seats (its view is a table's: table_mail.py writes its text)."""
        return "format" in self.view

    @property
    def my_turn(self) -> bool:
        to_move = self.view.get("to_move")  # at a table: every seat to move, one per board
        return self.seat in to_move if isinstance(to_move, list) else to_move == self.seat

    @property
    def over(self) -> bool:
        return self.view.get("phase") == "match_over" or (self.is_table and self.view.get("result") is not None)


def name_of(names: dict[int, str], seat: int) -> str:
    return names.get(seat) or ("the opponent" if seat == 1 else "the host")


def tag(scene: Scene) -> str:
    return game_tag(scene.game_id)


def game_tag(game_id: str) -> str:
    return f"[Gin {game_id[:8]}]"


def game_subject(game_id: str, names: dict[int, str], seat: int) -> str:
    """The one subject of every mail about one game to one seat: what changes goes in the body,
    so clients that thread by subject keep the game in one conversation."""
    if len(names) > 2:
        from .table_mail import subject as table_subject
        return table_subject(game_id, names, seat)
    return f"{game_tag(game_id)} {name_of(names, seat)} v {name_of(names, 1 - seat)}"


# -- the pieces --------------------------------------------------------------------------------

def cards(items) -> str:
    return " ".join(items) if items else "-"


SHEET_NAME = 14  # the score sheet's columns: 4 + 22 + 6 + 2 x 14 and the gaps make 70
SUMMARY_EVENTS = ("hand_end", "hand_void", "resign", "timeout", "match_end")


def describe_event(event: dict, scene: Scene) -> str | None:
    """One line per event, in the reader's words; None for events not worth a line."""
    kind, who = event.get("type"), scene.who(event.get("seat"))
    if kind == "deal":
        mine = (event.get("cards") or {}).get(str(scene.seat))
        return (f"Hand {event.get('hand')} was dealt by {scene.who(event.get('dealer'))}; the upcard is "
                f"{event.get('upcard')}" + (f"; you were dealt {cards(mine)}" if mine else "") + ".")
    if kind == "take_upcard":
        return f"{who.capitalize()} took the upcard {event.get('card')}."
    if kind == "pass":
        return f"{who.capitalize()} passed."
    if kind == "draw":
        if event.get("from") == "discard" and event.get("count", 1) > 1:
            return f"{who.capitalize()} took {cards(event.get('cards'))} from the discard pile."
        if event.get("from") == "discard":
            return f"{who.capitalize()} took {event.get('card')} from the discard pile."
        drawn = f" ({event['card']})" if event.get("card") else ""
        return f"{who.capitalize()} drew from the stock{drawn}."
    if kind == "discard":
        return f"{who.capitalize()} discarded {event.get('card')}."
    if kind == "knock":
        face_down = f", discarding {event['discard']} face down" if event.get("discard") else ""
        return f"{who.capitalize()} knocked{face_down}."
    if kind == "big_gin":
        return f"{who.capitalize()} declared Big Gin."
    if kind == "meld":
        return f"{who.capitalize()} laid {cards(event.get('cards'))} on the table (meld {event.get('meld', 0) + 1})."
    if kind == "add_on":
        return f"{who.capitalize()} added {event.get('card')} to meld {event.get('meld', 0) + 1}."
    if kind == "hand_end":
        return f"Hand {event.get('hand')} is over: {hand_outcome(event.get('record') or {}, scene)}."
    if kind == "hand_void":
        return f"Hand {event.get('hand')} is void: the stock ran out, nobody scores."
    if kind in ("resign", "timeout"):
        verb = "resigned" if kind == "resign" else "ran out of time (the match was claimed)"
        return f"{who.capitalize()} {verb}."
    if kind == "match_end":
        return "The match is over."
    return None


def hand_outcome(record: dict, scene: Scene) -> str:
    result, winner, points = record.get("result"), record.get("winner"), record.get("points")
    if result == "void":
        return "void"
    knocker = record.get("knocker")
    what = {"gin": "went gin", "big_gin": "declared Big Gin", "undercut": "knocked and was undercut",
            "tie": "knocked; a tie"}.get(result, "knocked")
    text = f"{scene.who(knocker)} {what}"
    if winner is not None:
        text += f"; {scene.who(winner)} scored {points}"
    return text


def arrangement_lines(view: dict) -> list[str]:
    hand = view.get("hand") or []
    arrangement = view.get("arrangement") or {}
    lines = [f"Your hand ({len(hand)} cards, deadwood {arrangement.get('deadwood_points', '?')}):"]
    for meld in arrangement.get("melds") or []:
        lines.append(f"  meld      {cards(meld)}")
    lines.append(f"  deadwood  {cards(arrangement.get('deadwood') or [])}")
    if arrangement.get("best_discard"):
        lines.append(f"  best discard {arrangement['best_discard']} leaves "
                     f"{arrangement.get('deadwood_after_discard')} deadwood")
    return lines


def score_line(scene: Scene) -> str:
    scores = scene.view.get("scores") or {}
    games = scores.get("games") or []
    target = (scene.view.get("rules") or {}).get("target")
    parts = []
    for index, game in enumerate(games, 1):
        totals = (game.get("final") or game).get("totals") or [0, 0]
        label = f"game {index}: " if len(games) > 1 else ""
        closed = " (closed)" if game.get("closed") else ""
        parts.append(f"{label}{scene.me} {totals[scene.seat]}, {scene.them} {totals[1 - scene.seat]}{closed}")
    won = scores.get("hands_won") or [0, 0]
    return (f"Score: {'; '.join(parts) or '-'} (target {target}); "
            f"hands won {won[scene.seat]}-{won[1 - scene.seat]}.")


def table_meld_lines(scene: Scene, table: list[dict] | None = None) -> list[str]:
    """Mahjong gin's melds on the table, numbered as `add 6H to 2` names them, with whose cards."""
    table = scene.view.get("table") if table is None else table
    if not table:
        return []
    lines = ["Melds on the table:"]
    for number, meld in enumerate(table, 1):
        lines.append(f"  {number}. {cards(meld.get('cards'))}  ({meld_owners(meld, scene.who)})")
    return lines


def meld_owners(meld: dict, who) -> str:
    """'Ann' or 'Ann: 8C 8D 8H; Bob: 8S' when the meld holds cards of both."""
    owners = meld.get("owners") or []
    if len(set(owners)) <= 1:
        return who(owners[0]) if owners else "-"
    groups: dict = {}
    for card, owner in zip(meld.get("cards") or [], owners):
        groups.setdefault(owner, []).append(card)
    return "; ".join(f"{who(owner)}: {cards(held)}" for owner, held in groups.items())


def state_lines(scene: Scene) -> list[str]:
    view = scene.view
    lines = arrangement_lines(view) + table_meld_lines(scene)
    if view.get("must_use"):
        lines.append(f"{view['must_use']}, the deepest card you took, must go on the table before you discard.")
    pile = view.get("discard_pile") or []
    lines.append(f"Discard pile top: {pile[-1] if pile else '(empty)'}    "
                 f"Stock: {view.get('stock_count')} cards    Knock limit: {view.get('knock_limit')}")
    known = (view.get("opponent") or {}).get("known_cards") or []
    if known:
        lines.append(f"{scene.them} holds (taken from the pile): {cards(known)}")
    lines.append(score_line(scene))
    return lines


def deadline_line(scene: Scene) -> str | None:
    if scene.deadline is None or scene.over or scene.view.get("to_move") is None:
        return None
    whose = "your" if scene.my_turn else f"{scene.them}'s"
    left = scene.deadline - scene.now
    when = scene.deadline.strftime("%Y-%m-%d %H:%M UTC")
    if left <= timedelta(0):
        return f"Deadline for {whose} move: {when} (passed)."
    return f"Deadline for {whose} move: {when} (in {duration(left)})."


def duration(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} day{'s' * (days != 1)} {hours} h"
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"


def legal_commands(view: dict) -> list[str]:
    """What the seat may reply with now, as email commands (from the view's legal actions)."""
    legal = view.get("legal_actions") or []
    top = (view.get("discard_pile") or [None])[-1]
    lines = []
    kinds = [a.get("type") for a in legal]
    if "take_upcard" in kinds:
        lines.append(f"take            take the upcard {top}")
    if {"type": "draw", "from": "stock"} in legal:
        lines.append("draw stock      draw the top card of the stock")
    if {"type": "draw", "from": "discard"} in legal:
        lines.append(f"take            take {top} from the discard pile")
    pile = view.get("discard_pile") or []
    for count in sorted(a["count"] for a in legal if a.get("type") == "draw" and a.get("count", 1) > 1):
        lines.append(f"take {count:<10} take {cards(pile[-count:])} ({pile[-count]} must go on the table)")
    for action in (a for a in legal if a.get("type") == "meld"):
        lines.append(f"meld {cards(action['cards'])}")
    for action in (a for a in legal if a.get("type") == "add_on"):
        lines.append(f"add {action['card']} to {action['meld'] + 1}")
    if "pass" in kinds:
        lines.append("pass")
    discards = [a["card"] for a in legal if a.get("type") == "discard"]
    if discards:
        lines.append(f"discard CARD    one of {cards(discards)}")
    knocks = [a["discard"] for a in legal if a.get("type") == "knock"]
    if knocks:
        lines.append(f"knock CARD      one of {cards(knocks)}")
        arrangement = view.get("arrangement") or {}
        if arrangement.get("deadwood_after_discard") == 0:
            lines.append(f"gin             (knock {arrangement.get('best_discard')} with no deadwood)")
        elif "table" in view:  # Mahjong gin: every knock allowed is a gin
            lines.append(f"gin             (discard {knocks[0]}; every other card goes on the table)")
    if "big_gin" in kinds:
        lines.append("big gin         all 11 cards in melds")
    return lines


def hand_record_lines(record: dict, scene: Scene, seats=None, heading: str | None = None) -> list[str]:
    """Both hands as they were laid out at the end of a hand (the whole record is public then).
    `seats`: the two seats that played it (a table's board), the reader's own first by default."""
    seats = seats or (scene.seat, 1 - scene.seat)
    lines = [heading or f"Hand {record.get('hand')}: {hand_outcome(record, scene)}."]
    knocker = record.get("knocker")
    hands = record.get("hands") or {}
    if "table_points" in record:  # Mahjong gin: each scores the table's cards less the hand's
        for seat in seats:
            base = record["table_points"][seat] - record["hand_points"][seat]
            bonus = f" + {record['scores'][seat] - base} for gin" if record["scores"][seat] != base else ""
            lines.append(f"  {scene.who(seat)}: table {record['table_points'][seat]} less hand "
                         f"{record['hand_points'][seat]} ({cards(hands.get(str(seat)))}){bonus} = "
                         f"{record['scores'][seat]}")
        return lines + table_meld_lines(scene, record.get("table") or [])
    if knocker is None:
        return lines + [f"  {scene.who(seat)}: {cards(hands.get(str(seat)))}" for seat in seats]
    defender = next((seat for seat in seats if seat != knocker), None)
    for seat, role in ((knocker, "knocker"), (defender, "defender")):
        melds = "  ".join(f"[{cards(m)}]" for m in record.get(f"{role}_melds") or [])
        line = f"  {scene.who(seat)} ({role}): {melds or 'no melds'}  deadwood {cards(record.get(f'{role}_deadwood'))}"
        line += f" = {record.get(f'{role}_points')}"
        if role == "defender" and record.get("defender_layoffs"):
            line += f"  (laid off {cards(record['defender_layoffs'])})"
        lines.append(line)
    if record.get("knock_discard"):
        lines.append(f"  knock discard: {record['knock_discard']}")
    return lines


def score_sheet_lines(scene: Scene) -> list[str]:
    scores = scene.view.get("scores") or {}
    names = [name_of(scene.names, s)[:SHEET_NAME] for s in (0, 1)]
    width = max(8, *(len(n) for n in names))
    lines = [f"{'hand':>4}  {'result':22}  {'points':>6}  {names[0]:>{width}}  {names[1]:>{width}}"]
    running = [0, 0]
    for row in scores.get("sheet") or []:
        winner = row.get("winner")
        if row.get("scores"):  # Mahjong gin: both players score each hand
            running = [running[s] + row["scores"][s] for s in (0, 1)]
        elif winner is not None and 0 in (row.get("games_credited") or [0]):
            running[winner] += row.get("points") or 0
        what = row.get("result") or "?"
        if row.get("knocker") is not None:
            what = f"{names[row['knocker']]}: {what}"
        points = row.get("points") if winner is not None else "-"
        lines.append(f"{row.get('hand'):>4}  {what[:22]:22}  {points:>6}  {running[0]:>{width}}  {running[1]:>{width}}")
    for index, game in enumerate(scores.get("games") or [], 1):
        final = game.get("final")
        if not final:
            continue
        lines.append(f"game {index} closed, won by {names[final['winner']]}:")
        for key, label in (("hand_points", "hand points"), ("shutout_bonus", "shutout"),
                           ("game_bonus", "game bonus"), ("box_bonus", "boxes"), ("totals", "total")):
            values = final.get(key) or [0, 0]
            lines.append(f"      {label:24}  {values[0]:>{width}}  {values[1]:>{width}}")
    return lines


def result_line(scene: Scene) -> str:
    result = scene.view.get("result") or {}
    winner = result.get("winner")
    reason = {"resign": " (by resignation)", "timeout": " (on time)"}.get(result.get("reason"), "")
    if winner is None:
        return f"Match over: a draw{reason}."
    who = "you win" if winner == scene.seat else f"{scene.who(winner)} wins"
    return f"Match over: {who} by {result.get('margin')}{reason}."


# -- whole mails -------------------------------------------------------------------------------

PHASES = {"upcard_offer": "the upcard offer", "draw": "draw", "discard": "discard",
          "last_discard_offer": "the last discard's offer"}


def headline(scene: Scene) -> str:
    if scene.over:
        return result_line(scene)
    hand = scene.view.get("hand_number")
    if scene.my_turn:
        return f"Your turn, {scene.me}: hand {hand}, {PHASES.get(scene.view.get('phase'), 'your move')}."
    return f"Waiting for {scene.them} to move: hand {hand}."


def subject(scene: Scene, kind: str = "") -> str:
    """Every mail of a game to a seat has this subject (game_subject); `kind` changes the body."""
    return game_subject(scene.game_id, scene.names, scene.seat)


def answer_subject(scene: Scene, played: list[str] = (), failed: bool = False) -> str:
    return subject(scene)


def opening_lines(scene: Scene, kind: str) -> list[str]:
    """What this mail is about, first in the body (the subject never changes)."""
    if kind == "reminder":
        left = duration(scene.deadline - scene.now) if scene.deadline else "little time"
        return [f"Reminder, {scene.me}: it is your move and {left} of your time is left.", ""]
    if kind == "expired":
        return [f"{scene.them}'s time is up: {scene.them} did not move in time. Reply `claim` to win "
                "the match on time, or just wait: the game goes on if you don't claim.", ""]
    if kind == "hand_end" and not scene.over:
        return [f"Hand over{': your turn in the next one' if scene.my_turn else ''}.", ""]
    if kind == "start" and not scene.my_turn and not scene.over:
        return [f"The game has begun: {scene.them} moves first.", ""]
    return []


def body(scene: Scene, kind: str = "update", answer: list[str] | None = None) -> str:
    """The plain-text body. `answer`: lines reporting on a reply's commands, shown first."""
    if scene.is_table:
        from . import table_mail
        return table_mail.body(scene, kind, answer)
    out: list[str] = []
    if answer:
        out += answer + [""]
    out += opening_lines(scene, kind)
    out.append(headline(scene))
    # Moves of earlier hands are summed up by their hand_end line (and record) only.
    current = scene.view.get("hand_number")
    happened = [line for line in (describe_event(e, scene) for e in scene.events
                                  if e.get("hand") == current or e.get("type") in SUMMARY_EVENTS) if line]
    if happened:
        label = "What happened:" if kind == "answer" else "Since your last move:" if scene.moved else "So far:"
        out += ["", label] + [f"  {line}" for line in happened]
    # Both hands and the score sheet, in the mails about a hand's end (an answer's events are only
    # what its own commands caused, so a knock by mail is answered with the hand's record too).
    ended = [e.get("record") for e in scene.events if e.get("type") in ("hand_end", "hand_void")
             and kind in ("hand_end", "match_end", "answer")]
    for record in ended:
        out += [""] + hand_record_lines(record or {}, scene)
    if ended or scene.over:
        out += ["", "Score sheet:"] + score_sheet_lines(scene)
    if not scene.over:
        out += [""] + state_lines(scene)
        line = deadline_line(scene)
        if line:
            out.append(line)
    out += reply_lines(scene)
    return "\n".join(out).rstrip() + "\n"


def example(scene: Scene) -> str:
    """A reply that fits this very moment, for the line that introduces the commands."""
    phase, arrangement = scene.view.get("phase"), scene.view.get("arrangement") or {}
    best = arrangement.get("best_discard")
    if phase in ("upcard_offer", "last_discard_offer"):
        return "`take` or `pass`"
    if phase == "draw":  # the example names a card of the reader's own: no card it may not know
        own = (arrangement.get("deadwood") or scene.view.get("hand") or ["CARD"])[-1]
        return f"`draw stock`, then on the next line a discard such as `discard {own}`"
    if phase == "discard" and best:
        return f"`discard {best}`"
    return "one of them"


def reply_lines(scene: Scene) -> list[str]:
    out = []
    if not scene.over and scene.reply_address:
        if scene.my_turn:
            out += ["", f"To play, reply to this mail with commands, one per line (e.g. {example(scene)}):"]
            out += [f"  {line}" for line in legal_commands(scene.view)]
        elif scene.deadline and scene.now > scene.deadline:
            out += ["", f"{scene.them}'s deadline has passed. You may reply with:",
                    "  claim           win the match on time"]
        else:
            out += ["", f"Nothing to play until {scene.them} moves; you will get a mail then. "
                        "You may reply with:"]
        out.append("  resign          give up the match")
        out.append("  stop            never get mail from this service again (at this address)")
        out.append(f"Replies go to {scene.reply_address}; it plays until the next move is made "
                   "(then reply to the newer mail), and only from your own address.")
    if scene.link:
        # The link is never broken: the one kind of line that may pass 78 characters.
        out += ["", f"Play in your browser: {scene.link}",
                "(the link opens your seat once; every mail brings a fresh one)"]
    return out


def refusal(text: str, scene: Scene) -> str:
    """An engine refusal in the reader's words: names for seats, the phase said as a phase."""
    if scene.is_table:
        from . import table_mail
        return table_mail.refusal(text, scene)
    text = re.sub(r"\bseat ([01])'s turn", lambda m: "your turn" if int(m.group(1)) == scene.seat
                  else f"{scene.who(int(m.group(1)))}'s turn", text)
    text = re.sub(r"\bseat ([01])\b", lambda m: scene.who(int(m.group(1))), text)
    # "(in the discard)" is the phase; "in the discard pile" stays as it is.
    return _PHASE_SUFFIX.sub(lambda m: PHASE_WORDS[m.group(1)], text)


PHASE_WORDS = {"the discard": "while discarding", "the draw": "while drawing",
               "the upcard offer": "during the upcard offer",
               "the last-discard offer": "during the last discard's offer"}
_PHASE_SUFFIX = re.compile(r"\bin (the discard|the draw|the upcard offer|the last-discard offer)(?=$|[):;,.])")


def error_answer(problem: str, applied: list[str]) -> list[str]:
    lines = []
    if applied:
        lines.append("Played: " + "; ".join(applied) + ".")
    lines.append(f"Not played: {problem}")
    lines.append("Nothing else changed." if applied else "Nothing changed.")
    return lines


def wrong_sender_body(sender: str, names: dict[int, str], seat: int) -> str:
    """The notice to a seat's own address: no hand, no reply address (it carries nothing that
    would play), only who tried; `sender` was made safe to show (senders.shown)."""
    others = " and ".join(name_of(names, s) for s in sorted(names) if s != seat) if len(names) > 2 else None
    against = f"with {others}" if others else f"against {name_of(names, 1 - seat)}"
    return (f"A reply from {sender} tried to play for you, {name_of(names, seat)}, in your game "
            f"{against}; nothing changed.\n\n"
            "Only replies from this address play for your seat. If you wrote from another address, "
            "reply to your newest game mail from this one. If you did not, someone may have seen "
            "one of your game mails: nothing was played, and each mail's reply address stops "
            "working once a move is made.\n")


# Fixed words only: the answer must carry nothing of the mail it answers (no subject, no address it
# was sent to), so nobody can use it to make us mail text of their choosing.
UNKNOWN_ADDRESS_SUBJECT = "[Gin] Your mail was not played: unknown reply address"


def unknown_address_body() -> str:
    return ("Your mail to a Gin Rummy reply address was not played: that reply address is not valid "
            "(mistyped, or for a game that no longer exists). Nothing changed.\n\n"
            "Reply to the most recent mail about your game instead; each mail carries its own "
            f"reply address.\n\n{HELP}\n")


def digest_body(scenes: list[Scene], unsubscribe: str | None) -> str:
    out = [f"Your Gin Rummy games today ({len(scenes)}):"]
    for scene in scenes:
        out += ["", "=" * 60, subject(scene), body(scene).rstrip()]
    if unsubscribe:
        out += ["", "-- ", f"To stop this digest, send a mail to {unsubscribe}."]
    return "\n".join(out) + "\n"
