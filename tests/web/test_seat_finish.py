"""The seat page's finish (issue 38, item 4): a card under a resting pointer stays where it is (no
lift that moves it away), and a finished match's page shows the result and the way on, not a hand,
the stock nor "Take vacation"."""
from __future__ import annotations

import time

from .support import api, two_seats
from .test_browser import status, wait_until


def open_seat(site, new_context, game_id: str, token: str):
    page = new_context().new_page()
    page.goto(f"{site.base_url}/play/{game_id}#token={token}")
    wait_until(lambda: page.locator("#hand-groups button[data-card]").count() >= 10, "the hand")
    return page


def test_a_card_under_the_pointer_does_not_move(site, new_context):
    game_id, tokens = two_seats(site)
    page = open_seat(site, new_context, game_id, tokens[0])
    card = page.locator("#hand-groups button[data-card]").nth(3)
    before = card.bounding_box()
    card.hover()
    time.sleep(0.3)  # past any transition
    after = card.bounding_box()
    assert (after["x"], after["y"]) == (before["x"], before["y"])
    assert page.evaluate("(c) => getComputedStyle(c).transform", card.element_handle()) in ("none", "")


def test_a_finished_match_shows_the_result_and_the_way_on(site, new_context):
    game_id, tokens = two_seats(site)
    page = open_seat(site, new_context, game_id, tokens[0])
    api(site, "POST", f"/games/{game_id}/actions", tokens[1], {"type": "resign"})
    wait_until(lambda: status(page).startswith("The match is over:"), "the result")
    said = status(page)
    assert "You won by resignation" in said and "Next:" in said, said
    assert page.locator("#next-game").is_visible()
    for gone in ("#own-board", "#hand-groups", "#stock", "#vacation-form"):
        assert not page.locator(gone).is_visible(), gone
