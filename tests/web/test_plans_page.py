"""Plans and standing orders on the seat page (issue 39): "Plan this turn" beside the stock plays a
whole turn at once and says what was drawn to this seat only; the orders panel sets and shows the
seat's orders, which the other seat's page never shows."""
from __future__ import annotations

from .conftest import DESKTOP
from .support import api, two_seats
from .test_browser import wait_until


def test_a_plan_from_the_page_and_orders_only_the_seat_sees(site, new_context):
    game_id, tokens = two_seats(site)
    for _ in range(2):  # both pass the upcard: the first to play is to draw
        mover = api(site, "GET", f"/games/{game_id}", tokens[0])["to_move"]
        if api(site, "GET", f"/games/{game_id}", tokens[mover])["phase"] == "draw":
            break
        api(site, "POST", f"/games/{game_id}/actions", tokens[mover], {"type": "pass"})
    mover = api(site, "GET", f"/games/{game_id}", tokens[0])["to_move"]
    pages = {}
    for seat, token in tokens.items():
        page = new_context(DESKTOP).new_page()
        page.goto(f"{site.base_url}/play/{game_id}#token={token}")
        wait_until(lambda page=page: " v " in page.locator("#title").inner_text(), "the seat")
        pages[seat] = page
    mine, theirs = pages[mover], pages[1 - mover]
    version = int(mine.locator("#game").get_attribute("data-version"))
    mine.locator("#plan-turn summary").click()
    mine.locator("#plan-text").fill("draw stock, discard drawn unless it melds, else worst")
    mine.locator("#plan-form button[type=submit]").click()
    wait_until(lambda: "You drew" in mine.locator("#plan-result").inner_text(), "the plan's answer")
    wait_until(lambda: int(mine.locator("#game").get_attribute("data-version")) == version + 1, "one change")
    wait_until(lambda: int(theirs.locator("#game").get_attribute("data-version")) == version + 1, "their view")
    told = mine.locator("#plan-result").inner_text()
    assert told not in theirs.content() and "You drew" not in theirs.locator("body").inner_text()
    # Orders: set on one page, shown there; the other page says it has none.
    theirs.locator("#orders-text").fill("always go gin")
    theirs.locator("#orders-form button[type=submit]").click()
    wait_until(lambda: "always go gin" in theirs.locator("#orders-now").inner_text(), "the orders shown")
    mine.reload()
    wait_until(lambda: "no orders" in mine.locator("#orders-now").inner_text(), "no orders of its own")
    assert "always go gin" not in mine.locator("body").inner_text()
    assert api(site, "GET", f"/games/{game_id}/orders", tokens[1 - mover])["orders"]["gin"] == "always"
