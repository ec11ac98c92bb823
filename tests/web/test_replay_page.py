"""The replay page (issue 24): a finished match stepped through in the browser, with the buttons and
the arrow keys, from the seat page's link after the match and from a watch key."""
from __future__ import annotations

from .conftest import DESKTOP
from .support import api, play_until, two_seats
from .test_browser import wait_until


def test_a_finished_match_is_replayed_step_by_step_with_the_keyboard(site, new_context):
    game_id, tokens = two_seats(site, {"preset": "standard", "target": 25})
    play_until(site, game_id, tokens, lambda view: view["status"] == "finished")
    replay = api(site, "GET", f"/games/{game_id}/replay", tokens[0])
    steps = replay["steps"]

    page = new_context(DESKTOP).new_page()
    page.goto(f"{site.base_url}/play/{game_id}#token={tokens[0]}")
    wait_until(lambda: page.locator("#replay-link").is_visible(), "the replay link after the match")
    page.locator("#replay-link").click()
    wait_until(lambda: page.locator("#position").inner_text().startswith(f"Step 1 of {len(steps)}"), "the first step")
    held = page.locator("#replay-hands").inner_text()
    assert "Ann holds" in held and "Bob holds" in held and "dealt by" in page.locator("#step-events").inner_text()

    page.keyboard.press("ArrowRight")
    wait_until(lambda: page.locator("#position").get_attribute("data-step") == "1", "the second step")
    moved = page.locator("#step-events").inner_text()
    assert ("Ann" in moved or "Bob" in moved) and moved != "", moved
    page.keyboard.press("End")
    wait_until(lambda: page.locator("#position").get_attribute("data-step") == str(len(steps) - 1), "the last step")
    last = page.locator("#replay").inner_text()
    assert "The match is over" in last and "Deadwood" in last and "Hand 1:" in page.locator("#replay-sheet").inner_text()
    page.keyboard.press("Home")
    wait_until(lambda: page.locator("#position").get_attribute("data-step") == "0", "back to the start")
    assert page.locator("#step-back").is_disabled()

    link = api(site, "POST", f"/games/{game_id}/watch-links", tokens[1])
    watcher = new_context(DESKTOP).new_page()
    watcher.goto(f"{site.base_url}/replay/{game_id}#key={link['key']}")
    wait_until(lambda: watcher.locator("#position").inner_text().startswith("Step 1 of"), "a watcher's replay")
    watcher.locator("#hand-on").click()
    second_deal = next((i for i, s in enumerate(steps) if s["hand"] == 2), len(steps) - 1)
    wait_until(lambda: watcher.locator("#position").get_attribute("data-step") == str(second_deal), "the next hand")
