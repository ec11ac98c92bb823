"""players' OpenSkill table rating, table_rating_changes, unrated_games (issue 26)

Revision ID: b7d3e9a1c422
Revises: e2b7a4c9d513
Create Date: 2026-11-26 09:50:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7d3e9a1c422'
down_revision = 'e2b7a4c9d513'
branch_labels = None
depends_on = None


def upgrade():
    # Plain ADD COLUMN (recreate='never'): on SQLite a copy of players would drop the old table, and
    # its ON DELETE CASCADE would empty the tables that point at it.
    with op.batch_alter_table('players', schema=None, recreate='never') as batch_op:
        batch_op.add_column(sa.Column('table_mu', sa.Float(), server_default='25', nullable=False))
        batch_op.add_column(sa.Column('table_sigma', sa.Float(), server_default='8.333333333333334',
                                      nullable=False))
        batch_op.add_column(sa.Column('table_games', sa.Integer(), server_default='0', nullable=False))
    op.create_table(
        'table_rating_changes',
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('rank', sa.Integer(), nullable=False),
        sa.Column('mu_before', sa.Float(), nullable=False),
        sa.Column('sigma_before', sa.Float(), nullable=False),
        sa.Column('mu_after', sa.Float(), nullable=False),
        sa.Column('sigma_after', sa.Float(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id', 'player_id'),
    )
    op.create_index('ix_table_rating_changes_player_id', 'table_rating_changes', ['player_id'], unique=False)
    op.create_table(
        'unrated_games',
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id'),
    )


def downgrade():
    op.drop_table('unrated_games')
    op.drop_index('ix_table_rating_changes_player_id', table_name='table_rating_changes')
    op.drop_table('table_rating_changes')
    with op.batch_alter_table('players', schema=None, recreate='never') as batch_op:
        batch_op.drop_column('table_games')
        batch_op.drop_column('table_sigma')
        batch_op.drop_column('table_mu')
