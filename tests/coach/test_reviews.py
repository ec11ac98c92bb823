"""Reviews off the web path (issue 41): queued as a two-seat match ends, answered at once with
their status, run one at a time by the coach worker under a lease (a killed worker's review is
taken up again), within the budget, and then shown to the seats and watch-link holders."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from service.coach.models import Review
from service.coach.worker import Worker
from service.core.extensions import db

from ..api.helpers import auth, new_game
from ..api.test_replay import play_out


@pytest.fixture
def cheap(app, monkeypatch):
    monkeypatch.setitem(app.config, "COACH_DEALS", 2)
    monkeypatch.setitem(app.config, "COACH_DECISION_SECONDS", 5.0)
    monkeypatch.setitem(app.config, "COACH_MATCH_SECONDS", 60.0)
    monkeypatch.setitem(app.config, "COACH_QUEUE_PER_PLAYER", 3)
    with app.app_context():
        db.session.execute(update(Review).values(status="done"))  # earlier tests' reviews out of the queue
        db.session.commit()
    return app


def _finished(client):
    game = new_game(client, rules={"preset": "standard", "target": 25})
    play_out(client, game)
    return game


def _review(client, game, token=None):
    return client.get(f"/games/{game['id']}/review", headers=auth(token or game["tokens"][0]))


def test_a_finished_match_is_queued_answered_at_once_then_reviewed_by_the_worker(client, cheap):
    game = new_game(client, rules={"preset": "standard", "target": 25})
    early = _review(client, game)
    assert early.status_code == 409 and early.get_json()["code"] == "match-not-over"
    play_out(client, game)
    queued = _review(client, game).get_json()
    assert queued["status"] == "queued" and queued["review"] is None
    with cheap.app_context():
        assert Worker("w").once()
    body = _review(client, game, game["tokens"][1]).get_json()
    assert body["status"] == "done" and body["done"] == body["total"] == len(body["review"]["decisions"]) > 0
    assert {d["seat"] for d in body["review"]["decisions"]} == {0, 1}
    assert all(d["deals"] == 2 for d in body["review"]["decisions"])  # COACH_DEALS
    link = client.post(f"/games/{game['id']}/watch-links", headers=auth(game["tokens"][0])).get_json()
    assert _review(client, game, link["key"]).get_json() == body
    wrong = _review(client, game, "x" * 43)
    assert wrong.status_code == 401 and wrong.get_json()["code"] == "invalid-token"


def test_two_matches_ending_at_once_are_reviewed_one_after_the_other(client, cheap):
    first, second = _finished(client), _finished(client)
    worker = Worker("one")
    with cheap.app_context():
        assert worker.once()
    assert [_review(client, g).get_json()["status"] for g in (first, second)] == ["done", "queued"]
    with cheap.app_context():
        assert worker.once() and not worker.once()
    assert _review(client, second).get_json()["status"] == "done"


def test_a_killed_workers_review_is_taken_up_again_once_its_lease_passes(client, cheap):
    game = _finished(client)
    with cheap.app_context():
        assert Worker("killed").claim() == game["id"]  # and then the process dies
        assert Worker("other").claim() is None  # the lease holds
        db.session.execute(update(Review).where(Review.game_id == game["id"])
                           .values(lease_until=datetime.now(UTC) - timedelta(seconds=1)))
        db.session.commit()
        again = Worker("other")
        assert again.claim() == game["id"]
        again.run(game["id"])
        row = db.session.get(Review, game["id"])
        assert (row.status, row.worker, row.attempts) == ("done", "other", 2)


def test_a_review_that_killed_its_worker_three_times_is_left_alone(client, cheap):
    game = _finished(client)
    with cheap.app_context():
        for n in range(3):
            assert Worker(f"dies-{n}").claim() == game["id"]
            db.session.execute(update(Review).where(Review.game_id == game["id"])
                               .values(lease_until=datetime.now(UTC) - timedelta(seconds=1)))
            db.session.commit()
        assert Worker("next").claim() is None
    assert _review(client, game).get_json()["status"] == "failed"


def test_past_the_matchs_budget_each_decision_gets_two_deals(client, cheap, monkeypatch):
    monkeypatch.setitem(cheap.config, "COACH_DEALS", 6)
    monkeypatch.setitem(cheap.config, "COACH_MATCH_SECONDS", 0.0)
    game = _finished(client)
    with cheap.app_context():
        assert Worker("w").once()
    decisions = _review(client, game).get_json()["review"]["decisions"]
    assert decisions and all(d["deals"] == 2 for d in decisions)


def test_a_review_done_is_told_on_the_players_streams_and_the_games_stream(client, cheap):
    from service.games import changes
    from service.players import feed

    from ..players.support import accepted_game, new_player, play_to_the_end
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    game = accepted_game(client, ann, bob, rules={"target": 25})
    play_to_the_end(client, game)
    before = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).get_json()["version"]
    with cheap.app_context():
        assert changes.what_follows(game["id"], 0).events == ()  # queued: nothing to tell yet
        assert Worker("w").once()
        told = [e for e in feed.events_after(db.session.connection(), ann["id"], 0, 10_000) if e["type"] == "review_ready"]
        follows = changes.what_follows(game["id"], game["seats"]["Bob"]).events
    summary = _review(client, game).get_json()["review"]["match"]["seats"]
    seat = game["seats"]["Ann"]
    assert len(told) == 1 and told[0]["game_id"] == game["id"] and told[0]["summary"] == summary[seat]
    assert told[0]["review"] == f"/games/{game['id']}/review" and told[0]["seat"] == seat
    assert [e["event"] for e in follows] == ["review_ready"] and follows[0]["summary"] == summary[game["seats"]["Bob"]]
    after = client.get(f"/games/{game['id']}", headers=auth(game["tokens"][0])).get_json()["version"]
    assert after > before  # the game's streams wake for it


def test_a_players_average_is_theirs_and_public_only_with_their_games(client, cheap):
    from ..players.support import accepted_game, new_player, play_to_the_end
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    empty = client.get("/me/review-average", headers=auth(ann["token"])).get_json()
    assert empty == {"matches": 0, "decisions": 0, "given_away_per_decision": None, "accuracy": None}
    game = accepted_game(client, ann, bob, rules={"target": 25})
    play_to_the_end(client, game)
    with cheap.app_context():
        assert Worker("w").once()
    mine = _review(client, game).get_json()["review"]["match"]["seats"][game["seats"]["Ann"]]
    average = client.get("/me/review-average", headers=auth(ann["token"])).get_json()
    assert average["matches"] == 1 and average["decisions"] == mine["decisions"]
    assert average["accuracy"] == mine["accuracy"]
    hidden = client.get("/players/Ann/review-average")
    assert hidden.status_code == 403 and hidden.get_json()["code"] == "review-average-private"
    browser = {"Accept": "text/html"}
    assert 'id="review-average"' not in client.get("/players/Ann", headers=browser).get_data(as_text=True)
    assert client.patch("/me", json={"public_games": True}, headers=auth(ann["token"])).status_code == 200
    assert client.get("/players/Ann/review-average").get_json() == average
    # The public profile page shows it too, once the games are public.
    page = " ".join(client.get("/players/Ann", headers=browser).get_data(as_text=True).split())
    if average["decisions"]:  # (a match Ann lost before her first decision has none to average)
        assert (f"The computer's review of Ann's 1 reviewed match: {average['given_away_per_decision']} points "
                f"given away a decision, {int(average['accuracy'] * 100 + 0.5)}% of decisions") in page, page
    else:
        assert "The computer reviewed 1 match of Ann's, with no decision of theirs to weigh." in page, page
    missing = client.get("/players/Nobody/review-average")
    assert missing.status_code == 404 and missing.get_json()["code"] == "player-not-found"
