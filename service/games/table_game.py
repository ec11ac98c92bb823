"""Games of three and four seats: the engine's Table as the service keeps it (issue 14).

A two-seat game stores a `Match`; a game of 3, 4, 6 or 8 seats stores a `TableGame`: the engine's
`Rotation` (three players, one sitting out) or `Partnership` (two teams of 2, 3 or 4: seats 0, 2,
4.. against 1, 3, 5.., a board per pair of opponents at once, Tedesco's teams at 6 and 8), plus
what only the service numbers: each deal. Every board's hand is dealt from a deck of its own, committed to and revealed like a two-seat hand's; deals are numbered 1, 2, ...
across the whole table, and a board's events carry that number as `hand` (so `revealed_deals`
and the events' `hand` agree). The engine's boards number their own hands; nobody outside sees that.

`TableGame` answers what the store asks of a `Match` (to_move, is_over, hand_number, view, apply,
forfeit, to_dict), so create, join, moves by HTTP or mail, deadlines and hooks take one path.
`to_move` is one seat (the games row's): of the seats to move (one per board in play), the one
waiting longest. Deadlines are per seat to move (service/games/table_clocks.py), which sets the view's
`on_clock`, each board's `deadline` and `my_deadline`. Views list every seat to move, per board.
"""
from __future__ import annotations

from ..rules import Partnership, Rotation, Rules, Table, action_from_dict, redact_event

SEAT_COUNTS = (2, 3, 4, 6, 8)
TEAM_SIZES = {4: 2, 6: 3, 8: 4}  # a partnership's seats -> players per team
FORMATS = {3: "rotation", **{seats: "partnership" for seats in TEAM_SIZES}}
MAX_SEAT = max(SEAT_COUNTS) - 1


def is_table_state(state) -> bool:
    """Whether a game's stored state is a TableGame's (a Mahjong gin Match has a `table` list)."""
    return isinstance(state, dict) and isinstance(state.get("table"), dict)


class TableGame:
    def __init__(self, table: Table, deals: int = 0, board_hands: list | None = None,
                 actions: int = 0, waiting: dict | None = None, last_deal: int | None = None):
        self.table = table
        self.deals = deals  # deals made so far: the last one's number
        self.board_hands = board_hands if board_hands is not None else [None] * len(table.boards)
        self.actions = actions  # actions and deals applied: orders the seats by how long they wait
        self.waiting = waiting if waiting is not None else {}  # str(seat) -> `actions` when its turn began
        self.last_deal = last_deal  # the deal of the table's last decided hand (view's last_hand)
        self.ended: list[int] = []  # deals whose hands ended in this change (not stored: revealed in it)

    @classmethod
    def new(cls, rules: Rules, seats: int, first_dealer: int | None = None) -> "TableGame":
        if seats == 3:
            return cls(Rotation(rules, first_pair=(0, 1), first_dealer=first_dealer))
        if seats in TEAM_SIZES:
            return cls(Partnership(rules, team_size=TEAM_SIZES[seats]))
        raise ValueError(f"a table has 3, 4, 6 or 8 seats, not {seats}")

    # -- what the store reads of a Match -------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.table.seats

    @property
    def rules(self) -> Rules:
        return self.table.rules

    @property
    def is_over(self) -> bool:
        return self.table.is_over

    @property
    def result(self) -> dict | None:
        return self.table.result

    @property
    def first_dealer(self) -> None:
        return None  # each board has its own dealer (in the view)

    @property
    def hand_number(self) -> int:
        return self.deals

    @property
    def needs_deal(self) -> bool:
        return bool(self.table.needs_deal) and not self.is_over

    @property
    def to_move(self) -> int | None:
        """Of the seats to move, the one waiting longest (each has its own clock: table_clocks)."""
        seats = self.table.to_move
        if not seats:
            return None
        return min(seats, key=lambda s: (self.waiting.get(str(s), self.actions), s))

    def legal_actions(self, seat: int):
        return self.table.legal_actions(seat)

    def partners_of(self, seat: int) -> list[int]:
        return [s for s in self.table.sides[self.table.side_of(seat)] if s != seat]

    # -- changes -------------------------------------------------------------------------------

    def apply(self, seat: int, action) -> list[dict]:
        return self._after(self.table.apply(seat, action))

    def apply_json(self, seat: int, body: dict) -> list[dict]:
        return self.apply(seat, action_from_dict(body))

    def forfeit(self, seat: int, reason: str = "resign") -> list[dict]:
        return self._after(self.table.forfeit(seat, reason))

    def deal_next(self, deck: list[str]) -> tuple[int, list[dict]]:
        """Deal the first board waiting for cards from `deck`: (the deal's number, its events)."""
        board = self.table.needs_deal[0]
        self.deals += 1
        while len(self.board_hands) <= board:
            self.board_hands.append(None)
        self.board_hands[board] = self.deals
        return self.deals, self._after(self.table.deal(board, deck))

    def dealt_over(self, deal: int) -> bool:
        """Whether deal `deal`'s hand is over already (a misdeal, voided as it was dealt)."""
        return deal not in self.board_hands

    def take_ended(self) -> list[int]:
        """The deals whose hands ended since last asked: their decks are to be revealed."""
        ended, self.ended = self.ended, []
        return ended

    def _after(self, events: list[dict]) -> list[dict]:
        """Number each board event's hand as the service does; note hands that ended; move the
        waiting order on."""
        self.actions += 1
        for event in events:
            board = event.get("board")
            if board is None:  # an event of the whole table: it belongs to the latest deal
                event["hand"] = self.deals
                record = event.get("record")
                if event["type"] == "table_hand_end" and record is not None:
                    event["hand"] = record["hand"] = self.board_hands[record["board"]]  # cleared below
                    self.last_deal = record["hand"]
                continue
            deal = self.board_hands[board] if board < len(self.board_hands) else None
            event["hand"] = deal
            if isinstance(event.get("record"), dict):
                event["record"]["hand"] = deal
            if event["type"] in ("hand_end", "hand_void") and deal is not None:
                self.ended.append(deal)
        if self.is_over:  # a resignation or a timeout: the hands in play are over too
            self.ended += [d for d in self.board_hands if d is not None and d not in self.ended]
            self.board_hands = [None] * len(self.board_hands)
        else:
            for deal in self.ended:
                self.board_hands = [None if d == deal else d for d in self.board_hands]
        to_move = set(self.table.to_move)
        self.waiting = {str(s): self.waiting.get(str(s), self.actions) for s in sorted(to_move)}
        return events

    # -- what leaves toward a seat -------------------------------------------------------------

    def view(self, seat: int, commitments: dict[int, str] | None = None) -> dict:
        """The engine's table view for `seat`, each board with its deal's number and commitment,
        and `on_clock` (table_clocks.with_deadlines sets it from the seats' clocks)."""
        view = self.table.view(seat)
        for board in view["boards"]:
            if board is not None:
                deal = self.board_hands[board["board"]] if board["board"] < len(self.board_hands) else None
                board["deal"] = deal
                board["deal_commitment"] = (commitments or {}).get(deal)
        if view["last_hand"] is not None:
            view["last_hand"]["hand"] = self.last_deal
        view["on_clock"] = self.to_move
        return view

    # -- storage -------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {"table": self.table.to_dict(), "deals": self.deals, "board_hands": list(self.board_hands),
                "actions": self.actions, "waiting": dict(self.waiting), "last_deal": self.last_deal}

    @classmethod
    def from_dict(cls, data: dict) -> "TableGame":
        return cls(Table.from_dict(data["table"]), data["deals"], list(data["board_hands"]), data["actions"],
                   dict(data["waiting"]), data.get("last_deal"))


def redact_table_event(event: dict, viewer: int, reveal_all: bool = False) -> dict:
    """A stored table event as `viewer` may see it (Table.redact needs no table's state)."""
    seats = event.get("seats")
    local = seats.index(viewer) if seats and viewer in seats else -1  # -1: no board's private part
    shown = redact_event(event, local, reveal_all)
    if shown["type"] == "deal":
        shown.setdefault("cards", {})  # a board the viewer is not on: no seat's cards, as documented
    return shown


def in_the_open(event: dict) -> dict:
    """An event with every seat's private part merged in: after the match nothing in it is secret
    (the replays, replay.py and table_replay.py)."""
    public = {key: value for key, value in event.items() if key != "private"}
    for part in (event.get("private") or {}).values():
        for key, value in part.items():
            public[key] = {**public.get(key, {}), **value} if isinstance(value, dict) else value
    return public
