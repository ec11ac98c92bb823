"""Moves by email: the reply's text cut down to what the player wrote, read as commands.

A reply holds one command per line (or several separated by commas or semicolons), e.g.

    draw stock
    discard 7H

Quoted text ('>' lines, "On ... wrote:" or Outlook's "From: ... Sent: ..." and everything after
it, also when the client wrapped that header over two or three lines), signatures ('-- ' and the
usual "Sent from my ..." lines) are dropped first. Every remaining line must be a command: one line
we cannot read rejects the whole reply, so a half-understood mail never plays half its moves.
A line `say <text>` is a message to the other seats, taken whole (commas and all).

Commands are abstract here (`take` means the upcard in the upcard offer and the discard pile's top
card later); `resolve` turns one into the engine's JSON action against the seat's current view.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from email.message import EmailMessage

from ...rules import Card
from ..mail.mail_pieces import HELP

MAX_COMMANDS = 10  # a turn needs at most 2; anything longer is not a move

_QUOTE_HEADER = re.compile(
    r"^(on\b.+\bwrote:?|le\b.+\ba écrit\s?:|am\b.+\bschrieb\b.*:|-+\s*original message\s*-+"
    r"|-+\s*forwarded message\s*-+|_{5,}|from:\s.+@.+|from:\s.+\b(sent|date):\s.+)$", re.IGNORECASE)
# Clients wrap a long attribution ("On <date>, <name> <address>" / "wrote:"; Outlook's "From: <name>"
# / "Sent: <date>") over lines of their own: a header may span this many lines.
HEADER_LINES = 3
_SIGNATURE = re.compile(r"^(-- ?|sent from my .*|get outlook for .*|sent from (yahoo|mail) .*)$",
                        re.IGNORECASE)
_SAY = re.compile(r"^\s*say\b[:,]?(.*)$", re.IGNORECASE)  # `say <text>`: a message to the other seats
_SUBJECT_NOISE = re.compile(r"^\s*((re|fwd?|aw|sv|tr)\s*:\s*|\[[^\]]*\]\s*)+", re.IGNORECASE)


class CommandError(ValueError):
    """A reply we cannot read; the message says which words and what would be understood."""


@dataclass(frozen=True)
class Command:
    verb: str  # draw_stock, take, pass, discard, knock, gin, big_gin, resign, claim, meld, add_on,
    # deal_first, let_deal
    card: Card | None = None
    text: str = ""  # as the player wrote it, for the answer
    count: int = 1  # take: how many from the top of the discard pile (Mahjong gin)
    cards: tuple[Card, ...] = ()  # meld: the cards laid on the table
    meld: int | None = None  # add_on: the table meld's number as shown (1-based)
    said: str = ""  # say: the message to the other seats, as written

    def __str__(self) -> str:
        return self.text or self.verb


MELD_EXAMPLE = "like meld 3H 4H 5H"
ADD_EXAMPLE = "a card and a meld number, like add 6H to 2"


def strip_reply(body: str) -> str:
    """The player's own words: no quoted text, no signature, no trailing blank lines."""
    kept = []
    lines = body.replace("\r\n", "\n").split("\n")
    for index, raw in enumerate(lines):
        line = raw.rstrip()
        if line.lstrip().startswith(">"):
            continue
        stripped = line.strip()
        if _SIGNATURE.match(line) or _SIGNATURE.match(stripped):
            break
        if quote_header_at(lines, index):
            break
        kept.append(stripped)
    return "\n".join(kept).strip()


def quote_header_at(lines: list[str], index: int) -> bool:
    """Whether a quote header starts at lines[index], on that line alone or wrapped over the next
    ones (joined with spaces; a blank or '>' line ends the header)."""
    joined = ""
    for line in lines[index:index + HEADER_LINES]:
        line = line.strip()
        if not line or line.startswith(">"):
            return False
        joined = f"{joined} {line}".lstrip()
        if _QUOTE_HEADER.match(joined):
            return True
    return False


def subject_text(subject: str) -> str:
    """The subject without Re:/Fwd: prefixes and bracketed tags."""
    return _SUBJECT_NOISE.sub("", subject or "").strip()


def parse_commands(text: str) -> list[Command]:
    """Every command in `text`, in order; CommandError naming the first piece we cannot read."""
    commands = []
    for line in text.split("\n"):
        if _SAY.match(line):  # a message, taken whole: its commas are the writer's
            said = _SAY.match(line).group(1).strip()
            commands.append(Command("say", text=" ".join(f"say {said}".split())[:60], said=said))
            continue
        for piece in re.split(r"[,;]", line):
            piece = piece.strip().rstrip(".!")
            if piece:
                commands.append(parse_command(piece))
    if len(commands) > MAX_COMMANDS:
        raise CommandError(f"{len(commands)} commands is too many for one reply (at most {MAX_COMMANDS})")
    return commands


def parse_command(text: str) -> Command:
    # Kept as words joined by single spaces: the text is echoed in the answer's Subject, so no
    # odd whitespace (vertical tab, file separators) a reply may hold gets that far.
    text = " ".join(text.split())
    words = text.lower().split()
    if not words:
        raise CommandError("an empty command")

    def card_at(index: int) -> Card:
        try:
            return Card.parse(words[index])
        except (ValueError, IndexError):
            raise CommandError(f"{text!r}: {words[0]} needs a card like 7H, TD or 10D") from None

    verb, rest = words[0], words[1:]
    if verb == "draw" and rest in ([], ["stock"], ["from", "stock"], ["from", "the", "stock"]):
        return Command("draw_stock", text=text)
    if verb == "stock" and not rest:
        return Command("draw_stock", text=text)
    if (verb == "draw" and rest in (["discard"], ["pile"], ["from", "discard"], ["from", "pile"],
                                    ["from", "the", "discard", "pile"], ["discard", "pile"])) \
            or (verb == "take" and len(rest) <= 1 and rest in ([], ["upcard"], ["discard"], ["it"])):
        return Command("take", text=text)
    if verb == "take" and rest and rest[0].isdigit():  # "take 3": the top three of the pile
        count = int(rest[0])
        if rest[1:] not in ([], ["cards"], ["from", "the", "pile"], ["from", "pile"]) or not 1 <= count <= 52:
            raise CommandError(f"{text!r}: take a number of cards from the top of the pile, like take 3")
        return Command("take", text=text, count=count)
    if verb == "take" and len(rest) == 1:  # "take 7H": the named card must be the top of the pile
        return Command("take", card_at(1), text=text)
    if verb in ("meld", "lay"):
        return Command("meld", text=text, cards=_cards_of(text, rest, f"{verb} needs three or more cards, "
                                                                       f"{MELD_EXAMPLE}", least=3))
    if verb == "add":
        return _add_on(text, rest)
    if verb == "pass" and not rest:
        return Command("pass", text=text)
    if (verb, rest) in (("deal", []), ("deal", ["first"]), ("i", ["deal"])):  # 002's cut won: I deal first
        return Command("deal_first", text=text)
    if (verb, rest) in (("you", ["deal"]), ("no", ["deal"])):  # 002's cut won: the other seat deals
        return Command("let_deal", text=text)
    if verb in ("discard", "knock") and len(rest) <= 1:
        return Command(verb, card_at(1), text=text)
    if verb == "gin" and len(rest) <= 1:
        return Command("gin", card_at(1) if rest else None, text=text)
    if (verb, rest) in (("big", ["gin"]), ("biggin", [])):
        return Command("big_gin", text=text)
    if verb == "resign" and not rest:
        return Command("resign", text=text)
    if verb == "claim" and rest in ([], ["timeout"], ["the", "match"], ["match"]):
        return Command("claim", text=text)
    raise CommandError(f"could not read {text!r}; {HELP}")


def _cards_of(text: str, words: list[str], needs: str, least: int) -> tuple[Card, ...]:
    try:
        cards = tuple(Card.parse(word) for word in words)
    except ValueError:
        raise CommandError(f"{text!r}: {needs}") from None
    if len(cards) < least or len(set(cards)) != len(cards):
        raise CommandError(f"{text!r}: {needs}")
    return cards


def _add_on(text: str, rest: list[str]) -> Command:
    """add 6H to 2 / add 6H to meld 2 / add 6H 2: a card onto the table's meld number 2."""
    words = [w for w in rest if w not in ("to", "meld", "onto", "on")]
    number = words[1].lstrip("#") if len(words) == 2 else ""
    if not number.isdigit() or int(number) < 1:
        raise CommandError(f"{text!r}: add needs {ADD_EXAMPLE}")
    [card] = _cards_of(text, words[:1], f"add needs {ADD_EXAMPLE}", least=1)
    return Command("add_on", card, text=text, meld=int(number))


def resolve(command: Command, view: dict) -> dict:
    """The engine action for `command` given the seat's current view; CommandError when the
    command does not fit the moment (the engine itself judges everything else)."""
    phase = view.get("phase")
    legal = view.get("legal_actions") or []
    top = (view.get("discard_pile") or [None])[-1]
    verb, card = command.verb, command.card
    if verb == "draw_stock":
        return {"type": "draw", "from": "stock"}
    if verb == "take" and command.count > 1:
        return _take_several(command, view)
    if verb == "meld":
        return {"type": "meld", "cards": [str(c) for c in command.cards]}
    if verb == "add_on":
        melds = len(view.get("table") or [])
        if command.meld > melds:
            shown = f"melds 1 to {melds}" if melds > 1 else "meld 1" if melds else "no meld"
            raise CommandError(f"{command}: there is no meld {command.meld} on the table (it holds {shown})")
        return {"type": "add_on", "card": str(card), "meld": command.meld - 1}
    if verb == "take":
        if card is not None and str(card) != top:
            raise CommandError(f"{command}: the top of the discard pile is {top}, not {card}")
        return {"type": "take_upcard"} if phase == "upcard_offer" else {"type": "draw", "from": "discard"}
    if verb == "pass":
        return {"type": "pass"}
    if verb in ("deal_first", "let_deal"):
        return {"type": "choose_dealer", "deal": verb == "deal_first"}
    if verb == "discard":
        return {"type": "discard", "card": str(card)}
    if verb == "knock":
        return {"type": "knock", "discard": str(card)}
    if verb == "big_gin":
        return {"type": "big_gin"}
    if verb == "resign":
        return {"type": "resign"}
    if verb == "claim":
        return {"type": "claim_timeout"}
    # gin: Big Gin when it is legal (it scores more), else the knock that leaves no deadwood.
    if card is not None:
        return {"type": "knock", "discard": str(card)}
    if {"type": "big_gin"} in legal:
        return {"type": "big_gin"}
    arrangement = view.get("arrangement") or {}
    if arrangement.get("deadwood_after_discard") == 0 and arrangement.get("best_discard"):
        return {"type": "knock", "discard": arrangement["best_discard"]}
    knocks = [a for a in legal if a.get("type") == "knock"]
    if knocks and "table" in view:  # Mahjong gin is straight gin: every knock it allows is a gin
        return knocks[0]
    raise CommandError(f"{command}: no discard leaves you without deadwood "
                       f"(the best leaves {arrangement.get('deadwood_after_discard', '?')})")


def _take_several(command: Command, view: dict) -> dict:
    """take N: the top N of the discard pile, in one move (Mahjong gin only)."""
    pile = view.get("discard_pile") or []
    if "table" not in view:
        raise CommandError(f"{command}: only Mahjong gin takes several discards; write take for the top card")
    if command.count > len(pile):
        raise CommandError(f"{command}: the discard pile holds {len(pile)} card{'s' * (len(pile) != 1)}")
    return {"type": "draw", "from": "discard", "count": command.count}


@dataclass
class Outcome:
    status: str  # played | failed | stale | unknown-address | unsubscribed | duplicate | ignored
    detail: str
    game_id: str | None = None


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        text = part.get_content()
    except (LookupError, ValueError):  # an unknown charset or a broken encoding
        return ""
    if part.get_content_subtype() == "html":
        text = re.sub(r"(?is)<(blockquote|style|script).*?</\1>", "", text)
        text = html.unescape(re.sub(r"(?s)<br\s*/?>|</p>|</div>", "\n", text))
        text = re.sub(r"(?s)<[^>]+>", "", text)
    return text
