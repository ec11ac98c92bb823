"""contacts.email_key: the normalised address beside the address as given, so that a move reads in
its one statement whether anyone is to be told (issue 36)

Revision ID: c1e5a9d3f720
Revises: c7a9e1b3d5f2
Create Date: 2026-11-29 09:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c1e5a9d3f720'
down_revision = 'c7a9e1b3d5f2'
branch_labels = None
depends_on = None

# service/notify/addresses.py's normalised() as it stood when this migration was written: the
# migration keeps its own copy, so that it runs the same whatever the code becomes.
DOTLESS_DOMAINS = {"gmail.com": "gmail.com", "googlemail.com": "gmail.com"}


def normalised(address: str) -> str:
    local, at, domain = address.strip().lower().rpartition("@")
    if not at:
        return address.strip().lower()
    local = local.split("+", 1)[0]
    if domain in DOTLESS_DOMAINS:
        local, domain = local.replace(".", ""), DOTLESS_DOMAINS[domain]
    return f"{local}@{domain}"


def upgrade():
    # recreate="never": a plain ALTER TABLE ADD COLUMN (expand: the code before it never reads it).
    with op.batch_alter_table('contacts', schema=None, recreate='never') as batch_op:
        batch_op.add_column(sa.Column('email_key', sa.String(length=254), nullable=True))
    contacts = sa.table('contacts', sa.column('game_id', sa.String), sa.column('seat', sa.Integer),
                        sa.column('email', sa.String), sa.column('email_key', sa.String))
    connection = op.get_bind()
    rows = connection.execute(sa.select(contacts.c.game_id, contacts.c.seat, contacts.c.email)
                              .where(contacts.c.email.is_not(None))).all()
    for game_id, seat, email in rows:
        connection.execute(contacts.update().where(contacts.c.game_id == game_id, contacts.c.seat == seat)
                           .values(email_key=normalised(email)))


def downgrade():
    with op.batch_alter_table('contacts', schema=None, recreate='never') as batch_op:
        batch_op.drop_column('email_key')
