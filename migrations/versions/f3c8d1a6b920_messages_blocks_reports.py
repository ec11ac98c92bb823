"""messages in a game, blocks between players, reports, how far mails told the messages (issue 26)

Revision ID: f3c8d1a6b920
Revises: f4c1d7a2b9e3
Create Date: 2026-11-26 09:50:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f3c8d1a6b920'
down_revision = 'f4c1d7a2b9e3'
branch_labels = None
depends_on = None


def upgrade():
    # New tables only: nothing of players or games is recreated (SQLite's batch copy would cascade).
    op.create_table(
        'game_messages',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_game_messages_game_id_id', 'game_messages', ['game_id', 'id'], unique=False)
    op.create_index('ix_game_messages_game_id_seat_created_at', 'game_messages', ['game_id', 'seat', 'created_at'],
                    unique=False)
    op.create_table(
        'blocks',
        sa.Column('blocker_id', sa.Integer(), nullable=False),
        sa.Column('blocked_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['blocker_id'], ['players.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['blocked_id'], ['players.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('blocker_id', 'blocked_id'),
    )
    op.create_index('ix_blocks_blocked_id', 'blocks', ['blocked_id'], unique=False)
    op.create_table(
        'reports',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('reporter_player_id', sa.Integer(), nullable=True),
        sa.Column('game_id', sa.String(length=32), nullable=True),
        sa.Column('reporter_seat', sa.Integer(), nullable=True),
        sa.Column('reporter_name', sa.String(length=40), nullable=True),
        sa.Column('message_id', sa.Integer(), nullable=True),
        sa.Column('message_text', sa.Text(), nullable=True),
        sa.Column('reported_player_id', sa.Integer(), nullable=True),
        sa.Column('reported_seat', sa.Integer(), nullable=True),
        sa.Column('reported_name', sa.String(length=40), nullable=True),
        sa.Column('reason', sa.String(length=16), nullable=False),
        sa.Column('details', sa.Text(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('close_note', sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(['reporter_player_id'], ['players.id'], ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['message_id'], ['game_messages.id'], ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['reported_player_id'], ['players.id'], ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_reports_closed_at', 'reports', ['closed_at'], unique=False)
    op.create_table(
        'mailed_messages',
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('through', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id', 'seat'),
    )


def downgrade():
    op.drop_table('mailed_messages')
    op.drop_index('ix_reports_closed_at', table_name='reports')
    op.drop_table('reports')
    op.drop_index('ix_blocks_blocked_id', table_name='blocks')
    op.drop_table('blocks')
    op.drop_index('ix_game_messages_game_id_seat_created_at', table_name='game_messages')
    op.drop_index('ix_game_messages_game_id_id', table_name='game_messages')
    op.drop_table('game_messages')
