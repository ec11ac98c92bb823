"""Mahjong gin on the seat page: Ann takes several discards, lays a meld from cards she selects and
adds a card to a meld on the table, by keyboard, in the browser; the table's melds are drawn numbered with their owners;
Bob (the bot, over the API) and Ann's other moves are played over the API. No card of Bob's hand
ever appears in Ann's page. On both databases."""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
import requests

from gin_client.bots import reference
from tests.api.test_waiting_live import KINDS, servers

from .test_browser import wait_until

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


@pytest.fixture(scope="module", params=KINDS)
def site(request, tmp_path_factory):
    """A real gunicorn on each database (its log checked for tracebacks at the end)."""
    with servers(request.param, tmp_path_factory.mktemp(f"mahjong-page-{request.param}"), count=1) as (_, (base_url,)):
        yield SimpleNamespace(base_url=base_url)


def face(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


def start(site) -> dict:
    created = requests.post(f"{site.base_url}/games", json={"name": "Ann", "rules": {"preset": "mahjong_gin"}},
                            timeout=10).json()
    joined = requests.post(f"{site.base_url}/games/{created['game_id']}/join",
                           json={"invite_code": created["invite_code"], "name": "Bob"}, timeout=10).json()
    return {"id": created["game_id"], "tokens": {0: created["token"], 1: joined["token"]}}


def api_view(site, game, seat) -> dict:
    answer = requests.get(f"{site.base_url}/games/{game['id']}", timeout=10,
                          headers={"Authorization": f"Bearer {game['tokens'][seat]}"})
    assert answer.status_code == 200, answer.text
    return answer.json()


def api_act(site, game, seat, action) -> None:
    answer = requests.post(f"{site.base_url}/games/{game['id']}/actions", json=action, timeout=10,
                           headers={"Authorization": f"Bearer {game['tokens'][seat]}"})
    assert answer.status_code == 200, answer.text


def assert_hides(page, secret: set[str]) -> None:
    """No card of Bob's hand on the board in play: named by the page or shown as text. (The end of
    the last hand and the history of finished hands are public and may name the same cards.)"""
    board = page.locator("#own-board")
    named = set(board.locator("[data-card]").evaluate_all("nodes => nodes.map(n => n.dataset.card).filter(Boolean)"))
    named |= set(board.locator("#meld-select input").evaluate_all("nodes => nodes.map(n => n.value)"))
    text = board.inner_text() + page.locator("#status").inner_text()
    assert not named & secret, sorted(named & secret)
    assert not {c for c in secret if re.search(rf"(?<![0-9]){re.escape(face(c))}", text)}, text


def newer_view(site, game, version: int, what: str) -> dict:
    """Ann's view once the server is past `version` (her move from the page arrived)."""
    def newer():
        view = api_view(site, game, 0)
        return view if view["version"] > version else None
    return wait_until(newer, what)


def cards_in(locator) -> list[str]:
    return locator.locator("[data-card]").evaluate_all("nodes => nodes.map(n => n.dataset.card)")


def at_version(page, version: int) -> None:
    wait_until(lambda: int(page.locator("#game").get_attribute("data-version") or 0) >= version, f"version {version}")


def keyboard_pick(page, cards) -> None:
    for card in cards:
        page.focus(f'#meld-select input[value="{card}"]')
        page.keyboard.press("Space")
        assert page.is_checked(f'#meld-select input[value="{card}"]')


def test_a_take_of_several_a_meld_and_an_add_on_in_the_browser_and_no_card_of_the_other_hand(site, new_context):
    done: set[str] = set()
    for _ in range(5):  # the deals are random: a match may end before both came up for Ann
        game = start(site)
        page = new_context().new_page()
        page.goto(f"{site.base_url}/play/{game['id']}#token={game['tokens'][0]}")
        wait_until(lambda: page.locator("#game").is_visible(), "the seat page")
        for _ in range(400):
            ann, bob = api_view(site, game, 0), api_view(site, game, 1)
            if ann["status"] == "finished" or done == {"meld", "add_on", "take"}:
                break
            at_version(page, ann["version"])
            assert page.locator("#mahjong").is_visible()
            assert_hides(page, set(bob["hand"]) - set(ann["opponent"]["known_cards"]))
            if ann["to_move"] == 1:
                api_act(site, game, 1, reference.choose_action(bob))
                continue
            if ann["to_move"] != 0:
                continue
            legal = ann["legal_actions"]
            several = [a for a in legal if a["type"] == "draw" and a.get("count", 1) > 1]
            melds = [a for a in legal if a["type"] == "meld"]
            adds = [a for a in legal if a["type"] == "add_on"]
            if melds and "meld" not in done:
                cards = max(melds, key=lambda a: len(a["cards"]))["cards"]
                page.click("#lay-meld")  # nothing selected: said why, nothing sent
                assert page.locator("#meld-status").inner_text() == "Select three or more cards for a meld."
                assert api_view(site, game, 0)["version"] == ann["version"]
                keyboard_pick(page, cards)
                page.focus("#lay-meld")
                page.keyboard.press("Enter")
                after = newer_view(site, game, ann["version"], "the meld laid")
                assert {"cards": sorted(cards), "owners": [0] * len(cards)} in [
                    {"cards": sorted(m["cards"]), "owners": m["owners"]} for m in after["table"]]
                at_version(page, after["version"])
                number = [sorted(m["cards"]) for m in after["table"]].index(sorted(cards)) + 1
                row = page.locator(f'#table-melds li[data-meld="{number}"]')
                assert row.get_attribute("aria-label").endswith("(you)") and sorted(cards_in(row)) == sorted(cards)
                done.add("meld")
            elif several and "take" not in done:
                count = max(a["count"] for a in several)
                taken = ann["discard_pile"][-count:]
                page.focus("#take-count")
                page.select_option("#take-count", str(count))
                page.focus("#take-several")
                page.keyboard.press("Enter")
                after = newer_view(site, game, ann["version"], "the cards taken")
                assert set(taken) <= set(after["hand"]) and after["must_use"] == taken[0]
                at_version(page, after["version"])
                assert page.locator("#must-use").inner_text().startswith(face(taken[0]) + ", the deepest card you took")
                done.add("take")
            elif adds and "add_on" not in done:
                action = adds[0]
                before = ann["table"][action["meld"]]["cards"]
                keyboard_pick(page, [action["card"]])
                page.focus("#add-target")
                page.select_option("#add-target", str(action["meld"]))
                page.focus("#add-on")
                page.keyboard.press("Enter")
                after = newer_view(site, game, ann["version"], "the card added")
                grown = after["table"][action["meld"]]
                assert sorted(grown["cards"]) == sorted(before + [action["card"]])
                assert grown["owners"][grown["cards"].index(action["card"])] == 0
                at_version(page, after["version"])
                row = page.locator(f'#table-melds li[data-meld="{action["meld"] + 1}"]')
                assert cards_in(row) == grown["cards"]
                assert "you" in row.get_attribute("aria-label") and "you" in row.inner_text()
                done.add("add_on")
            else:
                api_act(site, game, 0, reference.choose_action(ann))
        if done == {"meld", "add_on", "take"}:
            break
    assert done == {"meld", "add_on", "take"}
    watch_the_table(site, game, new_context)


def watch_the_table(site, game, new_context) -> None:
    """A watch link's page draws the melds on the table with their owners' names, and no hand."""
    made = requests.post(f"{site.base_url}/games/{game['id']}/watch-links", json={}, timeout=10,
                         headers={"Authorization": f"Bearer {game['tokens'][0]}"})
    assert made.status_code == 201, made.text
    key = made.json()["key"]
    public = requests.get(f"{site.base_url}/games/{game['id']}/public", timeout=10,
                          headers={"Authorization": f"Bearer {key}"}).json()
    ann, bob = api_view(site, game, 0), api_view(site, game, 1)
    assert public["table"] == ann["table"] and public["version"] == ann["version"]
    page = new_context().new_page()
    page.goto(f"{site.base_url}/watch/{game['id']}#key={key}")
    wait_until(lambda: page.locator("#watched").is_visible(), "the watch page")
    if not ann["table"]:  # a new hand was dealt just now: nothing on the table yet
        assert page.locator("#table-melds-empty").is_visible()
        return
    rows = page.locator("#mahjong #table-melds li")
    assert rows.count() == len(ann["table"])
    for number, meld in enumerate(ann["table"], 1):
        row = rows.nth(number - 1)
        assert cards_in(row) == meld["cards"]
        names = {"Ann" if s == 0 else "Bob" for s in meld["owners"]}
        assert all(name in row.get_attribute("aria-label") for name in names)
    hands = set(ann["hand"]) | set(bob["hand"])
    watched = set(page.locator("[data-card]").evaluate_all("nodes => nodes.map(n => n.dataset.card)"))
    assert watched and not watched & hands  # the pile's top and the table's melds only
