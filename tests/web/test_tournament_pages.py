"""The tournament pages in Chromium: a player makes a tournament on /tournaments, two others enter it
from their own browsers, the organizer starts it, a round is played, and every browser sees the
crosstable and standings; the pages are axe-clean and fit 360 px."""
from __future__ import annotations

import uuid

import pytest

from .conftest import DESKTOP, PHONE
from .support import api, play_until
from .test_accessibility import WCAG
from .test_browser import wait_until


def signed_in(new_context, site, token: str, viewport=DESKTOP):
    """A browser signed in as the player (the player page's own form)."""
    page = new_context(viewport).new_page()
    page.goto(site.base_url + "/player")
    page.fill("#sign-in-token", token)
    page.click("#sign-in-form button[type=submit]")
    wait_until(lambda: page.locator("#signed-in:not([hidden])").count(), "signed in")
    return page


def test_make_enter_start_play_a_round_and_see_the_crosstable(site, new_context):
    suffix = uuid.uuid4().hex[:6]
    tokens = {name: api(site, "POST", "/players", body={"name": f"{name}{suffix}"})["token"]
              for name in ("Org", "Amy", "Ben")}
    organizer = signed_in(new_context, site, tokens["Org"])
    organizer.goto(site.base_url + "/tournaments")
    wait_until(lambda: organizer.locator("#new-form:not([hidden])").count(), "the form for a signed-in player")
    organizer.fill("#new-name", f"Cup {suffix}")
    organizer.select_option("#new-format", "round_robin")
    organizer.fill("#new-min", "3")
    organizer.fill("#new-max", "3")
    organizer.fill("#new-target", "25")
    organizer.click("#new-form button[type=submit]")
    wait_until(lambda: organizer.locator("#do-join").count(), "the new tournament's page")
    tournament_id = organizer.locator("body").get_attribute("data-tournament")
    organizer.click("#do-join")
    for name in ("Amy", "Ben"):
        page = signed_in(new_context, site, tokens[name], PHONE)
        page.goto(f"{site.base_url}/tournaments/{tournament_id}")
        page.click("#do-join")
        wait_until(lambda: "entered" in page.locator("#you").inner_text(), f"{name} entered")
    organizer.reload()
    organizer.click("#do-start")
    wait_until(lambda: organizer.locator("#rounds section").count() == 1, "round 1 shown")
    t = api(site, "GET", f"/tournaments/{tournament_id}")
    [pairing] = t["rounds_played"][0]["pairings"]
    game_id = pairing["games"][0]["game_id"]
    names = {p: f"{p}{suffix}" for p in ("Org", "Amy", "Ben")}
    seats = {}
    for short, name in names.items():  # the two players of the game, by the seats its view shows
        if name in (pairing["first"], pairing["second"]):
            view = api(site, "GET", f"/games/{game_id}", tokens[short])
            seats[view["seat"]] = tokens[short]
    play_until(site, game_id, seats, lambda view: view["status"] == "finished")
    organizer.reload()
    wait_until(lambda: organizer.locator("#crosstable tbody tr").count() == 3, "the crosstable")
    assert organizer.locator("#standings tbody tr").count() == 3
    assert organizer.locator("#standings tbody tr").first.locator("td").nth(1).inner_text() == "1"  # the winner's point
    link = organizer.locator("#crosstable a").first.get_attribute("href")
    assert link.startswith(f"/replay/{game_id}#key=")
    phone = signed_in(new_context, site, tokens["Amy"], PHONE)
    phone.goto(f"{site.base_url}/tournaments/{tournament_id}")
    wait_until(lambda: phone.locator("#crosstable tbody tr").count() == 3, "the crosstable at 360 px")
    assert phone.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "360"])
def test_the_tournament_pages_are_axe_clean(site, new_context, viewport):
    from axe_playwright_python.sync_playwright import Axe
    token = api(site, "POST", "/players", body={"name": f"Axe{uuid.uuid4().hex[:6]}"})["token"]
    made = api(site, "POST", "/tournaments", token, {"name": "Axe Cup", "format": "swiss", "rounds": 2})
    page = new_context(viewport).new_page()
    for path, drawn in (("/tournaments", "#tournament-list tbody tr"),
                        (f"/tournaments/{made['tournament_id']}", "#entrants")):
        page.goto(site.base_url + path)
        wait_until(lambda: page.locator(drawn).count() and "Loading" not in page.locator("main").inner_text(), path)
        violations = Axe().run(page, options=WCAG).response["violations"]
        assert not violations, "\n".join(f"{v['id']}: {v['help']} {[n['target'] for n in v['nodes'][:4]]}"
                                         for v in violations)
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert api(site, "GET", "/tournaments")["tournaments"], "the API still answers JSON at the page's address"


def test_a_knockouts_page_draws_its_bracket_and_stays_axe_clean_at_360_px(site, new_context):
    from axe_playwright_python.sync_playwright import Axe
    suffix = uuid.uuid4().hex[:6]
    tokens = {name: api(site, "POST", "/players", body={"name": f"{name}{suffix}"})["token"]
              for name in ("Kay", "Lou", "Mo")}
    made = api(site, "POST", "/tournaments", tokens["Kay"], {"name": f"Knock {suffix}", "format": "knockout",
                                                             "min_entrants": 3})
    for token in tokens.values():
        api(site, "POST", f"/tournaments/{made['tournament_id']}/join", token)
    t = api(site, "POST", f"/tournaments/{made['tournament_id']}/start", tokens["Kay"])
    [semi, final] = t["bracket"]["rounds"]
    top = semi["slots"][0]["first"]  # seed 1: the bye
    page = new_context(PHONE).new_page()
    page.goto(f"{site.base_url}/tournaments/{made['tournament_id']}")
    wait_until(lambda: page.locator("#bracket section").count() == 2, "the bracket's two rounds")
    assert [h.inner_text() for h in page.locator("#bracket h3").all()] == ["Semi-finals", "Final"]
    semis = page.locator("#bracket section").first.locator("li").all_inner_texts()
    assert semis[0] == f"{top} (1) v a bye → {top}", semis
    assert "→" not in semis[1], semis  # the other semi-final is being played
    assert page.locator("#bracket section").nth(1).locator("li").inner_text() == \
        f"{top} (1) v the winner of match 2", final
    violations = Axe().run(page, options=WCAG).response["violations"]
    assert not violations, "\n".join(f"{v['id']}: {v['help']} {[n['target'] for n in v['nodes'][:4]]}"
                                     for v in violations)
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
