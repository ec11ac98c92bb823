"""The replay page (issue 24): a finished match stepped through in the browser, with the buttons and
the arrow keys, from the seat page's link after the match and from a watch key; a table's too, every
board shown (a board per hand for partnerships)."""
from __future__ import annotations

import sqlalchemy as sa

from .conftest import DESKTOP
from .support import api, full_table, play_table_out, play_until, two_seats
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
    # The last step shows the whole sheet: the bonuses on their lines and the totals (issue 38).
    final = page.locator("#replay-final")
    assert final.is_visible() and final.locator('tr[data-line="game_bonus"]').count() == 1
    totals = final.locator('tr[data-line="total"] td').all_inner_texts()[1:]
    assert [int(t) for t in totals] == replay["result"]["totals"], (totals, replay["result"])
    page.keyboard.press("ArrowLeft")
    wait_until(lambda: not final.is_visible(), "the whole sheet at the last step only")
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


def as_house_at_level(site, game_id: str, seat: int, level: int) -> None:
    """Make a seat the house bot's at a level, straight in the site's database: its one account is the
    house bot process's (test_player_pages), and the replay reads only the seat's name and level
    (tests/players/test_bot_levels_api.py follows a level from the challenge to the replay)."""
    from service.core.extensions import db
    with site.app.app_context():
        changed = db.session.execute(sa.text("UPDATE seats SET name = 'House', bot_level = :level "
                                             "WHERE game_id = :game AND seat = :seat"),
                                     {"level": level, "game": game_id, "seat": seat})
        assert changed.rowcount == 1
        db.session.commit()


def test_the_replay_names_the_house_bot_with_its_level(site, new_context):
    """Issue 38: "House (level 4)" in the replay's title, its hands, its narration and the last step's sheet."""
    from axe_playwright_python.sync_playwright import Axe

    from .test_accessibility import WCAG
    game_id, tokens = two_seats(site, {"preset": "standard", "target": 25})
    play_until(site, game_id, tokens, lambda view: view["status"] == "finished")
    as_house_at_level(site, game_id, 1, 4)
    page = new_context(DESKTOP).new_page()
    page.goto(f"{site.base_url}/replay/{game_id}#token={tokens[0]}")
    wait_until(lambda: page.locator("#position").inner_text().startswith("Step 1 of"), "the first step")
    assert page.locator("#title").inner_text() == "Replay: Ann v House (level 4)"
    assert "House (level 4) holds" in page.locator("#replay-hands").inner_text()
    page.keyboard.press("End")
    final = page.locator("#replay-final")
    wait_until(lambda: final.is_visible(), "the whole sheet at the last step")
    assert "House (level 4)" in final.inner_text(), final.inner_text()
    violations = Axe().run(page, options=WCAG).response["violations"]
    assert not violations, [(v["id"], [n["target"] for n in v["nodes"][:4]]) for v in violations]


def test_a_finished_partnership_is_replayed_board_by_board(site, new_context):
    game_id, tokens = full_table(site, 4, {"target": 40})
    play_table_out(site, game_id, tokens)
    replay = api(site, "GET", f"/games/{game_id}/replay", tokens[2])
    steps = replay["steps"]

    page = new_context(DESKTOP).new_page()
    page.goto(f"{site.base_url}/play/{game_id}#token={tokens[2]}")
    wait_until(lambda: page.locator("#replay-link").is_visible(), "the replay link after the table's match")
    page.locator("#replay-link").click()
    wait_until(lambda: page.locator("#position").inner_text().startswith(f"Step 1 of {len(steps)}"), "the first step")
    assert page.locator("#title").inner_text() == "Replay: Ann & P2 v P1 & P3"
    # The first deal: board 1 dealt, board 2 waiting for its cards; then both boards, each with its hands.
    page.keyboard.press("ArrowRight")
    wait_until(lambda: page.locator("#position").get_attribute("data-step") == "1", "the second deal")
    boards = page.locator("#replay-hands section.replay-board")
    assert boards.count() == 2
    first, second = boards.nth(0).inner_text(), boards.nth(1).inner_text()
    assert "Board 1: Ann v P1" in first and "Ann holds" in first and "P1 holds" in first, first
    assert "Board 2: P2 v P3" in second and "P2 holds" in second and "P3 holds" in second, second
    shown = [board for board in steps[1]["boards"] if board]
    for board, text in zip(shown, (first, second)):
        assert f"stock {board['stock_count']}" in text

    ended = next(i for i, s in enumerate(steps) if any(e["type"] == "hand_end" for e in s["events"]))
    page.keyboard.press("Home")
    for _ in range(ended):
        page.locator("#step-on").click()
    wait_until(lambda: page.locator("#position").get_attribute("data-step") == str(ended), "a board's hand's end")
    assert "melds" in page.locator("#replay-hands").inner_text() and "is over" in page.locator("#step-events").inner_text()
    page.keyboard.press("End")
    wait_until(lambda: page.locator("#position").get_attribute("data-step") == str(len(steps) - 1), "the last step")
    assert "The match is over" in page.locator("#step-events").inner_text()
    sheet = page.locator("#replay-sheet").inner_text()
    assert "Hand 1 (board" in sheet and "Totals: Ann & P2" in sheet
    page.keyboard.press("PageUp")
    wait_until(lambda: page.locator("#position").get_attribute("data-step") != str(len(steps) - 1), "a deal back")
