"""outbox.attempted_at, response_code, redelivered_at: a webhook's deliveries log (issue 28)

Revision ID: c5d2e8f41a93
Revises: 3b9d27c41f6a
Create Date: 2026-11-26 06:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c5d2e8f41a93'
down_revision = '3b9d27c41f6a'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('attempted_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('response_code', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('redelivered_at', sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_column('redelivered_at')
        batch_op.drop_column('response_code')
        batch_op.drop_column('attempted_at')
