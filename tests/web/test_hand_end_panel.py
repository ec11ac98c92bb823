"""The hand that decides the match is shown (issue 24, the first defect a first match found): a
hand's end panel left open while the next hands are played gives way to the newer hand's, and at
the match's end every page shows the final hand's two hands and its deck check, after the last
knock and after a reload; the score sheet then explains its totals line by line, on both seats'
pages and a watcher's (defect 3). The moves are made over the API; the pages only watch, as a player who leaves the panel open does."""
from __future__ import annotations

import re

from .support import api, play_until, two_seats
from .test_browser import wait_until


def panel_title(page) -> str:
    return page.locator("#hand-end-title").inner_text() if page.locator("#hand-end").is_visible() else ""


def sheet_rows(page) -> list[tuple[str, list[int]]]:
    """The score sheet's body: (line, the points in each column; 0 for an empty cell)."""
    rows = page.evaluate("""() => [...document.querySelectorAll('#sheet-table tbody tr')].map((r) =>
        [r.dataset.line || 'hand', [...r.querySelectorAll('td')].slice(1).map((td) => td.textContent)])""")
    return [(line, [int(cell or 0) for cell in cells]) for line, cells in rows]


def assert_sheet_adds_up(page, totals: list[int]) -> None:
    """Each column's total is the sum of the lines above it, and is the match's total shown."""
    rows = sheet_rows(page)
    lines = [line for line, _ in rows]
    assert lines[-1] == "total" and "hand_points" in lines and "game_bonus" in lines, lines
    hands = [cells for line, cells in rows if line == "hand"]
    [subtotal] = [cells for line, cells in rows if line == "hand_points"]
    bonuses = [cells for line, cells in rows if line not in ("hand", "hand_points", "total")]
    total = rows[-1][1]
    for column in range(len(total)):
        assert subtotal[column] == sum(row[column] for row in hands), rows
        assert total[column] == subtotal[column] + sum(row[column] for row in bonuses), rows
    assert total == totals, (total, totals)


def seat_totals(view: dict) -> list[int]:
    """The match's totals as a seat's sheet shows them: its own column first."""
    return [view["result"]["totals"][view["seat"]], view["result"]["totals"][1 - view["seat"]]]


def first_hand_with_pages(site, new_context):
    """A match to 50 watched by both seats' pages until its first hand's end shows on both, left
    open; None when that hand ended the match already (a big gin can), so the caller deals again."""
    game_id, tokens = two_seats(site, {"preset": "standard", "target": 50})
    pages = {}
    for seat, token in tokens.items():
        page = new_context().new_page()
        page.goto(f"{site.base_url}/play/{game_id}#token={token}")
        wait_until(lambda: page.locator("#title").inner_text().startswith(("Ann v", "Bob v")), "the seat page")
        pages[seat] = page

    first = play_until(site, game_id, tokens, lambda view: view["last_hand"] is not None)
    if first["status"] == "finished":
        return None
    for page in pages.values():  # the first hand's end, left open: nobody clicks Continue
        wait_until(lambda: panel_title(page).startswith(f"Hand {first['last_hand']['hand']}"), "the first hand's panel")
    return game_id, tokens, pages, first["last_hand"]["hand"]


def test_the_final_hand_is_shown_though_an_earlier_hands_panel_was_left_open(site, new_context):
    started = next(filter(None, (first_hand_with_pages(site, new_context) for _ in range(5))))
    game_id, tokens, pages, first_hand = started

    final = play_until(site, game_id, tokens, lambda view: view["status"] == "finished")
    last = final["last_hand"]
    assert last["hand"] > first_hand, "the match took more than one hand"
    for page in pages.values():
        wait_until(lambda: panel_title(page).startswith(f"Hand {last['hand']}"), "the final hand's panel")
        wait_until(lambda: page.locator("#hand-end [data-verified]").count(), "the final deck's check")
        assert page.locator("#hand-end [data-verified]").get_attribute("data-verified") == "true"
        text = page.locator("#hand-end").inner_text()
        assert "Deck verified" in text and ("Deadwood" in text or "held" in text)
    for page in pages.values():  # the match's end is no dead end, and no longer asks for a discard
        assert page.locator("#next-game").is_visible() and page.locator('#next-game a[href="/"]').count() == 1
        assert page.locator("#hand .hint").is_hidden() and page.locator("#hint-toggle").is_hidden()
    assert_sheet_adds_up(pages[0], seat_totals(final))
    assert_sheet_adds_up(pages[1], seat_totals(api(site, "GET", f"/games/{game_id}", tokens[1])))
    # A watcher's page has the same sheet, its columns seat 0's and seat 1's.
    link = api(site, "POST", f"/games/{game_id}/watch-links", tokens[0])
    watcher = new_context().new_page()
    watcher.goto(f"{site.base_url}/watch/{game_id}#key={link['key']}")
    wait_until(lambda: watcher.locator("#sheet-table tr.totals").count(), "the watcher's sheet")
    assert_sheet_adds_up(watcher, final["result"]["totals"])

    # A reload shows it again (only its own Continue marks it seen), and Continue then closes it.
    for page in pages.values():
        page.reload()
        wait_until(lambda: panel_title(page).startswith(f"Hand {last['hand']}"), "the final hand after a reload")
        page.get_by_role("button", name="Continue").click()
        wait_until(lambda: page.locator("#hand-end").is_hidden(), "the panel closed")
        page.reload()
        wait_until(lambda: re.search(r"\S", page.locator("#status").inner_text() or ""), "the page")
        assert page.locator("#hand-end").is_hidden()


def test_the_panel_explains_the_points_with_their_bonus(site, new_context):
    """Issue 38, item 3: the end-of-hand panel says the bonus that makes a gin's or an undercut's
    points ("+25 gin bonus", "+25 undercut bonus"), and "You knocked and were undercut"."""
    game_id, tokens = two_seats(site, {"preset": "standard", "target": 2000})
    page = new_context().new_page()
    page.goto(f"{site.base_url}/play/{game_id}#token={tokens[0]}")
    wait_until(lambda: page.locator("#title").inner_text().startswith("Ann v"), "the seat page")
    view = play_until(site, game_id, tokens, lambda view: view["last_hand"] is not None
                      and view["last_hand"]["result"] in ("gin", "undercut"))
    record = view["last_hand"]
    wait_until(lambda: panel_title(page).startswith(f"Hand {record['hand']}:"), "the hand's panel")
    explained = page.locator("#hand-end .points-explained").inner_text()
    bonus = "+25 gin bonus" if record["result"] == "gin" else "+25 undercut bonus"
    assert bonus in explained and explained.endswith(f"= {record['points']}"), explained
    if record["result"] == "undercut" and record["knocker"] == 0:
        assert "You knocked and were undercut" in panel_title(page)
