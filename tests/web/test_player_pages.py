"""The player pages in real browsers against a real gunicorn: sign in with a player token kept in
the browser (and make a player), my games from the server, a challenge made in one browser and
accepted in another, declined and cancelled ones, a rematch at the match's end, playing the
computer (the Procfile's house bot running), and a watch link whose page never shows a hand in play.
No secret ever travels in a requested URL. Served as the Procfile serves it (gevent workers), on
both databases."""
from __future__ import annotations

import os
import subprocess
import sys
import uuid

from types import SimpleNamespace

import pytest
import requests

from tests.api.test_waiting_live import KINDS, servers
from tests.conftest import ROOT

from .test_browser import Traffic, wait_until


@pytest.fixture(scope="module", params=KINDS)
def site(request, tmp_path_factory):
    """The service on a fresh database of each kind; a closed page's stream ends at the next keep-alive."""
    with servers(request.param, tmp_path_factory.mktemp(f"player-pages-{request.param}"), count=1,
                 env={"STREAM_KEEPALIVE_SECONDS": "2"}) as (database_url, (base_url,)):
        yield SimpleNamespace(base_url=base_url, database_url=database_url)


def unique(name: str) -> str:
    return f"{name}{uuid.uuid4().hex[:6]}"


def register(site, name: str, bot: bool = False) -> str:
    answer = requests.post(f"{site.base_url}/players", json={"name": name, "bot": bot}, timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()["token"]


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def signed_in_page(site, context, token: str):
    page = context.new_page()
    page.goto(f"{site.base_url}/player")
    page.fill("#sign-in-token", token)
    page.click("#sign-in-form button[type=submit]")
    wait_until(lambda: page.locator("#signed-in").is_visible(), "signed in")
    return page


def no_secret_in_urls(traffic: Traffic, secrets) -> None:
    assert secrets and all(len(secret) > 20 for secret in secrets)
    for url, _ in traffic.requests:
        assert not any(secret in url for secret in secrets), url


def test_make_a_player_sign_out_and_sign_in_with_the_token(site, new_context):
    context = new_context()
    traffic = Traffic(context)
    page = context.new_page()
    page.goto(f"{site.base_url}/player")
    assert page.locator("#signed-out").is_visible() and not page.locator("#signed-in").is_visible()
    name = unique("Ann")
    page.fill("#register-name", name)
    page.click("#register-form button[type=submit]")
    wait_until(lambda: page.locator("#signed-in").is_visible(), "signed in")
    assert page.locator("#who").inner_text() == f"Signed in as {name}."
    token = page.locator("#new-token-value").input_value()
    assert requests.get(f"{site.base_url}/me", headers=bearer(token), timeout=10).json()["name"] == name
    assert page.evaluate("JSON.parse(localStorage['gin.player.v1']).token") == token
    page.reload()  # the browser keeps the sign-in
    wait_until(lambda: page.locator("#signed-in").is_visible(), "still signed in")
    assert not page.locator("#new-token").is_visible()  # shown once
    page.click("#sign-out")
    wait_until(lambda: page.locator("#signed-out").is_visible(), "signed out")
    assert page.evaluate("localStorage['gin.player.v1']") is None
    page.fill("#sign-in-token", "not-a-token-at-all")
    page.click("#sign-in-form button[type=submit]")
    assert "Not signed in" in wait_until(lambda: page.locator("#sign-in-error").inner_text(), "the refusal")
    assert not page.locator("#signed-in").is_visible()
    page.fill("#register-name", name.upper())  # names are unique ignoring case
    page.click("#register-form button[type=submit]")
    assert "No player made" in wait_until(lambda: page.locator("#register-error").inner_text(), "the refusal")
    page.fill("#sign-in-token", token)
    page.click("#sign-in-form button[type=submit]")
    wait_until(lambda: page.locator("#who").inner_text() == f"Signed in as {name}.", "signed in with the token")
    no_secret_in_urls(traffic, {token})


def test_a_challenge_made_in_one_browser_is_accepted_in_another_and_both_play_it(site, new_context):
    names = unique("Ann"), unique("Bob")
    tokens = [register(site, name) for name in names]
    ann_context, bob_context = new_context(), new_context()
    traffic = Traffic(ann_context, bob_context)
    ann, bob = (signed_in_page(site, ctx, token) for ctx, token in ((ann_context, tokens[0]), (bob_context, tokens[1])))
    wait_until(lambda: "No games yet" in ann.locator("#games").inner_text(), "Ann's empty list")

    # A challenge Bob declines, and an open one Ann cancels: each leaves the lists.
    ann.fill("#challenge-to", names[1])
    ann.click("#challenge-form button[type=submit]")
    wait_until(lambda: "Challenge sent" in ann.locator("#challenge-result").inner_text(), "sent")
    declined = bob.locator("#challenges li", has_text=names[0])
    wait_until(lambda: declined.count() == 1, "the challenge on Bob's page, from his stream")
    declined.locator("button", has_text="Decline").click()
    wait_until(lambda: "No challenges waiting" in ann.locator("#challenges").inner_text(), "declined on Ann's page")
    assert requests.get(f"{site.base_url}/challenges", headers=bearer(tokens[0]), timeout=10).json()["mine"] == []
    ann.click("#challenge-form button[type=submit]")  # no name: an open challenge
    mine = ann.locator("#challenges li", has_text="anyone")
    wait_until(lambda: mine.count() == 1, "Ann's open challenge")
    mine.locator("button", has_text="Cancel").click()
    wait_until(lambda: "No challenges waiting" in ann.locator("#challenges").inner_text(), "cancelled")

    ann.fill("#challenge-to", names[1])
    ann.select_option("#challenge-preset", "oklahoma")
    ann.click("#challenge-form button[type=submit]")
    offer = bob.locator("#challenges li", has_text=names[0])
    wait_until(lambda: offer.count() == 1 and "Oklahoma" in offer.inner_text(), "the new challenge")
    offer.locator("button", has_text="Accept").click()
    bob.wait_for_url(f"{site.base_url}/play/*")
    game_id = bob.url.rsplit("/", 1)[1]
    wait_until(lambda: bob.locator("#title").inner_text() == f"{names[1]} v {names[0]}", "Bob's seat page")

    listed = ann.locator(f'#games li[data-game-id="{game_id}"]')
    wait_until(lambda: listed.count() == 1, "the game in Ann's list, from her stream")
    your_turn = requests.get(f"{site.base_url}/me/games", headers=bearer(tokens[0]), timeout=10).json()["games"][0]["your_turn"]
    assert ("your turn" if your_turn else "their turn") in listed.inner_text() and names[1] in listed.inner_text()
    listed.locator("a").click()
    ann.wait_for_url(f"{site.base_url}/play/{game_id}")
    wait_until(lambda: ann.locator("#hand-groups button[data-card]").count() >= 10, "Ann's hand")
    seen = requests.get(f"{site.base_url}/games/{game_id}", headers=bearer(tokens[0]), timeout=10).json()["hand"]
    assert sorted(ann.locator("#hand-groups button[data-card]").evaluate_all("bs => bs.map(b => b.dataset.card)")) == sorted(seen)

    # A second game (Bob challenges), where it is Ann's turn or not: the list puts her turns first.
    bob_challenge = requests.post(f"{site.base_url}/challenges", json={"to": names[0]}, headers=bearer(tokens[1]), timeout=10).json()
    requests.post(f"{site.base_url}/challenges/{bob_challenge['challenge_id']}/accept", headers=bearer(tokens[0]), timeout=10)
    ann.goto(f"{site.base_url}/player")
    wait_until(lambda: ann.locator("#games li").count() == 2, "two games")
    states = ann.locator("#games li strong").all_inner_texts()
    assert states == sorted(states, key=lambda s: s != "your turn")

    # The match ends (Bob resigns); Ann offers a rematch on her seat page, Bob accepts on his.
    ann.goto(f"{site.base_url}/play/{game_id}")
    resigned = requests.post(f"{site.base_url}/games/{game_id}/actions", json={"type": "resign"}, headers=bearer(tokens[1]), timeout=10)
    assert resigned.status_code == 200, resigned.text
    wait_until(lambda: ann.locator("#offer-rematch").is_visible(), "the rematch button at the match's end")
    ann.click("#offer-rematch")
    wait_until(lambda: "waiting for an answer" in ann.locator("#rematch-body").inner_text(), "offered")
    bob.reload()
    wait_until(lambda: bob.locator("#accept-rematch").is_visible(), "the offer on Bob's page")
    bob.click("#accept-rematch")
    bob.wait_for_url(lambda url: "/play/" in url and game_id not in url)
    rematch_id = bob.url.rsplit("/", 1)[1]
    wait_until(lambda: ann.locator("#rematch-link").is_visible(), "the rematch link on Ann's page")
    assert ann.locator("#rematch-link").get_attribute("href") == f"/play/{rematch_id}"

    # Signing out forgets the seats the player token opened in this browser.
    assert ann.evaluate("Object.values(JSON.parse(localStorage['gin.seats.v1'])).filter(s => s.player).length") >= 1
    ann.goto(f"{site.base_url}/player")
    ann.click("#sign-out")
    wait_until(lambda: ann.locator("#signed-out").is_visible(), "signed out")
    assert ann.evaluate("Object.values(JSON.parse(localStorage['gin.seats.v1'])).filter(s => s.player).length") == 0
    ann.goto(f"{site.base_url}/play/{game_id}")
    wait_until(lambda: ann.locator("#no-seat").is_visible(), "no seat once signed out")
    no_secret_in_urls(traffic, set(tokens))


def test_watch_link_made_on_the_seat_page_shows_no_hand_in_play_and_is_revocable(site, new_context):
    names = unique("Ann"), unique("Bob")
    tokens = [register(site, name) for name in names]
    made = requests.post(f"{site.base_url}/challenges", json={"to": names[1]}, headers=bearer(tokens[0]), timeout=10).json()
    game_id = requests.post(f"{site.base_url}/challenges/{made['challenge_id']}/accept", headers=bearer(tokens[1]),
                            timeout=10).json()["game_id"]
    seat_context, friend_context = new_context(), new_context()
    traffic = Traffic(seat_context, friend_context)
    ann = signed_in_page(site, seat_context, tokens[0])
    ann.goto(f"{site.base_url}/play/{game_id}")
    wait_until(lambda: ann.locator("#watch").is_visible(), "the watch panel")
    ann.click("#watch-create")
    link = wait_until(lambda: ann.locator("#watch-url").input_value(), "the watch link")
    assert link.startswith(f"{site.base_url}/watch/{game_id}#key=")
    key = link.split("#key=")[1]
    friend = friend_context.new_page()
    friend.goto(link)
    wait_until(lambda: friend.locator("#title").inner_text() == f"{names[0]} v {names[1]}", "the watch page")
    wait_until(lambda: "holds" in friend.locator("#seats").inner_text(), "the card counts")
    hands = {card for token in tokens for card in
             requests.get(f"{site.base_url}/games/{game_id}", headers=bearer(token), timeout=10).json()["hand"]}
    assert len(hands) >= 20
    shown = set(friend.locator("[data-card]").evaluate_all("ns => ns.map(n => n.dataset.card)"))
    text = friend.locator("main").inner_text()
    faces = {card.replace("T", "10")[:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[-1]] for card in hands}
    assert not shown & hands and not any(face in text for face in faces)
    assert friend.evaluate("Object.keys(localStorage).length") == 0  # a watcher holds no seat
    ann.locator(f'#watch-links li[data-link-id] button', has_text="Revoke").first.click()
    wait_until(lambda: "Revoked" in ann.locator("#watch-result").inner_text(), "revoked")
    friend.reload()
    assert "revoked" in wait_until(lambda: friend.locator("#watch-error").inner_text(), "the refusal")
    assert not friend.locator("#watched").is_visible()
    no_secret_in_urls(traffic, set(tokens) | {key})


def set_level_rating(site, level: int, value: float) -> None:
    """Give one of the house bot's levels a rating, straight in the site's database."""
    import sqlalchemy as sa
    engine = sa.create_engine(site.database_url)
    try:
        with engine.begin() as connection:
            changed = connection.execute(sa.text("UPDATE house_level_ratings SET rating = :value WHERE level = :level"),
                                         {"value": value, "level": level})
            assert changed.rowcount == 1  # the migration stored every level's row
    finally:
        engine.dispose()


def test_play_the_computer_from_the_page(site, new_context, tmp_path):
    line = next(l for l in (ROOT / "Procfile").read_text().splitlines() if l.startswith("bot:"))
    env = {**os.environ, "GIN_SERVER": site.base_url, "HOUSE_BOT_TOKEN_FILE": str(tmp_path / "house.token"),
           "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    env.pop("HOUSE_BOT_NAME", None)
    env.pop("GIN_PLAYER_TOKEN", None)
    house = subprocess.Popen(["bash", "-c", "exec " + line.split(":", 1)[1]], cwd=ROOT, env=env,
                             stdout=open(tmp_path / "house.log", "w"), stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: house.poll() is not None or requests.get(f"{site.base_url}/house-bot", timeout=10).ok,
                   "the house bot's account")
        assert house.poll() is None, (tmp_path / "house.log").read_text()
        set_level_rating(site, 4, 1710.4)  # as if rated matches had moved it
        token = register(site, unique("Carol"))
        context = new_context()
        page = signed_in_page(site, context, token)
        page.fill("#computer-target", "10")
        # Each level is rated as its own identity: the picker shows its rating, the line under it its label.
        wait_until(lambda: page.locator("#computer-level option[value='4']").inner_text() == "4 · reads the table (1710)",
                   "level 4's rating in the picker")
        assert page.locator("#computer-level option[value='2']").inner_text() == "2 · casual (1500)"
        about = page.locator("#computer-level-about").inner_text()
        assert about.startswith("House (level 3), 1500.") and "club player" in about  # level 3 unless chosen
        page.select_option("#computer-level", "4")
        assert page.locator("#computer-level-about").inner_text().startswith("House (level 4), 1710.")
        page.select_option("#computer-level", "2")
        assert "casual player" in page.locator("#computer-level-about").inner_text()  # each level says what it does
        page.click("#play-computer")
        page.wait_for_url(f"{site.base_url}/play/*", timeout=30000)
        wait_until(lambda: page.locator("#title").inner_text().endswith(" v House (level 2)"),
                   "the seat against the computer, naming its level")
        game = requests.get(f"{site.base_url}/me/games", headers=bearer(token), timeout=10).json()["games"][0]
        assert page.url.endswith(game["game_id"]) and game["opponent"]["bot"] is True
        view = requests.get(f"{site.base_url}/games/{game['game_id']}", headers=bearer(token), timeout=10).json()
        assert view["rules"]["target"] == 10 and {"seat": 1 - view["seat"], "name": "House", "level": 2} in view["players"]
    finally:
        house.terminate()
        house.wait()
    assert "Traceback" not in (tmp_path / "house.log").read_text()


def test_my_games_shows_a_table_and_who_is_on_my_board(site, new_context):
    """A table of three among players: each one's list names the table and the seat on its own
    board now, or says it sits out this hand (the API's `opponent` is then all null)."""
    names = [unique(n) for n in ("Ann", "Bob", "Cy")]
    tokens = [register(site, name) for name in names]
    made = requests.post(f"{site.base_url}/me/games", json={"seats": 3}, headers=bearer(tokens[0]), timeout=10).json()
    for invite in made["invites"]:
        joined = requests.post(f"{site.base_url}/me/games/{made['game_id']}/join",
                               json={"invite_code": invite["invite_code"]}, headers=bearer(tokens[invite["seat"]]), timeout=10)
        assert joined.status_code == 201, joined.text
    for seat, token in enumerate(tokens):
        board = requests.get(f"{site.base_url}/games/{made['game_id']}", headers=bearer(token), timeout=10).json()["my_board"]
        page = signed_in_page(site, new_context(), token)
        listed = page.locator(f'#games li[data-game-id="{made["game_id"]}"]')
        wait_until(lambda: listed.count() == 1, "the table in the list")
        text = listed.inner_text()
        assert "Table of 3" in text
        if board:
            assert f"on your board: {names[next(s for s in board['seats'] if s != seat)]}" in text
        else:
            assert "sitting out" in text
        page.close()
