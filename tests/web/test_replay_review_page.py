"""The coach's marks on the replay page (issue 41): once the worker has reviewed a finished match, the
replay shows each decision's label and the better option beside its move, the seats' summaries and a
chart of the points given away; axe finds nothing on it."""
from __future__ import annotations

from .conftest import DESKTOP
from .support import api, play_until, two_seats
from .test_browser import wait_until


def test_a_reviewed_match_shows_its_marks_and_chart_on_the_replay(site, new_context):
    from axe_playwright_python.sync_playwright import Axe

    from service.coach.worker import Worker
    game_id, tokens = two_seats(site, {"preset": "standard", "target": 25})
    play_until(site, game_id, tokens, lambda view: view["status"] == "finished")
    site.app.config["COACH_DEALS"] = 2
    with site.app.app_context():
        while Worker("web-test").once():
            pass
    review = api(site, "GET", f"/games/{game_id}/review", tokens[0])
    assert review["status"] == "done"
    first = review["review"]["decisions"][0]

    page = new_context(DESKTOP).new_page()
    page.goto(f"{site.base_url}/replay/{game_id}#token={tokens[0]}")
    wait_until(lambda: page.locator("#coach").is_visible(), "the coach's panel")
    assert "points given away a decision" in page.locator("#coach-summary").inner_text()
    assert page.locator("#coach-chart svg rect").count() == len(review["review"]["decisions"])
    replay = api(site, "GET", f"/games/{game_id}/replay", tokens[0])
    moves = [i for i, step in enumerate(replay["steps"]) if step["action"] is not None]
    for _ in range(moves[first["move"]]):
        page.keyboard.press("ArrowRight")
    wait_until(lambda: page.locator("#coach-step").inner_text().startswith("Coach:"), "the first decision's mark")
    assert page.locator("#coach-step").get_attribute("data-label") == first["label"]
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def test_the_player_page_shows_the_average_over_reviewed_matches(site, new_context):
    import uuid

    from service.coach.worker import Worker

    from .support import new_player, rated_match
    ann, bob = new_player(site, f"Ann{uuid.uuid4().hex[:6]}"), new_player(site, f"Bob{uuid.uuid4().hex[:6]}")
    rated_match(site, ann, bob)
    site.app.config["COACH_DEALS"] = 2
    with site.app.app_context():
        while Worker("web-test").once():
            pass
    average = api(site, "GET", "/me/review-average", ann["token"])
    assert average["matches"] == 1
    page = new_context(DESKTOP).new_page()
    page.goto(f"{site.base_url}/player")
    page.fill("#sign-in-token", ann["token"])
    page.click("#sign-in-form button[type=submit]")
    wait_until(lambda: "points given away a decision" in page.locator("#review-average").inner_text(), "the average")
    assert f"{average['given_away_per_decision']} points" in page.locator("#review-average").inner_text()


def test_the_seat_page_asks_the_computer_for_a_hint_where_both_seats_asked_for_them(site, new_context):
    import requests
    created = requests.post(f"{site.base_url}/games", json={"name": "Ann", "hints": True}, timeout=10).json()
    joined = requests.post(f"{site.base_url}/games/{created['game_id']}/join", timeout=10,
                           json={"invite_code": created["invite_code"], "name": "Bob", "hints": True}).json()
    game_id, tokens = created["game_id"], {0: created["token"], 1: joined["token"]}
    seat = api(site, "GET", f"/games/{game_id}", tokens[0])["to_move"]
    page = new_context(DESKTOP).new_page()
    page.goto(f"{site.base_url}/play/{game_id}#token={tokens[seat]}")
    wait_until(lambda: page.locator("#coach-hint-ask").is_visible(), "the hint button on the seat's turn")
    page.locator("#coach-hint-ask").click()
    wait_until(lambda: page.locator("#coach-hint-answer").inner_text().startswith("The computer would"), "the hint")
    assert "points expected this hand" in page.locator("#coach-hint-answer").inner_text()
    other = new_context(DESKTOP).new_page()
    other.goto(f"{site.base_url}/play/{game_id}#token={tokens[1 - seat]}")
    wait_until(lambda: other.locator("#hand").is_visible(), "the other seat's page")
    assert not other.locator("#coach-hint-ask").is_visible()  # not its turn
