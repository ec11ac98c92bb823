"""What a first match in the browser met (issue 24): hints that contradicted each other during the
upcard offer, a gin told as a knock, a deadline in other words than the mail's, a tab that never
said whose turn it was, and an empty board ("holds 0 cards", "Stock 0") before the second seat
was taken. Each is checked in Chromium against the pages' own scripts."""
from __future__ import annotations

from datetime import timedelta

import requests

from service.notify.scene import duration

from .conftest import DESKTOP
from .test_browser import hand, move_button, wait_until


def post(site, path: str, body: dict) -> dict:
    response = requests.post(site.base_url + path, json=body, timeout=10)
    assert response.status_code in (200, 201), response.text
    return response.json()


def seat_page(site, new_context, game_id: str, token: str):
    page = new_context(DESKTOP).new_page()
    page.goto(f"{site.base_url}/play/{game_id}#token={token}")
    wait_until(lambda: page.locator("#title").is_visible() and " v " in page.locator("#title").inner_text(), "the seat")
    return page


def test_every_refused_click_during_the_upcard_offer_says_the_same_and_the_tab_says_whose_turn(site, new_context):
    created = post(site, "/games", {"name": "Ann"})
    game_id = created["game_id"]
    waiting = seat_page(site, new_context, game_id, created["token"])
    wait_until(lambda: "Waiting" in waiting.locator("#status").inner_text(), "the waiting status")
    assert waiting.locator("#own-board").is_hidden(), "a board before the second seat is taken"
    assert "holds 0" not in waiting.locator("#table").inner_text()
    joined = post(site, f"/games/{game_id}/join", {"name": "Bob", "invite_code": created["invite_code"]})
    wait_until(lambda: waiting.locator("#own-board").is_visible(), "the board once Bob joined")
    tokens = {0: created["token"], 1: joined["token"]}
    view = requests.get(f"{site.base_url}/games/{game_id}", headers={"Authorization": f"Bearer {tokens[0]}"},
                        timeout=10).json()
    assert view["phase"] == "upcard_offer", view["phase"]
    offered = view["to_move"]
    page, other = seat_page(site, new_context, game_id, tokens[offered]), \
        seat_page(site, new_context, game_id, tokens[1 - offered])
    wait_until(lambda: move_button(page, "pass").count(), "the upcard offer")

    page.locator(f'#hand-groups button[data-card="{hand(page)[0]}"]').click()
    on_card = wait_until(lambda: page.locator("#notice").inner_text(), "the hint for a card")
    page.evaluate("document.getElementById('notice').textContent = ''")
    page.locator("#stock").click()
    on_stock = wait_until(lambda: page.locator("#notice").inner_text(), "the hint for the stock")
    assert on_card == on_stock and "upcard" in on_card and "pass" in on_card, (on_card, on_stock)
    assert "Draw a card first" not in on_card and "cannot" not in on_stock

    names = page.locator("#title").inner_text()
    assert page.title().startswith(f"(Your turn) {names}"), page.title()
    assert not other.title().startswith("(Your turn)"), other.title()
    move_button(page, "pass").click()  # the turn goes over: so does the tab's word
    wait_until(lambda: not page.title().startswith("(Your turn)"), "the title after the pass")
    wait_until(lambda: other.title().startswith("(Your turn)"), "the other tab's turn")


def module(page, name: str) -> str:
    return f'await import("/assets/js/{name}.js")'


def test_a_gin_is_told_as_a_gin_and_a_deadline_in_the_mails_words(site, new_context):
    page = new_context(DESKTOP).new_page()
    page.goto(site.base_url + "/")
    # The deadline: the page's words are the mail's (notify/scene.py) for the same time left.
    now = 1_800_000_000_000
    for delta in (timedelta(days=2, hours=23, minutes=59), timedelta(days=1, minutes=5), timedelta(hours=5, minutes=10),
                  timedelta(minutes=40), timedelta(hours=48)):
        iso = page.evaluate(f"new Date({now} + {int(delta.total_seconds() * 1000)}).toISOString()")
        said = page.evaluate(f"async () => ({module(page, 'dom')}).timeLeft({iso!r}, {now})")
        assert said == f"{duration(delta)} left", (delta, said)

    # The history: a knock followed by a gin's end is "went gin"; a knock's end stays "knocked".
    told = page.evaluate(f"""async () => {{
        const {{ narrate }} = {module(page, 'history')};
        const knock = {{ type: "knock", seat: 1 }};
        const end = (result) => ({{ type: "hand_end", hand: 1, record: {{ result, knocker: 1, winner: 1, points: 25 }} }});
        return [narrate(knock, {{ seat: 0 }}, ["Ann", "House"], end("gin")),
                narrate(knock, {{ seat: 0 }}, ["Ann", "House"], end("knock"))];
    }}""")
    assert told == ["House went gin.", "House knocked."], told

    # The hand's end: the heading over the hand that ended it says gin, not "knocked".
    headings = page.evaluate(f"""async () => {{
        const {{ renderHandEnd }} = {module(page, 'hand_end')};
        const heading = async (result) => {{
            const section = document.createElement("section");
            const record = {{ hand: 1, result, knocker: 1, winner: 1, points: 25, multiplier: 1,
                knocker_melds: [["2C", "3C", "4C"]], knocker_deadwood: [], knocker_points: 0,
                defender_melds: [], defender_layoffs: [], defender_deadwood: ["KD"], defender_points: 10 }};
            await renderHandEnd(section, record, {{ seat: 0, revealed_deals: [] }}, ["Ann", "House"], null, () => {{}});
            return section.querySelector("h3").textContent;
        }};
        return [await heading("gin"), await heading("knock")];
    }}""")
    assert headings == ["House (gin)", "House (knocked)"], headings


def test_the_docs_fit_a_phone_and_name_the_seats_offered(site, new_context):
    page = new_context({"width": 360, "height": 740}).new_page()
    page.goto(site.base_url + "/docs")
    wait_until(lambda: page.locator("#problems").count(), "the docs")
    wide = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .slice(0, 5).map((e) => e.tagName + ' ' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""")
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), wide
    assert page.locator('header nav a[href="/player"]').count() == 1
    assert "2, 3, 4, 6 or 8 seats" in page.locator("main").inner_text()
