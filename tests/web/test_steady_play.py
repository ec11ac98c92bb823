"""A steady player never meets the rate limit (issue 38, item 1): the seat page, clicking a move
every 1.5 s against a quick opponent under the default RATELIMIT_PER_TOKEN, is never answered 429
and spends few requests per move (the move's answer and the game's stream carry the views and the
messages). And a move refused with 429 is sent again by the page itself after Retry-After."""
from __future__ import annotations

import json
import threading
import time

import pytest
import requests

from service.core.limits import DEFAULTS
from tests.api.helpers import choose

from .conftest import serving
from .support import api, two_seats
from .test_browser import move_button, status, wait_until

CLICK_EVERY = 1.5
MOVES = 40  # a minute of steady clicking


@pytest.fixture(scope="module")
def limited_site(tmp_path_factory):
    """Rate limits on, as shipped (one worker: the counts are the production ones, not split)."""
    with serving(tmp_path_factory.mktemp("limited"), {
            "RATELIMIT_ENABLED": "true", "RATELIMIT_PER_TOKEN": DEFAULTS["RATELIMIT_PER_TOKEN"]}, workers=1) as running:
        yield running


@pytest.fixture(scope="module")
def tight_site(tmp_path_factory):
    """A limit small enough for a test to run out of it, with a window short enough to wait for."""
    with serving(tmp_path_factory.mktemp("tight"), {
            "RATELIMIT_ENABLED": "true", "RATELIMIT_PER_TOKEN": "20 per 5 seconds"}, workers=1) as running:
        yield running


class Opponent(threading.Thread):
    """Seat 1 as a bot plays it: follows the game's stream and answers each turn at once."""

    def __init__(self, site, game_id: str, token: str):
        super().__init__(daemon=True)
        self.url, self.game_id, self.token = site.base_url, game_id, token
        self.refused: list[int] = []
        self.done = threading.Event()

    def post(self, view: dict) -> dict:
        answer = requests.post(f"{self.url}/games/{self.game_id}/actions", json=choose(view), timeout=30,
                               headers={"Authorization": f"Bearer {self.token}"})
        if answer.status_code != 200:
            self.refused.append(answer.status_code)
            return view
        return answer.json()

    def run(self) -> None:
        with requests.get(f"{self.url}/games/{self.game_id}/stream", stream=True, timeout=60,
                          headers={"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"}) as stream:
            seen = 0
            for line in stream.iter_lines(decode_unicode=True):
                if self.done.is_set():
                    return
                if not line or not line.startswith("data:"):
                    continue
                view = json.loads(line[5:])
                if view.get("event") != "view" or view["version"] <= seen:
                    continue  # a view its own moves' answers showed already
                while view["status"] == "active" and view["to_move"] == 1 and view["legal_actions"]:
                    view = self.post(view)
                    if self.refused:
                        return
                seen = view["version"]


def open_seat(browser_page, site, game_id: str, token: str):
    browser_page.goto(f"{site.base_url}/play/{game_id}#token={token}")
    wait_until(lambda: browser_page.locator("#title").inner_text() == "Ann v Bob", "Ann's seat")


def click_a_move(page) -> None:
    """What a person does on their turn: take from the stock (or pass the upcard), discard."""
    if page.locator("#hand-end").is_visible():
        page.locator("#hand-end button.primary").click()
    for key in ("pass", "draw-stock"):
        if move_button(page, key).count():
            move_button(page, key).click()
            return
    card = page.locator("#hint").get_attribute("data-card") or page.locator("#hand-groups button[data-card]").first.get_attribute("data-card")
    page.locator(f'#hand-groups button[data-card="{card}"]').click()


def test_a_click_every_one_and_a_half_seconds_never_meets_the_limit(limited_site, new_context):
    game_id, tokens = two_seats(limited_site, {"target": 500})
    page = new_context().new_page()
    sent, refused = [], []
    page.on("request", lambda r: sent.append((r.method, r.url)) if "/games/" in r.url else None)
    page.on("response", lambda r: refused.append((r.status, r.url)) if r.status == 429 else None)
    opponent = Opponent(limited_site, game_id, tokens[1])
    opponent.start()
    open_seat(page, limited_site, game_id, tokens[0])

    moves, began, last = 0, time.monotonic(), 0.0
    while moves < MOVES:
        wait_until(lambda: status(page).startswith("Your turn"), f"Ann's turn after {moves} moves ({refused})", timeout=30)
        time.sleep(max(0.0, last + CLICK_EVERY - time.monotonic()))
        last = time.monotonic()
        before = page.locator("#game").get_attribute("data-version")
        click_a_move(page)
        moves += 1
        wait_until(lambda before=before: page.locator("#game").get_attribute("data-version") != before
                   or page.locator("#notice").inner_text(),
                   "the move's answer")
        assert not page.locator("#notice").inner_text(), page.locator("#notice").inner_text()
    minutes = (time.monotonic() - began) / 60
    opponent.done.set()

    assert refused == [], refused
    assert opponent.refused == []
    posted = [url for method, url in sent if method == "POST" and url.endswith("/actions")]
    assert len(posted) == MOVES
    per_move = len(sent) / MOVES
    assert per_move <= 2.0, (per_move, sent)  # 40 clicks a minute stay well under 120 requests
    assert len(sent) / minutes < 100, (len(sent), minutes)
    streams = [url for _, url in sent if url.endswith("/stream")]
    assert len(streams) == 1, streams  # one stream held open the whole time
    assert not [url for _, url in sent if "wait=" in url]  # no long-poll beside it


def test_a_move_refused_for_the_rate_limit_is_sent_again_after_retry_after(tight_site, new_context):
    game_id, tokens = two_seats(tight_site, {"target": 500})
    page = new_context().new_page()
    answers = []
    page.on("response", lambda r: answers.append(r.status) if r.url.endswith("/actions") else None)
    opponent = Opponent(tight_site, game_id, tokens[1])
    opponent.start()
    open_seat(page, tight_site, game_id, tokens[0])
    wait_until(lambda: status(page).startswith("Your turn"), "Ann's turn", timeout=30)
    time.sleep(1)  # the page's first reads (history, settings) are made
    # The same token spends what is left of its window elsewhere (another tab, a script).
    for _ in range(40):
        if requests.get(f"{tight_site.base_url}/games/{game_id}", timeout=10,
                        headers={"Authorization": f"Bearer {tokens[0]}"}).status_code == 429:
            break
    else:
        raise AssertionError("the limit never bit")
    before = int(page.locator("#game").get_attribute("data-version"))
    click_a_move(page)
    wait_until(lambda: "sent again" in page.locator("#notice").inner_text(), "the page saying it will retry")
    wait_until(lambda: int(page.locator("#game").get_attribute("data-version")) > before, "the move made", timeout=15)
    # Sync Playwright runs the response listener only inside its own calls: give it one each time.
    wait_until(lambda: page.wait_for_timeout(50) or answers[-1:] == [200], f"the retry's answer heard ({answers})")
    assert answers[:1] == [429] and answers.count(200) == 1, answers
    assert page.locator("#notice").inner_text() == ""
    opponent.done.set()
    # Only once: the key made the retry safe, and the game moved by one move of Ann's.
    view = api(tight_site, "GET", f"/games/{game_id}", tokens[1])
    events = api(tight_site, "GET", f"/games/{game_id}/events?after=0&limit=500", tokens[1])["events"]
    assert len([e for e in events if e.get("seat") == 0 and e["type"] in ("draw", "pass", "take_upcard")]) == 1, events
    assert view["status"] == "active"
