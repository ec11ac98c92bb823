#!/usr/bin/env python3
"""Screenshots of the seat page for the README: docs/screenshot-desktop.png and
docs/screenshot-phone.png.

    .venv/bin/python scripts/screenshots.py      # needs chromium on PATH (apt-get install chromium)

Serves the service on a scratch SQLite file (gunicorn, a free loopback port), plays a first hand
over the HTTP API (knock when allowed, else the view's suggested discard) and a little of the next,
then opens Ann's seat in Chromium at desktop and phone widths. Only the public API and the page.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(folder: str):
    url = f"sqlite:///{folder}/shots.sqlite3"
    env = {**os.environ, "DATABASE_URL": url, "RATELIMIT_ENABLED": "false"}
    subprocess.run([sys.executable, "-m", "flask", "--app", "service", "db", "upgrade"], cwd=ROOT, env=env,
                   check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "--workers", "1", "--worker-class", "gthread",
                               "--threads", "8", "--bind", f"127.0.0.1:{port}", "service:create_app()"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if requests.get(base + "/health", timeout=2).ok:
                return server, base
        except requests.RequestException:
            time.sleep(0.1)
    server.terminate()
    raise SystemExit("the service did not start")


def choose(view: dict) -> dict:
    legal = view["legal_actions"]
    for kind in ("big_gin", "knock"):
        if any(a["type"] == kind for a in legal):
            return next(a for a in legal if a["type"] == kind)
    if any(a["type"] == "pass" for a in legal):
        return {"type": "pass"}
    if any(a.get("from") == "stock" for a in legal):
        return {"type": "draw", "from": "stock"}
    return {"type": "discard", "card": view["arrangement"]["best_discard"]}


def play(base: str, game: str, tokens: dict, until) -> dict:
    """Move for whichever seat is to move until until(view of seat 0) holds."""
    while True:
        views = {s: requests.get(f"{base}/games/{game}", headers={"Authorization": f"Bearer {t}"}).json()
                 for s, t in tokens.items()}
        if until(views[0]):
            return views[0]
        seat = views[0]["to_move"]
        answer = requests.post(f"{base}/games/{game}/actions", json=choose(views[seat]),
                               headers={"Authorization": f"Bearer {tokens[seat]}"})
        answer.raise_for_status()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        server, base = serve(folder)
        try:
            created = requests.post(base + "/games", json={"name": "Ann", "rules": {"target": 100}}).json()
            game = created["game_id"]
            joined = requests.post(f"{base}/games/{game}/join",
                                   json={"name": "Bob", "invite_code": created["invite_code"]}).json()
            tokens = {0: created["token"], 1: joined["token"]}
            play(base, game, tokens, lambda v: v["hand_number"] >= 2 or v["status"] != "active")
            # A few turns into the second hand, stopping when Ann has drawn and must discard.
            play(base, game, tokens, lambda v: v["status"] != "active" or
                 (v["phase"] == "discard" and v["to_move"] == 0 and len(v["discard_pile"]) >= 3))
            shoot(base, game, created["token"])
        finally:
            server.terminate()
            server.wait()


def shoot(base: str, game: str, token: str) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        for name, viewport in (("desktop", {"width": 1200, "height": 1000}), ("phone", {"width": 360, "height": 900})):
            context = browser.new_context(viewport=viewport, device_scale_factor=1 if name == "desktop" else 2)
            page = context.new_page()
            page.goto(f"{base}/play/{game}#token={token}")
            page.get_by_role("button", name="Continue").click()  # past the first hand's result
            page.get_by_role("button", name="Show hint").click()
            page.wait_for_selector("#events li")
            page.screenshot(path=str(DOCS / f"screenshot-{name}.png"))
            context.close()
        browser.close()
    print("wrote", DOCS / "screenshot-desktop.png", "and", DOCS / "screenshot-phone.png")


if __name__ == "__main__":
    main()
