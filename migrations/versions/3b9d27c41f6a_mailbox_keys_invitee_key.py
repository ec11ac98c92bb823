"""mailbox keys: every cap and `stop` compare an address's mailbox key (issue 25, finding 10)

addresses.normalised now leaves out a `+tag` and, for gmail.com / googlemail.com, the local
part's dots, where it was the address in lower case. The rows filed under the old key are filed
again under the new one: mail_addresses (rows that become one mailbox are merged: confirmed if
any was, stopped if any was, at the earliest time), mail_confirmations.address and
mail_invitations.sender. mail_invitations gets invitee_key (the invitee's key, counted by the
per-recipient cap); invitee stays as it was stored. inbound_mail.sender is left as it is: its
caps look back one hour.

Revision ID: 3b9d27c41f6a
Revises: c5d2e8f17a43
Create Date: 2026-11-26 06:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '3b9d27c41f6a'
down_revision = 'c5d2e8f17a43'
branch_labels = None
depends_on = None

# A copy of service/notify/addresses.normalised as this revision defines it (a migration must not
# change when the code does).
DOTLESS_DOMAINS = {"gmail.com": "gmail.com", "googlemail.com": "gmail.com"}


def mailbox_key(address):
    local, at, domain = address.strip().lower().rpartition("@")
    if not at:
        return address.strip().lower()
    local = local.split("+", 1)[0]
    if domain in DOTLESS_DOMAINS:
        local, domain = local.replace(".", ""), DOTLESS_DOMAINS[domain]
    return f"{local}@{domain}"


def upgrade():
    conn = op.get_bind()
    with op.batch_alter_table('mail_invitations', schema=None) as batch_op:
        batch_op.add_column(sa.Column('invitee_key', sa.String(length=254), nullable=True))
    invitations = sa.table('mail_invitations', sa.column('id', sa.Integer), sa.column('invitee', sa.String),
                           sa.column('invitee_key', sa.String), sa.column('sender', sa.String))
    for row_id, invitee, sender in conn.execute(
            sa.select(invitations.c.id, invitations.c.invitee, invitations.c.sender)).all():
        conn.execute(invitations.update().where(invitations.c.id == row_id).values(
            invitee_key=mailbox_key(invitee), sender=mailbox_key(sender) if sender else None))
    with op.batch_alter_table('mail_invitations', schema=None) as batch_op:
        batch_op.alter_column('invitee_key', existing_type=sa.String(length=254), nullable=False)
        batch_op.create_index('ix_mail_invitations_invitee_key_created_at', ['invitee_key', 'created_at'],
                              unique=False)

    confirmations = sa.table('mail_confirmations', sa.column('address', sa.String))
    for (address,) in conn.execute(sa.select(confirmations.c.address).distinct()).all():
        if mailbox_key(address) != address:
            conn.execute(confirmations.update().where(confirmations.c.address == address)
                         .values(address=mailbox_key(address)))

    addresses = sa.table('mail_addresses', sa.column('address', sa.String),
                         sa.column('confirmed_at', sa.DateTime(timezone=True)),
                         sa.column('stopped_at', sa.DateTime(timezone=True)))
    by_key = {}
    for row in conn.execute(sa.select(addresses.c.address, addresses.c.confirmed_at, addresses.c.stopped_at)).all():
        by_key.setdefault(mailbox_key(row.address), []).append(row)
    for key, rows in by_key.items():
        if len(rows) == 1 and rows[0].address == key:
            continue
        confirmed = min((row.confirmed_at for row in rows if row.confirmed_at is not None), default=None)
        stopped = min((row.stopped_at for row in rows if row.stopped_at is not None), default=None)
        conn.execute(addresses.delete().where(addresses.c.address.in_([row.address for row in rows])))
        conn.execute(addresses.insert().values(address=key, confirmed_at=confirmed, stopped_at=stopped))


def downgrade():
    # The rows stay filed under the mailbox keys: the older, finer key cannot be recovered.
    with op.batch_alter_table('mail_invitations', schema=None) as batch_op:
        batch_op.drop_index('ix_mail_invitations_invitee_key_created_at')
        batch_op.drop_column('invitee_key')
