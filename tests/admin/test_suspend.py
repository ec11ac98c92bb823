"""`flask admin suspend`: the player's token and every token of its seats answer 403
account-suspended on every route, its pending challenges are withdrawn, its opponent claims at once;
`unsuspend` opens them again; every action is audited."""
from __future__ import annotations

from ..api.helpers import auth, choose
from .support import admin, game_between, player


def routes(game_id: str) -> list[tuple[str, str, dict | None]]:
    """Every route a seat's token or a player's token opens, with a body it would take."""
    return [
        ("GET", f"/games/{game_id}", None), ("GET", f"/games/{game_id}?wait=1", None),
        ("GET", f"/games/{game_id}/stream", None), ("GET", f"/games/{game_id}/events", None),
        ("POST", f"/games/{game_id}/actions", {"type": "pass"}), ("POST", f"/games/{game_id}/actions",
                                                                   {"type": "claim_timeout"}),
        ("GET", f"/games/{game_id}/tokens", None), ("DELETE", f"/games/{game_id}/tokens/original", None),
        ("GET", f"/games/{game_id}/contact", None), ("PATCH", f"/games/{game_id}/contact", {"mail_mode": "turn"}),
        ("POST", f"/games/{game_id}/vacation", {"days": 1}),
        ("GET", f"/games/{game_id}/watch-links", None), ("POST", f"/games/{game_id}/watch-links", {}),
        ("GET", f"/games/{game_id}/rematch", None), ("POST", f"/games/{game_id}/rematch", {}),
        ("GET", f"/games/{game_id}/seat-rematch", None), ("GET", f"/games/{game_id}/replay", None),
        ("GET", f"/games/{game_id}/series", None),
    ]


PLAYER_ROUTES = [("GET", "/me", None), ("PATCH", "/me", {"public_games": True}), ("POST", "/me/token", None), ("DELETE", "/me/token", None),
                 ("GET", "/me/games", None), ("GET", "/me/stream", None),
                 ("POST", "/me/games", {"rules": {"preset": "standard"}}),
                 ("POST", "/challenges", {"to": None}), ("GET", "/challenges", None),
                 ("POST", "/series", {"to": "Bob"})]


def call(client, method: str, path: str, body, token: str):
    return client.open(path, method=method, json=body, headers=auth(token))


def test_every_route_refuses_a_suspended_players_tokens_and_opens_again_when_lifted(client, app):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    game = game_between(client, ann, bob, move_time_hours=72)
    admin(app, "suspend", "Ann", "--reason", "abuse in chat")
    refused = []
    for token in (ann["token"], game["seat_tokens"][0]):
        for method, path, body in routes(game["id"]) + PLAYER_ROUTES:
            if token != ann["token"] and path.startswith(("/me", "/challenges", "/series")):
                continue  # a seat's own token opens no player route in the first place
            response = call(client, method, path, body, token)
            refused.append((method, path, response.status_code, (response.get_json(silent=True) or {}).get("code")))
    wrong = [r for r in refused if r[2:] != (403, "account-suspended")]
    assert wrong == []
    # The opponent's tokens still open the game.
    assert client.get(f"/games/{game['id']}", headers=auth(bob["token"])).status_code == 200
    admin(app, "unsuspend", "Ann")
    assert client.get(f"/games/{game['id']}", headers=auth(ann["token"])).status_code == 200
    assert client.get(f"/games/{game['id']}", headers=auth(game["seat_tokens"][0])).status_code == 200
    assert client.get("/me", headers=auth(ann["token"])).status_code == 200


def test_a_suspended_players_opponent_claims_the_game_at_once_whoever_is_to_move(client, app):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    game = game_between(client, ann, bob)
    bob_seat = 1
    ann_view = client.get(f"/games/{game['id']}", headers=auth(ann["token"])).get_json()
    if ann_view["to_move"] == 0:  # make it Bob's own turn: no claim on time could be made then
        assert client.post(f"/games/{game['id']}/actions", json=choose(ann_view),
                           headers=auth(ann["token"])).status_code == 200
    early = client.post(f"/games/{game['id']}/actions", json={"type": "claim_timeout"}, headers=auth(bob["token"]))
    assert early.status_code == 422 and early.get_json()["code"] == "cannot-claim-own-turn", early.get_json()
    summary = admin(app, "suspend", "Ann")
    assert summary["running_games"] == [game["id"]]
    claimed = client.post(f"/games/{game['id']}/actions", json={"type": "claim_timeout"}, headers=auth(bob["token"]))
    assert claimed.status_code == 200, claimed.get_json()
    body = claimed.get_json()
    assert body["status"] == "finished" and body["result"]["winner"] == bob_seat
    # The finished match still replays for the opponent: the claim is replayed against the seat that lost.
    assert client.get(f"/games/{game['id']}/replay", headers=auth(bob["token"])).status_code == 200


def test_suspending_withdraws_pending_challenges_and_is_audited(client, app):
    from sqlalchemy import select

    from service.admin.models import AdminAction
    from service.core.extensions import db
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    made = client.post("/challenges", json={"to": "Bob"}, headers=auth(ann["token"])).get_json()
    received = client.post("/challenges", json={"to": "Ann"}, headers=auth(cy["token"])).get_json()
    other = client.post("/challenges", json={"to": "Cy"}, headers=auth(bob["token"])).get_json()
    assert admin(app, "suspend", "ann", "--reason", "spam")["challenges_withdrawn"] == 2
    pending = client.get("/challenges", headers=auth(bob["token"])).get_json()
    assert [c["challenge_id"] for c in pending["to_me"]] == [] and \
        [c["challenge_id"] for c in pending["mine"]] == [other["challenge_id"]]
    closed = client.post(f"/challenges/{made['challenge_id']}/accept", headers=auth(bob["token"]))
    assert closed.status_code == 409 and closed.get_json()["code"] == "challenge-closed"
    mine = client.post(f"/challenges/{received['challenge_id']}/cancel", headers=auth(cy["token"]))
    assert mine.status_code == 409 and mine.get_json()["code"] == "challenge-closed"
    admin(app, "suspend", "Ann", ok=False)  # once is enough: said, nothing changed
    admin(app, "unsuspend", "Ann")
    with app.app_context():
        actions = db.session.execute(select(AdminAction.action, AdminAction.player_id, AdminAction.reason,
                                            AdminAction.operator).order_by(AdminAction.id)).all()
    assert [tuple(a) for a in actions] == [("suspend", ann["id"], "spam", "tests"),
                                           ("unsuspend", ann["id"], None, "tests")]


def test_rename_follows_the_rules_of_registration_and_shows_in_the_games(client, app):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    game = game_between(client, ann, bob)
    admin(app, "rename", "Ann", "bob", ok=False)  # taken, ignoring case
    admin(app, "rename", "Ann", "A\u202eB", ok=False)  # a direction character, as POST /players refuses
    admin(app, "rename", "Ann", "x" * 41, ok=False)
    admin(app, "rename", "Nobody", "Zed", ok=False)
    assert admin(app, "rename", "Ann", " Annette ")["name"] == "Annette"
    assert client.get("/me", headers=auth(ann["token"])).get_json()["name"] == "Annette"
    seen = client.get(f"/games/{game['id']}", headers=auth(bob["token"])).get_json()
    assert "Ann" not in [p["name"] for p in seen["players"]] and "Annette" in [p["name"] for p in seen["players"]]
    assert client.post("/players", json={"name": "Ann"}).status_code == 201  # the old name is free again


def test_a_suspended_seat_takes_no_move_by_mail_and_spends_no_mail_link(client, app):
    """The ways into a seat that name it rather than bring a token: a reply to a turn mail plays
    nothing, and a mail's link is refused without being spent (it works again once lifted)."""
    from email.message import EmailMessage

    from service.core.extensions import db
    from service.games import deadlines
    from service.notify import dispatch
    from service.notify.inbound import replies
    from service.notify.models import MailAddress
    ann, bob = player(client, "Ann"), player(client, "Bob")
    game = game_between(client, ann, bob)
    seat_view = client.get(f"/games/{game['id']}", headers=auth(ann["token"])).get_json()
    mover = seat_view["to_move"]
    mover_token = {0: ann["token"], 1: bob["token"]}[mover]
    assert client.patch(f"/games/{game['id']}/contact", json={"email": "mover@example.org"},
                        headers=auth(mover_token)).status_code == 200
    with app.app_context():
        db.session.add(MailAddress(address="mover@example.org", confirmed_at=deadlines.now()))
        link = dispatch.seat_link(game["id"], mover, deadlines.now())
        address = dispatch.new_reply_address(game["id"], mover, seat_view["version"], deadlines.now())
        db.session.commit()
    key = link.split("#link=")[1]
    admin(app, "suspend", {0: "Ann", 1: "Bob"}[mover])
    exchanged = client.post(f"/games/{game['id']}/tokens", json={"link_key": key})
    assert exchanged.status_code == 403 and exchanged.get_json()["code"] == "account-suspended"
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "mover@example.org", address, "Re: your turn"
    message["Message-ID"] = "<suspended-reply@example.org>"
    message.set_content("pass\n")
    with app.app_context():
        outcome = replies.receive(message.as_bytes())
    assert outcome.status == "failed" and "suspended" in outcome.detail
    after = client.get(f"/games/{game['id']}", headers=auth({0: bob, 1: ann}[mover]["token"])).get_json()
    assert after["version"] == seat_view["version"]  # nothing was played
    admin(app, "unsuspend", {0: "Ann", 1: "Bob"}[mover])
    assert client.post(f"/games/{game['id']}/tokens", json={"link_key": key}).status_code == 201


def test_at_a_table_another_side_claims_against_a_suspended_player_at_once(client, app):
    """Four seats, partnerships 0+2 v 1+3: when seat 1's player is suspended, seat 0 claims the
    match at once; seat 3, its partner, may not claim against its own side."""
    names = ["Ann", "Bob", "Cy", "Di"]
    players = [player(client, name) for name in names]
    made = client.post("/me/games", json={"rules": {"preset": "standard"}, "seats": 4},
                       headers=auth(players[0]["token"]))
    assert made.status_code == 201, made.get_json()
    made = made.get_json()
    codes = {invite["seat"]: invite["invite_code"] for invite in made["invites"]}
    for seat in (1, 2, 3):
        joined = client.post(f"/me/games/{made['game_id']}/join", json={"invite_code": codes[seat]},
                             headers=auth(players[seat]["token"]))
        assert joined.status_code == 201 and joined.get_json()["seat"] == seat, joined.get_json()
    admin(app, "suspend", "Bob")
    partner = client.post(f"/games/{made['game_id']}/actions", json={"type": "claim_timeout"},
                          headers=auth(players[3]["token"]))
    assert partner.status_code == 422, partner.get_json()
    claimed = client.post(f"/games/{made['game_id']}/actions", json={"type": "claim_timeout"},
                          headers=auth(players[0]["token"]))
    assert claimed.status_code == 200, claimed.get_json()
    assert claimed.get_json()["status"] == "finished"
