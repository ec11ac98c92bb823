"""players' Glicko-2 rating, challenges.rated, rating_changes (issue 26)

Revision ID: e2b7a4c9d513
Revises: e1f7a3c90b26
Create Date: 2026-11-26 07:45:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e2b7a4c9d513'
down_revision = 'e1f7a3c90b26'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rating', sa.Float(), server_default='1500', nullable=False))
        batch_op.add_column(sa.Column('rating_deviation', sa.Float(), server_default='350', nullable=False))
        batch_op.add_column(sa.Column('rating_volatility', sa.Float(), server_default='0.06', nullable=False))
        batch_op.add_column(sa.Column('rated_games', sa.Integer(), server_default='0', nullable=False))
        batch_op.create_index('ix_players_leaderboard', ['rating'], unique=False)
    with op.batch_alter_table('challenges', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rated', sa.Boolean(), server_default=sa.true(), nullable=False))
    op.create_table(
        'rating_changes',
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('opponent_id', sa.Integer(), nullable=False),
        sa.Column('score', sa.Float(), nullable=False),
        sa.Column('value_before', sa.Float(), nullable=False),
        sa.Column('value_after', sa.Float(), nullable=False),
        sa.Column('deviation_after', sa.Float(), nullable=False),
        sa.Column('volatility_after', sa.Float(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['opponent_id'], ['players.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id', 'player_id'),
    )
    with op.batch_alter_table('rating_changes', schema=None) as batch_op:
        batch_op.create_index('ix_rating_changes_player_id', ['player_id'], unique=False)


def downgrade():
    with op.batch_alter_table('rating_changes', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_changes_player_id')
    op.drop_table('rating_changes')
    # recreate="never": SQLite drops the columns in place (3.35+). Batch mode's copy-and-rename of
    # players or challenges would run DROP TABLE, whose ON DELETE CASCADE empties the tables under them.
    with op.batch_alter_table('challenges', schema=None, recreate='never') as batch_op:
        batch_op.drop_column('rated')
    with op.batch_alter_table('players', schema=None, recreate='never') as batch_op:
        batch_op.drop_index('ix_players_leaderboard')
        batch_op.drop_column('rated_games')
        batch_op.drop_column('rating_volatility')
        batch_op.drop_column('rating_deviation')
        batch_op.drop_column('rating')
