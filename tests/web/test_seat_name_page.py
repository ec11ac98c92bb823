"""Issue 38, item 10, on the pages: a stranger starting or joining a game under a registered
player's name (or one like it) is told so on the form, in words, and stays; the player herself,
signed in on this browser, may start a game under her own name (the page sends her token)."""
from __future__ import annotations

import re

from .support import api, new_player
from .test_block_page import signed_in, unique
from .test_browser import wait_until


def start(page, site, name: str) -> None:
    page.goto(site.base_url + "/")
    page.fill("#name", name)
    page.get_by_role("button", name="Start the game").click()


def test_the_forms_tell_a_stranger_a_players_name_is_not_theirs_and_let_her_use_it(site, new_context):
    alice = new_player(site, unique("Alice"))
    page = new_context().new_page()
    start(page, site, alice["name"])
    wait_until(lambda: "registered player's" in page.locator("#form-error").inner_text(), "the refusal")
    assert page.locator("#form-error").inner_text().startswith("The game was not created: That name is a registered")
    start(page, site, alice["name"] + "_")  # a look-alike
    wait_until(lambda: "looks like a registered player's" in page.locator("#form-error").inner_text(), "the look-alike")
    assert page.url == site.base_url + "/"

    created = api(site, "POST", "/games", body={"name": "Host"})
    page.goto(f"{site.base_url}/join/{created['game_id']}#invite={created['invite_code']}")
    wait_until(lambda: "Host invites you to play." in page.locator("#invitation").inner_text(), "the invitation")
    page.fill("#name", alice["name"].upper())
    page.get_by_role("button", name="Join").click()
    wait_until(lambda: "You did not join: That name is a registered" in page.locator("#form-error").inner_text(),
               "the join's refusal")
    page.fill("#name", "Stranger")  # a name of nobody's: joined
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))

    # Alice herself, signed in on this browser, starts a game under her own name.
    own = signed_in(new_context, site, alice)
    start(own, site, alice["name"])
    own.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
