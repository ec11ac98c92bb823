"""A whole hand with the keyboard alone (issue 24): Tab and Enter take every turn of one seat, the
knock dialog included (Tab to its Knock button, Enter), until that seat has knocked; the other seat
moves over the API and never knocks. Focus is visible on every control reached."""
from __future__ import annotations

import requests

from tests.api.helpers import choose

from .conftest import DESKTOP
from .support import api, two_seats
from .test_browser import move_button, press_tab_until, status, wait_until


def keyboard_turn(page) -> bool:
    """One turn by keyboard; True when it knocked."""
    for key in ("knock", "draw-stock", "pass"):
        if move_button(page, key).count():
            break
    press_tab_until(page, f"e.dataset.key === 'move-{key}'")
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"  # focus shows
    page.keyboard.press("Enter")
    if key == "knock":
        wait_until(page.locator("#knock-dialog").is_visible, "the knock dialog")
        press_tab_until(page, "e.id === 'knock-confirm'")
        page.keyboard.press("Enter")
        wait_until(lambda: page.locator("#hand-end").is_visible(), "the hand's end")
        return True
    if key == "pass":
        wait_until(lambda: not move_button(page, "pass").count() or not status(page).startswith("Your turn"), "the pass")
        return False
    wait_until(lambda: status(page).startswith("Your turn: discard"), "the discard phase")
    if move_button(page, "knock").count():
        return keyboard_turn(page)
    card = page.locator("#hint").get_attribute("data-card")
    press_tab_until(page, f"e.dataset.card === '{card}' && e.closest('#hand-groups')")
    page.keyboard.press("Enter")
    wait_until(lambda: not status(page).startswith("Your turn: discard"), "the discard")
    return False


def test_a_whole_hand_by_keyboard_including_the_knock(site, new_context):
    for _attempt in range(6):  # until this seat knocks (a hand may end void first, the stock run out)
        game_id, tokens = two_seats(site, {"preset": "standard", "target": 500})
        page = new_context(DESKTOP).new_page()
        page.goto(f"{site.base_url}/play/{game_id}#token={tokens[0]}")
        wait_until(lambda: " v " in page.locator("#title").inner_text(), "the seat")
        for _ in range(80):
            view = api(site, "GET", f"/games/{game_id}", tokens[0])
            if view["last_hand"] is not None:
                break  # the hand is over
            if view["to_move"] == 0:
                wait_until(lambda: status(page).startswith("Your turn"), "the page's turn")
                if keyboard_turn(page):
                    record = api(site, "GET", f"/games/{game_id}", tokens[0])["last_hand"]
                    assert record["knocker"] == 0 and record["result"] in ("knock", "gin", "undercut", "tie")
                    return
            else:
                theirs = api(site, "GET", f"/games/{game_id}", tokens[1])
                action = choose(theirs)
                if action["type"] in ("knock", "big_gin"):  # the other seat never ends the hand: the keyboard's to end
                    action = next(a for a in theirs["legal_actions"] if a["type"] == "discard")
                moved = requests.post(f"{site.base_url}/games/{game_id}/actions", json=action, timeout=10,
                                      headers={"Authorization": f"Bearer {tokens[1]}"})
                assert moved.status_code == 200, moved.text
                wait_until(lambda: page.locator("#game").get_attribute("data-version") == str(moved.json()["version"]),
                           "the page's update")
    raise AssertionError("the keyboard seat never came to knock")
