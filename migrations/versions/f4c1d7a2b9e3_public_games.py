"""players.public_games_secret: a player's games open to profile viewers (issue 26)

Revision ID: f4c1d7a2b9e3
Revises: b7d3e9a1c422
Create Date: 2026-11-26 09:45:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f4c1d7a2b9e3'
down_revision = 'b7d3e9a1c422'
branch_labels = None
depends_on = None


def upgrade():
    # recreate="never": a plain ALTER TABLE ADD COLUMN; a copy of `players` would cascade its DROP.
    with op.batch_alter_table('players', schema=None, recreate='never') as batch_op:
        batch_op.add_column(sa.Column('public_games_secret', sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table('players', schema=None, recreate='never') as batch_op:
        batch_op.drop_column('public_games_secret')
