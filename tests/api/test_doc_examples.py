"""docs/api.md's curl walk-through and its deal-verification snippet, and docs/engine.md's use of the
engine, work exactly as written."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
import requests

from ..doc_blocks import block


@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq")), reason="needs curl and jq")
def test_curl_walkthrough(live_server, tmp_path):
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", block("walkthrough")], cwd=tmp_path,
                            env={**os.environ, "BASE": live_server}, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1].lower().startswith("etag:")
    after_discard = json.loads(lines[5])
    assert after_discard["phase"] == "draw" and len(after_discard["discard_pile"]) == 2
    events = [json.loads(line) for line in lines[6:]]
    assert [e["type"] for e in events] == ["deal", "pass", "pass", "draw", "discard"]


def test_verify_snippet_accepts_a_real_deal_and_rejects_a_changed_one(live_server, tmp_path):
    created = requests.post(f"{live_server}/games", json={"name": "Ann"}, timeout=10).json()
    joined = requests.post(f"{live_server}/games/{created['game_id']}/join",
                           json={"invite_code": created["invite_code"], "name": "Bob"}, timeout=10).json()
    headers = {"Authorization": f"Bearer {joined['token']}"}
    finished = requests.post(f"{live_server}/games/{created['game_id']}/actions", json={"type": "resign"},
                             headers=headers, timeout=10).json()
    assert finished["revealed_deals"][0]["commitment"] == joined["game"]["deal_commitment"]
    script = tmp_path / "verify.py"
    script.write_text(block("verify"))
    ok = subprocess.run([sys.executable, str(script)], input=json.dumps(finished), capture_output=True, text=True)
    assert ok.returncode == 0 and joined["game"]["deal_commitment"] in ok.stdout
    deck = finished["revealed_deals"][0]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    changed = subprocess.run([sys.executable, str(script)], input=json.dumps(finished), capture_output=True, text=True)
    assert changed.returncode != 0 and "deck was changed" in changed.stderr


def test_engine_snippet_runs_as_written():
    namespace: dict = {}
    exec(block("engine"), namespace)  # noqa: S102 - our own docs
    assert namespace["deadwood"] == 10
    assert namespace["events"] and namespace["events"][0]["type"] in ("take_upcard", "pass")
    assert namespace["match"].view(0)["hand_number"] == 1
