"""tournaments (issue 40): tournaments, their entrants, invitations, rounds, pairings and the games
of the pairings; series.levels (a knockout series plays the house bot at its entered level)

Revision ID: 6e46c8739cfb
Revises: c1e5a9d3f720
Create Date: 2026-11-29 06:59:38.337898

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '6e46c8739cfb'
down_revision = 'c1e5a9d3f720'
branch_labels = None
depends_on = None


def upgrade():
    # A plain ADD COLUMN (nullable, no default): series is not copied, on SQLite either.
    op.add_column('series', sa.Column('levels', sa.JSON(), nullable=True))
    op.create_table('tournaments',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('format', sa.String(length=16), nullable=False),
    sa.Column('cycles', sa.Integer(), nullable=False),
    sa.Column('best_of', sa.Integer(), nullable=False),
    sa.Column('pace', sa.String(length=12), nullable=False),
    sa.Column('status', sa.String(length=12), nullable=False),
    sa.Column('organizer_id', sa.Integer(), nullable=False),
    sa.Column('rules', sa.JSON(), nullable=False),
    sa.Column('rated', sa.Boolean(), nullable=False),
    sa.Column('move_time_hours', sa.Integer(), nullable=True),
    sa.Column('round_hours', sa.Integer(), nullable=True),
    sa.Column('rounds', sa.Integer(), nullable=True),
    sa.Column('entry', sa.String(length=12), nullable=False),
    sa.Column('house_bot', sa.Boolean(), nullable=False),
    sa.Column('min_entrants', sa.Integer(), nullable=False),
    sa.Column('max_entrants', sa.Integer(), nullable=False),
    sa.Column('tie_breaks', sa.JSON(), nullable=False),
    sa.Column('entry_closes_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('current_round', sa.Integer(), nullable=False),
    sa.Column('round_deadline_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('watch_secret', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['organizer_id'], ['players.id'], name=op.f('fk_tournaments_organizer_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournaments'))
    )
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.create_index('ix_tournaments_organizer_id_created_at', ['organizer_id', 'created_at'], unique=False)
        batch_op.create_index('ix_tournaments_status_created_at', ['status', 'created_at'], unique=False)
        batch_op.create_index('ix_tournaments_status_round_deadline_at', ['status', 'round_deadline_at'], unique=False)

    op.create_table('tournament_entrants',
    sa.Column('tournament_id', sa.String(length=32), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('level', sa.Integer(), nullable=True),
    sa.Column('seed', sa.Integer(), nullable=True),
    sa.Column('rating', sa.Float(), nullable=True),
    sa.Column('withdrawn_round', sa.Integer(), nullable=True),
    sa.Column('place', sa.Integer(), nullable=True),
    sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_tournament_entrants_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_tournament_entrants_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('tournament_id', 'player_id', name=op.f('pk_tournament_entrants'))
    )
    with op.batch_alter_table('tournament_entrants', schema=None) as batch_op:
        batch_op.create_index('ix_tournament_entrants_player_id', ['player_id'], unique=False)

    op.create_table('tournament_invitations',
    sa.Column('tournament_id', sa.String(length=32), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_tournament_invitations_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_tournament_invitations_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('tournament_id', 'player_id', name=op.f('pk_tournament_invitations'))
    )
    op.create_table('tournament_pairings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.String(length=32), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('board', sa.Integer(), nullable=False),
    sa.Column('first_id', sa.Integer(), nullable=False),
    sa.Column('second_id', sa.Integer(), nullable=True),
    sa.Column('series_id', sa.String(length=32), nullable=True),
    sa.Column('score_first', sa.Float(), nullable=True),
    sa.Column('score_second', sa.Float(), nullable=True),
    sa.Column('played', sa.Boolean(), nullable=True),
    sa.Column('points_first', sa.Integer(), nullable=False),
    sa.Column('points_second', sa.Integer(), nullable=False),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['first_id'], ['players.id'], name=op.f('fk_tournament_pairings_first_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['second_id'], ['players.id'], name=op.f('fk_tournament_pairings_second_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['series_id'], ['series.id'], name=op.f('fk_tournament_pairings_series_id_series'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_tournament_pairings_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_pairings')),
    sa.UniqueConstraint('tournament_id', 'round', 'board', name=op.f('uq_tournament_pairings_tournament_id_round_board'))
    )
    with op.batch_alter_table('tournament_pairings', schema=None) as batch_op:
        batch_op.create_index('ix_tournament_pairings_series_id', ['series_id'], unique=False)

    op.create_table('tournament_rounds',
    sa.Column('tournament_id', sa.String(length=32), nullable=False),
    sa.Column('number', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('paired_from', sa.JSON(), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('deadline_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_tournament_rounds_tournament_id_tournaments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('tournament_id', 'number', name=op.f('pk_tournament_rounds'))
    )
    op.create_table('tournament_games',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('pairing_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_tournament_games_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['pairing_id'], ['tournament_pairings.id'], name=op.f('fk_tournament_games_pairing_id_tournament_pairings'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', name=op.f('pk_tournament_games'))
    )
    with op.batch_alter_table('tournament_games', schema=None) as batch_op:
        batch_op.create_index('ix_tournament_games_pairing_id', ['pairing_id'], unique=False)



def downgrade():
    with op.batch_alter_table('series', schema=None, recreate='never') as batch_op:
        batch_op.drop_column('levels')
    with op.batch_alter_table('tournament_games', schema=None) as batch_op:
        batch_op.drop_index('ix_tournament_games_pairing_id')

    op.drop_table('tournament_games')
    op.drop_table('tournament_rounds')
    with op.batch_alter_table('tournament_pairings', schema=None) as batch_op:
        batch_op.drop_index('ix_tournament_pairings_series_id')

    op.drop_table('tournament_pairings')
    op.drop_table('tournament_invitations')
    with op.batch_alter_table('tournament_entrants', schema=None) as batch_op:
        batch_op.drop_index('ix_tournament_entrants_player_id')

    op.drop_table('tournament_entrants')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_index('ix_tournaments_status_round_deadline_at')
        batch_op.drop_index('ix_tournaments_status_created_at')
        batch_op.drop_index('ix_tournaments_organizer_id_created_at')

    op.drop_table('tournaments')
