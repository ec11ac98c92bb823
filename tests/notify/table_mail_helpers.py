"""Helpers for mail at tables of 3, 4, 6 and 8 seats: start one with every seat's address, turn a
move into the reply a player would write, and scan a mail for cards its seat may not see."""
from __future__ import annotations

import re

from service.notify.mail.layout import WIDTH

from .conftest import confirm_addresses, text

NAMES = {0: "Ann", 1: "Bob", 2: "Carl", 3: "Dan", 4: "Eve", 5: "Fay", 6: "Gus", 7: "Hal"}
EMAILS = {seat: f"{name.lower()}@example.org" for seat, name in NAMES.items()}
# A card as a word of its own: not two letters inside a reply address, a link's key or a %5D.
CARD_WORD = re.compile(r"(?<![A-Za-z0-9_+=%-])[A2-9TJQK][CDHS](?![A-Za-z0-9_-])")
RECORD_HEAD = re.compile(r"^Hand (\d+) \(")
BOARD_LINE = re.compile(r"^  (?:Board (\d+)|This hand) \(")
HTML_CARD = re.compile(r">(10|[2-9AJQK])([\u2663\u2660\u2665\u2666])</span>")
SUIT_LETTERS = {"\u2663": "C", "\u2660": "S", "\u2665": "H", "\u2666": "D"}


def start_mailed_table(client, seats: int, rules: dict | None = None, move_time_hours: int = 72) -> dict:
    """A table with every seat taken and every seat's confirmed address given at create or join:
    {"id", "tokens", "seats"}."""
    confirm_addresses(client.application, *(EMAILS[s] for s in range(seats)))
    created = client.post("/games", json={"name": NAMES[0], "seats": seats, "email": EMAILS[0],
                                          "rules": rules or {"target": 25}, "move_time_hours": move_time_hours})
    assert created.status_code == 201, created.get_json()
    created = created.get_json()
    tokens = {0: created["token"]}
    for invite in created["invites"]:
        seat = invite["seat"]
        joined = client.post(f"/games/{created['game_id']}/join", json={
            "invite_code": invite["invite_code"], "name": NAMES[seat], "email": EMAILS[seat]})
        assert joined.status_code == 201, joined.get_json()
        tokens[seat] = joined.get_json()["token"]
    return {"id": created["game_id"], "tokens": tokens, "seats": seats}


def command_for(action: dict) -> str:
    """The email command a player writes for an engine action."""
    kind = action["type"]
    if kind == "take_upcard" or action == {"type": "draw", "from": "discard"}:
        return "take"
    if kind == "draw":
        return "draw stock"
    if kind == "discard":
        return f"discard {action['card']}"
    if kind == "knock":
        return f"knock {action['discard']}"
    if kind == "big_gin":
        return "big gin"
    return kind  # pass, resign


def expected_subject(game_id: str) -> str:
    """Every mail of a game, to every seat (issue 38: no names, which arrive as the seats fill)."""
    return f"[Gin {game_id[:8]}] A game of Gin Rummy by mail"


def expected_heading(game_id: str, seats: int, seat: int) -> str:
    """A game's heading in a digest: its tag and who plays whom, the reader first."""
    tag = f"[Gin {game_id[:8]}]"
    if seats > 3:  # by team, the reader first
        mine = [seat] + [s for s in range(seat % 2, seats, 2) if s != seat]
        theirs = list(range(1 - seat % 2, seats, 2))
        return f"{tag} {' & '.join(NAMES[s] for s in mine)} v {' & '.join(NAMES[s] for s in theirs)}"
    return f"{tag} {' v '.join(NAMES[s] for s in [seat] + [s for s in range(3) if s != seat])}"


# -- what a seat may see, from the stored state ---------------------------------------------------

def open_deals(state: dict) -> set[int]:
    return {deal for deal in state["board_hands"] if deal is not None}


def own_board(state: dict, seat: int) -> tuple[int, dict] | tuple[None, None]:
    for index, board in enumerate(state["table"]["boards"]):
        if board is not None and seat in board["seats"]:
            return index, board
    return None, None


def visible_on_own_board(state: dict, seat: int) -> set[str]:
    """Every card `seat` has seen of the hand in play on its own board: its hand, the discard
    pile, the cards its opponent took from the pile. Empty when it plays on no board."""
    _, board = own_board(state, seat)
    if board is None or board["match"]["phase"] in ("awaiting_deal", "match_over"):
        return set()
    match, local = board["match"], board["seats"].index(seat)
    return set(match["hands"][local]) | set(match["discard_pile"]) | set(match["known"][1 - local])


def public_pile(state: dict, index: int) -> set[str]:
    boards = state["table"]["boards"]
    board = boards[index] if index < len(boards) else None
    return set(board["match"]["discard_pile"]) if board else set()


def scan_mail(message, state: dict, seat: int) -> None:
    """Each line of the mail to `seat` shows only cards it may see: a board's public line only
    that board's discard pile; the record of a hand only when that hand is over; every other
    line only cards of the seat's own board it has seen (none while it plays on no board). The
    HTML part's cards and buttons: only the seat's own. Lines of 78 characters at most (the
    browser link alone may be longer) and no seat numbers."""
    body = text(message)
    own = visible_on_own_board(state, seat)
    in_play = open_deals(state)
    record = False
    for line in body.split("\n"):
        assert len(line) <= WIDTH or line.startswith("Play in your browser: "), line
        assert not re.search(r"\bseats? \d", line), line
        head = RECORD_HEAD.match(line)
        if head:
            assert int(head.group(1)) not in in_play, f"the record of hand {head.group(1)} in play:\n{body}"
            record = True
        if not line.strip():
            record = False
        if record or line.startswith(("Played: ", "Play in your browser: ", "Replies go to ")):
            continue  # an ended hand (public), the reply's own words, the addresses
        shown = set(CARD_WORD.findall(line))
        board = BOARD_LINE.match(line)
        if board:
            allowed = public_pile(state, int(board.group(1)) - 1 if board.group(1) else 0)
        else:
            allowed = own
        assert shown <= allowed, f"seat {seat} shown {sorted(shown - allowed)} in {line!r}\n{body}"
    html = message.get_body(preferencelist=("html",))
    if html is not None:
        outside = re.sub(r"(?s)<pre.*?</pre>", "", html.get_content())
        shown = set(CARD_WORD.findall(outside)) | {
            ("T" if rank == "10" else rank) + SUIT_LETTERS[suit] for rank, suit in HTML_CARD.findall(outside)}
        assert shown <= own, f"seat {seat}'s HTML part shows {sorted(shown - own)}"
