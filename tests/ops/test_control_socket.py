"""Two gunicorn instances on one host (the Procfile's web line, on two ports) each have a control
socket of their own (service/core/server.py), named after their bind: `gunicornc -s` reaches each
one's own master, and stopping one leaves the other's socket in place. (gunicorn's default is one
path per user, which the second instance took over and the first one's stop removed.)"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import requests

from ..conftest import ROOT, launch_gunicorn, stop_gunicorn

GUNICORNC = str(Path(sys.executable).with_name("gunicornc"))


def ask(socket_path: Path, command: str) -> dict:
    done = subprocess.run([GUNICORNC, "-s", str(socket_path), "-c", command, "-j"], capture_output=True,
                          text=True, timeout=30, check=True)
    return json.loads(done.stdout)


def test_each_instance_has_its_own_control_socket(tmp_path):
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {"XDG_RUNTIME_DIR": str(runtime), "HOME": str(tmp_path),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'gin.sqlite3'}"}
    subprocess.run([sys.executable, "-m", "flask", "--app", "service", "db", "upgrade"],
                   env={**os.environ, **env}, check=True, capture_output=True, cwd=ROOT)
    started = []
    try:
        for _ in range(2):
            started.append(launch_gunicorn("service:create_app()", env,
                                           lambda url: requests.get(url + "/health", timeout=5).status_code == 200,
                                           workers=1, log_path=tmp_path / "gunicorn.log"))
        sockets = [runtime / f"gunicorn-127.0.0.1-{base.rsplit(':', 1)[1]}.ctl" for _, base in started]
        for (process, _), path in zip(started, sockets):
            for _ in range(100):  # (made once the first workers are up)
                if path.exists():
                    break
                time.sleep(0.05)
            assert ask(path, "show stats")["pid"] == process.pid
        assert not (runtime / "gunicorn.ctl").exists()
        stop_gunicorn(started[0][0])
        assert not sockets[0].exists() and sockets[1].exists()
        assert ask(sockets[1], "show stats")["pid"] == started[1][0].pid
    finally:
        for process, _ in started:
            if process.poll() is None:
                stop_gunicorn(process)
