"""admin_actions, players.suspended_at and erased_at: moderation and personal data (issue 27)

Revision ID: c5d2e8f17a43
Revises: 6b1d0e4c9f27
Create Date: 2026-11-26 06:50:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c5d2e8f17a43'
down_revision = '6b1d0e4c9f27'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('admin_actions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('action', sa.String(length=16), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('game_id', sa.String(length=32), nullable=True),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('reason', sa.String(length=500), nullable=True),
    sa.Column('operator', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('admin_actions', schema=None) as batch_op:
        batch_op.create_index('ix_admin_actions_game_id_seat', ['game_id', 'seat'], unique=False)
        batch_op.create_index('ix_admin_actions_player_id', ['player_id'], unique=False)

    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('suspended_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('erased_at', sa.DateTime(timezone=True), nullable=True))


def downgrade():
    # In place (ALTER TABLE ... DROP COLUMN): SQLite's copy-and-move would drop `players` and, with
    # foreign keys on, take every row that points at it (player_events) with it.
    with op.batch_alter_table('players', schema=None, recreate='never') as batch_op:
        batch_op.drop_column('erased_at')
        batch_op.drop_column('suspended_at')

    with op.batch_alter_table('admin_actions', schema=None) as batch_op:
        batch_op.drop_index('ix_admin_actions_player_id')
        batch_op.drop_index('ix_admin_actions_game_id_seat')

    op.drop_table('admin_actions')
