"""seat_rematches.declined_at and decline_reason: a seat rematch declined by the seat it was offered
to (issue 38), and the reason code it gave (null when none)

Only new nullable columns: the code of the release before reads and writes the table as it was.

Revision ID: d4e7a1c9b352
Revises: f3a9c1d27e54
Create Date: 2026-11-29 15:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd4e7a1c9b352'
down_revision = 'f3a9c1d27e54'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seat_rematches') as batch_op:
        batch_op.add_column(sa.Column('declined_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('decline_reason', sa.String(length=16), nullable=True))


def downgrade():
    with op.batch_alter_table('seat_rematches') as batch_op:
        batch_op.drop_column('decline_reason')
        batch_op.drop_column('declined_at')
