"""Accessibility held by a tool (issue 24): axe-core (the copy axe-playwright-python ships) runs in
Chromium on every page a player meets (the landing page, joining, a seat at 2, 3, 4 and 8 seats,
a hand's end, a match's end (and a rated one's, with its ratings), my games, the player page, a watch page, a
replay of two seats and of a table, the docs, the leaderboard and a player's profile) at 1280 and 360 px, and
finds no violation of the WCAG 2.1 A and AA rules. At 200% zoom (1280 px seen as 640)
with reduced motion asked for, each page fits its width and nothing moves."""
from __future__ import annotations

import uuid

import pytest

from .conftest import DESKTOP, PHONE
from .support import (api, full_table, new_player, play_table_out, play_until, rated_match, settle_rating,
                      two_seats)
from .test_browser import wait_until

WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
        "resultTypes": ["violations"]}


def table(site, seats: int) -> tuple[str, str]:
    created = api(site, "POST", "/games", body={"name": "Ann", "seats": seats})
    for invite in created["invites"]:
        api(site, "POST", f"/games/{created['game_id']}/join",
            body={"invite_code": invite["invite_code"], "name": f"P{invite['seat']}"})
    return created["game_id"], created["token"]


def rated_match_end(site) -> str:
    """A finished match between two player accounts: its seat page shows the ratings panel."""
    tokens = [api(site, "POST", "/players", body={"name": f"{name}{uuid.uuid4().hex[:6]}"})["token"]
              for name in ("Ann", "Bob")]
    bob = api(site, "GET", "/me", tokens[1])["name"]
    offer = api(site, "POST", "/challenges", tokens[0], {"to": bob, "rules": {"target": 25}})
    made = api(site, "POST", f"/challenges/{offer['challenge_id']}/accept", tokens[1])
    seats = {made["seat"]: tokens[1], 1 - made["seat"]: tokens[0]}
    play_until(site, made["game_id"], seats, lambda view: view["status"] == "finished")
    return f"/play/{made['game_id']}#token={seats[0]}"


@pytest.fixture(scope="module")
def pages(site) -> dict[str, tuple[str, str]]:
    """Each page to check: (its address, the text that says it has drawn itself)."""
    found = {"landing": ("/", "body"), "my games": ("/my-games", "#games"), "player": ("/player", "main"),
             "docs": ("/docs", "#problems")}
    waiting = api(site, "POST", "/games", body={"name": "Ann"})
    found["join"] = (f"/join/{waiting['game_id']}#invite={waiting['invite_code']}", "form")
    game_id, tokens = two_seats(site, {"preset": "standard", "target": 50})
    found["seat of 2"] = (f"/play/{game_id}#token={tokens[0]}", "#hand-groups button")
    ended_id, ended_tokens = two_seats(site, {"preset": "standard", "target": 500})
    play_until(site, ended_id, ended_tokens, lambda view: view["last_hand"] is not None)
    found["hand end"] = (f"/play/{ended_id}#token={ended_tokens[0]}", "#hand-end h2")
    finished_id, finished_tokens = two_seats(site, {"preset": "standard", "target": 25})
    play_until(site, finished_id, finished_tokens, lambda view: view["status"] == "finished")
    found["match end"] = (f"/play/{finished_id}#token={finished_tokens[0]}", "#next-game a")
    link = api(site, "POST", f"/games/{finished_id}/watch-links", finished_tokens[0])
    found["watch"] = (f"/watch/{finished_id}#key={link['key']}", "#sheet-table tr")
    found["replay"] = (f"/replay/{finished_id}#key={link['key']}", "#step-events li")
    found["rated match end"] = (rated_match_end(site), "#rating-changes li")
    table_id, table_tokens = full_table(site, 4, {"target": 40})
    play_table_out(site, table_id, table_tokens)
    found["table replay"] = (f"/replay/{table_id}#token={table_tokens[1]}", "#replay-hands section.replay-board")
    for seats in (3, 4, 8):
        table_id, token = table(site, seats)
        found[f"seat of {seats}"] = (f"/play/{table_id}#token={token}", "#table-panel h2")
    ada, ben = new_player(site, "Ada"), new_player(site, "Ben", bot=True)
    rated_match(site, ada, ben)
    rated_match(site, ben, ada)
    api(site, "PATCH", "/me", ada["token"], {"public_games": True})
    api(site, "POST", "/challenges/" + api(site, "POST", "/challenges", ada["token"], {"to": "Ben"})["challenge_id"]
        + "/accept", ben["token"])  # a game in play too
    settle_rating(site, "Ada", 1720.5)
    found["leaderboard"] = ("/leaderboard", "#leaderboard tbody tr")
    found["profile"] = ("/players/Ada", "#rating-chart circle")
    return found


PAGES = ["landing", "join", "seat of 2", "seat of 3", "seat of 4", "seat of 8", "hand end", "match end",
         "rated match end", "my games", "player", "watch", "replay", "table replay", "docs", "leaderboard",
         "profile"]


@pytest.mark.parametrize("width", ["1280", "360"])
@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_nothing(site, new_context, pages, name, width):
    from axe_playwright_python.sync_playwright import Axe
    path, drawn = pages[name]
    page = new_context({**DESKTOP, "width": 1280} if width == "1280" else PHONE).new_page()
    page.goto(site.base_url + path)
    wait_until(lambda: page.locator(drawn).count(), f"the {name} page")
    violations = Axe().run(page, options=WCAG).response["violations"]
    assert not violations, "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} -- {[n['target'] for n in v['nodes'][:4]]}" for v in violations)


@pytest.mark.parametrize("name", PAGES)
def test_readable_at_200_percent_zoom_with_reduced_motion(site, new_context, pages, name):
    path, drawn = pages[name]
    page = new_context({"width": 640, "height": 450}, device_scale_factor=2, reduced_motion="reduce").new_page()
    page.goto(site.base_url + path)
    wait_until(lambda: page.locator(drawn).count(), f"the {name} page")
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .slice(0, 5).map((e) => e.tagName + '#' + e.id + '.' + e.className)""")
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), wide
    assert page.evaluate("document.getAnimations().length") == 0


@pytest.mark.parametrize("name", ["seat of 2", "match end", "watch", "profile"])
def test_every_landmark_is_named_once(site, new_context, pages, name):
    """axe's landmark-unique (a best practice, beside the WCAG rules above): a region inside a
    section does not repeat the section's name (the score sheet's scrolling table)."""
    from axe_playwright_python.sync_playwright import Axe
    path, drawn = pages[name]
    page = new_context(DESKTOP).new_page()
    page.goto(site.base_url + path)
    wait_until(lambda: page.locator(drawn).count(), f"the {name} page")
    violations = Axe().run(page, options={"runOnly": {"type": "rule", "values": ["landmark-unique"]}}).response["violations"]
    assert not violations, [n["target"] for v in violations for n in v["nodes"]]
