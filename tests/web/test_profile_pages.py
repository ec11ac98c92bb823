"""The leaderboard and a player's profile in a real browser against a real gunicorn (issue 26): the
board's order and paging, each name linking to its profile; the profile's SVG chart with one point
per rated match, the record per opponent, replay links only once the player made its games public
(and the replay they open), the same address answering JSON to an API client; an unknown name's page."""
from __future__ import annotations

import uuid

import requests

from .support import api, new_player, rated_match, settle_rating
from .test_browser import wait_until


def unique(name: str) -> str:
    return f"{name}{uuid.uuid4().hex[:6]}"


def test_a_profile_draws_each_rated_match_and_the_record(site, new_context):
    ann, bob = new_player(site, unique("Ann")), new_player(site, unique("Bob"))
    games = [rated_match(site, ann, bob), rated_match(site, bob, ann), rated_match(site, ann, bob)]
    page = new_context().new_page()
    page.goto(f"{site.base_url}/players/{ann['name']}")
    assert page.locator("#player-name").inner_text() == ann["name"]
    points = page.locator("#rating-chart polyline").get_attribute("points").split()
    assert len(points) == len(games) == page.locator("#rating-chart circle").count()
    history = api(site, "GET", f"/players/{ann['name']}/rating-history")["matches"]
    ys = [float(point.split(",")[1]) for point in points]
    rises = [m["delta"] > 0 for m in reversed(history)][1:]
    assert [later < earlier for earlier, later in zip(ys, ys[1:])] == rises  # up the page: a higher rating
    assert page.locator("#record tbody tr").count() == 1
    assert page.locator("#record tbody tr th").inner_text().strip() == bob["name"]
    assert [cell.inner_text() for cell in page.locator("#record tbody tr td").all()] == ["2", "1", "0"]
    assert page.locator("#history tbody tr").count() == 3
    assert "provisional" in page.locator("#rating").inner_text()
    # Private games: listed, with no link to replay them.
    assert page.locator("#finished-games li").count() == 3
    assert page.locator("#finished-games a[href^='/replay/']").count() == 0
    # The same address answers JSON to a client asking for it.
    as_json = requests.get(f"{site.base_url}/players/{ann['name']}", headers={"Accept": "application/json"}, timeout=10)
    assert as_json.json()["rating"]["games"] == 3 and "Accept" in as_json.headers["Vary"]


def test_public_games_link_their_replay_from_the_profile(site, new_context):
    ann, bob = new_player(site, unique("Ann")), new_player(site, unique("Bob"))
    game_id = rated_match(site, ann, bob)
    context = new_context()
    settings = context.new_page()  # Ann turns it on from her player page
    settings.goto(f"{site.base_url}/player")
    settings.fill("#sign-in-token", ann["token"])
    settings.click("#sign-in-form button[type=submit]")
    wait_until(lambda: settings.locator("#signed-in").is_visible(), "signed in")
    assert settings.locator("#profile-link").get_attribute("href") == f"/players/{ann['name']}"
    assert not settings.locator("#public-games").is_checked()
    settings.locator("#public-games").check()
    wait_until(lambda: "now links" in settings.locator("#public-games-status").inner_text(), "the setting saved")
    page = context.new_page()
    page.goto(f"{site.base_url}/players/{ann['name']}")
    replay = page.locator(f"#finished-games a[href^='/replay/{game_id}#key=']")
    assert replay.count() == 1
    replay.click()
    wait_until(lambda: page.locator("#step-events li").count(), "the replay")
    # Bob keeps his private: his profile links nothing.
    page.goto(f"{site.base_url}/players/{bob['name']}")
    assert page.locator("#finished-games li").count() == 1
    assert page.locator("#finished-games a[href^='/replay/']").count() == 0


def test_the_leaderboard_ranks_pages_and_links_to_profiles(site, new_context):
    names = [unique(name) for name in ("Top", "Mid", "Low")]
    for name, value in zip(names, (3900, 3800, 3700)):  # above anyone else's in this session's database
        new_player(site, name)
        settle_rating(site, name, value)
    page = new_context().new_page()
    page.goto(f"{site.base_url}/")
    page.click("nav >> text=Leaderboard")
    wait_until(lambda: page.locator("#leaderboard").count(), "the leaderboard")
    rows = page.locator("#leaderboard tbody tr")
    assert [rows.nth(i).locator("th a").inner_text() for i in range(3)] == names
    assert [rows.nth(i).locator("td").first.inner_text() for i in range(3)] == ["1", "2", "3"]
    assert rows.nth(0).locator("td").nth(1).inner_text() == "3900"
    rows.nth(1).locator("th a").click()
    wait_until(lambda: page.locator("#player-name").count(), "the profile")
    assert page.locator("#player-name").inner_text() == names[1]
    assert "provisional" not in page.locator("#rating").inner_text()
    page.goto(f"{site.base_url}/leaderboard?offset=1")
    assert page.locator("#leaderboard tbody tr").first.locator("th a").inner_text() == names[1]
    assert page.locator("a[rel=prev]").count() == 1


def test_an_unknown_name_gets_a_404_page(site, new_context):
    page = new_context().new_page()
    answer = page.goto(f"{site.base_url}/players/{unique('Nobody')}")
    assert answer.status == 404 and "No such player" in page.locator("h1").inner_text()
