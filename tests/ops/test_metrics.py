"""GET /metrics after a match through a real gunicorn with 2 workers, read with prometheus_client's
own parser: the counts are what was done, summed over both workers; refused to a caller that is
neither on loopback nor holds METRICS_TOKEN."""
from __future__ import annotations

import threading
import time

import requests
from prometheus_client.parser import text_string_to_metric_families

from tests.api.helpers import choose

from .conftest import GAME, METRICS_TOKEN, requests_counted_by


def scrape(served, **headers) -> dict:
    """{(sample name, frozen labels): value} of one scrape."""
    answer = requests.get(served.base_url + "/metrics", headers=headers, timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.headers["Content-Type"].startswith("text/plain")
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(answer.text) for sample in family.samples}


def value(samples: dict, name: str, **labels) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_counts_after_a_match_are_what_was_done_on_both_workers(served):
    samples = scrape(served)
    for kind, made in served.moves.items():
        assert value(samples, "gin_moves_total", kind=kind) == made, kind
    assert sum(v for (name, _), v in samples.items() if name == "gin_moves_total") == sum(served.moves.values())
    for (route, method, status), asked in served.requests.items():
        if route == "/metrics":
            continue
        assert value(samples, "gin_http_requests_total", route=route, method=method, status=status) == asked, \
            (route, method, status)
    # No raw path, so no game id, in any label.
    assert not any(served.game_id in dict(labels).get("route", "") for _, labels in samples)
    moves = served.requests[(GAME + "/actions", "POST", "200")]
    assert value(samples, "gin_http_request_seconds_count", route=GAME + "/actions") == sum(
        asked for (route, _, _), asked in served.requests.items() if route == GAME + "/actions") > moves > 0
    assert value(samples, "gin_games_active") == 0  # the one game is over
    assert value(samples, "gin_outbox_pending") >= 1  # its webhook calls: no worker runs here
    assert ("gin_db_pool_in_use", frozenset()) in samples
    # Both workers counted: each process keeps its own files, and the scrape summed them.
    assert len(requests_counted_by(served.metrics_dir)) == 2, sorted(p.name for p in served.metrics_dir.iterdir())


def test_waiting_clients_are_counted_across_workers(served):
    """A stream held open shows in gin_waiting_clients{kind="stream"}, whichever worker serves it."""
    status, created, _ = served.call("POST", "/games", "/games", {"name": "Cy"})
    path = f"/games/{created['game_id']}"
    assert status == 201 and served.call("POST", path + "/join", GAME + "/join",
                                         {"invite_code": created["invite_code"], "name": "Di"})[0] == 201
    assert value(scrape(served), "gin_games_active") == 1
    before = value(scrape(served), "gin_waiting_clients", kind="stream")
    stream = requests.get(served.base_url + path + "/stream", stream=True, timeout=10,
                          headers={"Authorization": f"Bearer {created['token']}"})
    try:
        lines = stream.iter_lines()
        assert next(lines) == b"retry: 2000"  # the server is in the stream's loop: it counts
        assert value(scrape(served), "gin_waiting_clients", kind="stream") == before + 1
    finally:
        stream.close()
    served.count(GAME + "/stream", "GET", 200, path + "/stream")


def test_long_polls_are_counted_while_they_wait(served):
    """A long-poll waiting for a move shows in gin_waiting_clients{kind="long-poll"}, and no more
    once it is answered."""
    status, created, _ = served.call("POST", "/games", "/games", {"name": "Ed"})
    path = f"/games/{created['game_id']}"
    assert status == 201
    status, joined, _ = served.call("POST", path + "/join", GAME + "/join",
                                    {"invite_code": created["invite_code"], "name": "Fay"})
    assert status == 201
    tokens = {0: created["token"], 1: joined["token"]}
    seen = joined["game"]
    before = value(scrape(served), "gin_waiting_clients", kind="long-poll")
    answers = []
    poll = threading.Thread(target=lambda: answers.append(served.call(
        "GET", f"{path}?wait=30", GAME, token=tokens[1 - seen["to_move"]],
        headers={"If-None-Match": f'"{seen["version"]}"'})))
    poll.start()
    try:
        counted = None
        for _ in range(200):  # until the worker that took it counts it waiting
            counted = value(scrape(served), "gin_waiting_clients", kind="long-poll")
            if counted == before + 1:
                break
            time.sleep(0.05)
        assert counted == before + 1
    finally:
        mover = tokens[seen["to_move"]]
        _, mine, _ = served.call("GET", path, GAME, token=mover)
        assert served.call("POST", path + "/actions", GAME + "/actions", choose(mine), token=mover)[0] == 200
        poll.join(60)
    assert answers and answers[0][0] == 200
    assert value(scrape(served), "gin_waiting_clients", kind="long-poll") == before


def test_refused_to_a_caller_not_on_loopback_unless_it_holds_the_token(served):
    remote = {"X-Forwarded-For": "203.0.113.9"}  # through the trusted proxy, from elsewhere
    refused = requests.get(served.base_url + "/metrics", headers=remote, timeout=10)
    assert refused.status_code == 403 and refused.headers["Content-Type"] == "application/problem+json"
    assert refused.json()["code"] == "metrics-forbidden" and "gin_" not in refused.text
    wrong = requests.get(served.base_url + "/metrics", headers={**remote, "Authorization": "Bearer nope"},
                         timeout=10)
    assert wrong.status_code == 403
    assert ("gin_moves_total", frozenset({("kind", "draw")})) in scrape(
        served, **remote, Authorization=f"Bearer {METRICS_TOKEN}")


def test_metrics_can_be_turned_off_and_moved(app):
    from service import create_app
    config = {key: app.config[key] for key in ("SQLALCHEMY_DATABASE_URI",)}
    config.update({k: v for k, v in app.config.items() if k == "SQLALCHEMY_ENGINE_OPTIONS"})
    off = create_app({"TESTING": True, **config, "METRICS_ENABLED": False}).test_client()
    assert off.get("/metrics").status_code == 404
    moved = create_app({"TESTING": True, **config, "METRICS_PATH": "/internal/metrics"}).test_client()
    assert moved.get("/metrics").status_code == 404
    assert b"gin_http_requests_total" in moved.get("/internal/metrics").data


def families_defined() -> set[str]:
    """Every gin_ family the code defines (prometheus_client's names, without _total) and the
    gauges read at scrape time."""
    import service.app  # noqa: F401 - every feature's metrics and scraped gauges registered
    from prometheus_client import REGISTRY

    from service.core import metrics
    return {family.name for family in REGISTRY.collect() if family.name.startswith("gin_")} | \
        {name for name, _, _ in metrics.scraped()}


def test_every_family_is_in_the_first_scrape_of_a_fresh_server(tmp_path):
    """Before anything was counted, the first scrape of a fresh gunicorn (multiprocess mode) holds
    every family, each labelled one with a series per label value known beforehand, at zero."""
    from ..conftest import start_gunicorn, stop_gunicorn
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    process, base_url = start_gunicorn(f"sqlite:///{tmp_path / 'fresh.sqlite3'}", workers=1,
                                       env={"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)})
    try:
        first = requests.get(base_url + "/metrics", timeout=10)
    finally:
        stop_gunicorn(process)
    assert first.status_code == 200
    families = {family.name: family for family in text_string_to_metric_families(first.text)}
    found = {name for name, family in families.items() if family.samples}
    assert families_defined() <= found, families_defined() - found
    samples = {(s.name, frozenset(s.labels.items())): s.value for f in families.values() for s in f.samples}
    from service.app import INBOUND_OUTCOMES, WAITING_KINDS, WAKEUP_TRANSPORTS
    channels = ("mail", "webhook", "push")  # each registered channel's label (notify/channels.py)
    from service.games.action_schemas import ACTION_TYPES
    for name, label, values in (("gin_moves_total", "kind", ACTION_TYPES),
                                ("gin_waiting_clients", "kind", WAITING_KINDS),
                                ("gin_deliveries_total", "channel", channels),
                                ("gin_outbox_failures_total", "channel", channels),
                                ("gin_mail_inbound_total", "outcome", INBOUND_OUTCOMES),
                                ("gin_wakeup_reconnects_total", "transport", WAKEUP_TRANSPORTS)):
        for each in values:
            assert samples[(name, frozenset({(label, each)}))] == 0, (name, each)
    assert samples[("gin_ready", frozenset())] == 1
    # DB_POOL_SIZE 5 + DB_MAX_OVERFLOW 10 of the one worker; not also the `flask db upgrade` run
    # before it with the same directory, a process gone whose live gauges the scrape forgot.
    assert samples[("gin_db_pool_capacity", frozenset())] == 15
    assert any(path.name.startswith("counter_") for path in metrics_dir.iterdir())
    assert samples[("gin_http_requests_total", frozenset({("route", "/metrics"), ("method", "GET"),
                                                          ("status", "200")}))] == 1  # the scrape itself


def test_every_label_value_the_code_counts_with_is_made_at_start():
    """The app factory's lists (service/app/__init__.py) hold every literal value the code passes
    to metrics.waiting, metrics.mail_received and notify's Outcome: a new one is not forgotten."""
    import re

    from service.app import INBOUND_OUTCOMES, WAITING_KINDS

    from ..conftest import ROOT
    counted = {"waiting": set(), "inbound": set()}
    for path in (ROOT / "service").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        counted["waiting"] |= set(re.findall(r"metrics\.waiting\(\"([\w-]+)\"\)", text))
        # Outcome("played", ...), Outcome("confirmed" if ... else "ignored", ...), mail_received("failed")
        for first in re.findall(r"(?:metrics\.mail_received|Outcome)\(\s*(\"[\w-]+\"(?: if [^,]+? else \"[\w-]+\")?)",
                                text):
            counted["inbound"] |= set(re.findall(r"\"([\w-]+)\"", first))
    assert counted["waiting"] and counted["waiting"] <= set(WAITING_KINDS), counted["waiting"]
    assert len(counted["inbound"]) >= 8 and counted["inbound"] <= set(INBOUND_OUTCOMES), counted["inbound"]


class Forwarder:
    """A TCP forwarder on a loopback port to `target` (host, port), whose connections the test
    can cut all at once, as a network fault or a server restart does."""

    def __init__(self, target: tuple[str, int]):
        import socket
        self.target, self.pairs = target, []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        import socket
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            self.pairs.append((client, server))
            for one, other in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(one, other), daemon=True).start()

    @staticmethod
    def _pipe(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for each in (source, sink):
                try:
                    each.close()
                except OSError:
                    pass

    def cut(self) -> int:
        """Shut every connection made so far; how many."""
        import socket
        cut, self.pairs = self.pairs, []
        for pair in cut:
            for each in pair:
                try:
                    each.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        return len(cut)

    def close(self):
        self.cut()
        self.listener.close()


def test_a_wakeup_listener_that_loses_its_connection_is_counted_and_listens_again(app):
    """The listener's connection (to Redis; to PostgreSQL when the tests have one) goes through a
    forwarder that the test cuts: the loss is counted once, and the listener listens again."""
    import sqlalchemy as sa

    from service.core import metrics, wakeup
    targets = {"redis": ("127.0.0.1", 6379)}
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        url = sa.engine.make_url(app.config["SQLALCHEMY_DATABASE_URI"])
        targets["postgresql"] = (url.host or "127.0.0.1", url.port or 5432)
    for transport, target in targets.items():
        forwarder = Forwarder(target)
        if transport == "redis":
            with app.app_context():
                from service.core.extensions import db
                hub = wakeup.Hub(db.engine, redis_url=f"redis://127.0.0.1:{forwarder.port}")
        else:
            hub = wakeup.Hub(sa.create_engine(url.set(host="127.0.0.1", port=forwarder.port)))
        counted = metrics.WAKEUP_RECONNECTS.labels(transport)._value.get
        try:
            assert hub.ready(timeout=10), transport
            before = counted()
            assert forwarder.cut() >= 1
            for _ in range(200):  # the listener notices at its next read (it waits 5 s at most)
                if counted() > before:
                    break
                time.sleep(0.05)
            assert counted() == before + 1, transport
            assert hub.listening.wait(15), f"{transport}: not listening again"
        finally:
            hub.close()
            forwarder.close()
