"""the house bot's level: challenges.level and seats.bot_level (issue 29)

Revision ID: f3a1c5d7b209
Revises: f3c8d1a6b920
Create Date: 2026-11-26 09:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f3a1c5d7b209'
down_revision = 'f3c8d1a6b920'
branch_labels = None
depends_on = None


def upgrade():
    # Plain ADD COLUMNs (nullable, no default): no table is copied, on SQLite either.
    op.add_column('challenges', sa.Column('level', sa.Integer(), nullable=True))
    op.add_column('seats', sa.Column('bot_level', sa.Integer(), nullable=True))


def downgrade():
    # recreate="never": SQLite drops the columns in place (3.35+); a copy of challenges or seats
    # would run DROP TABLE, whose cascades empty the tables under them.
    with op.batch_alter_table('seats', schema=None, recreate='never') as batch_op:
        batch_op.drop_column('bot_level')
    with op.batch_alter_table('challenges', schema=None, recreate='never') as batch_op:
        batch_op.drop_column('level')
