"""Watch links at tables of three and four in real browsers against a real gunicorn, on both
databases: the join page says how many play; the seat page of a table offers a watch link; the
watch page draws the table with the seat page's table panel (every board's public part, who sits
out, the scores, the sheet) and never a card of a hand in play; a revoked link shows nothing."""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
import requests

from tests.api.table_helpers import mover_and_action
from tests.api.test_waiting_live import KINDS, servers

from .test_browser import Traffic, status, wait_until
from .test_player_pages import no_secret_in_urls
from .test_table_pages import INVITE, api_view, assert_page_hides, start_table, token_of


@pytest.fixture(scope="module", params=KINDS)
def site(request, tmp_path_factory):
    with servers(request.param, tmp_path_factory.mktemp(f"table-watch-{request.param}"), count=1,
                 env={"STREAM_KEEPALIVE_SECONDS": "2"}) as (_, (base_url,)):
        yield SimpleNamespace(base_url=base_url)


def post(site, path: str, body: dict, token: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = requests.post(site.base_url + path, json=body, headers=headers, timeout=10)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def views(site, game_id: str, tokens: list[str]) -> dict[int, dict]:
    return {seat: api_view(site, game_id, token) for seat, token in enumerate(tokens)}


def secrets(table_views: dict[int, dict]) -> set[str]:
    """Every card of a hand in play, less the names the page may show for another reason: each
    board has a deck of its own, so another board's pile may hold a card of the same name."""
    hands = {card for view in table_views.values() if view["my_board"] for card in view["my_board"]["view"]["hand"]}
    piles = {card for board in table_views[0]["boards"] if board for card in board["discard_pile"]}
    return hands - piles


def play(site, game_id: str, tokens: list[str], moves: int) -> dict[int, dict]:
    """`moves` moves over the API (fewer when a hand ends first): the views after them."""
    for _ in range(moves):
        now = views(site, game_id, tokens)
        if now[0]["last_hand"] is not None or now[0]["status"] != "active":
            return now
        seat, action = mover_and_action(now)
        post(site, f"/games/{game_id}/actions", action, tokens[seat])
    return views(site, game_id, tokens)


def pile_top(board_locator) -> str | None:
    """The top card the page draws on a board's pile; None for an empty pile."""
    cards = board_locator.locator("[data-card]")
    return cards.first.get_attribute("data-card") if cards.count() else None


def top_of(board: dict) -> str | None:
    return board["discard_pile"][-1] if board["discard_pile"] else None


def test_a_table_seat_shares_a_watch_link_and_the_watcher_never_sees_a_hand(site, new_context):
    ann_context, bob_context, friend_context = new_context(), new_context(), new_context()
    traffic = Traffic(ann_context, bob_context, friend_context)
    ann, bob, friend = (context.new_page() for context in (ann_context, bob_context, friend_context))
    errors = []
    for page in (ann, bob, friend):
        page.on("pageerror", lambda error: errors.append(str(error)))
    game_id, links = start_table(site, ann, 3, target=10)
    bob.goto(links[0])
    wait_until(lambda: "Ann invites you to a game of 3 players." in bob.locator("#invitation").inner_text(),
               "the invitation's number of players")
    assert "This link takes seat 2." in bob.locator("#table-format").inner_text()
    bob.fill("#name", "Bob")
    bob.get_by_role("button", name="Join").click()
    bob.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    cat = post(site, f"/games/{game_id}/join", {"invite_code": INVITE.match(links[1]).group(3), "name": "Cat"})
    tokens = [token_of(ann, game_id), token_of(bob, game_id), cat["token"]]

    wait_until(lambda: ann.locator("#watch").is_visible(), "the watch panel on a table's seat page")
    ann.click("#watch-create")
    link = wait_until(lambda: ann.locator("#watch-url").input_value(), "the watch link")
    assert link.startswith(f"{site.base_url}/watch/{game_id}#key=")
    friend.goto(link)
    wait_until(lambda: friend.locator("#title").inner_text() == "Ann, Bob and Cat", "the watched table")
    now = views(site, game_id, tokens)
    out, board = now[0]["sitting_out"], now[0]["boards"][0]
    names = ["Ann", "Bob", "Cat"]
    public = friend.locator('#table-panel [data-board="0"]')
    wait_until(public.is_visible, "the board in play")
    assert pile_top(public) == board["discard_pile"][-1]
    assert "holds 10 cards" in public.inner_text()
    assert "sits out this hand" in friend.locator(f'#table-panel li[data-seat="{out}"]').inner_text()
    assert f"{names[out]} sits out this hand." in status(friend)
    assert friend.locator("#seats").is_hidden() and friend.locator("#table-panel .standings").is_visible()
    assert len(secrets(now)) == 20  # both hands of the board in play, none of them in its pile
    assert_page_hides(friend, secrets(now), "the watch page shows a hand's card")

    # Moves over the API: the page follows (the board's pile top) and still shows no hand.
    now = play(site, game_id, tokens, 3)
    if now[0]["last_hand"] is None:
        top = top_of(now[0]["boards"][0])
        wait_until(lambda: pile_top(public) == top, "the new pile top")
        assert_page_hides(friend, secrets(now), "the watch page shows a hand's card")
    # To the end of the hand: its line on the sheet, and its record (both hands: it is over).
    for _ in range(100):
        now = play(site, game_id, tokens, 20)
        if now[0]["last_hand"] is not None or now[0]["status"] != "active":
            break
    record = now[0]["last_hand"]
    assert record is not None
    wait_until(lambda: friend.locator("#sheet-table tbody tr").count() == 2, "the sheet's line and total")
    assert " v ".join(names[s] for s in record["seats"]) in friend.locator("#sheet-table tbody tr").first.inner_text()
    wait_until(lambda: friend.locator("#last-hand").is_visible(), "the finished hand's record")
    assert f"Hand {record['hand']}" in friend.locator("#last-hand").inner_text()
    assert friend.evaluate("Object.keys(localStorage).length") == 0  # a watcher holds no seat

    ann.locator("#watch-links li[data-link-id] button", has_text="Revoke").first.click()
    wait_until(lambda: "Revoked" in ann.locator("#watch-result").inner_text(), "revoked")
    friend.reload()
    assert "revoked" in wait_until(lambda: friend.locator("#watch-error").inner_text(), "the refusal")
    assert not friend.locator("#watched").is_visible()
    assert errors == []
    key = link.split("#key=")[1]
    no_secret_in_urls(traffic, set(tokens) | {key} | {INVITE.match(invite).group(3) for invite in links})


def test_a_watcher_sees_both_boards_of_a_partnership_and_no_hand(site, new_context):
    created = post(site, "/games", {"name": "Ann", "seats": 4, "rules": {"target": 100}})
    tokens = [created["token"]]
    for invite, name in zip(created["invites"], ("Bob", "Cat", "Dan")):
        tokens.append(post(site, f"/games/{created['game_id']}/join",
                           {"invite_code": invite["invite_code"], "name": name})["token"])
    game_id = created["game_id"]
    made = post(site, f"/games/{game_id}/watch-links", {}, tokens[1])
    friend = new_context().new_page()
    errors = []
    friend.on("pageerror", lambda error: errors.append(str(error)))
    friend.goto(f"{site.base_url}/watch/{game_id}#key={made['key']}")
    wait_until(lambda: friend.locator("#title").inner_text() == "Ann & Cat v Bob & Dan", "the watched partnership")
    panel = friend.locator("#table-panel")
    wait_until(lambda: panel.locator("[data-board]").count() == 2, "both boards")
    assert "Partnership scores" in panel.inner_text() and "(your partner)" not in panel.inner_text()
    now = views(site, game_id, tokens)
    assert len(secrets(now)) > 20  # the four hands in play, less names on the other board's pile
    assert_page_hides(friend, secrets(now), "the watch page shows a hand's card")
    # A move on each board: both public parts follow, still no hand.
    now = play(site, game_id, tokens, 2)
    for board in now[0]["boards"]:
        public = panel.locator(f'[data-board="{board["board"]}"]')
        wait_until(lambda: pile_top(public) == top_of(board), f"board {board['board'] + 1}'s pile top")
    assert_page_hides(friend, secrets(now), "the watch page shows a hand's card")
    assert errors == []
