"""A rematch at a table on the seat pages, in real browsers against a real gunicorn (both databases):
three players' table ends, one offers the rematch on their page, the others see who has accepted,
the last acceptance takes that player to the new table and the others' pages link to it."""
from __future__ import annotations

import requests

from .test_browser import wait_until
from .test_player_pages import bearer, register, signed_in_page, site, unique  # noqa: F401  (site: the fixture)


def players_table(base_url: str, tokens: list[str]) -> str:
    made = requests.post(f"{base_url}/me/games", json={"seats": len(tokens), "rules": {"target": 25}},
                         headers=bearer(tokens[0]), timeout=10).json()
    for invite in made["invites"]:
        joined = requests.post(f"{base_url}/me/games/{made['game_id']}/join", json={"invite_code": invite["invite_code"]},
                               headers=bearer(tokens[invite["seat"]]), timeout=10)
        assert joined.status_code == 201, joined.text
    return made["game_id"]


def test_a_table_rematch_offered_and_accepted_on_the_seat_pages(site, new_context):  # noqa: F811
    names = [unique(n) for n in ("Ann", "Bob", "Cy")]
    tokens = [register(site, name) for name in names]
    game_id = players_table(site.base_url, tokens)
    resigned = requests.post(f"{site.base_url}/games/{game_id}/actions", json={"type": "resign"},
                             headers=bearer(tokens[2]), timeout=10)
    assert resigned.status_code == 200 and resigned.json()["status"] == "finished", resigned.text
    pages = [signed_in_page(site, new_context(), token) for token in tokens]
    for page in pages:
        page.goto(f"{site.base_url}/play/{game_id}")
    ann, bob, cy = pages
    wait_until(lambda: ann.locator("#offer-rematch").is_visible(), "the rematch button at the table's end")
    ann.click("#offer-rematch")
    wait_until(lambda: "starts when every player accepts" in ann.locator("#rematch-body").inner_text(), "offered")
    assert ann.locator("#accept-rematch").count() == 0  # the offerer has nothing to answer
    wait_until(lambda: bob.locator("#accept-rematch").is_visible(), "the offer on Bob's page")
    bob.click("#accept-rematch")
    wait_until(lambda: f"{names[1]}: accepts" in bob.locator("#rematch-seats").inner_text(), "Bob's acceptance shown")
    assert game_id in bob.url and bob.locator("#accept-rematch").count() == 0  # no game yet: Bob stays
    wait_until(lambda: f"{names[1]}: accepts" in cy.locator("#rematch-seats").inner_text(), "Cy sees it")
    assert f"{names[2]}: has not answered" in cy.locator("#rematch-seats").inner_text()
    cy.click("#accept-rematch")
    cy.wait_for_url(lambda url: "/play/" in url and game_id not in url)
    rematch_id = cy.url.rsplit("/", 1)[1]
    for page in (ann, bob):
        wait_until(lambda: page.locator("#rematch-link").is_visible(), "the rematch link")
        assert page.locator("#rematch-link").get_attribute("href") == f"/play/{rematch_id}"
    seats = [requests.get(f"{site.base_url}/games/{rematch_id}", headers=bearer(t), timeout=10).json()["seat"]
             for t in tokens]
    assert seats == [0, 1, 2]
