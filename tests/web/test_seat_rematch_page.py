"""The end of a match between two people without accounts offers the next one (issue 24): one seat
offers a rematch on its page, the other's page shows the offer (told by the finished game's stream,
which stays open for it: no looking now and then), and
accepting takes that browser to the new game, dealt, where the offering browser already holds
seat 0."""
from __future__ import annotations

from .conftest import DESKTOP
from .support import api, two_seats
from .test_browser import wait_until


def path_of(page) -> str:
    """The page's path, or "" while it navigates (its scripts' context is being replaced)."""
    from playwright.sync_api import Error as PlaywrightError  # here: without Playwright the tests skip
    try:
        return page.evaluate("location.pathname")
    except PlaywrightError:
        return ""


def test_two_anonymous_seats_play_again_from_their_pages(site, new_context):
    game_id, tokens = two_seats(site)
    pages, asked = {}, {0: [], 1: []}
    for seat, token in tokens.items():
        page = new_context(DESKTOP).new_page()
        page.on("request", lambda request, seat=seat: asked[seat].append(request.url.split("/games/", 1)[-1]))
        page.goto(f"{site.base_url}/play/{game_id}#token={token}")
        wait_until(lambda: " v " in page.locator("#title").inner_text(), "the seat")
        pages[seat] = page
    api(site, "POST", f"/games/{game_id}/actions", tokens[1], {"type": "resign"})

    ann, bob = pages[0], pages[1]
    wait_until(lambda: ann.locator("#offer-rematch").is_visible(), "Ann's offer button")
    ann.locator("#offer-rematch").click()
    wait_until(lambda: "waiting for an answer" in ann.locator("#rematch-body").inner_text(), "Ann's offer made")
    wait_until(lambda: bob.locator("#accept-rematch").is_visible(), "the offer on Bob's page", timeout=30)
    assert "Ann offers a rematch" in bob.locator("#rematch-body").inner_text()
    # Bob's page heard it on the game's stream: it asked where the rematch stands once at the end
    # and once when told, never in a loop.
    assert f"{game_id}/stream" in asked[1], asked[1]
    assert asked[1].count(f"{game_id}/seat-rematch") == 2, asked[1]
    bob.locator("#accept-rematch").click()
    wait_until(lambda: path_of(bob).startswith("/play/") and game_id not in path_of(bob), "Bob taken to the rematch")
    wait_until(lambda: bob.locator("#hand-groups button").count() == 10, "Bob's new hand")
    assert bob.locator("#title").inner_text() == "Bob v Ann"

    wait_until(lambda: ann.locator("#rematch-link").is_visible() and "took the rematch" in
               ann.locator("#rematch-body").inner_text(), "Ann told", timeout=30)
    ann.locator("#rematch-link").click()
    wait_until(lambda: ann.locator("#hand-groups button").count() == 10, "Ann's new hand")
    assert ann.locator("#title").inner_text() == "Ann v Bob"


def test_the_other_seat_declines_and_the_offering_page_says_so(site, new_context):
    """Issue 38: the offer is a sentence with Accept and Decline beside it; Decline answers it, and the
    offering seat's page, told on the finished game's stream, says who declined."""
    from axe_playwright_python.sync_playwright import Axe

    from .test_accessibility import WCAG
    game_id, tokens = two_seats(site)
    pages = {}
    for seat, token in tokens.items():
        page = new_context(DESKTOP).new_page()
        page.goto(f"{site.base_url}/play/{game_id}#token={token}")
        wait_until(lambda: " v " in page.locator("#title").inner_text(), "the seat")
        pages[seat] = page
    api(site, "POST", f"/games/{game_id}/actions", tokens[0], {"type": "resign"})
    ann, bob = pages[0], pages[1]
    wait_until(lambda: bob.locator("#offer-rematch").is_visible(), "Bob's offer button")
    bob.locator("#offer-rematch").click()
    wait_until(lambda: ann.locator("#decline-rematch").is_visible(), "the offer on Ann's page", timeout=30)
    assert ann.locator("#rematch-body p").inner_text() == \
        "Bob offers a rematch: the same rules and move time. Accept or decline?"
    assert ann.locator("#accept-rematch").is_visible()
    violations = Axe().run(ann, options=WCAG).response["violations"]
    assert not violations, [(v["id"], [n["target"] for n in v["nodes"][:4]]) for v in violations]
    ann.locator("#decline-rematch").click()
    wait_until(lambda: ann.locator("#rematch-body").inner_text() == "You declined the rematch.", "Ann's answer")
    wait_until(lambda: bob.locator("#rematch-body").inner_text() == "Ann declined the rematch.", "Bob told", timeout=10)
    assert api(site, "GET", f"/games/{game_id}/seat-rematch", tokens[1])["declined"] is True
