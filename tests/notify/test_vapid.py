"""The service's VAPID key (notify/push/keys.py): made on first use in a file only its owner reads,
shown and rotated by `flask admin vapid`, or given by VAPID_PRIVATE_KEY (the same on every node).
A rotation forgets the browsers subscribed with the old key, whose pushes no push service would take."""
from __future__ import annotations

import os
import stat

import pytest

from tests.admin.support import admin

from .conftest import deliver, start_game, view
from .push_service import PushService, check_vapid
from .test_push import subscribe, until_turn_of


@pytest.fixture
def key_file(notify_app, tmp_path, monkeypatch):
    path = tmp_path / "instance" / "vapid_private.pem"
    monkeypatch.setitem(notify_app.config, "VAPID_KEY_FILE", str(path))
    return path


def test_the_key_is_made_once_on_first_use_readable_by_its_owner_only(nclient, notify_app, key_file):
    assert not key_file.exists()
    first = nclient.get("/push/key").get_json()["public_key"]
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    assert nclient.get("/push/key").get_json()["public_key"] == first
    shown = admin(notify_app, "vapid")
    assert shown == {"public_key": first, "kept_in": str(key_file), "subscriptions": 0, "made_with_another_key": 0}
    assert "private_key" not in shown


def test_rotation_makes_a_new_key_and_forgets_the_browsers_of_the_old(nclient, notify_app, key_file):
    service = PushService()
    try:
        game = start_game(nclient, move_time_hours=None)
        seat = view(nclient, game, 0)["to_move"]
        old_phone = service.browser()
        subscribe(nclient, game, 1 - seat, old_phone)
        old = nclient.get("/push/key").get_json()["public_key"]
        rotated = admin(notify_app, "vapid", "--rotate")
        assert rotated["public_key"] != old and rotated["forgotten"] == 1 and rotated["subscriptions"] == 0
        assert nclient.get("/push/key").get_json()["public_key"] == rotated["public_key"]
        new_phone = service.browser()
        subscribe(nclient, game, 1 - seat, new_phone)
        until_turn_of(nclient, game, 1 - seat)
        deliver(notify_app)
        assert service.to(old_phone) == []
        [push] = service.to(new_phone)
        check_vapid(push["headers"]["authorization"], service.origin, rotated["public_key"])
    finally:
        service.stop()


def test_a_key_from_the_environment_signs_and_is_never_rotated_here(nclient, notify_app, key_file, monkeypatch):
    made = admin(notify_app, "vapid", "--new")["private_key"]
    monkeypatch.setitem(notify_app.config, "VAPID_PRIVATE_KEY", made)
    shown = admin(notify_app, "vapid", "--private")
    assert shown["private_key"] == made and shown["kept_in"] == "the setting VAPID_PRIVATE_KEY"
    assert nclient.get("/push/key").get_json()["public_key"] == shown["public_key"]
    assert not key_file.exists()
    refused = admin(notify_app, "vapid", "--rotate", ok=False)
    assert "VAPID_PRIVATE_KEY" in refused
    with notify_app.app_context():
        from service.admin.models import AdminAction
        from service.core.extensions import db
        assert db.session.query(AdminAction).filter_by(action="vapid-rotate").count() == 0
