"""The result page's ratings (issue 26) in a real browser against a real gunicorn, on both
databases: at the end of a rated two-seat match the seat page shows "Rating 1500 → 1662.31
(+162.31)" for its own seat and the opponent's line, as GET /players/{name} has them; at the end of
a rated table, each player's table rating; an unrated match shows no ratings panel."""
from __future__ import annotations

import requests

from tests.api.table_helpers import mover_and_action

from .support import play_until
from .test_browser import wait_until
from .test_player_pages import bearer, register, signed_in_page, site, unique  # noqa: F401 (site: a fixture)


def hand_ended(view: dict) -> bool:
    return bool(view.get("last_hand") or (view.get("scores") or {}).get("sheet"))


def accepted(site, tokens: list[str], to: str, **fields) -> tuple[str, dict[int, str]]:
    """A game Bob accepts from Ann's challenge: its id and {seat: player token}."""
    made = requests.post(f"{site.base_url}/challenges", json={"to": to, **fields}, headers=bearer(tokens[0]),
                         timeout=10).json()
    answer = requests.post(f"{site.base_url}/challenges/{made['challenge_id']}/accept", headers=bearer(tokens[1]),
                           timeout=10).json()
    return answer["game_id"], {answer["seat"]: tokens[1], 1 - answer["seat"]: tokens[0]}


def resign(site, game_id: str, token: str) -> None:
    answer = requests.post(f"{site.base_url}/games/{game_id}/actions", json={"type": "resign"},
                           headers=bearer(token), timeout=10)
    assert answer.status_code == 200 and answer.json()["status"] == "finished", answer.text


def fmt(value: float) -> str:
    """A number as the page prints it (JavaScript's shortest form: 1500, not 1500.0)."""
    return str(int(value)) if value == int(value) else str(value)


def test_the_seat_page_shows_what_a_rated_match_did_to_both_ratings(site, new_context):
    names = unique("Ann"), unique("Bob")
    tokens = [register(site, name) for name in names]
    game_id, seats = accepted(site, tokens, names[1])
    play_until(site, game_id, seats, hand_ended)  # a resignation after the first hand: rated
    ann = signed_in_page(site, new_context(), tokens[0])
    ann.goto(f"{site.base_url}/play/{game_id}")
    wait_until(lambda: ann.locator("#hand-groups button[data-card]").count() >= 10, "Ann's seat page")
    assert not ann.locator("#ratings").is_visible()  # nothing while the match is played
    resign(site, game_id, tokens[1])
    wait_until(lambda: ann.locator("#ratings").is_visible(), "the ratings at the match's end")
    lines = ann.locator("#rating-changes li").all_inner_texts()
    mine, theirs = (requests.get(f"{site.base_url}/players/{name}", timeout=10).json()["rating"] for name in names)
    won = mine["value"] - 1500
    assert won > 0 and theirs["value"] < 1500
    assert lines == [f"Rating 1500 → {fmt(mine['value'])} (+{fmt(round(won, 2))})",
                     f"{names[1]}: rating 1500 → {fmt(theirs['value'])} (−{fmt(round(1500 - theirs['value'], 2))})"]


def test_the_seat_page_shows_the_table_ratings_and_nothing_for_an_unrated_match(site, new_context):
    names = [unique(n) for n in ("Ann", "Bob", "Cy", "Dee")]
    tokens = [register(site, name) for name in names]
    made = requests.post(f"{site.base_url}/me/games", json={"seats": 4, "rules": {"target": 150}},
                         headers=bearer(tokens[0]), timeout=10).json()
    for invite in made["invites"]:
        joined = requests.post(f"{site.base_url}/me/games/{made['game_id']}/join",
                               json={"invite_code": invite["invite_code"]}, headers=bearer(tokens[invite["seat"]]),
                               timeout=10)
        assert joined.status_code == 201, joined.text
    game_id = made["game_id"]
    for _ in range(3000):
        views = {s: requests.get(f"{site.base_url}/games/{game_id}", headers=bearer(t), timeout=10).json()
                 for s, t in enumerate(tokens)}
        if hand_ended(views[0]):
            break
        seat, action = mover_and_action(views)
        moved = requests.post(f"{site.base_url}/games/{game_id}/actions", json=action, headers=bearer(tokens[seat]),
                              timeout=10)
        assert moved.status_code == 200, moved.text
    ann = signed_in_page(site, new_context(), tokens[0])
    ann.goto(f"{site.base_url}/play/{game_id}")
    wait_until(lambda: ann.locator("#table-panel").is_visible(), "Ann's table page")
    resign(site, game_id, tokens[1])  # Bob's side (seats 1 and 3) loses
    wait_until(lambda: ann.locator("#ratings").is_visible(), "the table ratings at the end")
    lines = ann.locator("#rating-changes li").all_inner_texts()
    ordinals = [requests.get(f"{site.base_url}/players/{n}", timeout=10).json()["table_rating"]["ordinal"]
                for n in names]
    assert ordinals[0] > 0 > ordinals[1]
    assert lines[0] == f"Table rating 0 → {fmt(ordinals[0])} (+{fmt(ordinals[0])})"
    assert lines[1:] == [f"{names[s]}: table rating 0 → {fmt(ordinals[s])} ({'+' if ordinals[s] > 0 else '−'}"
                         f"{fmt(abs(ordinals[s]))})" for s in (1, 2, 3)]

    # An unrated match: its end shows no ratings panel.
    game_id, seats = accepted(site, tokens[:2], names[1], rated=False)
    play_until(site, game_id, seats, hand_ended)
    ann.goto(f"{site.base_url}/play/{game_id}")
    wait_until(lambda: ann.locator("#hand-groups button[data-card]").count() >= 10, "the unrated game's page")
    resign(site, game_id, tokens[1])
    wait_until(lambda: ann.locator("#next-game").is_visible(), "the end of the unrated match")
    wait_until(lambda: ann.locator("#rematch").is_visible(), "the rematch panel, shown with the result")
    assert not ann.locator("#ratings").is_visible()
    assert requests.get(f"{site.base_url}/games/{game_id}/ratings", headers=bearer(tokens[0]),
                        timeout=10).json() == {"rated": False, "changes": []}

