"""Tedesco's teams at eight seats in real browsers against a real gunicorn, on both databases: a
seat's page shows the four boards (side by side on a 1280 px screen, one under another on a 360 px
phone that never scrolls sideways), the teams, and no card of any other seat's hand in play; once
the match is over (played through the API, the odd team playing to lose) the page shows the team
bonus in the note and on the sheet."""
from __future__ import annotations

import requests

from tests.api.table_helpers import TEDESCO_TEAMS, start_table as start_over_api, team_zero_wins_move

from .conftest import PHONE
from .test_browser import status, wait_until
from .test_table_pages import api_view, assert_page_hides, site  # noqa: F401 (site: the fixture)

WIDE = {"width": 1280, "height": 900}


def post_to(site):
    def post(path, body):
        answer = requests.post(site.base_url + path, json=body, timeout=10)
        return answer.status_code, answer.json()
    return post


def seat_page(site, new_context, game, seat, viewport):
    page = new_context(viewport).new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site.base_url}/play/{game['id']}#token={game['tokens'][seat]}")
    wait_until(lambda: page.locator("#table-panel [data-board]").count() == 4, "the four boards")
    return page, errors


def test_an_eight_seat_table_shows_its_four_boards_and_no_other_hand(site, new_context):
    game = start_over_api(post_to(site), 8, TEDESCO_TEAMS)
    views = {seat: api_view(site, game["id"], token) for seat, token in game["tokens"].items()}
    for seat, viewport in ((5, WIDE), (6, PHONE)):
        page, errors = seat_page(site, new_context, game, seat, viewport)
        panel = page.locator("#table-panel")
        text = panel.inner_text()
        assert "The teams" in text and "Two teams of 4, 4 boards at once" in text and "Team scores" in text
        own = views[seat]["my_board"]
        assert "mine" in panel.locator(f'[data-board="{own["board"]}"]').get_attribute("class")
        for board in views[seat]["boards"]:  # who plays whom on each, as the page words it
            a, b = ("You" if s == seat else views[0]["players"][s]["name"] for s in board["seats"])
            assert f"{a} v {b}" in panel.locator(f'[data-board="{board["board"]}"] h3').inner_text()
        teammates = [s for s in views[seat]["sides"][seat % 2] if s != seat]
        assert all("(your teammate)" in panel.locator(f'li[data-seat="{s}"]').inner_text() for s in teammates)
        # Each board has a deck of its own: a name the page shows for another reason (its own
        # hand, a pile) says nothing; any other card of another seat's hand would.
        shown_anyway = set(own["view"]["hand"]) | {c for b in views[seat]["boards"] for c in b["discard_pile"]}
        others = set().union(*(views[s]["my_board"]["view"]["hand"] for s in range(8) if s != seat)) - shown_anyway
        assert others
        assert_page_hides(page, others, f"seat {seat}'s page shows another seat's card")
        boxes = [panel.locator(f'[data-board="{i}"]').bounding_box() for i in range(4)]
        width = viewport["width"]
        assert all(box["x"] >= 0 and box["x"] + box["width"] <= width for box in boxes), boxes
        tops = {round(box["y"]) for box in boxes}
        assert len(tops) < 4 if width == WIDE["width"] else len(tops) == 4  # side by side / one under another
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert errors == []


def test_a_finished_team_match_shows_its_team_bonus(site, new_context):
    game = start_over_api(post_to(site), 8, TEDESCO_TEAMS)
    for _ in range(3000):
        views = {seat: api_view(site, game["id"], token) for seat, token in game["tokens"].items()}
        if views[0]["status"] == "finished":
            break
        seat, action = team_zero_wins_move(views)
        answer = requests.post(f"{site.base_url}/games/{game['id']}/actions", json=action,
                               headers={"Authorization": f"Bearer {game['tokens'][seat]}"}, timeout=10)
        assert answer.status_code == 200, answer.text
    bonus = [line for line in views[0]["scores"]["sheet"] if line["hand"] is None]
    assert views[0]["status"] == "finished" and bonus
    page = new_context(PHONE).new_page()
    page.goto(f"{site.base_url}/play/{game['id']}#token={game['tokens'][1]}")
    wait_until(lambda: status(page).startswith("The match is over:"), "the result")
    note = page.locator("#table-panel .team-note").inner_text()
    assert f"Last team bonus: Ann & P2 & P4 & P6 +50 in round {bonus[-1]['round'] + 1}" in note, note
    rows = page.locator("#sheet-table tbody tr").all_inner_texts()
    assert sum("team bonus" in row and "50" in row for row in rows) == len(bonus), rows


def test_the_join_page_of_a_six_seat_table_says_how_the_teams_play(site, new_context):
    status_, created = post_to(site)("/games", {"name": "Ann", "seats": 6, "rules": TEDESCO_TEAMS})
    assert status_ == 201
    code = next(i["invite_code"] for i in created["invites"] if i["seat"] == 3)
    page = new_context(PHONE).new_page()
    page.goto(f"{site.base_url}/join/{created['game_id']}#invite={code}")
    text = wait_until(lambda: "Two teams of 3" in page.locator("#invitation").inner_text()
                      and page.locator("#invitation").inner_text(), "the invitation")
    assert ("Two teams of 3: seats 1, 3, 5 against 2, 4, 6, 3 boards at once, each round against another of "
            "the other team. This link takes seat 4; your teammates hold seats 2, 6.") in " ".join(text.split()), text
