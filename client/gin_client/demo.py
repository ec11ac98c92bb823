"""A whole match between two bots on a real server, in one command:

    python -m gin_client.demo [--preset standard] [--option target=50] [--verbose] [--server URL]

Starts the service (gunicorn, 2 workers) on a free loopback port over a scratch SQLite database,
creates a game, joins it, lets two reference bots play it to the end and prints the score sheet
hand by hand. Everything it made is removed when it ends. Starting the service needs it installed
beside the client (the project's `make install`; `make demo` runs this); with --server URL the
demo plays on a server already running instead, and needs only the client (`pip install ./client`).
"""
from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager

import requests

from .api import Api, NetworkError, ServiceError
from .bots import reference
from .cli.cards import UsageError
from .cli.common import exit_status_of, parse_option
from .cli.history import score_sheet


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def migrate(database_url: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url}
    env.pop("FLASK_APP", None)
    upgrade = subprocess.run([sys.executable, "-m", "flask", "--app", "service", "db", "upgrade"],
                             env=env, capture_output=True, text=True)
    if upgrade.returncode != 0:
        raise RuntimeError("database migration failed:\n" + upgrade.stderr[-2000:])


def start_gunicorn(database_url: str, port: int, workers: int = 2, log_file=None) -> subprocess.Popen:
    """gunicorn serving the app on 127.0.0.1:port, answering /health; the caller stops it."""
    env = {**os.environ, "DATABASE_URL": database_url}
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:service.core.server", "--workers", str(workers),
         "--bind", f"127.0.0.1:{port}",
         "--timeout", "90", "--graceful-timeout", "5", "service:create_app()"],
        env=env, stdout=log_file or subprocess.DEVNULL, stderr=log_file or subprocess.DEVNULL)
    try:
        wait_until_up(f"http://127.0.0.1:{port}", server)
    except BaseException:
        stop(server)
        raise
    return server


def stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@contextmanager
def running_service(workers: int = 2, log_file=None):
    """A migrated scratch SQLite database and gunicorn serving it on 127.0.0.1; yields the base URL."""
    with tempfile.TemporaryDirectory(prefix="gin-demo-") as folder:
        database_url = "sqlite:///" + os.path.join(folder, "demo.sqlite3")
        migrate(database_url)
        port = free_port()
        server = start_gunicorn(database_url, port, workers, log_file)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            stop(server)


def wait_until_up(url: str, server: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with status {server.returncode}")
        try:
            if requests.get(url + "/health", timeout=10).status_code == 200:
                return
        except requests.RequestException:  # not listening yet, or a worker still booting
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the service did not answer at {url} within {timeout:g} s")


def play_demo(url: str, rules: dict, names=("North", "South"), knock_at=None, poll_delay: float = 0.05,
              wait: int = 30) -> dict:
    """Create a game, join it, let two bots play it out; returns seat 0's final view."""
    created = Api(url).create_game({"name": names[0], "rules": rules})
    joined = Api(url).join_game(created["game_id"], {"invite_code": created["invite_code"], "name": names[1]})
    game_id = created["game_id"]
    # Each bot long-polls: the server answers the moment the other has moved (its gevent workers hold
    # a waiting request for nothing), where polling on a timer spent a minute a match waiting.
    reference.play_all(url, [(game_id, created["token"]), (game_id, joined["token"])], knock_at=knock_at,
                       wait=wait, poll_delay=poll_delay, max_delay=max(poll_delay, 0.2))
    view, _ = Api(url, created["token"]).view(game_id)
    return view


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gin_client.demo", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="example:\n  python -m gin_client.demo --preset oklahoma --verbose")
    parser.add_argument("--preset", default="standard", help="rules preset (default standard)")
    parser.add_argument("--option", action="append", metavar="KEY=VALUE", help="override a rule (repeatable)")
    parser.add_argument("--wait", type=int, default=30,
                        help="bots long-poll this many seconds (default 30; 0: poll on a timer instead)")
    parser.add_argument("--verbose", action="store_true", help="log every bot decision and the server's log")
    parser.add_argument("--server", metavar="URL", help="play on this running server rather than starting one")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(message)s", stream=sys.stderr)
    rules: dict = {"preset": args.preset}
    for option in args.option or []:
        try:
            key, value = parse_option(option)
        except UsageError as exc:
            parser.error(str(exc))
        rules[key] = value
    if args.server is None and importlib.util.find_spec("service") is None:
        print("demo: starting a server needs the service installed too (make install in the project); "
              "or play on a running one with --server URL", file=sys.stderr)
        return 1
    started = time.monotonic()
    try:
        if args.server:
            print(f"Two bots are playing a {args.preset} match on {args.server}...", flush=True)
            view = play_demo(args.server.rstrip("/"), rules, wait=args.wait)
        else:
            with running_service(log_file=sys.stderr if args.verbose else None) as url:
                print(f"Service up at {url}; two bots are playing a {args.preset} match...", flush=True)
                view = play_demo(url, rules, wait=args.wait)
    except ServiceError as exc:
        print(f"demo: {exc.detail} [{exc.code}]", file=sys.stderr)
        return exit_status_of(exc)
    except (RuntimeError, NetworkError) as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 1
    print(f"Game {view.get('game_id', '')}, {view.get('hand_number')} hands in {time.monotonic() - started:.1f} s\n")
    print(score_sheet(view))
    return 0


if __name__ == "__main__":
    sys.exit(main())
