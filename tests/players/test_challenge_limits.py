"""Fair limits on challenges (issue 26): a flood of open challenges hides nobody's challenge from
the listing, which is filtered in SQL and paged newest first; a player holds at most
CHALLENGES_PENDING_MAX pending offers and receives at most CHALLENGES_FROM_ONE_MAX from one sender;
challenging an unknown name and a name of the wrong kind answer alike."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from ..api.helpers import auth
from .support import challenge, new_player
from .test_players import count


def flood(app, senders: list[dict], each: int) -> None:
    """`each` open bot-only challenges from every sender, written straight to the database, all
    older than anything made after (as the flood of the outside test was)."""
    from service.core.extensions import db
    from service.core.tokens import new_game_id
    from service.players.models import Challenge
    start = datetime.now(timezone.utc) - timedelta(hours=1)
    with app.app_context():
        for number in range(each):
            for sender in senders:
                db.session.add(Challenge(
                    id=new_game_id(), challenger_id=sender["id"], target_id=None, rules={}, move_time_hours=None,
                    opponent="bot", challenger_seat=0, status="pending", created_at=start + timedelta(seconds=number),
                    expires_at=start + timedelta(days=3)))
        db.session.commit()


def all_pages(client, player: dict, limit: int = 200) -> list[dict]:
    pages, cursor = [], None
    while True:
        query = {"limit": limit, **({"cursor": cursor} if cursor else {})}
        response = client.get("/challenges", query_string=query, headers=auth(player["token"]))
        assert response.status_code == 200, response.get_json()
        pages.append(response.get_json())
        cursor = pages[-1]["next_cursor"]
        if cursor is None:
            return pages


def test_a_flood_of_open_challenges_hides_no_later_challenge(client, app):
    spammers = [new_player(client, f"Spam{n}") for n in range(5)]
    flood(app, spammers, 100)  # 500 open challenges, bots only
    ann, bob, robot = new_player(client, "Ann"), new_player(client, "Bob"), new_player(client, "Robot", bot=True)
    to_bob, open_one = challenge(client, ann, "Bob"), challenge(client, ann, None)
    first = client.get("/challenges", headers=auth(bob["token"])).get_json()
    assert [c["challenge_id"] for c in first["to_me"]] == [to_bob["challenge_id"]]
    assert [c["challenge_id"] for c in first["open"]] == [open_one["challenge_id"]]  # the bot-only ones are not his
    assert first["next_cursor"] is None
    mine = client.get("/challenges", headers=auth(ann["token"])).get_json()["mine"]
    assert [c["challenge_id"] for c in mine] == [open_one["challenge_id"], to_bob["challenge_id"]]  # newest first
    # The bot sees the two open challenges it may take first, newest first, then pages through the flood.
    pages = all_pages(client, robot, limit=50)
    assert [c["challenge_id"] for c in pages[0]["open"][:1]] == [open_one["challenge_id"]]
    seen = [c["challenge_id"] for page in pages for c in page["open"]]
    assert len(seen) == len(set(seen)) == 501


def test_the_cursor_pages_through_every_challenge_once(client, app):
    ann = new_player(client, "Ann")
    made = [challenge(client, ann, None)["challenge_id"] for _ in range(7)]
    pages = all_pages(client, ann, limit=3)
    assert [len(page["mine"]) for page in pages] == [3, 3, 1]
    assert [c["challenge_id"] for page in pages for c in page["mine"]] == made[::-1]


def test_a_bad_cursor_or_limit_is_a_problem(client):
    ann = new_player(client, "Ann")
    for query in ({"cursor": "nope"}, {"cursor": "1.a b"},
                  {"cursor": "99999999999999999999.a"}, {"limit": 0}, {"limit": 201}, {"limit": "x"}):
        response = client.get("/challenges", query_string=query, headers=auth(ann["token"]))
        assert response.status_code == 422 and response.get_json()["code"] == "validation-error", query
        assert response.mimetype == "application/problem+json"


def test_a_player_holds_at_most_the_pending_cap(client, app, monkeypatch):
    monkeypatch.setitem(app.config, "CHALLENGES_PENDING_MAX", 4)
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    for _ in range(3):
        challenge(client, ann, None)
    series = client.post("/series", json={"to": "Bob"}, headers=auth(ann["token"]))
    assert series.status_code == 201, series.get_json()  # a series offer counts too: the fourth
    for body, path in (({"to": None}, "/challenges"), ({"to": "Bob"}, "/series")):
        refused = client.post(path, json=body, headers=auth(ann["token"]))
        assert refused.status_code == 409 and refused.get_json()["code"] == "too-many-pending-offers", path
        assert refused.mimetype == "application/problem+json"
    assert count(app, "challenges") == 3 and count(app, "series") == 1
    cancelled = client.get("/challenges", headers=auth(ann["token"])).get_json()["mine"][0]
    client.post(f"/challenges/{cancelled['challenge_id']}/cancel", headers=auth(ann["token"]))
    challenge(client, ann, None)  # room again once one is cancelled


def test_the_default_caps(client, app):
    from service.core.settings import setting
    with app.app_context():
        assert (setting("CHALLENGES_PENDING_MAX"), setting("CHALLENGES_FROM_ONE_MAX")) == (20, 3)


def test_a_player_receives_at_most_the_cap_from_one_sender(client, app):
    ann, bob, cat = new_player(client, "Ann"), new_player(client, "Bob"), new_player(client, "Cat")
    for _ in range(2):
        challenge(client, ann, "Bob")
    assert client.post("/series", json={"to": "Bob"}, headers=auth(ann["token"])).status_code == 201
    for body, path in (({"to": "Bob"}, "/challenges"), ({"to": "Bob"}, "/series")):
        refused = client.post(path, json=body, headers=auth(ann["token"]))
        assert refused.status_code == 409 and refused.get_json()["code"] == "too-many-offers-to-player", path
    assert count(app, "challenges") == 2 and count(app, "series") == 1
    challenge(client, ann, "Cat")  # another player, and others to Bob, are not held back
    challenge(client, cat, "Bob")


def test_an_unknown_name_and_a_name_of_the_other_kind_answer_alike(client, app):
    ann, bob, robot = new_player(client, "Ann"), new_player(client, "Bob"), new_player(client, "Robot", bot=True)
    for opponent, exists, missing in (("bot", "Bob", "Nobody"), ("human", "Robot", "Nobody")):
        answers = []
        for name in (exists, missing):
            response = client.post("/challenges", json={"to": name, "opponent": opponent}, headers=auth(ann["token"]))
            body = response.get_json()
            answers.append((response.status_code, body["code"], body["detail"].replace(repr(name), "NAME")))
        assert answers[0] == answers[1] == (422, "unknown-player", f"no {opponent} is called NAME")
    assert count(app, "challenges") == 0
