"""002's cut on the seat page (issue 25, finding 14): the higher card's player is offered the
choice of the first dealer as two moves, the history tells the cut in words, and the choice made
in the browser deals the first hand to the seat chosen."""
from __future__ import annotations

from .conftest import DESKTOP
from .support import api, two_seats
from .test_browser import move_button, wait_until


def test_the_higher_card_chooses_who_deals_on_the_seat_page(site, new_context):
    game_id, tokens = two_seats(site, {"preset": "poker_tj", "first_dealer_by": "cut_higher_chooses"})
    view = api(site, "GET", f"/games/{game_id}", tokens[0])
    assert view["phase"] == "dealer_choice" and len(view["cuts"]) == 1
    chooser = view["to_move"]
    page = new_context(DESKTOP).new_page()
    page.goto(f"{site.base_url}/play/{game_id}#token={tokens[chooser]}")
    wait_until(lambda: move_button(page, "let-deal").count(), "the choice of the first dealer")
    assert move_button(page, "deal-first").count() == 1
    wait_until(lambda: "cut for the first dealer" in page.locator("#events").inner_text(), "the cut in the history")
    assert "chooses who deals first" in page.locator("#events").inner_text()
    move_button(page, "let-deal").click()
    wait_until(lambda: api(site, "GET", f"/games/{game_id}", tokens[0])["hand_number"] == 1, "the first deal")
    dealt = api(site, "GET", f"/games/{game_id}", tokens[0])
    assert dealt["dealer"] == 1 - chooser and dealt["to_move"] == chooser
    wait_until(lambda: "deal first" in page.locator("#events").inner_text(), "the choice in the history")
