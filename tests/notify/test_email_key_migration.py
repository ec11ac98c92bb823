"""The contacts.email_key migration (c1e5a9d3f720) fills the key of every stored email as the code
files it (addresses.normalised), and goes down and up again without losing a contact."""
from __future__ import annotations

import flask_migrate
import sqlalchemy as sa

from service import create_app
from service.notify.consent.addresses import normalised

from ..api.helpers import auth, new_game
from ..conftest import migrate

BEFORE = "c7a9e1b3d5f2"  # outbox.claimed_at (issue 37), the revision before the key
GIVEN = ["Ann.Smith+gin@GMail.com", "bob@Example.org", "c.d+x@googlemail.com"]


def test_the_migration_fills_each_contacts_key_as_the_code_normalises_it(own_database):
    migrate(own_database)
    app = create_app({"TESTING": True, **own_database})
    client = app.test_client()
    games = [new_game(client) for _ in GIVEN]
    for game, address in zip(games, GIVEN):
        assert client.patch(f"/games/{game['id']}/contact", json={"email": address},
                          headers=auth(game["tokens"][0])).status_code == 200
    with app.app_context():
        from service.core.extensions import db
        keys = lambda: dict(db.session.execute(sa.text("SELECT email, email_key FROM contacts")).all())  # noqa: E731
        assert keys() == {address: normalised(address) for address in GIVEN}  # as the code sets it
        db.session.commit()
        flask_migrate.downgrade(revision=BEFORE)
        db.session.commit()
        assert db.session.execute(sa.text("SELECT count(*) FROM contacts")).scalar() == len(GIVEN)
        db.session.commit()
        flask_migrate.upgrade()
        db.engine.dispose()
        assert keys() == {address: normalised(address) for address in GIVEN}  # as the migration fills it
        assert keys()["Ann.Smith+gin@GMail.com"] == "annsmith@gmail.com"
