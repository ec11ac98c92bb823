"""The mail text of a two-seat game, built only from what a seat may see: the engine's
view(seat) and redacted events (table_mail.py writes a table's; mail_text.py picks), and the mails
about no game (a wrong sender, an unknown reply address).

Nothing here reads the database or the clock; the caller hands in a `Scene` (one seat's view of a
game at one version) and gets plain text back. `rfc5322.py` wraps the text in headers.
"""
from __future__ import annotations

import re

from .mail_pieces import (
    HELP,
    PHASES,
    SUMMARY_EVENTS,
    deadline_line,
    describe_event,
    hand_record_lines,
    legal_commands,
    result_line,
    score_sheet_lines,
    state_lines,
)
from .scene import Scene, duration, name_of


def matchup(names: dict[int, str], seat: int) -> str:
    """Who plays whom, the reader first: "Ann v Bob"."""
    return f"{name_of(names, seat)} v {name_of(names, 1 - seat)}"


def headline(scene: Scene) -> str:
    if scene.over:
        return result_line(scene)
    hand = scene.view.get("hand_number")
    if scene.my_turn:
        return f"Your turn, {scene.me}: hand {hand}, {PHASES.get(scene.view.get('phase'), 'your move')}."
    return f"Waiting for {scene.them} to move: hand {hand}."


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
    out += review_line(scene)
    if not scene.over:
        out += [""] + state_lines(scene)
        line = deadline_line(scene)
        if line:
            out.append(line)
    out += reply_lines(scene)
    return "\n".join(out).rstrip() + "\n"


def review_line(scene: Scene) -> list[str]:
    """At a two-seat match's end, where the computer's review will be (the coach reviews matches of
    the standard cards: docs/coach.md): the replay, from the seat's page."""
    rules = scene.view.get("rules") or {}
    standard = not rules.get("mahjong") and rules.get("runs", "ace_low") == "ace_low" and \
        rules.get("card_values", "standard") == "standard"
    if not scene.over or scene.is_table or not standard or not scene.link:
        return []
    return ["", (f"The computer reviews every decision of the match: see its marks on the replay, from your "
                 f"game's page, in a few minutes: {scene.link}")]


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
