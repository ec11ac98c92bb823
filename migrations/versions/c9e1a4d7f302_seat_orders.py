"""seats.orders: a seat's standing orders (issue 39), null when none are set

Revision ID: c9e1a4d7f302
Revises: b7d2e4f6a813
Create Date: 2026-12-11 09:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c9e1a4d7f302'
down_revision = 'b7d2e4f6a813'
branch_labels = None
depends_on = None


def upgrade():
    # Expand only: a nullable column, which an older release's code never reads.
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('orders', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('orders')
