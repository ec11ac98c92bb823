"""players, player seats and events, challenges, watch links (issue 15: accounts, challenges,
rematches, watch links and one stream per player)

Revision ID: 5c86eeaa143c
Revises: 5aeee99db22f
Create Date: 2026-11-24 14:39:20.232507

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5c86eeaa143c'
down_revision = '5aeee99db22f'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('name_key', sa.String(length=160), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=True),
    sa.Column('bot', sa.Boolean(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=True),
    sa.Column('token_created_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_event_seq', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players')),
    sa.UniqueConstraint('name_key', name=op.f('uq_players_name_key')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_players_token_hash'))
    )
    op.create_table('challenges',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('challenger_id', sa.Integer(), nullable=False),
    sa.Column('target_id', sa.Integer(), nullable=True),
    sa.Column('rules', sa.JSON(), nullable=False),
    sa.Column('move_time_hours', sa.Integer(), nullable=True),
    sa.Column('opponent', sa.String(length=8), nullable=False),
    sa.Column('challenger_seat', sa.Integer(), nullable=False),
    sa.Column('first_dealer', sa.Integer(), nullable=True),
    sa.Column('status', sa.String(length=12), nullable=False),
    sa.Column('reason', sa.String(length=16), nullable=True),
    sa.Column('game_id', sa.String(length=32), nullable=True),
    sa.Column('rematch_of', sa.String(length=32), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['challenger_id'], ['players.id'], name=op.f('fk_challenges_challenger_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_challenges_game_id_games'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['rematch_of'], ['games.id'], name=op.f('fk_challenges_rematch_of_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['target_id'], ['players.id'], name=op.f('fk_challenges_target_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_challenges')),
    sa.UniqueConstraint('rematch_of', name=op.f('uq_challenges_rematch_of'))
    )
    with op.batch_alter_table('challenges', schema=None) as batch_op:
        batch_op.create_index('ix_challenges_game_id', ['game_id'], unique=False)
        batch_op.create_index('ix_challenges_status_expires_at', ['status', 'expires_at'], unique=False)
        batch_op.create_index('ix_challenges_target_id_status', ['target_id', 'status'], unique=False)
    op.create_table('player_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('type', sa.String(length=32), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_player_events_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_events')),
    sa.UniqueConstraint('player_id', 'seq', name=op.f('uq_player_events_player_id_seq'))
    )
    op.create_table('player_seats',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_player_seats_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_player_seats_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'seat', name=op.f('pk_player_seats')),
    sa.UniqueConstraint('game_id', 'player_id', name=op.f('uq_player_seats_game_id_player_id'))
    )
    with op.batch_alter_table('player_seats', schema=None) as batch_op:
        batch_op.create_index('ix_player_seats_player_id', ['player_id'], unique=False)
    op.create_table('watch_links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('key_hash', sa.String(length=64), nullable=False),
    sa.Column('created_by_seat', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_watch_links_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_watch_links')),
    sa.UniqueConstraint('key_hash', name=op.f('uq_watch_links_key_hash'))
    )
    with op.batch_alter_table('watch_links', schema=None) as batch_op:
        batch_op.create_index('ix_watch_links_game_id', ['game_id'], unique=False)



def downgrade():
    with op.batch_alter_table('watch_links', schema=None) as batch_op:
        batch_op.drop_index('ix_watch_links_game_id')

    op.drop_table('watch_links')
    with op.batch_alter_table('player_seats', schema=None) as batch_op:
        batch_op.drop_index('ix_player_seats_player_id')

    op.drop_table('player_seats')
    op.drop_table('player_events')
    with op.batch_alter_table('challenges', schema=None) as batch_op:
        batch_op.drop_index('ix_challenges_target_id_status')
        batch_op.drop_index('ix_challenges_status_expires_at')
        batch_op.drop_index('ix_challenges_game_id')

    op.drop_table('challenges')
    op.drop_table('players')
