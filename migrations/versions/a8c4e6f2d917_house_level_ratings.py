"""the house bot's levels rated as identities: house_level_ratings, rating_changes.level and
opponent_level (issue 29)

Revision ID: a8c4e6f2d917
Revises: f3a1c5d7b209
Create Date: 2026-11-26 16:15:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a8c4e6f2d917'
down_revision = 'f3a1c5d7b209'
branch_labels = None
depends_on = None


def upgrade():
    levels = op.create_table(
        'house_level_ratings',
        sa.Column('level', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('rating', sa.Float(), server_default='1500', nullable=False),
        sa.Column('rating_deviation', sa.Float(), server_default='350', nullable=False),
        sa.Column('rating_volatility', sa.Float(), server_default='0.06', nullable=False),
        sa.Column('rated_games', sa.Integer(), server_default='0', nullable=False),
        sa.PrimaryKeyConstraint('level'),
    )
    # All five rows now, at a new player's start: games then only lock rows, never race to make one.
    op.bulk_insert(levels, [{'level': level, 'rating': 1500.0, 'rating_deviation': 350.0,
                             'rating_volatility': 0.06, 'rated_games': 0} for level in range(1, 6)])
    # Plain ADD COLUMNs (nullable, no default): rating_changes is not copied, on SQLite either.
    op.add_column('rating_changes', sa.Column('level', sa.Integer(), nullable=True))
    op.add_column('rating_changes', sa.Column('opponent_level', sa.Integer(), nullable=True))


def downgrade():
    # recreate="never": SQLite drops the columns in place (3.35+), keeping every row.
    with op.batch_alter_table('rating_changes', schema=None, recreate='never') as batch_op:
        batch_op.drop_column('opponent_level')
        batch_op.drop_column('level')
    op.drop_table('house_level_ratings')
