"""Two people in two browsers play through the pages only: create, copy the invite link, join,
a whole hand by clicking (a refused click, a keyboard-only turn, a knock with its confirmation),
the end of the hand with the deck checked in the browser, updates without reload, a reload, a
360 px phone. Then a mail's link opens its seat once. Everything the browsers requested is
checked for secrets outside fragments and every page for its security headers."""
from __future__ import annotations

import re
import time

import requests

from .conftest import DESKTOP, PHONE

CARD_NAME = re.compile(r"^(ace|[2-9]|10|jack|queen|king) of (clubs|diamonds|hearts|spades)")


class Traffic:
    """Every request a browser context made, and every response it got."""

    def __init__(self, *contexts):
        self.requests, self.responses = [], []
        for context in contexts:
            context.on("request", lambda r: self.requests.append((r.url, dict(r.headers))))
            context.on("response", lambda r: self.responses.append((r.url, r.request.resource_type, dict(r.headers))))


def status(page) -> str:
    return page.locator("#status").inner_text()


def wait_until(predicate, what: str, timeout: float = 20.0):
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def move_button(page, key: str):
    return page.locator(f'#moves button[data-key="move-{key}"]')


def hand(page) -> list[str]:
    return page.locator("#hand-groups button[data-card]").evaluate_all("bs => bs.map(b => b.dataset.card)")


def discarding(page) -> bool:
    return status(page).startswith("Your turn: discard")


def press_tab_until(page, test_js: str) -> None:
    """Keyboard only: Tab through the page until the focused element passes `test_js`."""
    for _ in range(150):
        page.keyboard.press("Tab")
        if page.evaluate(f"(() => {{ const e = document.activeElement; return Boolean(e && ({test_js})); }})()"):
            return
    raise AssertionError(f"Tab never reached {test_js}")


class Players:
    """Plays turns on whichever page says it is its turn, with a few turns played in particular ways."""

    def __init__(self, pages):
        self.pages = pages
        self.refused_click_done = False
        self.keyboard_turn_done = False
        self.knocked = False

    def whose_turn(self):
        return wait_until(lambda: next((p for p in self.pages if status(p).startswith("Your turn")), None)
                          or any(p.locator("#hand-end").is_visible() for p in self.pages), "a turn")

    def play_until_hand_ends(self, limit: int = 120) -> None:
        for _ in range(limit):
            page = self.whose_turn()
            if page is True or any(p.locator("#hand-end").is_visible() for p in self.pages):
                return
            self.turn(page)
        raise AssertionError("the hand did not end")

    def turn(self, page) -> None:
        if move_button(page, "knock").count():
            return self.knock(page)
        if move_button(page, "pass").count():
            move_button(page, "pass").click()
        else:
            if not self.refused_click_done and move_button(page, "draw-discard").count():
                self.refused_click(page)
            elif not self.keyboard_turn_done:
                return self.keyboard_turn(page)
            else:
                page.locator("#stock").click()
                wait_until(lambda: discarding(page), "the discard phase")
            # Knock only once the keyboard's turn is played: a hand that could end at its first
            # draw would otherwise end before it (a deal CI can meet).
            if move_button(page, "knock").count() and self.keyboard_turn_done:
                return self.knock(page)
            card = page.locator("#hint").get_attribute("data-card")
            page.locator(f'#hand-groups button[data-card="{card}"]').click()
        # A pass or a discard hands the turn over (or ends the hand).
        wait_until(lambda: not status(page).startswith("Your turn") or page.locator("#hand-end").is_visible(),
                   "the move")

    def refused_click(self, page) -> None:
        """Take the pile's top card, then try to discard it: the server refuses, nothing changes."""
        top = page.locator("#pile").get_attribute("data-card")
        page.locator("#pile").click()
        wait_until(lambda: discarding(page), "the discard phase")
        held = hand(page)
        assert top in held and len(held) == 11
        page.locator(f'#hand-groups button[data-card="{top}"]').click()
        notice = wait_until(lambda: page.locator("#notice").inner_text(), "the refusal")
        assert "cannot discard the card you just took" in notice and "cannot-discard" not in notice.split("(")[0]
        assert hand(page) == held and discarding(page)
        self.refused_click_done = True

    def keyboard_turn(self, page) -> None:
        """A whole turn with the keyboard alone: Tab to "Draw from the stock", Enter; Tab to the
        hinted card, Enter."""
        before = len(page.locator("#events li").all())
        press_tab_until(page, "e.dataset.key === 'move-draw-stock'")
        page.keyboard.press("Enter")
        wait_until(lambda: discarding(page), "the discard phase")
        card = page.locator("#hint").get_attribute("data-card")  # a discard, even where a knock is open
        press_tab_until(page, f"e.dataset.card === '{card}' && e.closest('#hand-groups')")
        label = page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert CARD_NAME.match(label) and label.endswith(": discard")
        page.keyboard.press("Enter")
        wait_until(lambda: not discarding(page), "the discard")
        assert card not in hand(page)
        # The history is read after the view is drawn: it tells the draw and the discard once it has.
        wait_until(lambda: len(page.locator("#events li").all()) >= before + 2, "the turn in the history")
        self.keyboard_turn_done = True

    def knock(self, page) -> None:
        move_button(page, "knock").click()
        dialog = page.locator("#knock-dialog")
        wait_until(dialog.is_visible, "the knock dialog")
        assert page.locator("#knock-melds input:checked").count() >= 1
        assert "Deadwood" in page.locator("#knock-deadwood").inner_text()
        assert page.locator("#knock-confirm").is_enabled()
        page.locator("#knock-confirm").click()
        wait_until(lambda: page.locator("#hand-end").is_visible(), "the end of the hand")
        self.knocked = True


def test_two_people_play_a_hand_in_their_browsers(site, new_context):
    ann_context = new_context(DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    bob_context = new_context(PHONE, is_mobile=True, has_touch=True)
    traffic = Traffic(ann_context, bob_context)
    ann, bob = ann_context.new_page(), bob_context.new_page()
    errors = []
    for page in (ann, bob):
        page.on("pageerror", lambda error: errors.append(str(error)))

    # Ann starts a game on the landing page and copies the invite link.
    ann.goto(site.base_url + "/")
    ann.fill("#name", "Ann")
    ann.select_option("#preset", "standard")
    ann.get_by_role("button", name="Start the game").click()
    ann.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    ann.get_by_role("button", name="Copy link").click()
    wait_until(lambda: "Copied" in ann.locator("#copy-result").inner_text(), "the copy")
    invite = ann.evaluate("navigator.clipboard.readText()")
    assert invite == ann.input_value("#invite-link")
    assert re.fullmatch(rf"{site.base_url}/join/[A-Za-z0-9_-]+#invite=[A-Za-z0-9_-]+", invite)
    assert status(ann) == "Waiting for your opponent to join."
    ann.evaluate("window.stillTheSamePage = true")  # gone if the page reloads

    # Bob opens it on his phone: who invites him to what, then Join.
    bob.goto(invite)
    wait_until(lambda: "Ann invites you to play." in bob.locator("#invitation").inner_text(), "the invitation")
    assert "Standard gin, played to 100 points." in bob.locator("#invitation").inner_text()
    bob.fill("#name", "Bob")
    bob.get_by_role("button", name="Join").click()
    bob.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    wait_until(lambda: bob.locator("#title").inner_text() == "Bob v Ann", "Bob's table")

    # Ann's page sees him arrive without a reload (long-poll).
    wait_until(lambda: ann.locator("#title").inner_text() == "Ann v Bob", "Ann's page to update")
    assert ann.evaluate("window.stillTheSamePage") is True
    assert ann.locator("#invite").is_hidden()
    assert ann.get_by_role("button", name=CARD_NAME).count() == 10  # each card of the hand by name
    assert re.match(r"Discard pile, .+ of .+ on top", ann.locator("#pile").get_attribute("aria-label"))

    # They play a hand to its end by clicking (and one turn by keyboard alone).
    players = Players([ann, bob])
    for _ in range(4):  # a hand that runs out of stock is void: play on until someone knocks
        players.play_until_hand_ends()
        for page in (ann, bob):
            wait_until(lambda: page.locator("#hand-end [data-verified]").count(), "the deck check")
            assert page.locator("#hand-end [data-verified]").get_attribute("data-verified") == "true"
            assert "Deck verified" in page.locator("#hand-end").inner_text()
        if players.knocked:
            break
        for page in (ann, bob):
            page.get_by_role("button", name="Continue").click()
    assert players.knocked and players.refused_click_done and players.keyboard_turn_done
    for page in (ann, bob):
        panel = page.locator("#hand-end").inner_text()
        assert "(knocked)" in panel and "Deadwood" in panel
        wait_until(lambda: page.locator("#sheet-table tbody tr").count() >= 2, "the score sheet")

    # A reload keeps the seat (the token stayed in the browser, not in the address).
    hand_before = hand(bob)
    bob.reload()
    wait_until(lambda: bob.locator("#title").inner_text() == "Bob v Ann", "the reloaded table")
    assert hand(bob) == hand_before and "#" not in bob.url

    # The phone's layout: nothing wider than the 360 px screen.
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert bob.evaluate("document.body.scrollWidth") <= PHONE["width"]
    assert errors == []

    secrets = {ann.evaluate("JSON.parse(localStorage['gin.seats.v1'])")[gid]["token"]
               for gid in ann.evaluate("Object.keys(JSON.parse(localStorage['gin.seats.v1']))")}
    secrets |= {seat["token"] for seat in bob.evaluate("Object.values(JSON.parse(localStorage['gin.seats.v1']))")}
    secrets.add(invite.split("#invite=")[1])
    check_traffic(site, traffic, secrets)


def check_traffic(site, traffic: Traffic, secrets: set[str]) -> None:
    """No request URL and no page, script or stylesheet holds a secret; no Referer is ever sent;
    every page came with the security headers."""
    assert len(secrets) == 3 and all(len(s) > 20 for s in secrets)
    for url, headers in traffic.requests:
        assert not any(secret in url for secret in secrets), url  # fragments are never requested
        assert not {k.lower(): v for k, v in headers.items()}.get("referer"), url  # none, or empty
    loaded = {(url, kind) for url, kind, _ in traffic.responses if kind in ("document", "script", "stylesheet")}
    assert {kind for _, kind in loaded} == {"document", "script", "stylesheet"}
    for url, kind in loaded:
        body = requests.get(url, timeout=10).text
        assert not any(secret in body for secret in secrets), url
    for url, kind, headers in traffic.responses:
        if kind == "document":
            assert headers["referrer-policy"] == "no-referrer" and headers["x-content-type-options"] == "nosniff"
            assert "frame-ancestors 'none'" in headers["content-security-policy"]
            assert "script-src 'self'" in headers["content-security-policy"]


def test_a_mails_link_opens_the_seat_once(site, new_context):
    from tests.notify.conftest import confirm_addresses, text
    confirm_addresses(site.app, "ann@example.org", "bob@example.org")
    created = requests.post(site.base_url + "/games", json={"name": "Ann", "email": "ann@example.org"}, timeout=10).json()
    joined = requests.post(f"{site.base_url}/games/{created['game_id']}/join", timeout=10, json={
        "invite_code": created["invite_code"], "name": "Bob", "email": "bob@example.org"}).json()
    site.deliver()
    [mail] = [m for m in site.mail.catcher.to("bob@example.org") if created["game_id"][:8] in m["Subject"]]
    link = re.search(r"Play in your browser: (\S+)", text(mail)).group(1)
    assert link.startswith(f"{site.base_url}/play/{created['game_id']}#link=")

    page = new_context(PHONE).new_page()
    page.goto(link)
    wait_until(lambda: page.locator("#title").is_visible() and page.locator("#title").inner_text() == "Bob v Ann",
               "Bob's seat")
    assert "#" not in page.url  # the key left the address bar at once
    bobs_hand = requests.get(f"{site.base_url}/games/{created['game_id']}", timeout=10,
                             headers={"Authorization": f"Bearer {joined['token']}"}).json()["hand"]
    wait_until(lambda: sorted(hand(page)) == sorted(bobs_hand), "Bob's own cards")
    devices = wait_until(lambda: page.locator("#tokens").inner_text().count("Revoke") == 2 and
                         page.locator("#tokens").inner_text(), "the seat's devices")
    assert "(this browser)" in devices

    # The network drops: the page says so, and recovers by itself when it is back.
    page.context.set_offline(True)
    wait_until(page.locator("#connection").is_visible, "the connection notice")
    assert "offline" in page.locator("#connection").inner_text()
    page.context.set_offline(False)
    wait_until(page.locator("#connection").is_hidden, "the recovery")

    # "My games" lists the seat, with whose turn it is; forgetting it is one click.
    page.goto(site.base_url + "/my-games")
    entry = wait_until(lambda: "Bob v Ann" in page.locator("#games").inner_text() and page.locator("#games li"),
                       "the seat in My games")
    assert "turn" in entry.inner_text()
    page.goto(f"{site.base_url}/play/{created['game_id']}")
    wait_until(lambda: page.locator("#title").inner_text() == "Bob v Ann", "the seat again")

    # The same link again, in another browser: refused, and it says why.
    other = new_context(DESKTOP).new_page()
    other.goto(link)
    wait_until(other.locator("#no-seat").is_visible, "the refusal")
    refusal = other.locator("#no-seat").inner_text()
    assert refusal.count("used already") == 1 and refusal.lower().count("newest mail") == 1, refusal  # said once
    assert other.locator("#game").is_hidden()

    # Revoking this browser's token from the page signs it out.
    page.get_by_role("button", name=re.compile(r"Revoke: .*\(this browser\)")).click()
    wait_until(page.locator("#no-seat").is_visible, "signed out")
    revoked = page.evaluate("localStorage['gin.seats.v1']")
    assert created["game_id"] not in revoked


def test_the_knock_dialogs_meld_search_matches_the_engine(site, new_context):
    """The knock dialog proposes the melds it sends with the knock: its search in the browser must
    find the engine's lowest deadwood, or a legal knock would look over the limit."""
    import random

    from service.rules import full_deck, min_deadwood, parse_cards
    chance = random.Random(10)
    hands = [[str(card) for card in chance.sample(full_deck(), 10)] for _ in range(300)]
    hands += [["AS", "2S", "3S", "4S", "4H", "4D", "4C", "9C", "TC", "JC"],  # a card wanted by a set and a run
              ["7H", "7D", "7C", "7S", "5S", "6S", "8S", "9H", "9D", "9C"]]
    page = new_context().new_page()
    page.goto(site.base_url + "/")
    found = page.evaluate("""async (hands) => {
        const cards = await import('/assets/js/cards.js');
        return hands.map((hand) => cards.deadwoodOf(hand, cards.bestMelds(hand)).points);
    }""", hands)
    assert found == [min_deadwood(parse_cards(" ".join(hand))) for hand in hands]
