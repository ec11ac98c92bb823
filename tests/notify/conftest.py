"""Fixtures for the notification tests: an app with an injected clock, a real SMTP server catching
mail on a loopback port (it can be stopped and started again for outages), the service's own
SMTP listener, and a small HTTP server receiving webhooks."""
from __future__ import annotations

import email
import email.policy
import json
import re
import smtplib
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from aiosmtpd.controller import Controller

from tests.conftest import free_port

DOMAIN = "play.test"
START = datetime(2030, 1, 1, 12, 0, tzinfo=timezone.utc)


class FakeClock:
    """The app's CLOCK: time moves only when a test moves it."""

    def __init__(self):
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


class Catcher:
    """What a mail server received: (envelope recipients, parsed message)."""

    def __init__(self):
        self.messages: list[tuple[list[str], email.message.EmailMessage]] = []
        self.arrived: list[float] = []  # time.perf_counter() when each message was taken
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("refused"):
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.original_content or envelope.content,
                                           policy=email.policy.default)
        with self.lock:
            self.messages.append((list(envelope.rcpt_tos), message))
            self.arrived.append(time.perf_counter())
        return "250 OK"

    def to(self, address: str) -> list:
        with self.lock:
            return [m for rcpts, m in self.messages if address in rcpts]

    def clear(self) -> None:
        with self.lock:
            self.messages.clear()
            self.arrived.clear()


class MailServer:
    """A real SMTP server (aiosmtpd) on a fixed loopback port, switchable off and on. It offers
    SMTPUTF8 (aiosmtpd's controller does by default) unless `smtputf8` is False."""

    def __init__(self, smtputf8: bool = True):
        self.port = free_port()
        self.catcher = Catcher()
        self.controller = None
        self.smtputf8 = smtputf8

    def start(self) -> None:
        self.controller = Controller(self.catcher, hostname="127.0.0.1", port=self.port,
                                     enable_SMTPUTF8=self.smtputf8)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture(scope="session")
def mail_server():
    server = MailServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def clock():
    return FakeClock()


@pytest.fixture(scope="session")
def notify_app(db_config, mail_server, clock, tmp_path_factory):
    from service import create_app
    return create_app({
        "TESTING": True, **db_config, "CLOCK": clock, "RATELIMIT_ENABLED": False,
        "MAIL_DOMAIN": DOMAIN, "BASE_URL": "http://gin.test", "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": mail_server.port, "SMTP_TIMEOUT": 5.0, "WEBHOOK_ALLOW_PRIVATE": True,
        "WEBHOOK_TIMEOUT": 5.0, "PUSH_ALLOW_PRIVATE": True,  # push services on loopback (tests/notify/push_service.py)
        "VAPID_KEY_FILE": str(tmp_path_factory.mktemp("vapid") / "vapid_private.pem")})


@pytest.fixture
def nclient(notify_app, mail_server, clock):
    """A test client on an empty database, an empty mail box and the clock at START."""
    from service.core.extensions import db
    with notify_app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
    if mail_server.controller is None:
        mail_server.start()
    mail_server.catcher.clear()
    clock.now = START
    return notify_app.test_client()


@pytest.fixture
def listener(notify_app):
    """The service's own SMTP listener (moves by email) on a free loopback port."""
    from service.notify.inbound.smtpd import controller
    port = free_port()
    server = controller(notify_app, "127.0.0.1", port)
    server.start()
    yield port
    server.stop()


class Receiver:
    """A webhook receiver: records every request; `fail_next` answers with 503 that many times."""

    def __init__(self):
        self.requests: list[dict] = []
        self.fail_next = 0
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0))).decode("utf-8")
                with receiver.lock:
                    failing = receiver.fail_next > 0
                    receiver.fail_next -= failing
                    receiver.requests.append({"headers": dict(self.headers), "body": body, "failed": failing,
                                              "path": self.path, "header_list": self.headers.items()})
                self.send_response(503 if failing else 204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.port = free_port()
        self.Handler = Handler
        self.server = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def start(self) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), self.Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def delivered(self) -> list[dict]:
        with self.lock:
            return [r for r in self.requests if not r["failed"]]


@pytest.fixture
def receiver():
    server = Receiver()
    server.start()
    yield server
    server.stop()


# -- helpers ------------------------------------------------------------------------------------

def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def confirm_addresses(app, *addresses: str) -> None:
    """Addresses whose owners confirmed them already (as in an earlier game): game mail goes to
    them at once. tests/notify/test_confirmation.py goes through the confirmation itself."""
    from service.core.extensions import db
    from service.notify.consent.addresses import normalised
    from service.notify.models import MailAddress
    with app.app_context():
        for address in {normalised(a) for a in addresses if a}:
            if db.session.get(MailAddress, address) is None:
                db.session.add(MailAddress(address=address, confirmed_at=START))
        db.session.commit()


def start_game(client, rules=None, move_time_hours=72, contact0=None, contact1=None,
               confirmed: bool = True) -> dict:
    """A started game with contacts: {"id", "tokens", "created", "joined"}. Their email
    addresses count as confirmed by their owners unless `confirmed` is False."""
    if confirmed:
        confirm_addresses(client.application, *(c.get("email") for c in (contact0 or {}, contact1 or {})))
    body = {"name": "Ann", "rules": rules or {"preset": "standard"}, "move_time_hours": move_time_hours,
            **(contact0 or {})}
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.get_json()
    created = created.get_json()
    joined = client.post(f"/games/{created['game_id']}/join",
                         json={"invite_code": created["invite_code"], "name": "Bob", **(contact1 or {})})
    assert joined.status_code == 201, joined.get_json()
    joined = joined.get_json()
    return {"id": created["game_id"], "tokens": {0: created["token"], 1: joined["token"]},
            "created": created, "joined": joined}


def view(client, game, seat) -> dict:
    response = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][seat]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def act(client, game, seat, action):
    return client.post(f"/games/{game['id']}/actions", json=action, headers=auth(game["tokens"][seat]))


def deliver(app, workers: int = 1) -> None:
    """Run worker loops until nothing is due (with `workers` of them at once, in threads)."""
    from service.notify.worker import Worker

    def run(name):
        with app.app_context():
            Worker(name).run(until_idle=True)
    if workers == 1:
        run("w0")
        return
    threads = [threading.Thread(target=run, args=(f"w{i}",)) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)


def outbox_rows(app, **filters) -> list:
    from service.core.extensions import db
    from service.notify.models import OutboxMessage
    with app.app_context():
        rows = db.session.query(OutboxMessage).filter_by(**filters).order_by(OutboxMessage.id).all()
        db.session.expunge_all()
        return rows


def reply(port: int, to: str, body: str, subject: str = "Re: your turn", sender: str = "ann@example.org",
          message_id: str | None = None, quoted: str | None = None) -> None:
    """Send a reply the way a mail client would: through SMTP to the service's listener."""
    from email.message import EmailMessage
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = message_id or email.utils.make_msgid(domain="example.org")
    text = body + ("\n\nOn Mon, 1 Jan 2030, Gin Rummy <gin@play.test> wrote:\n" +
                   "\n".join("> " + line for line in quoted.splitlines()) if quoted else "")
    message.set_content(text)
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
        smtp.send_message(message)


_ONE_CLICK = re.compile(r"^<(https?://[!-~]+/unsubscribe/([A-Za-z0-9_-]{43}))>, "
                        r"<mailto:(unsubscribe\+\2@[A-Za-z0-9.-]+)\?subject=unsubscribe>$")


def one_click(message) -> tuple[str, str]:
    """A mail's unsubscribe (RFC 8058 with RFC 2369's mailto), as the email package read it
    (email.policy.default: the Catcher parses each mail so): (the URL to POST to, the address to
    mail). Asserts both headers' form."""
    parsed = message
    assert parsed["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click", parsed["List-Unsubscribe-Post"]
    assert len(parsed.get_all("List-Unsubscribe")) == 1
    found = _ONE_CLICK.match(str(parsed["List-Unsubscribe"]))
    assert found, parsed["List-Unsubscribe"]
    return found.group(1), found.group(3)


def flat(body: str) -> str:
    """Mail text with its line wrapping undone (words joined by single spaces), for phrases."""
    return " ".join(body.split())


def reply_address(message) -> str:
    return email.utils.parseaddr(message["Reply-To"])[1]


def text(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")


def wait_for(predicate, timeout: float = 10.0):
    """Poll a condition that another thread makes true (never asserts on how long it took)."""
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    return predicate()


def payload(request: dict) -> dict:
    return json.loads(request["body"])


class Tarpit:
    """A webhook receiver that accepts connections and never answers (until `release()`), or,
    with `drip`, answers a 200 one byte every `drip` seconds: no single wait is long, the whole
    answer takes long. Counts the connections it holds."""

    ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Padding: " + b"." * 40 + b"\r\n\r\n"

    def __init__(self, drip: float | None = None):
        import socket
        self.drip = drip
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.held: list = []
        self.released = threading.Event()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def _accept(self) -> None:
        while not self.released.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                self.held.append(connection)
            if self.drip is not None:
                threading.Thread(target=self._trickle, args=(connection,), daemon=True).start()

    def _trickle(self, connection) -> None:
        for byte in self.ANSWER:
            if self.released.wait(self.drip):
                return
            try:
                connection.sendall(bytes([byte]))
            except OSError:
                return

    def holding(self) -> int:
        with self.lock:
            return len(self.held)

    def release(self) -> None:
        self.released.set()
        self.listener.close()
        with self.lock:
            for connection in self.held:
                connection.close()


@pytest.fixture
def tarpits():
    """make(drip=None) -> a Tarpit; all released at the end."""
    made = []

    def make(drip: float | None = None) -> Tarpit:
        made.append(Tarpit(drip))
        return made[-1]
    yield make
    for tarpit in made:
        tarpit.release()


@pytest.fixture
def configure(notify_app):
    """configure(NAME=value, ...): app settings for this test only, put back afterwards."""
    saved = {}

    def change(**values):
        for name in values:
            saved.setdefault(name, notify_app.config.get(name, _MISSING))
        notify_app.config.update(values)
    yield change
    for name, value in saved.items():
        if value is _MISSING:
            notify_app.config.pop(name, None)
        else:
            notify_app.config[name] = value


_MISSING = object()
