"""Issue 38, item 10: a message shows what it holds: zero-width, format (but the joiner of an emoji
sequence), filler and tag characters are refused, and so are marks stacked on one letter."""
from __future__ import annotations

import pytest

from .helpers import auth, new_game

REFUSED = ["a\u200bb", "hi\u200c", "\ufeffhello", "x\u2060y", "tag\U000e0041\U000e0042", "\u3164", "a\u2800b",
           "\u115fname", "z\u0301\u0302\u0303\u0304\u0305", "a\u200db"]
TAKEN = ["Việt Nam", "e\u0301", "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\u2764\ufe0f\u200d\U0001f525",
         "naïve café", "שָׁלוֹם"]


@pytest.mark.parametrize("text", REFUSED)
def test_a_message_holding_what_shows_nothing_is_refused(client, text):
    game = new_game(client)
    answer = client.post(f"/games/{game['id']}/messages", json={"text": text}, headers=auth(game["tokens"][0]))
    assert answer.status_code == 422 and answer.get_json()["code"] == "message-not-plain", answer.get_json()
    listed = client.get(f"/games/{game['id']}/messages", headers=auth(game["tokens"][1])).get_json()
    assert listed["messages"] == []


def test_plain_text_of_any_script_and_emoji_sequences_are_taken(client):
    game = new_game(client)
    for text in TAKEN:
        answer = client.post(f"/games/{game['id']}/messages", json={"text": text}, headers=auth(game["tokens"][0]))
        assert answer.status_code == 201, (text, answer.get_json())
    listed = client.get(f"/games/{game['id']}/messages", headers=auth(game["tokens"][1])).get_json()
    assert [m["text"] for m in listed["messages"]] == TAKEN
