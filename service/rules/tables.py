"""Tables of more than two players, built from two-player hands (RULES.md "More players").

Every hand is an ordinary two-player hand on a *board*: a `Match` of its own, so legality,
settlement and views stay where they are. The table decides who plays whom, deals nothing itself
(the caller deals each board, as with a Match), and keeps the score per side (a player, or a
partnership). Seats are 0..n-1; on a board the two players are its local seats 0 and 1, and
`board["seats"]` maps them back to table seats.

- `Rotation` (004, three players): "one player must be inactive during each deal, the winner of
  one hand plays with the inactive player."
- `Partnership` (004, four players; 000's Tedesco teams of three or four): "two separate games
  played simultaneously. Two people play as partners, alternately opposing the two other and
  keeping a partnership score."
"""
from __future__ import annotations

from dataclasses import replace

from .actions import Action, Resign
from .errors import IllegalAction, InvalidRules, check_seat
from .match import Match
from .options import Rules
from .plain import plain_copy
from .side_scoring import close_reached, credit_points, credit_win, new_side_games, settlement
from .views import redact_event

BOARD_TARGET = 10000  # a board plays single hands: its own match never reaches this


class Table:
    """What Rotation and Partnership share: boards, actions, the score per side, views, JSON."""

    format = ""

    def __init__(self, rules: Rules, seats: int, sides: list[list[int]]):
        for option, what in (("mahjong", "Mahjong gin"), ("first_dealer_by", "The cut for the first dealer")):
            if getattr(rules, option) not in (False, "random"):  # each is its two-player texts' only
                raise InvalidRules(option, f"{what} is described for two players only")
        self.rules = rules
        self.board_rules = replace(rules, target=BOARD_TARGET, scoring="single", exactly_50_loses=False)
        self.seats = seats
        self.sides = sides
        self.boards: list[dict | None] = []
        self.games = new_side_games(rules, len(sides))
        self.wins = [0] * len(sides)
        self.sheet: list[dict] = []
        self.last_hand: dict | None = None
        self.result: dict | None = None

    # -- queries -------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def winner(self) -> int | None:
        """The winning side (see `sides`), or None."""
        return self.result["winner"] if self.result else None

    @property
    def needs_deal(self) -> list[int]:
        """The boards waiting for a deck (`deal(board, deck)`)."""
        return [i for i, b in enumerate(self.boards) if b and b["match"].needs_deal and not self.is_over]

    @property
    def to_move(self) -> list[int]:
        """Every table seat that may act now, one per board in play."""
        return [b["seats"][b["match"].to_move] for b in self.boards
                if b and b["match"].to_move is not None and not self.is_over]

    def side_of(self, seat: int) -> int:
        self._check_seat(seat)
        return next(i for i, side in enumerate(self.sides) if seat in side)

    def board_of(self, seat: int) -> int | None:
        """The board `seat` plays on now, or None (sitting out, or waiting for the round)."""
        self._check_seat(seat)
        for i, board in enumerate(self.boards):
            if board and seat in board["seats"]:
                return i
        return None

    def legal_actions(self, seat: int) -> list[Action]:
        i = self.board_of(seat)
        if i is None or self.is_over:
            return []
        board = self.boards[i]
        return board["match"].legal_actions(board["seats"].index(seat))

    # -- changes -------------------------------------------------------------------------------

    def deal(self, board: int, deck, knock_card=None) -> list[dict]:
        if self.is_over:
            raise IllegalAction("game-over", "the table's match is over")
        if board not in self.needs_deal:
            raise IllegalAction("wrong-phase", f"board {board} is not waiting for a deal")
        events = self.boards[board]["match"].deal(deck, knock_card) if knock_card is not None \
            else self.boards[board]["match"].deal(deck)
        return self._after(board, events)

    def check(self, seat: int, action: Action) -> None:
        self._check_seat(seat)
        if self.is_over:
            raise IllegalAction("game-over", f"the match is over; {action.type} is not possible")
        if isinstance(action, Resign):
            return
        i = self.board_of(seat)
        if i is None:
            raise IllegalAction("not-your-turn", f"seat {seat} plays on no board now"
                                + (" (sitting out this hand)" if self.format == "rotation" else ""))
        board = self.boards[i]
        board["match"].check(board["seats"].index(seat), action)

    def apply(self, seat: int, action: Action) -> list[dict]:
        self.check(seat, action)
        if isinstance(action, Resign):
            return self.forfeit(seat, "resign")
        i = self.board_of(seat)
        board = self.boards[i]
        return self._after(i, board["match"].apply(board["seats"].index(seat), action))

    def _after(self, i: int, events: list[dict]) -> list[dict]:
        """Tag a board's events with the board and its seats; settle a decided hand."""
        seats = list(self.boards[i]["seats"])
        tagged = [{**e, "board": i, "seats": seats} for e in events if e["type"] != "match_end"]
        for event in events:
            if event["type"] == "hand_end":
                tagged += self._hand_decided(i, self._table_record(i, event["record"]))
        return tagged

    def _table_record(self, i: int, record: dict) -> dict:
        seats = self.boards[i]["seats"]
        seat = {None: None, 0: seats[0], 1: seats[1]}
        return {**plain_copy(record), "board": i, "seats": list(seats), "dealer": seat[record["dealer"]],
                "knocker": seat[record["knocker"]], "winner": seat[record["winner"]],
                "hands": {str(seats[int(k)]): v for k, v in record["hands"].items()}}

    def _credit(self, record: dict, table_hand: int) -> list[int]:
        credited: list[int] = []
        side = None
        if record["winner"] is not None:
            side = self.side_of(record["winner"])
            credited = credit_win(self.rules, self.games, self.wins[side], side, record["points"])
            self.wins[side] += 1
        self.sheet.append({"hand": table_hand, "board": record["board"], "seats": record["seats"],
                           "dealer": record["dealer"], "knocker": record["knocker"], "result": record["result"],
                           "winner": record["winner"], "side": side, "points": record["points"],
                           "games_credited": credited})
        self.last_hand = record
        return credited

    def _finish_if_closed(self) -> list[dict]:
        close_reached(self.rules, self.games)
        if all(g["closed"] for g in self.games):
            return self._end("target")
        return []

    def forfeit(self, seat: int, reason: str = "resign") -> list[dict]:
        """`seat` gives up (or timed out, as the caller established): its side loses the match."""
        self._check_seat(seat)
        if self.is_over:
            raise IllegalAction("game-over", "the match is over already")
        return [{"type": reason, "seat": seat}] + self._end(reason, losing_side=self.side_of(seat))

    def _end(self, reason: str, losing_side: int | None = None) -> list[dict]:
        totals = [sum((g["final"] or g)["totals"][s] for g in self.games) for s in range(len(self.sides))]
        reached = self.games[0]["final"]["winner"] if len(self.games) == 1 and self.games[0]["final"] else None
        others = [s for s in range(len(self.sides)) if s != losing_side]
        best = max(totals[s] for s in others)
        leaders = [s for s in others if totals[s] == best]
        if reason == "target" and reached is not None:
            winner = reached  # the side that reached the target, as in a two-player match
        else:
            winner = leaders[0] if len(leaders) == 1 or losing_side is not None else None
        result = {"winner": winner, "winner_seats": list(self.sides[winner]) if winner is not None else [],
                  "reason": reason, "totals": totals, "games": plain_copy(self.games),
                  "hands_won": list(self.wins), "target_reached_by": reached,
                  "settlement": settlement(totals)}
        if len(self.sides) == 2:
            net = totals[0] - totals[1]
            leader = 0 if net > 0 else 1 if net < 0 else None
            result["net"] = {"leader": leader, "points": abs(net),
                             "payer": None if leader is None else 1 - leader, "payee": leader}
            if reason == "target" and self.rules.exactly_50_loses and abs(net) == 50:
                result["winner"], result["exactly_50_rule"] = 1 - leader, True
                result["winner_seats"] = list(self.sides[1 - leader])
        self.result = result
        return [{"type": "match_end", "result": plain_copy(result)}]

    def _check_seat(self, seat: int) -> None:
        check_seat(seat, self.seats)

    def _open_board(self, i: int, a: int, b: int, dealer: int) -> None:
        seats = sorted((a, b))
        match = Match.new(self.board_rules, first_dealer=seats.index(dealer))
        while len(self.boards) <= i:
            self.boards.append(None)
        self.boards[i] = {"seats": seats, "match": match}

    # -- views ---------------------------------------------------------------------------------

    def view(self, seat: int) -> dict:
        """What `seat` may see: its own board as that board's seat view (its own cards only), every
        board's public state, the table's scores. Never another seat's hand in play."""
        self._check_seat(seat)
        i = self.board_of(seat)
        own = None
        if i is not None:
            board = self.boards[i]
            local = board["seats"].index(seat)
            inner = board["match"].view(local)
            for key in ("scores", "result", "rules"):
                inner.pop(key, None)  # the table's score and rules are the ones that count
            own = {"board": i, "seats": list(board["seats"]), "local_seat": local, "view": inner}
        side = self.side_of(seat)
        return {
            "format": self.format, "seat": seat, "seats": self.seats,
            "sides": [list(s) for s in self.sides], "side": side,
            "partners": [s for s in self.sides[side] if s != seat],
            "to_move": self.to_move, "needs_deal": self.needs_deal,
            "my_board": own, "boards": [self._public_board(i) for i in range(len(self.boards))],
            "legal_actions": [a.to_dict() for a in self.legal_actions(seat)],
            "can_resign": not self.is_over,
            "scores": {"games": plain_copy(self.games), "hands_won": list(self.wins), "sheet": plain_copy(self.sheet)},
            "last_hand": plain_copy(self.last_hand), "result": plain_copy(self.result),
            "rules": self.rules.to_dict(), **self._format_view(),
        }

    def _public_board(self, i: int) -> dict | None:
        board = self.boards[i]
        if board is None:
            return None
        match, seats = board["match"], board["seats"]
        return {"board": i, "seats": list(seats), "phase": match.phase,
                "to_move": seats[match.to_move] if match.to_move is not None else None,
                "dealer": seats[match.dealer], "hand_number": match.hand_number,
                "card_counts": {str(seats[s]): len(match.hands[s]) for s in (0, 1)},
                "discard_pile": [str(c) for c in match.discard_pile], "stock_count": len(match.stock),
                "knock_limit": match.knock_limit}

    def _format_view(self) -> dict:
        return {}

    def redact(self, event: dict, viewer: int, reveal_all: bool = False) -> dict:
        """A table event as `viewer` may see it: a board's private parts only to its own player."""
        self._check_seat(viewer)
        seats = event.get("seats")
        local = seats.index(viewer) if seats and viewer in seats else -1
        return redact_event(event, local, reveal_all)

    # -- serialisation -------------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {"format": self.format, "rules": self.rules.to_dict(), "seats": self.seats,
                "boards": [None if b is None else {"seats": list(b["seats"]), "match": b["match"].to_dict()}
                           for b in self.boards],
                "games": plain_copy(self.games), "wins": list(self.wins), "sheet": plain_copy(self.sheet),
                "last_hand": plain_copy(self.last_hand), "result": plain_copy(self.result),
                **self._format_state()}

    def _format_state(self) -> dict:
        return {}

    @staticmethod
    def from_dict(data: dict) -> "Table":
        cls = {"rotation": Rotation, "partnership": Partnership}.get(data.get("format"))
        if cls is None:
            raise ValueError(f"unknown table format {data.get('format')!r}")
        table = cls._empty(Rules.from_dict(data["rules"]), data)
        table.boards = [None if b is None else {"seats": list(b["seats"]), "match": Match.from_dict(b["match"])}
                        for b in data["boards"]]
        for name in ("games", "wins", "sheet", "last_hand", "result"):
            setattr(table, name, plain_copy(data[name]))
        table._load_format_state(data)
        return table

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Table) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.seats} seats to_move={self.to_move}>"


class Rotation(Table):
    """Three players, one sitting out each hand; the hand's winner plays the one who sat out
    (004). The newcomer deals, so the player who stays has the first choice. On a tie (nobody
    won) the knocker sits out. Each player scores for themselves."""

    format = "rotation"

    def __init__(self, rules: Rules | None = None, first_pair=(0, 1), first_dealer: int | None = None):
        super().__init__(rules or Rules(), 3, [[0], [1], [2]])
        a, b = sorted(check_seat(seat, 3) for seat in first_pair)
        if a == b:
            raise ValueError("first_pair names two different seats of 0, 1, 2")
        dealer = a if first_dealer is None else check_seat(first_dealer, 3)
        if dealer not in (a, b):
            raise ValueError("the first dealer plays the first hand")
        self.sitting_out = 3 - a - b
        self.hands_decided = 0
        self._open_board(0, a, b, dealer)

    def _hand_decided(self, i: int, record: dict) -> list[dict]:
        self.hands_decided += 1
        self._credit(record, self.hands_decided)
        events = [{"type": "table_hand_end", "record": plain_copy(record)}]
        a, b = record["seats"]
        stays = record["winner"] if record["winner"] is not None else (b if record["knocker"] == a else a)
        comes, self.sitting_out = self.sitting_out, (b if stays == a else a)
        finished = self._finish_if_closed()
        if finished:
            self.boards[0] = None
            return events + finished
        self._open_board(0, stays, comes, dealer=comes)
        return events + [{"type": "next_pairing", "seats": sorted((stays, comes)), "sitting_out": self.sitting_out}]

    def _format_view(self) -> dict:
        return {"sitting_out": self.sitting_out}

    def _format_state(self) -> dict:
        return {"sitting_out": self.sitting_out, "hands_decided": self.hands_decided}

    @classmethod
    def _empty(cls, rules: Rules, data: dict) -> "Rotation":
        table = cls.__new__(cls)
        Table.__init__(table, rules, 3, [[0], [1], [2]])
        return table

    def _load_format_state(self, data: dict) -> None:
        self.sitting_out, self.hands_decided = data["sitting_out"], data["hands_decided"]


class Partnership(Table):
    """Two teams of `team_size` (seats 0, 2, 4... against 1, 3, 5...), `team_size` boards at once,
    each player opposing each of the other team in turn (round r: seat 2j plays seat
    2((j + r) mod team_size) + 1). A round's hands count when all its boards are decided; if every
    member of a team of three or more won, the team scores team_bonus x (size - 2) more (000:
    "25 points extra if all three teammates win. 50 points for four-person team")."""

    format = "partnership"

    def __init__(self, rules: Rules | None = None, team_size: int = 2):
        if team_size not in (2, 3, 4):
            raise ValueError("a team has 2, 3 or 4 players")
        super().__init__(rules or Rules(), 2 * team_size, _teams(team_size))
        self.team_size = team_size
        self.round = 0
        self.round_results: list[dict | None] = [None] * team_size
        self._open_round()

    def _open_round(self) -> None:
        self.round_results = [None] * self.team_size
        for j in range(self.team_size):
            a, b = 2 * j, 2 * ((j + self.round) % self.team_size) + 1
            self._open_board(j, a, b, dealer=a if self.round % 2 == 0 else b)

    def _hand_decided(self, i: int, record: dict) -> list[dict]:
        self.round_results[i] = record
        self.boards[i] = None  # this board waits for the others of the round
        events = [{"type": "table_hand_end", "record": plain_copy(record)}]
        if any(r is None for r in self.round_results):
            return events
        won = [self.side_of(r["winner"]) if r["winner"] is not None else None for r in self.round_results]
        credited: list[int] = []
        for j, result in enumerate(self.round_results):
            credited = self._credit(result, self.round * self.team_size + j + 1) or credited
        bonus = None
        if self.team_size >= 3 and won[0] is not None and all(w == won[0] for w in won):
            bonus = {"side": won[0], "points": self.rules.team_bonus * (self.team_size - 2)}
            credit_points(self.games, won[0], bonus["points"], credited)
            self.sheet.append({"hand": None, "round": self.round, "team_bonus": bonus["points"],
                               "side": won[0], "games_credited": credited})
        events.append({"type": "round_end", "round": self.round, "team_bonus": bonus})
        finished = self._finish_if_closed()
        if finished:
            return events + finished
        self.round += 1
        self._open_round()
        return events

    def _format_view(self) -> dict:
        return {"round": self.round, "team_size": self.team_size}

    def _format_state(self) -> dict:
        return {"team_size": self.team_size, "round": self.round, "round_results": plain_copy(self.round_results)}

    @classmethod
    def _empty(cls, rules: Rules, data: dict) -> "Partnership":
        table = cls.__new__(cls)
        Table.__init__(table, rules, 2 * data["team_size"], _teams(data["team_size"]))
        table.team_size = data["team_size"]
        return table

    def _load_format_state(self, data: dict) -> None:
        self.round, self.round_results = data["round"], plain_copy(data["round_results"])


def _teams(size: int) -> list[list[int]]:
    return [[2 * j for j in range(size)], [2 * j + 1 for j in range(size)]]
