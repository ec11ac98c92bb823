"""A real service for the client's tests: gunicorn with 2 sync workers on a free loopback port over
a migrated scratch SQLite file (the same way `python -m gin_client.demo` runs it)."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from gin_client import demo

GIN = (sys.executable, "-m", "gin_client.cli")  # the `gin` command, as `pip install` puts it on the PATH
REFERENCE_BOT = (sys.executable, "-m", "gin_client.bots.reference")
GIN_BOT = str(Path(sys.executable).parent / "gin-bot")  # the account bot, as the Procfile runs it


@pytest.fixture(scope="session")
def gin_server(tmp_path_factory):
    """Base URL of a running service. Started here with the demo's own code (which waits for the
    workers to boot) rather than tests/conftest.py's live_server, whose 1 s health check can time out
    while a worker is still importing the app on a busy machine."""
    folder = tmp_path_factory.mktemp("gin-server")
    database_url = f"sqlite:///{folder / 'gin.sqlite3'}"
    demo.migrate(database_url)
    port = demo.free_port()
    with open(folder / "gunicorn.log", "w") as log:
        server = demo.start_gunicorn(database_url, port, log_file=log)
        yield f"http://127.0.0.1:{port}"
        demo.stop(server)


class RestartableServer:
    """The service under gunicorn on a scratch SQLite file and a fixed loopback port, which a test
    stops and starts again: a server restart, with the games kept."""

    def __init__(self, folder: Path):
        self.database_url = f"sqlite:///{folder / 'restart.sqlite3'}"
        demo.migrate(self.database_url)
        self.port = demo.free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.start()

    def start(self) -> None:
        self.process = demo.start_gunicorn(self.database_url, self.port)

    def stop(self) -> None:
        if self.process is not None:
            demo.stop(self.process)
            self.process = None


@pytest.fixture
def restartable_server(tmp_path):
    server = RestartableServer(tmp_path)
    yield server
    server.stop()


class Player:
    """One person at their own terminal: the `gin` command with its own config folder."""

    def __init__(self, home: Path, server: str):
        self.home, self.server = home, server
        self.config = home / "cfg" / "gin-rummy" / "games.json"
        home.mkdir(parents=True, exist_ok=True)

    def env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIN_")}
        env.update({"XDG_CONFIG_HOME": str(self.home / "cfg"), "GIN_SERVER": self.server, "HOME": str(self.home),
                    "PYTHONIOENCODING": "utf-8"})
        return env

    def run(self, *args: str, check: int | None = 0, timeout: float = 60) -> subprocess.CompletedProcess:
        done = subprocess.run([*GIN, *args], env=self.env(), cwd=self.home,
                              capture_output=True, text=True, encoding="utf-8", timeout=timeout)
        if check is not None:
            assert done.returncode == check, f"gin {' '.join(args)} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done

    def json(self, *args: str) -> dict:
        return json.loads(self.run(*args, "--json").stdout)

    def popen(self, *args: str) -> subprocess.Popen:
        return subprocess.Popen([*GIN, *args], env=self.env(), cwd=self.home,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")

    def games(self) -> dict:
        return json.loads(self.config.read_text())["games"]


@pytest.fixture
def players(tmp_path, gin_server):
    return Player(tmp_path / "ann", gin_server), Player(tmp_path / "bob", gin_server)


class DroppingProxy:
    """A loopback TCP proxy that can lose one response: the request reaches the server (and is
    applied there), but the client sees the connection close instead of the answer."""

    def __init__(self, upstream_port: int):
        self.upstream_port = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.drop_next = threading.Event()
        self.dropped = 0
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._handle, args=(client,), daemon=True).start()

    def _handle(self, client):
        upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
        threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()
        try:
            while data := upstream.recv(65536):
                if self.drop_next.is_set():
                    self.drop_next.clear()
                    self.dropped += 1
                    break
                client.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (client, upstream):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                sock.close()

    @staticmethod
    def _pump(source, target):
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass

    def close(self):
        self.closed = True
        self.listener.close()
