"""Tables of three and four in real browsers against a real gunicorn (the Procfile's gevent
workers), on both databases: the landing page starts the table and shows an invite link per seat,
each person joins in a browser of their own, and the seat page draws the caller's own board with
the two-player code plus the table panel. Three players play a whole hand by clicking, and the
seat sitting out sees the board in play and never a card of a hand; four players see both boards
and the partnerships, a move is made on each board, and no page shows a partner's hand."""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
import requests

from tests.api.test_waiting_live import KINDS, servers

from .conftest import PHONE
from .test_browser import Traffic, discarding, hand, move_button, status, wait_until
from .test_player_pages import no_secret_in_urls

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
INVITE = re.compile(r"^(http://127\.0\.0\.1:\d+)/join/([A-Za-z0-9_-]+)#invite=([A-Za-z0-9_-]+)$")


@pytest.fixture(scope="module", params=KINDS)
def site(request, tmp_path_factory):
    with servers(request.param, tmp_path_factory.mktemp(f"table-pages-{request.param}"), count=1,
                 env={"STREAM_KEEPALIVE_SECONDS": "2"}) as (_, (base_url,)):
        yield SimpleNamespace(base_url=base_url)


def face(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


def start_table(site, page, seats: int, target: int) -> tuple[str, list[str]]:
    """Ann starts a table on the landing page: (the game's id, the invite links shown, by seat)."""
    page.goto(site.base_url + "/")
    page.fill("#name", "Ann")
    page.select_option("#seats", str(seats))
    page.fill("#target", str(target))
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    wait_until(lambda: page.locator("#table-invites li").count() == seats - 1, "an invite per seat")
    assert status(page) == f"Waiting for {seats - 1} more players to join."
    assert page.locator("#invite-one").is_hidden()
    links = [page.input_value(f"#invite-link-{seat}") for seat in range(1, seats)]
    for link in links:
        match = INVITE.match(link)
        assert match and match.group(2) == game_id, link
    assert len(set(links)) == seats - 1  # a code of its own for each seat
    return game_id, links


def join(page, link: str, name: str) -> None:
    page.goto(link)
    wait_until(lambda: "Ann invites you to a game of " in page.locator("#invitation").inner_text(), "the invitation")
    page.fill("#name", name)
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))


def token_of(page, game_id: str) -> str:
    return page.evaluate(f"JSON.parse(localStorage['gin.seats.v1'])['{game_id}'].token")


def api_view(site, game_id: str, token: str) -> dict:
    answer = requests.get(f"{site.base_url}/games/{game_id}", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def cards_on_page(page) -> tuple[set[str], str]:
    """Every card the page names by data attribute, and its whole text (faces like 7♥)."""
    named = set(page.locator("[data-card]").evaluate_all("nodes => nodes.map(n => n.dataset.card).filter(Boolean)"))
    return named, page.locator("body").inner_text()


def assert_page_hides(page, secret: set[str], what: str) -> None:
    named, text = cards_on_page(page)
    assert not named & secret, f"{what}: {sorted(named & secret)}"
    shown = {card for card in secret if re.search(rf"(?<![0-9]){re.escape(face(card))}", text)}
    assert not shown, f"{what}: {sorted(shown)}"


def on_page(page, predicate, what: str):
    """wait_until, saying on a timeout what the page shows (its status and its last notice)."""
    try:
        return wait_until(predicate, what)
    except AssertionError as error:
        raise AssertionError(f"{error}: status {status(page)!r}, notice {page.locator('#notice').inner_text()!r}") from None


def version(page) -> int:
    """The version of the view the page shows (the ETag's number, on #game)."""
    return int(page.locator("#game").get_attribute("data-version") or 0)


def play_turn(page) -> None:
    """One turn by clicking: knock when the page offers it, pass an offer, else draw from the
    stock and discard the hinted card. Each click is done when the page shows a newer view."""
    before = version(page)
    if move_button(page, "pass").count():
        move_button(page, "pass").click()
    else:
        if not move_button(page, "knock").count():
            page.locator("#stock").click()
            on_page(page, lambda: discarding(page) and version(page) > before, "the discard phase")
        if move_button(page, "knock").count():
            move_button(page, "knock").click()
            wait_until(page.locator("#knock-dialog").is_visible, "the knock dialog")
            page.locator("#knock-confirm").click()
            wait_until(lambda: page.locator("#hand-end").is_visible(), "the end of the hand")
            return
        before = version(page)
        card = page.locator("#hint").get_attribute("data-card")
        page.locator(f'#hand-groups button[data-card="{card}"]').click()
    on_page(page, lambda: version(page) > before, "the move")


def whose_turn(pages, current) -> object:
    """The page whose turn it is, once it shows the game's current version (`current()`), or
    True when a page shows the end of a hand."""
    def find():
        if any(p.locator("#hand-end").is_visible() for p in pages):
            return True
        now = current()
        return next((p for p in pages if version(p) == now and status(p).startswith("Your turn")), None)
    return wait_until(find, "a turn")


def test_three_players_join_in_three_browsers_and_play_a_hand(site, new_context):
    contexts = [new_context() for _ in range(3)]
    traffic = Traffic(*contexts)
    pages = [context.new_page() for context in contexts]
    errors = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
    game_id, links = start_table(site, pages[0], 3, target=10)
    join(pages[1], links[0], "Bob")
    join(pages[2], links[1], "Cat")
    for page in pages:
        wait_until(lambda: page.locator("#title").inner_text() == "Ann, Bob and Cat", "the table on every page")
    tokens = [token_of(page, game_id) for page in pages]
    views = [api_view(site, game_id, token) for token in tokens]
    assert [v["seat"] for v in views] == [0, 1, 2] and views[0]["format"] == "rotation"

    out = views[0]["sitting_out"]
    playing = [seat for seat in range(3) if seat != out]
    board = views[0]["boards"][0]
    assert sorted(board["seats"]) == playing
    hands = {seat: set(views[seat]["my_board"]["view"]["hand"]) for seat in playing}

    # The seat sitting out: the board in play (its pile and counts), no hand and no card of one.
    watcher = pages[out]
    wait_until(lambda: status(watcher).startswith("You sit out this hand"), "the sitting-out status")
    assert watcher.locator("#own-board").is_hidden() and watcher.locator("#hand-groups [data-card]").count() == 0
    public = watcher.locator('#table-panel [data-board="0"]')
    wait_until(public.is_visible, "the board in play")
    assert public.locator("[data-card]").first.get_attribute("data-card") == board["discard_pile"][-1]
    assert "holds 10 cards" in public.inner_text()
    assert "(you) — sits out this hand" in watcher.locator(f'#table-panel li[data-seat="{out}"]').inner_text()
    assert_page_hides(watcher, hands[playing[0]] | hands[playing[1]], "the sitting-out page shows a hand's card")
    # The two at the board: each its own hand only, drawn as in a game of two.
    for seat in playing:
        other = next(s for s in playing if s != seat)
        wait_until(lambda: sorted(hand(pages[seat])) == sorted(hands[seat]), "the seat's own hand")
        assert_page_hides(pages[seat], hands[other], "a player's page shows the opponent's hand")
        assert "sits out this hand" in pages[seat].locator(f'#table-panel li[data-seat="{out}"]').inner_text()

    # The hand, played by clicking on whichever page says it is its turn (a void hand is re-dealt).
    current = lambda: api_view(site, game_id, tokens[0])["version"]  # noqa: E731
    for _ in range(300):
        page = whose_turn(pages, current)
        if page is True:
            break
        play_turn(page)
    else:
        raise AssertionError("no hand ended")
    for page in pages:  # every seat, the one that sat out too, sees the hand and checks its deck
        wait_until(lambda: page.locator("#hand-end [data-verified]").count(), "the deck check")
        assert page.locator("#hand-end [data-verified]").get_attribute("data-verified") == "true"
        wait_until(lambda: page.locator("#sheet-table tbody tr").count() == 2, "the score sheet's line")

    final = api_view(site, game_id, tokens[0])
    record = final["last_hand"]
    names = ["Ann", "Bob", "Cat"]
    sheet = pages[out].locator("#sheet-table tbody tr").first.inner_text()
    assert " v ".join(names[s] for s in record["seats"]) in sheet
    if final["status"] == "finished":  # the hand reached the target: the result on every page
        winner = names[record["winner"]]
        for seat, page in enumerate(pages):
            wait_until(lambda: status(page).startswith("The match is over:"), "the result")
            assert (f"{winner} won" if seat != record["winner"] else "You won") in status(page)
            assert page.locator("#table-panel .settlement li").count() == 2
    else:  # the winner plays the one who sat out; the loser sits out
        loser = next(s for s in record["seats"] if s != record["winner"])
        assert final["sitting_out"] == loser and sorted(final["boards"][0]["seats"]) == sorted([record["winner"], out])
        for page in pages:
            page.get_by_role("button", name="Continue").click()
        wait_until(lambda: status(pages[loser]).startswith("You sit out this hand"), "the next pairing")
        assert pages[loser].locator("#own-board").is_hidden()
        wait_until(pages[out].locator("#own-board").is_visible, "the seat that sat out at the board")
        assert sorted(hand(pages[out])) == sorted(api_view(site, game_id, tokens[out])["my_board"]["view"]["hand"])
    assert errors == []
    no_secret_in_urls(traffic, set(tokens) | {INVITE.match(link).group(3) for link in links})


def test_four_players_see_both_boards_and_the_partnerships(site, new_context):
    contexts = [new_context() for _ in range(3)] + [new_context(PHONE, is_mobile=True, has_touch=True)]
    traffic = Traffic(*contexts)
    pages = [context.new_page() for context in contexts]
    errors = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(str(error)))
    game_id, links = start_table(site, pages[0], 4, target=100)
    names = ["Ann", "Bob", "Cat", "Dan"]
    for seat in (1, 2, 3):
        join(pages[seat], links[seat - 1], names[seat])
        if seat < 3:  # the creator's page lists only the invites still to send
            wait_until(lambda: pages[0].locator("#table-invites li").count() == 3 - seat, "the invite list")
    for page in pages:
        wait_until(lambda: page.locator("#title").inner_text() == "Ann & Cat v Bob & Dan", "the table on every page")
    tokens = [token_of(page, game_id) for page in pages]
    views = [api_view(site, game_id, token) for token in tokens]
    assert views[0]["format"] == "partnership" and views[0]["sides"] == [[0, 2], [1, 3]]

    for seat, page in enumerate(pages):
        panel = page.locator("#table-panel")
        wait_until(lambda: panel.locator("[data-board]").count() == 2, "both boards")
        assert "Partnership scores" in panel.inner_text()
        rows = panel.locator(".standings tbody tr").all_inner_texts()
        partner = (seat + 2) % 4
        assert any(f"you & {names[partner]}" in row or f"{names[partner]} & you" in row for row in rows), rows
        assert "(your partner)" in panel.locator(f'li[data-seat="{partner}"]').inner_text()
        own = set(views[seat]["my_board"]["view"]["hand"])
        wait_until(lambda: set(hand(page)) == own, "the seat's own hand")
        # Each board has a deck of its own: a name the page may show for another reason (its own
        # hand, a pile) says nothing; any other card of the partner's or the opponent's hand would.
        shown_anyway = own | {card for b in views[seat]["boards"] for card in b["discard_pile"]}
        partners_hand = set(views[partner]["my_board"]["view"]["hand"]) - shown_anyway
        assert partners_hand
        assert_page_hides(page, partners_hand, "a page shows the partner's hand")
        opponent = next(s for s in views[seat]["my_board"]["seats"] if s != seat)
        assert_page_hides(page, set(views[opponent]["my_board"]["view"]["hand"]) - shown_anyway,
                          "a page shows the opponent's hand")

    # Each board's mover sees its own deadline (its own clock, not only the seat's on_clock).
    for mover in api_view(site, game_id, tokens[0])["to_move"]:
        wait_until(lambda seat=mover: " Due " in status(pages[seat]), f"seat {mover}'s own deadline on its page")
    # One move on each board, each by clicking on the page of the seat to move there; the other
    # board's players see it in their panel.
    for index in (0, 1):
        board = api_view(site, game_id, tokens[0])["boards"][index]
        mover = board["to_move"]
        page = pages[mover]
        before = api_view(site, game_id, tokens[mover])["version"]
        wait_until(lambda: version(page) == before and status(page).startswith("Your turn"), "the mover's turn")
        play_turn(page)
        after = api_view(site, game_id, tokens[0])
        assert after["version"] > before
        moved = after["boards"][index]
        assert (moved["to_move"], moved["phase"], moved["stock_count"]) != (board["to_move"], board["phase"], board["stock_count"])
        watcher = pages[next(s for s in range(4) if s not in board["seats"])]  # a seat of the other board
        expected = f"{names[moved['to_move']]} to " if moved["to_move"] is not None else None
        heading = watcher.locator(f'#table-panel [data-board="{index}"] h3')
        wait_until(lambda: expected is None or expected in heading.inner_text(), "the other board's move shown")
    assert pages[3].evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # Dan's phone
    mine = contexts[1].new_page()  # Bob's "My games": the table, with whose move it is
    mine.goto(site.base_url + "/my-games")
    entry = wait_until(lambda: "(4 players)" in mine.locator("#games").inner_text() and mine.locator("#games li").inner_text(),
                       "the table in My games")
    assert entry.startswith("Bob with Ann, Cat, Dan (4 players)") and ("your turn" in entry or " to move" in entry), entry
    # The history is read after the view is drawn: both boards' moves are in it once it has.
    wait_until(lambda: "Board 1:" in pages[0].locator("#events").inner_text()
               and "Board 2:" in pages[0].locator("#events").inner_text(), "both boards' moves in the history")
    assert errors == []
    no_secret_in_urls(traffic, set(tokens) | {INVITE.match(link).group(3) for link in links})


def test_a_finished_partnership_match_shows_the_result_to_every_side(site, new_context):
    """A partnership match played to its end through the API (the test helpers' policy), then
    opened by a seat of each side: the result, the settlement, a sheet line per decided hand."""
    from tests.api.helpers import choose
    from tests.api.table_helpers import start_table as start_over_api

    def post(path, body):
        answer = requests.post(site.base_url + path, json=body, timeout=10)
        return answer.status_code, answer.json()
    game = start_over_api(post, 4, {"target": 10})
    names = ["Ann", "P1", "P2", "P3"]
    for _ in range(3000):
        views = {seat: api_view(site, game["id"], token) for seat, token in game["tokens"].items()}
        if views[0]["status"] == "finished":
            break
        seat = views[0]["to_move"][0]
        answer = requests.post(f"{site.base_url}/games/{game['id']}/actions", json=choose(views[seat]["my_board"]["view"]),
                               headers={"Authorization": f"Bearer {game['tokens'][seat]}"}, timeout=10)
        assert answer.status_code == 200, answer.text
    result = views[0]["result"]
    assert views[0]["status"] == "finished" and result["reason"] == "target"
    winners = result["winner_seats"]
    loser = next(s for s in range(4) if s not in winners)
    for seat in (winners[0], loser):
        page = new_context().new_page()
        page.goto(f"{site.base_url}/play/{game['id']}#token={game['tokens'][seat]}")
        wait_until(lambda: status(page).startswith("The match is over:"), "the result")
        partner = next(s for s in result["winner_seats"] if s != winners[0])
        expected = "You won" if seat in winners else f"{names[winners[0]]} & {names[partner]} won"
        assert expected in status(page), status(page)
        assert page.locator("#own-board").is_hidden()
        assert page.locator("#table-panel .settlement li").count() == 1
        assert str(result["settlement"][0]["points"]) in page.locator("#table-panel .settlement").inner_text()
        wait_until(lambda: page.locator("#sheet-table tbody tr").count() == len(views[0]["scores"]["sheet"]) + 1,
                   "a sheet line per decided hand, and the totals")
        assert "#" not in page.url
