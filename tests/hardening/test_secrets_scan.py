"""Secrets: whole matches played over HTTP (and some moves by email reply), with turn mails and
webhooks delivered through a real SMTP server and a real HTTP receiver, and every log record
captured. Then every response, mail, webhook and log line is scanned:

- no card a seat may not see (the stock, the opponent's unknown cards) in what that seat gets;
- no deck order or deal salt of a hand before that hand is over;
- no bearer token, invite code, webhook secret or mail reply secret anywhere but in the one
  answer or mail meant to carry it; no stored hash of any of them anywhere at all.

One more match runs through a real gunicorn with its access and debug logs, scanned the same way.
"""
from __future__ import annotations

import email.utils
import json
import logging
import re
import subprocess
import sys

import pytest

from service.core.tokens import hash_secret
from tests.api.helpers import cards_in, choose, secret_cards
from tests.notify.conftest import MailServer, Receiver, confirm_addresses, deliver, reply, text

from ..conftest import ROOT, free_port, stop_gunicorn
from .support import LONG, scaled
from .torture import call, database_url

MATCHES, TARGET = scaled(2, 10), scaled(40, 100)
DOMAIN = "scan.test"
# A card as a word of its own: not two letters inside a game id, token or reply address.
CARD_WORD = re.compile(r"(?<![A-Za-z0-9_-])[A2-9TJQK][CDHS](?![A-Za-z0-9_-])")
MAIL_SECRET = re.compile(r"play\+([A-Za-z0-9_-]+)@")


def without_examples(body: str) -> str:
    """A mail's help text names example cards (`discard 7H`): not a card of any hand."""
    from service.notify.mail.mail_pieces import HELP
    return body.replace(HELP, "").replace("(e.g. `take` then `discard 7H`)", "") \
        .replace("like 7H, TD or 10D", "")


class Scan:
    """Everything that left the service, and the secrets with the one place each may appear."""

    def __init__(self):
        self.outputs: list[tuple[str, str]] = []  # (where, text)
        self.secrets: dict[str, str | None] = {}  # secret -> the one `where` allowed to carry it
        self.hashes: set[str] = set()

    def secret(self, value: str, allowed: str | None) -> None:
        self.secrets[value] = allowed
        self.hashes.add(hash_secret(value))

    def output(self, where: str, body: str) -> None:
        self.outputs.append((where, body))

    def verdict(self) -> None:
        assert self.secrets and self.outputs
        for where, body in self.outputs:
            for value, allowed in self.secrets.items():
                assert value not in body or where == allowed, f"a secret leaked into {where}"
            for digest in self.hashes:
                assert digest not in body, f"a stored hash leaked into {where}"


def check_cards(data, state: dict, seat: int, where: str) -> None:
    """Structured: no secret card of the current hand (finished hands are public record)."""
    if state["phase"] == "match_over":
        return
    current = {k: v for k, v in data.items() if k not in ("last_hand", "revealed_deals")} \
        if isinstance(data, dict) else data
    leaked = cards_in(current) & secret_cards(state, seat)
    assert not leaked, f"{where}: seat {seat} was shown {sorted(leaked)}"


def check_deck_order(body: str, deals: list, where: str) -> None:
    for deal in deals:
        if not deal.revealed:
            assert deal.salt not in body, f"{where}: the salt of hand {deal.hand} before its end"
            assert " ".join(deal.deck[10:20]) not in body and json.dumps(deal.deck[20:30]) not in body, \
                f"{where}: the deck order of hand {deal.hand} before its end"


class Table:
    """One match, played through the test client by both seats, everything recorded."""

    def __init__(self, client, app, scan: Scan, receiver: Receiver, mails: MailServer, number: int):
        self.client, self.app, self.scan, self.mails = client, app, scan, mails
        self.emails = {0: f"ann{number}@example.org", 1: f"bob{number}@example.org"}
        self.seen_mails = len(mails.catcher.messages)  # earlier matches' mail is not ours
        confirm_addresses(app, *self.emails.values())  # their owners confirmed them (test_confirmation.py)
        created = self.http("create", "POST", "/games", {"name": "Ann", "rules": {"target": TARGET},
                                                         "email": self.emails[0]})
        self.id, tokens = created["game_id"], {0: created["token"]}
        scan.secret(created["token"], "http:create")
        scan.secret(created["invite_code"], "http:create")
        joined = self.http("join", "POST", f"/games/{self.id}/join",
                           {"invite_code": created["invite_code"], "name": "Bob", "email": self.emails[1]})
        tokens[1] = joined["token"]
        scan.secret(joined["token"], "http:join")
        self.tokens = tokens
        hook = self.http("set-webhook", "PATCH", f"/games/{self.id}/contact",
                         {"webhook_url": receiver.url}, seat=1)
        scan.secret(hook["webhook_secret"], "http:set-webhook")
        self.cursors = {0: 0, 1: 0}

    def http(self, where, method, path, body=None, seat=None):
        headers = {"Authorization": f"Bearer {self.tokens[seat]}"} if seat is not None else {}
        response = self.client.open(path, method=method, json=body, headers=headers)
        assert response.status_code < 300, (where, response.status_code, response.get_json())
        self.scan.output(f"http:{where}", "".join(f"{k}: {v}\n" for k, v in response.headers.items())
                         + response.get_data(as_text=True))
        return response.get_json()

    def stored(self):
        from service.core.extensions import db
        from service.games.models import Deal, Game
        with self.app.app_context():
            game = db.session.get(Game, self.id)
            state = game.state
            deals = db.session.query(Deal).filter_by(game_id=self.id).all()
            db.session.expunge_all()
        return state, deals

    def look(self, state, deals, step):
        """Both seats read their view and their new events; every answer is checked."""
        views = {}
        for seat in (0, 1):
            where = f"view {step} seat {seat}"
            views[seat] = self.http(where, "GET", f"/games/{self.id}", seat=seat)
            check_cards(views[seat], state, seat, where)
            check_deck_order(json.dumps(views[seat]), deals, where)
            page = self.http(f"events {step} seat {seat}", "GET",
                             f"/games/{self.id}/events?after={self.cursors[seat]}", seat=seat)
            current = [e for e in page["events"] if e.get("hand") == state["hand_number"]]
            check_cards(current, state, seat, f"events {step} seat {seat}")
            check_deck_order(json.dumps(page), deals, f"events {step}")
            if page["events"]:
                self.cursors[seat] = page["events"][-1]["seq"]
        return views

    def check_new_mail_and_hooks(self, state, deals, hand_ended: bool, receiver: Receiver, step):
        deliver(self.app)
        messages = self.mails.catcher.messages[self.seen_mails:]
        self.seen_mails = len(self.mails.catcher.messages)
        for recipients, message in messages:
            seat = next(s for s, address in self.emails.items() if address in recipients)
            where = f"mail {message['Message-ID']}"
            secret = MAIL_SECRET.search(message.get("Reply-To", "") or "")
            if secret:
                self.scan.secret(secret.group(1), where)
            body = text(message)
            self.scan.output(where, message.as_string())
            check_deck_order(body, deals, where)
            if not hand_ended:  # a mail after a knock recounts the finished hand, which is public
                leaked = set(CARD_WORD.findall(without_examples(body))) & secret_cards(state, seat)
                assert not leaked, (f"{where} to seat {seat} shows {sorted(leaked)}\n{body}\nstate: "
                                    + json.dumps({k: state[k] for k in ("hand_number", "phase", "hands", "known",
                                                                         "discard_pile", "stock", "taken")}))
        for request in receiver.delivered()[getattr(receiver, "seen", 0):]:
            payload = json.loads(request["body"])
            data = payload["data"]
            where = f"webhook {request['headers'].get('webhook-id')}"
            self.scan.output(where, json.dumps(request["headers"]) + request["body"])
            check_deck_order(request["body"], deals, where)
            check_cards(data["view"], state, data["seat"], where)
            check_cards([e for e in data["events"] if e.get("hand") == state["hand_number"]], state,
                        data["seat"], where)
        receiver.seen = len(receiver.delivered())

    def play(self, receiver: Receiver, listener_port: int | None, limit: int = 3000):
        state, deals = self.stored()
        opportunities = 0
        for step in range(limit):
            views = self.look(state, deals, step)
            if state["phase"] == "match_over":
                return
            seat = views[0]["to_move"]
            action = choose(views[seat])
            mail = self.mails.catcher.to(self.emails[seat])
            # Now and then the move goes by email: a reply to the latest turn mail, when that mail
            # is for the game as it stands (a seat's draw sends it no new mail, so a reply to the
            # mail before it would be stale, and is tested elsewhere).
            current = bool(mail) and mail[-1].get("X-Gin-Version") == str(views[seat]["version"]) \
                and bool(MAIL_SECRET.search(mail[-1].get("Reply-To", "")))
            opportunities += current
            by_mail = bool(listener_port) and current and opportunities % 3 == 1
            if by_mail:
                address = email.utils.parseaddr(mail[-1]["Reply-To"])[1]
                command = {"draw": f"draw {action.get('from', '')}", "discard": f"discard {action.get('card')}",
                           "take_upcard": "take", "pass": "pass", "big_gin": "big gin",
                           "knock": f"knock {action.get('discard')}"}[action["type"]]
                reply(listener_port, address, command, sender=self.emails[seat])
            else:
                answer = self.http(f"move {step}", "POST", f"/games/{self.id}/actions", action, seat=seat)
            before_hand = state["hand_number"]
            state, deals = self.stored()
            if not by_mail:
                check_cards(answer, state, seat, f"move {step}")
                check_deck_order(json.dumps(answer), deals, f"move {step}")
            ended = state["hand_number"] != before_hand or state["phase"] == "match_over"
            self.check_new_mail_and_hooks(state, deals, ended, receiver, step)
        raise AssertionError("the match did not end")


@pytest.fixture
def scan_world(db_config, caplog):
    if not LONG and "postgresql" in db_config["SQLALCHEMY_DATABASE_URI"]:
        pytest.skip("secrets do not depend on the database: the scan runs on SQLite (and on "
                    "PostgreSQL too with GIN_LONG_TESTS=1)")
    from service import create_app
    mails, receiver = MailServer(), Receiver()
    mails.start()
    receiver.start()
    app = create_app({"TESTING": True, **db_config, "RATELIMIT_ENABLED": False, "MAIL_DOMAIN": DOMAIN,
                      "BASE_URL": "http://gin.test", "SMTP_HOST": "127.0.0.1", "SMTP_PORT": mails.port,
                      "SMTP_TIMEOUT": 5.0, "WEBHOOK_ALLOW_PRIVATE": True, "WEBHOOK_TIMEOUT": 5.0})
    from service.core.extensions import db
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
    from service.notify.inbound.smtpd import controller
    port = free_port()
    listener = controller(app, "127.0.0.1", port)
    listener.start()
    caplog.set_level(logging.INFO)  # what a production deployment logs (create_app: basicConfig INFO)
    yield app, mails, receiver, port
    listener.stop()
    receiver.stop()
    mails.stop()


def test_whole_matches_leak_no_card_deck_order_or_secret(scan_world, caplog):
    app, mails, receiver, listener_port = scan_world
    scan = Scan()
    client = app.test_client()
    for number in range(MATCHES):
        table = Table(client, app, scan, receiver, mails, number)
        table.play(receiver, listener_port)
    for record in caplog.records:
        scan.output(f"log {record.name}", record.getMessage() + (record.exc_text or ""))
    by_mail = [r for r in caplog.records if r.getMessage().startswith("inbound mail: played")]
    assert by_mail, "no move was made by email"
    kinds = {kind: sum(where.startswith(kind) for where, _ in scan.outputs)
             for kind in ("http", "mail", "webhook", "log")}
    assert all(kinds.values()), kinds
    print(f"secrets scan: {MATCHES} matches, {len(by_mail)} moves by mail, outputs {kinds}, {len(scan.secrets)} secrets")
    scan.verdict()


def test_a_match_through_gunicorn_logs_no_secret(tmp_path):
    """The real server's own logs (access log and debug level) carry no token or invite code."""
    with database_url("sqlite", tmp_path) as url:
        subprocess.run([sys.executable, "-m", "flask", "--app", "service", "db", "upgrade"], cwd=ROOT,
                       env={**_env(url)}, check=True, capture_output=True)
        port = free_port()
        log_path = tmp_path / "gunicorn.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "--workers", "2", "--bind", f"127.0.0.1:{port}",
                 "--access-logfile", "-", "--log-level", "debug", "service:create_app()"], cwd=ROOT, env=_env(url), stdout=log, stderr=log)
        base = f"http://127.0.0.1:{port}"
        try:
            _wait(base)
            scan = Scan()
            status, created = call(base, "POST", "/games", {"name": "Ann", "rules": {"target": 10}})
            scan.secret(created["token"], None)
            scan.secret(created["invite_code"], None)
            status, joined = call(base, "POST", f"/games/{created['game_id']}/join",
                                  {"invite_code": created["invite_code"], "name": "Bob"})
            scan.secret(joined["token"], None)
            tokens = {0: created["token"], 1: joined["token"]}
            path = f"/games/{created['game_id']}"
            call(base, "GET", path, headers={"Authorization": "Bearer not-a-token"})  # a 401, logged
            for _ in range(2000):
                status, seen = call(base, "GET", path, headers={"Authorization": f"Bearer {tokens[0]}"})
                if seen["status"] == "finished":
                    break
                seat = seen["to_move"]
                headers = {"Authorization": f"Bearer {tokens[seat]}"}
                status, mine = call(base, "GET", path, headers=headers)
                status, _ = call(base, "POST", path + "/actions", choose(mine), headers)
                assert status == 200
            else:
                raise AssertionError("the match did not end")
        finally:
            stop_gunicorn(process)
        logged = log_path.read_text(errors="replace")
        assert "POST /games" in logged and "GET /games/" in logged  # the access log was on
        scan.output("gunicorn log", logged)
        scan.verdict()


def _env(url: str) -> dict:
    import os
    return {**os.environ, "DATABASE_URL": url, "RATELIMIT_ENABLED": "false"}


def _wait(base: str) -> None:
    import time
    give_up = time.monotonic() + 30
    while time.monotonic() < give_up:
        try:
            if call(base, "GET", "/health")[0] == 200:
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("gunicorn did not start")


@pytest.mark.parametrize("seats", [3, 4])
def test_table_matches_leak_no_card_deck_order_or_secret(app, client, caplog, seats):
    """Tables of three and four seats (issue 14) over HTTP: every seat, the one sitting out and both
    partners, reads its view and its new events before every move; none shows a card of a board in
    play it may not see, a deck or salt of a deal not yet over, or any other seat's token or invite
    code (each invite may appear only in the create answer, each token only in its seat's join)."""
    from tests.api.table_helpers import assert_table_hides_secrets, mover_and_action
    from service.core.extensions import db
    from service.games.models import Deal, Game
    scan = Scan()
    caplog.set_level(logging.INFO)

    def http(where, method, path, body=None, seat=None):
        headers = {"Authorization": f"Bearer {tokens[seat]}"} if seat is not None else {}
        response = client.open(path, method=method, json=body, headers=headers)
        assert response.status_code < 300, (where, response.status_code, response.get_json())
        scan.output(f"http:{where}", "".join(f"{k}: {v}\n" for k, v in response.headers.items())
                    + response.get_data(as_text=True))
        return response.get_json()

    tokens: dict[int, str] = {}
    created = http("create", "POST", "/games", {"name": "P0", "seats": seats, "rules": {"target": TARGET}})
    game_id, tokens[0] = created["game_id"], created["token"]
    scan.secret(created["token"], "http:create")
    for invite in created["invites"]:
        scan.secret(invite["invite_code"], "http:create")
        joined = http(f"join {invite['seat']}", "POST", f"/games/{game_id}/join",
                      {"invite_code": invite["invite_code"], "name": f"P{invite['seat']}"})
        tokens[joined["seat"]] = joined["token"]
        scan.secret(joined["token"], f"http:join {invite['seat']}")
    events: dict[int, list] = {seat: [] for seat in range(seats)}
    for step in range(5000):
        with app.app_context():
            state = db.session.get(Game, game_id).state
            deals = db.session.query(Deal).filter_by(game_id=game_id).all()
            db.session.expunge_all()
        views = {}
        for seat in range(seats):
            views[seat] = http(f"view {step} seat {seat}", "GET", f"/games/{game_id}", seat=seat)
            after = events[seat][-1]["seq"] if events[seat] else 0
            page = http(f"events {step} seat {seat}", "GET", f"/games/{game_id}/events?after={after}&limit=500",
                        seat=seat)
            events[seat] += page["events"]
            check_deck_order(json.dumps(views[seat]) + json.dumps(page), deals, f"step {step} seat {seat}")
            if views[seat]["status"] != "finished":
                assert_table_hides_secrets(views[seat], events[seat], state, seat)
        if views[0]["status"] == "finished":
            break
        seat, action = mover_and_action(views)
        answer = http(f"move {step}", "POST", f"/games/{game_id}/actions", action, seat=seat)
        with app.app_context():  # as they stand after the move (a hand it ended is revealed in the answer)
            deals = db.session.query(Deal).filter_by(game_id=game_id).all()
            db.session.expunge_all()
        check_deck_order(json.dumps(answer), deals, f"move {step}")
    assert views[0]["status"] == "finished"
    for record in caplog.records:
        scan.output(f"log {record.name}", record.getMessage() + (record.exc_text or ""))
    scan.verdict()
