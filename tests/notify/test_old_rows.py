"""The worker forgets what is no longer needed (sweeps.sweep_old_rows): sent mail after
NOTIFY_KEEP_DAYS; reply secrets, mail links and players' stream events after twice that. What is
younger stays, and a player's stream goes on numbering after its old events are gone."""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from ..players.support import accepted_game, events_of, new_player, play_one
from .conftest import act, deliver, start_game, view

ANN, BOB = "ann-prune@example.org", "bob-prune@example.org"


def counts(app, game_id: str, player_id: int) -> dict:
    from service.access.models import SeatLink
    from service.core.extensions import db
    from service.notify.models import MailToken, OutboxMessage
    from service.players.models import PlayerEvent

    def count(model, *where):
        return db.session.execute(select(func.count()).select_from(model).where(*where)).scalar_one()
    with app.app_context():
        return {"sent": count(OutboxMessage, OutboxMessage.recipient.in_([ANN, BOB]),
                              OutboxMessage.status != "pending"),
                "secrets": count(MailToken, MailToken.game_id == game_id),
                "links": count(SeatLink, SeatLink.game_id == game_id),
                "events": count(PlayerEvent, PlayerEvent.player_id == player_id)}


def sweep(app, moment) -> int:
    from service.notify.sweeps import sweep_old_rows
    with app.app_context():
        return sweep_old_rows(moment)


def test_sent_mail_then_reply_secrets_and_links_go_in_time(nclient, notify_app, clock):
    game = start_game(nclient, contact0={"email": ANN}, contact1={"email": BOB})
    assert act(nclient, game, view(nclient, game, 0)["to_move"], {"type": "pass"}).status_code == 200
    deliver(notify_app)
    before = counts(notify_app, game["id"], 0)
    assert before["sent"] and before["secrets"] and before["links"], before  # turn mails carry both
    now = clock()  # mail is stamped by the app's clock

    sweep(notify_app, now + timedelta(days=13))  # within NOTIFY_KEEP_DAYS (14) nothing goes
    assert counts(notify_app, game["id"], 0) == before
    sweep(notify_app, now + timedelta(days=15))  # then the sent mail; secrets and links stay until 28
    assert counts(notify_app, game["id"], 0) == {**before, "sent": 0}
    sweep(notify_app, now + timedelta(days=29))
    assert counts(notify_app, game["id"], 0) == {"sent": 0, "secrets": 0, "links": 0, "events": 0}


def test_stream_events_go_after_28_days_and_the_numbering_goes_on(nclient, notify_app):
    from service.games.models import utcnow
    ann, bob = new_player(nclient, "PruneAnn"), new_player(nclient, "PruneBob")
    game = accepted_game(nclient, ann, bob)
    play_one(nclient, game)
    events = events_of(notify_app, ann)
    assert events, "Ann heard of her game"
    now = utcnow()  # stream events are stamped by the wall clock

    sweep(notify_app, now + timedelta(days=27))
    assert events_of(notify_app, ann) == events
    sweep(notify_app, now + timedelta(days=29))
    assert events_of(notify_app, ann) == []

    # The numbering lives on the player's row: the next event follows the pruned ones, so a
    # client resuming with an old Last-Event-ID never sees a number twice.
    for _ in range(6):  # Ann's stream hears of her turns: play until one comes (who moves is dealt)
        play_one(nclient, game)
        if events_of(notify_app, ann):
            break
    assert events_of(notify_app, ann)[0]["seq"] == events[-1]["seq"] + 1
