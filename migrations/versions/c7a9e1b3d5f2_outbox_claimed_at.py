"""outbox.claimed_at: when a worker took its claim, which it renews while it works, for at most
NOTIFY_HOLD_SECONDS (issue 37). Expand only: nullable, and the release before never names it.

Revision ID: c7a9e1b3d5f2
Revises: b2e4f6a8c0d1
Create Date: 2026-11-29 09:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c7a9e1b3d5f2'
down_revision = 'b2e4f6a8c0d1'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_column('claimed_at')
