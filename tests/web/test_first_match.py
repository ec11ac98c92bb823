"""What a first match in the browser met (issue 24): hints that contradicted each other during the
upcard offer, a gin told as a knock, a deadline in other words than the mail's, a tab that never
said whose turn it was, and an empty board ("holds 0 cards", "Stock 0") before the second seat
was taken. Each is checked in Chromium against the pages' own scripts."""
from __future__ import annotations

from datetime import timedelta

import requests

from service.notify.mail.scene import duration

from .conftest import DESKTOP
from .support import api, two_seats
from .test_browser import hand, move_button, wait_until


def seat_page(site, new_context, game_id: str, token: str):
    page = new_context(DESKTOP).new_page()
    page.goto(f"{site.base_url}/play/{game_id}#token={token}")
    wait_until(lambda: page.locator("#title").is_visible() and " v " in page.locator("#title").inner_text(), "the seat")
    return page


def test_every_refused_click_during_the_upcard_offer_says_the_same_and_the_tab_says_whose_turn(site, new_context):
    created = api(site, "POST", "/games", body={"name": "Ann"})
    game_id = created["game_id"]
    waiting = seat_page(site, new_context, game_id, created["token"])
    wait_until(lambda: "Waiting" in waiting.locator("#status").inner_text(), "the waiting status")
    assert waiting.locator("#own-board").is_hidden(), "a board before the second seat is taken"
    assert "holds 0" not in waiting.locator("#game").inner_text()
    joined = api(site, "POST", f"/games/{game_id}/join", body={"name": "Bob", "invite_code": created["invite_code"]})
    wait_until(lambda: waiting.locator("#own-board").is_visible(), "the board once Bob joined")
    tokens = {0: created["token"], 1: joined["token"]}
    view = api(site, "GET", f"/games/{game_id}", tokens[0])
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


def module(name: str) -> str:
    return f'await import("/assets/js/{name}.js")'


def test_a_gin_is_told_as_a_gin_and_a_deadline_in_the_mails_words(site, new_context):
    page = new_context(DESKTOP).new_page()
    page.goto(site.base_url + "/")
    # The deadline: the page's words are the mail's (notify/scene.py) for the same time left.
    now = 1_800_000_000_000
    for delta in (timedelta(days=2, hours=23, minutes=59), timedelta(days=1, minutes=5), timedelta(hours=5, minutes=10),
                  timedelta(minutes=40), timedelta(hours=48)):
        iso = page.evaluate(f"new Date({now} + {int(delta.total_seconds() * 1000)}).toISOString()")
        said = page.evaluate(f"async () => ({module('dom')}).timeLeft({iso!r}, {now})")
        assert said == f"{duration(delta)} left", (delta, said)

    # The history: a knock followed by a gin's end is "went gin"; a knock's end stays "knocked".
    told = page.evaluate(f"""async () => {{
        const {{ narrate }} = {module('history')};
        const knock = {{ type: "knock", seat: 1 }};
        const end = (result) => ({{ type: "hand_end", hand: 1, record: {{ result, knocker: 1, winner: 1, points: 25 }} }});
        return [narrate(knock, {{ seat: 0 }}, ["Ann", "House"], end("gin")),
                narrate(knock, {{ seat: 0 }}, ["Ann", "House"], end("knock"))];
    }}""")
    assert told == ["House went gin.", "House knocked."], told

    # The hand's end: the heading over the hand that ended it says gin, not "knocked".
    headings = page.evaluate(f"""async () => {{
        const {{ renderHandEnd }} = {module('hand_end')};
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


# Records every Notification made and every permission asked, and lets a test hide the tab.
WATCH_NOTIFICATIONS = """
window.__notes = []; window.__asked = 0; window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", { get: () => window.__hidden, configurable: true });
const Real = window.Notification;
window.Notification = class extends Real {
  constructor(title, options) { super(title, options); window.__notes.push([title, options && options.body]); }
};
window.Notification.requestPermission = (...args) => { window.__asked += 1; return Real.requestPermission(...args); };
"""


def seat_calling_its_player(site, new_context):
    """A started game and the page of the seat not offered the upcard, with notifications switched on
    from a click (the permission granted, every Notification recorded): (page, game id, tokens,
    the offered seat)."""
    game_id, tokens = two_seats(site)
    offered = api(site, "GET", f"/games/{game_id}", tokens[0])["to_move"]
    context = new_context(DESKTOP, permissions=["notifications"])
    context.add_init_script(WATCH_NOTIFICATIONS)
    page = context.new_page()
    page.goto(f"{site.base_url}/play/{game_id}#token={tokens[1 - offered]}")  # the seat, kept in this browser
    wait_until(lambda: " v " in page.locator("#title").inner_text(), "the seat")
    assert page.evaluate("window.__asked") == 0, "permission asked on load"
    assert not page.locator("#sound-toggle").is_checked()  # the sound is off until chosen
    page.locator("#notify-toggle").click()
    wait_until(lambda: page.locator("#notify-toggle").get_attribute("aria-pressed") == "true", "notifications on")
    assert page.evaluate("window.__asked") == 1
    return page, game_id, tokens, offered


def test_the_page_calls_its_player_when_the_turn_becomes_theirs_in_a_hidden_tab(site, new_context):
    page, game_id, tokens, offered = seat_calling_its_player(site, new_context)
    page.evaluate("window.__hidden = true")  # the player looks at another tab
    api(site, "POST", f"/games/{game_id}/actions", tokens[offered], {"type": "pass"})
    notes = wait_until(lambda: page.evaluate("window.__notes"), "the notification")
    assert notes == [["Your turn", page.locator("#title").inner_text()]], notes
    assert page.title().startswith("(Your turn)")


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR"
    return int.from_bytes(body[16:20], "big"), int.from_bytes(body[20:24], "big")


def test_installable_and_the_seat_page_opens_offline_from_the_shell(site, new_context):
    manifest = requests.get(site.base_url + "/assets/manifest.webmanifest", timeout=10)
    assert manifest.headers["Content-Type"].startswith("application/manifest+json")
    about = manifest.json()
    assert about["display"] == "standalone" and about["start_url"] == "/my-games" and about["name"]
    sizes = set()
    for icon in about["icons"]:
        fetched = requests.get(site.base_url + icon["src"], timeout=10)
        assert fetched.headers["Content-Type"] == "image/png"
        width, height = png_size(fetched.content)
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert {192, 512} <= sizes and any(i["purpose"] == "maskable" for i in about["icons"])

    game_id, tokens = two_seats(site)
    context = new_context({"width": 360, "height": 740}, is_mobile=True, has_touch=True, service_workers="allow")
    page = context.new_page()
    page.goto(f"{site.base_url}/play/{game_id}#token={tokens[0]}")
    wait_until(lambda: page.evaluate("Boolean(navigator.serviceWorker.controller)"), "the service worker", timeout=30)
    wait_until(lambda: page.locator("#hand-groups button").count() == 10, "the hand")
    page.reload()  # now through the worker: the shell and scripts go into its cache
    wait_until(lambda: page.locator("#hand-groups button").count() == 10, "the hand again")
    cached = wait_until(lambda: page.evaluate("""async () => {
        const cache = await caches.open("gin-shell-v3");
        return (await cache.keys()).map((r) => new URL(r.url).pathname); }""") or None, "the cache")
    assert f"/play/{game_id}" in cached and "/assets/js/play.js" in cached, cached
    # The installed app's start page and / were cached at install, never visited (issue 38).
    assert {"/", "/my-games", "/assets/js/my_games.js", "/assets/js/landing.js", "/assets/js/api.js"} <= set(cached), cached
    assert all(path.startswith("/assets/") or path.startswith(("/play/", "/my-games", "/player", "/docs"))
               or path == "/" for path in cached), cached  # pages and their files: no API answer

    context.set_offline(True)
    page.reload()
    wait_until(lambda: page.locator("#connection").is_visible(), "the offline notice")
    notice = page.locator("#connection").inner_text()
    assert "offline" in notice and "Trying again" in notice, notice
    start = context.new_page()  # the app's start page, offline, though never opened before
    start.goto(f"{site.base_url}/my-games")
    wait_until(lambda: start.locator("h1").count() and start.locator("#games").count(), "My games offline")
    start.close()
    context.set_offline(False)
    wait_until(lambda: page.locator("#hand-groups button").count() == 10, "the seat once online again", timeout=30)
    wait_until(page.locator("#connection").is_hidden, "the notice gone")


def test_my_games_calls_the_player_when_any_game_becomes_theirs(site, new_context):
    page, game_id, tokens, offered = seat_calling_its_player(site, new_context)  # the choice holds for My games
    page.goto(f"{site.base_url}/my-games")
    wait_until(lambda: "turn" in page.locator("#games").inner_text(), "my games")
    assert not page.title().startswith("(Your turn")
    page.evaluate("window.__hidden = true")
    api(site, "POST", f"/games/{game_id}/actions", tokens[offered], {"type": "pass"})
    notes = wait_until(lambda: page.evaluate("window.__notes"), "the notification from My games", timeout=40)
    assert notes[0][0] == "Your turn" and "v" in notes[0][1], notes
    assert page.title().startswith("(Your turn: 1) My games"), page.title()
