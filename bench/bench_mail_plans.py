"""Replies a match costs by mail, with and without plans and standing orders (issue 39).

    .venv/bin/python bench/bench_mail_plans.py [--matches 3] [--target 50] [--seed 1]

Whole matches are played by mail between two scripted players, in process: each reply goes in
through the inbound path a mail server hands it to (notify/inbound/replies.receive: parsed,
played, answered), each turn mail comes out of the outbox as the worker would send it, and the
players read only their mail. Three ways of playing, on the same seeded deals:

- commands: the commands of old, one decision a reply (a stock draw, then the discard once the
  answer shows the card: two round trips; a take of the pile's top and its discard in one reply,
  since that card is seen already); the mail reader's policy of tests/notify/test_inbound.py
  (take the face-up card when it lowers the deadwood, knock when the mail lists it);
- plans: the same policy, but where it would draw from the stock, a whole turn in one reply
  (`draw stock, gin if possible, else knock if deadwood at most 10, else discard drawn unless it
  melds, else worst`);
- plans + orders: the same, and the standing orders `pass unless it melds; always go gin` set at
  the start (by the API), which answer the upcard offers and the gins without a reply.

A turn is a seat's decision to be made: an upcard offer answered, or a draw. The ways' matches
differ in length (a plan's discard is not always the card the reader would throw, and a match's
length follows), so the figure compared is replies per turn: the mail round trips a decision
costs. Figures only.
"""
from __future__ import annotations

import argparse
import email
import email.policy
import os
import random
import sys
import tempfile
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("RATELIMIT_ENABLED", "false")

from tests.conftest import migrate  # noqa: E402
from tests.notify.test_inbound import command_from  # noqa: E402

PLAN = "draw stock, gin if possible, else knock if deadwood at most 10, else discard drawn unless it melds, else worst"
ORDERS = "pass unless it melds; always go gin"
ADDRESS = {0: "ann@example.org", 1: "bob@example.org"}


def listed(body: str) -> set[str]:
    return {raw.strip().split()[0] for raw in body.split("To play, reply")[1].splitlines()[1:]
            if raw.startswith("  ") and raw.strip()}


def planner(body: str) -> str:
    """The reader's policy, but a draw from the stock and its discard in one reply (the plan)."""
    command = command_from(body)
    return PLAN if command == "draw stock" else command


def text_of(payload: str):
    message = email.message_from_string(payload, policy=email.policy.default)
    return message, message.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")


class Bench:
    def __init__(self):
        from service import create_app
        config = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tempfile.mkdtemp()}/mail.sqlite3",
                  "MAIL_DOMAIN": "play.test", "BASE_URL": "http://gin.test", "RATELIMIT_ENABLED": False}
        migrate(config)
        self.app = create_app(config)
        self.client = self.app.test_client()
        from service.core.extensions import db
        from service.notify.models import MailAddress
        from datetime import datetime, timezone
        with self.app.app_context():
            for address in ADDRESS.values():
                db.session.add(MailAddress(address=address, confirmed_at=datetime.now(timezone.utc)))
            db.session.commit()

    def latest(self, game_id: str, seat: int):
        from service.core.extensions import db
        from service.notify.models import OutboxMessage
        with self.app.app_context():
            row = db.session.query(OutboxMessage).filter_by(game_id=game_id, seat=seat, channel="mail") \
                .order_by(OutboxMessage.id.desc()).first()
            return text_of(row.payload) if row else (None, "")

    def play(self, mode: str, target: int, deck_seed: int) -> tuple[int, int, Counter]:
        from service.games import deals
        from service.core.extensions import db
        from service.games.models import Event
        from service.notify.inbound.replies import receive
        shuffler = random.Random(deck_seed)
        original = deals.shuffled_deck
        deals.shuffled_deck = lambda: shuffler.sample(original(), 52)  # the same deals in every mode
        try:
            created = self.client.post("/games", json={"name": "Ann", "email": ADDRESS[0], "rules": {
                "preset": "standard", "target": target}}).get_json()
            joined = self.client.post(f"/games/{created['game_id']}/join", json={
                "invite_code": created["invite_code"], "name": "Bob", "email": ADDRESS[1]}).get_json()
            game_id, tokens = created["game_id"], {0: created["token"], 1: joined["token"]}
            if mode == "plans + orders":
                for seat in (0, 1):
                    answer = self.client.put(f"/games/{game_id}/orders", json={"orders": ORDERS},
                                             headers={"Authorization": f"Bearer {tokens[seat]}"})
                    assert answer.status_code == 200, answer.get_json()
            replies = Counter()
            for _ in range(5000):
                state = self.client.get(f"/games/{game_id}",
                                        headers={"Authorization": f"Bearer {tokens[0]}"}).get_json()
                if state["status"] == "finished":
                    break
                seat = state["to_move"]
                message, body = self.latest(game_id, seat)
                command = command_from(body) if mode == "commands" else planner(body)
                reply = email.message.EmailMessage()
                reply["From"], reply["To"] = ADDRESS[seat], message["Reply-To"]
                reply["Subject"] = "Re: " + message["Subject"]
                reply["Message-ID"] = email.utils.make_msgid(domain="example.org")
                reply.set_content(command)
                with self.app.app_context():
                    outcome = receive(reply.as_bytes(), [str(message["Reply-To"])])
                assert outcome.status == "played", (mode, command, outcome)
                replies[seat] += 1
            else:
                raise AssertionError("the match did not end")
            with self.app.app_context():
                kinds = Counter(row.payload.get("type") if row.payload.get("type") != "draw" else "draw"
                                for row in db.session.query(Event).filter_by(game_id=game_id))
            turns = kinds["draw"] + kinds["pass"] + kinds["take_upcard"]
            return sum(replies.values()), turns, kinds
        finally:
            deals.shuffled_deck = original


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--target", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {args.matches} matches to {args.target} per way")
    bench = Bench()
    modes = ("commands", "plans", "plans + orders")
    totals = {mode: [0, 0, 0] for mode in modes}  # replies, turns, hands
    started = time.perf_counter()
    for match in range(args.matches):
        for mode in modes:
            replies, turns, kinds = bench.play(mode, args.target, args.seed * 1000 + match)
            hands = kinds["hand_end"] + kinds["hand_void"]
            totals[mode][0] += replies
            totals[mode][1] += turns
            totals[mode][2] += hands
            print(f"match {match + 1} {mode:15} replies {replies:4}  turns {turns:4}  hands {hands:2}")
    base = totals["commands"][0] / totals["commands"][1]
    print()
    print("| way | replies per match | turns per match | replies per turn (mail round trips) | replies per turn vs commands |")
    print("| --- | --- | --- | --- | --- |")
    for mode in modes:
        replies, turns, _hands = totals[mode]
        print(f"| {mode} | {replies / args.matches:.1f} | {turns / args.matches:.1f} | {replies / turns:.2f} | "
              f"{replies / turns / base - 1:+.0%} |")
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
