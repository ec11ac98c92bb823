"""Issue 38, item 10: a seat started or joined by mail may not pass for a registered player. The
name asked for (`join Alice`, `name Alice`) or found in the mail (the From's display name, the
address's local part) is passed over when it is a player's or looks like one, for the next; a name
unlike any player's is taken as before. Against the real SMTP listener on loopback."""
from __future__ import annotations

from tests.api.helpers import stored_game

from .conftest import DOMAIN, confirm_addresses, deliver, reply, reply_address
from .test_invitations import invitation_to, seat_names

ANN, BOB = "ann@example.org", "bob@example.org"


def _register(nclient, name: str) -> None:
    made = nclient.post("/players", json={"name": name})
    assert made.status_code == 201, made.get_json()


def _invited(nclient, notify_app, mail_server, invitee: str):
    created = nclient.post("/games", json={"name": "Ann", "email": ANN, "invite_email": invitee})
    assert created.status_code == 201, created.get_json()
    deliver(notify_app)
    return created.get_json()["game_id"], invitation_to(mail_server.catcher, invitee)


def test_a_join_by_mail_passes_over_a_players_name_and_its_look_alikes(nclient, notify_app, mail_server, listener):
    confirm_addresses(notify_app, ANN)
    _register(nclient, "Alice")
    _register(nclient, "Bob Jones")
    # `join Alice` from Bob: Alice is a player's name; Bob's display name (a player's too) is passed
    # over as well, and he sits under his address's local part.
    game_id, invitation = _invited(nclient, notify_app, mail_server, BOB)
    reply(listener, reply_address(invitation), "join Alice", sender=f"Bob Jones <{BOB}>")
    deliver(notify_app)
    assert stored_game(notify_app, game_id).status == "active"
    assert seat_names(notify_app, game_id)[1] == "bob"
    # `join Ālice` from alice@...: every name the mail offers looks like Alice's: Guest.
    game_id, invitation = _invited(nclient, notify_app, mail_server, "alice@example.org")
    reply(listener, reply_address(invitation), "join Ālice", sender="A l i c e <alice@example.org>")
    deliver(notify_app)
    assert seat_names(notify_app, game_id)[1] == "Guest"
    # A name unlike any player's is taken as asked.
    game_id, invitation = _invited(nclient, notify_app, mail_server, "cy@example.org")
    reply(listener, reply_address(invitation), "join Alicia", sender="cy@example.org")
    deliver(notify_app)
    assert seat_names(notify_app, game_id)[1] == "Alicia"


def test_a_game_started_by_mail_passes_over_a_players_name(nclient, notify_app, mail_server, listener):
    _register(nclient, "Alice")
    reply(listener, f"new@{DOMAIN}", f"{BOB}\nname Ālice", subject="a game?", sender=f"Alice <{ANN}>")
    deliver(notify_app)
    [ask] = mail_server.catcher.to(ANN)
    # The name is checked again when the game is made: a player may have registered it meanwhile.
    _register(nclient, "ann")
    reply(listener, reply_address(ask), "confirm", sender=ANN)
    deliver(notify_app)
    invitation = invitation_to(mail_server.catcher, BOB)
    assert seat_names(notify_app, invitation["X-Gin-Game"])[0] == "Host"
