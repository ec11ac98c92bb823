"""Tournament mail: each entrant whose address the service may mail gets a mail at every round's
start (the game, the opponent, the link) and one with the final standings; every mail of one
tournament has the same subject and thread root; an address not confirmed gets nothing."""
from __future__ import annotations

import email
from datetime import datetime, timezone

from .support import make, play_out, post


def mails(app) -> list:
    from service.core.extensions import db
    from service.notify.models import OutboxMessage
    with app.app_context():
        return [(row.kind, row.recipient, email.message_from_string(row.payload))
                for row in db.session.query(OutboxMessage).order_by(OutboxMessage.id)
                if row.kind.startswith("tournament_")]


def test_every_entrant_with_a_confirmed_address_is_mailed_each_round_and_the_final_standings(app, client):
    from service.core.extensions import db
    from service.notify.consent import confirm
    names = ["Ann", "Bob", "Cid", "Dee"]
    entrants = []
    for name in names:
        response = client.post("/players", json={"name": name, "email": f"{name.lower()}@example.org"})
        assert response.status_code == 201, response.get_json()
        entrants.append({"name": name, "token": response.get_json()["token"]})
    with app.app_context():  # three addresses confirmed by their owners; Dee's never was
        for name in names[:3]:
            confirm.confirmed(f"{name.lower()}@example.org", datetime.now(timezone.utc))
        db.session.commit()
    t = make(client, entrants[0], format="swiss", rounds=2, min_entrants=4)
    for p in entrants:
        post(client, t["tournament_id"], "join", p)
    post(client, t["tournament_id"], "start", entrants[0])
    t = play_out(client, t["tournament_id"], {p["name"]: p["token"] for p in entrants})
    sent = mails(app)
    assert {to for _, to, _ in sent} == {"ann@example.org", "bob@example.org", "cid@example.org"}
    assert {m["Subject"] for _, _, m in sent} == {"[Gin] Tournament: Test Cup"}
    assert len({m["In-Reply-To"] for _, _, m in sent}) == 1 and all(m["List-Unsubscribe"] for _, _, m in sent)
    places = {row["player"]: row["place"] for row in t["standings"]}
    for name in names[:3]:
        mine = [(kind, m) for kind, to, m in sent if to == f"{name.lower()}@example.org"]
        assert [kind for kind, _ in mine] == ["tournament_round", "tournament_round", "tournament_over"]
        for number, (_, m) in enumerate(mine[:2], start=1):
            body = m.get_payload(decode=True).decode()
            assert f"Round {number} of 2 of Test Cup has started." in body
            pairing = next(p for p in t["rounds_played"][number - 1]["pairings"] if name in (p["first"], p["second"]))
            opponent = pairing["second"] if pairing["first"] == name else pairing["first"]
            assert f"against {opponent}" in body and f"/play/{pairing['games'][0]['game_id']}" in body
            assert ("Standings after round 1:" in body) == (number == 2)
        final = mine[2][1].get_payload(decode=True).decode()
        assert f"you finished {('1st', '2nd', '3rd', '4th')[places[name] - 1]} of 4" in final
        assert final.count(". ") >= 4 and f"/tournaments/{t['tournament_id']}" in final
